package symeval

import (
	"slices"

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

// rankAlts rewrites, at a point, alternatives whose guards are conditions
// on the rank alone by the sets of ranks they select: alternatives no rank
// takes are dropped, and those with equal values are one alternative whose
// guard is the smallest of theirs that selects their ranks, or a short
// union of rank ranges. A block size chosen by the process's row and
// column through chains of IFs (first row, last column, the remainder's
// ranks) keeps few small guards instead of conjunctions of every test
// made, whichever is smaller. Alternatives with other symbols in their guards are kept as they
// are.
func (ev *evaluator) rankAlts(alts []Alt) []Alt {
	np, ok := ev.values[Size]
	if !ok || np < 1 || np > maxTabulatedP || len(alts) < 2 {
		return alts
	}
	if _, fixed := ev.values[Rank]; fixed {
		return alts
	}
	sets := make([][]bool, len(alts))
	for i, a := range alts {
		if a.Guard == nil || !onlyRank(a.Guard) {
			return alts
		}
		t, ok := ev.rankSet(a.Guard, np)
		if !ok {
			return alts
		}
		sets[i] = t
	}
	type group struct {
		e     symbolic.Expr
		ranks []bool
		best  counting.Formula
		size  int
	}
	var groups []*group
	for i, a := range alts {
		any := false
		for _, h := range sets[i] {
			any = any || h
		}
		if !any {
			continue // no rank takes it
		}
		var g *group
		for _, x := range groups {
			if symbolic.Equal(x.e, a.E) {
				g = x
				break
			}
		}
		if g == nil {
			g = &group{e: a.E, ranks: make([]bool, np)}
			groups = append(groups, g)
		}
		for r, h := range sets[i] {
			g.ranks[r] = g.ranks[r] || h
		}
	}
	if len(groups) == 1 {
		return []Alt{{E: groups[0].e}}
	}
	out := make([]Alt, 0, len(groups))
	for _, g := range groups {
		// The smallest original guard selecting exactly these ranks.
		for i, a := range alts {
			if slices.Equal(sets[i], g.ranks) {
				if sz := formulaSize(a.Guard); g.best == nil || sz < g.size {
					g.best, g.size = a.Guard, sz
				}
			}
		}
		if rr := rankRanges(g.ranks); g.best == nil || formulaSize(rr) < g.size {
			g.best = rr
		}
		out = append(out, Alt{Guard: g.best, E: g.e})
	}
	return out
}

// rankSet tabulates a condition on the rank alone at ranks 0..np-1.
func (ev *evaluator) rankSet(f counting.Formula, np int64) ([]bool, bool) {
	key := counting.FormulaKey(f)
	if t, ok := ev.rankSets[key]; ok {
		return t, t != nil
	}
	c, err := counting.CompileFormula(f, []string{Rank})
	if err != nil {
		ev.rankSets[key] = nil
		return nil, false
	}
	t := make([]bool, np)
	pt := []int64{0}
	for r := int64(0); r < np; r++ {
		pt[0] = r
		h, err := c.Holds(pt)
		if err != nil {
			ev.rankSets[key] = nil
			return nil, false
		}
		t[r] = h
	}
	ev.rankSets[key] = t
	return t, true
}

// rankRanges is a formula selecting the ranks set in t: a union of ranges
// of consecutive ranks.
func rankRanges(t []bool) counting.Formula {
	r := symbolic.Sym(Rank)
	var parts counting.Or
	for lo := 0; lo < len(t); lo++ {
		if !t[lo] {
			continue
		}
		hi := lo
		for hi+1 < len(t) && t[hi+1] {
			hi++
		}
		if lo == hi {
			parts = append(parts, counting.Rel{R: symbolic.Rel(r, "==", symbolic.Int(int64(lo)))})
		} else {
			parts = append(parts, counting.And{
				counting.Rel{R: symbolic.Rel(r, ">=", symbolic.Int(int64(lo)))},
				counting.Rel{R: symbolic.Rel(r, "<=", symbolic.Int(int64(hi)))}})
		}
		lo = hi
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return parts
}
