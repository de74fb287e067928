package symeval

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// Deciding conditions on the rank. At a point P is a number, so a condition
// that depends on the rank alone (row = mod(rank, xdim) + 1 > 1, a neighbour
// rank + xdim that must stay below P) is decided by evaluating it at every
// rank 0..P-1: one that holds at no rank is false and one that holds at
// every rank is true. Alternatives of values and arms of IFs that no rank
// reaches are dropped, so chains of conditional assignments (the bounds of
// a subdomain, its neighbours) keep only the cases some process has.

// maxTabulatedP bounds the process counts conditions are tabulated at.
const maxTabulatedP = 1 << 16

// rankDecide decides f when it depends on the rank alone and P is a number.
func (ev *evaluator) rankDecide(f counting.Formula) (truth, ok bool) {
	np, ok := ev.values[Size]
	if !ok || np < 1 || np > maxTabulatedP || f == nil {
		return false, false
	}
	if _, fixed := ev.values[Rank]; fixed {
		return false, false
	}
	key := counting.FormulaKey(f)
	if r, ok := ev.rankMemo[key]; ok {
		return r.truth, r.ok
	}
	truth, ok = ev.tabulateRanks(f, np)
	ev.rankMemo[key] = rankAnswer{truth, ok}
	return truth, ok
}

type rankAnswer struct{ truth, ok bool }

func (ev *evaluator) tabulateRanks(f counting.Formula, np int64) (truth, ok bool) {
	if !onlyRank(f) {
		return false, false
	}
	c, err := counting.CompileFormula(f, []string{Rank})
	if err != nil {
		return false, false
	}
	some, all := false, true
	pt := []int64{0}
	for r := int64(0); r < np; r++ {
		pt[0] = r
		h, err := c.Holds(pt)
		if err != nil {
			return false, false
		}
		some = some || h
		all = all && h
		if some && !all {
			return false, false
		}
	}
	switch {
	case all:
		return true, true
	case !some:
		return false, true
	}
	return false, false
}

// onlyRank reports whether f mentions no symbol but the rank.
func onlyRank(f counting.Formula) bool {
	switch g := f.(type) {
	case counting.Rel:
		for _, s := range g.R.E.Symbols() {
			if s != Rank {
				return false
			}
		}
		return true
	case counting.And:
		for _, x := range g {
			if !onlyRank(x) {
				return false
			}
		}
		return true
	case counting.Or:
		for _, x := range g {
			if !onlyRank(x) {
				return false
			}
		}
		return true
	case counting.Not:
		return onlyRank(g.F)
	}
	return false
}

// decideHere decides f from constants, or from the ranks at a point.
func (ev *evaluator) decideHere(f counting.Formula) (truth, ok bool) {
	if t, ok := decide(f); ok {
		return t, true
	}
	return ev.rankDecide(f)
}

// pruneRanks drops the alternatives of v that no rank takes and makes one
// that every rank takes unconditional.
func (ev *evaluator) pruneRanks(v Value) Value {
	if len(v.Alts) < 2 {
		return v
	}
	if _, ok := ev.values[Size]; !ok {
		return v
	}
	out := make([]Alt, 0, len(v.Alts))
	changed := false
	for _, a := range v.Alts {
		if a.Guard == nil {
			out = append(out, a)
			continue
		}
		t, ok := ev.decideHere(a.Guard)
		switch {
		case !ok:
			out = append(out, a)
		case t:
			// The alternatives partition the domain: this one is the
			// value everywhere.
			v.Alts = []Alt{{E: a.E}}
			return v
		default:
			changed = true
		}
	}
	if !changed || len(out) == 0 {
		return v
	}
	v.Alts = mergeAlts(out)
	return v
}

// provedHere reports whether r holds for every P >= 1 and rank in 0..P-1
// in the current domain, under the caller's and the annotations'
// assumptions: a DO step of P is then known to be positive.
func (ev *evaluator) provedHere(r symbolic.Relation) bool {
	rels := []symbolic.Relation{
		symbolic.Rel(symbolic.Sym(Size), ">=", symbolic.Int(1)),
		symbolic.Rel(symbolic.Sym(Rank), ">=", symbolic.Int(0)),
		symbolic.Rel(symbolic.Sym(Rank), "<=", symbolic.Sym(Size).Sub(symbolic.Int(1))),
	}
	rels = append(rels, ev.res.Assume...)
	rels = append(rels, ev.annotAssume...)
	// And the domain's own relations: an enclosing loop's bounds on its
	// variable (DO i = 2*k, n, k inside DO k = 2, n).
	var visit func(f counting.Formula)
	visit = func(f counting.Formula) {
		switch g := f.(type) {
		case counting.Rel:
			rels = append(rels, g.R)
		case counting.And:
			for _, x := range g {
				visit(x)
			}
		}
	}
	for _, f := range ev.cur.conds {
		visit(f)
	}
	return symbolic.NewAssumptions(rels...).Prove(r) == symbolic.True
}
