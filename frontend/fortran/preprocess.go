package fortran

import (
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// preprocess runs the built-in C-style preprocessor over a .F or .F90 file:
// #define/#undef of object-like and function-like macros, #ifdef, #ifndef, #if and #elif with
// defined(), !, &&, ||, comparisons and integer arithmetic, #else, #endif, and
// #include "file". Macros, __LINE__ and __FILE__ are expanded in the Fortran
// text outside character constants and comments (macros.go), as gfortran's
// cpp does. Output lines keep their original file and line numbers; a directive
// or skipped line becomes empty so that the line numbering is unchanged.
func (fe *frontend) preprocess(name string, src []byte) []srcLine {
	lines := splitLines(name, src)
	out := make([]srcLine, 0, len(lines))
	type cond struct {
		active, taken, parentActive bool
	}
	var stack []cond
	active := true
	for i := 0; i < len(lines); i++ {
		ln := lines[i]
		t := strings.TrimLeft(ln.text, " \t")
		if !strings.HasPrefix(t, "#") {
			if active && fe.mayExpand(ln.text) {
				ln.text, ln.cols = fe.substitute(ln.text, name, ln.num)
			}
			if !active {
				ln.text = ""
			}
			out = append(out, ln)
			continue
		}
		// Join backslash-continued directive lines.
		if strings.HasSuffix(t, "\\") {
			var jb strings.Builder
			for strings.HasSuffix(t, "\\") && i+1 < len(lines) {
				jb.WriteString(strings.TrimSuffix(t, "\\") + " ")
				i++
				t = lines[i].text
			}
			jb.WriteString(t)
			t = jb.String()
		}
		pos := apt.Pos{File: name, Line: ln.num, Col: 1}
		d := strings.TrimSpace(t[1:])
		word, rest := d, ""
		if k := strings.IndexAny(d, " \t(\""); k >= 0 {
			word, rest = d[:k], strings.TrimSpace(d[k:])
		}
		switch word {
		case "ifdef", "ifndef":
			def := fe.defined(firstWord(rest))
			c := cond{parentActive: active}
			c.active = active && def == (word == "ifdef")
			c.taken = c.active
			stack = append(stack, c)
			active = c.active
		case "if":
			c := cond{parentActive: active}
			c.active = active && fe.cppCond(rest, pos)
			c.taken = c.active
			stack = append(stack, c)
			active = c.active
		case "elif":
			if len(stack) == 0 {
				fe.diag(pos, apt.Error, "#elif without #if")
				break
			}
			c := &stack[len(stack)-1]
			c.active = c.parentActive && !c.taken && fe.cppCond(rest, pos)
			c.taken = c.taken || c.active
			active = c.active
		case "else":
			if len(stack) == 0 {
				fe.diag(pos, apt.Error, "#else without #if")
				break
			}
			c := &stack[len(stack)-1]
			c.active = c.parentActive && !c.taken
			c.taken = true
			active = c.active
		case "endif":
			if len(stack) == 0 {
				fe.diag(pos, apt.Error, "#endif without #if")
				break
			}
			stack = stack[:len(stack)-1]
			active = len(stack) == 0 || stack[len(stack)-1].active
		case "define":
			if active {
				n := firstWord(rest)
				if n == "" {
					fe.diag(pos, apt.Error, "#define without a macro name")
					break
				}
				delete(fe.macros, n)
				delete(fe.fnMacros, n)
				if after := rest[len(n):]; strings.HasPrefix(after, "(") {
					// A parenthesis right after the name opens the
					// parameters of a function-like macro.
					m, ok := parseFnMacro(after)
					if !ok {
						// Defined (for #ifdef) as itself, which its
						// rescan leaves alone: the text keeps the name.
						fe.diag(pos, apt.Warning, "the parameters of macro "+n+" cannot be read; it is defined but not expanded")
						fe.defineMacro(n, n)
						break
					}
					if fe.fnMacros == nil {
						fe.fnMacros = map[string]fnMacro{}
					}
					fe.fnMacros[n] = m
					break
				}
				fe.defineMacro(n, strings.TrimSpace(rest[len(n):]))
			}
		case "undef":
			if active {
				delete(fe.macros, firstWord(rest))
				delete(fe.fnMacros, firstWord(rest))
			}
		case "include":
			if active {
				fe.cppInclude(rest, name, pos, &out)
			}
		case "error":
			if active {
				fe.diag(pos, apt.Error, "#error "+rest)
			}
		case "", "pragma", "line", "warning":
			// Ignored, as a compiler would (or a null directive).
		default:
			if len(word) > 0 && word[0] >= '0' && word[0] <= '9' {
				break // a line marker "# 12 file"
			}
			if active {
				fe.diag(pos, apt.Warning, "unknown preprocessor directive #"+word)
			}
		}
		out = append(out, srcLine{file: name, num: ln.num})
	}
	if len(stack) > 0 {
		fe.diag(apt.Pos{File: name, Line: len(lines), Col: 1}, apt.Error, "unterminated #if")
	}
	return out
}

func (fe *frontend) cppInclude(rest, from string, pos apt.Pos, out *[]srcLine) {
	if len(rest) < 2 || (rest[0] != '"' && rest[0] != '<') {
		fe.diag(pos, apt.Error, "#include expects \"file\" or <file>")
		return
	}
	end := strings.IndexByte(rest[1:], map[byte]byte{'"': '"', '<': '>'}[rest[0]])
	if end < 0 {
		fe.diag(pos, apt.Error, "unterminated #include file name")
		return
	}
	inc := rest[1 : 1+end]
	if isMPIHeader(inc) {
		*out = append(*out, srcLine{file: from, num: pos.Line, text: "      include 'mpif.h'"})
		return
	}
	if fe.depth >= maxIncludeDepth {
		fe.diag(pos, apt.Error, "#include nested too deeply (include cycle?)")
		return
	}
	path, src, ok := fe.findInclude(inc, from)
	if !ok {
		fe.diag(pos, apt.Error, "cannot find #include file "+strconv.Quote(inc))
		return
	}
	fe.depth++
	*out = append(*out, fe.preprocess(path, src)...)
	fe.depth--
}

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	k := 0
	for k < len(s) && (isIdentByte(s[k])) {
		k++
	}
	return s[:k]
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (fe *frontend) defineMacro(name, val string) {
	if fe.macros == nil {
		fe.macros = map[string]string{}
	}
	fe.macros[name] = val
}

// substitute expands the macros of a line of file (macros.go). Macro names
// are case-sensitive, as in cpp. When it changes the line it also returns the
// column map of the result: an expansion takes the columns of the text it
// replaces (its first byte the first's, its last the last's), so positions
// stay inside the source line.
func (fe *frontend) substitute(line, file string, num int) (string, []int32) {
	x := &expander{fe: fe, file: file, line: num}
	var b strings.Builder
	var cols []int32
	changed := false
	// emit writes s for the columns first..last of the line: each byte its
	// own column when s is the line's text, an expansion's first byte the
	// first column and its last the last.
	emit := func(s string, first, last int, own bool) {
		b.WriteString(s)
		for i := range len(s) {
			switch {
			case own:
				cols = append(cols, int32(first+i))
			case i == len(s)-1:
				cols = append(cols, int32(last))
			default:
				cols = append(cols, int32(first))
			}
		}
	}
	eachPiece(line, true, func(k, e int, ident bool) int {
		if ident {
			if rep, n, ok := x.macro(line[k:e], line[e:], nil); ok {
				changed = true
				emit(rep, k+1, e+n, false)
				return e + n
			}
		}
		emit(line[k:e], k+1, e, true)
		return e
	})
	if !changed {
		return line, nil
	}
	return b.String(), cols
}

// cppCond evaluates a #if expression. Unknown identifiers are 0, as in cpp.
func (fe *frontend) cppCond(s string, pos apt.Pos) bool {
	e := &cppExpr{s: s, fe: fe}
	v := e.or()
	e.skip()
	if e.bad || e.i < len(e.s) {
		fe.diag(pos, apt.Error, "cannot evaluate #if expression "+strconv.Quote(s))
		return false
	}
	return v != 0
}

type cppExpr struct {
	s   string
	i   int
	fe  *frontend
	bad bool
	dep int
}

func (e *cppExpr) skip() {
	for e.i < len(e.s) && (e.s[e.i] == ' ' || e.s[e.i] == '\t') {
		e.i++
	}
}

func (e *cppExpr) eat(op string) bool {
	e.skip()
	if strings.HasPrefix(e.s[e.i:], op) {
		e.i += len(op)
		return true
	}
	return false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (e *cppExpr) or() int64 {
	v := e.and()
	for !e.bad && e.eat("||") {
		w := e.and()
		v = b2i(v != 0 || w != 0)
	}
	return v
}

func (e *cppExpr) and() int64 {
	v := e.cmp()
	for !e.bad && e.eat("&&") {
		w := e.cmp()
		v = b2i(v != 0 && w != 0)
	}
	return v
}

func (e *cppExpr) cmp() int64 {
	v := e.add()
	for !e.bad {
		switch {
		case e.eat("=="):
			v = b2i(v == e.add())
		case e.eat("!="):
			v = b2i(v != e.add())
		case e.eat("<="):
			v = b2i(v <= e.add())
		case e.eat(">="):
			v = b2i(v >= e.add())
		case e.eat("<"):
			v = b2i(v < e.add())
		case e.eat(">"):
			v = b2i(v > e.add())
		default:
			return v
		}
	}
	return v
}

func (e *cppExpr) add() int64 {
	v := e.unary()
	for !e.bad {
		switch {
		case e.eat("+"):
			v += e.unary()
		case e.eat("-"):
			v -= e.unary()
		default:
			return v
		}
	}
	return v
}

func (e *cppExpr) unary() int64 {
	e.dep++
	defer func() { e.dep-- }()
	if e.dep > 100 {
		e.bad = true
		return 0
	}
	switch {
	case e.eat("!"):
		return b2i(e.unary() == 0)
	case e.eat("-"):
		return -e.unary()
	case e.eat("("):
		v := e.or()
		if !e.eat(")") {
			e.bad = true
		}
		return v
	}
	e.skip()
	if e.i >= len(e.s) {
		e.bad = true
		return 0
	}
	c := e.s[e.i]
	switch {
	case c >= '0' && c <= '9':
		k := e.i
		for e.i < len(e.s) && isIdentByte(e.s[e.i]) {
			e.i++
		}
		n, err := strconv.ParseInt(strings.TrimRight(e.s[k:e.i], "uUlL"), 0, 64)
		if err != nil {
			e.bad = true
		}
		return n
	case isIdentByte(c):
		w := firstWord(e.s[e.i:])
		e.i += len(w)
		if w == "defined" {
			paren := e.eat("(")
			e.skip()
			n := firstWord(e.s[e.i:])
			e.i += len(n)
			if n == "" || (paren && !e.eat(")")) {
				e.bad = true
			}
			return b2i(e.fe.defined(n))
		}
		if v, ok := e.fe.macros[w]; ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 0, 64)
			if err == nil {
				return n
			}
			return b2i(v == "")
		}
		return 0
	}
	e.bad = true
	return 0
}
