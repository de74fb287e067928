package symeval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/runenv"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval/concrete"
)

// The C string library on strings the evaluation knows. A C program names
// and chooses things by text: a graph's nodes "Source.0" and "Sink" built
// by sprintf and tested by strstr, a mode chosen by strncmp on argv[1].
// Where every string an operation reads is known (a literal, a buffer
// sprintf filled with known values, a copy strdup made, an argument given
// with Options.Args), the operation is evaluated; anywhere else its result
// is unknown, as any external function's.

// cString returns the text a char* expression holds: a literal, or a
// variable, component or element whose value is a known string, up to its
// terminating NUL (a buffer may hold characters past one a store put).
func (ev *evaluator) cString(e apt.Expr) (string, bool) {
	s, ok := ev.cString1(e)
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return s, ok
}

func (ev *evaluator) cString1(e apt.Expr) (string, bool) {
	switch x := e.(type) {
	case *apt.Const:
		if x.Kind == apt.ConstChar {
			return x.Text, true
		}
		return "", false
	case *apt.Name:
		if v, ok := ev.env.lookup(ev.key(x.Name)); ok && v.str != nil {
			return *v.str, true
		}
		if x.Type.Base == apt.TypeInteger && x.Type.Kind == 1 && ev.cPointers() {
			// A char* holding an address inside a buffer the text
			// of which is known (key = trim(line)): the text from there.
			if s, ok := ev.textFrom(pointedElement(x)); ok {
				return s, true
			}
		}
		return "", false
	case *apt.Index:
		if s, ok := ev.argvString(x); ok {
			return s, true
		}
		if s, ok := ev.argvSuffix(x); ok {
			return s, true
		}
		if s, ok := ev.textFrom(x); ok {
			// &buf[k]: the text the buffer holds (fgets, sscanf,
			// sprintf) from its k-th character.
			return s, true
		}
	}
	if v := ev.value(e); v.str != nil {
		return *v.str, true
	}
	return "", false
}

// stringCall evaluates a call of the C string library whose strings are
// known: strlen, strcmp, strncmp, strstr, strchr, strdup, atoi and atol,
// and getenv of a variable the evaluation knows the environment of.
func (ev *evaluator) stringCall(f *apt.FuncCall) (Value, bool) {
	str := func(i int) (string, bool) {
		if i >= len(f.Args) {
			return "", false
		}
		return ev.cString(f.Args[i])
	}
	num := func(i int) (int64, bool) {
		if i >= len(f.Args) {
			return 0, false
		}
		e, ok := ev.closedInt(ev.value(f.Args[i]), f.Pos).Single()
		if !ok {
			return 0, false
		}
		return e.Int64()
	}
	sign := func(c int) Value { return Known(symbolic.Int(int64(c))) }
	if _, isChar := concrete.CCharFunc(f.Name, 0); isChar && len(f.Args) == 1 && ev.prog.Notation() != apt.Fortran {
		// isdigit(c), toupper(c), a class word of glibc's table.
		if c, ok := num(0); ok {
			v, _ := concrete.CCharFunc(f.Name, c)
			return Known(symbolic.Int(v)), true
		}
		return Value{}, false
	}
	switch f.Name {
	case "strlen":
		if s, ok := str(0); ok {
			return Known(symbolic.Int(int64(len(s)))), true
		}
	case "strcmp":
		a, ok1 := str(0)
		b, ok2 := str(1)
		if ok1 && ok2 {
			return sign(strings.Compare(a, b)), true
		}
	case "strncmp":
		a, ok1 := str(0)
		b, ok2 := str(1)
		n, ok3 := num(2)
		if ok1 && ok2 && ok3 && n >= 0 {
			return sign(strings.Compare(prefix(a, n), prefix(b, n))), true
		}
	case "strstr", "strchr", "strrchr", "strpbrk":
		a, ok1 := str(0)
		var b string
		ok2 := false
		if f.Name == "strstr" || f.Name == "strpbrk" {
			b, ok2 = str(1)
		} else if c, ok := num(1); ok {
			b, ok2 = string(rune(c)), true
		}
		if !ok1 || !ok2 {
			break
		}
		var at int
		switch f.Name {
		case "strstr":
			at = strings.Index(a, b)
		case "strpbrk":
			at = strings.IndexAny(a, b)
		case "strrchr":
			at = strings.LastIndex(a, b)
		default:
			at = strings.Index(a, b)
		}
		if b == "\x00" {
			// strchr(s, 0) finds the terminating NUL.
			at = len(a)
		}
		if at < 0 {
			return Known(symbolic.Int(0)), true
		}
		if p, ok := ev.textAddress(f.Args[0], int64(at)); ok {
			// A pointer into the text, which the evaluation follows:
			// reads and writes through it reach the buffer.
			return p, true
		}
		// NULL or a pointer into a, which programs test for NULL: 1
		// stands for it, and a write through it makes a's text
		// unknown.
		ev.escapeText(f.Args[0])
		return Known(symbolic.Int(1)), true
	case "strdup":
		if s, ok := str(0); ok {
			return Value{str: &s}, true
		}
	case "strtok", "strtok_r":
		return ev.strtok(f)
	case "getenv":
		// The run's environment (Options.Env, mkvet's -env): a variable
		// it does not set is unset, NULL, and the program takes its own
		// fallback, as GET_ENVIRONMENT_VARIABLE's status says (environ.go).
		if name, ok := str(0); ok {
			if v, set := ev.environ[name]; set {
				return Value{str: &v}, true
			}
			ev.addInput(InputFile{Pos: f.Pos, Name: name, How: "getenv", Environment: true})
			return Known(symbolic.Int(0)), true
		}
	case "atoi", "atol", "atoll":
		if s, ok := str(0); ok {
			return Known(symbolic.Int(cAtoi(s))), true
		}
	}
	return Value{}, false
}

