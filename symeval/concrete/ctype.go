package concrete

// The C library's character classes in the "C" locale, as glibc answers
// them: its macros (isspace(c), isdigit(c)) read a table of class words
// through __ctype_b_loc() and test a bit, which the C frontend writes as
// __ctype_b(c); its functions (isdigit, toupper, ...) are called by name.

// glibc's class bits on a little-endian machine (<ctype.h>, _ISbit).
const (
	ctUpper  = 1 << 8
	ctLower  = 1 << 9
	ctAlpha  = 1 << 10
	ctDigit  = 1 << 11
	ctXdigit = 1 << 12
	ctSpace  = 1 << 13
	ctPrint  = 1 << 14
	ctGraph  = 1 << 15
	ctBlank  = 1 << 0
	ctCntrl  = 1 << 1
	ctPunct  = 1 << 2
	ctAlnum  = 1 << 3
)

// CClass is the class word of the character c (an unsigned char, or EOF)
// in the "C" locale: 0 beyond ASCII and for EOF.
func CClass(c int64) int64 {
	if c < 0 || c > 127 {
		return 0
	}
	var w int64
	upper, lower, digit := c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9'
	set := func(on bool, bit int64) {
		if on {
			w |= bit
		}
	}
	set(upper, ctUpper)
	set(lower, ctLower)
	set(upper || lower, ctAlpha)
	set(digit, ctDigit)
	set(digit || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F', ctXdigit)
	set(c == ' ' || c >= '\t' && c <= '\r', ctSpace)
	set(c >= ' ' && c <= '~', ctPrint)
	set(c > ' ' && c <= '~', ctGraph)
	set(c == ' ' || c == '\t', ctBlank)
	set(c < ' ' || c == 127, ctCntrl)
	set(c > ' ' && c <= '~' && !upper && !lower && !digit, ctPunct)
	set(upper || lower || digit, ctAlnum)
	return w
}

// classBits are the bits the is* functions test.
var classBits = map[string]int64{
	"isupper": ctUpper, "islower": ctLower, "isalpha": ctAlpha, "isdigit": ctDigit,
	"isxdigit": ctXdigit, "isspace": ctSpace, "isprint": ctPrint, "isgraph": ctGraph,
	"isblank": ctBlank, "iscntrl": ctCntrl, "ispunct": ctPunct, "isalnum": ctAlnum,
}

// CCharFunc evaluates the C library's character function name at c: an
// is* test (its class bit, nonzero where it holds, as glibc returns it),
// toupper, tolower, or the frontend's table reads __ctype_b,
// __ctype_toupper and __ctype_tolower. False for any other name.
func CCharFunc(name string, c int64) (int64, bool) {
	if bit, ok := classBits[name]; ok {
		return CClass(c) & bit, true
	}
	switch name {
	case "__ctype_b":
		return CClass(c), true
	case "toupper", "__ctype_toupper":
		if c >= 'a' && c <= 'z' {
			return c - 'a' + 'A', true
		}
		return c, true
	case "tolower", "__ctype_tolower":
		if c >= 'A' && c <= 'Z' {
			return c - 'A' + 'a', true
		}
		return c, true
	}
	return 0, false
}
