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
	if c, ok := e.Const(); ok {
		return c, nil
	}
	vars, f, err := e.compiled()
	if err != nil {
		return Rat{}, err
	}
	var buf [8]Rat
	vals := buf[:0]
	for _, v := range vars {
		x, ok := env[v]
		if !ok {
			return Rat{}, fmt.Errorf("no value for %s", v)
		}
		vals = append(vals, x)
	}
	return f.Eval(vals)
}

// EvalFloat returns the value of e in floating point with symbols from env.
func (e Expr) EvalFloat(env map[string]float64) (float64, error) {
	if c, ok := e.Const(); ok {
		return c.Float64(), nil
	}
	vars, f, err := e.compiled()
	if err != nil {
		return 0, err
	}
	var buf [8]float64
	vals := buf[:0]
	for _, v := range vars {
		x, ok := env[v]
		if !ok {
			return 0, fmt.Errorf("no value for %s", v)
		}
		vals = append(vals, x)
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
	// qc holds the coefficients as int64 fractions for evalQ64; nil when one
	// does not fit.
	qc []q64
}

type catom struct {
	a    *atom
	kind atomKind // a's, kept here to spare evaluation a load
	sym  int      // kSym: index into the point
	args []*Func  // functions
	// slot is the atom's place in an evaluation's q64cache, shared by every
	// Func compiled together (see numberAtoms); -1 when it has none.
	slot int32
}

type cterm struct {
	c  Rat
	fs []cfactor
}

type cfactor struct {
	slot int32 // index into atoms
	e    int32
	sym  int32 // the atom's index into the point when it is a symbol, else -1
}

// Compile prepares e for evaluation at points whose coordinates are the values
// of vars, in order. It fails if e depends on a symbol not in vars.
func (e Expr) Compile(vars []string) (*Func, error) {
	f, err := e.compile(vars)
	if err != nil {
		return nil, err
	}
	numberAtoms(f)
	return f, nil
}

func (e Expr) compile(vars []string) (*Func, error) {
	nf := 0
	for _, t := range e.t {
		nf += len(t.m)
	}
	// One array for every term's factors; atoms are found by a linear search
	// of the few an expression has.
	f := &Func{vars: vars, terms: make([]cterm, 0, len(e.t))}
	fs := make([]cfactor, 0, nf)
	for _, t := range e.t {
		ct := cterm{c: t.c}
		start := len(fs)
		for _, fa := range t.m {
			s := int32(slices.IndexFunc(f.atoms, func(ca catom) bool { return ca.a == fa.a }))
			if s < 0 {
				ca := catom{a: fa.a, kind: fa.a.kind, sym: -1, slot: -1}
				if fa.a.kind == kSym {
					ca.sym = slices.Index(vars, fa.a.name)
					if ca.sym < 0 {
						return nil, fmt.Errorf("no value for %s", fa.a.name)
					}
				}
				for _, x := range fa.a.args {
					sub, err := x.compile(vars)
					if err != nil {
						return nil, err
					}
					ca.args = append(ca.args, sub)
				}
				s = int32(len(f.atoms))
				f.atoms = append(f.atoms, ca)
			}
			fs = append(fs, cfactor{slot: s, e: fa.e, sym: int32(f.atoms[s].sym)})
		}
		ct.fs = fs[start:len(fs):len(fs)]
		f.terms = append(f.terms, ct)
	}
	f.prepareInt()
	f.qc = make([]q64, len(f.terms))
	for i, t := range f.terms {
		if t.c.b != nil {
			f.qc = nil
			break
		}
		f.qc[i] = q64{t.c.n, t.c.den()}
	}
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
	num, den, ok := scaledInts(nil, len(f.terms), func(i int) Rat { return f.terms[i].c })
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
				return Rat{}, zeroDivisor{f.atoms[fa.slot].a}
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
	var c q64cache
	if n, d, ok := f.evalQ64(vals, &c); ok {
		return q64Rat(n, d), nil
	}
	return f.evalIntExact(vals)
}

// valueInt is EvalInt where only whether f has a value matters, as in the
// searches for witnesses, which try thousands of points and drop those
// without one: a zero divisor met on the fast path answers at once. The
// exact path would meet it too (it evaluates every atom and factor the fast
// path does) and only say which one; at a whole application's points
// outside the assumptions (a divisor P - 1 at P = 1) that was most of the
// search's time.
func (f *Func) valueInt(vals []int64) (Rat, bool) {
	var c q64cache
	if n, d, ok := f.evalQ64(vals, &c); ok {
		return q64Rat(n, d), true
	}
	if c.zeroDiv {
		return Rat{}, false
	}
	v, err := f.evalIntExact(vals)
	return v, err == nil
}

func q64Rat(n, d int64) Rat {
	if d == 1 {
		return RatInt(n)
	}
	return RatFrac(n, d)
}

// evalIntExact is EvalInt in Rat arithmetic.
func (f *Func) evalIntExact(vals []int64) (Rat, error) {
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

// evalQ64 is EvalInt in int64 fractions, for the common case of counts at
// integer points (floor(n*k/p) - floor(n*(k-1)/p) + 1): every coefficient is
// a small rational, every atom a symbol, a floor or trunc, a min or max, or
// a sum that divides (kRecip), whose arguments evaluate this way, and no
// product or sum overflows. The value is n/d with d > 0, not reduced. ok is
// false otherwise, and wherever the exact path would report an error: at a
// zero divisor c.zeroDiv says so (valueInt stops there; EvalInt asks the
// exact path which divisor).
func (f *Func) evalQ64(vals []int64, c *q64cache) (n, d int64, ok bool) {
	if len(vals) != len(f.vars) || f.qc == nil {
		return 0, 0, false
	}
	// Atom values come from the point (symbols) or the cache (functions,
	// evaluated on first use): no per-call array of them to clear.
	sum := q64{0, 1}
	for i, t := range f.terms {
		p := f.qc[i]
		for _, fa := range t.fs {
			v := q64{0, 1}
			if fa.sym >= 0 {
				v.n = vals[fa.sym]
			} else if v, ok = f.atoms[fa.slot].evalQ64(vals, c); !ok {
				return 0, 0, false
			}
			num, den, e := v.n, v.d, fa.e
			if e > 0 && den == 1 {
				for range e {
					if p.n, ok = mul64(p.n, num); !ok {
						return 0, 0, false
					}
				}
				continue
			}
			if e < 0 {
				if num == 0 {
					c.zeroDiv = true
					return 0, 0, false
				}
				num, den, e = den, num, -e
				if den < 0 {
					num, den = -num, -den
				}
			}
			for range e {
				if p.n, ok = mul64(p.n, num); !ok {
					return 0, 0, false
				}
				if p.d, ok = mul64(p.d, den); !ok {
					return 0, 0, false
				}
			}
		}
		if sum, ok = sum.add(p); !ok {
			return 0, 0, false
		}
	}
	return sum.n, sum.d, true
}

// q64 is the fraction n/d, d > 0, not necessarily reduced.
type q64 struct{ n, d int64 }

func (x q64) add(y q64) (q64, bool) {
	if x.d == y.d {
		s := x.n + y.n
		if (s^x.n)&(s^y.n) < 0 {
			return q64{}, false
		}
		return q64{s, x.d}, true
	}
	g := int64(gcd64(uint64(x.d), uint64(y.d)))
	a, ok1 := mul64(x.n, y.d/g)
	b, ok2 := mul64(y.n, x.d/g)
	d, ok3 := mul64(x.d, y.d/g)
	s := a + b
	if !ok1 || !ok2 || !ok3 || (s^a)&(s^b) < 0 {
		return q64{}, false
	}
	return q64{s, d}, true
}

// less reports x < y.
func (x q64) less(y q64) (bool, bool) {
	a, ok1 := mul64(x.n, y.d)
	b, ok2 := mul64(y.n, x.d)
	return a < b, ok1 && ok2
}

// q64cache remembers the values of atoms during one evaluation at one point:
// a closed form from counting repeats its floors in many pieces and inside
// other floors (floor(floor(k*n2/p)/n1) beside floor(k*n2/p)). Each function
// atom of the Funcs evaluated together has a slot (numberAtoms), so a value
// is found without a search.
type q64cache struct {
	have [maxCacheSlots]bool
	vals [maxCacheSlots]q64
	// zeroDiv is set where the evaluation met a factor with a negative
	// exponent whose value is 0 (at any depth): the point has no value.
	zeroDiv bool
}

const maxCacheSlots = 48

// numberAtoms gives the function atoms of fs and of their arguments, at any
// depth, cache slots: the same slot for the same atom (atoms are interned,
// so the pointer identifies it) in every one of them. Atoms beyond the
// cache's size get none and are evaluated each time.
func numberAtoms(fs ...*Func) {
	var slots map[*atom]int32 // made at the first function atom
	var visit func(f *Func)
	visit = func(f *Func) {
		for i := range f.atoms {
			ca := &f.atoms[i]
			if ca.kind == kSym {
				continue
			}
			if slots == nil {
				slots = map[*atom]int32{}
			}
			s, ok := slots[ca.a]
			if !ok {
				s = -1
				if len(slots) < maxCacheSlots {
					s = int32(len(slots))
				}
				slots[ca.a] = s
			}
			ca.slot = s
			for _, sub := range ca.args {
				visit(sub)
			}
		}
	}
	for _, f := range fs {
		visit(f)
	}
}

// evalQ64 is an atom's value at an integer point; see Func.evalQ64.
func (ca *catom) evalQ64(vals []int64, c *q64cache) (q64, bool) {
	if ca.kind == kSym {
		return q64{vals[ca.sym], 1}, true
	}
	if ca.slot >= 0 && c.have[ca.slot] {
		return c.vals[ca.slot], true
	}
	v, ok := ca.evalQ64Uncached(vals, c)
	if ok && ca.slot >= 0 {
		c.have[ca.slot], c.vals[ca.slot] = true, v
	}
	return v, ok
}

func (ca *catom) evalQ64Uncached(vals []int64, c *q64cache) (q64, bool) {
	switch ca.a.kind {
	case kFloor, kTrunc:
		n, d, ok := ca.args[0].evalQ64(vals, c)
		if !ok {
			return q64{}, false
		}
		q, r := floorDivMod(n, d)
		if ca.a.kind == kTrunc && r != 0 && n < 0 {
			q++ // toward zero: d > 0, so a negative n with a remainder was rounded down
		}
		return q64{q, 1}, true
	case kMin, kMax:
		var best q64
		for i, sub := range ca.args {
			n, d, ok := sub.evalQ64(vals, c)
			if !ok {
				return q64{}, false
			}
			v := q64{n, d}
			if i == 0 {
				best = v
				continue
			}
			lt, ok := v.less(best)
			if !ok {
				return q64{}, false
			}
			gt, ok := best.less(v)
			if !ok {
				return q64{}, false
			}
			if ca.a.kind == kMin && lt || ca.a.kind == kMax && gt {
				best = v
			}
		}
		return best, true
	case kRecip:
		// The sum's value; the factor's negative exponent divides by it.
		n, d, ok := ca.args[0].evalQ64(vals, c)
		return q64{n, d}, ok
	}
	return q64{}, false
}

func (a *atom) describe() string { return atomExpr(a).String() }

// zeroDivisor is the error of an evaluation that divides by an atom whose
// value is 0. The message is formatted only when asked for: searches that
// evaluate at many points (witnesses) discard most such errors.
type zeroDivisor struct{ a *atom }

func (z zeroDivisor) Error() string { return "division by zero: " + z.a.describe() + " is 0" }

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
