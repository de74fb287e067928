package symbolic

import (
	"fmt"
	"slices"
)

// Evaluation along one coordinate. A per-rank count at a point is a
// piecewise function of the rank with, at P = 1024, hundreds of pieces
// guarded by rank == r or lo <= rank <= hi; evaluating every guard at every
// rank cost pieces times ranks per count. Most guards are linear in the
// rank with a number for coefficient, so each piece holds on an interval of
// ranks found once, and only the ranks in it are visited.

// IntRange returns the integers x in lo..hi at which a*x + b op 0 holds:
// the range first..last, or ok false when there is none.
func IntRange(a, b Rat, op RelOp, lo, hi int64) (first, last int64, ok bool) {
	if lo > hi {
		return 0, 0, false
	}
	if a.IsZero() {
		return lo, hi, (Relation{Op: op}).Holds(b)
	}
	// x compared with c = -b/a; dividing by a < 0 turns the comparison.
	c := b.Neg().Quo(a)
	floor := c.Floor()
	ceil := c.Neg().Floor().Neg()
	one := RatInt(1)
	var from, to Rat // bounds on x; an unset end is lo or hi
	fromSet, toSet := false, false
	switch {
	case op == EQ:
		if !c.IsInt() {
			return 0, 0, false
		}
		from, to, fromSet, toSet = c, c, true, true
	case op == GE && a.Sign() > 0:
		from, fromSet = ceil, true
	case op == GE:
		to, toSet = floor, true
	case a.Sign() > 0: // GT
		from, fromSet = floor.Add(one), true
	default:
		to, toSet = ceil.Sub(one), true
	}
	first, last = lo, hi
	if fromSet {
		if from.Cmp(RatInt(hi)) > 0 {
			return 0, 0, false
		}
		if from.Cmp(RatInt(lo)) > 0 {
			first, _ = from.Int64()
		}
	}
	if toSet {
		if to.Cmp(RatInt(lo)) < 0 {
			return 0, 0, false
		}
		if to.Cmp(RatInt(hi)) < 0 {
			last, _ = to.Int64()
		}
	}
	return first, last, first <= last
}

// A Sweeper evaluates piecewise functions at the points that differ in one
// coordinate only: vars at vals, with the swept coordinate x taking 0, 1,
// ..., n-1. The guards that are neither free of x nor linear in it (a
// process's column, mod(rank, k) == c) are tabulated once over all x and
// shared by every function the Sweeper evaluates: a program's counts repeat
// them across pieces and loop nests.
type Sweeper struct {
	vars []string
	x    int // the swept coordinate's place in vars
	pt   []int64
	n    int64
	// tables holds, by relation key, each tabulated guard's truth at each
	// x: 1 true, 0 false, or its error.
	tables map[string]*sweepTable
}

type sweepTable struct {
	truth []bool
	err   []error // nil where every x has a value
}

// NewSweeper prepares evaluations at vals (in the order of vars) with x,
// one of vars, swept over 0..n-1. vals's entry for x is not read.
func NewSweeper(vars []string, vals []int64, x string, n int64) (*Sweeper, error) {
	s := &Sweeper{vars: vars, x: -1, pt: append([]int64(nil), vals...), n: max(n, 0), tables: map[string]*sweepTable{}}
	for i, v := range vars {
		if v == x {
			s.x = i
		}
	}
	if s.x < 0 || len(vals) != len(vars) {
		return nil, fmt.Errorf("sweep over %s: not among the %d variables given %d values", x, len(vars), len(vals))
	}
	s.pt[s.x] = 0
	return s, nil
}

// Eval returns pw's value at each x: what Compile's EvalInt gives at that
// point, the sum of the pieces whose guards hold, and an error where a
// guard or value of a piece none of whose guards is false has none.
func (s *Sweeper) Eval(pw Piecewise) ([]Rat, error) {
	out := make([]Rat, s.n)
	if s.n == 0 {
		return out, nil
	}
	xname := s.vars[s.x]
	var errAt []error // per x, the first error where no guard is false
	for _, p := range pw.Pieces {
		var pieceErr error // a guard with no value at any x
		first, last := int64(0), s.n-1
		var tabs []*sweepTable
		skip := false
		s.pt[s.x] = 0
		for _, g := range p.Guard {
			switch {
			case !g.E.Has(xname):
				v, err := s.evalAt(g.E)
				if err != nil {
					pieceErr = err
					continue
				}
				skip = !g.Holds(v)
			default:
				if a, b, ok := g.E.Linear(xname); ok {
					if av, ok := a.Const(); ok {
						bv, err := s.evalAt(b)
						if err != nil {
							// g fails wherever b does: at every x.
							pieceErr = err
							continue
						}
						lo, hi, ok := IntRange(av, bv, g.Op, first, last)
						first, last, skip = lo, hi, !ok
						break
					}
				}
				t, err := s.table(g)
				if err != nil {
					return nil, err
				}
				tabs = append(tabs, t)
			}
			if skip {
				break
			}
		}
		if skip {
			continue
		}
		var value *Func
	next:
		for x := first; x <= last; x++ {
			err := pieceErr
			for _, t := range tabs {
				if t.err != nil && t.err[x] != nil {
					err = t.err[x]
					continue
				}
				if !t.truth[x] {
					continue next
				}
			}
			if err == nil {
				if value == nil {
					if value, err = p.Value.Compile(s.vars); err != nil {
						return nil, err
					}
				}
				s.pt[s.x] = x
				var v Rat
				if v, err = value.EvalInt(s.pt); err == nil {
					out[x] = out[x].Add(v)
					continue
				}
			}
			if errAt == nil {
				errAt = make([]error, s.n)
			}
			if errAt[x] == nil {
				errAt[x] = err
			}
		}
	}
	for _, err := range errAt {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// evalAt evaluates e, free of x, at the point.
func (s *Sweeper) evalAt(e Expr) (Rat, error) {
	f, err := e.Compile(s.vars)
	if err != nil {
		return Rat{}, err
	}
	return f.EvalInt(s.pt)
}

// table returns g's truth at every x, tabulated once per Sweeper.
func (s *Sweeper) table(g Relation) (*sweepTable, error) {
	key := g.Key()
	if t, ok := s.tables[key]; ok {
		return t, nil
	}
	f, err := g.E.Compile(s.vars)
	if err != nil {
		return nil, err
	}
	t := &sweepTable{truth: make([]bool, s.n)}
	pt := slices.Clone(s.pt)
	for x := range s.n {
		pt[s.x] = x
		v, err := f.EvalInt(pt)
		if err != nil {
			if t.err == nil {
				t.err = make([]error, s.n)
			}
			t.err[x] = err
			continue
		}
		t.truth[x] = g.Holds(v)
	}
	s.tables[key] = t
	return t, nil
}
