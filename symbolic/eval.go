package symbolic

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
)

// ErrIrrational is returned by exact evaluation when the value is not rational
// (log2 of a non-power of two, sqrt of a non-square, ln 2).
var ErrIrrational = errors.New("value is irrational; evaluate in floating point")

// Eval returns the exact value of e with each symbol replaced by its value in
// env. It fails when a symbol has no value, a divisor is zero, a logarithm's or
// root's argument is out of domain, or the value is irrational (ErrIrrational).
func (e Expr) Eval(env map[string]Rat) (Rat, error) {
	vars := e.Symbols()
	vals := make([]Rat, len(vars))
	for i, v := range vars {
		x, ok := env[v]
		if !ok {
			return Rat{}, fmt.Errorf("no value for %s", v)
		}
		vals[i] = x
	}
	f, err := e.Compile(vars)
	if err != nil {
		return Rat{}, err
	}
	return f.Eval(vals)
}

// EvalFloat returns the value of e in floating point with symbols from env.
func (e Expr) EvalFloat(env map[string]float64) (float64, error) {
	vars := e.Symbols()
	vals := make([]float64, len(vars))
	for i, v := range vars {
		x, ok := env[v]
		if !ok {
			return 0, fmt.Errorf("no value for %s", v)
		}
		vals[i] = x
	}
	f, err := e.Compile(vars)
	if err != nil {
		return 0, err
	}
	return f.EvalFloat(vals), nil
}

// Func is an expression compiled for repeated evaluation at points given as
// slices in the order of its variables.
type Func struct {
	vars  []string
	atoms []catom // each atom once; arguments compiled as sub-functions
	terms []cterm
	// Integer fast path: value = sum(inum[i] * prod factors) / iden when every
	// coefficient times iden fits in int64 and no exponent is negative.
	intOK bool
	inum  []int64
	iden  int64
	// rational: no log2, sqrt or ln 2 anywhere, so the value is rational at
	// rational points (EvalFloat then takes floors exactly).
	rational bool
}

type catom struct {
	a    *atom
	sym  int     // kSym: index into the point
	args []*Func // functions
}

type cterm struct {
	c  Rat
	fs []cfactor
}

type cfactor struct {
	slot int32 // index into atoms
	e    int32
}

// Compile prepares e for evaluation at points whose coordinates are the values
// of vars, in order. It fails if e depends on a symbol not in vars.
func (e Expr) Compile(vars []string) (*Func, error) {
	f := &Func{vars: vars}
	slot := map[*atom]int32{}
	for _, t := range e.t {
		ct := cterm{c: t.c}
		for _, fa := range t.m {
			s, ok := slot[fa.a]
			if !ok {
				ca := catom{a: fa.a, sym: -1}
				if fa.a.kind == kSym {
					ca.sym = slices.Index(vars, fa.a.name)
					if ca.sym < 0 {
						return nil, fmt.Errorf("no value for %s", fa.a.name)
					}
				}
				for _, x := range fa.a.args {
					sub, err := x.Compile(vars)
					if err != nil {
						return nil, err
					}
					ca.args = append(ca.args, sub)
				}
				s = int32(len(f.atoms))
				slot[fa.a] = s
				f.atoms = append(f.atoms, ca)
			}
			ct.fs = append(ct.fs, cfactor{slot: s, e: fa.e})
		}
		f.terms = append(f.terms, ct)
	}
	f.prepareInt()
	f.rational = true
	for _, ca := range f.atoms {
		switch ca.a.kind {
		case kLog2, kSqrt, kConst:
			f.rational = false
		}
		for _, sub := range ca.args {
			if !sub.rational {
				f.rational = false
			}
		}
	}
	return f, nil
}

func (f *Func) prepareInt() {
	for _, t := range f.terms {
		for _, fa := range t.fs {
			if fa.e < 0 {
				return
			}
		}
	}
	// The coefficients over their common denominator, when all fit in int64.
	var e Expr
	e.t = make([]term, len(f.terms))
	for i, t := range f.terms {
		e.t[i].c = t.c
	}
	num, den, ok := scaledInts(e)
	if !ok {
		return
	}
	f.inum, f.iden, f.intOK = num, den, true
}

