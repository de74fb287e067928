package counting

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mkvet/mkvet/symbolic"
)

// ParseError is a problem in a set's text at a 1-based column.
type ParseError struct {
	Col int
	Msg string
}

func (e *ParseError) Error() string { return fmt.Sprintf("col %d: %s", e.Col, e.Msg) }

// ParseSet reads a set in isl's notation with mkvet's extensions:
//
//	[n1, n2, p, k] -> { [j1, j2] : 1 <= j1 <= n1 and 1 <= j2 <= j1*n1 and j2 <= n2
//	                              and floor(n2*(k-1)/p) + 1 <= j2 <= floor(n2*k/p) }
//
// The parameter list and "->" may be omitted. Conditions are chains of
// comparisons (<= < >= > = == !=) of expressions in symbolic's notation (so
// floor, ceil, mod, modulo, min, max and products of a parameter and a
// variable are allowed; / is exact division), joined by and, or, not and
// parentheses. Variables are listed outermost first.
func ParseSet(s string) (*Set, error) {
	p := &setParser{src: s}
	set, err := p.set()
	if err != nil {
		return nil, err
	}
	if err := set.check(); err != nil {
		return nil, &ParseError{Col: 1, Msg: err.Error()}
	}
	return set, nil
}

type setParser struct {
	src string
	pos int
}

