package symbolic

import (
	"fmt"
	"math/big"
	"strings"
)

// ParseError is a problem in an expression's text at a 1-based column.
type ParseError struct {
	Col int
	Msg string
}

func (e *ParseError) Error() string { return fmt.Sprintf("col %d: %s", e.Col, e.Msg) }

// ParseOptions adjusts Parse.
type ParseOptions struct {
	// Real reports the symbols that are real-valued; all others are integers.
	Real func(name string) bool
}

// Parse reads an expression in the notation users type (N*N/P + 2*log2(P)),
// and also what the Fortran and Go printers write. It accepts:
//
//	numbers   12  1.5  1e-6  2.0d0  2d0  1.0_8   (all exact rationals)
//	operators + - * / and powers with ^ or **    (/ is exact division)
//	functions floor ceil ceiling trunc aint int  min max abs  log2 ln log sqrt
//	          div(a,b)=trunc(a/b)  mod(a,b)=a-b*div(a,b)          (Fortran semantics)
//	          fdiv(a,b)=floor(a/b) modulo(a,b)=a-b*fdiv(a,b)      (floor semantics)
//	          real dble float float64 (value conversions, ignored)
//	          math.Floor math.Ceil math.Trunc math.Log2 math.Log math.Sqrt
//	          math.Abs math.Min math.Max math.Pow math.Mod math.Ln2
//
// Powers take a constant exponent: an integer, or a half-integer (x^(1/2) is
// sqrt(x)). Symbol names are case-sensitive, function names are not.
func Parse(s string) (Expr, error) { return ParseWith(s, ParseOptions{}) }

// MustParse is Parse for expressions known to be valid; it panics on error.
func MustParse(s string) Expr {
	e, err := Parse(s)
	if err != nil {
		panic("symbolic: MustParse(" + s + "): " + err.Error())
	}
	return e
}

// ParseWith is Parse with options.
func ParseWith(s string, opt ParseOptions) (Expr, error) {
	p, err := newParser(s, opt)
	if err != nil {
		return Expr{}, err
	}
	e, err := p.expr()
	if err != nil {
		return Expr{}, err
	}
	if p.tok.kind != tEOF {
		return Expr{}, p.errf(p.tok.col, "unexpected %s after expression", p.tok)
	}
	return e, nil
}

// RelOp is a comparison of an expression with zero.
type RelOp int

const (
	GE RelOp = iota + 1 // e >= 0
	GT                  // e > 0
	EQ                  // e == 0
)

// Relation states E op 0.
type Relation struct {
	E  Expr
	Op RelOp
}

// Key returns a string that identifies the relation: equal relations (the
// same canonical expression and operator) have equal keys; see Expr.Key.
func (r Relation) Key() string {
	var b strings.Builder
	r.writeKey(&b)
	return b.String()
}

// String prints the relation as "lhs >= rhs", moving negative terms right.
func (r Relation) String() string {
	var lhs, rhs []term
	for _, t := range displayMods(r.E).t {
		if t.c.Sign() < 0 {
			rhs = append(rhs, term{c: t.c.Neg(), m: t.m})
		} else {
			lhs = append(lhs, t)
		}
	}
	l, rt := Expr{t: lhs}, Expr{t: rhs}
	if _, ok := l.Const(); ok {
		if _, ok := rt.Const(); !ok {
			// A bound reads with the symbols first: rank <= 1, not 1 >= rank.
			op := map[RelOp]string{GE: "<=", GT: "<", EQ: "=="}[r.Op]
			return rt.String() + " " + op + " " + l.String()
		}
	}
	op := map[RelOp]string{GE: ">=", GT: ">", EQ: "=="}[r.Op]
	return l.String() + " " + op + " " + rt.String()
}

// Holds reports whether the relation holds when E takes the value v.
func (r Relation) Holds(v Rat) bool {
	switch r.Op {
	case GE:
		return v.Sign() >= 0
	case GT:
		return v.Sign() > 0
	}
	return v.Sign() == 0
}

