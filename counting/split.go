package counting

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mkvet/mkvet/symbolic"
)

// Counting at a point. With every parameter fixed a set is finite, and a
// count the engine refuses in closed form (a product of two variables, the
// sieve DO i = 2*k, n, k; more cases than the limits allow) is still exact
// by splitting: the outermost variable runs over the values its constant
// bounds allow, and the set that remains for each value has one variable
// less. The engine counts each of those in closed form where it can and
// splits again where it cannot, so the work is the product of the ranges
// split, bounded by MaxSplit.

// MaxSplit bounds the values SumAtPoint enumerates, over all levels of one
// count.
const MaxSplit = 1 << 17

// ErrUnbounded is returned by SumAtPoint for a set whose outermost variable
// has no constant bound.
var ErrUnbounded = errors.New("no constant bounds to split on")

// SumAtPoint is Sum for a set without parameters: where Sum fails with
// ErrNotExact or ErrTooComplex, the outermost variable is enumerated
// between its constant bounds and the rest summed for each of its values.
// The result is a constant (a piecewise value with one unguarded piece, or
// none for an empty set).
func SumAtPoint(s *Set, w symbolic.Expr, a *symbolic.Assumptions, opt Options) (symbolic.Piecewise, error) {
	if len(s.Params) > 0 {
		panic(fmt.Sprintf("counting: SumAtPoint of a set with parameters %v", s.Params))
	}
	budget := MaxSplit
	return sumSplit(s, w, a, opt, &budget)
}

func sumSplit(s *Set, w symbolic.Expr, a *symbolic.Assumptions, opt Options, budget *int) (symbolic.Piecewise, error) {
	pw, err := Sum(s, w, a, opt)
	if err == nil || len(s.Vars) == 0 || !errors.Is(err, ErrNotExact) && !errors.Is(err, ErrTooComplex) {
		return pw, err
	}
	v := s.Vars[0]
	lo, hi, ok := constBounds(s.Cond, v)
	if !ok {
		return symbolic.Piecewise{}, fmt.Errorf("%w (%s): %v", ErrUnbounded, v, err)
	}
	if hi < lo {
		return symbolic.Piecewise{}, nil
	}
	if n := hi - lo + 1; n > int64(*budget) {
		return symbolic.Piecewise{}, fmt.Errorf("%w: splitting on %s would take %d values (limit %d): %v", ErrTooComplex, v, n, MaxSplit, err)
	}
	*budget -= int(hi - lo + 1)
	if len(s.Vars) == 1 {
		if total, ok, err := enumerate(s.Cond, w, v, lo, hi); ok {
			return total, err
		}
	}
	total := symbolic.RatInt(0)
	for x := lo; x <= hi; x++ {
		sub := map[string]symbolic.Expr{v: symbolic.Int(x)}
		cond, err := substFormula(s.Cond, sub)
		if err != nil {
			return symbolic.Piecewise{}, err
		}
		wx, err := w.Subst(sub)
		if err != nil {
			return symbolic.Piecewise{}, err
		}
		rest := &Set{Vars: slices.Clone(s.Vars[1:]), Cond: cond}
		if len(rest.Vars) == 0 {
			// A point: it is in the set when the condition holds there.
			c, err := CompileFormula(cond, nil)
			if err != nil {
				return symbolic.Piecewise{}, err
			}
			in, err := c.Holds(nil)
			if err != nil {
				return symbolic.Piecewise{}, err
			}
			if in {
				r, ok := wx.Const()
				if !ok {
					return symbolic.Piecewise{}, fmt.Errorf("counting: weight %s is not constant at a point", wx)
				}
				total = total.Add(r)
			}
			continue
		}
		part, err := sumSplit(rest, wx, a, opt, budget)
		if err != nil {
			return symbolic.Piecewise{}, err
		}
		r, err := part.Eval(nil)
		if err != nil {
			return symbolic.Piecewise{}, err
		}
		total = total.Add(r)
	}
	if total.IsZero() {
		return symbolic.Piecewise{}, nil
	}
	return symbolic.Piecewise{Pieces: []symbolic.Piece{{Value: symbolic.Const(total)}}}, nil
}

