package symeval

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
)

// A recursive routine is evaluated as the run executes it, one activation
// inside the other, while the values decide where the recursion ends: a
// multigrid V-cycle that recurses while level < nlev, a bisection that
// halves n until it is small. Each activation is an occurrence of its own,
// so its loops count with that activation's values.
const (
	// maxRecursionDepth bounds the activations of one routine on the
	// stack.
	maxRecursionDepth = 64
	// maxRecursiveCalls bounds the recursive activations of a whole
	// evaluation (a binary recursion 20 deep has a million).
	maxRecursiveCalls = 4096
)

// recursionRefused says why a call of r, when r is already active, is not
// evaluated ("" when it is not recursive or may be evaluated). The call
// is followed only where every condition met since r's latest activation
// began was decided by values, or is on the iteration variables of loops
// entered since (a loop over children): a condition on a parameter or the
// rank, or a branch taken with a frequency, would make the depth a
// function of it, which unrolling cannot give.
func (ev *evaluator) recursionRefused(r *apt.Routine) string {
	var last *frame
	depth := 0
	for _, fr := range ev.frames {
		if fr.routine == r {
			depth++
			last = fr
		}
	}
	switch {
	case last == nil:
		return ""
	case depth >= maxRecursionDepth:
		return "deeper than " + strconv.Itoa(maxRecursionDepth) + " activations"
	case ev.recursiveCalls >= maxRecursiveCalls:
		return "more than " + strconv.Itoa(maxRecursiveCalls) + " recursive calls in the evaluation"
	case last.entry == nil:
		return "its depth is not decided"
	case !ev.cur.factor.Equal(last.entry.factor):
		return "under a branch whose frequency depends on the data"
	case len(ev.cur.conds) < len(last.entry.conds) || len(ev.cur.vars) < len(last.entry.vars):
		return "its depth is not decided"
	}
	loopVars := ev.cur.vars[len(last.entry.vars):]
	var on []string
	for _, c := range ev.cur.conds[len(last.entry.conds):] {
		on = formulaSymbolsBut(c, loopVars, on)
	}
	if len(on) > 0 {
		for i, s := range on {
			if ev.paramKeys[s] != "" {
				on[i] = ev.paramKeys[s]
			}
		}
		slices.Sort(on)
		return "its depth depends on " + strings.Join(slices.Compact(on), ", ") + ": give the values with -D"
	}
	ev.recursiveCalls++
	return ""
}

// formulaSymbolsBut appends to dst the symbols of f that are not in vars.
func formulaSymbolsBut(f counting.Formula, vars, dst []string) []string {
	switch g := f.(type) {
	case counting.Rel:
		for _, s := range g.R.E.Symbols() {
			if !slices.Contains(vars, s) {
				dst = append(dst, s)
			}
		}
	case counting.And:
		for _, x := range g {
			dst = formulaSymbolsBut(x, vars, dst)
		}
	case counting.Or:
		for _, x := range g {
			dst = formulaSymbolsBut(x, vars, dst)
		}
	case counting.Not:
		dst = formulaSymbolsBut(g.F, vars, dst)
	}
	return dst
}

// leftOutRecursion records that a recursive call of r is not evaluated
// (the diagnostic at the call says why).
func (ev *evaluator) leftOutRecursion(r *apt.Routine) {
	if ev.recursionLeft == nil {
		ev.recursionLeft = map[*apt.Routine]bool{}
	}
	ev.recursionLeft[r] = true
}

// markLeftOutRecursion marks the counts under o, the outermost activation
// of r just evaluated, approximate when a recursive call of r inside it was
// not evaluated: each of them leaves out that call's activations.
func (ev *evaluator) markLeftOutRecursion(r *apt.Routine, o *Occ) {
	if _, ok := ev.recursionLeft[r]; !ok || o == nil {
		return
	}
	for _, fr := range ev.frames[:len(ev.frames)-1] {
		if fr.routine == r {
			return // not the outermost activation
		}
	}
	delete(ev.recursionLeft, r)
	markInexact(o, "a recursive call of "+r.Name+" is not evaluated: the counts leave out its activations")
}
