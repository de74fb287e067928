package cost

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// Splitting a domain on a variable's values. Conditions assembled from a
// routine's branches over a small selector (a dimension 1..3, a level k of
// a multigrid cycle) compare the selector with constants inside disjunctions:
// k == 1 or (k /= 1 and k == 2) or .... The counting engine expands such a
// condition into every combination of its literals and gives up beyond a
// few hundred. Yet a variable whose range the domain fixes by constants takes
// only a few values, and with each value substituted every comparison of it
// with a constant folds away: the domain is the disjoint union of its slices
// v = c, and its count is the sum of theirs. Exact, whatever v's place among
// the variables (a bound of an inner variable that mentions v takes c too).

// maxValueSplit bounds the values of a variable the domain is split on, and
// the product of the values of nested splits.
const maxValueSplit = 64

// countByValues counts set as the sum of its slices at each value of one of
// its variables. ok is false where no variable qualifies: one whose range
// is given by constant bounds of at most maxValueSplit values (times the
// splits already around this one) and that appears in a disjunction or
// a negation, where its comparisons are what expands the condition.
func (an *analysis) countByValues(set *counting.Set, weight *symbolic.Expr) (symbolic.Piecewise, bool, error) {
	outer := max(an.valueSplits, 1) // the splits around this one
	best, lo, hi := "", int64(0), int64(-1)
	for _, v := range set.Vars {
		if !inDisjunction(set.Cond, v, false) {
			continue
		}
		l, h, ok := constantRange(set.Cond, v)
		if !ok {
			continue
		}
		if n := h - l + 1; n >= 1 && outer*n <= maxValueSplit && (best == "" || n < hi-lo+1) {
			best, lo, hi = v, l, h
		}
	}
	if best == "" {
		return symbolic.Piecewise{}, false, nil
	}
	n := hi - lo + 1
	an.valueSplits = outer * n
	defer func() { an.valueSplits = outer }()
	var total symbolic.Piecewise
	for c := lo; c <= hi; c++ {
		cs, w, empty, err := fixSymbol(set, weight, best, c)
		if err != nil {
			return symbolic.Piecewise{}, true, err
		}
		if empty {
			continue
		}
		if len(cs.Vars) == 0 {
			// No variable left: the slice is the single point v = c,
			// counted once under its condition on the parameters.
			cs.Vars, cs.Cond = []string{best}, conj(eqConst(best, c), cs.Cond)
		}
		pw, err := an.countCases(&cs, w)
		if err != nil {
			return symbolic.Piecewise{}, true, err
		}
		total = total.Add(pw)
	}
	return total, true, nil
}

// eqConst is the relation v == c.
func eqConst(v string, c int64) counting.Formula {
	return counting.Rel{R: symbolic.Rel(symbolic.Sym(v), "==", symbolic.Int(c))}
}

// inDisjunction reports whether v appears in a relation under an Or or a
// Not of f.
func inDisjunction(f counting.Formula, v string, under bool) bool {
	switch g := f.(type) {
	case counting.Rel:
		return under && g.R.E.Has(v)
	case counting.And:
		for _, x := range g {
			if inDisjunction(x, v, under) {
				return true
			}
		}
	case counting.Or:
		for _, x := range g {
			if inDisjunction(x, v, true) {
				return true
			}
		}
	case counting.Not:
		return inDisjunction(g.F, v, true)
	}
	return false
}

// constantRange returns the range lo..hi that f's top-level conjuncts on v
// alone (a*v + b >= 0, > 0, == 0, a and b numbers) give v; ok is false
// when either end is not bounded that way.
func constantRange(f counting.Formula, v string) (lo, hi int64, ok bool) {
	var conjuncts []counting.Formula
	switch g := f.(type) {
	case counting.And:
		conjuncts = g
	case counting.Rel:
		conjuncts = []counting.Formula{g}
	}
	haveLo, haveHi := false, false
	bound := func(isLo bool, x symbolic.Rat) {
		// x is a rational bound; v is an integer.
		if isLo {
			c := x.Neg().Floor().Neg() // ceil
			n, ok := c.Int64()
			if ok && (!haveLo || n > lo) {
				lo, haveLo = n, true
			}
			return
		}
		n, ok := x.Floor().Int64()
		if ok && (!haveHi || n < hi) {
			hi, haveHi = n, true
		}
	}
	for _, c := range conjuncts {
		r, isRel := c.(counting.Rel)
		if !isRel {
			continue
		}
		syms := r.R.E.Symbols()
		if len(syms) != 1 || syms[0] != v {
			continue
		}
		b0, ok0 := mustConst(r.R.E, v, 0)
		b1, ok1 := mustConst(r.R.E, v, 1)
		if !ok0 || !ok1 {
			continue
		}
		a := b1.Sub(b0)
		if a.IsZero() || !symbolic.Equal(r.R.E, symbolic.Sym(v).Scale(a).Add(symbolic.Const(b0))) {
			continue
		}
		// a*v + b0 op 0: v op' -b0/a.
		x := b0.Neg().Quo(a)
		switch r.R.Op {
		case symbolic.EQ:
			bound(true, x)
			bound(false, x)
		case symbolic.GE, symbolic.GT:
			if r.R.Op == symbolic.GT {
				// v > x (a > 0) or v < x (a < 0), v an integer.
				if a.Sign() > 0 {
					x = x.Floor().Add(symbolic.RatInt(1))
				} else {
					x = x.Neg().Floor().Neg().Sub(symbolic.RatInt(1))
				}
			}
			bound(a.Sign() > 0, x)
		}
	}
	return lo, hi, haveLo && haveHi
}

// mustConst evaluates e at v = x when the result is a number.
func mustConst(e symbolic.Expr, v string, x int64) (symbolic.Rat, bool) {
	s, err := e.Subst(map[string]symbolic.Expr{v: symbolic.Int(x)})
	if err != nil {
		return symbolic.Rat{}, false
	}
	return s.Const()
}