// Rel builds lhs op rhs for op one of ">=", ">", "<=", "<", "==".
func Rel(lhs Expr, op string, rhs Expr) Relation {
	r, ok := makeRel(lhs, op, rhs)
	if !ok {
		panic("symbolic: unknown relational operator " + op)
	}
	return r
}

func makeRel(lhs Expr, op string, rhs Expr) (Relation, bool) {
	var r Relation
	switch op {
	case ">=", ".ge.":
		r = Relation{lhs.Sub(rhs), GE}
	case ">", ".gt.":
		r = Relation{lhs.Sub(rhs), GT}
	case "<=", ".le.":
		r = Relation{rhs.Sub(lhs), GE}
	case "<", ".lt.":
		r = Relation{rhs.Sub(lhs), GT}
	case "==", "=", ".eq.":
		r = Relation{lhs.Sub(rhs), EQ}
		// One orientation for equations.
		if leadSign(r.E) < 0 {
			r.E = r.E.Neg()
		}
	default:
		return r, false
	}
	// e > 0 is e - 1 >= 0 when e is integer-valued.
	if r.Op == GT && r.E.isIntegerValued() {
		r = Relation{r.E.Sub(Int(1)), GE}
	}
	return r, true
}

// ParseRelations reads a chain of comparisons such as "N >= P" or
// "0 <= me <= P-1" (also .ge. .gt. .le. .lt. .eq.), joined by "and", "&&", ","
// or ".and.", into relations of the form e op 0.
func ParseRelations(s string) ([]Relation, error) { return ParseRelationsWith(s, ParseOptions{}) }

// ParseRelationsWith is ParseRelations with options.
func ParseRelationsWith(s string, opt ParseOptions) ([]Relation, error) {
	p, err := newParser(s, opt)
	if err != nil {
		return nil, err
	}
	var out []Relation
	for {
		lhs, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.tok.kind != tRel {
			return nil, p.errf(p.tok.col, "expected a comparison (>=, >, <=, <, ==), found %s", p.tok)
		}
		for p.tok.kind == tRel {
			op := p.tok.text
			p.next()
			rhs, err := p.expr()
			if err != nil {
				return nil, err
			}
			r, _ := makeRel(lhs, op, rhs)
			out = append(out, r)
			lhs = rhs
		}
		if p.tok.kind == tAnd {
			p.next()
			continue
		}
		if p.tok.kind != tEOF {
			return nil, p.errf(p.tok.col, "unexpected %s after comparison", p.tok)
		}
		return out, nil
	}
}

type tokKind int

const (
	tEOF tokKind = iota + 1
	tNum
	tName
	tOp  // + - * / ^ **
	tRel // >= > <= < == = and the dotted Fortran forms
	tAnd // and && , .and.
	tLParen
	tRParen
	tComma
)

type token struct {
	kind tokKind
	text string
	num  Rat
	col  int // 1-based
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tNum:
		return "number " + t.text
	case tName:
		return "name " + t.text
	}
	return "'" + t.text + "'"
}

type parser struct {
	src   string
	pos   int
	tok   token
	opt   ParseOptions
	err   error
	args  bool // inside a function's argument list: ',' separates arguments
	depth int  // nesting of parentheses and calls
}

// maxNesting bounds nesting in the text.
const maxNesting = 200

// Values in the text are bounded so that a short input cannot demand a huge
// computation (1e9999^1000): every coefficient of every intermediate result
// stays within maxBits bits, and literals within maxDigits digits, which is
// enough to write any maxBits-bit number, so printed results always read back.
const (
	maxBits   = 1 << 16
	maxDigits = 20000
)

// checkSize rejects an intermediate result with a coefficient over maxBits.
func (p *parser) checkSize(e Expr, col int) error {
	for _, t := range e.t {
		if t.c.b != nil && (t.c.b.Num().BitLen() > maxBits || t.c.b.Denom().BitLen() > maxBits) {
			return p.errf(col, "number too large (over %d bits)", maxBits)
		}
	}
	return nil
}

