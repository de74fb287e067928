package runenv

import (
	"math/big"
	"strconv"
	"strings"
)

// C's scanf family on a text the run holds (sscanf of a line fgets read, of
// an argument), as C11 7.21.6.2 says: a white-space directive takes any
// white space, an ordinary character must come next, a conversion takes
// the longest run of characters that is, or begins, a matching input
// sequence, within its width. The scan stops at the first character that
// does not match (a matching failure) or at the end of the text (an input
// failure, EOF when nothing was assigned).

// Scanned is one item a conversion assigned: Conv its conversion ('d',
// 'i', 'u', 'o', 'x', 'f', 's', 'c', '[' or 'n'), Text the characters it
// took; Int the value of an integer conversion (of %n: the characters
// consumed so far), Real that of a floating one.
type Scanned struct {
	Conv byte
	Text string
	Int  int64
	Real *big.Rat
	At   int // where in the text Text starts
}

// ScanC scans text with format as sscanf does. It returns the items
// assigned in order, sscanf's value (their number, or -1 when the text
// ends before any is assigned) and the characters consumed; ok is
// false where the scan would rest on what it does not follow (infinities,
// NaNs and hexadecimal floats, a value past 64 bits, a negative %u, a
// malformed format).
func ScanC(format, text string) (items []Scanned, result, used int, ok bool) {
	in := 0
	count := 0
	// fail is an input failure (the text ends): EOF while nothing is
	// assigned, as the C library has it (a suppressed conversion that
	// completed does not count).
	fail := func() ([]Scanned, int, int, bool) {
		if count == 0 {
			return items, -1, in, true
		}
		return items, count, in, true
	}
	for f := 0; f < len(format); f++ {
		c := format[f]
		if IsSpaceC(c) {
			for in < len(text) && IsSpaceC(text[in]) {
				in++
			}
			continue
		}
		if c != '%' {
			if in >= len(text) {
				return fail()
			}
			if text[in] != c {
				return items, count, in, true // a matching failure
			}
			in++
			continue
		}
		f++
		if f >= len(format) {
			return nil, 0, 0, false
		}
		if format[f] == '%' {
			for in < len(text) && IsSpaceC(text[in]) {
				in++
			}
			if in >= len(text) {
				return fail()
			}
			if text[in] != '%' {
				return items, count, in, true
			}
			in++
			continue
		}
		suppress := false
		if format[f] == '*' {
			suppress = true
			f++
		}
		width := 0
		for f < len(format) && format[f] >= '0' && format[f] <= '9' {
			width = width*10 + int(format[f]-'0')
			if width > 1<<20 {
				return nil, 0, 0, false
			}
			f++
		}
		for f < len(format) && strings.IndexByte("hlLjzt", format[f]) >= 0 {
			f++
		}
		if f >= len(format) {
			return nil, 0, 0, false
		}
		conv := format[f]
		var set func(byte) bool
		if conv == '[' {
			var okSet bool
			set, f, okSet = scanSet(format, f+1)
			if !okSet {
				return nil, 0, 0, false
			}
		}
		if conv == 'n' {
			if !suppress {
				items = append(items, Scanned{Conv: 'n', Int: int64(in)})
			}
			continue
		}
		if conv != 'c' && conv != '[' {
			for in < len(text) && IsSpaceC(text[in]) {
				in++
			}
		}
		if in >= len(text) {
			return fail()
		}
		limit := len(text)
		if width > 0 && in+width < limit {
			limit = in + width
		}
		var item Scanned
		switch conv {
		case 'd', 'i', 'u', 'o', 'x', 'X':
			n, v, okNum, bad := scanInt(text[in:limit], conv)
			if bad {
				return nil, 0, 0, false
			}
			if !okNum {
				return items, count, in, true
			}
			item = Scanned{Conv: conv, Text: text[in : in+n], Int: v, At: in}
			in += n
		case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
			n, bad := floatLen(text[in:limit])
			if bad {
				return nil, 0, 0, false
			}
			if n == 0 {
				return items, count, in, true
			}
			r, okReal := Real(text[in : in+n])
			if !okReal {
				return nil, 0, 0, false
			}
			item = Scanned{Conv: 'f', Text: text[in : in+n], Real: r, At: in}
			in += n
		case 's':
			j := in
			for j < limit && !IsSpaceC(text[j]) {
				j++
			}
			item = Scanned{Conv: 's', Text: text[in:j], At: in}
			in = j
		case 'c':
			w := 1
			if width > 0 {
				w = width
			}
			if in+w > len(text) {
				// Fewer characters than the width: an input failure after
				// what was taken, which is still assigned.
				return nil, 0, 0, false
			}
			item = Scanned{Conv: 'c', Text: text[in : in+w], At: in}
			in += w
		case '[':
			j := in
			for j < limit && set(text[j]) {
				j++
			}
			if j == in {
				return items, count, in, true
			}
			item = Scanned{Conv: '[', Text: text[in:j], At: in}
			in = j
		default:
			return nil, 0, 0, false
		}
		if !suppress {
			items = append(items, item)
			count++
		}
	}
	return items, count, in, true
}

