package symeval

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symeval/concrete"
)

// Tables of a run on some ranks joined with what the other ranks hold.
// A call the concrete machine runs on the ranks a test selects (if
// (owner[c] == rank) add(c): rank 0 alone on one trip) leaves a table, a
// row per rank, of the arrays it wrote; the ranks the test leaves out
// keep their elements. Where the test is on the rank alone, the join of
// its arms keeps a row per rank, each from the arm the rank takes; before,
// the join dropped the table and the run's elements became unknown.

// rowAt is the row of the array at key (of the store a run made, first)
// that the evaluation holds at rank r: unknown elements where it does not
// know them.
func (ev *evaluator) rowAt(key string, first *concStore, r, np int64) ([]int64, []bool) {
	n := first.s.Len()
	imp := &importer{ev: ev, rank: r, np: np, stores: map[string]*concStore{}}
	if s := imp.array(key, first.decl, n); s != nil && imp.why == "" {
		return s.I, s.Known
	}
	return make([]int64, n), make([]bool, n)
}

// chooseTables joins the states a (where cond holds) and b (elsewhere) of
// an integer array where one of them is a table by rank (only integer
// arrays have tables) and cond is a set of ranks: rank r's row is that of
// the side r takes. False where it does not apply or a side's places are
// not numbers at a rank.
func (ev *evaluator) chooseTables(cond counting.Formula, a, b *arrayState) (*arrayState, bool) {
	np, ok := ev.values[Size]
	if !ok || np < 1 || np > maxConcreteRanks || a.tab == b.tab || a.tab == nil && b.tab == nil || cond == nil {
		return nil, false
	}
	if _, fixed := ev.values[Rank]; fixed {
		return nil, false
	}
	in, ok := ev.rankSet(cond, np)
	if !ok {
		return nil, false
	}
	n := int64(0)
	for _, st := range []*arrayState{a, b} {
		if st.tab != nil {
			for _, row := range st.tab.rows {
				n = max(n, int64(len(row)))
			}
		}
	}
	tab := &elemTable{}
	for r := range np {
		st := b
		if in[r] {
			st = a
		}
		s := concrete.NewStore("", n, false)
		imp := &importer{ev: ev, rank: r, np: np, stores: map[string]*concStore{}}
		if !imp.fill(s, st, n) {
			return nil, false
		}
		tab.rows = append(tab.rows, s.I)
		tab.known = append(tab.known, s.Known)
	}
	tab.share()
	return &arrayState{clobbered: true, tab: tab}, true
}

// breaksOut reports whether a loop's body leaves it early by an EXIT (C's
// break) of its own, not one of a loop inside: a search whose variable,
// after it, is where it stopped.
func breaksOut(body []apt.Node) bool {
	found := false
	for _, n := range body {
		apt.Inspect(n, func(n apt.Node) bool {
			switch x := n.(type) {
			case *apt.Loop:
				return false
			case *apt.Exit:
				found = found || x.Construct == ""
			}
			return !found
		})
	}
	return found
}