// strtok evaluates strtok(s, delim) (C11 7.24.5.8) on known text: the next
// token of s, or, with s NULL, of the text the previous call left, as the
// text it points to; NULL (0) where no token is left. The buffer s names
// then holds a NUL after the token, as the run's does.
func (ev *evaluator) strtok(f *apt.FuncCall) (Value, bool) {
	// strtok keeps where it stopped itself; strtok_r (POSIX) in the
	// pointer its third argument names, whose text is then the rest.
	rest := func() (string, bool) {
		if ev.strtokRest == nil {
			return "", false
		}
		return *ev.strtokRest, true
	}
	keep := func(r *string) { ev.strtokRest = r }
	switch {
	case f.Name == "strtok_r" && len(f.Args) == 3:
		save, ok := f.Args[2].(*apt.Name)
		if !ok {
			return Value{}, false
		}
		rest = func() (string, bool) { return ev.cString(save) }
		keep = func(r *string) {
			ev.dropAddr(save)
			if r == nil {
				ev.store(save.Name, unknownValue(save.Name, "where strtok_r stopped", false))
				return
			}
			ev.store(save.Name, Value{str: r})
		}
	case len(f.Args) != 2:
		return Value{}, false
	}
	delim, ok := ev.cString(f.Args[1])
	if !ok {
		keep(nil)
		return Value{}, false
	}
	var text string
	buf, fresh := "", true
	if v, ok := ev.closedInt(ev.value(f.Args[0]), f.Pos).Single(); ok && v.IsZero() {
		fresh = false
		if text, ok = rest(); !ok {
			keep(nil)
			return Value{}, false
		}
	} else {
		t, ok := ev.cString(f.Args[0])
		if !ok {
			keep(nil)
			return Value{}, false
		}
		text = t
		if nm, ok := f.Args[0].(*apt.Name); ok {
			buf = nm.Name
		}
	}
	start := 0
	for start < len(text) && strings.IndexByte(delim, text[start]) >= 0 {
		start++
	}
	if start == len(text) {
		r := ""
		keep(&r)
		return Known(symbolic.Int(0)), true
	}
	end := start
	for end < len(text) && strings.IndexByte(delim, text[end]) < 0 {
		end++
	}
	tok := text[start:end]
	r := ""
	if end < len(text) {
		r = text[end+1:]
		if fresh && buf != "" {
			if cur, ok := ev.env.lookup(ev.key(buf)); ok && cur.str != nil && len(*cur.str) > end {
				t := (*cur.str)[:end] + "\x00" + (*cur.str)[end+1:]
				ev.env.set(ev.key(buf), Value{str: &t})
			}
		}
	}
	keep(&r)
	return Value{str: &tok}, true
}

