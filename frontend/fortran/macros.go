package fortran

import (
	"slices"
	"strconv"
	"strings"
)

// Macro expansion of the built-in preprocessor, as cpp does it for the
// Fortran text: object-like and function-like macros, each expansion
// rescanned for further macros with the macro being expanded hidden (so
// #define N M, #define M 10 gives 10 and a self-reference stays), the
// arguments of a function-like macro expanded before they are substituted,
// and the predefined __LINE__ and __FILE__. Identifiers inside character
// constants and after a '!' comment are left alone; the letters of a
// number are identifiers (scanToken). cpp's
// stringizing (#) and pasting (##) are not supported: gfortran runs cpp
// in traditional mode, which has neither.

// fnMacro is a function-like macro: its parameters and its body.
type fnMacro struct {
	params []string
	body   string
}

// maxExpansion bounds the bytes one line's expansions may produce, so that
// macros that double each other (#define A B B, #define B A A) end.
const maxExpansion = 1 << 16

// parseFnMacro reads the "(a, b) body" that follows a function-like
// macro's name in a #define; ok is false when the parameter list is not
// one (variadic macros are not supported).
func parseFnMacro(s string) (m fnMacro, ok bool) {
	end := strings.IndexByte(s, ')')
	if !strings.HasPrefix(s, "(") || end < 0 {
		return fnMacro{}, false
	}
	if inner := strings.TrimSpace(s[1:end]); inner != "" {
		for _, p := range strings.Split(inner, ",") {
			p = strings.TrimSpace(p)
			if p == "" || firstWord(p) != p || p[0] >= '0' && p[0] <= '9' {
				return fnMacro{}, false
			}
			m.params = append(m.params, p)
		}
	}
	m.body = strings.TrimSpace(s[end+1:])
	return m, true
}

// defined reports whether name is a macro of either kind.
func (fe *frontend) defined(name string) bool {
	_, obj := fe.macros[name]
	_, fn := fe.fnMacros[name]
	return obj || fn
}

// mayExpand reports whether a line may hold something to expand.
func (fe *frontend) mayExpand(text string) bool {
	return len(fe.macros) > 0 || len(fe.fnMacros) > 0 || strings.Contains(text, "__")
}

// expander expands the macros of one line.
type expander struct {
	fe   *frontend
	file string
	line int
	// size counts the bytes the expansions produced; over is set once it
	// passes maxExpansion, and the rest is not expanded.
	size int
	over bool
}

// scanToken returns the end of the identifier or run of digits starting at
// k in text (k itself when text[k] starts neither), and whether it is an
// identifier. A number's letters start identifiers of their own (1e5 is 1
// and e5, 1.5_8 is 1, 5 and _8), as gfortran's traditional-mode cpp reads
// them: a macro named e5 or _8 is expanded there.
func scanToken(text string, k int) (int, bool) {
	c := text[k]
	e := k
	switch {
	case c >= '0' && c <= '9':
		for e < len(text) && text[e] >= '0' && text[e] <= '9' {
			e++
		}
		return e, false
	case isIdentByte(c):
		for e < len(text) && isIdentByte(text[e]) {
			e++
		}
		return e, true
	}
	return k, false
}

// eachPiece walks text in pieces: an identifier or a run of digits
// (scanToken), a whole character constant, the rest of the line from a '!'
// (when comments is set: a comment), or one other byte. f gets each
// piece's bounds and whether it is an identifier, and returns where the
// walk goes on (its end, or further when f took more).
func eachPiece(text string, comments bool, f func(start, end int, ident bool) int) {
	for k := 0; k < len(text); {
		c := text[k]
		e := k + 1
		ident := false
		switch {
		case c == '\'' || c == '"':
			for e < len(text) && text[e] != c {
				e++
			}
			e = min(e+1, len(text))
		case c == '!' && comments:
			e = len(text)
		default:
			if t, id := scanToken(text, k); t > k {
				e, ident = t, id
			}
		}
		k = f(k, e, ident)
	}
}

// expand returns text with its macros expanded, hide holding the macros
// whose expansions are being rescanned.
func (x *expander) expand(text string, hide map[string]bool) string {
	var b strings.Builder
	eachPiece(text, true, func(k, e int, ident bool) int {
		if ident {
			if rep, n, ok := x.macro(text[k:e], text[e:], hide); ok {
				b.WriteString(rep)
				return e + n
			}
		}
		b.WriteString(text[k:e])
		return e
	})
	return b.String()
}

// macro expands the identifier w followed by after: its replacement, the
// bytes of after the call's arguments took, and whether w is a macro here.
func (x *expander) macro(w, after string, hide map[string]bool) (string, int, bool) {
	if hide[w] || x.over {
		return "", 0, false
	}
	switch w {
	case "__LINE__":
		return strconv.Itoa(x.line), 0, true
	case "__FILE__":
		return `"` + strings.ReplaceAll(x.file, `"`, `""`) + `"`, 0, true
	}
	if v, ok := x.fe.macros[w]; ok {
		return x.rescan(v, w, hide), 0, true
	}
	m, ok := x.fe.fnMacros[w]
	if !ok {
		return "", 0, false
	}
	args, n, ok := splitArgs(after)
	if !ok {
		return "", 0, false // the name without a call is no invocation
	}
	if len(m.params) == 0 && len(args) == 1 && strings.TrimSpace(args[0]) == "" {
		args = nil
	}
	if len(args) != len(m.params) {
		return "", 0, false
	}
	for i, a := range args {
		args[i] = x.expand(strings.TrimSpace(a), hide)
	}
	return x.rescan(substParams(m.body, m.params, args), w, hide), n, true
}

// rescan expands the replacement v of macro w with w hidden.
func (x *expander) rescan(v, w string, hide map[string]bool) string {
	x.size += len(v)
	if x.size > maxExpansion {
		x.over = true
		return v
	}
	h := make(map[string]bool, len(hide)+1)
	for k := range hide {
		h[k] = true
	}
	h[w] = true
	return x.expand(v, h)
}

// splitArgs reads a macro call's parenthesised arguments at the start of
// s (after blanks): the arguments, split at the commas outside nested
// parentheses and character constants, and the bytes read; ok is false
// when s does not start a call that ends on this line.
func splitArgs(s string) (args []string, n int, ok bool) {
	k := 0
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k == len(s) || s[k] != '(' {
		return nil, 0, false
	}
	depth, start, end := 0, k+1, -1
	eachPiece(s, false, func(p, e int, _ bool) int {
		if p < k {
			return k // the blanks before the parenthesis
		}
		switch s[p] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				args, end = append(args, s[start:p]), p+1
				return len(s)
			}
		case ',':
			if depth == 1 {
				args, start = append(args, s[start:p]), p+1
			}
		}
		return e
	})
	if end < 0 {
		return nil, 0, false
	}
	return args, end, true
}

// substParams replaces the parameters of a macro body by the arguments,
// outside character constants.
func substParams(body string, params, args []string) string {
	var b strings.Builder
	eachPiece(body, false, func(k, e int, ident bool) int {
		w := body[k:e]
		if i := slices.Index(params, w); ident && i >= 0 {
			w = args[i]
		}
		b.WriteString(w)
		return e
	})
	return b.String()
}