func newParser(s string, opt ParseOptions) (*parser, error) {
	p := &parser{src: s, opt: opt}
	p.next()
	if p.err != nil {
		return nil, p.err
	}
	if p.tok.kind == tEOF {
		return nil, &ParseError{Col: 1, Msg: "empty expression"}
	}
	return p, nil
}

func (p *parser) errf(col int, format string, args ...any) error {
	if p.err != nil {
		return p.err
	}
	return &ParseError{Col: col, Msg: fmt.Sprintf(format, args...)}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// next scans the next token into p.tok; a scanning error is kept in p.err and
// the token becomes EOF so that parsing stops.
func (p *parser) next() {
	s := p.src
	for p.pos < len(s) && (s[p.pos] == ' ' || s[p.pos] == '\t') {
		p.pos++
	}
	start := p.pos
	col := start + 1
	if p.pos >= len(s) {
		p.tok = token{kind: tEOF, col: col}
		return
	}
	c := s[p.pos]
	switch {
	case isDigit(c) || c == '.' && p.pos+1 < len(s) && isDigit(s[p.pos+1]):
		p.number()
		return
	case c == '.' && p.pos+1 < len(s) && isLetter(s[p.pos+1]):
		// Fortran dotted operator: .ge. .and.
		end := strings.IndexByte(s[p.pos+1:], '.')
		if end < 0 {
			p.fail(col, "unterminated dotted operator")
			return
		}
		word := strings.ToLower(s[p.pos : p.pos+end+2])
		p.pos += end + 2
		switch word {
		case ".ge.", ".gt.", ".le.", ".lt.", ".eq.":
			p.tok = token{kind: tRel, text: word, col: col}
		case ".and.":
			p.tok = token{kind: tAnd, text: word, col: col}
		default:
			p.fail(col, "unknown operator %s", word)
		}
		return
	case isLetter(c):
		for p.pos < len(s) && (isLetter(s[p.pos]) || isDigit(s[p.pos])) {
			p.pos++
		}
		name := s[start:p.pos]
		if name == "math" && p.pos+1 < len(s) && s[p.pos] == '.' && isLetter(s[p.pos+1]) {
			p.pos++
			for p.pos < len(s) && (isLetter(s[p.pos]) || isDigit(s[p.pos])) {
				p.pos++
			}
			name = s[start:p.pos]
		}
		if name == "and" {
			p.tok = token{kind: tAnd, text: name, col: col}
			return
		}
		p.tok = token{kind: tName, text: name, col: col}
		return
	}
	two := ""
	if p.pos+1 < len(s) {
		two = s[p.pos : p.pos+2]
	}
	switch two {
	case "**":
		p.pos += 2
		p.tok = token{kind: tOp, text: "^", col: col}
		return
	case ">=", "<=", "==":
		p.pos += 2
		p.tok = token{kind: tRel, text: two, col: col}
		return
	case "&&":
		p.pos += 2
		p.tok = token{kind: tAnd, text: two, col: col}
		return
	}
	p.pos++
	switch c {
	case '+', '-', '*', '/', '^':
		p.tok = token{kind: tOp, text: string(c), col: col}
	case '>', '<', '=':
		p.tok = token{kind: tRel, text: string(c), col: col}
	case '(':
		p.tok = token{kind: tLParen, text: "(", col: col}
	case ')':
		p.tok = token{kind: tRParen, text: ")", col: col}
	case ',':
		if p.args {
			p.tok = token{kind: tComma, text: ",", col: col}
		} else {
			p.tok = token{kind: tAnd, text: ",", col: col}
		}
	default:
		r := []rune(s[start:])
		p.fail(col, "unexpected character %q", r[0])
	}
}

func (p *parser) fail(col int, format string, args ...any) {
	if p.err == nil {
		p.err = &ParseError{Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	p.tok = token{kind: tEOF, col: col}
	p.pos = len(p.src)
}

// number scans 12, 1.5, .5, 1e-6, 2.0d0, 2d0, 1.0_8 into an exact rational.
func (p *parser) number() {
	s := p.src
	start := p.pos
	col := start + 1
	for p.pos < len(s) && isDigit(s[p.pos]) {
		p.pos++
	}
	mant := s[start:p.pos]
	frac := ""
	if p.pos < len(s) && s[p.pos] == '.' && !(p.pos+1 < len(s) && isLetter(s[p.pos+1]) && !isExpLetter(s, p.pos+1)) {
		p.pos++
		fs := p.pos
		for p.pos < len(s) && isDigit(s[p.pos]) {
			p.pos++
		}
		frac = s[fs:p.pos]
	}
	exp := 0
	if p.pos < len(s) && isExpLetter(s, p.pos) {
		p.pos++
		sign := 1
		if s[p.pos] == '+' || s[p.pos] == '-' {
			if s[p.pos] == '-' {
				sign = -1
			}
			p.pos++
		}
		es := p.pos
		for p.pos < len(s) && isDigit(s[p.pos]) {
			p.pos++
		}
		if p.pos-es > 4 {
			p.fail(col, "exponent too large in %s", s[start:p.pos])
			return
		}
		for _, d := range s[es:p.pos] {
			exp = exp*10 + int(d-'0')
		}
		exp *= sign
	}
	if p.pos < len(s) && s[p.pos] == '_' { // Fortran kind suffix
		p.pos++
		for p.pos < len(s) && (isLetter(s[p.pos]) || isDigit(s[p.pos])) {
			p.pos++
		}
	}
	if len(mant)+len(frac) > maxDigits {
		p.fail(col, "number longer than %d digits", maxDigits)
		return
	}
	n, ok := new(big.Int).SetString("0"+mant+frac, 10)
	if !ok {
		p.fail(col, "malformed number %s", s[start:p.pos])
		return
	}
	exp -= len(frac)
	r := new(big.Rat).SetInt(n)
	ten := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp))), nil)
	if exp >= 0 {
		r.Mul(r, new(big.Rat).SetInt(ten))
	} else {
		r.Quo(r, new(big.Rat).SetInt(ten))
	}
	if r.Num().BitLen() > maxBits || r.Denom().BitLen() > maxBits {
		p.fail(col, "number too large (over %d bits)", maxBits)
		return
	}
	p.tok = token{kind: tNum, text: s[start:p.pos], num: ratFromBig(r), col: col}
}