func (p *setParser) errf(pos int, format string, args ...any) error {
	return &ParseError{Col: pos + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *setParser) skip() {
	for p.pos < len(p.src) && strings.ContainsRune(" \t\r\n", rune(p.src[p.pos])) {
		p.pos++
	}
}

func (p *setParser) peek(tok string) bool {
	p.skip()
	return strings.HasPrefix(p.src[p.pos:], tok)
}

func (p *setParser) expect(tok string) error {
	p.skip()
	if !strings.HasPrefix(p.src[p.pos:], tok) {
		found := "end of input"
		if p.pos < len(p.src) {
			found = fmt.Sprintf("%q", p.src[p.pos:p.pos+1])
		}
		return p.errf(p.pos, "expected %q, found %s", tok, found)
	}
	p.pos += len(tok)
	return nil
}

func (p *setParser) set() (*Set, error) {
	set := &Set{}
	if p.peek("[") {
		names, err := p.names()
		if err != nil {
			return nil, err
		}
		set.Params = names
		if err := p.expect("->"); err != nil {
			return nil, err
		}
	}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	if !p.peek("[") {
		return nil, p.errf(p.pos, "expected the variable tuple [...]")
	}
	vars, err := p.names()
	if err != nil {
		return nil, err
	}
	set.Vars = vars
	if p.peek(":") {
		p.pos++
		f, err := p.disj()
		if err != nil {
			return nil, err
		}
		set.Cond = f
	}
	if err := p.expect("}"); err != nil {
		return nil, err
	}
	p.skip()
	if p.pos != len(p.src) {
		return nil, p.errf(p.pos, "unexpected text after the set")
	}
	return set, nil
}

// names reads "[a, b, c]".
func (p *setParser) names() ([]string, error) {
	if err := p.expect("["); err != nil {
		return nil, err
	}
	var out []string
	p.skip()
	if p.peek("]") {
		p.pos++
		return out, nil
	}
	for {
		p.skip()
		start := p.pos
		for p.pos < len(p.src) && (isIdent(p.src[p.pos]) || p.pos > start && p.src[p.pos] >= '0' && p.src[p.pos] <= '9') {
			p.pos++
		}
		if p.pos == start {
			return nil, p.errf(p.pos, "expected a name")
		}
		name := p.src[start:p.pos]
		if isKeyword(name) {
			return nil, p.errf(start, "%s is a keyword, not a name", name)
		}
		out = append(out, name)
		p.skip()
		if p.peek(",") {
			p.pos++
			continue
		}
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		return out, nil
	}
}

func isIdent(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isKeyword(s string) bool { return s == "and" || s == "or" || s == "not" }

// disj := conj {or conj}
func (p *setParser) disj() (Formula, error) {
	f, err := p.conj()
	if err != nil {
		return nil, err
	}
	fs := []Formula{f}
	for p.keyword("or") || p.symbol("||") {
		g, err := p.conj()
		if err != nil {
			return nil, err
		}
		fs = append(fs, g)
	}
	if len(fs) == 1 {
		return f, nil
	}
	return Or(fs), nil
}

// conj := unary {and unary}
func (p *setParser) conj() (Formula, error) {
	f, err := p.unary()
	if err != nil {
		return nil, err
	}
	fs := []Formula{f}
	for p.keyword("and") || p.symbol("&&") {
		g, err := p.unary()
		if err != nil {
			return nil, err
		}
		fs = append(fs, g)
	}
	if len(fs) == 1 {
		return f, nil
	}
	return And(fs), nil
}

// keyword consumes the word w when it stands alone.
func (p *setParser) keyword(w string) bool {
	p.skip()
	if !strings.HasPrefix(p.src[p.pos:], w) {
		return false
	}
	end := p.pos + len(w)
	if end < len(p.src) && (isIdent(p.src[end]) || p.src[end] >= '0' && p.src[end] <= '9') {
		return false
	}
	p.pos = end
	return true
}

func (p *setParser) symbol(s string) bool {
	if p.peek(s) {
		p.pos += len(s)
		return true
	}
	return false
}

const maxFormulaDepth = 100

// unary := not unary | ( formula ) | chain
func (p *setParser) unary() (Formula, error) {
	return p.unaryDepth(0)
}

func (p *setParser) unaryDepth(depth int) (Formula, error) {
	if depth > maxFormulaDepth {
		return nil, p.errf(p.pos, "conditions nested deeper than %d", maxFormulaDepth)
	}
	if p.keyword("not") || p.symbol("!") && !p.peek("=") {
		f, err := p.unaryDepth(depth + 1)
		if err != nil {
			return nil, err
		}
		return Not{f}, nil
	}
	p.skip()
	if p.peek("(") && p.formulaParen() {
		p.pos++
		f, err := p.disj()
		if err != nil {
			return nil, err
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		return f, nil
	}
	return p.chain()
}

// formulaParen reports whether the parenthesis at p.pos encloses a condition
// (a comparison or a keyword at its top level) rather than an expression.
func (p *setParser) formulaParen() bool {
	depth := 0
	for i := p.pos; i < len(p.src); i++ {
		c := p.src[i]
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return false
			}
		case depth == 1 && strings.ContainsRune("<>=!&|", rune(c)):
			return true
		case depth == 1 && isIdent(c) && (i == 0 || !isIdent(p.src[i-1]) && !(p.src[i-1] >= '0' && p.src[i-1] <= '9')):
			j := i
			for j < len(p.src) && (isIdent(p.src[j]) || p.src[j] >= '0' && p.src[j] <= '9') {
				j++
			}
			if isKeyword(p.src[i:j]) {
				return true
			}
			i = j - 1
		}
	}
	return false
}

// chain := expr relop expr {relop expr}
func (p *setParser) chain() (Formula, error) {
	lhs, err := p.expr()
	if err != nil {
		return nil, err
	}
	var fs []Formula
	for {
		op, ok := p.relop()
		if !ok {
			break
		}
		rhs, err := p.expr()
		if err != nil {
			return nil, err
		}
		switch op {
		case "!=":
			fs = append(fs, Not{Rel{symbolic.Rel(lhs, "==", rhs)}})
		case "=":
			fs = append(fs, Rel{symbolic.Rel(lhs, "==", rhs)})
		default:
			fs = append(fs, Rel{symbolic.Rel(lhs, op, rhs)})
		}
		lhs = rhs
	}
	if len(fs) == 0 {
		p.skip()
		return nil, p.errf(p.pos, "expected a comparison (<=, <, >=, >, =, !=)")
	}
	if len(fs) == 1 {
		return fs[0], nil
	}
	return And(fs), nil
}

func (p *setParser) relop() (string, bool) {
	p.skip()
	for _, op := range []string{"<=", ">=", "==", "!=", "<", ">", "="} {
		if strings.HasPrefix(p.src[p.pos:], op) {
			p.pos += len(op)
			return op, true
		}
	}
	return "", false
}

// expr reads an expression up to the next comparison, keyword, unmatched ')'
// or '}' and parses it with symbolic.Parse.
func (p *setParser) expr() (symbolic.Expr, error) {
	p.skip()
	start := p.pos
	depth := 0
	i := p.pos
scan:
	for i < len(p.src) {
		c := p.src[i]
		switch {
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				break scan
			}
			depth--
		case c == '}':
			break scan
		case depth == 0 && strings.ContainsRune("<>=!&|", rune(c)):
			break scan
		case isIdent(c):
			j := i
			for j < len(p.src) && (isIdent(p.src[j]) || p.src[j] >= '0' && p.src[j] <= '9') {
				j++
			}
			if depth == 0 && isKeyword(p.src[i:j]) {
				break scan
			}
			i = j
			continue
		}
		i++
	}
	text := p.src[start:i]
	if strings.TrimSpace(text) == "" {
		return symbolic.Expr{}, p.errf(start, "expected an expression")
	}
	e, err := symbolic.Parse(text)
	if err != nil {
		var pe *symbolic.ParseError
		if errors.As(err, &pe) {
			return symbolic.Expr{}, &ParseError{Col: start + pe.Col, Msg: pe.Msg}
		}
		return symbolic.Expr{}, p.errf(start, "%v", err)
	}
	p.pos = i
	return e, nil
}
