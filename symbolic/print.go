package symbolic

import (
	"math/big"
	"slices"
	"strings"
)

// Syntax selects a printer.
type Syntax int

const (
	// Math is plain mathematical notation: N^2/P + 2*log2(P), floor(N/P).
	Math Syntax = iota + 1
	// Fortran is a REAL(8) Fortran expression: the symbols are taken to be REAL(8)
	// variables, constants print as d0 literals, floor as REAL(FLOOR(x, 8), 8).
	Fortran
	// Go is a float64 Go expression: the symbols are float64 variables; floor,
	// trunc, log2 and sqrt come from package math, min and max are the builtins.
	Go
)

// String returns e in plain mathematical notation (Math). Parse reads it back to
// an equal expression.
func (e Expr) String() string { return e.Format(Math) }

// Format returns e in the given syntax. Parse reads every syntax back to an
// equal expression.
func (e Expr) Format(s Syntax) string {
	p := printer{syn: s}
	p.sum(e)
	return p.b.String()
}

type printer struct {
	syn Syntax
	b   strings.Builder
}

func (p *printer) sum(e Expr) {
	if len(e.t) == 0 {
		p.intLit("0")
		return
	}
	if p.syn == Math && p.absorbed(e) {
		return
	}
	p.terms(e)
}

// terms prints the terms of a non-zero e, the first positive one first.
func (p *printer) terms(e Expr) {
	if p.syn == Math {
		e = displayMods(e)
	}
	type shown struct {
		c Rat
		m []dfactor
	}
	ts := make([]shown, len(e.t))
	for i, t := range e.t {
		ts[i].c, ts[i].m = displayTerm(t, p.syn == Math)
	}
	if ts[0].c.Sign() < 0 {
		// Lead with the first positive term: N - P*trunc(N/P), not -P*trunc(N/P) + N.
		for i, t := range ts {
			if t.c.Sign() > 0 {
				copy(ts[1:i+1], ts[:i])
				ts[0] = t
				break
			}
		}
	}
	for i, t := range ts {
		neg := t.c.Sign() < 0
		switch {
		case i == 0 && neg:
			p.b.WriteByte('-')
		case i > 0 && neg:
			p.b.WriteString(" - ")
		case i > 0:
			p.b.WriteString(" + ")
		}
		p.term(t.c.Abs(), t.m)
	}
}

// absorbed prints r ± min(a, b) as min(a + r, b + r) (max(r - a, r - b)
// for the minus) when that is shorter: the canonical form moves common terms
// out of a min, which reads as n + min(x - n + 1, 0) - 1 where a person
// writes min(x, n - 1). Parse reads either back to the same value.
func (p *printer) absorbed(e Expr) bool {
	at := -1
	for i, t := range e.t {
		if len(t.m) == 1 && t.m[0].e == 1 && (t.m[0].a.kind == kMin || t.m[0].a.kind == kMax) && (t.c.IsOne() || t.c.Neg().IsOne()) {
			if at >= 0 {
				return false
			}
			at = i
		}
	}
	if at < 0 || len(e.t) == 1 {
		return false
	}
	t := e.t[at]
	rest := Expr{t: append(slices.Clip(e.t[:at]), e.t[at+1:]...)}
	kind := t.m[0].a.kind
	neg := !t.c.IsOne()
	if neg {
		kind = kMin + kMax - kind
	}
	q := printer{syn: p.syn}
	q.b.WriteString(map[atomKind]string{kMin: "min(", kMax: "max("}[kind])
	for i, x := range t.m[0].a.args {
		if i > 0 {
			q.b.WriteString(", ")
		}
		if neg {
			x = x.Neg()
		}
		q.sum(x.Add(rest))
	}
	q.b.WriteByte(')')
	plain := printer{syn: p.syn}
	plain.terms(e)
	if q.b.Len() >= plain.b.Len() {
		p.b.WriteString(plain.b.String())
		return true
	}
	// min and max have more than one canonical form for some values
	// (max(0, -P) and max(P, 0) - P): keep the text only when it reads
	// back to e itself.
	if back, err := Parse(q.b.String()); err != nil || !Equal(back, e) {
		p.b.WriteString(plain.b.String())
		return true
	}
	p.b.WriteString(q.b.String())
	return true
}