// sprintfCall evaluates sprintf(buf, format, ...) and snprintf(buf, n,
// format, ...) into a buffer variable, when the format and its arguments
// are known: the buffer holds the text.
func (ev *evaluator) sprintfCall(c *apt.Call) bool {
	fi := 1
	if c.Callee == "snprintf" {
		fi = 2
	}
	if len(c.Args) <= fi {
		return false
	}
	buf, ok := c.Args[0].(*apt.Name)
	if !ok {
		return false
	}
	text, ok := ev.cString(c.Args[fi])
	if ok {
		text, ok = ev.cFormat(text, c.Args[fi+1:], c.Span.Start())
	}
	if !ok {
		ev.store(buf.Name, unknownValue(buf.Name, "the text "+c.Callee+" writes into "+buf.Name, true))
		return true
	}
	ev.store(buf.Name, Value{str: &text})
	return true
}

// cFormat formats the conversions %d, %i, %u, %ld, %c and %s (with flags
// and widths) of a printf format whose arguments are known.
func (ev *evaluator) cFormat(format string, args []apt.Expr, pos apt.Pos) (string, bool) {
	return formatC(format, func(k int, conv byte) (int64, string, bool) {
		if k >= len(args) {
			return 0, "", false
		}
		if conv == 's' {
			s, ok := ev.cString(args[k])
			return 0, s, ok
		}
		e, ok := ev.closedInt(ev.value(args[k]), pos).Single()
		if !ok {
			return 0, "", false
		}
		n, ok := e.Int64()
		return n, "", ok
	})
}

// formatC formats a printf format with the k-th argument's value from arg
// (an integer, or the text for %s); false for a conversion it does not
// know (floating point) or an argument without a value.
func formatC(format string, arg func(k int, conv byte) (int64, string, bool)) (string, bool) {
	var b strings.Builder
	k := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0123456789.lhz", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			return "", false
		}
		spec := strings.NewReplacer("l", "", "h", "", "z", "").Replace(format[i:j])
		conv := format[j]
		i = j
		if conv == '%' {
			b.WriteByte('%')
			continue
		}
		switch conv {
		case 'd', 'i', 'u', 'c', 's':
		default:
			return "", false
		}
		n, text, ok := arg(k, conv)
		k++
		if !ok {
			return "", false
		}
		switch conv {
		case 'c':
			fmt.Fprintf(&b, spec+"c", rune(n))
		case 's':
			fmt.Fprintf(&b, spec+"s", text)
		default:
			fmt.Fprintf(&b, spec+"d", n)
		}
	}
	return b.String(), true
}

func prefix(s string, n int64) string {
	if int64(len(s)) > n {
		return s[:n]
	}
	return s
}

// cAtoi is C's atoi: leading blanks, a sign, the digits that follow.
func cAtoi(s string) int64 {
	s = strings.TrimLeft(s, " \t\n")
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || end == 0 && (s[0] == '-' || s[0] == '+')) {
		end++
	}
	n, _ := strconv.ParseInt(s[:end], 10, 64)
	return n
}

