package symeval

import (
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Probe slices. rankProbe runs a loop at every rank for two things only:
// its trip count and the values it leaves. A statement whose effects can
// reach neither need not run: NPB's seed skipping (`power`, `ipow46`)
// halves an integer until it reaches 0 and, on the way, calls a
// floating-point generator twice per trip; at P = 1024 those calls were
// most of a whole program's evaluation. The slice is a backward one over
// the loop's body, by storage key: it starts from what the loop's control
// reads (its header, every branch condition and loop bound inside it, the
// operands of statements that are always run) and adds what each kept
// assignment reads, to a fixed point. What is then skipped:
//
//   - an assignment whose target is outside the slice, and
//   - a CALL,
//
// each only where the routines it calls change nothing but their own
// locals and their arguments (localEffects), and no argument names a
// variable of the slice. The values the probe reports are then those of
// the slice's variables only; the others are left as the loop changes
// them, unknown, as a probe that failed would leave them.

// A probeSlice is what a probe runs of a loop's body.
type probeSlice struct {
	skip map[any]bool    // the *apt.Stmt and *apt.Call nodes not run
	keys map[string]bool // the storage keys the runs compute faithfully
}

// sliceSite is a statement or call of the body with what it reads.
type sliceSite struct {
	node   any      // *apt.Stmt or *apt.Call
	target string   // storage key of an assignment's variable; "" for a call
	reads  []string // storage keys of every variable it mentions
	local  bool     // it calls only routines with local effects (and has no label)
	calls  bool     // it calls a routine, which may change its arguments
}

// probeSliceOf returns the slice of a loop (header and body) in the
// current frame, or nil where the body holds something the slice does not
// follow (then every statement runs).
func (ev *evaluator) probeSliceOf(header []apt.Expr, body []apt.Node) *probeSlice {
	keys := map[string]bool{}
	// The variables an expression reads; the calls it makes are judged
	// apart (callsLocal).
	namesOf := func(e apt.Expr) []string {
		return slices.DeleteFunc(ev.readKeys(e), func(k string) bool { return k == "#call" })
	}
	seed := func(es ...apt.Expr) {
		for _, e := range es {
			for _, k := range namesOf(e) {
				keys[k] = true
			}
		}
	}
	seed(header...)
	var sites []*sliceSite
	ok := true
	for _, n := range body {
		apt.Inspect(n, func(y apt.Node) bool {
			if !ok {
				return false
			}
			switch x := y.(type) {
			case *apt.Block:
				for _, s := range x.Stmts {
					if s.Kind != apt.StmtAssign {
						seed(s.Target, s.Value, s.Mask)
						seed(s.Args...)
						continue
					}
					t := rootName(s.Target)
					if t == "" {
						seed(s.Target, s.Value, s.Mask)
						continue
					}
					st := &sliceSite{node: s, target: ev.key(t), local: ev.callsLocal(s.Value) && ev.callsLocal(s.Mask) && ev.callsLocal(s.Target),
						calls: callsAny(s.Value) || callsAny(s.Mask) || callsAny(s.Target)}
					st.reads = append(append(append(st.reads, namesOf(s.Value)...), namesOf(s.Mask)...), namesOf(s.Target)...)
					if s.Label != "" {
						// A jump may land on it: it always runs.
						st.local = false
					}
					sites = append(sites, st)
				}
			case *apt.Call:
				st := &sliceSite{node: x, calls: true}
				st.local = ev.calleesLocal(x.Callee)
				for _, a := range x.Args {
					st.reads = append(st.reads, namesOf(a)...)
					st.local = st.local && ev.callsLocal(a)
				}
				sites = append(sites, st)
			case *apt.Branch:
				seed(x.Cond)
				for _, c := range x.Cases {
					seed(c.Lo, c.Hi)
				}
			case *apt.If:
				seed(x.Selector)
			case *apt.Goto:
				seed(x.Index) // a computed GO TO's selector
			case *apt.Return:
				seed(x.Value) // an alternate return's index
			case *apt.Loop:
				seed(x.Lower, x.Upper, x.Step, x.While)
				if x.Var != "" {
					keys[ev.key(x.Var)] = true
				}
			case *apt.Comm, *apt.IO, *apt.Stop, *apt.Region, *apt.Unknown:
				// Communication, I/O and stops are outside what the slice
				// follows: the probe runs the whole body.
				ok = false
				return false
			}
			return true
		})
	}
	if !ok {
		return nil
	}
	// To a fixed point: a site is kept where it writes the slice, or may
	// write anything but its arguments, or passes a variable of the slice
	// to a routine (which may change it); what a kept site reads joins the
	// slice.
	kept := make([]bool, len(sites))
	for changed := true; changed; {
		changed = false
		for i, st := range sites {
			if kept[i] {
				continue
			}
			keep := !st.local || st.target != "" && keys[st.target]
			if !keep && st.calls {
				for _, k := range st.reads {
					if keys[k] {
						keep = true
						break
					}
				}
			}
			if !keep {
				continue
			}
			kept[i], changed = true, true
			for _, k := range st.reads {
				keys[k] = true
			}
			if st.target != "" {
				keys[st.target] = true
			}
		}
	}
	sl := &probeSlice{skip: map[any]bool{}, keys: keys}
	for i, st := range sites {
		if !kept[i] {
			sl.skip[st.node] = true
		}
	}
	if len(sl.skip) == 0 {
		return nil
	}
	return sl
}

// callsAny reports whether an expression calls a function that is not
// intrinsic.
func callsAny(e apt.Expr) bool {
	found := false
	apt.InspectExpr(e, func(x apt.Expr) bool {
		if f, ok := x.(*apt.FuncCall); ok && !f.Intrinsic {
			found = true
		}
		return !found
	})
	return found
}

// rootName is the variable an assignment target stores into: the name, the
// array of an element, the object of a component.
func rootName(e apt.Expr) string {
	for {
		switch x := e.(type) {
		case *apt.Name:
			return x.Name
		case *apt.Index:
			if x.Base == nil {
				return x.Name
			}
			e = x.Base
		case *apt.Component:
			e = x.Base
		default:
			return ""
		}
	}
}

// calleesLocal reports whether a CALL of name reaches routines of the
// program only, each with local effects.
func (ev *evaluator) calleesLocal(name string) bool {
	rs := ev.callees(name)
	return len(rs) > 0 && !slices.ContainsFunc(rs, func(r *apt.Routine) bool { return !ev.localEffects(r) })
}

// callsLocal reports whether every routine an expression calls has local
// effects (functions outside the program are not run, so they have none).
func (ev *evaluator) callsLocal(e apt.Expr) bool {
	ok := true
	apt.InspectExpr(e, func(x apt.Expr) bool {
		if f, isCall := x.(*apt.FuncCall); isCall && !f.Intrinsic {
			if r := ev.routineNamed(f.Name); r != nil && !ev.localEffects(r) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// localEffects reports whether running r can change nothing but its own
// locals, its result and its dummy arguments: it assigns no COMMON, module
// or host variable, keeps no state between calls (SAVE, initial values),
// communicates, reads, writes and stops nothing, and calls only routines
// of which the same holds. Internal procedures, which may change their
// host's variables, are not taken to.
func (ev *evaluator) localEffects(r *apt.Routine) bool {
	if v, ok := ev.localFx[r]; ok {
		return v
	}
	if ev.localFx == nil {
		ev.localFx = map[*apt.Routine]bool{}
	}
	ev.localFx[r] = false // a recursive call: not shown local
	ok := ev.prog.Host(r) == nil
	if ok {
		for _, v := range r.Scope.Vars {
			if v.Save || v.Param == nil && len(v.Init) > 0 {
				ok = false
				break
			}
		}
	}
	own := func(name string) bool {
		v := r.Scope.Lookup(name)
		return v != nil && !v.InCommon && !v.Save
	}
	for _, n := range r.Body {
		if !ok {
			break
		}
		apt.Inspect(n, func(y apt.Node) bool {
			if !ok {
				return false
			}
			switch x := y.(type) {
			case *apt.Block:
				for _, s := range x.Stmts {
					if s.Kind != apt.StmtAssign || !own(rootName(s.Target)) ||
						!ev.callsLocal(s.Value) || !ev.callsLocal(s.Mask) || !ev.callsLocal(s.Target) {
						ok = false
						return false
					}
				}
			case *apt.Call:
				ok = ev.calleesLocal(x.Callee)
				for _, a := range x.Args {
					ok = ok && ev.callsLocal(a)
				}
			case *apt.Branch:
				ok = ev.callsLocal(x.Cond)
			case *apt.Loop:
				ok = ev.callsLocal(x.Lower) && ev.callsLocal(x.Upper) && ev.callsLocal(x.Step) && ev.callsLocal(x.While) &&
					(x.Var == "" || own(x.Var))
			case *apt.Comm, *apt.IO, *apt.Stop, *apt.Region, *apt.Unknown:
				ok = false
			}
			return ok
		})
	}
	ev.localFx[r] = ok
	return ok
}