// dfactor is a factor as displayed: ceil(-y) for floor(y) with a flipped sign,
// min for a flipped max.
type dfactor struct {
	factor
	kind atomKind // display kind
	args []Expr   // display arguments
}

const kCeil atomKind = 100 // display only

// displayTerm turns floor(y) with y leading negative into ceil(-y) and a max or
// min whose arguments all lead negative into the other with negated arguments,
// flipping the coefficient's sign for each; with mods, the arguments are
// judged as they print (displayMods).
func displayTerm(t term, mods bool) (Rat, []dfactor) {
	c := t.c
	out := make([]dfactor, len(t.m))
	for i, f := range t.m {
		d := dfactor{factor: f, kind: f.a.kind, args: f.a.args}
		if f.e == 1 {
			switch f.a.kind {
			case kFloor:
				if ceilReads(f.a.args[0]) {
					d.kind, d.args = kCeil, []Expr{f.a.args[0].Neg()}
					c = c.Neg()
				}
			case kMin, kMax:
				// Flip -min(a, b) to max(-a, -b) (and the other ways) when
				// that writes fewer minus signs in front.
				before, after := 0, 0
				if c.Sign() < 0 {
					before++
				} else {
					after++
				}
				for _, x := range f.a.args {
					if mods {
						x = displayMods(x) // as it prints
					}
					if allNegative(x) {
						before++
					}
					if allNegative(x.Neg()) {
						after++
					}
				}
				if after < before {
					d.kind = kMin + kMax - f.a.kind
					d.args = make([]Expr, len(f.a.args))
					for j, x := range f.a.args {
						d.args[j] = x.Neg()
					}
					c = c.Neg()
				}
			}
		}
		out[i] = d
	}
	return c, out
}

// term prints c*m for c >= 0.
func (p *printer) term(c Rat, m []dfactor) {
	var num, den []dfactor
	recips := 0
	for _, f := range m {
		if f.a.kind == kRecip {
			recips++
		}
	}
	for _, f := range m {
		if f.e > 0 || f.a.kind == kRecip && (f.e < -1 || recips > 1) {
			// (N + 1)^-2 keeps its exponent: written as 1/(N + 1)^2 it would read
			// back as the reciprocal of the expanded N^2 + 2*N + 1; likewise two
			// reciprocal sums, whose product would be expanded.
			num = append(num, f)
		} else {
			g := f
			g.e = -f.e
			den = append(den, g)
		}
	}
	cn, cd := c.Num(), c.Den()
	one := cn.IsInt64() && cn.Int64() == 1
	wrote := false
	if !one || len(num) == 0 {
		if p.syn == Go && len(num) == 0 && len(den) == 0 && !c.IsInt() {
			// A lone untyped rational constant must not be integer division in Go.
			p.b.WriteString("(" + cn.String() + ".0/" + cd.String() + ")")
			return
		}
		p.intLit(cn.String())
		wrote = true
	}
	for _, f := range num {
		if wrote {
			p.b.WriteByte('*')
		}
		p.power(f)
		wrote = true
	}
	dcount := len(den)
	if !(cd.IsInt64() && cd.Int64() == 1) {
		dcount++
	}
	if dcount == 0 {
		return
	}
	p.b.WriteByte('/')
	if dcount > 1 || (len(den) == 1 && den[0].e > 1 && p.syn == Go) {
		p.b.WriteByte('(')
	}
	first := true
	if !(cd.IsInt64() && cd.Int64() == 1) {
		p.intLit(cd.String())
		first = false
	}
	for _, f := range den {
		if !first {
			p.b.WriteByte('*')
		}
		p.power(f)
		first = false
	}
	if dcount > 1 || (len(den) == 1 && den[0].e > 1 && p.syn == Go) {
		p.b.WriteByte(')')
	}
}

func (p *printer) intLit(s string) {
	p.b.WriteString(s)
	if p.syn == Fortran {
		p.b.WriteString("d0")
	}
}

