package symbolic

import (
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
	type shown struct {
		c Rat
		m []dfactor
	}
	ts := make([]shown, len(e.t))
	for i, t := range e.t {
		ts[i].c, ts[i].m = displayTerm(t)
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
// flipping the coefficient's sign for each.
func displayTerm(t term) (Rat, []dfactor) {
	c := t.c
	out := make([]dfactor, len(t.m))
	for i, f := range t.m {
		d := dfactor{factor: f, kind: f.a.kind, args: f.a.args}
		if f.e == 1 {
			switch f.a.kind {
			case kFloor:
				if leadSign(f.a.args[0]) < 0 {
					d.kind, d.args = kCeil, []Expr{f.a.args[0].Neg()}
					c = c.Neg()
				}
			case kMin, kMax:
				allNeg := true
				for _, x := range f.a.args {
					if leadSign(x) >= 0 {
						allNeg = false
					}
				}
				if allNeg {
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
	p.b.WriteString(open)
	for i, x := range f.args {
		if i > 0 {
			p.b.WriteString(", ")
		}
		p.sum(x)
	}
	p.b.WriteString(close)
}
