package cost

import (
	"slices"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// Tests of remainders in a domain (symbolic/residue.go): a code made of
// parities, 10*mod(c, 2) + 2*mod(x, 2) + mod(y, 2), tested by an else-if
// ladder leaves each case of the ladder a conjunction of a dozen tests of
// the same few remainders. The counting engine splits each test that must
// fail (code /= 9) in two, below and above, and the cells multiply into
// the thousands; the remainders themselves take a handful of values. So a case whose tests of remainders contradict each other is
// dropped, and one that several such tests constrain is counted once for
// each combination of remainders they allow, with the tests decided.

// minResidueTests is how many tests of remainders a case needs before it
// is split by their combinations (fewer cost the engine little), and
// maxResidueCases how many combinations the split may make.
const (
	minResidueTests = 2
	maxResidueCases = 32
)

// residueClauses reads the items of a conjunction as clauses of literals
// for symbolic.Assumptions.ResidueCases: of[j] lists the clauses item j
// became (nil when it is not made of relations alone).
func residueClauses(items counting.And) (clauses [][]symbolic.Literal, of [][]int) {
	var lit func(f counting.Formula, neg bool) ([]symbolic.Literal, bool)
	lit = func(f counting.Formula, neg bool) ([]symbolic.Literal, bool) {
		switch g := f.(type) {
		case counting.Rel:
			return []symbolic.Literal{{R: g.R, Neg: neg}}, true
		case counting.Not:
			return lit(g.F, !neg)
		case counting.Or:
			if neg {
				return nil, false
			}
			var out []symbolic.Literal
			for _, x := range g {
				l, ok := lit(x, false)
				if !ok {
					return nil, false
				}
				out = append(out, l...)
			}
			return out, len(out) > 0
		}
		return nil, false
	}
	of = make([][]int, len(items))
	for j, it := range items {
		if n, ok := it.(counting.Not); ok {
			if o, ok := n.F.(counting.Or); ok {
				// not (a or b) is not a and not b.
				var ks []int
				for _, x := range o {
					l, ok := lit(x, true)
					if !ok || len(l) != 1 {
						ks = nil
						break
					}
					ks = append(ks, len(clauses))
					clauses = append(clauses, l)
				}
				of[j] = ks
				continue
			}
		}
		if l, ok := lit(it, false); ok {
			of[j] = []int{len(clauses)}
			clauses = append(clauses, l)
		}
	}
	return clauses, of
}

// residueCases returns f, a case simplifyDomain made, as the cases of the
// combinations of remainders its tests of remainders allow
// (symbolic.Assumptions.ResidueCases): none when they contradict each
// other, f itself when it has fewer than minResidueTests of them or they
// allow more than maxResidueCases combinations. Each case holds f's other items and the relations that fix
// its remainders; the cases partition f's points.
func (an *analysis) residueCases(f counting.Formula) []counting.Formula {
	items, ok := f.(counting.And)
	if !ok {
		return []counting.Formula{f}
	}
	clauses, of := residueClauses(items)
	if !slices.ContainsFunc(clauses, func(c []symbolic.Literal) bool {
		return slices.ContainsFunc(c, func(l symbolic.Literal) bool { return l.R.E.HasFloor() })
	}) {
		return []counting.Formula{f}
	}
	// The signs and ranges of the symbols (a truncation's remainder takes
	// its symbol's sign) from the assumptions and the case's own bounds.
	local := an.assume.Clone()
	local.Assume(counting.TopRels(f)...)
	cases, read, tests, ok := local.ResidueCases(clauses, maxResidueCases)
	switch {
	case ok && len(cases) == 0:
		return nil
	case !ok || tests < minResidueTests:
		return []counting.Formula{f}
	}
	var rest counting.And
	for j, it := range items {
		if len(of[j]) > 0 && !slices.ContainsFunc(of[j], func(k int) bool { return !read[k] }) {
			continue // decided by every combination
		}
		rest = append(rest, it)
	}
	out := make([]counting.Formula, 0, len(cases))
	for _, c := range cases {
		alt := slices.Clone(rest)
		for _, r := range c {
			alt = append(alt, counting.Rel{R: r})
		}
		out = append(out, alt)
	}
	return out
}
