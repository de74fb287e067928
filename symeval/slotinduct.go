package symeval

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Pointers a loop moves by a constant each trip, through the routines it
// calls. C++'s push_back in a loop of n trips moves the vector's end
// pointer one element per trip, in emplace_back, behind a test of the
// capacity (this->_M_finish != this->_M_end_of_storage) whose other arm
// reallocates: the recurrences of the body's own statements (x = x + c)
// do not see it, and a walk of all the trips at once, where the pointers
// are unknown, takes both arms; the vector's size after the loop, which
// later loops run over, was lost. Where a run of the first trip moves
// each pointer the body changes (an address slot, address.go) by a
// constant, the pointers are taken to move so on every trip, and the
// guess is checked by induction: one walk of a trip k of the loop's
// domain, each pointer at its value before the loop plus k steps, must
// leave each at k + 1 steps (with the capacity known, the test is decided
// for every k the loop runs: with reserve(n) first, the append in place
// on all of them). What is checked is then the loop's: the pointers'
// values inside it and after it are those closed forms (Value recs).

// slotSteps returns, for a counted loop (a DO, its variable varValue and
// first value lower, or a DO WHILE whose counter recs steps), with the
// iteration number index inside the body's domain body, the pointers of
// mod it moves by a constant each trip (address slots, address.go, and
// components holding heap addresses, heap.go), with the step; nil where
// there is none or the induction fails.
func (ev *evaluator) slotSteps(l *apt.Loop, o *Occ, body *domainState, lower, varValue, index Value, mod []string, recs map[string]Value) map[string]Value {
	if !ev.cPointers() || ev.probing > 0 || nestsLoops(l.Body) || !ev.mayTry() || !index.IsKnown() || l.Var != "" && !varValue.IsKnown() {
		// (Not inside a probe's walk, this one's included: a guess is
		// checked by the walk of its own loop's trip. Nor for a nest:
		// its trips cost two walks of the loops inside, and those loops
		// have their own guesses where they are walked.)
		return nil
	}
	pre := map[string]Value{}
	for _, k := range mod {
		// (A value not known before the loop is none the loop moves by
		// a constant the walks can check.)
		v, ok := ev.env.lookup(k)
		if !ok || !v.IsKnown() || v.arr != nil || !ev.steppable(k, v) {
			continue
		}
		pre[k] = v
	}
	if len(pre) == 0 {
		return nil
	}
	steps := ev.firstTripSteps(l, o, lower, pre)
	// The guesses are checked together (a pointer's test reads the
	// others); those that fail are dropped and the rest checked again.
	for range 2 {
		maps.DeleteFunc(pre, func(k string, _ Value) bool { _, ok := steps[k]; return !ok })
		moves := false
		for _, c := range steps {
			moves = moves || c != 0
		}
		if !moves {
			return nil // (nothing moved: the loop's own analysis stands)
		}
		failed := ev.slotStepsFail(l, o, body, varValue, index, mod, recs, pre, steps)
		if debugRuns {
			fmt.Fprintf(os.Stderr, "slot steps %s: %v, not holding %v\n", l.Span.Start(), steps, failed)
		}
		if failed == nil {
			out := map[string]Value{}
			for k, c := range steps {
				out[k] = Known(symbolic.Int(c))
			}
			return out
		}
		for _, k := range failed {
			delete(steps, k)
		}
	}
	return nil
}

// steppable reports whether the value v at key is one a loop may move by
// a constant through the routines it calls: a pointer's address (its
// slot, address.go), or a component of a structure holding a number (a
// count, a pointer to structures' address: heap.go), not the elements a
// pointer component to numbers holds (its address is in its slot).
func (ev *evaluator) steppable(key string, v Value) bool {
	if strings.HasSuffix(key, addrSuffix) {
		return true
	}
	if !strings.Contains(key, "%") {
		return false
	}
	if _, pointer := ev.env.lookup(key + addrSuffix); pointer {
		return false
	}
	for _, a := range v.Alts {
		if !a.E.IsIntegerValued() {
			return false
		}
	}
	return len(v.Alts) > 0
}

// firstTripSteps walks the loop's first trip at its first value, from
// the state before the loop, and returns how far each value of pre moved,
// for those that moved by one number (on every alternative); nil where
// the trip cannot be walked at a point.
func (ev *evaluator) firstTripSteps(l *apt.Loop, o *Occ, lower Value, pre map[string]Value) map[string]int64 {
	snap, done := ev.trialWalk(o)
	defer done()
	if l.Var != "" {
		lo, ok := lower.Single()
		if !ok {
			return nil
		}
		ev.store(l.Var, Known(lo))
	}
	ev.walkIteration(l, ev.cur, o)
	if ev.cur.dead || len(ev.res.Params) > snap.params || len(ev.cur.conds) > snap.conds {
		return nil
	}
	steps := map[string]int64{}
	for k, v := range pre {
		d, ok := lift2(ev.env.get(k), v, func(a, b symbolic.Expr) (symbolic.Expr, bool) { return a.Sub(b), true })
		if e, single := d.Single(); ok && single {
			if c, ok := e.Int64(); ok {
				steps[k] = c
			}
		}
	}
	return steps
}

