package counting

import (
	"slices"

	"github.com/mkvet/mkvet/symbolic"
)

// Tabulate returns the truth of f at x = 0, 1, ..., n-1, where f mentions
// no symbol but x and those env gives values. It is Holds at each of those
// points, done by sets: a relation a*x + b op 0 whose a and b are numbers
// at env (rank ranges, "the rank before mine", a grid's edges) holds on an
// interval of x, filled at once, and And, Or and Not combine the sets a
// word at a time. A condition built from hundreds of rank ranges (one per
// run of ranks that took an alternative) then costs a pass over its
// ranges, where evaluating it at every rank cost ranges times ranks. Other
// relations are evaluated at each x. Where a relation has no value at
// some x (a division by zero), the answer is Holds's, point by point: Holds
// stops at the first decided conjunct, so it may not evaluate there.
func Tabulate(f Formula, x string, n int64, env map[string]int64) ([]bool, error) {
	if n <= 0 {
		return nil, nil
	}
	vars := []string{x}
	for k := range env {
		if k != x {
			vars = append(vars, k)
		}
	}
	slices.Sort(vars[1:])
	pt := make([]int64, len(vars))
	renv := make(map[string]symbolic.Rat, len(env))
	for i, k := range vars[1:] {
		pt[i+1] = env[k]
		renv[k] = symbolic.RatInt(env[k])
	}
	t := tabulator{x: x, n: n, vars: vars, pt: pt, env: renv}
	set, ok := t.formula(f)
	if !ok {
		return holdsEach(f, vars, pt, n)
	}
	out := make([]bool, n)
	for i := range out {
		out[i] = set[i/64]&(1<<(i%64)) != 0
	}
	return out, nil
}

// holdsEach is Holds at x = 0..n-1 (x first among vars, the other
// coordinates in pt).
func holdsEach(f Formula, vars []string, pt []int64, n int64) ([]bool, error) {
	c, err := CompileFormula(f, vars)
	if err != nil {
		return nil, err
	}
	out := make([]bool, n)
	for i := range n {
		pt[0] = i
		h, err := c.Holds(pt)
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

type tabulator struct {
	x    string
	n    int64
	vars []string
	pt   []int64
	env  map[string]symbolic.Rat
}

// bitset holds one bit per x in 0..n-1; bits past n are zero.
type bitset []uint64

func (t *tabulator) empty() bitset { return make(bitset, (t.n+63)/64) }

func (t *tabulator) full() bitset {
	s := t.empty()
	t.fill(s, 0, t.n-1)
	return s
}

// fill sets the bits lo..hi (within 0..n-1).
func (t *tabulator) fill(s bitset, lo, hi int64) {
	lo, hi = max(lo, 0), min(hi, t.n-1)
	for lo <= hi {
		w, b := lo/64, lo%64
		span := min(64-b, hi-lo+1)
		mask := ^uint64(0)
		if span < 64 {
			mask = (1<<span - 1) << b
		}
		s[w] |= mask
		lo += span
	}
}

// formula returns the set where f holds; ok is false where a relation has
// no value at some x, or mentions a symbol with no value.
func (t *tabulator) formula(f Formula) (bitset, bool) {
	switch g := f.(type) {
	case nil:
		return t.full(), true
	case Rel:
		return t.rel(g.R)
	case And:
		out := t.full()
		for _, k := range g {
			s, ok := t.formula(k)
			if !ok {
				return nil, false
			}
			for i := range out {
				out[i] &= s[i]
			}
		}
		return out, true
	case Or:
		out := t.empty()
		for _, k := range g {
			s, ok := t.formula(k)
			if !ok {
				return nil, false
			}
			for i := range out {
				out[i] |= s[i]
			}
		}
		return out, true
	case Not:
		s, ok := t.formula(g.F)
		if !ok {
			return nil, false
		}
		all := t.full()
		for i := range s {
			s[i] = ^s[i] & all[i]
		}
		return s, true
	}
	panic("counting: unknown formula type")
}

// rel returns the set where r holds.
func (t *tabulator) rel(r symbolic.Relation) (bitset, bool) {
	if a, b, ok := r.E.Linear(t.x); ok {
		av, aerr := a.Eval(t.env)
		bv, berr := b.Eval(t.env)
		if aerr == nil && berr == nil {
			return t.interval(av, bv, r.Op), true
		}
	}
	fn, err := r.E.Compile(t.vars)
	if err != nil {
		return nil, false
	}
	out := t.empty()
	for i := range t.n {
		t.pt[0] = i
		v, err := fn.EvalInt(t.pt)
		if err != nil {
			return nil, false
		}
		if r.Holds(v) {
			out[i/64] |= 1 << (i % 64)
		}
	}
	return out, true
}

// interval returns the set where a*x + b op 0.
func (t *tabulator) interval(a, b symbolic.Rat, op symbolic.RelOp) bitset {
	out := t.empty()
	if first, last, ok := symbolic.IntRange(a, b, op, 0, t.n-1); ok {
		t.fill(out, first, last)
	}
	return out
}
