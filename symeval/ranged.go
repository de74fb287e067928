package symeval

import (
	"github.com/mkvet/mkvet/symbolic"
)

// Values one over the iterations of the loops around them. A loop that is
// not run (its body is beyond the runs' budgets, or tests data a later
// bound reads) is walked once for all its iterations, its variable a
// symbol; a value computed from it in a way that does not change over its
// iterations stays a closed form in it all the same: the planes of a
// block, min(bk, nkt - (kb-1)*bk) - ... where bk divides nkt, are bk in
// every block. Where such a value bounds an inner loop, that loop's trip
// count is no number, and the values the inner loop's iterations hand on
// (carried.go) are not followed. While a loop's body is walked, the values
// its domain variable takes are known where its trip count is a number
// (rangeLoop); a value that is one closed form in those variables, not
// affine, and takes one value at each of their combinations, is that
// number (foldRanged).

// maxRangePoints bounds the combinations of the loop variables foldRanged
// evaluates a value at.
const maxRangePoints = 64

// varRange is the values lo..hi a loop's domain variable takes.
type varRange struct {
	name   string
	lo, hi int64
}

// rangeLoop records, while the body of a loop is walked, the values of its
// domain variable: index, the iteration number (0 first) as a closed form
// x + c in the domain variable x, over trips iterations, a number. The
// function it returns ends the record.
func (ev *evaluator) rangeLoop(index, trips Value) func() {
	none := func() {}
	t, ok := trips.Single()
	n, isNum := t.Int64()
	ix, ok2 := index.Single()
	if !ok || !isNum || !ok2 || n < 1 {
		return none
	}
	x, a, b, ok := ix.LinearOne()
	c, isInt := b.Int64()
	if !ok || !a.IsOne() || !isInt {
		return none
	}
	ev.ranges = append(ev.ranges, varRange{name: x, lo: -c, hi: n - 1 - c})
	k := len(ev.ranges)
	return func() { ev.ranges = ev.ranges[:k-1] }
}

// foldRanged returns v as a number where it is one closed form in the
// variables of the loops walked around it (rangeLoop), not affine, that
// takes one value at every combination of their values, at most
// maxRangePoints of them; otherwise v.
func (ev *evaluator) foldRanged(v Value) Value {
	if len(ev.ranges) == 0 {
		return v
	}
	e, ok := v.Single()
	if !ok || e.Size() <= 2 {
		return v // a number, a variable, or a multiple of one
	}
	if _, a, _, ok := e.LinearOne(); ok && !a.IsZero() {
		return v
	}
	syms := e.Symbols()
	rs := make([]varRange, len(syms))
	points := int64(1)
	for i, s := range syms {
		j := len(ev.ranges) - 1
		for j >= 0 && ev.ranges[j].name != s {
			j--
		}
		if j < 0 {
			return v
		}
		rs[i] = ev.ranges[j]
		if points *= rs[i].hi - rs[i].lo + 1; points > maxRangePoints {
			return v
		}
	}
	env := make(map[string]symbolic.Rat, len(syms))
	at := make([]int64, len(rs))
	for i, r := range rs {
		at[i] = r.lo
	}
	var first symbolic.Rat
	for p := int64(0); p < points; p++ {
		for i, r := range rs {
			env[r.name] = symbolic.RatInt(at[i])
		}
		x, err := e.Eval(env)
		if err != nil {
			return v
		}
		if p == 0 {
			first = x
		} else if !x.Equal(first) {
			return v
		}
		for i := range at {
			if at[i] < rs[i].hi {
				at[i]++
				break
			}
			at[i] = rs[i].lo
		}
	}
	return Value{Alts: []Alt{{E: symbolic.Const(first)}}, deck: v.deck}
}
