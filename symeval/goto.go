package symeval

import (
	"maps"
	"slices"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// labelsAfter returns, for each position of a statement list, the labels of
// the statements after it.
func labelsAfter(nodes []apt.Node) []map[string]bool {
	out := make([]map[string]bool, len(nodes))
	seen := map[string]bool{}
	for i := len(nodes) - 1; i >= 0; i-- {
		out[i] = maps.Clone(seen)
		if l := nodes[i].Base().Label; l != "" {
			seen[l] = true
		}
	}
	return out
}

// forward reports whether label is ahead of the current statement in one of
// the statement lists being walked within the current routine.
func (ev *evaluator) forward(label string) bool {
	for i := len(ev.ahead) - 1; i >= ev.frame().aheadBase; i-- {
		if ev.ahead[i][label] {
			return true
		}
	}
	return false
}

// backJump returns the index of a plain GO TO label at the top level of
// nodes after i: with nodes[i] labelled label, nodes[i..j] is a loop built
// from GO TO. It returns -1 when there is none.
func backJump(nodes []apt.Node, i int, label string) int {
	for j := len(nodes) - 1; j > i; j-- {
		if g, ok := nodes[j].(*apt.Goto); ok && g.Kind == apt.GotoPlain && len(g.Targets) == 1 && g.Targets[0] == label {
			return j
		}
	}
	return -1
}

// gotoLoopState describes a loop built from GO TO while its body is walked:
// k counts the times its first statement runs, T is the total.
type gotoLoopState struct {
	k, trips symbolic.Expr
	used     bool
}

// gotoLoop evaluates seg, a loop built from a label and a GO TO back to it
// (the FORTRAN 77 while loop: `10 if (c) goto 20 ... goto 10`). Its trip
// count T, the number of times the labelled statement runs, is a parameter;
// an IF at the top of the loop that jumps out is taken on the last of those
// runs only, so the statements after it run T-1 times. Values the loop
// changes are unknown after it.
func (ev *evaluator) gotoLoop(seg []apt.Node, parent *Occ, label string) {
	if ev.runGotoLoop(seg, parent) ||
		ev.byRank(nil, seg, seg[0].Base().Span.Start(), parent, func() bool { return ev.runGotoLoop(seg, parent) }) {
		return
	}
	first := seg[0].Base()
	pos := first.Span.Start()
	p := ev.newParam("trips_"+routineTag(ev.frame().routine)+"_"+itoa(pos.Line), FromTripCount, pos,
		"how many times the loop formed by GO TO "+label+" at "+pos.String()+" runs its first statement", false)
	ev.res.Assume = append(ev.res.Assume, symbolic.Rel(p.expr(), ">=", symbolic.Int(1)))
	kname := ev.loopVarName("k")
	k := symbolic.Sym(kname)
	saved := ev.cur
	body := saved.clone()
	body.pending = nil
	body.vars = append(body.vars, kname)
	body.conds = append(body.conds,
		counting.Rel{R: symbolic.Rel(k, ">=", symbolic.Int(1))},
		counting.Rel{R: symbolic.Rel(k, "<=", p.expr())})
	for _, key := range ev.modified(seg) {
		ev.env[key] = ev.changedBy(key, "the value of %s as the loop at "+pos.String()+" changes it", true)
	}
	ev.cur = body
	st := &gotoLoopState{k: k, trips: p.expr()}
	for idx, n := range seg[:len(seg)-1] {
		if ev.cur.dead {
			break
		}
		if _, isIf := n.(*apt.If); isIf && idx == 0 {
			ev.exitLoop = st
		}
		ev.node(n, parent)
		ev.exitLoop = nil
	}
	if !ev.cur.dead {
		ev.newOcc(seg[len(seg)-1], parent) // the GO TO back
	}
	if !st.used {
		ev.diag(pos, apt.Warning, "the loop formed by GO TO "+label+" has no exit at its first statement: its counts are not exact")
		saved.inexact = "follows a loop built from GO TO the evaluation cannot bound"
	}
	if len(ev.cur.pending) > 1 {
		ev.diag(pos, apt.Warning, "the loop formed by GO TO "+label+" has several exits: counts after it are not exact")
		saved.inexact = "follows a loop built from GO TO with several exits"
	}
	// The exits rejoin after the loop, where the state is the one before it
	// with the loop's values unknown.
	ev.cur = saved
	for _, key := range ev.modified(seg) {
		ev.env[key] = ev.changedBy(key, "the value of %s after the loop at "+pos.String(), false)
	}
}

// rejoin merges the paths that jumped to label with the one that reaches it
// in sequence.
func (ev *evaluator) rejoin(label string) {
	js := ev.cur.pending[label]
	delete(ev.cur.pending, label)
	paths := js
	if !ev.cur.dead {
		paths = append([]jump{{conds: ev.cur.conds, factor: ev.cur.factor, env: ev.env}}, js...)
	}
	ev.cur.dead, ev.cur.cycled = false, false
	if len(paths) == 1 {
		ev.cur.conds, ev.cur.factor, ev.env = slices.Clone(paths[0].conds), paths[0].factor, paths[0].env
		return
	}
	// The common prefix of the paths' conditions holds on every path; the
	// rest is a disjunction.
	n := len(paths[0].conds)
	for _, p := range paths[1:] {
		n = min(n, len(p.conds))
		for i := 0; i < n; i++ {
			if !sameFormula(p.conds[i], paths[0].conds[i]) {
				n = i
				break
			}
		}
	}
	conds := slices.Clone(paths[0].conds[:n])
	var alts counting.Or
	guards := make([]counting.Formula, len(paths))
	for i, p := range paths {
		var g counting.Formula = counting.And(slices.Clone(p.conds[n:]))
		if len(p.conds) == n+1 {
			g = p.conds[n]
		}
		guards[i] = g
		alts = append(alts, g)
		if !symbolic.Equal(p.factor, paths[0].factor) {
			ev.cur.inexact = "joins paths with different branch frequencies"
		}
	}
	ev.cur.conds = append(conds, alts)
	ev.cur.factor = paths[0].factor
	// Values: each path's where its guard holds.
	keys := map[string]bool{}
	for _, p := range paths {
		for k := range p.env {
			keys[k] = true
		}
	}
	env := map[string]Value{}
	for k := range keys {
		get := func(m map[string]Value) Value {
			if v, ok := m[k]; ok {
				return v
			}
			return Value{unk: &unknown{hint: keyName(k), what: "an unassigned value", undef: true}}
		}
		v := get(paths[len(paths)-1].env)
		for i := len(paths) - 2; i >= 0; i-- {
			v = chooseUndef(guards[i], get(paths[i].env), v)
		}
		env[k] = v
	}
	ev.env = env
}