// Vars returns the variables of f in point order.
func (f *Func) Vars() []string { return f.vars }

const stackSlots = 16

// Eval returns the exact value of f at the point vals.
func (f *Func) Eval(vals []Rat) (Rat, error) {
	if len(vals) != len(f.vars) {
		panic(fmt.Sprintf("symbolic: Func.Eval with %d values for %d variables", len(vals), len(f.vars)))
	}
	var buf [stackSlots]Rat
	av := buf[:0]
	if len(f.atoms) > stackSlots {
		av = make([]Rat, 0, len(f.atoms))
	}
	for _, ca := range f.atoms {
		v, err := ca.eval(vals)
		if err != nil {
			return Rat{}, err
		}
		av = append(av, v)
	}
	if f.intOK {
		if r, ok := f.intSum(av); ok {
			return r, nil
		}
	}
	var sum Rat
	for _, t := range f.terms {
		p := t.c
		for _, fa := range t.fs {
			v := av[fa.slot]
			if fa.e < 0 && v.IsZero() {
				return Rat{}, fmt.Errorf("division by zero: %s is 0", f.atoms[fa.slot].a.describe())
			}
			switch fa.e {
			case 1:
				p = p.Mul(v)
			case 2:
				p = p.Mul(v).Mul(v)
			default:
				p = p.Mul(v.PowInt(int(fa.e)))
			}
		}
		sum = sum.Add(p)
	}
	return sum, nil
}

// intSum evaluates the terms in int64 when every atom value is a small integer;
// ok is false on overflow or a non-integer atom value.
func (f *Func) intSum(av []Rat) (Rat, bool) {
	for _, v := range av {
		if v.b != nil || v.den() != 1 {
			return Rat{}, false
		}
	}
	var sum int64
	for i, t := range f.terms {
		p := f.inum[i]
		for _, fa := range t.fs {
			v := av[fa.slot].n
			for k := int32(0); k < fa.e; k++ {
				var ok bool
				if p, ok = mul64(p, v); !ok {
					return Rat{}, false
				}
			}
		}
		s := sum + p
		if (s^sum)&(s^p) < 0 {
			return Rat{}, false
		}
		sum = s
	}
	if f.iden == 1 {
		return RatInt(sum), true
	}
	return RatFrac(sum, f.iden), true
}

// EvalInt returns the exact value of f at an integer point.
func (f *Func) EvalInt(vals []int64) (Rat, error) {
	var buf [stackSlots]Rat
	rv := buf[:0]
	if len(vals) > stackSlots {
		rv = make([]Rat, 0, len(vals))
	}
	for _, v := range vals {
		rv = append(rv, RatInt(v))
	}
	return f.Eval(rv)
}

func (a *atom) describe() string { return atomExpr(a).String() }

func (ca catom) eval(vals []Rat) (Rat, error) {
	a := ca.a
	if a.kind == kSym {
		return vals[ca.sym], nil
	}
	if a.kind == kConst {
		return Rat{}, fmt.Errorf("%s: %w", a.describe(), ErrIrrational)
	}
	// Arguments are evaluated one at a time: no slice per evaluation.
	x, err := ca.args[0].Eval(vals)
	if err != nil {
		return Rat{}, err
	}
	switch a.kind {
	case kFloor:
		return x.Floor(), nil
	case kTrunc:
		return x.Trunc(), nil
	case kMin, kMax:
		best := x
		for _, sub := range ca.args[1:] {
			v, err := sub.Eval(vals)
			if err != nil {
				return Rat{}, err
			}
			if c := v.Cmp(best); a.kind == kMin && c < 0 || a.kind == kMax && c > 0 {
				best = v
			}
		}
		return best, nil
	case kRecip:
		return x, nil // the factor carries the (negative) exponent
	case kLog2:
		if x.Sign() <= 0 {
			return Rat{}, fmt.Errorf("%s: argument %s is not positive", a.describe(), x)
		}
		if k, ok := exactLog2(x); ok {
			return RatInt(int64(k)), nil
		}
		return Rat{}, fmt.Errorf("log2(%s): %w", x, ErrIrrational)
	case kSqrt:
		if x.Sign() < 0 {
			return Rat{}, fmt.Errorf("%s: argument %s is negative", a.describe(), x)
		}
		if r, ok := exactSqrt(x); ok {
			return r, nil
		}
		return Rat{}, fmt.Errorf("sqrt(%s): %w", x, ErrIrrational)
	}
	panic("symbolic: unknown atom kind")
}

