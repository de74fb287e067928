package cost

import (
	"slices"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// TotalCount returns how many times all ranks together execute n, as a
// closed form in the parameters and P: the count with the rank counted over
// 0..P-1 as one more variable of the domain (SCALA's total work, seed 001
// §4). It is computed on demand, since most reports never need it. For a
// serial program it is the count.
func (r *Report) TotalCount(n *Node) (symbolic.Piecewise, error) {
	if !r.Parallel || r.an == nil {
		return n.Count, nil
	}
	an := r.an
	var total symbolic.Piecewise
	for _, d := range n.doms {
		dd := *d
		if slices.Contains(dd.Vars, Rank) {
			continue
		}
		dd.Vars = append([]string{Rank}, d.Vars...)
		dd.Cond = append(slices.Clone(d.Cond),
			counting.Rel{R: symbolic.Rel(symbolic.Sym(Rank), ">=", symbolic.Int(0))},
			counting.Rel{R: symbolic.Rel(symbolic.Sym(Rank), "<=", symbolic.Sym(Size).Sub(symbolic.Int(1)))})
		pw, err := an.count(&dd, nil, nil)
		if err != nil {
			return symbolic.Piecewise{}, err
		}
		total = total.Add(pw)
	}
	return total.SimplifyWithin(r.Assumptions, simplifyBudget), nil
}