// SumBox sums w over a set without parameters by visiting every point of
// the box its variables' constant bounds span, with the condition and the
// weight compiled once: for a small nest of several variables (a
// 27-point stencil's neighbours over a grid) that takes microseconds where
// eliminating the variables one by one takes seconds. ok is false where a
// variable has no constant bounds or the box holds more than limit points.
func SumBox(s *Set, w symbolic.Expr, limit int64) (pw symbolic.Piecewise, ok bool, err error) {
	lo, hi, ok := box(s, limit)
	if !ok {
		return symbolic.Piecewise{}, false, nil
	}
	for i := range lo {
		if hi[i] < lo[i] {
			return symbolic.Piecewise{}, true, nil
		}
	}
	c, err := CompileFormula(s.Cond, s.Vars)
	if err != nil {
		return symbolic.Piecewise{}, false, nil
	}
	wf, err := w.Compile(s.Vars)
	if err != nil {
		return symbolic.Piecewise{}, false, nil
	}
	total := symbolic.RatInt(0)
	pt := slices.Clone(lo)
	for {
		in, err := c.Holds(pt)
		if err != nil {
			return symbolic.Piecewise{}, true, err
		}
		if in {
			r, err := wf.EvalInt(pt)
			if err != nil {
				return symbolic.Piecewise{}, true, err
			}
			total = total.Add(r)
		}
		// The next point, the last variable fastest.
		i := len(pt) - 1
		for ; i >= 0 && pt[i] == hi[i]; i-- {
			pt[i] = lo[i]
		}
		if i < 0 {
			break
		}
		pt[i]++
	}
	if total.IsZero() {
		return symbolic.Piecewise{}, true, nil
	}
	return symbolic.Piecewise{Pieces: []symbolic.Piece{{Value: symbolic.Const(total)}}}, true, nil
}

// Boxable reports whether SumBox counts s within limit points.
func Boxable(s *Set, limit int64) bool {
	_, _, ok := box(s, limit)
	return ok
}

// box is the box of a set without parameters whose relations tie its
// variables together, from each variable's constant bounds, where it holds
// at most limit points (an empty range makes it empty).
func box(s *Set, limit int64) (lo, hi []int64, ok bool) {
	if len(s.Params) > 0 || len(s.Vars) == 0 || !coupled(s.Cond, s.Vars) {
		return nil, nil, false
	}
	lo = make([]int64, len(s.Vars))
	hi = make([]int64, len(s.Vars))
	size := int64(1)
	for i, v := range s.Vars {
		l, h, ok := constBounds(s.Cond, v)
		if !ok {
			return nil, nil, false
		}
		lo[i], hi[i] = l, h
		if h < l {
			return lo, hi, true
		}
		if size *= h - l + 1; size > limit {
			return nil, nil, false
		}
	}
	return lo, hi, true
}

// coupled reports whether a relation of f ties two of vars together: a
// set of independent ranges is a product the engine counts at once.
func coupled(f Formula, vars []string) bool {
	switch g := f.(type) {
	case And:
		return slices.ContainsFunc(g, func(x Formula) bool { return coupled(x, vars) })
	case Or:
		return slices.ContainsFunc(g, func(x Formula) bool { return coupled(x, vars) })
	case Not:
		return coupled(g.F, vars)
	case Rel:
		n := 0
		for _, v := range vars {
			if g.R.E.Has(v) {
				n++
			}
		}
		return n >= 2
	}
	return false
}