// slotStepsFail walks one trip k of the loop's domain with each value of
// pre at its value plus index*step (the body's counters at theirs, recs;
// the other variables it changes unknown, as the walk of all the trips
// has them) and returns those that do not end one step further: none
// (nil) where the guess holds.
func (ev *evaluator) slotStepsFail(l *apt.Loop, o *Occ, body *domainState, varValue, index Value, mod []string, recs map[string]Value, pre map[string]Value, steps map[string]int64) []string {
	all := slices.Sorted(maps.Keys(pre))
	idx, ok := index.Single()
	if !ok {
		return all
	}
	snap, done := ev.trialWalk(o)
	defer done()
	at := func(k string, n symbolic.Expr) (Value, bool) {
		return lift1(pre[k], func(e symbolic.Expr) (symbolic.Expr, bool) {
			return e.Add(n.Mul(symbolic.Int(steps[k]))), true
		})
	}
	for _, k := range mod {
		if _, ok := pre[k]; ok {
			v, ok := at(k, idx)
			if !ok {
				return all
			}
			ev.env.set(k, v)
			continue
		}
		if c, ok := recs[k]; ok {
			if v, ok := liftN([]Value{ev.env.get(k), index, c}, affine); ok {
				ev.env.set(k, v)
				continue
			}
		}
		ev.env.set(k, ev.changedBy(k, "the value of %s as the loop changes it", true))
	}
	if l.Var != "" {
		ev.store(l.Var, varValue)
	}
	ev.armsOnDomain++
	defer func() { ev.armsOnDomain-- }()
	ev.walkIteration(l, body, o)
	if ev.cur.dead || len(ev.res.Params) > snap.params {
		return all
	}
	next := idx.Add(symbolic.Int(1))
	var failed []string
	for _, k := range all {
		want, ok := at(k, next)
		d, ok2 := lift2(ev.env.get(k), want, func(a, b symbolic.Expr) (symbolic.Expr, bool) { return a.Sub(b), true })
		e, single := ev.feasibleHere(d).Single()
		if !ok || !ok2 || !single || !e.IsZero() {
			failed = append(failed, k)
		}
	}
	return failed
}

// feasibleHere is v without the alternatives whose guards the current
// conditions contradict (k == n + 1 in the trips k <= n of a loop: the
// reallocation after the last append, which no trip makes).
func (ev *evaluator) feasibleHere(v Value) Value {
	if len(v.Alts) < 2 {
		return v
	}
	var out []Alt
	for _, a := range v.Alts {
		if a.Guard != nil && ev.contradictsHere(counting.And(append([]counting.Formula{a.Guard}, ev.cur.conds...))) {
			continue
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return v
	}
	if len(out) == 1 {
		out[0].Guard = nil
	}
	v.Alts = out
	return v
}

// contradictsHere reports whether the conjunction f holds for no value of
// its symbols (contradicts), at a point on every rank by itself where the
// rank's value is needed to see it (a trip count and a capacity that
// differ by rank).
func (ev *evaluator) contradictsHere(f counting.And) bool {
	if contradicts(f) {
		return true
	}
	if _, spans, ok := formulaSpans(f); ok && len(spans) == 0 {
		return true
	}
	np, ok := ev.values[Size]
	if _, fixed := ev.values[Rank]; !ok || fixed || np < 1 || np > maxTabulatedP {
		return false
	}
	for r := range np {
		g, err := substFormula(f, map[string]symbolic.Expr{Rank: symbolic.Int(r), Size: symbolic.Int(np)})
		if err != nil {
			return false
		}
		if t, ok := decide(g); ok {
			if t {
				return false
			}
			continue
		}
		if _, spans, ok := formulaSpans(g); ok && len(spans) == 0 {
			continue // no value of its one variable (i == n + 1, i <= n)
		}
		a, ok := g.(counting.And)
		if !ok || !contradicts(a) {
			return false
		}
	}
	return true
}

// trialWalk prepares a walk whose effects are undone (a guess's check):
// the state as it is, and the function that puts it back.
func (ev *evaluator) trialWalk(o *Occ) (*runSnapshot, func()) {
	ev.probing++
	snap := ev.snapshot(o)
	visits, uses, saved := ev.runVisits, ev.freqUses, ev.cur
	return snap, func() {
		ev.cur = saved
		ev.freqUses = uses
		ev.runVisits = visits // (a guess's runs are not the program's)
		snap.restore(ev, o)
		ev.probing--
	}
}