// power prints f.a^f.e for f.e >= 1, or a reciprocal atom to a negative power.
func (p *printer) power(f dfactor) {
	if f.e == 1 {
		p.atom(f)
		return
	}
	switch p.syn {
	case Go:
		if f.e > 0 && f.e <= 3 {
			for i := int32(0); i < f.e; i++ {
				if i > 0 {
					p.b.WriteByte('*')
				}
				p.atom(f)
			}
			return
		}
		p.b.WriteString("math.Pow(")
		p.atom(f)
		p.b.WriteString(", " + itoa(int64(f.e)) + ")")
	case Fortran:
		p.atom(f)
		if f.e < 0 {
			p.b.WriteString("**(" + itoa(int64(f.e)) + ")")
		} else {
			p.b.WriteString("**" + itoa(int64(f.e)))
		}
	default:
		p.atom(f)
		p.b.WriteString("^" + itoa(int64(f.e)))
	}
}

func (p *printer) atom(f dfactor) {
	a := f.a
	switch f.kind {
	case kSym:
		p.b.WriteString(a.name)
		return
	case kConst: // ln2
		switch p.syn {
		case Go:
			p.b.WriteString("math.Ln2")
		case Fortran:
			p.b.WriteString("log(2d0)")
		default:
			p.b.WriteString("ln(2)")
		}
		return
	case kRecip:
		p.b.WriteByte('(')
		p.sum(a.args[0])
		p.b.WriteByte(')')
		return
	}
	var open, close string
	switch {
	case f.kind == kMod || f.kind == kModulo:
		open = map[atomKind]string{kMod: "mod(", kModulo: "modulo("}[f.kind]
		close = ")"
	default:
		p.atomOpen(f, &open, &close)
	}
	p.b.WriteString(open)
	for i, x := range f.args {
		if i > 0 {
			p.b.WriteString(", ")
		}
		if (f.kind == kFloor || f.kind == kCeil) && p.syn == Math {
			// Over a common denominator ((n - k)/p) where that reads
			// shorter than the sum (sqrt(P) + 1/1000).
			q, r := printer{syn: p.syn}, printer{syn: p.syn}
			q.fraction(x)
			r.sum(x)
			if q.b.Len() <= r.b.Len()+2 {
				p.b.WriteString(q.b.String())
			} else {
				p.b.WriteString(r.b.String())
			}
			continue
		}
		p.sum(x)
	}
	p.b.WriteString(close)
}

// atomOpen sets the text around a function's arguments in p's syntax.
func (p *printer) atomOpen(f dfactor, openp, closep *string) {
	var open, close string
	switch p.syn {
	case Go:
		open = map[atomKind]string{kFloor: "math.Floor(", kCeil: "math.Ceil(", kTrunc: "math.Trunc(",
			kMin: "min(", kMax: "max(", kLog2: "math.Log2(", kSqrt: "math.Sqrt("}[f.kind]
		close = ")"
	case Fortran:
		open = map[atomKind]string{kFloor: "real(floor(", kCeil: "real(ceiling(", kTrunc: "aint(",
			kMin: "min(", kMax: "max(", kLog2: "(log(", kSqrt: "sqrt("}[f.kind]
		close = map[atomKind]string{kFloor: ", 8), 8)", kCeil: ", 8), 8)", kTrunc: ")",
			kMin: ")", kMax: ")", kLog2: ")/log(2d0))", kSqrt: ")"}[f.kind]
	default:
		open = map[atomKind]string{kFloor: "floor(", kCeil: "ceil(", kTrunc: "trunc(",
			kMin: "min(", kMax: "max(", kLog2: "log2(", kSqrt: "sqrt("}[f.kind]
		close = ")"
	}
	*openp, *closep = open, close
}

// displayMods returns e with each remainder x - y*trunc(x/y) written as the
// display atom mod(x, y) (x - y*floor(x/y) as modulo(x, y)), y the
// denominator monomial of the quotient: the form a person reads
// (rank - 2*floor(rank/2) is modulo(rank, 2), n - P*trunc(n/P) is
// mod(n, P)), and Parse reads it back to e.
func displayMods(e Expr) Expr {
	for {
		d, ok := displayMod(e)
		if !ok {
			return e
		}
		e = d
	}
}

// modVar stands for the quotient's atom while its coefficient is read off.
const modVar = "\x03mod"