// exactAtFloat evaluates the rational function f exactly at a point of finite
// floats (every float is a dyadic rational).
func exactAtFloat(f *Func, vals []float64) (Rat, bool) {
	rv := make([]Rat, len(vals))
	for i, v := range vals {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return Rat{}, false
		}
		if v == math.Trunc(v) && math.Abs(v) < 1<<62 {
			rv[i] = RatInt(int64(v))
		} else {
			rv[i] = ratFromBig(new(big.Rat).SetFloat64(v))
		}
	}
	r, err := f.Eval(rv)
	return r, err == nil
}

// exactLog2 returns k when x = 2^k.
func exactLog2(x Rat) (int, bool) {
	n, d := x.Num(), x.Den()
	if n.BitLen() != int(n.TrailingZeroBits())+1 || d.BitLen() != int(d.TrailingZeroBits())+1 {
		return 0, false
	}
	return int(n.TrailingZeroBits()) - int(d.TrailingZeroBits()), true
}

func exactSqrt(x Rat) (Rat, bool) {
	n, d := x.Num(), x.Den()
	rn, rd := new(big.Int).Sqrt(n), new(big.Int).Sqrt(d)
	if new(big.Int).Mul(rn, rn).Cmp(n) != 0 || new(big.Int).Mul(rd, rd).Cmp(d) != 0 {
		return Rat{}, false
	}
	return ratFromBig(new(big.Rat).SetFrac(rn, rd)), true
}

// EvalFloat returns the value of f at vals in floating point. Out-of-domain
// operations give NaN or ±Inf as IEEE arithmetic does.
func (f *Func) EvalFloat(vals []float64) float64 {
	var buf [stackSlots]float64
	av := buf[:0]
	if len(f.atoms) > stackSlots {
		av = make([]float64, 0, len(f.atoms))
	}
	for _, ca := range f.atoms {
		av = append(av, ca.evalFloat(vals))
	}
	var sum float64
	for _, t := range f.terms {
		p := t.c.Float64()
		for _, fa := range t.fs {
			v := av[fa.slot]
			switch fa.e {
			case 1:
				p *= v
			case 2:
				p *= v * v
			case -1:
				p /= v
			default:
				p *= math.Pow(v, float64(fa.e))
			}
		}
		sum += p
	}
	return sum
}

func (ca catom) evalFloat(vals []float64) float64 {
	a := ca.a
	switch a.kind {
	case kSym:
		return vals[ca.sym]
	case kConst:
		return math.Ln2
	}
	if (a.kind == kFloor || a.kind == kTrunc) && ca.args[0].rational {
		// floor(2N/3 + 1/3) at N = 1 is 1; in floating point the argument may
		// round to 0.999..., so floors of rational arguments are taken exactly.
		if v, ok := exactAtFloat(ca.args[0], vals); ok {
			if a.kind == kFloor {
				return v.Floor().Float64()
			}
			return v.Trunc().Float64()
		}
	}
	x := ca.args[0].EvalFloat(vals)
	switch a.kind {
	case kFloor:
		return math.Floor(x)
	case kTrunc:
		return math.Trunc(x)
	case kMin, kMax:
		best := x
		for _, sub := range ca.args[1:] {
			v := sub.EvalFloat(vals)
			if a.kind == kMin {
				best = min(best, v)
			} else {
				best = max(best, v)
			}
		}
		return best
	case kRecip:
		return x
	case kLog2:
		return math.Log2(x)
	case kSqrt:
		return math.Sqrt(x)
	}
	panic("symbolic: unknown atom kind")
}