// IsSpaceC is C's isspace in the "C" locale (what separates scanf's
// words, and strings.Fields's in ASCII text).
func IsSpaceC(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// scanSet reads a %[ scanset from format[f:] (after the bracket): the
// membership test and the index of its closing bracket.
func scanSet(format string, f int) (func(byte) bool, int, bool) {
	negate := false
	if f < len(format) && format[f] == '^' {
		negate = true
		f++
	}
	var in [256]bool
	first := true
	for ; f < len(format); f++ {
		c := format[f]
		if c == ']' && !first {
			return func(b byte) bool { return in[b] != negate }, f, true
		}
		first = false
		if f+2 < len(format) && format[f+1] == '-' && format[f+2] != ']' && format[f+2] >= c {
			for b := int(c); b <= int(format[f+2]); b++ {
				in[b] = true
			}
			f += 2
			continue
		}
		in[c] = true
	}
	return nil, 0, false
}

// scanInt takes an integer of conversion conv from the start of s: the
// characters taken and the value; ok false for a matching failure, bad
// for a value past 64 bits or a negative %u.
func scanInt(s string, conv byte) (n int, v int64, ok, bad bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base := 10
	switch conv {
	case 'o':
		base = 8
	case 'x', 'X':
		base = 16
	}
	start := i
	if (conv == 'i' || base == 16) && i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') {
		if i+2 >= len(s) || !digitIn(s[i+2], 16) {
			return 0, 0, false, true // "0x" and no digit: libraries differ
		}
		base, i, start = 16, i+2, i+2
	} else if conv == 'i' && i < len(s) && s[i] == '0' {
		base = 8
	}
	for i < len(s) && digitIn(s[i], base) {
		i++
	}
	if i == start {
		return 0, 0, false, false
	}
	u, err := strconv.ParseUint(s[start:i], base, 64)
	if err != nil || u > 1<<63-1 || neg && conv == 'u' {
		return 0, 0, false, true
	}
	v = int64(u)
	if neg {
		v = -v
	}
	return i, v, true, false
}

func digitIn(c byte, base int) bool {
	switch {
	case c >= '0' && c <= '9':
		return int(c-'0') < base
	case c >= 'a' && c <= 'f':
		return base == 16
	case c >= 'A' && c <= 'F':
		return base == 16
	}
	return false
}

// floatLen is the length of the decimal floating constant at the start of
// s (sign, digits, point, digits, exponent), 0 when none; bad for the
// forms the scan does not follow (inf, nan, hexadecimal) and for an
// exponent with no digits, where glibc fails after taking characters.
func floatLen(s string) (n int, bad bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i < len(s) && strings.IndexByte("iInN", s[i]) >= 0 {
		return 0, true
	}
	if i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') {
		return 0, true
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		if i > 0 {
			return 0, true // a sign or a point alone: taken, then failed
		}
		return 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j {
			return 0, true
		}
		i = k
	}
	return i, false
}