// cNumberLen is how many bytes of s the conversion cNumber makes reads (0
// where it reads no number, as strtol's end pointer then says).
func cNumberLen(s string, real bool) int {
	lead := len(s) - len(strings.TrimLeft(s, " \t\n"))
	t := s[lead:]
	if !real {
		end := 0
		if end < len(t) && (t[0] == '-' || t[0] == '+') {
			end++
		}
		digits := end
		for end < len(t) && t[end] >= '0' && t[end] <= '9' {
			end++
		}
		if end == digits {
			return 0
		}
		return lead + end
	}
	if i := strings.IndexFunc(t, func(r rune) bool { return !strings.ContainsRune("0123456789+-.eE", r) }); i >= 0 {
		t = t[:i]
	}
	for end := len(t); end > 0; end-- {
		if _, ok := runenv.Real(t[:end]); ok {
			return lead + end
		}
	}
	return 0
}

// cNumber is the value C's conversion functions give text: atoi and
// strtol's integer prefix, or for a floating-point result (atof, strtod)
// the longest prefix that spells a decimal number, exactly; 0 where none
// does, as C gives.
func cNumber(s string, real bool) Value {
	if !real {
		return Known(symbolic.Int(cAtoi(s)))
	}
	s = strings.TrimLeft(s, " \t\n")
	if i := strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789+-.eE", r) }); i >= 0 {
		s = s[:i] // (C knows no Fortran exponent letter D)
	}
	for end := len(s); end > 0; end-- {
		if r, ok := runenv.Real(s[:end]); ok {
			return Known(symbolic.Const(symbolic.RatBig(r)))
		}
	}
	return Known(symbolic.Int(0))
}

// argvString returns argv(k) of the program's main, the k-th argument
// Options.Args gives (argv(0) the program's name).
func (ev *evaluator) argvString(x *apt.Index) (string, bool) {
	if ev.args == nil || ev.argvKey == "" || x.Base != nil || len(x.Subs) != 1 || ev.key(x.Name) != ev.argvKey {
		return "", false
	}
	return ev.argvText(x)
}

// argvSuffix is the text at &argv[i][j], where a string is read there
// (strcmp(argv[i] + 2, name) past an option's dashes): the argument's text
// from its j-th character.
func (ev *evaluator) argvSuffix(x *apt.Index) (string, bool) {
	if ev.args == nil || ev.argvKey == "" || x.Base != nil || len(x.Subs) != 2 || ev.key(x.Name) != ev.argvKey {
		return "", false
	}
	s, ok := ev.argvText(x)
	if !ok {
		return "", false
	}
	e, ok := ev.closedInt(ev.value(x.Subs[1]), x.Pos).Single()
	j, ok2 := e.Int64()
	if !ok || !ok2 || j < 0 || j > int64(len(s)) {
		return "", false
	}
	return s[j:], true
}

// argvChar is character argv(k, j) of a command-line argument the run
// gives (argv[i][1] in C): its code, 0 at and past the terminating NUL.
func (ev *evaluator) argvChar(x *apt.Index) (Value, bool) {
	if ev.args == nil || ev.argvKey == "" || x.Base != nil || len(x.Subs) != 2 || ev.key(x.Name) != ev.argvKey {
		return Value{}, false
	}
	s, ok := ev.argvText(x)
	if !ok {
		return Value{}, false
	}
	e, ok := ev.closedInt(ev.value(x.Subs[1]), x.Pos).Single()
	j, ok2 := e.Int64()
	if !ok || !ok2 || j < 0 {
		return Value{}, false
	}
	if j >= int64(len(s)) {
		return Known(symbolic.Int(0)), true
	}
	return Known(symbolic.Int(int64(s[j]))), true
}

// argvText is the text of the argument x's first subscript names.
func (ev *evaluator) argvText(x *apt.Index) (string, bool) {
	e, ok := ev.closedInt(ev.value(x.Subs[0]), x.Pos).Single()
	if !ok {
		return "", false
	}
	k, ok := e.Int64()
	switch {
	case !ok || k < 0 || k > int64(len(ev.args)):
		return "", false
	case k == 0:
		return runenv.ProgramName, true
	}
	return ev.args[k-1], true
}