// enumerate sums w over the points lo..hi of the one variable v at which
// f holds, with f and w compiled once: the last level of a split, where
// substituting each value and compiling what is left cost a whole count's
// time at P = 1024 (a per-rank count of FT's transposes). ok is false where
// f or w mentions another symbol; the caller then substitutes.
func enumerate(f Formula, w symbolic.Expr, v string, lo, hi int64) (pw symbolic.Piecewise, ok bool, err error) {
	vars := []string{v}
	c, err := CompileFormula(f, vars)
	if err != nil {
		return symbolic.Piecewise{}, false, nil
	}
	wf, err := w.Compile(vars)
	if err != nil {
		return symbolic.Piecewise{}, false, nil
	}
	total := symbolic.RatInt(0)
	pt := []int64{0}
	for x := lo; x <= hi; x++ {
		pt[0] = x
		in, err := c.Holds(pt)
		if err != nil {
			return symbolic.Piecewise{}, true, err
		}
		if !in {
			continue
		}
		r, err := wf.EvalInt(pt)
		if err != nil {
			return symbolic.Piecewise{}, true, err
		}
		total = total.Add(r)
	}
	if total.IsZero() {
		return symbolic.Piecewise{}, true, nil
	}
	return symbolic.Piecewise{Pieces: []symbolic.Piece{{Value: symbolic.Const(total)}}}, true, nil
}

// constBounds finds constant bounds on v that every point of f satisfies:
// from the relations on v alone, linear, in the top-level conjunction, and
// through disjunctions whose every case bounds v (the hull of the cases).
func constBounds(f Formula, v string) (lo, hi int64, ok bool) {
	hasLo, hasHi := false, false
	var visit func(f Formula)
	visit = func(f Formula) {
		switch g := f.(type) {
		case And:
			for _, x := range g {
				visit(x)
			}
		case Or:
			// Each case must bound v; the hull of their bounds does.
			var l, h int64
			first := true
			for _, x := range g {
				xl, xh, ok := constBounds(x, v)
				if !ok {
					return
				}
				if first || xl < l {
					l = xl
				}
				if first || xh > h {
					h = xh
				}
				first = false
			}
			if !first {
				setLo(&lo, &hasLo, l)
				setHi(&hi, &hasHi, h)
			}
		case Rel:
			syms := g.R.E.Symbols()
			if len(syms) != 1 || syms[0] != v {
				return
			}
			a, b, lin := g.R.E.Linear(v)
			ca, ok1 := a.Const()
			cb, ok2 := b.Const()
			if !lin || !ok1 || !ok2 || ca.IsZero() {
				return
			}
			// a*v + b op 0 with op >=, > or ==.
			bound := cb.Neg().Quo(ca)
			up, down := bound.Floor(), bound.Neg().Floor().Neg() // floor and ceil
			strict := g.R.Op == symbolic.GT
			isLower := ca.Sign() > 0 // v >= -b/a
			if g.R.Op == symbolic.EQ {
				if !bound.IsInt() {
					lo, hi, hasLo, hasHi = 1, 0, true, true
					return
				}
				n, _ := bound.Int64()
				setLo(&lo, &hasLo, n)
				setHi(&hi, &hasHi, n)
				return
			}
			if isLower {
				n, _ := down.Int64()
				if strict && bound.IsInt() {
					n++
				}
				setLo(&lo, &hasLo, n)
			} else {
				n, _ := up.Int64()
				if strict && bound.IsInt() {
					n--
				}
				setHi(&hi, &hasHi, n)
			}
		}
	}
	visit(f)
	return lo, hi, hasLo && hasHi
}

// pinConstants reads the constant bounds of each variable of s before its
// condition is expanded into cases: bounds that leave no value make the set
// empty (k >= 2 and 0 >= k: a loop that does not run on this path, under a
// condition whose cases, hundreds of them, would otherwise be expanded
// before the first is refuted), and a variable they fix to one value (k == 5 at the top of a
// condition that tests k against every level, each test negated in the
// cases after it) is replaced by that value, in the condition and in the
// weight, and the relations that become constant are decided. The sum is
// unchanged: every point of s has that value. A set without such a
// variable is returned as it is.
func pinConstants(s *Set, w symbolic.Expr) (*Set, symbolic.Expr, bool, error) {
	var sub map[string]symbolic.Expr
	for _, v := range s.Vars {
		lo, hi, ok := constBounds(s.Cond, v)
		if !ok {
			continue
		}
		if hi < lo {
			return nil, w, true, nil
		}
		if lo == hi {
			if sub == nil {
				sub = map[string]symbolic.Expr{}
			}
			sub[v] = symbolic.Int(lo)
		}
	}
	if sub == nil {
		return s, w, false, nil
	}
	return Fix(s, w, sub)
}

