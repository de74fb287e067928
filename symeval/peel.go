package symeval

import (
	"fmt"
	"os"
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Peeling the first trip. A run-once flag (`logical, save :: first =
// .true.` cleared by the set-up it guards, a module's `initialised`)
// set in a routine a long Fortran DO calls makes the first trip differ from the
// others: the loop cannot be run trip by trip (too many trips, or too much
// work in each), and the symbolic evaluation of its body, once for all
// trips, sees the flag change and knows neither arm. When every store the
// body makes to the flag writes one constant, other than the flag's value
// before the loop, the first trip is run by itself; where it leaves the
// flag at that constant on every path, the flag holds it for the other
// trips (a store of the value a variable holds changes nothing), and those
// are evaluated symbolically from the second on.

// peelFirst runs the first trip of the DO loop l where a flag of the body
// (peelFlag) changes after it, and reports the DO variable's value for the
// second trip, from which the caller evaluates the others. It reports
// false, with the state as it found it, where l has no such flag, its trip
// count is not a number of at least 2, or the run fails.
func (ev *evaluator) peelFirst(l *apt.Loop, o *Occ, pos apt.Pos) (Value, bool) {
	// A Fortran DO: its trip count is fixed where it starts (a C loop
	// tests its bound at every trip).
	if l.Var == "" || l.Iterations != nil || l.While != nil || ev.prog.Notation() != apt.Fortran || ev.lean() {
		return Value{}, false
	}
	for _, e := range []apt.Expr{l.Lower, l.Upper, l.Step} {
		if callsFunction(e) {
			return Value{}, false // evaluating it here would count the call twice
		}
	}
	if !ev.storesFlag(l) {
		return Value{}, false
	}
	// The bounds are evaluated again after the first trip: what they
	// read must be what it was when the loop started.
	mod := ev.modified(l.Body)
	for _, e := range []apt.Expr{l.Lower, l.Upper, l.Step} {
		if e == nil {
			continue
		}
		for _, k := range ev.readKeys(e) {
			if k == "#call" || slices.Contains(mod, k) {
				return Value{}, false
			}
		}
	}
	key, ok := ev.peelFlag(l, mod)
	if !ok {
		return Value{}, false
	}
	lo, ok1 := ev.closedInt(ev.value(l.Lower), pos).Single()
	hi, ok2 := ev.closedInt(ev.value(l.Upper), pos).Single()
	step := int64(1)
	if l.Step != nil {
		s, ok := ev.closedInt(ev.value(l.Step), pos).Single()
		c, isInt := s.Int64()
		if !ok || !isInt || c == 0 {
			return Value{}, false
		}
		step = c
	}
	a, c1 := lo.Int64()
	b, c2 := hi.Int64()
	if !ok1 || !ok2 || !c1 || !c2 || (b-a+step)/step < 2 {
		return Value{}, false
	}
	if !ev.runOK(l, 1) {
		return Value{}, false
	}
	if debugRuns {
		fmt.Fprintf(os.Stderr, "peel %s: the first trip changes %s\n", pos, key)
	}
	// The trip must be decided: one that meets values of the data (an
	// element the evaluation does not follow, a branch on data) is left
	// to the symbolic evaluation, which asks for them once for all trips.
	snap := ev.snapshot(o)
	if !ev.runCounted(l, o, Known(lo), symbolic.Int(step), 1) ||
		ev.paramsSince(snap.params) > 0 || ev.freqUses > snap.freqUses {
		snap.restore(ev, o)
		return Value{}, false
	}
	return Known(symbolic.Int(a + step)), true
}

// peelFlag returns the storage key of a scalar the body of l (which
// modifies mod) changes only by storing one integer constant (0 or 1: a
// logical's .FALSE. or .TRUE., an integer flag), which is not the value it
// holds before the loop.
func (ev *evaluator) peelFlag(l *apt.Loop, mod []string) (string, bool) {
	varied := ev.variedStores(l.Body)
	for _, k := range mod {
		if varied[k] {
			continue
		}
		v := ev.held(k)
		cur, ok := v.Single()
		if !ok || v.arr != nil {
			continue
		}
		n, isInt := cur.Int64()
		if !isInt || n != 0 && n != 1 {
			continue
		}
		if ev.storesOnly(l.Body, k, symbolic.Int(1-n)) {
			return k, true
		}
	}
	return "", false
}

// held is the value at storage key k where the loop starts: the state's,
// or for static storage not assigned yet its initial value.
func (ev *evaluator) held(k string) Value {
	if v, ok := ev.env.lookup(k); ok {
		return v
	}
	if v, ok := ev.initialValue(k); ok {
		return v
	}
	if v, ok := ev.zeroOf(k); ok {
		return v
	}
	return Value{}
}

// callsFunction reports whether e calls a function of the program.
func callsFunction(e apt.Expr) bool {
	found := false
	if e == nil {
		return false
	}
	apt.InspectExpr(e, func(x apt.Expr) bool {
		if f, ok := x.(*apt.FuncCall); ok && !f.Intrinsic {
			found = true
		}
		return !found
	})
	return found
}

// storesFlag reports (memoized) whether the body of l, or a routine it
// calls, stores the constant 0 or 1 to a variable: a loop without such a
// store has no flag to peel for, whatever the state.
func (ev *evaluator) storesFlag(l *apt.Loop) bool {
	if v, ok := ev.flagLoops[l]; ok {
		return v
	}
	if ev.flagLoops == nil {
		ev.flagLoops = map[*apt.Loop]bool{}
	}
	seen := map[*apt.Routine]bool{}
	var in func(nodes []apt.Node) bool
	in = func(nodes []apt.Node) bool {
		found := false
		for _, n := range nodes {
			apt.Inspect(n, func(m apt.Node) bool {
				switch x := m.(type) {
				case *apt.Block:
					for _, st := range x.Stmts {
						if c, ok := constInt(st.Value); ok && (c == 0 || c == 1) {
							found = true
						}
						apt.InspectExpr(st.Value, func(e apt.Expr) bool {
							if f, ok := e.(*apt.FuncCall); ok && !f.Intrinsic {
								for _, r := range ev.callees(f.Name) {
									if !seen[r] {
										seen[r] = true
										found = found || in(r.Body)
									}
								}
							}
							return !found
						})
					}
				case *apt.Call:
					for _, r := range ev.callees(x.Callee) {
						if !seen[r] {
							seen[r] = true
							found = found || in(r.Body)
						}
					}
				}
				return !found
			})
			if found {
				break
			}
		}
		return found
	}
	v := in(l.Body)
	ev.flagLoops[l] = v
	return v
}