// readsArgv reports whether a call reads the text of main's argv without
// the arguments given.
func (ev *evaluator) readsArgv(f *apt.FuncCall) bool {
	if ev.args != nil {
		return false
	}
	for _, a := range f.Args {
		if ix, ok := a.(*apt.Index); ok && ix.Base == nil && ev.isArgv(ix.Name) {
			return true
		}
	}
	return false
}

// isArgv reports whether name is main's argv (its second argument) as seen
// from the current routine.
func (ev *evaluator) isArgv(name string) bool {
	if len(ev.frames) == 0 {
		return false
	}
	entry := ev.frames[0]
	if len(entry.routine.Formals) < 2 || entry.routine != ev.res.Entry {
		return false
	}
	return ev.key(name) == entry.id+"."+entry.routine.Formals[1]
}

// escapeText notes that a pointer into the buffer e names (a variable's
// text, not a literal or an argument) was handed out whose address the
// evaluation does not know (the buffer has none it follows): a write
// through a pointer it cannot place may then change the buffer, so such a
// write makes the buffer's text unknown (forgetEscaped).
func (ev *evaluator) escapeText(e apt.Expr) {
	name, ok := bufferName(e)
	if !ok {
		return
	}
	k := ev.key(name)
	if v, ok := ev.env.lookup(k); !ok || v.str == nil {
		return
	}
	if ev.escapedText == nil {
		ev.escapedText = map[string]string{}
	}
	ev.escapedText[k] = name
}

// bufferName is the variable whose storage e names, a character buffer
// or an element of one (line, &line[k]); not a component.
func bufferName(e apt.Expr) (string, bool) {
	switch x := e.(type) {
	case *apt.Name:
		return x.Name, true
	case *apt.Index:
		if x.Base == nil {
			return x.Name, true
		}
	}
	return "", false
}

// forgetEscaped makes the text of every buffer a pointer was handed out
// into unknown: a character was stored through a pointer the evaluation
// does not follow, which may point into one of them.
func (ev *evaluator) forgetEscaped(pos apt.Pos) {
	for k, name := range ev.escapedText {
		if v, ok := ev.env.lookup(k); ok && v.str != nil {
			ev.env.set(k, unknownValue(name, "the text of "+name+" after a write through a pointer into it at "+pos.String(), false))
		}
	}
}

// readOnlyText are C library functions that read the strings they are
// given and write none of them (the others, strtok, strcpy, strcat,
// memset, may write any).
var readOnlyText = map[string]bool{"strlen": true, "strnlen": true, "strcmp": true, "strncmp": true,
	"strcasecmp": true, "strncasecmp": true, "strchr": true, "strrchr": true, "strstr": true, "strspn": true,
	"strcspn": true, "strpbrk": true, "atoi": true, "atol": true, "atoll": true, "atof": true, "strtol": true,
	"strtoul": true, "strtoll": true, "strtoull": true, "strtod": true, "strtof": true, "strdup": true,
	"getenv": true, "fopen": true, "puts": true, "fputs": true, "perror": true, "access": true}

// externalWrites accounts for an external C function given character
// pointers: unless it only reads its strings, the text of each buffer it
// is given becomes unknown (strtok cuts the line it scans), and a pointer
// that is not a buffer's own may point into one a pointer was handed out
// into (forgetEscaped).
func (ev *evaluator) externalWrites(name string, args []apt.Expr, pos apt.Pos) {
	if readOnlyText[name] || !ev.cPointers() {
		return
	}
	for _, a := range args {
		buf, ok := bufferName(a)
		if !ok {
			continue
		}
		if t := apt.TypeOf(a); t.Base != apt.TypeCharacter && (t.Base != apt.TypeInteger || t.Kind != 1) {
			continue
		}
		k := ev.key(buf)
		if v, ok := ev.env.lookup(k); ok && v.str != nil {
			ev.env.set(k, unknownValue(buf, "the text of "+buf+" after the call of "+name+" at "+pos.String(), false))
			continue
		}
		if _, own := ev.escapedText[k]; !own && len(ev.escapedText) > 0 {
			ev.forgetEscaped(pos)
		}
	}
}