// Fix is s with the variables and parameters sub names fixed to the
// constants it gives: the slice of s there, those names no longer among
// its variables or parameters, the weight w taken there too. Relations that
// become constant are decided; empty reports a slice with no point.
func Fix(s *Set, w symbolic.Expr, sub map[string]symbolic.Expr) (*Set, symbolic.Expr, bool, error) {
	cond, err := substFormula(s.Cond, sub)
	if err != nil {
		return nil, w, false, err
	}
	cond, t, decided := fold(cond)
	if decided && !t {
		return nil, w, true, nil
	}
	if decided {
		cond = nil
	}
	if w, err = w.Subst(sub); err != nil {
		return nil, w, false, err
	}
	fixed := func(v string) bool { _, ok := sub[v]; return ok }
	out := &Set{
		Vars:   slices.DeleteFunc(slices.Clone(s.Vars), fixed),
		Params: slices.DeleteFunc(slices.Clone(s.Params), fixed),
		Cond:   cond,
	}
	return out, w, false, nil
}

// fold decides the relations of f between constants and drops what they
// decide: true members of conjunctions, false members of disjunctions.
// decided reports an f that is then constant, with truth t.
func fold(f Formula) (g Formula, t, decided bool) {
	switch x := f.(type) {
	case nil:
		return nil, true, true
	case Rel:
		if c, ok := x.R.E.Const(); ok {
			return nil, x.R.Holds(c), true
		}
		return x, false, false
	case And:
		var out And
		for _, y := range x {
			z, t, d := fold(y)
			if d && !t {
				return nil, false, true
			}
			if !d {
				out = append(out, z)
			}
		}
		switch len(out) {
		case 0:
			return nil, true, true
		case 1:
			return out[0], false, false
		}
		return out, false, false
	case Or:
		var out Or
		for _, y := range x {
			z, t, d := fold(y)
			if d && t {
				return nil, true, true
			}
			if !d {
				out = append(out, z)
			}
		}
		switch len(out) {
		case 0:
			return nil, false, true
		case 1:
			return out[0], false, false
		}
		return out, false, false
	case Not:
		z, t, d := fold(x.F)
		if d {
			return nil, !t, true
		}
		return Not{F: z}, false, false
	}
	return f, false, false
}

func setLo(lo *int64, has *bool, n int64) {
	if !*has || n > *lo {
		*lo = n
	}
	*has = true
}

func setHi(hi *int64, has *bool, n int64) {
	if !*has || n < *hi {
		*hi = n
	}
	*has = true
}

// substFormula substitutes sub into every relation of f.
func substFormula(f Formula, sub map[string]symbolic.Expr) (Formula, error) {
	switch g := f.(type) {
	case nil:
		return nil, nil
	case Rel:
		e, err := g.R.E.Subst(sub)
		if err != nil {
			return nil, err
		}
		return Rel{R: symbolic.Relation{E: e, Op: g.R.Op}}, nil
	case And:
		out := make(And, len(g))
		for i, x := range g {
			y, err := substFormula(x, sub)
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		return out, nil
	case Or:
		out := make(Or, len(g))
		for i, x := range g {
			y, err := substFormula(x, sub)
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		return out, nil
	case Not:
		y, err := substFormula(g.F, sub)
		if err != nil {
			return nil, err
		}
		return Not{F: y}, nil
	}
	panic("counting: unknown formula type")
}
