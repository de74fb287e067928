package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// gotoCounter is a counter of a loop built from GO TO: a local INTEGER
// variable the loop changes only by one statement v = v + step, at the top
// level of the loop before any jump, so that it runs once on every run of
// the loop. On run k (from 1) v holds start + (k-1)*step before that
// statement and start + k*step after it.
type gotoCounter struct {
	key         string
	start, step symbolic.Expr
}

// gotoCounters returns the counters of the loop seg whose values before it
// are known.
func (ev *evaluator) gotoCounters(seg []apt.Node) []gotoCounter {
	// Each scalar's assignments anywhere in the loop, and the names passed
	// to calls (a callee may change them).
	assigned := map[string]int{}
	passed := map[string]bool{}
	for _, n := range seg {
		apt.Inspect(n, func(y apt.Node) bool {
			switch x := y.(type) {
			case *apt.Block:
				for _, s := range x.Stmts {
					if nm, ok := s.Target.(*apt.Name); ok {
						assigned[nm.Name]++
					}
					apt.InspectExpr(s.Value, func(e apt.Expr) bool {
						if f, ok := e.(*apt.FuncCall); ok && !f.Intrinsic {
							for _, a := range f.Args {
								if an, ok := a.(*apt.Name); ok {
									passed[an.Name] = true
								}
							}
						}
						return true
					})
				}
			case *apt.Call:
				for _, a := range x.Args {
					if an, ok := a.(*apt.Name); ok {
						passed[an.Name] = true
					}
				}
			case *apt.IO:
				for _, name := range x.Reads {
					assigned[name] += 2 // read: not a counter
				}
				for _, c := range x.Control {
					// iostat=, size=: set by the statement.
					apt.InspectExpr(c, func(e apt.Expr) bool {
						if an, ok := e.(*apt.Name); ok {
							assigned[an.Name] += 2
						}
						return true
					})
				}
			}
			return true
		})
	}
	var out []gotoCounter
	for _, n := range seg[:len(seg)-1] {
		if jumps(n) {
			break // statements after a jump may be skipped on a run
		}
		b, ok := n.(*apt.Block)
		if !ok {
			continue
		}
		for _, s := range b.Stmts {
			nm, ok := s.Target.(*apt.Name)
			if !ok || s.Kind != apt.StmtAssign || nm.Array || nm.Type.Base != apt.TypeInteger || assigned[nm.Name] != 1 || passed[nm.Name] {
				continue
			}
			d := ev.prog.Resolve(ev.frame().routine, nm.Name)
			if d == nil || d.InCommon || d.Pointer || d.Target || ev.paramName(nm.Name) != "" {
				continue // storage another routine may change
			}
			step, ok := stepOf(s.Value, nm.Name)
			if !ok || step == 0 {
				continue
			}
			key := ev.key(nm.Name)
			if !ev.frameLocal(key) {
				// A dummy bound to a COMMON or module variable: a routine
				// the loop calls may change it without an argument.
				continue
			}
			start, ok := ev.env.get(key).Single()
			if !ok {
				continue
			}
			out = append(out, gotoCounter{key: key, start: start, step: symbolic.Int(step)})
		}
	}
	return out
}

// frameLocal reports whether the storage at key is a local variable of a
// routine on the call stack (a dummy argument's is its caller's): no
// routine reaches it but through an argument.
func (ev *evaluator) frameLocal(key string) bool {
	for _, fr := range ev.frames {
		if name, ok := strings.CutPrefix(key, fr.id+"."); ok && !strings.ContainsAny(name, ".%#") {
			d := ev.prog.Resolve(fr.routine, name)
			return d != nil && !d.InCommon && !d.Save && d.Init == nil
		}
	}
	return false
}

// jumps reports whether a statement of a loop's body may jump (a GO TO, a
// RETURN, a STOP, an IF holding one): the statements after it may not run.
func jumps(n apt.Node) bool {
	found := false
	apt.Inspect(n, func(y apt.Node) bool {
		switch y.(type) {
		case *apt.Goto, *apt.Return, *apt.Stop:
			found = true
		}
		return !found
	})
	return found
}

// solveTrips returns the runs of a loop built from GO TO whose test at the
// bottom goes back while test holds, test a condition on the run number k
// alone (its counters' values): the first run at which it fails. It fails
// when the test mentions anything else, or holds past maxRunTrips runs.
func solveTrips(test counting.Formula, k string) (int64, bool) {
	if test == nil {
		return 0, false
	}
	for run := int64(1); run <= maxRunTrips; run++ {
		f, err := substFormula(test, map[string]symbolic.Expr{k: symbolic.Int(run)})
		if err != nil {
			return 0, false
		}
		t, ok := decide(f)
		if !ok {
			return 0, false
		}
		if !t {
			return run, true
		}
	}
	return 0, false
}

// presolveGoto decides the test at the bottom of a loop built from GO TO
// without walking its body: every value the loop changes unknown, its
// counters at their values after run k's step. Three-valued logic decides
// the test only where it holds whatever the unknown values are, so a count
// found here is the one the walk would find; one not found is left to the
// walk (a flag the body sets, a value it computes). A test calling a user
// function is left to the walk too. The caller restores the state.
func (ev *evaluator) presolveGoto(seg []apt.Node, label string, counters []gotoCounter) (int64, bool) {
	b := condJumpTo(seg[len(seg)-1], label)
	if b == nil {
		return 0, false
	}
	userCall := false
	apt.InspectExpr(b.Cond, func(e apt.Expr) bool {
		if f, ok := e.(*apt.FuncCall); ok && !f.Intrinsic {
			userCall = true
		}
		return !userCall
	})
	if userCall {
		return 0, false
	}
	pos := seg[0].Base().Span.Start()
	for _, key := range ev.modified(seg) {
		ev.env.set(key, ev.changedBy(key, "the value of %s as the loop at "+pos.String()+" changes it", true))
	}
	kname := ev.loopVarName("k")
	k := symbolic.Sym(kname)
	for _, c := range counters {
		ev.env.set(c.key, Known(c.start.Add(c.step.Mul(k))))
	}
	f, ok := ev.cond(b.Cond)
	if !ok {
		return 0, false
	}
	return solveTrips(f, kname)
}
