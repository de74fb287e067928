package symeval

import (
	"fmt"
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
// from GO TO. It returns -1 when there is none. j is i itself for a
// labelled block IF whose one arm ends by going back to it, the FORTRAN 77
// while loop written `10 if (c) then ... goto 10 end if`: the IF is the
// loop's head and its test at once.
func backJump(nodes []apt.Node, i int, label string) int {
	for j := len(nodes) - 1; j >= i; j-- {
		if j == i {
			if condJumpTo(nodes[j], label) != nil {
				return j
			}
			break
		}
		if g, ok := nodes[j].(*apt.Goto); ok && g.Kind == apt.GotoPlain && len(g.Targets) == 1 && g.Targets[0] == label {
			return j
		}
		if condJumpTo(nodes[j], label) != nil {
			return j
		}
	}
	return -1
}

// condJumpTo returns the branch of n when n is `if (c) goto label`, or a
// block IF with no other arm whose statements end with that GO TO: the test
// at the bottom of a loop built from GO TO, the FORTRAN 77 do-while.
func condJumpTo(n apt.Node, label string) *apt.Branch {
	f, ok := n.(*apt.If)
	if !ok || len(f.Branches) != 1 || f.Branches[0].Cond == nil || len(f.Branches[0].Body) == 0 {
		return nil
	}
	body := f.Branches[0].Body
	g, ok := body[len(body)-1].(*apt.Goto)
	if !ok || g.Kind != apt.GotoPlain || len(g.Targets) != 1 || g.Targets[0] != label {
		return nil
	}
	return f.Branches[0]
}

// gotoHead is a loop built from GO TO being evaluated: a GO TO its label
// from inside it, with no DO loop of its body in between, starts its next
// run (a cycle).
type gotoHead struct {
	label string
	depth int // the frame's DO loops around the GO TO loop
	// next, in a run pass by pass (runGotoLoop), is where the paths going
	// back wait for the next pass: a CYCLE of a DO around ends the path.
	next string
}

// atGotoHead reports whether label heads the innermost loop built from GO
// TO being evaluated, with no DO loop in between: a GO TO to it starts the
// loop's next run, and the label met in sequence is no inner loop's head.
func (ev *evaluator) atGotoHead(label string) bool {
	return ev.gotoHeadOf(label) != nil
}

func (ev *evaluator) gotoHeadOf(label string) *gotoHead {
	fr := ev.frame()
	gh := fr.gotoHeads
	if len(gh) > 0 && gh[len(gh)-1].label == label && gh[len(gh)-1].depth == len(fr.loops) {
		return &gh[len(gh)-1]
	}
	return nil
}

// gotoLoopState describes a loop built from GO TO while its body is walked:
// k counts the times its first statement runs, T is the total.
type gotoLoopState struct {
	k, trips symbolic.Expr
	// last, where set, is the condition of the last trip in place of
	// k == trips: a trip count of one value per rank class.
	last counting.Formula
	used bool
	// test is the condition of the test at the bottom, as evaluated on
	// run k (nil when it could not be); conjs its .AND. operands.
	test  counting.Formula
	conjs []testConjunct
	// inside are the labels of the loop's body: a jump to one is no exit.
	inside map[string]bool
}

// gotoLoop evaluates seg, a loop built from a label and a GO TO back to it
// (the FORTRAN 77 while loop: `10 if (c) goto 20 ... goto 10`). Its trip
// count T, the number of times the labelled statement runs, is a parameter;
// an IF at the top of the loop that jumps out is taken on the last of those
// runs only, so the statements after it run T-1 times. Values the loop
// changes are unknown after it.
func (ev *evaluator) gotoLoop(seg []apt.Node, parent *Occ, label string) {
	ev.loopDepth++
	defer func() { ev.loopDepth-- }()
	// A run over its budget for every rank at once is no cheaper rank by
	// rank (runWhile).
	if ev.runGotoLoop(seg, parent) ||
		!ev.overBudget && !ev.onData && ev.byRank(nil, seg, seg[0].Base().Span.Start(), parent, func() bool { return ev.runGotoLoop(seg, parent) }) {
		return
	}
	pr := ev.rankProbe(nil, seg, parent, ev.modified(seg), func() bool { return ev.runGotoLoop(seg, parent) },
		func() int64 { return ev.lastTrips })
	// The ranks' runs left these values: they hold once the loop is
	// evaluated.
	defer ev.applyProbe(pr)
	if pr == nil && parent != nil && ev.countedGoto(seg, parent, label) {
		return
	}
	ev.walkGotoLoop(seg, parent, label, pr, nil, nil)
}

// countedGoto evaluates a loop built from GO TO whose test, at the bottom
// or at the head, is on the loop's counters with the trip count that
// test gives, and reports whether it did. The count is decided on the
// counters alone where it can be (presolveGoto, presolveGotoTop); failing
// that, a bottom test is found in terms of the run by walking the loop
// once, then the loop is walked again with the count it gives.
func (ev *evaluator) countedGoto(seg []apt.Node, parent *Occ, label string) bool {
	bottom := condJumpTo(seg[len(seg)-1], label) != nil
	if !bottom && ev.headExit(seg, label) == nil {
		return false
	}
	counters := ev.gotoCounters(seg)
	if len(counters) == 0 {
		return false
	}
	presolve := ev.presolveGotoTop
	if bottom {
		presolve = ev.presolveGoto
	}
	snap := ev.snapshot(parent)
	trips, ok := presolve(seg, label, counters)
	snap.restore(ev, parent)
	if ok {
		ev.walkGotoLoop(seg, parent, label, nil, counters, &trips)
		return true
	}
	if !bottom {
		return false
	}
	snap = ev.snapshot(parent)
	if trips, data, ok := ev.walkGotoLoop(seg, parent, label, nil, counters, nil); ok {
		snap.restore(ev, parent)
		ev.walkGotoLoop(seg, parent, label, nil, counters, &trips)
		ev.assumeDataNotExiting(seg[len(seg)-1], label, data)
	}
	return true
}

// walkGotoLoop evaluates a loop built from GO TO symbolically, its body once
// with the run k as a domain variable from 1 to the trip count: fixed where
// given, else a parameter. Its counters (gotoCounters) hold their values on
// run k. Without a fixed count, it returns the count the test at the bottom
// gives when that is a condition on the counters alone (solveTrips), or
// when its .AND. operands on them do, with the operands on data taken as
// holding (counterBound, returned).
func (ev *evaluator) walkGotoLoop(seg []apt.Node, parent *Occ, label string, pr *rankProbeResult, counters []gotoCounter, fixed *int64) (int64, []apt.Expr, bool) {
	probed := pr != nil
	first := seg[0].Base()
	pos := first.Span.Start()
	tag := seg[len(seg)-1] // the GO TO back: a node no DO loop's parameter is keyed by
	var p *Param
	var trips symbolic.Expr
	if fixed != nil {
		trips = symbolic.Int(*fixed)
	} else {
		p, trips = ev.gotoTripParam(seg, tag, pos, label, pr)
	}
	kname := ev.loopVarName("k")
	k := symbolic.Sym(kname)
	saved := ev.cur
	body := saved.clone()
	if probed {
		// One value of the trip count stands for every rank's: the
		// occurrences of the loop's statements are approximate.
		kids := len(parent.Children)
		defer func() {
			for _, c := range parent.Children[kids:] {
				markInexact(c, byRankNote(p))
			}
		}()
	}
	body.pending = nil
	body.vars = append(body.vars, kname)
	body.conds = append(body.conds,
		counting.Rel{R: symbolic.Rel(k, ">=", symbolic.Int(1))},
		counting.Rel{R: symbolic.Rel(k, "<=", trips)})
	before := map[string]Value{}
	for _, key := range ev.modified(seg) {
		before[key] = ev.env.get(key)
		ev.env.set(key, ev.changedBy(key, "the value of %s as the loop at "+pos.String()+" changes it", true))
	}
	for _, c := range counters {
		// Run k starts with the counter stepped k-1 times.
		ev.env.set(c.key, Known(c.start.Add(c.step.Mul(k.Sub(symbolic.Int(1))))))
	}
	ev.cur = body
	st := &gotoLoopState{k: k, trips: trips, inside: labelsIn(seg)}
	last := seg[len(seg)-1]
	bottom := condJumpTo(last, label) != nil
	// The loop's test is its first statement after the labelled CONTINUE
	// the loop may start with (`10 continue; if (c) goto 20`).
	test := 0
	for test < len(seg)-1 {
		if _, isCont := seg[test].(*apt.Continue); !isCont {
			break
		}
		test++
	}
	fr := ev.frame()
	fr.gotoHeads = append(fr.gotoHeads, gotoHead{label: label, depth: len(fr.loops)})
	// The body is a statement list: a jump forward within it waits at its
	// label, where the paths rejoin, and an inner loop built from GO TO is
	// one. A path that goes back to the head has ended its run.
	ev.walkSeq(seg[:len(seg)-1], parent, func(idx int, n apt.Node) {
		if _, isIf := n.(*apt.If); isIf && idx == test && !bottom {
			ev.exitLoop = st
		}
		ev.node(n, parent)
		ev.exitLoop = nil
	})
	if bottom && !ev.cur.dead {
		// The test at the bottom goes back on every run but the last.
		ev.backLoop = st
		ev.node(last, parent)
		ev.backLoop = nil
		ev.cur.dead, ev.cur.cycled = false, false
	}
	fr.gotoHeads = fr.gotoHeads[:len(fr.gotoHeads)-1]
	if !ev.cur.dead && !bottom {
		ev.newOcc(last, parent) // the GO TO back
	}
	if !st.used && !bottom {
		ev.diag(pos, apt.Warning, "the loop formed by GO TO "+label+" has no exit at its first statement: its counts are not exact")
		saved.inexact = "follows a loop built from GO TO the evaluation cannot bound"
	}
	if len(ev.cur.pending) > 1 {
		ev.diag(pos, apt.Warning, "the loop formed by GO TO "+label+" has several exits: counts after it are not exact")
		saved.inexact = "follows a loop built from GO TO with several exits"
	}
	// The exits rejoin after the loop, where the state is the one before it
	// with the loop's values unknown.
	exits := len(ev.cur.pending)
	ev.cur = saved
	for _, key := range ev.modified(seg) {
		v := ev.changedBy(key, "the value of %s after the loop at "+pos.String(), false)
		// A counter stepped at most once a run lies between its start
		// and its start plus the runs times its steps.
		if x0, had := before[key]; had && v.unk != nil {
			if lo, hi, ok := ev.counterRange(&apt.Loop{Body: seg}, key, x0, Known(trips)); ok {
				ev.setRange(v.unk, lo, hi)
			}
		}
		ev.env.set(key, v)
	}
	if fixed != nil && bottom && exits == 0 {
		// The only way out is the test at the bottom, after every run's
		// step: each counter has stepped once a run.
		for _, c := range counters {
			ev.env.set(c.key, Known(c.start.Add(c.step.Mul(trips))))
		}
	}
	if fixed != nil || len(counters) == 0 || !bottom || probed || exits > 0 {
		return 0, nil, false
	}
	if n, ok := solveTrips(st.test, kname); ok {
		return n, nil, true
	}
	return counterBound(st.conjs, kname)
}

// gotoTripParam is the trip-count parameter of a loop built from GO TO
// (tag its GO TO back): one per loop, whatever the context it is
// evaluated in (a run around it walks it once per iteration), as for a DO
// loop's trip count; a loop whose trip count the ranks' runs decide has its
// own.
func (ev *evaluator) gotoTripParam(seg []apt.Node, tag apt.Node, pos apt.Pos, label string, pr *rankProbeResult) (*Param, symbolic.Expr) {
	probed := pr != nil
	p, reused := ev.tripParams[tag]
	reused = reused && !probed
	if !reused {
		p = ev.newParam("trips_"+routineTag(ev.frame().routine)+"_"+itoa(pos.Line), FromTripCount, pos,
			"how many times the loop formed by GO TO "+label+" at "+pos.String()+" runs its first statement", false)
		ev.res.Assume = append(ev.res.Assume, symbolic.Rel(p.expr(), ">=", symbolic.Int(1)))
	}
	if probed {
		setTripRange(p, pr.lo, pr.hi)
	} else if !reused {
		if lo, ok := ev.leastTrips(seg); ok {
			// Known from below only: the analysis takes the least value
			// and says so, and asks for it where more runs would matter.
			p.Lo, p.Default = &lo, &lo
			p.What += fmt.Sprintf(" (at least %s: its exit waits for a counter that grows by steps)", lo)
		} else {
			// Its first statement runs once whenever the loop is
			// reached: the least, the default where the data decides
			// more (a point marks the counts resting on it).
			one := symbolic.Int(1)
			p.Lo, p.Default = &one, &one
			p.What += " (at least 1)"
		}
		ev.tripParams[tag] = p
	}
	return p, p.expr()
}

// leastTrips bounds from below the runs of a loop built from GO TO whose
// test is `if (v >= b) goto out` (or >) with v changed in the loop only by
// v = v + c, c > 0, at most once a run, and b unchanged: v needs at least
// ceil((b - v0)/c) increments to pass the test, so the head runs at least
// that many times plus one. A generator filling nz distinct slots, which
// retries on a collision, is such a loop.
func (ev *evaluator) leastTrips(seg []apt.Node) (symbolic.Expr, bool) {
	test := 0
	for test < len(seg)-1 {
		if _, isCont := seg[test].(*apt.Continue); !isCont {
			break
		}
		test++
	}
	ifn, ok := seg[test].(*apt.If)
	if !ok || len(ifn.Branches) != 1 || ifn.Branches[0].Cond == nil || len(ifn.Branches[0].Body) != 1 {
		return symbolic.Expr{}, false
	}
	if g, ok := ifn.Branches[0].Body[0].(*apt.Goto); !ok || g.Kind != apt.GotoPlain {
		return symbolic.Expr{}, false
	}
	cond, ok := ifn.Branches[0].Cond.(*apt.Binary)
	if !ok || (cond.Op != apt.OpGe && cond.Op != apt.OpGt) {
		return symbolic.Expr{}, false
	}
	v, ok := cond.X.(*apt.Name)
	if !ok {
		return symbolic.Expr{}, false
	}
	mod := map[string]bool{}
	ev.collectAssigned(seg, mod)
	if ev.exprMentions(cond.Y, mod) {
		return symbolic.Expr{}, false
	}
	// v's steps: positive constants, outside inner loops, at most one
	// per path through a run.
	var step int64
	valid := true
	var visit func(nodes []apt.Node, inLoop bool) int64
	visit = func(nodes []apt.Node, inLoop bool) int64 {
		var most int64
		for _, n := range nodes {
			switch x := n.(type) {
			case *apt.Block:
				for _, st := range x.Stmts {
					if nm, ok := st.Target.(*apt.Name); ok && nm.Name == v.Name {
						c, ok := stepOf(st.Value, v.Name)
						if !ok || c <= 0 || inLoop {
							valid = false
						}
						most += c
					}
				}
			case *apt.If:
				var arm int64
				for _, b := range x.Branches {
					arm = max(arm, visit(b.Body, inLoop))
				}
				most += arm
			case *apt.Loop:
				visit(x.Body, true)
			case *apt.Call:
				for _, a := range x.Args {
					if an, ok := a.(*apt.Name); ok && an.Name == v.Name {
						valid = false
					}
				}
			case *apt.IO:
				if slices.Contains(x.Reads, v.Name) {
					valid = false
				}
			}
		}
		return most
	}
	step = visit(seg, false)
	if !valid || step <= 0 || !mod[ev.key(v.Name)] {
		return symbolic.Expr{}, false
	}
	x0, ok1 := ev.load(v.Name).Single()
	b, ok2 := ev.closedInt(ev.value(cond.Y), cond.Y.At()).Single()
	if !ok1 || !ok2 {
		return symbolic.Expr{}, false
	}
	need := b.Sub(x0)
	if cond.Op == apt.OpGt {
		need = need.Add(symbolic.Int(1))
	}
	c := symbolic.Int(step)
	lo := symbolic.Max(symbolic.FloorDiv(need.Add(c).Sub(symbolic.Int(1)), c), symbolic.Int(0)).Add(symbolic.Int(1))
	return lo, true
}

// labelsIn returns the labels of the statements of nodes.
func labelsIn(nodes []apt.Node) map[string]bool {
	out := map[string]bool{}
	for _, n := range nodes {
		if l := n.Base().Label; l != "" {
			out[l] = true
		}
	}
	return out
}

// rejoin merges the paths that jumped to label with the one that reaches it
// in sequence.
func (ev *evaluator) rejoin(label string) {
	js := ev.cur.pending[label]
	delete(ev.cur.pending, label)
	paths := js
	if !ev.cur.dead {
		paths = append([]jump{{conds: ev.cur.conds, factor: ev.cur.factor, env: ev.env}}, js...)
	} else if !ev.cur.cycled && !ev.cur.stopped && ev.cur.returned == nil {
		// The path in sequence returned: its values are the routine's
		// unless the jumps' paths return too.
		ev.cur.returned = ev.env
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
		p.env.all(func(k string, _ Value) bool {
			keys[k] = true
			return true
		})
	}
	joined := ev.env.empty()
	for k := range keys {
		get := func(m *env) Value {
			if v, ok := m.lookup(k); ok {
				return v
			}
			return Value{unk: &unknown{hint: keyName(k), what: "an unassigned value", undef: true}}
		}
		v := get(paths[len(paths)-1].env)
		for i := len(paths) - 2; i >= 0; i-- {
			v = ev.chooseUndef(guards[i], get(paths[i].env), v)
		}
		joined.set(k, v)
	}
	ev.env = joined
}