func displayMod(e Expr) (Expr, bool) {
	for _, at := range e.FuncAtoms() {
		a := at.t[0].m[0].a
		if a.kind != kFloor && a.kind != kTrunc {
			continue
		}
		y, ok := denominatorOf(a.args[0])
		if !ok {
			continue
		}
		k, rest, ok := e.Replace(at, Sym(modVar)).Linear(modVar)
		if !ok || rest.Has(modVar) {
			continue
		}
		c, ok := k.Div(y).Neg().Const()
		if !ok || !c.IsInt() || c.IsZero() {
			continue
		}
		x := a.args[0].Mul(y)
		if !x.isIntegerValued() {
			continue
		}
		rest2 := rest.Sub(x.Scale(c))
		if rest2.NumTerms() != rest.NumTerms()-x.NumTerms() {
			continue // x is not all there: no remainder
		}
		kind := kModulo
		if a.kind == kTrunc {
			kind = kMod
		}
		m := intern(&atom{kind: kind, args: []Expr{x, y}, integer: true})
		return atomExpr(m).Scale(c).Add(rest2), true
	}
	return e, false
}

// denominatorOf returns the least monomial y (a positive integer times
// symbols to positive powers) with x*y free of denominators; ok is false
// when x divides by anything else (a sum).
func denominatorOf(x Expr) (Expr, bool) {
	l := big.NewInt(1)
	pows := map[*atom]int32{}
	var syms []*atom
	for _, t := range x.t {
		d := t.c.Den()
		l.Mul(l, new(big.Int).Quo(d, new(big.Int).GCD(nil, nil, l, d)))
		for _, f := range t.m {
			if f.e >= 0 {
				continue
			}
			if f.a.kind != kSym {
				return Expr{}, false
			}
			if _, ok := pows[f.a]; !ok {
				syms = append(syms, f.a)
			}
			pows[f.a] = max(pows[f.a], -f.e)
		}
	}
	if !l.IsInt64() {
		return Expr{}, false
	}
	y := Int(l.Int64())
	for _, a := range syms {
		y = y.Mul(atomExpr(a).Pow(int(pows[a])))
	}
	if y.Equal(Int(1)) {
		return Expr{}, false
	}
	return y, true
}

// allNegative reports whether every term of x is negative (it prints with
// a leading minus).
func allNegative(x Expr) bool {
	for _, t := range x.t {
		if t.c.Sign() > 0 {
			return false
		}
	}
	return len(x.t) > 0
}

// ceilReads reports whether floor(y) reads better as -ceil(-y): when every
// term of y but a constant is negative (floor(-n/p) is -ceil(n/p), while
// floor((n - k)/p) stays a floor).
func ceilReads(y Expr) bool {
	some := false
	for _, t := range y.t {
		if len(t.m) == 0 {
			continue
		}
		if t.c.Sign() > 0 {
			return false
		}
		some = true
	}
	return some
}

// fraction prints x over its common denominator when that is a monomial
// with x times it a polynomial: (k*n - n)/p for k*n/p - n/p, (i - 1)/b for
// i/b - 1/b. Parse reads it back to x.
func (p *printer) fraction(x Expr) {
	exps := map[*atom]int32{}
	for _, t := range x.t {
		for _, f := range t.m {
			if f.e < 0 {
				if f.a.kind == kRecip {
					p.sum(x)
					return
				}
				exps[f.a] = max(exps[f.a], -f.e)
			}
		}
	}
	// The integer part of the denominator: the lcm of the coefficients'
	// denominators.
	d := RatInt(1)
	for _, t := range x.t {
		d = ratLCM(d, RatBig(new(big.Rat).SetInt(t.c.Den())))
	}
	den := Const(d)
	for a, e := range exps {
		den = den.Mul(atomExpr(a).Pow(int(e)))
	}
	if len(den.t) == 1 && len(den.t[0].m) == 0 && den.t[0].c.IsOne() || len(x.t) < 2 {
		p.sum(x)
		return
	}
	num := x.Mul(den)
	p.b.WriteByte('(')
	p.sum(num)
	p.b.WriteString(")/")
	if len(den.t[0].m) > 0 && !den.t[0].c.IsOne() || len(den.t[0].m) > 1 || len(den.t[0].m) == 1 && den.t[0].m[0].e > 1 {
		p.b.WriteByte('(')
		p.sum(den)
		p.b.WriteByte(')')
		return
	}
	p.sum(den)
}