// isExpLetter reports whether s[i] starts an exponent: e, E, d or D followed by
// a digit or a sign and a digit.
func isExpLetter(s string, i int) bool {
	if i >= len(s) || !strings.ContainsRune("eEdD", rune(s[i])) {
		return false
	}
	j := i + 1
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	return j < len(s) && isDigit(s[j])
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// expr := term {(+|-) term}
func (p *parser) expr() (Expr, error) {
	e, err := p.product()
	if err != nil {
		return Expr{}, err
	}
	for p.tok.kind == tOp && (p.tok.text == "+" || p.tok.text == "-") {
		op := p.tok.text
		p.next()
		f, err := p.product()
		if err != nil {
			return Expr{}, err
		}
		if op == "+" {
			e = e.Add(f)
		} else {
			e = e.Sub(f)
		}
		if err := p.checkSize(e, p.tok.col); err != nil {
			return Expr{}, err
		}
	}
	return e, p.err
}

// product := unary {(*|/) unary}
func (p *parser) product() (Expr, error) {
	e, err := p.unary()
	if err != nil {
		return Expr{}, err
	}
	for p.tok.kind == tOp && (p.tok.text == "*" || p.tok.text == "/") {
		op, col := p.tok.text, p.tok.col
		p.next()
		f, err := p.unary()
		if err != nil {
			return Expr{}, err
		}
		if op == "*" {
			if len(e.t)*len(f.t) > maxExpandProducts {
				return Expr{}, p.errf(col, "product too large to expand (over %d term products)", maxExpandProducts)
			}
			e = e.Mul(f)
		} else {
			if f.IsZero() {
				return Expr{}, p.errf(col, "division by zero")
			}
			e = e.Div(f)
		}
		if err := p.checkSize(e, col); err != nil {
			return Expr{}, err
		}
	}
	return e, p.err
}

// unary := (+|-) unary | power
func (p *parser) unary() (Expr, error) {
	neg := false
	for p.tok.kind == tOp && (p.tok.text == "-" || p.tok.text == "+") {
		neg = neg != (p.tok.text == "-")
		p.next()
	}
	e, err := p.power()
	if neg {
		e = e.Neg()
	}
	return e, err
}

// power := primary [^ unary]   (right-associative; the exponent is a constant)
func (p *parser) power() (Expr, error) {
	base, err := p.primary()
	if err != nil {
		return Expr{}, err
	}
	if p.tok.kind != tOp || p.tok.text != "^" {
		return base, nil
	}
	col := p.tok.col
	p.next()
	ecol := p.tok.col
	ex, err := p.unary()
	if err != nil {
		return Expr{}, err
	}
	return p.raise(base, ex, col, ecol)
}

func (p *parser) raise(base, ex Expr, col, ecol int) (Expr, error) {
	k, ok := ex.Const()
	if !ok {
		return Expr{}, p.errf(ecol, "exponent must be a constant, found %s", ex)
	}
	twice := k.Mul(RatInt(2))
	n, ok := twice.Int64()
	if !ok {
		return Expr{}, p.errf(ecol, "exponent must be an integer or a half-integer, found %s", k)
	}
	if n > 2*maxTotalExponent || n < -2*maxTotalExponent {
		return Expr{}, p.errf(ecol, "exponent %s too large (limit %d)", k, maxTotalExponent)
	}
	if n < 0 && base.IsZero() {
		return Expr{}, p.errf(col, "zero raised to a negative power")
	}
	if n%2 != 0 {
		base, n = Sqrt(base), 2*n // x^(m/2) = sqrt(x)^m
	}
	half := int(n / 2)
	for _, t := range base.t {
		for _, f := range t.m {
			if int64(abs(int(f.e)))*int64(abs(half)) > maxTotalExponent {
				return Expr{}, p.errf(col, "exponent too large (over %d)", maxTotalExponent)
			}
		}
	}
	// sqrt(s)^k, k odd, is s^((k-1)/2)*sqrt(s), which expands a power of
	// the sum s (for k < 0 too: the canonical form keeps sqrt(s) over s^|k|
	// times s^((|k|-1)/2)). Its cost is bounded like any power of a sum, by
	// expanding the positive power step by step.
	if abs(half) > 1 && len(base.t) == 1 && hasSqrtOfSum(base) {
		res, err := p.expandPow(base, abs(half), col)
		if err != nil || half > 0 {
			return res, err
		}
		res = base.Pow(half)
		return res, p.checkSize(res, col)
	}
	if len(base.t) <= 1 || half < 0 {
		if len(base.t) == 1 {
			c := base.t[0].c
			// |c|^k has about k*log2|c| bits; a coefficient of ±1 does not grow.
			bits := max(c.Num().BitLen(), c.Den().BitLen())
			if c.Abs().IsOne() {
				bits = 0
			}
			if bits*abs(half) > maxBits {
				return Expr{}, p.errf(col, "number too large (over %d bits)", maxBits)
			}
			// sqrt(2)^k is 2^(k/2)*sqrt(2): atoms can make numbers too.
			for _, f := range base.t[0].m {
				if f.a.kind == kSqrt && abs(half)*int(f.e)/2*argBits(f.a) > maxBits {
					return Expr{}, p.errf(col, "number too large (over %d bits)", maxBits)
				}
			}
		}
		res := base.Pow(half)
		return res, p.checkSize(res, col)
	}
	// Coefficients of s^k reach about k*(bits of s's coefficients + log2 of
	// its term count): refuse before expanding when that is over the limit.
	cbits := 0
	for _, t := range base.t {
		cbits = max(cbits, t.c.Num().BitLen(), t.c.Den().BitLen())
	}
	if half*max(cbits-1, 0)+half*bitsLen(len(base.t)) > maxBits {
		return Expr{}, p.errf(col, "number too large (over %d bits)", maxBits)
	}
	return p.expandPow(base, half, col)
}

// expandPow returns base^k, k >= 0, multiplying step by step so that a typed
// (N+1)^1000^1000 is refused, not run.
func (p *parser) expandPow(base Expr, k int, col int) (Expr, error) {
	res := Int(1)
	work := 0
	for range k {
		// Work is term products weighted by coefficient size in words.
		if work += len(res.t) * len(base.t) * (1 + maxCoeffBits(res)/64); work > maxExpandWork {
			return Expr{}, p.errf(col, "power too large to expand (over %d term products)", maxExpandWork)
		}
		res = res.Mul(base)
		if err := p.checkSize(res, col); err != nil {
			return Expr{}, err
		}
	}
	return res, nil
}

// hasSqrtOfSum reports whether e's terms hold the square root of a sum.
func hasSqrtOfSum(e Expr) bool {
	for _, t := range e.t {
		for _, f := range t.m {
			if f.a.kind == kSqrt && len(f.a.args[0].t) > 1 {
				return true
			}
		}
	}
	return false
}

// argBits is the largest coefficient size in bits of an atom's argument.
func argBits(a *atom) int {
	b := 1
	for _, x := range a.args {
		for _, t := range x.t {
			b = max(b, t.c.Num().BitLen(), t.c.Den().BitLen())
		}
	}
	return b
}

func bitsLen(n int) int {
	b := 0
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}

// maxExpandWork bounds the weighted term products of expanding one power
// written in the text, so that parsing stays fast: (N+1)^200 is fine,
// (N+1)^1100 is refused.
const maxExpandWork = 1 << 17

func maxCoeffBits(e Expr) int {
	b := 0
	for _, t := range e.t {
		if t.c.b != nil {
			b = max(b, t.c.b.Num().BitLen(), t.c.b.Denom().BitLen())
		}
	}
	return b
}

// maxExpandProducts bounds the term products of one multiplication written in
// the text.
const maxExpandProducts = 1 << 20

// maxTotalExponent bounds exponents, written or after powers of powers
// multiply; what an exponent may cost is bounded separately (maxBits for
// numbers, maxExpandProducts for sums).
const maxTotalExponent = 1 << 20

func (p *parser) primary() (Expr, error) {
	t := p.tok
	switch t.kind {
	case tNum:
		p.next()
		return Const(t.num), nil
	case tLParen:
		if p.depth++; p.depth > maxNesting {
			return Expr{}, p.errf(t.col, "parentheses nested deeper than %d", maxNesting)
		}
		defer func() { p.depth-- }()
		p.next()
		saved := p.args
		p.args = false
		e, err := p.expr()
		p.args = saved
		if err != nil {
			return Expr{}, err
		}
		if p.tok.kind != tRParen {
			return Expr{}, p.errf(p.tok.col, "expected ')' to close '(' at col %d, found %s", t.col, p.tok)
		}
		p.next()
		return e, nil
	case tName:
		p.next()
		if p.tok.kind == tLParen {
			return p.call(t)
		}
		switch t.text {
		case "math.Ln2":
			return Ln2, nil
		}
		if strings.HasPrefix(t.text, "math.") {
			return Expr{}, p.errf(t.col, "unknown name %s", t.text)
		}
		if p.opt.Real != nil && p.opt.Real(t.text) {
			return RealSym(t.text), nil
		}
		return Sym(t.text), nil
	case tEOF:
		if p.err != nil {
			return Expr{}, p.err
		}
		return Expr{}, p.errf(t.col, "unexpected end of input")
	}
	return Expr{}, p.errf(t.col, "unexpected %s", t)
}

// call parses the argument list of function name and applies it.
func (p *parser) call(name token) (Expr, error) {
	if p.depth++; p.depth > maxNesting {
		return Expr{}, p.errf(name.col, "calls nested deeper than %d", maxNesting)
	}
	defer func() { p.depth-- }()
	open := p.tok.col
	p.next()
	saved := p.args
	p.args = true
	var args []Expr
	var cols []int
	if p.tok.kind != tRParen {
		for {
			cols = append(cols, p.tok.col)
			a, err := p.expr()
			if err != nil {
				return Expr{}, err
			}
			args = append(args, a)
			if p.tok.kind == tComma {
				p.next()
				continue
			}
			break
		}
	}
	p.args = saved
	if p.tok.kind != tRParen {
		return Expr{}, p.errf(p.tok.col, "expected ',' or ')' in call of %s opened at col %d, found %s", name.text, open, p.tok)
	}
	p.next()
	fn := strings.ToLower(name.text)
	nargs := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			want := fmt.Sprint(lo)
			if hi > lo {
				want = fmt.Sprintf("%d to %d", lo, hi)
			}
			if hi > 100 {
				want = fmt.Sprintf("at least %d", lo)
			}
			return p.errf(name.col, "%s takes %s arguments, found %d", name.text, want, len(args))
		}
		return nil
	}
	// kindArg checks an optional Fortran KIND argument: an integer constant.
	kindArg := func(i int) error {
		if len(args) > i {
			if _, ok := args[i].Int64(); !ok {
				return p.errf(cols[i], "kind argument of %s must be an integer constant", name.text)
			}
		}
		return nil
	}
	divisor := func(i int) error {
		if args[i].IsZero() {
			return p.errf(cols[i], "division by zero in %s", name.text)
		}
		return nil
	}
	var err error
	switch fn {
	case "floor", "math.floor", "ceiling":
		if err = nargs(1, 2); err == nil {
			err = kindArg(1)
		}
		if err == nil {
			if fn == "ceiling" {
				return Ceil(args[0]), nil
			}
			return Floor(args[0]), nil
		}
	case "ceil", "math.ceil":
		if err = nargs(1, 1); err == nil {
			return Ceil(args[0]), nil
		}
	case "trunc", "aint", "int", "math.trunc":
		if err = nargs(1, 2); err == nil {
			err = kindArg(1)
		}
		if err == nil {
			return Trunc(args[0]), nil
		}
	case "div", "fdiv", "mod", "modulo", "math.mod":
		if err = nargs(2, 2); err == nil {
			err = divisor(1)
		}
		if err == nil {
			switch fn {
			case "div":
				return IDiv(args[0], args[1]), nil
			case "fdiv":
				return FloorDiv(args[0], args[1]), nil
			case "modulo":
				return Modulo(args[0], args[1]), nil
			}
			return Mod(args[0], args[1]), nil
		}
	case "min", "max", "math.min", "math.max":
		if err = nargs(1, 1<<20); err == nil {
			if strings.HasSuffix(fn, "min") {
				return Min(args...), nil
			}
			return Max(args...), nil
		}
	case "abs", "math.abs":
		if err = nargs(1, 1); err == nil {
			return Abs(args[0]), nil
		}
	case "log2", "math.log2":
		if err = nargs(1, 1); err == nil {
			return Log2(args[0]), nil
		}
	case "ln", "log", "math.log":
		if err = nargs(1, 1); err == nil {
			return Ln(args[0]), nil
		}
	case "sqrt", "math.sqrt":
		if err = nargs(1, 1); err == nil {
			return Sqrt(args[0]), nil
		}
	case "real", "dble", "float", "float64":
		if err = nargs(1, 2); err == nil {
			err = kindArg(1)
		}
		if err == nil {
			return args[0], nil
		}
	case "math.pow", "pow":
		if err = nargs(2, 2); err == nil {
			return p.raise(args[0], args[1], name.col, cols[1])
		}
	default:
		return Expr{}, p.errf(name.col, "unknown function %s", name.text)
	}
	return Expr{}, err
}
