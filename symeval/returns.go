package symeval

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
)

// Values at an early RETURN. A RETURN ends its path, and the statements
// after it run only on the other paths; but what the returning path
// assigned (a function's result, its arguments) is what the caller sees
// where that path was taken. ilog2(n) = 0 returned at once for n = 1 and
// computed by a loop otherwise takes, after the call, 0 where n = 1 and
// the loop's value elsewhere; without the returning path the result was
// the loop's value alone, unknown at n = 1.

// returnPath is the state of a path that reached a RETURN.
type returnPath struct {
	conds []counting.Formula // its conditions beyond the routine's entry
	vars  []string           // its domain variables beyond the entry's
	env   *env
	freq  bool // under a branch taken with a frequency: no condition says where
}

// noteReturn records the current path's values at a RETURN of the routine
// of frame fr.
func (ev *evaluator) noteReturn(fr *frame) {
	if fr.entry == nil || ev.cur.dead {
		return
	}
	p := returnPath{env: ev.env.clone(), freq: !ev.cur.factor.Equal(fr.entry.factor)}
	if len(ev.cur.conds) >= len(fr.entry.conds) {
		p.conds = append(p.conds, ev.cur.conds[len(fr.entry.conds):]...)
	}
	if len(ev.cur.vars) >= len(fr.entry.vars) {
		p.vars = append(p.vars, ev.cur.vars[len(fr.entry.vars):]...)
	}
	fr.returns = append(fr.returns, p)
}

// joinReturns sets the routine's values at its end to those of the paths
// that returned early and of the path that ran to the end (live unless
// every path returned), each where its conditions hold. A path whose
// conditions are not a formula over the routine's entry domain (a RETURN
// under a frequency branch, or inside a loop of the routine) gives the
// values it changed as a mix of the alternatives.
func (ev *evaluator) joinReturns(fr *frame, entryEnv *env, endLive bool) {
	if len(fr.returns) == 0 {
		return
	}
	var outs []outcome
	for _, p := range fr.returns {
		var c counting.Formula
		ok := !p.freq && len(p.vars) == 0
		if ok {
			c = and(p.conds...)
			if c == nil {
				c = formulaTrue
			}
		}
		outs = append(outs, outcome{cond: c, analysable: ok, env: p.env})
	}
	if endLive {
		outs = append(outs, outcome{analysable: true, env: ev.env})
	} else {
		// Every path returned: the last is where no other held.
		outs[len(outs)-1].cond = nil
		outs[len(outs)-1].analysable = true
	}
	ev.env = ev.join(entryEnv, outs, true)
}

// pinPassed leaves, on the path that goes on past an error check taken as
// passing, a variable the check compares for inequality equal to what it
// was compared with: past `if (numtasks /= size) stop`, numtasks is size.
// The check is assumed to pass (said in the notes); what it assumes then
// holds for the statements after it, as it does in every run that gets
// there. Only an integer scalar compared with a value the evaluation
// knows is pinned.
func (ev *evaluator) pinPassed(cond apt.Expr) {
	b, ok := cond.(*apt.Binary)
	if !ok || b.Op != apt.OpNe {
		return
	}
	for _, side := range [][2]apt.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		n, ok := side[0].(*apt.Name)
		if !ok || n.Array || n.Type.Base != apt.TypeInteger {
			continue
		}
		if d := ev.prog.Resolve(ev.frame().routine, n.Name); d == nil || d.IsArray() || d.Param != nil {
			continue
		}
		v := ev.value(side[1])
		if _, known := v.Single(); !known {
			continue
		}
		ev.store(n.Name, v)
		return
	}
}
