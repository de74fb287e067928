package symeval

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// cond returns the formula of a logical expression; ok is false when the
// condition is not analysable (it compares real values the evaluation does
// not know, or logical variables).
func (ev *evaluator) cond(e apt.Expr) (counting.Formula, bool) {
	switch x := e.(type) {
	case *apt.Const:
		if x.Kind == apt.ConstLogical {
			if strings.Contains(strings.ToUpper(x.Text), "TRUE") {
				return formulaTrue, true
			}
			return formulaFalse, true
		}
	case *apt.Unary:
		if x.Op == apt.OpNot {
			f, ok := ev.cond(x.X)
			return not(f), ok
		}
	case *apt.Binary:
		switch x.Op {
		case apt.OpAnd, apt.OpOr:
			f, ok1 := ev.cond(x.X)
			if l, dl := decideIf(f, ok1); dl && l == (x.Op == apt.OpOr) && ev.prog.Notation() != apt.Fortran {
				// C's && and || do not evaluate the right operand where
				// the left settles the test: y > 0 && a[c - n] reads no
				// a[-n], which would be a value the run does not know.
				return truth(l), true
			}
			g, ok2 := ev.cond(x.Y)
			if !ok1 || !ok2 {
				// One operand not analysable: the other may settle it.
				l, dl := decideIf(f, ok1)
				r, dr := decideIf(g, ok2)
				if t, dec := decideLogical(x.Op, l, dl, r, dr); dec {
					return truth(t), true
				}
				return nil, false
			}
			if x.Op == apt.OpAnd {
				return counting.And{f, g}, true
			}
			return counting.Or{f, g}, true
		case apt.OpEq, apt.OpNe, apt.OpLt, apt.OpLe, apt.OpGt, apt.OpGe:
			if apt.TypeOf(x.X).Base == apt.TypeCharacter || apt.TypeOf(x.Y).Base == apt.TypeCharacter {
				return charRelation(ev.value(x.X), ev.value(x.Y), x.Op)
			}
			if f, ok := ev.sameArray(x); ok {
				return f, true
			}
			if v, ok := ev.nullTest(x); ok {
				return truth(v.Alts[0].E.Equal(symbolic.Int(1))), true
			}
			xv, yv, isPtr := ev.pointerOperands(x)
			if !isPtr {
				xv, yv = ev.value(x.X), ev.value(x.Y) // once: a function in them runs once
			}
			if f, ok := commRelation(xv, yv, x.Op); ok {
				return f, true
			}
			if t, ok := ev.relationAsRun(x, xv, yv); ok {
				return truth(t), true
			}
			return relation(ev.closedInt(xv, x.X.At()), ev.closedInt(yv, x.Y.At()), x.Op)
		case apt.OpEqv, apt.OpNeqv:
			f, ok1 := ev.cond(x.X)
			g, ok2 := ev.cond(x.Y)
			if !ok1 || !ok2 {
				return nil, false
			}
			same := or(and(f, g), and(not(f), not(g)))
			if x.Op == apt.OpNeqv {
				return not(same), true
			}
			return same, true
		}
	}
	// A logical variable, array element, component or function result: its
	// value is 1 where it is true.
	if apt.TypeOf(e).Base == apt.TypeLogical {
		if v := ev.value(e); v.IsKnown() {
			var alts []counting.Formula
			for _, a := range v.Alts {
				alts = append(alts, and(a.Guard, rel(a.E, "==", symbolic.Int(1))))
			}
			f := or(alts...)
			if f == nil {
				f = formulaTrue
			}
			return f, true
		}
	}
	return nil, false
}

// closedInt replaces an unknown integer value by its parameter; unknown real
// values stay unknown (a condition on them is not analysable).
func (ev *evaluator) closedInt(v Value, pos apt.Pos) Value {
	if v.unk != nil && !v.unk.real && !v.unk.varying && v.Fields == nil {
		return Known(ev.paramOf(v.unk, pos))
	}
	return v
}

// relation builds "a op b" over every pair of alternatives, or, where
// they are too many, stretch by stretch over tables of one variable
// (relationPieces).
func relation(a, b Value, op apt.Op) (counting.Formula, bool) {
	if !a.IsKnown() || !b.IsKnown() {
		return nil, false
	}
	if n := len(a.Alts) * len(b.Alts); n > maxAlts && (n > maxRankAlts || !rankGuards(a) || !rankGuards(b)) {
		// Tables of one variable: stretch by stretch. (A value per
		// rank against one alternative, a block's first cell at P =
		// 1024, is a relation per rank class: as many as the table has.)
		return relationPieces(a, b, op)
	}
	var out counting.Or
	for _, x := range a.Alts {
		for _, y := range b.Alts {
			var r counting.Formula
			if op == apt.OpNe {
				r = or(rel(x.E, "<", y.E), rel(x.E, ">", y.E))
			} else {
				r = rel(x.E, relOps[op], y.E)
			}
			out = append(out, simplifyGuard(and(x.Guard, y.Guard, r)))
		}
	}
	f := or(out...)
	if f == nil {
		f = formulaTrue
	}
	return f, true
}

// branchCond returns the condition of one arm of an If; the ELSE arm has a
// nil formula.
func (ev *evaluator) branchCond(n *apt.If, b *apt.Branch) (counting.Formula, bool) {
	if f, ok := ev.armConds[b]; ok {
		return f, true // (realClockExit)
	}
	if b.Cond != nil {
		return ev.cond(b.Cond)
	}
	if len(b.Cases) == 0 {
		return nil, true
	}
	if apt.TypeOf(n.Selector).Base == apt.TypeCharacter {
		return ev.charCases(n, b)
	}
	sel := ev.closedInt(ev.value(n.Selector), n.Span.Start())
	var out counting.Or
	for _, c := range b.Cases {
		if !c.Range {
			f, ok := relation(sel, ev.closedInt(ev.value(c.Lo), n.Span.Start()), apt.OpEq)
			if !ok {
				return nil, false
			}
			out = append(out, f)
			continue
		}
		var parts counting.And
		if c.Lo != nil {
			f, ok := relation(sel, ev.closedInt(ev.value(c.Lo), n.Span.Start()), apt.OpGe)
			if !ok {
				return nil, false
			}
			parts = append(parts, f)
		}
		if c.Hi != nil {
			f, ok := relation(sel, ev.closedInt(ev.value(c.Hi), n.Span.Start()), apt.OpLe)
			if !ok {
				return nil, false
			}
			parts = append(parts, f)
		}
		out = append(out, parts)
	}
	return out, true
}

type outcome struct {
	cond       counting.Formula // nil for ELSE
	at         apt.Pos          // the arm's branch
	analysable bool
	env        *env
	dead       bool
	cycled     bool
}

// ifNode evaluates every arm in its own copy of the state and joins them:
// a variable assigned in some arm holds one alternative per arm afterwards.
func (ev *evaluator) ifNode(n *apt.If, parent *Occ) {
	if n.Kind == apt.IfWhere {
		ev.whereNode(n, parent)
		return
	}
	if n.Kind == apt.IfGoto && !ev.gotoIndexFollowed(n) {
		// A computed GO TO on a value that differs by rank: its paths
		// rejoin at labels in guards the counts outgrow, so it stays a
		// jump not modelled, as before.
		ev.newOcc(n, parent)
		ev.unmodelledGoto(n)
		return
	}
	o := ev.newOcc(n, parent)
	pre := ev.env
	saved := ev.cur
	var prior []counting.Formula
	var outs []outcome
	var states []*domainState
	var passed []apt.Expr // error checks taken as passing (pinPassed)
	hasElse := false
	onDataAbove := false // an arm before was taken with a frequency
	remaining := symbolic.Int(1)
	exit, back := ev.exitLoop, ev.backLoop
	ev.exitLoop, ev.backLoop = nil, nil
	doExit := ev.doExit
	if fr := ev.frame(); doExit != nil && (doExit.used || len(fr.entries) == 0 || fr.entries[len(fr.entries)-1] == nil ||
		len(ev.cur.conds) != len(fr.entries[len(fr.entries)-1].conds)) {
		doExit = nil // not at the top level of the loop's body
	}
	// Every condition is evaluated in the state before the IF; a function
	// it calls runs where the IF runs.
	savedStmt := ev.stmtOcc
	ev.stmtOcc = o
	conds := make([]counting.Formula, len(n.Branches))
	oks := make([]bool, len(n.Branches))
	onDeck := make([]bool, len(n.Branches)) // decided by an input deck's defaults
	for i, b := range n.Branches {
		ev.deckSeen = false
		conds[i], oks[i] = ev.branchCond(n, b)
		onDeck[i] = ev.deckSeen
	}
	if back != nil && len(n.Branches) == 1 && n.Branches[0].Cond != nil {
		// Its operands too: the counter's may bound the runs alone.
		back.conjs = ev.testConjuncts(n.Branches[0].Cond)
	}
	ev.stmtOcc = savedStmt
	pre = ev.env
	order, swapped := ev.armOrder(n, conds, oks, exit != nil || doExit != nil || back != nil)
	if swapped {
		prior = append(prior, conds[0])
	}
	var walked []int // the arms walked, in the order walked
	occAt := map[int]int{}
	// Each arm meets the collectives after the IF's from the same count
	// (collorder.go); past the IF the count is the arms' largest.
	colls, collsEnd := ev.colls, ev.colls
	for _, bi := range order {
		ev.colls = colls
		b := n.Branches[bi]
		c, ok := conds[bi], oks[bi]
		if swapped && bi == 0 {
			prior = nil
		}
		if exit != nil && !exit.used && isExitJump(b, ev, exit.inside) {
			// The exit of a loop built from GO TO: taken on its last run.
			c, ok = counting.Rel{R: symbolic.Rel(exit.k, "==", exit.trips)}, true
			exit.used = true
		}
		if doExit != nil && !doExit.used && b.Cond != nil && isExit(b) {
			// The exit of a DO without control: taken on its last trip;
			// the rest of the body runs on the others.
			c, ok = counting.Rel{R: symbolic.Rel(doExit.k, "==", doExit.trips)}, true
			if doExit.last != nil {
				c = doExit.last
			}
			doExit.used = true
			ev.exitTaken = true
		}
		if back != nil && !back.used && b.Cond != nil {
			// The bottom test of a loop built from GO TO: back to the
			// head on every run but the last.
			if ok {
				back.test = c
			}
			c, ok = counting.Rel{R: symbolic.Rel(back.k, "<=", back.trips.Sub(symbolic.Int(1)))}, true
			back.used = true
		}
		decidedTrue := false
		errorExit := ev.stops(b.Body) || ev.jumpsToStop(b.Body)
		if ok && c != nil {
			// An error check is decided on the ranks of the path that
			// reaches it: a rank that an earlier check stopped does not
			// fail a later one (each cell's size checked in turn). Other
			// tests are decided over all ranks, as running a loop on a
			// path its tests are all decided on costs more than it gives.
			var path []counting.Formula
			if errorExit {
				path = slices.Clone(saved.conds)
				for _, p := range prior {
					path = append(path, not(p))
				}
			}
			if t, dec := ev.decideOnPath(c, path); dec && t && onDeck[bi] && errorExit {
				// The program's defaults for its input deck fail one of
				// its checks: the deck of a run must satisfy them, so the
				// check is taken as passing.
				ev.assumeDeckValid(b)
				continue
			} else if dec {
				if !t {
					// Never taken (a condition on values that are
					// constants here): the arm is not walked.
					continue
				}
				// Always taken here: the arms after it are not reached.
				c, decidedTrue = nil, true
			}
		}
		if ok && (c != nil || len(prior) > 0) && ev.armsOnDomain > 0 {
			// The check of a guess walks one trip k of a loop: an arm
			// no k of the loop takes (the reallocation when k passes
			// the last trip, an ELSE where the test is of the capacity
			// left) is not walked.
			f := counting.And(slices.Clone(saved.conds))
			if c != nil {
				f = append(f, c)
			}
			for _, p := range prior {
				f = append(f, not(p))
			}
			if ev.contradictsHere(f) {
				continue
			}
		}
		ev.cur = saved.clone()
		ev.cur.pending = nil
		for _, p := range prior {
			ev.cur.conds = append(ev.cur.conds, not(p))
		}
		if !ok && (errorExit || leaves(b.Body) && onData(b.Cond) && !ev.exitsAnnotatedLoop(b.Body)) ||
			ok && c != nil && errorExit && ev.onUnresolved(c) {
			// An early exit on data the evaluation cannot see (a
			// convergence test, an error check): taken as never taken,
			// and said so.
			ev.exitOnDataInRun(b)
			ev.assumeNotTaken(b)
			if errorExit && b.Cond != nil {
				passed = append(passed, b.Cond)
			}
			continue
		}
		// An arm taken on data (or after one) that changes no control
		// value: what it meets does not stop a run (feedsControl,
		// Param.inert).
		dataArm := (!ok || onDataAbove) && !ev.feedsControl(b)
		onDataAbove = onDataAbove || !ok
		if dataArm {
			ev.inert++
		}
		switch {
		case !ok:
			if !dataArm {
				ev.freqUses++
			}
			p := ev.freqParam(b)
			f := p.expr().Div(symbolic.Int(100))
			ev.cur.factor = ev.cur.factor.Mul(f)
			remaining = remaining.Sub(f)
			ev.cur.inexact = "under a condition the evaluation cannot analyse; its frequency is the parameter " + p.Name
		case c == nil:
			hasElse = true
			ev.cur.factor = ev.cur.factor.Mul(remaining)
		default:
			ev.cur.conds = append(ev.cur.conds, c)
			ev.cur.factor = ev.cur.factor.Mul(remaining)
		}
		if ev.cur.factor.NumTerms() > maxFactorTerms {
			ev.cur.factor = ev.neutralFactor(ev.cur.factor)
			ev.cur.inexact = "under more nested conditions on data than the analysis follows: their frequencies are taken at their defaults"
		}
		if f, isConst := ev.cur.factor.Int64(); isConst && f == 0 {
			// A frequency given as 0 (or the arms before it taken all the
			// time): the arm does not run at this point. (A domain's zero
			// factor would read as none.)
			if dataArm {
				ev.inert--
			}
			continue
		}
		ev.env = pre.clone()
		occAt[bi] = len(o.Children)
		bo := ev.newOcc(b, o)
		ev.arms++
		ev.armPath = append(ev.armPath, armStep{n, bi})
		ev.walk(b.Body, bo)
		ev.armPath = ev.armPath[:len(ev.armPath)-1]
		ev.arms--
		if dataArm {
			ev.inert--
		}
		collsEnd = max(collsEnd, ev.colls)
		outs = append(outs, outcome{cond: c, at: b.Span.Start(), analysable: ok, env: ev.env, dead: ev.cur.dead, cycled: ev.cur.cycled})
		states = append(states, ev.cur)
		walked = append(walked, bi)
		if ok && c != nil && !swapped {
			prior = append(prior, c)
		}
		if decidedTrue {
			hasElse = true
			break
		}
	}
	if swapped && len(walked) == 2 && walked[0] == 1 {
		// Back in the order of the arms: the join takes the ELSE last.
		outs[0], outs[1] = outs[1], outs[0]
		states[0], states[1] = states[1], states[0]
		i, j := occAt[0], occAt[1]
		o.Children[i], o.Children[j] = o.Children[j], o.Children[i]
	}
	ev.colls = collsEnd
	ev.endArms(saved, pre, outs, states, hasElse)
	for _, c := range passed {
		ev.pinPassed(c)
	}
}

// endArms ends the walk of the arms of a branch (an IF, or a call through
// a procedure pointer that may hold several routines): the state after it
// is saved's, the arms' values joined over pre, with the paths that left
// an arm by GO TO, STOP or RETURN accounted for.
func (ev *evaluator) endArms(saved *domainState, pre *env, outs []outcome, states []*domainState, hasElse bool) {
	ev.cur = saved
	for _, st := range states {
		for l, js := range st.pending {
			if ev.cur.pending == nil {
				ev.cur.pending = map[string][]jump{}
			}
			ev.cur.pending[l] = append(ev.cur.pending[l], js...)
		}
	}
	ev.env = ev.join(pre, outs, hasElse)
	allDead, allCycled, allStopped := hasElse, true, hasElse
	var stopAt apt.Pos
	for i, out := range outs {
		if out.dead && !out.cycled {
			allCycled = false
		}
		if out.dead && out.analysable && out.cond != nil {
			ev.cur.conds = append(ev.cur.conds, not(out.cond))
			if states[i].stopped {
				ev.cur.stopConds = append(ev.cur.stopConds, out.cond)
			}
		}
		// Conditions under which paths inside the arm stopped.
		for _, c := range states[i].stopConds[min(len(saved.stopConds), len(states[i].stopConds)):] {
			if !slices.ContainsFunc(ev.cur.stopConds, func(d counting.Formula) bool { return sameFormula(c, d) }) {
				ev.cur.stopConds = append(ev.cur.stopConds, and(out.cond, c))
			}
		}
		if !out.dead {
			allDead, allStopped = false, false
		} else {
			if !states[i].stopped {
				allStopped = false
			} else {
				stopAt = states[i].stopAt
			}
			if !out.analysable {
				ev.cur.inexact = "follows an exit (RETURN, GO TO, STOP) under a condition the evaluation cannot analyse"
			}
		}
	}
	if allDead {
		ev.cur.dead, ev.cur.cycled = true, allCycled
		if allStopped {
			ev.cur.stopped, ev.cur.stopAt = true, stopAt
		}
	}
}

func routineTag(r *apt.Routine) string {
	if r == nil {
		return "main"
	}
	return r.Name
}

func itoa(i int) string { return strconv.Itoa(i) }

// join merges the environments of an If's arms.
func (ev *evaluator) join(pre *env, outs []outcome, hasElse bool) *env {
	changed := map[string]bool{}
	for _, out := range outs {
		if out.dead {
			continue
		}
		// The arms ran on copies of pre: only the keys an arm wrote can
		// differ from pre's.
		out.env.changedKeys(pre, func(k string) {
			if changed[k] {
				return
			}
			v, ok := out.env.lookup(k)
			if !ok {
				return
			}
			if pv, had := pre.lookup(k); !had || !sameValue(pv, v) {
				changed[k] = true
			}
		})
	}
	// pre is the state before the IF, which the arms only read (each ran
	// in a copy): the join updates it in place, as the statements after
	// the IF would, rather than copying every variable of the program
	// for the few the arms changed.
	keys := slices.Sorted(maps.Keys(changed))
	choices := map[int]counting.Formula{} // an arm on data taken or not, one for all its variables
	for _, k := range keys {
		get := func(m *env) Value {
			if v, ok := m.lookup(k); ok {
				return v
			}
			if v, ok := ev.initialValue(k); ok {
				return v
			}
			return Value{unk: &unknown{hint: k, what: "an unassigned value", undef: true}}
		}
		rest := get(pre)
		start := len(outs)
		if hasElse {
			last := outs[len(outs)-1]
			start--
			if !last.dead {
				rest = get(last.env)
			}
		}
		for i := start - 1; i >= 0; i-- {
			out := outs[i]
			if out.dead {
				continue
			}
			v := get(out.env)
			if !out.analysable {
				if v.arr != nil && rest.arr != nil {
					if st, ok := ev.joinOnData(k, v.arr, rest.arr); ok {
						rest = Value{arr: st}
						continue
					}
				}
				if !sameValue(v, rest) {
					if c, ok := ev.armChoice(choices, pre, i, out, k, v, rest); ok {
						rest = ev.choose(c, v, rest)
						continue
					}
					rest = ev.eitherOf(keyName(k), v, rest)
				}
				continue
			}
			rest = ev.chooseUndef(out.cond, v, rest)
			if rest.unk != nil && rest.unk.hint == "" {
				// Named after the variable, as the user would ask for it.
				rest.unk.hint = keyName(k)
				if n := ev.nameOfKey(k); n != "" && !isDigits(n) {
					rest.unk.hint = n
				}
			}
		}
		pre.set(k, rest)
	}
	return pre
}

// armChoice is the condition, one for every variable the arm i of a
// branch on data assigns, that the run took it: a parameter that is 1
// where it did, 0 where not. The arm's values stay together (klo = 1, khi
// = nz, kst = 1 in one arm, nz, 1, -1 in the other: the loop over klo..khi
// by kst runs nz times either way), where a value of its own for each
// variable would lose what they share. Known values only; others are
// eitherOf's.
func (ev *evaluator) armChoice(choices map[int]counting.Formula, pre *env, i int, out outcome, k string, v, rest Value) (counting.Formula, bool) {
	plain := func(x Value) bool {
		return x.IsKnown() && x.arr == nil && x.Fields == nil && x.str == nil && x.unk == nil
	}
	if !plain(v) || !plain(rest) || out.at.Line == 0 || ev.probing > 0 {
		return nil, false
	}
	if !ev.loopBound(k) {
		// The bounds and steps of DO loops; a procedure pointer's
		// routines are weighed by frequencies where it is called, and
		// other values keep a range of their own.
		return nil, false
	}
	if c, ok := choices[i]; ok {
		return c, c != nil
	}
	if ev.armValues(pre, out) < 2 {
		// One variable alone: its range (eitherOf) says as much.
		choices[i] = nil
		return nil, false
	}
	p := ev.newParam("arm_"+routineTag(ev.frame().routine)+"_"+itoa(out.at.Line), FromUnresolved, out.at,
		"the way the branch on data goes (1: taken)", false)
	lo, hi := symbolic.Int(0), symbolic.Int(1)
	p.Lo, p.Hi, p.Default = &lo, &hi, &hi
	c := counting.Rel{R: symbolic.Rel(p.expr(), ">=", symbolic.Int(1))}
	choices[i] = c
	return c, true
}

// armValues counts the integer variables the arm assigns known values
// that differ from those before the branch and that bound DO loops.
func (ev *evaluator) armValues(pre *env, out outcome) int {
	n := 0
	out.env.changedKeys(pre, func(k string) {
		v, ok := out.env.lookup(k)
		if !ok || !v.IsKnown() || v.arr != nil || v.Fields != nil || v.str != nil {
			return
		}
		if ev.loopBound(k) {
			n++
		}
	})
	return n
}

// loopBound reports whether the variable at key k is an integer the
// current routine's DO loops take a bound or step from.
func (ev *evaluator) loopBound(k string) bool {
	r := ev.frame().routine
	d, name := ev.keyDecl(r, k)
	return d != nil && !d.Procedure && d.Type.Base == apt.TypeInteger && ev.boundNames(r)[name]
}

// boundNames are the variables the routine's DO loops take their bounds
// and steps from (memoized).
func (ev *evaluator) boundNames(r *apt.Routine) map[string]bool {
	if m, ok := ev.loopBoundNames[r]; ok {
		return m
	}
	m := map[string]bool{}
	see := func(e apt.Expr) {
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if nm, ok := x.(*apt.Name); ok {
				m[nm.Name] = true
			}
			return true
		})
	}
	for _, n := range r.Body {
		apt.Inspect(n, func(y apt.Node) bool {
			if l, ok := y.(*apt.Loop); ok && l.Var != "" {
				see(l.Lower)
				see(l.Upper)
				see(l.Step)
			}
			return true
		})
	}
	if ev.loopBoundNames == nil {
		ev.loopBoundNames = map[*apt.Routine]map[string]bool{}
	}
	ev.loopBoundNames[r] = m
	return m
}

// eitherOf is the value of k after a branch on data: v or rest, the
// evaluation cannot say which. It is unknown, but between the least and the
// greatest of the values it can be where both are known or bounded (a
// count that a data test may increment: nzv or nzv + 1), so that the
// analysis can tell whether it matters (MK3001) and take the midpoint where
// it does not.
func (ev *evaluator) eitherOf(k string, v, rest Value) Value {
	u := &unknown{hint: k, what: "a value assigned under a condition the evaluation cannot analyse", real: true}
	lo1, hi1, ok1 := rangeOf(v)
	lo2, hi2, ok2 := rangeOf(rest)
	if ok1 && ok2 {
		ev.setRange(u, symbolic.Min(lo1, lo2), symbolic.Max(hi1, hi2))
		lo, hi := *u.lo, *u.hi
		u.real = !lo.IsIntegerValued() || !hi.IsIntegerValued()
	}
	return Value{unk: u}
}

// rangeOf returns the least and greatest values v can take: the extremes
// of its alternatives, or an unknown's bounds.
func rangeOf(v Value) (lo, hi symbolic.Expr, ok bool) {
	if v.unk != nil {
		if v.unk.lo != nil && v.unk.hi != nil && !v.unk.varying {
			return *v.unk.lo, *v.unk.hi, true
		}
		return symbolic.Expr{}, symbolic.Expr{}, false
	}
	if !v.IsKnown() || v.Fields != nil || v.arr != nil || v.str != nil || v.comm != nil {
		return symbolic.Expr{}, symbolic.Expr{}, false
	}
	es := make([]symbolic.Expr, len(v.Alts))
	for i, a := range v.Alts {
		es[i] = a.E
	}
	return symbolic.Min(es...), symbolic.Max(es...), true
}

// chooseUndef is choose where a never-assigned value on one side is taken to
// be the other side's: reading it would be undefined behaviour in Fortran, so
// the program may only rely on the assigned one.
func (ev *evaluator) chooseUndef(c counting.Formula, a, b Value) Value {
	if a.arr != nil && a.arr.data && b.unk != nil && b.unk.undef || b.arr != nil && b.arr.data && a.unk != nil && a.unk.undef {
		// A REAL array one path filled with a number, the other left
		// as the program's data (uniformdata.go).
		return Value{arr: &arrayState{clobbered: true}}
	}
	if b.unk != nil && b.unk.undef {
		return a
	}
	if a.unk != nil && a.unk.undef {
		return b
	}
	return ev.choose(c, a, b)
}

// loop evaluates a DO loop: its body once, in the domain extended by the
// loop's index variable.
func (ev *evaluator) loop(l *apt.Loop, parent *Occ) {
	follower := ev.follower
	o := ev.newOcc(l, parent)
	jumps0 := ev.frame().jumps
	if len(ev.frame().loops) == 0 {
		o.Footprint = ev.footprint(l)
		ev.frame().accesses = ev.nestAccesses(l)
	}
	o.Stream = ev.streamBytes(l)
	o.Accesses = ev.frame().accesses[l]
	if len(o.Accesses) > 0 && ev.probing == 0 {
		o.Accesses = ev.firstTouch(l, o.Accesses)
	}
	ev.loopDepth++
	defer func() { ev.loopDepth-- }()
	pos := l.Span.Start()
	savedStmt := ev.stmtOcc
	ev.stmtOcc = o // functions called in the bounds run where the DO runs
	defer func() { ev.stmtOcc = savedStmt }()
	var counted Value // the trip count of a DO without control that ends on a counter
	hasCounted := false
	var wrow whileRow // the counter of a counted DO WHILE
	if l.Var == "" && l.Iterations == nil && l.While == nil {
		counted, hasCounted = ev.counterExit(l, o)
		if !hasCounted {
			// Or ends on a REAL clock: its first IF (c) EXIT, taken
			// on the trip the clock's steps give.
			if k, _, _, ok := ev.realClockExit(l); ok {
				counted, hasCounted = Known(symbolic.Int(k)), true
			}
		}
	}
	if l.Var == "" && l.Iterations == nil && l.While != nil {
		counted, wrow, hasCounted = ev.whileCounter(l)
		if b, isBin := l.While.(*apt.Binary); isBin && !hasCounted {
			counted, hasCounted = ev.pointerWhileCounter(l, b)
		}
	}
	// A REAL counter's count is taken in the program's floating point,
	// which a run's exact arithmetic would not follow.
	tooLong := hasCounted && wrow.real
	if hasCounted {
		for _, a := range counted.Alts {
			n, isConst := a.E.Int64()
			tooLong = tooLong || !isConst || n > maxRunTrips // no run could finish it
		}
	}
	// A loop that reads input on each trip ends on what it reads: no run
	// decides its tests, but where the run's files are read (Options.Dir)
	// in forms the evaluation reads (readsFiles).
	if hasCounted && !tooLong && l.While != nil && !ev.whileNeedsRun(l) &&
		(ev.manyTrips(counted) || ev.plainBody(l.Body, map[*apt.Routine]bool{})) {
		// A counted DO WHILE (a C for loop whose test calls a function)
		// whose trips compute nothing later control reads is summarised
		// by counting, as a DO loop is, where it has many trips or does
		// straight-line work only: a run would walk every trip, and
		// inside a run of an outer loop spend its budget. (A few trips
		// that branch are run: a run follows what each reads through
		// pointers, a peer in a list of arcs.)
		tooLong = true
	}
	if l.Var == "" && l.Iterations == nil && !tooLong && (!ev.readsInput(l.Body) || ev.readsFiles(l.Body)) && ev.runWhile(l, o) {
		return
	}
	if l.Var == "" && l.Iterations == nil && hasCounted && tooLong && !ev.readsInput(l.Body) && !ev.lean() {
		// A counted loop too long to run symbolically whose trips
		// compute what later control reads (a count of the columns
		// each row's data holds): the concrete machine runs the
		// program's code at the point, as it does a DO loop's.
		if scalars, arrays := ev.computesControl(l); (len(scalars) > 0 || arrays) && ev.concreteLoop(l, o) {
			return
		}
	}
	if pr := ev.probed; pr != nil {
		// The ranks' runs left these values (rankProbe): they hold
		// once the loop is evaluated.
		ev.probed = nil
		defer ev.applyProbe(pr)
	}
	// A run-once flag the first trip clears: that trip is run by itself,
	// the others evaluated from the second on.
	peeled, isPeeled := ev.peelFirst(l, o, pos)
	body := ev.cur.clone()
	body.pending = nil
	var trips Value    // the trip count
	var index Value    // the iteration number k = 0, 1, ... inside the body
	var varValue Value // the DO variable inside the body
	var after Value    // the DO variable after the loop
	var lower Value    // the DO variable's first value
	var upper Value    // and its bound (a DO with a step)
	var step int64 = 1
	var stepE symbolic.Expr // a step that is not a constant
	var lf *loopFrame       // for the loops inside, when the DO is symbolic
	var doExit *gotoLoopState
	var rows *rowSpan
	rankNote := "" // why the trip count is approximate (setTripRange)
	if l.Var != "" && l.Iterations == nil {
		rows = ev.telescope(l)
	}
	switch {
	case rows != nil:
		// The inner loop of a sweep over row pointers (rows.go): its
		// body runs span times in all, in the domain around the rows.
		body = rows.body
		varValue = unknownValue(l.Var, "the value of "+l.Var+" in the loop at "+pos.String(), false)
		varValue.unk.varying = true
	case l.Iterations != nil || l.Var == "":
		var t Value
		if l.Iterations != nil {
			t = ev.closedInt(ev.value(l.Iterations), pos)
		}
		fromCounter := false
		if !t.IsKnown() && hasCounted {
			// A loop that ends when a counter it steps reaches a bound
			// (a time loop with a step limit): its trip count follows.
			t, fromCounter = counted, true
			if len(wrow.data) > 0 {
				ev.assumeExitNotTaken(pos, ev.src(exitOnData(wrow.data)))
			}
		}
		if p, ok := ev.tripParams[l]; !t.IsKnown() && ok {
			// One parameter per loop, whatever the calling context.
			t = Known(p.expr())
		}
		if !t.IsKnown() {
			name := "trips_" + routineTag(ev.frame().routine) + "_" + itoa(pos.Line)
			if l.Construct != "" {
				// The program's own name for the loop (fixup_loop: DO).
				name = "trips_" + strings.ToLower(l.Construct)
			}
			p := ev.newParam(name, FromTripCount, pos, "the trip count of the loop at "+pos.String(), false)
			ev.tripParams[l] = p
			if r, ok := ev.tripRanges[l]; ok {
				setTripRange(p, r[0], r[1])
			}
			if l.Var == "" && (ev.readsInput(l.Body) || l.While != nil && onText(l.While)) {
				// A loop over the lines of input (a deck, a file of
				// records), or over the characters of a text: at least
				// one trip; MK3001 asks for it where more would matter.
				one := symbolic.Int(1)
				p.Lo, p.Default = &one, &one
				p.What += " (it goes over input or text; at least 1)"
			}
			t = Known(p.expr())
		}
		trips = t
		if p, ok := ev.tripParams[l]; ok && p.ByRank && mentions(t, []string{p.Name}) {
			// One value of a trip count stands for every rank's: the
			// loop and its body are approximate (marked once walked).
			rankNote = byRankNote(p)
		}
		k := ev.loopVarName("k")
		body.vars = append(body.vars, k)
		body.conds = append(body.conds, counting.Rel{R: symbolic.Rel(symbolic.Sym(k), ">=", symbolic.Int(1))})
		f, _ := relation(Known(symbolic.Sym(k)), t, apt.OpLe)
		body.conds = append(body.conds, f)
		if l.Var == "" && l.Iterations == nil && l.While == nil {
			if te, ok := t.Single(); ok {
				// A DO without control ends by its EXIT: the first
				// `IF (c) EXIT` of its body is taken on its last trip.
				doExit = &gotoLoopState{k: symbolic.Sym(k), trips: te}
			} else if last, ok := relation(Known(symbolic.Sym(k)), t, apt.OpEq); ok && t.IsKnown() {
				// (One trip count per rank class: the last trip is
				// each class's.)
				doExit = &gotoLoopState{k: symbolic.Sym(k), last: last}
			}
		}
		index = Known(symbolic.Sym(k).Sub(symbolic.Int(1)))
		if fromCounter && wrow.step == 1 && wrow.start.IsKnown() {
			// A C for loop over rows whose bound is read on every
			// trip (i < m->nrow): its trips are rows, counter = start
			// + k - 1, for a sweep over them (tableSweep).
			rowOff, _ := lift1(wrow.start, func(e symbolic.Expr) (symbolic.Expr, bool) { return e.Sub(symbolic.Int(1)), true })
			lf = &loopFrame{loop: l, v: k, lo: Known(symbolic.Int(1)), hi: t, unit: true, rowVar: wrow.name, rowOff: rowOff}
		}
		if l.Var != "" {
			lo := ev.closedInt(ev.value(l.Lower), pos)
			varValue, _ = lift2(lo, index, func(a, b symbolic.Expr) (symbolic.Expr, bool) { return a.Add(b), true })
		}
	default:
		lo := ev.bound(l.Lower, pos)
		if isPeeled {
			lo = peeled
		}
		hi := ev.bound(l.Upper, pos)
		lower, upper = lo, hi
		var cases *steppedLoop // a step that is one of several constants by case
		if l.Step != nil {
			sv := ev.closedInt(ev.value(l.Step), pos)
			e, ok := sv.Single()
			c, isInt := e.Int64()
			sc, isCases := stepCases(ev.loopVarName(l.Var), lo, hi, sv)
			switch {
			case !ok && isCases:
				cases = &sc
			case ok && isInt && c != 0:
				step = c
			case ok && !isInt && ev.provedHere(symbolic.Rel(e, ">=", symbolic.Int(1))):
				// A step known to be positive (DO i = me+1, n, np):
				// the counting engine counts the stride exactly.
				stepE = e
			case ok && !isInt && ev.provedHere(symbolic.Rel(e, "<=", symbolic.Int(-1))):
				stepE, step = e, -1
			default:
				ev.diag(l.Step.At(), apt.Warning, "the DO step "+ev.src(l.Step)+" is neither a constant nor of a known sign: its loop is counted as if the step were 1")
				o.Inexact, o.Note = true, "the DO step is neither a constant nor of a known sign (counted as 1)"
			}
		}
		name := ev.loopVarName(l.Var)
		v := symbolic.Sym(name)
		body.vars = append(body.vars, name)
		if cases != nil {
			// Each case its own loop under its guard (stepCases): no
			// one first value or step to run it from.
			body.conds = append(body.conds, cases.cond)
			varValue, index, trips, after = cases.varValue, cases.index, cases.trips, cases.after
			lower, upper = Value{}, Value{}
			break
		}
		if stepE.IsZero() && step == 1 {
			if e, x, ok := ev.boundedExit(l); ok {
				// An exit the DO variable decides ends the DO early
				// (boundedExit): its EXIT is accounted for.
				if nh, ok := lift2(lo, hi, func(a, b symbolic.Expr) (symbolic.Expr, bool) {
					return symbolic.Min(b, symbolic.Max(a, e)), true
				}); ok && nh.IsKnown() {
					hi, upper = nh, nh
					// Only for this evaluation of the DO: where the
					// same loop is reached again (another call of its
					// routine) with a bound that is no closed form, its
					// EXIT is again one not modelled.
					ev.boundExits[x] = true
					defer delete(ev.boundExits, x)
				}
			} else if k, arm, x, ok := ev.realClockExit(l); ok {
				// An exit on a REAL clock the body steps (t = t + dt;
				// IF (t >= t_end) EXIT): taken on trip k, which the DO
				// variable then decides.
				e, _ := lift1(lo, func(a symbolic.Expr) (symbolic.Expr, bool) { return a.Add(symbolic.Int(k - 1)), true })
				if nh, ok := lift2(lo, hi, func(a, b symbolic.Expr) (symbolic.Expr, bool) {
					ex, _ := e.Single()
					return symbolic.Min(b, symbolic.Max(a, ex)), true
				}); ok && nh.IsKnown() && e.IsKnown() {
					hi, upper = nh, nh
					ev.boundExits[x] = true
					defer delete(ev.boundExits, x)
					if f, ok := relation(Known(v), e, apt.OpGe); ok {
						ev.armConds[arm] = f
						defer delete(ev.armConds, arm)
					}
				}
			}
			lf = &loopFrame{loop: l, v: name, lo: lo, hi: hi, unit: true}
		}
		if !stepE.IsZero() {
			// The domain variable is the iteration number k >= 0; the
			// DO variable is lo + s*k, within hi.
			body.conds = append(body.conds, counting.Rel{R: symbolic.Rel(v, ">=", symbolic.Int(0))})
			op := apt.OpLe
			if step < 0 {
				op = apt.OpGe
			}
			varValue, _ = lift1(lo, func(a symbolic.Expr) (symbolic.Expr, bool) { return a.Add(stepE.Mul(v)), true })
			f, _ := relation(varValue, hi, op)
			body.conds = append(body.conds, f)
			index = Known(v)
			trips, _ = lift2(lo, hi, func(a, b symbolic.Expr) (symbolic.Expr, bool) {
				return symbolic.Max(symbolic.FloorDiv(b.Sub(a).Add(stepE), stepE), symbolic.Int(0)), true
			})
			if trips.IsKnown() {
				after, _ = lift2(lo, trips, func(a, t symbolic.Expr) (symbolic.Expr, bool) { return a.Add(t.Mul(stepE)), true })
			}
			break
		}
		if step == 1 {
			f1, _ := relation(Known(v), lo, apt.OpGe)
			f2, _ := relation(Known(v), hi, apt.OpLe)
			body.conds = append(body.conds, f1, f2)
			varValue = Known(v)
			index, _ = lift1(lo, func(a symbolic.Expr) (symbolic.Expr, bool) { return v.Sub(a), true })
			trips, _ = lift2(lo, hi, func(a, b symbolic.Expr) (symbolic.Expr, bool) {
				return symbolic.Max(b.Sub(a).Add(symbolic.Int(1)), symbolic.Int(0)), true
			})
		} else {
			// The domain variable is the iteration number; the DO variable is
			// lo + step*k (Fortran: the trip count is fixed on entry).
			c := symbolic.Int(step)
			body.conds = append(body.conds, counting.Rel{R: symbolic.Rel(v, ">=", symbolic.Int(0))})
			op := apt.OpLe
			if step < 0 {
				op = apt.OpGe
			}
			varValue, _ = lift1(lo, func(a symbolic.Expr) (symbolic.Expr, bool) { return a.Add(c.Mul(v)), true })
			f, _ := relation(varValue, hi, op)
			body.conds = append(body.conds, f)
			index = Known(v)
			trips, _ = lift2(lo, hi, func(a, b symbolic.Expr) (symbolic.Expr, bool) {
				return symbolic.Max(symbolic.FloorDiv(b.Sub(a).Add(c), c), symbolic.Int(0)), true
			})
		}
		if trips.IsKnown() {
			after, _ = lift2(lo, trips, func(a, t symbolic.Expr) (symbolic.Expr, bool) {
				return a.Add(t.Mul(symbolic.Int(step))), true
			})
		}
	}
	// Variables the body changes: closed forms for x = x + c, unknown
	// otherwise while the body runs.
	mod := ev.modified(l.Body)
	// A variable every store of the body sets to the value it holds
	// already does not change (a run-once flag, once set). One the body
	// itself sets otherwise (a counter, a computed value) is not such a
	// flag, whatever the routines it calls do.
	varied := ev.variedStores(l.Body)
	mod = slices.DeleteFunc(mod, func(k string) bool {
		if varied[k] {
			return false
		}
		v := ev.held(k)
		c, ok := v.Single()
		return ok && v.arr == nil && ev.storesOnly(l.Body, k, c)
	})
	jumps := hasJumps(l.Body)
	if doExit != nil && jumps && onlyExitJumps(l.Body) {
		// Its one EXIT ends its last trip (doExit): every other trip runs
		// the whole body, so its recurrences stand.
		jumps = false
	}
	recs := map[string]Value{}
	var toggles map[string]bool
	var geoms map[string]symbolic.Rat
	var wraps map[string]*wrapCounter
	if !jumps {
		recs = ev.recurrences(l, mod)
		toggles = ev.toggles(l, mod)
		geoms = ev.geometric(l, mod)
		wraps = ev.wrapCounters(l, mod, ev.env)
	}
	if !jumps && l.Iterations == nil && (l.Var != "" && lower.IsKnown() || l.Var == "" && l.While != nil && hasCounted) && !isPeeled {
		// Pointers the body moves by a constant each trip through the
		// routines it calls (push_back's end pointer): slotinduct.go.
		for k, c := range ev.slotSteps(l, o, body, lower, varValue, index, mod, recs) {
			if _, has := recs[k]; !has {
				recs[k] = c
			}
		}
	}
	// Probes look for counters with no closed form: wrapping ones have.
	probeMod := slices.DeleteFunc(slices.Clone(mod), func(k string) bool { return wraps[k] != nil })
	probed := false
	var searches map[string]search // variables set on pinned iterations only
	var stepSums map[string]Value  // steps that depend on the iteration (countsum.go)
	summed := map[string]Value{}   // and the values they leave, where summed already
	var carried *carriedLoop       // values the iterations hand on, from a slice run
	if l.Var != "" && l.Iterations == nil && lower.IsKnown() {
		if t, ok := trips.Single(); ok {
			if n, isc := t.Int64(); isc {
				scalars, arrays := ev.computesControl(l)
				if len(scalars) > 0 && !arrays && !jumps && n > 2 {
					probed = true
					// Counters incremented deep in the body have closed
					// forms; running is for what has none.
					probed, found, sums := ev.probeIncrements(l, o, body, varValue, probeMod, recs)
					searches, stepSums = found, sums
					for k, c := range probed {
						recs[k] = c
					}
					scalars = slices.DeleteFunc(scalars, func(k string) bool {
						if _, ok := probed[k]; ok {
							return true
						}
						// A count whose step the iteration decides is
						// summed, not run, where counting sums it.
						c, ok := sums[k]
						if !ok {
							return false
						}
						v, ok := ev.sumOverIterations(ev.env.get(k), c, stepIter, lower, step, trips)
						if ok {
							summed[k] = v // the value after the loop
						}
						return ok
					})
				}
				if debugRuns {
					fmt.Fprintf(os.Stderr, "run? %s trips=%d scalars=%v arrays=%v\n", pos, n, scalars, arrays)
				}
				if len(scalars) > 0 && !arrays && nestsLoops(l.Body) {
					// The values a run would give, from a run of their
					// slice alone where it has one: a run walks the
					// loops inside at every trip, the slice's once.
					// The others must be set afresh in each trip or
					// only index data, and read nowhere after the loop.
					carried = ev.carriedValues(l, o, lower, step, n, index)
					if carried.leaves(ev, l, scalars) {
						carried = nil
					}
				}
				if carried == nil && !isPeeled && ((len(scalars) > 0 || arrays || ev.countsReadTables(l)) && satMul(n, 1+ev.nestIters(l.Body, firstTrip(l, lower))) >= concreteFirstTrips ||
					ev.writesTableData(l) || arrays && ev.readsTableData(l)) && ev.concreteLoop(l, o) {
					// Many trips at a point (the loop's, or its nest's):
					// the concrete machine runs them at a fraction of a
					// symbolic run's cost, and leaves tables, not a store
					// per trip (or counts loops whose bounds are a
					// table's elements). Stores into a table, where a
					// table says, or of what a table gives, are the
					// machine's at any size: a symbolic run would store
					// values or at offsets known only rank by rank, and
					// what is computed from a table is a table.
					return
				}
				if carried == nil && (len(scalars) > 0 || arrays) && ev.runOK(l, n) && ev.runCounted(l, o, lower, symbolic.Int(step), n) {
					return
				}
				if (len(scalars) > 0 || arrays) && ev.cheapByRank(l, n) && ev.testsReadRank([]apt.Expr{l.Lower, l.Upper}, l.Body) {
					// Tests on the rank in the body (a search that stops
					// at a different step on each process): run rank by
					// rank where P is small, else probe the ranks for
					// the values the loop leaves.
					lo := lower
					if ev.byRankCounted(l, o, lo, step, n, pos) {
						return
					}
					np := ev.values[Size]
					saved := ev.runCap
					ev.runCap = max(runBudget/max(np, 1), 1)
					runIt := func() bool { return ev.runOK(l, n) && ev.runCounted(l, o, lo, symbolic.Int(step), n) }
					keys := append(ev.modified(l.Body), ev.key(l.Var))
					pr := ev.rankProbe([]apt.Expr{l.Lower, l.Upper}, l.Body, o, keys, runIt, func() int64 { return n })
					ev.runCap = saved
					if pr != nil {
						defer ev.applyProbe(pr)
					}
				}
				if carried == nil && (len(scalars) > 0 || arrays) {
					// Too costly to run: the values the iterations hand
					// on from a run of their slice alone.
					carried = ev.carriedValues(l, o, lower, step, n, index)
				}
				if (carried == nil || arrays && carried.leavesArray(ev, l)) && (len(scalars) > 0 || arrays) && !isPeeled && ev.concreteLoop(l, o) {
					// Nor has a slice that gives them all: run by the
					// concrete machine (concrete.go).
					return
				}
			} else if onRankAlone(t) && l.Step == nil && ev.runRankTrips(l, o, pos) {
				// A loop whose trip count depends on the rank (do i = 1,
				// me) and that computes values the counts need (a prefix
				// sum over the ranks before): run rank by rank where P is
				// small, each rank's values then exact.
				return
			}
		} else if l.Step == nil && ev.tripsAtEachRank(trips) && (ev.allocatesHeap(l.Body) || breaksOut(l.Body) || ev.controlReadsRank(l.Body)) && ev.runRankTrips(l, o, pos) {
			// Trip counts that are cases on the rank (a block
			// distribution's n/P + (rank < n%P)) of a loop that makes
			// heap objects, an object per trip, which only a run
			// follows: the same. (Every C loop so run loses what NPB
			// IS's symbolic walk keeps: a rank's run of its bucket
			// loop fails.) So is a search that breaks out at a
			// different trip on each rank: its variable's value after
			// it is where it stopped; and a loop whose tests read what
			// each rank holds (a count of a rank's idle patches), which
			// counted for all ranks at once is a case per rank and trip.
			return
		}
		if _, isc := valueInt(trips); !isc && trips.IsKnown() && !isPeeled {
			// A trip count each rank has its own value of (bounds read
			// from a table of bucket pointers), for a loop that computes
			// from tables what later control reads, or that stores into
			// a table: the concrete machine runs it on every rank.
			if ev.writesTableData(l) && ev.concreteLoop(l, o) {
				return
			}
			if ev.readsTableData(l) {
				if scalars, arrays := ev.computesControl(l); (len(scalars) > 0 || arrays) && ev.concreteLoop(l, o) {
					return
				}
			}
		}
	}
	o.Body = body.domain()
	if !jumps && !probed {
		incs, found, sums := ev.probeIncrements(l, o, body, varValue, probeMod, recs)
		for k, c := range incs {
			recs[k] = c
		}
		searches, stepSums = found, sums
	}
	// The arrays the loop stores to through A(i + c) only (valuedRanges),
	// and those it leaves as they are (arrayinv.go).
	ranged := map[string]bool{}
	for _, k := range mod {
		if v, had := ev.env.lookup(k); (v.arr != nil || !had) && lf != nil {
			_, _, _, ranged[k] = ev.loopStores(l.Body, l.Var, k, lf.lo, lf.hi)
		}
	}
	kept := ev.invariantArrays(l, o, body, mod, ranged)
	pre := ev.env.clone()
	// The arrays the loop stores to through A(i + c) only: their states
	// before the loop and at the start of the body (valuedRanges).
	var preArrs, entryArrs map[string]*arrayState
	for _, k := range mod {
		if kept[k] {
			continue
		}
		if v, ok := carried.entryOf(k); ok {
			ev.env.set(k, v)
			continue
		}
		if v, had := ev.env.lookup(k); (v.arr != nil || !had) && lf != nil {
			// The elements outside the stores' range keep their values
			// (or, never stored, are undefined).
			if from, to, decl, ok := ev.loopStores(l.Body, l.Var, k, lf.lo, lf.hi); ok {
				if entryArrs == nil {
					preArrs, entryArrs = map[string]*arrayState{}, map[string]*arrayState{}
				}
				preArrs[k] = ev.arrayOf(k, decl)
				ev.clobberRange(k, decl, from, to)
				entryArrs[k] = ev.env.get(k).arr
				continue
			}
		}
		if c, ok := recs[k]; ok && index.IsKnown() {
			if v, ok := liftN([]Value{ev.env.get(k), index, c}, affine); ok {
				ev.env.set(k, v)
				continue
			}
		}
		if w := wraps[k]; w != nil && index.IsKnown() {
			if v, ok := w.at(k, pre, index); ok {
				ev.env.set(k, v)
				continue
			}
		}
		if toggles[k] && index.IsKnown() {
			if v, ok := liftN([]Value{ev.env.get(k), index}, parity); ok {
				ev.env.set(k, v)
				continue
			}
		}
		if v := ev.env.get(k); v.arr != nil {
			// An array the loop stores to out of the evaluation's sight:
			// its elements are unknown while the loop runs.
			ev.clobber(k)
			continue
		}
		ev.env.set(k, ev.changedBy(k, "the value of %s as the loop at "+pos.String()+" changes it", true))
	}
	if l.Var != "" && varValue.IsKnown() {
		ev.store(l.Var, varValue)
	}
	saved := ev.cur
	ev.cur = body
	fr := ev.frame()
	fr.loops = append(fr.loops, l)
	fr.entries = append(fr.entries, body.clone())
	if lf != nil {
		lf.outer, lf.entry, lf.mod, lf.pre = saved, fr.entries[len(fr.entries)-1], mod, pre
	}
	fr.loopFrames = append(fr.loopFrames, lf)
	nj := ev.frame().jumps
	savedExit := ev.doExit
	ev.doExit = doExit
	endRange := ev.rangeLoop(index, trips)
	outerWrites := ev.ptrWrites
	if ev.cPointers() {
		ev.ptrWrites = map[string]bool{}
	}
	ev.walk(l.Body, o)
	written := ev.ptrWrites
	endRange()
	ev.doExit = savedExit
	if rankNote != "" {
		markInexact(o, rankNote)
	}
	if doExit != nil && !doExit.used {
		ev.diag(pos, apt.Warning, ev.say("the DO loop without control has no IF (...) EXIT at its top level: its trip count is a parameter",
			"the loop has no exit test the evaluation can read at its top level: its trip count is a parameter"))
	}
	if rows != nil && rowDomains(o, rows.row) {
		markInexact(o, "the entries of a row are counted in all rows together, but a branch inside depends on the row")
	}
	if ev.frame().jumps > nj {
		markInexact(o, "the loop holds a jump (EXIT, CYCLE of an outer loop, GO TO) the evaluation does not model")
	}
	fr.loops = fr.loops[:len(fr.loops)-1]
	fr.entries = fr.entries[:len(fr.entries)-1]
	fr.loopFrames = fr.loopFrames[:len(fr.loopFrames)-1]
	exitOnly := false
	if debugRuns && len(ev.cur.pending) > 0 {
		fmt.Fprintf(os.Stderr, "loop %s pending %v follower %q\n", pos, slices.Collect(maps.Keys(ev.cur.pending)), follower)
	}
	if len(ev.cur.pending) > 0 && follower != "" {
		exitOnly = true
		for lbl := range ev.cur.pending {
			exitOnly = exitOnly && lbl == follower
		}
		if exitOnly {
			// Every jump out goes to the statement right after the loop,
			// which the paths that run to the end reach too: an EXIT.
			// The loop's own iterations are then not exact; what follows
			// it is, its state being the one before the loop.
			ev.cur.pending = nil
			o.Inexact, o.Note = true, "the loop may be left early by GO TO "+follower+" on a condition the evaluation cannot analyse"
		}
	}
	bodyDead := ev.cur.dead && !ev.cur.cycled && len(ev.cur.pending) == 0 && !exitOnly
	if len(ev.cur.pending) > 0 {
		ev.frame().jumps++
		ev.diag(pos, apt.Warning, "a GO TO out of this DO loop is not modelled: counts assume it is not taken")
		saved.inexact = "follows a GO TO out of a DO loop"
		o.Inexact, o.Note = true, "a GO TO leaves the loop"
	}
	ev.cur = saved
	if ev.cur.inexact == "" && body.inexact != "" && !exitOnly {
		ev.cur.inexact = body.inexact
	}
	if bodyDead {
		ev.cur.inexact = "follows a loop whose body may RETURN or STOP"
	}
	// After the loop.
	ev.forgetPointerWrites(outerWrites, written, pos)
	for k := range written {
		if st, ok := ev.rowSums(l, lf, o, k); ok {
			ev.env.set(k, Value{arr: st})
		}
	}
	var ran counting.Formula // trips >= 1
	if trips.IsKnown() {
		ran, _ = relation(trips, Known(symbolic.Int(1)), apt.OpGe)
	}
	bodyVars := body.vars[len(saved.vars):]
	var deck map[string]deckKeyword
	if len(saved.vars) == 0 && len(ev.frame().loops) == 0 {
		// The deck loop that reads all of it, not a loop inside one
		// (whose values are one line's).
		deck = ev.deckKeys(l)
	}
	for _, k := range mod {
		if v, ok := carried.finalOf(k); ok {
			ev.env.set(k, v)
			continue
		}
		if kw, ok := deck[k]; ok {
			// Set from an input deck by keyword: an input, defaulting
			// to the value before the deck was read.
			ev.env.set(k, ev.deckValue(k, kw, pre.get(k)))
			continue
		}
		if kept[k] {
			ev.env.set(k, pre.get(k))
			continue
		}
		if v := ev.env.get(k); v.arr != nil {
			// Stores to elements the loop's variable selects: which
			// elements hold what is not followed past the loop, but
			// those out of the stores' reach keep their values.
			if pa := preArrs[k]; pa != nil {
				if from, to, decl, ok := ev.loopStores(l.Body, l.Var, k, lf.lo, lf.hi); ok {
					others := slices.DeleteFunc(slices.Clone(bodyVars), func(s string) bool { return s == lf.v })
					r := loopRange{v: lf.v, lo: lf.lo, hi: lf.hi, others: others}
					if st, ok := valuedRanges(pa, entryArrs[k], v.arr, r); ok && !jumps {
						// Values the body stores, as functions of the offset.
						ev.env.set(k, Value{arr: st})
						continue
					}
					ev.env.set(k, Value{arr: pa})
					ev.clobberRange(k, decl, from, to)
					continue
				}
			}
			if st, ok := ev.rowSums(l, lf, o, k); ok {
				ev.env.set(k, Value{arr: st})
				continue
			}
			ev.clobber(k)
			continue
		}
		pv, had := pre.lookup(k)
		if !had {
			pv = Value{unk: &unknown{hint: keyName(k), what: "an unassigned value", undef: true}}
		}
		if toggles[k] && trips.IsKnown() {
			if v, ok := liftN([]Value{pv, trips}, parity); ok {
				ev.env.set(k, v)
				continue
			}
		}
		if w := wraps[k]; w != nil && trips.IsKnown() {
			if v, ok := w.at(k, pre, trips); ok {
				ev.env.set(k, v)
				continue
			}
		}
		if c, ok := recs[k]; ok && trips.IsKnown() {
			if v, ok := liftN([]Value{pv, trips, c}, affine); ok {
				ev.env.set(k, v)
				continue
			}
			if debugRuns {
				fmt.Fprintf(os.Stderr, "recurrence %s at %s: liftN failed: pv=%d alts trips=%d c=%d (%v)\n", k, pos, len(pv.Alts), len(trips.Alts), len(c.Alts), pv.unk)
			}
		}
		if c, ok := stepSums[k]; ok && !jumps && lower.IsKnown() && trips.IsKnown() {
			if v, ok := summed[k]; ok {
				ev.env.set(k, v)
				continue
			}
			if v, ok := ev.sumOverIterations(pv, c, stepIter, lower, step, trips); ok {
				ev.env.set(k, v)
				continue
			}
			if debugRuns {
				fmt.Fprintf(os.Stderr, "step sum %s at %s: not counted: %v\n", k, pos, c.Alts)
			}
		}
		if c, ok := geoms[k]; ok {
			// x = c*x: c^trips times its value before the loop, for a
			// number of trips (a scale 2^-23 a generator builds by
			// halving).
			t, ok1 := trips.Single()
			n, ok2 := t.Int64()
			x, ok3 := pv.Single()
			if ok1 && ok2 && ok3 && n >= 0 && n <= maxGeometricTrips {
				f := symbolic.RatInt(1)
				for range n {
					f = f.Mul(c)
				}
				ev.env.set(k, Known(x.Scale(f)))
				continue
			}
		}
		if sf, ok := searches[k]; ok && upper.IsKnown() && stepE.IsZero() {
			if v, ok := sf.after(pv, lower, upper, step); ok {
				if debugRuns {
					fmt.Fprintf(os.Stderr, "search %s: %s = %v\n", pos, k, v.Alts)
				}
				ev.env.set(k, v)
				continue
			}
		}
		end := ev.env.get(k)
		if end.IsKnown() && ran != nil && !jumps && !mentions(end, bodyVars) {
			ev.env.set(k, ev.chooseUndef(ran, end, pv))
			continue
		}
		v := ev.afterLoop(k, pos)
		if v.unk != nil && v.unk.lo == nil {
			if lo, hi, ok := ev.counterRange(l, k, pv, trips); ok {
				ev.setRange(v.unk, lo, hi)
			} else if lo, hi, ok := ev.subscriptRange(l.Body, k, pv); ok {
				ev.setRange(v.unk, lo, hi)
			}
		}
		ev.env.set(k, v)
	}
	if l.Var != "" {
		if ev.frame().jumps > jumps0 && exitsLoop(l.Body) {
			// An EXIT the walk did not model may leave on any trip: the
			// DO variable's value after the loop is where it left, not
			// where the last trip ends.
			after = Value{}
		}
		if after.IsKnown() {
			ev.store(l.Var, after)
		} else {
			ev.store(l.Var, unknownValue(l.Var, "the value of "+l.Var+" after the loop at "+pos.String(), false))
		}
	}
}

// bound evaluates a loop bound; an unknown one, integer or not, becomes a
// parameter.
func (ev *evaluator) bound(e apt.Expr, pos apt.Pos) Value {
	v := ev.value(e)
	if v.unk != nil && v.Fields == nil {
		if v.unk.live() == nil {
			v.unk.real = false // DO bounds are converted to integers
		}
		if v.unk.varying {
			ev.cur.inexact = "a loop bound changes from one iteration of an enclosing loop to the next; the parameter " + ev.paramOf(v.unk, pos).String() + " stands for all its values"
		}
		return Known(ev.paramOf(v.unk, pos))
	}
	if !v.IsKnown() {
		p := ev.newParam("bound", FromUnresolved, pos, "the loop bound "+ev.src(e), false)
		return Known(p.expr())
	}
	return v
}

// keyName is the variable name part of a storage key.
func keyName(k string) string {
	if i := strings.LastIndexAny(k, ".%#"); i >= 0 {
		return k[i+1:]
	}
	return k
}

// mentions reports whether a value depends on any of the symbols.
func mentions(v Value, syms []string) bool {
	if len(syms) == 0 {
		return false
	}
	for _, a := range v.Alts {
		for _, s := range syms {
			if a.E.Has(s) || formulaMentions(a.Guard, s) {
				return true
			}
		}
	}
	return false
}

// toggles finds the LOGICAL variables the body flips with x = .not. x, in
// one statement at its top level and nowhere else: the direction of a
// sweep that alternates from one step to the next (advect_x). After k
// trips such a value is x0 when k is even and the other when it is odd
// (parity), so the branches on it stay exact.
func (ev *evaluator) toggles(l *apt.Loop, mod []string) map[string]bool {
	modSet := map[string]bool{}
	for _, k := range mod {
		modSet[k] = true
	}
	count := ev.assignCounts(l.Body)
	out := map[string]bool{}
	for _, n := range l.Body {
		b, ok := n.(*apt.Block)
		if !ok {
			continue
		}
		for _, st := range b.Stmts {
			nm, ok := st.Target.(*apt.Name)
			if !ok || st.Kind != apt.StmtAssign || nm.Type.Base != apt.TypeLogical {
				continue
			}
			u, ok := st.Value.(*apt.Unary)
			if !ok || u.Op != apt.OpNot {
				continue
			}
			if x, ok := u.X.(*apt.Name); ok && x.Name == nm.Name {
				k := ev.key(nm.Name)
				// Assigned here only: callees that might set it count as
				// changes the syntactic count does not see.
				if count[k] == 1 && modSet[k] && !ev.setByCalls(l.Body, k) {
					out[k] = true
				}
			}
		}
	}
	return out
}

// setByCalls reports whether a call in body may assign the variable at key.
func (ev *evaluator) setByCalls(body []apt.Node, key string) bool {
	set := map[string]bool{}
	apt.Inspect(&apt.Loop{Body: body}, func(n apt.Node) bool {
		if c, ok := n.(*apt.Call); ok {
			for _, r := range ev.callees(c.Callee) {
				ev.applySummary(r, c.Args, set)
			}
		}
		return true
	})
	return set[key]
}

// parity is (x0 + k) mod 2: a flag x0 in 0..1 flipped k times.
func parity(a []symbolic.Expr) (symbolic.Expr, bool) {
	return symbolic.Modulo(a[0].Add(a[1]), symbolic.Int(2)), true
}

// recurrences finds the variables the body updates only by x = x + c (or
// x = x - c, x = c + x) with c invariant, in one statement at the top level of
// the body. It returns c by storage key.
func (ev *evaluator) recurrences(l *apt.Loop, mod []string) map[string]Value {
	out := map[string]Value{}
	modSet := keySet(mod)
	ev.singleAssignments(l, modSet, func(k string, nm *apt.Name, s *apt.Stmt) {
		bin, ok := s.Value.(*apt.Binary)
		if !ok || (bin.Op != apt.OpAdd && bin.Op != apt.OpSub) {
			return
		}
		var inc apt.Expr
		sign := int64(1)
		if x, ok := bin.X.(*apt.Name); ok && x.Name == nm.Name {
			inc = bin.Y
			if bin.Op == apt.OpSub {
				sign = -1
			}
		} else if y, ok := bin.Y.(*apt.Name); ok && y.Name == nm.Name && bin.Op == apt.OpAdd {
			inc = bin.X
		}
		if inc == nil || ev.exprMentions(inc, modSet) {
			return
		}
		if l.Var != "" && ev.exprMentions(inc, map[string]bool{ev.key(l.Var): true}) {
			return // s = s + 0.5*i: not invariant (the DO variable has no value here)
		}
		if e, ok := ev.value(inc).Single(); ok {
			out[k] = Known(e.Scale(symbolic.RatInt(sign)))
		}
	})
	return out
}

// keySet is the set of keys.
func keySet(keys []string) map[string]bool {
	out := make(map[string]bool, len(keys))
	for _, k := range keys {
		out[k] = true
	}
	return out
}

// singleAssignments calls f for each assignment name = value at the top
// level of l's body to a variable of mod that the body (nested statements
// included) assigns nowhere else: the candidates of a recurrence.
func (ev *evaluator) singleAssignments(l *apt.Loop, mod map[string]bool, f func(k string, nm *apt.Name, s *apt.Stmt)) {
	counts := ev.assignCounts(l.Body)
	for _, n := range l.Body {
		b, ok := n.(*apt.Block)
		if !ok {
			continue
		}
		for _, s := range b.Stmts {
			nm, ok := s.Target.(*apt.Name)
			if !ok || s.Kind != apt.StmtAssign || ev.paramName(nm.Name) != "" {
				continue
			}
			if k := ev.key(nm.Name); counts[k] == 1 && mod[k] {
				f(k, nm, s)
			}
		}
	}
}

// assignCounts counts, by storage key, the assignments to whole variables
// in body, nested statements included (not those of the routines it
// calls).
func (ev *evaluator) assignCounts(body []apt.Node) map[string]int {
	counts := map[string]int{}
	apt.Inspect(&apt.Loop{Body: body}, func(n apt.Node) bool {
		if b, ok := n.(*apt.Block); ok {
			for _, s := range b.Stmts {
				if nm, ok := s.Target.(*apt.Name); ok && s.Kind == apt.StmtAssign {
					counts[ev.key(nm.Name)]++
				}
			}
		}
		return true
	})
	return counts
}

// maxGeometricTrips bounds the trips of a loop whose geometric
// recurrence gets its value after the loop: c^trips has trips times the
// digits of c.
const maxGeometricTrips = 1024

// geometric finds the variables of mod that l's body assigns once, at its
// top level, as x = c*x (or x*c, x/c) with c a constant: the factor c of
// each. Their values after the loop are c^trips times their values before
// it, where the trips are a number.
func (ev *evaluator) geometric(l *apt.Loop, mod []string) map[string]symbolic.Rat {
	var out map[string]symbolic.Rat
	modSet := keySet(mod)
	ev.singleAssignments(l, modSet, func(k string, nm *apt.Name, s *apt.Stmt) {
		bin, ok := s.Value.(*apt.Binary)
		if !ok || bin.IntDiv || (bin.Op != apt.OpMul && bin.Op != apt.OpDiv) {
			return
		}
		var other apt.Expr
		if x, ok := bin.X.(*apt.Name); ok && x.Name == nm.Name {
			other = bin.Y
		} else if y, ok := bin.Y.(*apt.Name); ok && y.Name == nm.Name && bin.Op == apt.OpMul {
			other = bin.X
		}
		if other == nil || ev.exprMentions(other, modSet) {
			return
		}
		e, ok := ev.value(other).Single()
		if !ok {
			return
		}
		c, ok := e.Const()
		if !ok || c.IsZero() {
			return
		}
		if bin.Op == apt.OpDiv {
			c = c.Inv()
		}
		if out == nil {
			out = map[string]symbolic.Rat{}
		}
		out[k] = c
	})
	return out
}

// exprMentions reports whether e reads a variable whose key is in keys, or
// calls a function.
func (ev *evaluator) exprMentions(e apt.Expr, keys map[string]bool) bool {
	found := false
	apt.InspectExpr(e, func(x apt.Expr) bool {
		switch y := x.(type) {
		case *apt.Name:
			if keys[ev.key(y.Name)] {
				found = true
			}
		case *apt.Component:
			if k, ok := ev.refKey(y); ok && (keys[k] || keys[strings.SplitN(k, "%", 2)[0]]) {
				found = true
			}
		case *apt.FuncCall:
			if !y.Intrinsic {
				found = true
			}
		case *apt.Index:
			found = true
		}
		return !found
	})
	return found
}

// hasJumps reports whether a loop body may end an iteration early.
func hasJumps(body []apt.Node) bool {
	found := false
	for _, n := range body {
		apt.Inspect(n, func(n apt.Node) bool {
			switch n.(type) {
			case *apt.Goto, *apt.Cycle, *apt.Exit, *apt.Return, *apt.Stop:
				found = true
			}
			return !found
		})
	}
	return found
}

// gotoIndexFollowed reports whether the index of a computed GO TO is a
// value the same on every rank (a mode given as input, a parameter): its
// branches are then followed as an IF's.
func (ev *evaluator) gotoIndexFollowed(n *apt.If) bool {
	if len(n.Branches) == 0 {
		return false
	}
	b, ok := n.Branches[0].Cond.(*apt.Binary)
	if !ok {
		return false
	}
	v := ev.value(b.X)
	return v.IsKnown() && !mentions(v, []string{Rank})
}

// isExitJump reports whether an arm of an If only jumps forward out of the
// current statement list's loop: its body is one plain GO TO to a label ahead,
// not one of inside, the loop's own (a jump within its body).
func isExitJump(b *apt.Branch, ev *evaluator, inside map[string]bool) bool {
	if len(b.Body) != 1 {
		return false
	}
	g, ok := b.Body[0].(*apt.Goto)
	return ok && g.Kind == apt.GotoPlain && len(g.Targets) == 1 && !inside[g.Targets[0]] && ev.forward(g.Targets[0])
}

// isExit reports whether an arm ends with an EXIT of the innermost loop
// (after what the program does on its way out).
func isExit(b *apt.Branch) bool {
	if len(b.Body) == 0 {
		return false
	}
	x, ok := b.Body[len(b.Body)-1].(*apt.Exit)
	if !ok || x.Construct != "" {
		return false
	}
	for _, n := range b.Body[:len(b.Body)-1] {
		if leaves([]apt.Node{n}) {
			return false
		}
	}
	return true
}

// onlyExitJumps reports whether the only jump of body is the EXIT ending
// the arm of its first top-level IF that ends with one (the exit of a DO
// without control).
func onlyExitJumps(body []apt.Node) bool {
	seen := false
	for _, n := range body {
		if f, ok := n.(*apt.If); ok && !seen && len(f.Branches) > 0 && f.Branches[0].Cond != nil && isExit(f.Branches[0]) {
			seen = true
			if hasJumps(f.Branches[0].Body[:len(f.Branches[0].Body)-1]) {
				return false
			}
			for _, b := range f.Branches[1:] {
				if hasJumps(b.Body) {
					return false
				}
			}
			continue
		}
		if hasJumps([]apt.Node{n}) {
			return false
		}
	}
	return seen
}

// counterExit returns the trip count of a DO without control whose first
// top-level `IF (c) ... EXIT` ends it when a counter reaches a bound:
// c is v >= e (or v > e), possibly or'ed with tests on data (the time of a
// simulation passing its end), v is stepped by a constant c > 0 once per
// trip at the top level of the body and nowhere else, e does not change in
// the loop. The tests on data are taken as never true, and said so: the
// loop runs until the counter reaches the bound.
func (ev *evaluator) counterExit(l *apt.Loop, o *Occ) (Value, bool) {
	none := Value{}
	testAt := -1
	var arm *apt.Branch
	for i, n := range l.Body {
		if f, ok := n.(*apt.If); ok && len(f.Branches) > 0 && f.Branches[0].Cond != nil && isExit(f.Branches[0]) {
			testAt, arm = i, f.Branches[0]
			break
		}
	}
	if arm == nil {
		return none, false
	}
	var parts []apt.Expr
	var split func(e apt.Expr)
	split = func(e apt.Expr) {
		if b, ok := e.(*apt.Binary); ok && b.Op == apt.OpOr {
			split(b.X)
			split(b.Y)
			return
		}
		parts = append(parts, e)
	}
	split(arm.Cond)
	var counter *apt.Name
	var bound apt.Expr
	strict := false
	var data []string
	for _, d := range parts {
		b, ok := d.(*apt.Binary)
		if ok {
			x, y, op := b.X, b.Y, b.Op
			if op == apt.OpLe || op == apt.OpLt { // e <= v is v >= e
				x, y = y, x
				op = map[apt.Op]apt.Op{apt.OpLe: apt.OpGe, apt.OpLt: apt.OpGt}[op]
			}
			if nm, isName := x.(*apt.Name); isName && (op == apt.OpGe || op == apt.OpGt) && nm.Type.Base == apt.TypeInteger && counter == nil {
				counter, bound, strict = nm, y, op == apt.OpGt
				continue
			}
			if nm, c, ok := offsetCounter(x); ok && (op == apt.OpGe || op == apt.OpGt) && counter == nil {
				// v + c >= e is v >= e - c (i + 1 < n exits at n - 1).
				counter, bound, strict = nm, &apt.Binary{Op: apt.OpSub, X: y, Y: c}, op == apt.OpGt
				continue
			}
		}
		if !onData(d) {
			return none, false
		}
		data = append(data, ev.src(d))
	}
	if counter == nil {
		return none, false
	}
	bound, recomputed := ev.invariantBound(l, testAt, bound)
	checked := bound
	if recomputed {
		checked = &apt.Const{Kind: apt.ConstInt, Text: "0"} // (invariant: invariantBound)
	}
	stepAt, step, ok := ev.counterStep(l, counter.Name, checked)
	if !ok || step <= 0 {
		return none, false
	}
	x0, ok1 := ev.load(counter.Name).Single()
	var bv Value
	if recomputed {
		// The calls that give the bound run here once, undone: the
		// loop's own trips make them (i < v.size() calls size() each
		// time).
		snap := ev.snapshot(o)
		bv = ev.closedInt(ev.value(bound), bound.At())
		snap.restore(ev, o)
	} else {
		bv = ev.closedInt(ev.value(bound), bound.At())
	}
	if !ok1 || !bv.IsKnown() {
		return none, false
	}
	// A bound of one value per rank class (a block's extent with the
	// remainder on the first ranks) gives a trip count per class.
	trips, ok := lift1(bv, func(e symbolic.Expr) (symbolic.Expr, bool) {
		need := e.Sub(x0) // steps of c needed to reach e
		if strict {
			need = need.Add(symbolic.Int(1))
		}
		c := symbolic.Int(step)
		k := ceilSteps(need, c)
		if stepAt > testAt {
			k = k.Add(symbolic.Int(1)) // the test sees the count before the step
		}
		return symbolic.Max(k, symbolic.Int(1)), true
	})
	if !ok {
		return none, false
	}
	pos := arm.Span.Start()
	what := fmt.Sprintf("the loop at %s ends when %s reaches %s", l.Span.Start(), counter.Name, ev.src(bound))
	if len(data) > 0 {
		what = fmt.Sprintf("the exit at %s tests data too (%s): taken as never true, so %s", pos, strings.Join(data, ", "), what)
	}
	if !recomputed || len(data) > 0 {
		// (A bound the program computes again on every trip, its
		// size() or its own function, assumes nothing: no note.)
		ev.res.Assumed = appendAssumption(ev.res.Assumed, Assumption{Pos: pos, What: what})
	}
	return trips, true
}

// changedBy is the unknown value of the variable stored at key after (or,
// with varying, during) a loop that changes it; an integer one becomes a
// parameter where a closed form needs it. what has a %s for the name.
func (ev *evaluator) changedBy(key, what string, varying bool) Value {
	name := ev.nameOfKey(key)
	real := true
	if decl := ev.prog.Resolve(ev.frame().routine, name); decl != nil && decl.Type.Base == apt.TypeInteger && !decl.IsArray() {
		real = false
	}
	return Value{unk: &unknown{hint: name, what: strings.Replace(what, "%s", name, 1), real: real, varying: varying}}
}

// charCases is the condition of a SELECT CASE arm on a character selector
// (Fortran 2008 8.1.8.2: a value matches its case, a range lo:hi holds the
// values from lo to hi in the collating order), decided where the selector
// and the case values are text the evaluation knows.
func (ev *evaluator) charCases(n *apt.If, b *apt.Branch) (counting.Formula, bool) {
	sel := ev.value(n.Selector)
	var out counting.Or
	for _, c := range b.Cases {
		if !c.Range {
			f, ok := charRelation(sel, ev.value(c.Lo), apt.OpEq)
			if !ok {
				return nil, false
			}
			out = append(out, f)
			continue
		}
		var parts counting.And
		for _, bound := range []struct {
			e  apt.Expr
			op apt.Op
		}{{c.Lo, apt.OpGe}, {c.Hi, apt.OpLe}} {
			if bound.e == nil {
				continue
			}
			f, ok := charRelation(sel, ev.value(bound.e), bound.op)
			if !ok {
				return nil, false
			}
			parts = append(parts, f)
		}
		out = append(out, parts)
	}
	return out, true
}

// charRelation compares two character values known to be constants, as
// Fortran does: the shorter padded with blanks, in the processor's collating
// order (ASCII here).
func charRelation(a, b Value, op apt.Op) (counting.Formula, bool) {
	if a.str == nil || b.str == nil {
		return nil, false
	}
	x, y := *a.str, *b.str
	for len(x) < len(y) {
		x += " "
	}
	for len(y) < len(x) {
		y += " "
	}
	c := strings.Compare(x, y)
	var t bool
	switch op {
	case apt.OpEq:
		t = c == 0
	case apt.OpNe:
		t = c != 0
	case apt.OpLt:
		t = c < 0
	case apt.OpLe:
		t = c <= 0
	case apt.OpGt:
		t = c > 0
	case apt.OpGe:
		t = c >= 0
	}
	return truth(t), true
}

// stops reports whether a statement list ends the program (STOP,
// MPI_ABORT, or a call of a routine that always does, such as an error
// reporter that prints and aborts): an error check.
func (ev *evaluator) stops(body []apt.Node) bool {
	if len(body) == 0 {
		return false
	}
	switch n := body[len(body)-1].(type) {
	case *apt.Stop:
		return true
	case *apt.Comm:
		return n.Op == apt.MPIAbort
	case *apt.Call:
		if n.Callee == "mpi_abort" || n.Callee == "abort" {
			return true
		}
		if rs := ev.callees(n.Callee); len(rs) > 0 {
			return !slices.ContainsFunc(rs, func(r *apt.Routine) bool { return !ev.alwaysStops(r) })
		}
	case *apt.If:
		// A choice between two ways of failing (C++'s allocation check:
		// one exception for an impossible length, another for too much
		// memory): every arm, the default one included, stops.
		if n.Selector != nil || len(n.Branches) == 0 || n.Branches[len(n.Branches)-1].Cond != nil {
			return false
		}
		for _, b := range n.Branches {
			if !ev.stops(b.Body) && !ev.jumpsToStop(b.Body) {
				return false
			}
		}
		return true
	}
	return false
}

// alwaysStops reports whether every call of r ends the program: its last
// statement (trailing CONTINUE and RETURN aside) stops it.
func (ev *evaluator) alwaysStops(r *apt.Routine) bool {
	if v, ok := ev.stopping[r]; ok {
		return v
	}
	ev.stopping[r] = false // a recursive call does not stop by itself
	body := r.Body
	for len(body) > 0 {
		switch body[len(body)-1].(type) {
		case *apt.Continue, *apt.Return:
			body = body[:len(body)-1]
			continue
		}
		break
	}
	v := ev.stops(body)
	ev.stopping[r] = v
	return v
}

// cheapByRank reports whether a loop of trips iterations is cheap enough
// to be run at every rank of the point: all the runs together within one
// run's budget. A loop that is not run for another reason (its values
// outgrow closed forms) would be tried P times in vain otherwise.
func (ev *evaluator) cheapByRank(l *apt.Loop, trips int64) bool {
	np, ok := ev.values[Size]
	// Inside a loop being run, the whole would be tried once per
	// iteration of the loop around it: the run around it decides.
	return ok && np >= 1 && ev.running == 0 && trips*int64(ev.bodySize(l.Body))*np <= runBudget
}

// byRankCounted runs the counted loop l once per rank (byRank), the ranks
// sharing one run's budget: a loop that is not run for another reason is
// given up soon. The loop itself is run, not its body: its variable is
// one of the values the ranks leave.
func (ev *evaluator) byRankCounted(l *apt.Loop, o *Occ, lower Value, step, n int64, pos apt.Pos) bool {
	np := ev.values[Size]
	saved := ev.runCap
	ev.runCap = max(runBudget/max(np, 1), 1)
	defer func() { ev.runCap = saved }()
	return ev.byRank([]apt.Expr{l.Lower, l.Upper}, []apt.Node{l}, pos, o, func() bool {
		return ev.runOK(l, n) && ev.runCounted(l, o, lower, symbolic.Int(step), n)
	})
}

// testsReadRank reports whether a loop's tests (its control expressions,
// the conditions of the branches and loops of its body, and the values
// the body computes for them) read a value that depends on the rank: the
// tests a run at one rank decides and a run for all ranks cannot (a search
// for the chunk whose number is the rank). Values its body merely
// computes from the rank (a random number generator's seeds) do not count.
func (ev *evaluator) testsReadRank(header []apt.Expr, body []apt.Node) bool {
	return ev.readRank(header, body, false)
}

// controlReadsRank is testsReadRank for the integers alone: tests on
// numbers the program computes from its REAL data (a value out of range)
// are data whichever rank runs them.
func (ev *evaluator) controlReadsRank(body []apt.Node) bool {
	return ev.readRank(nil, body, true)
}

func (ev *evaluator) readRank(header []apt.Expr, body []apt.Node, intsOnly bool) bool {
	need := map[string]bool{}
	addReads := func(e apt.Expr) bool {
		grew := false
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if intsOnly {
				switch apt.TypeOf(x).Base {
				case apt.TypeReal, apt.TypeComplex:
					return false
				}
			}
			var name string
			switch y := x.(type) {
			case *apt.Name:
				name = y.Name
			case *apt.Index:
				name = y.Name
			case *apt.Component:
				// A component of an element (p(k)%n): its own array
				// (fieldRef's key, its subscripts not evaluated here).
				if bi, path, isEl := elementOf(y.Base); isEl && bi.Base == nil {
					if k := ev.key(bi.Name) + "%" + path + y.Field; !need[k] {
						need[k], grew = true, true
					}
				}
			}
			if name != "" {
				if k := ev.key(name); !need[k] {
					need[k], grew = true, true
				}
			}
			return true
		})
		return grew
	}
	for _, e := range header {
		addReads(e)
	}
	var stmts []*apt.Stmt
	for _, n := range body {
		apt.Inspect(n, func(y apt.Node) bool {
			switch x := y.(type) {
			case *apt.Branch:
				addReads(x.Cond)
			case *apt.Loop:
				addReads(x.Lower)
				addReads(x.Upper)
				addReads(x.While)
			case *apt.Block:
				stmts = append(stmts, x.Stmts...)
			}
			return true
		})
	}
	// What the body computes for its tests, to a fixed point.
	for grew := true; grew; {
		grew = false
		for _, st := range stmts {
			var name string
			switch t := st.Target.(type) {
			case *apt.Name:
				name = t.Name
			case *apt.Index:
				name = t.Name
			}
			if name != "" && need[ev.key(name)] && addReads(st.Value) {
				grew = true
			}
		}
	}
	for k := range need {
		if v, ok := ev.env.lookup(k); ok && (mentions(v, []string{Rank}) || v.arr != nil && arrayMentions(v.arr, Rank)) {
			return true
		}
	}
	return false
}

// arrayMentions reports whether an array's elements depend on the symbol
// s: a store's offset, guard or value, or a row per rank of the table a
// concrete run left (s the rank).
func arrayMentions(st *arrayState, s string) bool {
	if st.base != nil && mentions(*st.base, []string{s}) {
		return true
	}
	for _, x := range st.stores {
		if x.off.Has(s) || x.upTo != nil && (*x.upTo).Has(s) || formulaMentions(x.guard, s) || mentions(x.val, []string{s}) {
			return true
		}
	}
	return s == Rank && st.tab != nil && len(st.tab.rows) > 1
}

// onUnresolved reports whether f mentions a value the evaluation could not
// derive (an entry count of assembled data, a trip count on data) or an
// input the point does not fix (a value of the deck): an error check on it
// is one the evaluation cannot decide, taken as passing (the input is
// taken to be valid).
func (ev *evaluator) onUnresolved(f counting.Formula) bool {
	for _, p := range ev.res.Params {
		if (p.Origin == FromUnresolved || p.Origin == FromTripCount || p.Origin == FromRead && p.Value == nil) && formulaMentions(f, p.Name) {
			return true
		}
	}
	return false
}

// jumpsToStop reports whether a statement list ends by a GO TO to an
// error exit of its routine: a labelled statement from which the routine
// only reports (I/O, calls of no routine of the program) and stops (`goto
// 9999` ... `9999 write(*,*) 'no room'; stop`).
func (ev *evaluator) jumpsToStop(body []apt.Node) bool {
	if len(body) == 0 {
		return false
	}
	g, ok := body[len(body)-1].(*apt.Goto)
	if !ok || g.Kind != apt.GotoPlain || len(g.Targets) != 1 {
		return false
	}
	nodes := ev.frame().routine.Body
	for i, n := range nodes {
		if n.Base().Label != g.Targets[0] {
			continue
		}
		for _, m := range nodes[i:] {
			switch x := m.(type) {
			case *apt.Continue, *apt.IO:
			case *apt.Stop:
				return true
			case *apt.Comm:
				if x.Op == apt.MPIAbort {
					return true
				}
				if x.Op != apt.MPIFinalize {
					return false
				}
			case *apt.Call:
				if x.Callee == "mpi_abort" || x.Callee == "abort" || x.Callee == "exit" {
					return true
				}
				if len(ev.callees(x.Callee)) > 0 {
					return false
				}
			default:
				return false
			}
		}
		return false
	}
	return false
}

// leaves reports whether a statement list always ends its path: its last
// statement is a RETURN, STOP, EXIT, GO TO or MPI_ABORT.
func leaves(body []apt.Node) bool {
	if len(body) == 0 {
		return false
	}
	switch n := body[len(body)-1].(type) {
	case *apt.Return, *apt.Stop, *apt.Exit:
		return true
	case *apt.Goto:
		return n.Kind == apt.GotoPlain
	case *apt.Comm:
		return n.Op == apt.MPIAbort
	case *apt.Call:
		return n.Callee == "mpi_abort" || n.Callee == "exit" || n.Callee == "abort"
	}
	return false
}

// exitOnDataInRun marks the loop of unknown trip count being run that the
// EXIT ending the arm b leaves (whileRuns): an exit the evaluation takes as
// never taken leaves its run nothing to end on. An exit on REAL data is
// marked so (exitOnReal): no rank decides it either; one on other values
// (ALL(done) over flags that differ by rank) a run rank by rank may.
func (ev *evaluator) exitOnDataInRun(b *apt.Branch) {
	if len(ev.whileRuns) == 0 {
		return
	}
	x, ok := b.Body[len(b.Body)-1].(*apt.Exit)
	if !ok {
		return
	}
	fl := ev.frame().loops
	for i := len(fl) - 1; i >= 0; i-- {
		if ownsExit(x, fl[i]) {
			if otherExit(fl[i], b) {
				// (The run may end by that one: a do-while joining a
				// step limit and a test of data.)
				return
			}
			if mark, running := ev.whileRuns[fl[i]]; running {
				ev.whileRuns[fl[i]] = max(mark, exitUndecided)
				if testsData(b.Cond) {
					ev.whileRuns[fl[i]] = exitOnReal
				}
			}
			return
		}
	}
}

// otherExit reports whether l may end other than by the arm b: by its DO
// WHILE test or another IF ... EXIT of l at the top level of its body that
// tests no REAL data.
func otherExit(l *apt.Loop, b *apt.Branch) bool {
	if l.While != nil && !testsData(l.While) {
		return true
	}
	for _, n := range l.Body {
		f, ok := n.(*apt.If)
		if !ok {
			continue
		}
		for _, a := range f.Branches {
			if a == b || a.Cond == nil || len(a.Body) == 0 || testsData(a.Cond) {
				continue
			}
			if x, ok := a.Body[len(a.Body)-1].(*apt.Exit); ok && ownsExit(x, l) {
				return true
			}
		}
	}
	return false
}

// An exitMark says what a run of a loop of unknown trip count met at an
// exit of that loop (whileRuns).
type exitMark int8

const (
	exitNone      exitMark = iota
	exitUndecided          // a test the evaluation cannot decide here
	exitOnReal             // a test of REAL data it cannot see
)

// assumeNotTaken records that the arm b, an exit under a condition on data
// the evaluation cannot see, is taken as never taken.
func (ev *evaluator) assumeNotTaken(b *apt.Branch) {
	pos := b.Span.Start()
	for _, a := range ev.res.Assumed {
		if a.Pos == pos {
			return
		}
	}
	cond := "its condition"
	if b.Cond != nil {
		cond = ev.src(b.Cond)
	}
	if ev.stops(b.Body) {
		ev.res.Assumed = append(ev.res.Assumed, Assumption{Pos: pos,
			What: "the error check at " + pos.String() + " (" + cond + ") is one the evaluation cannot decide; the counts take it as passing (the program goes on)"})
		return
	}
	ev.assumeExitNotTaken(pos, cond)
}

// assumeExitNotTaken records that the exit at pos, taken where cond holds,
// a condition on data the evaluation cannot see, is taken as never taken.
func (ev *evaluator) assumeExitNotTaken(pos apt.Pos, cond string) {
	for _, a := range ev.res.Assumed {
		if a.Pos == pos {
			return
		}
	}
	ev.res.Assumed = append(ev.res.Assumed, Assumption{Pos: pos,
		What: "the early exit at " + pos.String() + " (" + cond + ") depends on data the evaluation cannot see; the counts take it as never taken"})
}

// assumeDeckValid records that an error check the program's defaults for
// its input deck fail is taken as passing.
func (ev *evaluator) assumeDeckValid(b *apt.Branch) {
	pos := b.Span.Start()
	cond := "its condition"
	if b.Cond != nil {
		cond = ev.src(b.Cond)
	}
	ev.res.Assumed = appendAssumption(ev.res.Assumed, Assumption{Pos: pos,
		What: "the program's defaults for its input deck fail its check at " + pos.String() + " (" + cond +
			"); a run's deck passes it, so it is taken as passing: give the deck's values with -D"})
}

// freqParam returns the frequency parameter of an arm whose condition the
// evaluation cannot analyse: one per arm, whatever the calling context or
// iteration it is met in.
func (ev *evaluator) freqParam(b *apt.Branch) *Param {
	if p, ok := ev.freq[b]; ok {
		return p
	}
	cond := "else"
	if b.Cond != nil {
		cond = ev.src(b.Cond)
	}
	p := ev.newParam("pct_"+routineTag(ev.frame().routine)+"_"+itoa(b.Span.Line), FromFrequency, b.Span.Start(),
		"how often the branch at "+b.Span.Start().String()+" is taken, in percent ("+cond+")", false)
	// A neutral default, half the time: the analysis says where the
	// frequency matters (analyzer MK3001) and takes this elsewhere.
	half := symbolic.Int(NeutralFrequency)
	p.Default = &half
	ev.freq[b] = p
	return p
}

// onText reports whether a condition compares character values (a parser
// skipping blanks), so that its loop runs over text.
func onText(e apt.Expr) bool {
	found := false
	apt.InspectExpr(e, func(x apt.Expr) bool {
		if b, ok := x.(*apt.Binary); ok && (apt.TypeOf(b.X).Base == apt.TypeCharacter || apt.TypeOf(b.Y).Base == apt.TypeCharacter) {
			found = true
		}
		return !found
	})
	return found
}

// onData reports whether a condition reads real, complex, logical or
// character values (the program's data, a norm, a flag), as opposed to
// integers the evaluation failed to follow.
func onData(e apt.Expr) bool {
	if e == nil {
		return false
	}
	found := false
	apt.InspectExpr(e, func(x apt.Expr) bool {
		switch x.(type) {
		case *apt.Name, *apt.Index, *apt.Component, *apt.FuncCall:
			switch apt.TypeOf(x).Base {
			case apt.TypeReal, apt.TypeComplex, apt.TypeLogical, apt.TypeCharacter:
				found = true
			}
		}
		return !found
	})
	return found
}

// exitsAnnotatedLoop reports whether body ends with an EXIT or CYCLE of a
// loop whose trip count the user gave: the trip count accounts for it.
func (ev *evaluator) exitsAnnotatedLoop(body []apt.Node) bool {
	switch body[len(body)-1].(type) {
	case *apt.Exit, *apt.Cycle:
		fl := ev.frame().loops
		return len(fl) > 0 && fl[len(fl)-1].Iterations != nil
	}
	return false
}

// nameOfKey returns the name the variable stored at key has in the current
// routine: a COMMON member's name there, otherwise the key's last part.
func (ev *evaluator) nameOfKey(key string) string {
	name := keyName(key)
	if rest, ok := strings.CutPrefix(key, "/"); ok {
		blk, idx, _ := strings.Cut(rest, "/#")
		for _, c := range ev.frame().routine.Scope.Commons {
			if i, err := strconv.Atoi(idx); err == nil && c.Name == blk && i < len(c.Vars) {
				name = c.Vars[i]
			}
		}
	}
	return name
}

var debugRuns = os.Getenv("MKVET_DEBUG_RUNS") != ""

// maxProbeNest bounds the probes of loops inside a loop being probed: a
// counter incremented in the innermost of three loops (a halo packed
// element by element, buff_len = buff_len + 1 under loops over i3, i2 and
// i1) has an increment per trip of the outermost only if the middle loop
// is probed inside the outer one's probe. Each level doubles the walks of
// the levels under it, and only variables that are not fresh are probed.
const maxProbeNest = 2

// probeIncrements finds the integer variables that one iteration of l's
// body increases by an amount the iteration does not change, however deep
// in the body the increase is (a counter incremented in an inner loop:
// buff_len = buff_len + 1 inside a loop over i2, in a loop over i3). The
// body is walked once in a sandbox with each candidate a fresh symbol x0 and
// the DO variable a symbol: a candidate that ends the walk as x0 + c, with c
// free of those symbols and of the body's own variables, is a recurrence
// x = x + c. The sandbox is discarded.
func (ev *evaluator) probeIncrements(l *apt.Loop, o *Occ, body *domainState, varValue Value, mod []string, recs map[string]Value) (out map[string]Value, found map[string]search, sums map[string]Value) {
	var cands []string
	// A variable the iteration sets anew before reading it (k1 = k + 1, the
	// variable of a loop inside) never ends as x0 + c: walking the body
	// for it alone would cost a second evaluation of the whole body, at
	// every level of a nest and on every trip of a loop run around it.
	var fresh map[string]bool
	for _, k := range mod {
		if _, ok := recs[k]; ok || ev.paramName(ev.nameOfKey(k)) != "" {
			continue
		}
		if fresh == nil {
			fresh = ev.freshScalars(l, mod)
		}
		if fresh[k] {
			continue
		}
		if _, isArr := ev.env.lookup(k); isArr && ev.env.get(k).arr != nil {
			continue
		}
		d, name := ev.keyDecl(ev.frame().routine, k)
		if d == nil || d.IsArray() || d.Type.Base != apt.TypeInteger || (l.Var != "" && ev.key(l.Var) == k) {
			continue
		}
		if !ev.relevant(ev.frame().routine, name) {
			// Nothing a count or a message depends on reads it: its
			// value after the loop may stay unknown.
			continue
		}
		cands = append(cands, k)
	}
	if debugRuns {
		fmt.Fprintf(os.Stderr, "probe %s cands=%v probing=%d\n", l.Span.Start(), cands, ev.probing)
	}
	if len(cands) == 0 || !ev.mayTry() {
		return nil, nil, nil
	}
	ev.probing++
	defer func() { ev.probing-- }()
	snap := ev.snapshot(o)
	defer snap.restore(ev, o)
	// Arms the probe takes with a frequency are not taken: a run around
	// it may still decide every test (a search over chunks for the one
	// whose number is the rank).
	defer func(uses int) { ev.freqUses = uses }(ev.freqUses)
	saved := ev.cur
	defer func() { ev.cur = saved }()
	syms := map[string]string{}
	for i, k := range cands {
		s := "probe#" + strconv.Itoa(i)
		syms[k] = s
		ev.env.set(k, Known(symbolic.Sym(s)))
	}
	for _, k := range mod {
		if _, ok := syms[k]; ok {
			continue
		}
		ev.env.set(k, ev.changedBy(k, "the value of %s as the loop changes it", true))
	}
	// One symbol per depth of probing: a probe inside another's walk
	// (a nest's inner loop) must not take the outer loop's variable for
	// its own.
	iter := probeIter + strconv.Itoa(ev.probing)
	if l.Var != "" {
		ev.store(l.Var, Known(symbolic.Sym(iter)))
	}
	ev.walkIteration(l, body, o)
	out = map[string]Value{}
	var known *symbolic.Assumptions // what every iteration satisfies (searchFacts)
	facts := func() *symbolic.Assumptions {
		if known == nil {
			known = ev.searchFacts(l, body, varValue, iter)
		}
		return known
	}
	var banned []string // what the increment must not depend on
	banned = append(banned, iter)
	for name := range ev.probedParams {
		banned = append(banned, name)
	}
	for _, t := range syms {
		banned = append(banned, t)
	}
	// Variables of this loop and of loops inside it; an enclosing loop's
	// do not change while this one runs.
	banned = append(banned, ev.cur.vars[min(len(saved.vars), len(ev.cur.vars)):]...)
	banned = append(banned, body.vars[min(len(saved.vars), len(body.vars)):]...)
	for k, s := range syms {
		v := ev.env.get(k)
		if !v.IsKnown() || ev.cur.dead {
			if debugRuns {
				fmt.Fprintf(os.Stderr, "probe %s: %s unknown (dead %v): %+v\n", l.Span.Start(), k, ev.cur.dead, v.unk)
			}
			continue
		}
		// Each alternative x0 + c under a guard that does not change
		// from one iteration to the next.
		var alts []Alt
		for _, a := range v.Alts {
			c := a.E.Sub(symbolic.Sym(s))
			alts = append(alts, Alt{Guard: a.Guard, E: c})
		}
		c := Value{Alts: alts}
		if !mentions(c, banned) {
			out[k] = c
		} else if sf, ok := searchOf(v, iter, s, banned, facts()); ok && l.Var != "" {
			if found == nil {
				found = map[string]search{}
			}
			found[k] = sf
		} else if l.Var != "" && !mentions(c, slices.DeleteFunc(slices.Clone(banned), func(b string) bool { return b == iter })) {
			// A step that depends on the iteration alone (a count
			// under a test on the loop's variable): summed after the
			// loop (countsum.go).
			if c, ok := substValue(c, map[string]symbolic.Expr{iter: symbolic.Sym(stepIter)}); ok {
				if sums == nil {
					sums = map[string]Value{}
				}
				sums[k] = c
			}
		} else if debugRuns {
			fmt.Fprintf(os.Stderr, "probe %s: %s ends as %v (banned %v)\n", l.Span.Start(), k, v.Alts, banned)
		}
	}
	if debugRuns {
		fmt.Fprintf(os.Stderr, "probe %s cands %v found %v sums %v\n", l.Span.Start(), cands, out, sums)
	}
	return out, found, sums
}

// probeIter stands for the loop's variable in a recurrence probe, and
// stepIter in the steps it returns that depend on the iteration.
const (
	probeIter = "probe#var"
	stepIter  = "probe#step"
)

// maxFactorTerms bounds the terms of a path's frequency factor: each
// test on data nested in another's arm multiplies it by a binomial
// (1 - f/100 in an ELSE), so that k nested tests give up to 2^k terms,
// each carried by every count under them (miniAMR's tests on objects
// inside tests on blocks inside loops: millions).
const maxFactorTerms = 64

// neutralFactor is the frequency factor f with the frequencies of the
// tests on data that have no value given taken at their defaults: a
// number, which the counts under it scale by.
func (ev *evaluator) neutralFactor(f symbolic.Expr) symbolic.Expr {
	vals := map[string]symbolic.Rat{}
	syms := f.Symbols()
	for _, p := range ev.res.Params {
		if p.Origin != FromFrequency || p.Default == nil || !slices.Contains(syms, p.Name) {
			continue
		}
		if d, ok := p.Default.Const(); ok {
			vals[p.Name] = d
		}
	}
	if g, err := f.SubstConst(vals); err == nil {
		return g
	}
	return f
}

// NeutralFrequency is the default of a branch frequency parameter, in
// percent.
const NeutralFrequency = 50

// affine is x0 + c*i, the value of a recurrence x = x + c after i steps.
func affine(a []symbolic.Expr) (symbolic.Expr, bool) { return a[0].Add(a[2].Mul(a[1])), true }

// afterLoop returns the unknown value a variable has after the loop at pos:
// one for the variable and the loop, whatever the calling context, so that
// one parameter stands for it.
func (ev *evaluator) afterLoop(key string, pos apt.Pos) Value {
	if len(ev.cur.vars) > 0 {
		// Inside a loop evaluated for all its iterations at once: the
		// value after the inner loop may be another on each of them.
		return ev.changedBy(key, "the value of %s after the loop at "+pos.String(), true)
	}
	mk := ev.nameOfKey(key) + "@" + pos.String()
	if u, ok := ev.afterLoops[mk]; ok {
		return Value{unk: u}
	}
	v := ev.changedBy(key, "the value of %s after the loop at "+pos.String(), false)
	ev.afterLoops[mk] = v.unk
	return v
}

// concreteFirstTrips is the trip count from which a loop at a point that
// computes what control reads is run by the concrete machine before a
// symbolic run is tried.
const concreteFirstTrips = 256

// runRankTrips runs the DO loop l (occurrence o), with a step of one,
// rank by rank where it computes values the counts need; it reports
// whether it did.
func (ev *evaluator) runRankTrips(l *apt.Loop, o *Occ, pos apt.Pos) bool {
	scalars, arrays := ev.computesControl(l)
	if len(scalars) == 0 && !arrays {
		return false
	}
	return ev.byRank([]apt.Expr{l.Lower, l.Upper}, []apt.Node{l}, pos, o, func() bool {
		// The bounds at this rank (a bound the loop reads through an
		// array's shape, size(p), is a case per rank until decided).
		lo, ok1 := ev.closedInt(ev.onThisPath(ev.value(l.Lower)), pos).Single()
		hi, ok2 := ev.closedInt(ev.onThisPath(ev.value(l.Upper)), pos).Single()
		a, c1 := lo.Int64()
		b, c2 := hi.Int64()
		if !ok1 || !ok2 || !c1 || !c2 {
			return false
		}
		n := max(b-a+1, 0)
		return ev.runOK(l, n) && ev.runCounted(l, o, Known(lo), symbolic.Int(1), n)
	})
}

// onThisPath is v's alternative that every rank of the path takes (in a
// run for one rank, the one whose guard that rank meets), else v.
func (ev *evaluator) onThisPath(v Value) Value {
	for _, a := range v.Alts {
		if a.Guard == nil {
			continue
		}
		if t, ok := ev.decideOnPath(a.Guard, ev.cur.conds); ok && t {
			return Known(a.E)
		}
	}
	return v
}

// tripsAtEachRank reports whether the trip count v, of several cases, is
// a number at each rank where P is a number and the rank is not.
func (ev *evaluator) tripsAtEachRank(v Value) bool {
	np, ok := ev.values[Size]
	if _, fixed := ev.values[Rank]; !ok || fixed || np < 1 || np > maxRankSplit || !v.IsKnown() {
		return false
	}
	for r := int64(0); r < np; r++ {
		w, ok := substValue(v, map[string]symbolic.Expr{Rank: symbolic.Int(r), Size: symbolic.Int(np)})
		if !ok {
			return false
		}
		e, ok := w.Single()
		if !ok {
			return false
		}
		if _, isc := e.Int64(); !isc {
			return false
		}
	}
	return true
}

// onRankAlone reports whether e mentions the rank and no symbol but the
// rank and P.
func onRankAlone(e symbolic.Expr) bool {
	syms := e.Symbols()
	hasRank := false
	for _, s := range syms {
		switch s {
		case Rank:
			hasRank = true
		case Size:
		default:
			return false
		}
	}
	return hasRank
}

// counterRange bounds a variable a loop changes only by x = x + c or
// x = x - c (c a constant) outside inner loops, each at most once per
// iteration, whatever the branches taken: after trips iterations from x0 it
// lies between x0 + trips*(the sum of the negative steps) and x0 +
// trips*(the sum of the positive ones).
func (ev *evaluator) counterRange(l *apt.Loop, key string, x0, trips Value) (lo, hi symbolic.Expr, ok bool) {
	start, ok1 := x0.Single()
	t, ok2 := trips.Single()
	if !ok1 || !ok2 {
		return symbolic.Expr{}, symbolic.Expr{}, false
	}
	name := ev.nameOfKey(key)
	var down, up int64
	valid, found := true, false
	var visit func(nodes []apt.Node, inLoop bool)
	visit = func(nodes []apt.Node, inLoop bool) {
		for _, n := range nodes {
			switch x := n.(type) {
			case *apt.Block:
				for _, s := range x.Stmts {
					nm, isName := s.Target.(*apt.Name)
					if s.Kind != apt.StmtAssign || !isName || nm.Name != name {
						continue
					}
					found = true
					c, ok := stepOf(s.Value, name)
					if !ok || inLoop {
						valid = false
						continue
					}
					if c < 0 {
						down += c
					} else {
						up += c
					}
				}
			case *apt.If:
				for _, b := range x.Branches {
					visit(b.Body, inLoop)
				}
			case *apt.Loop:
				visit(x.Body, true)
			case *apt.Call:
				if len(ev.callees(x.Callee)) > 0 {
					for _, a := range x.Args {
						if an, ok := a.(*apt.Name); ok && an.Name == name {
							valid = false
						}
					}
				}
			case *apt.IO:
				if slices.Contains(x.Reads, name) {
					valid = false
				}
			}
		}
	}
	visit(l.Body, false)
	if !valid || !found {
		return symbolic.Expr{}, symbolic.Expr{}, false
	}
	tm := symbolic.Max(t, symbolic.Int(0))
	return start.Add(tm.Mul(symbolic.Int(down))), start.Add(tm.Mul(symbolic.Int(up))), true
}

// subscriptRange bounds a counter that a loop only steps up (x = x + c,
// c > 0, anywhere in its body) and that subscripts a store right after
// every step (nnz = nnz + 1; ...; a(nnz) = v): a conforming program stays
// within the array's bounds, so after the loop the counter lies between
// its start and the larger of its start and the array's upper bound. It
// is how an assembled matrix's entry count is bounded by its storage.
func (ev *evaluator) subscriptRange(body []apt.Node, key string, x0 Value) (lo, hi symbolic.Expr, ok bool) {
	lo0, hi0, ok := rangeOf(x0)
	if !ok {
		return symbolic.Expr{}, symbolic.Expr{}, false
	}
	name := ev.nameOfKey(key)
	var ubs []symbolic.Expr
	valid, found := true, false
	var visit func(nodes []apt.Node)
	visit = func(nodes []apt.Node) {
		pending := false // a step not yet followed by a store through it
		for _, n := range nodes {
			switch x := n.(type) {
			case *apt.Block:
				for _, st := range x.Stmts {
					if ix, ok := st.Target.(*apt.Index); ok && pending && len(ix.Subs) == 1 {
						if sn, ok := ix.Subs[0].(*apt.Name); ok && sn.Name == name && ix.Base == nil {
							if ub, ok := ev.upperBound(ix.Name); ok {
								ubs = append(ubs, ub)
								pending = false
							}
						}
					}
					nm, isName := st.Target.(*apt.Name)
					if st.Kind != apt.StmtAssign || !isName || nm.Name != name {
						continue
					}
					if pending {
						valid = false
					}
					found = true
					if c, ok := stepOf(st.Value, name); !ok || c <= 0 {
						valid = false
					}
					pending = true
				}
			case *apt.If:
				for _, b := range x.Branches {
					if !leaves(b.Body) {
						visit(b.Body)
					}
				}
			case *apt.Loop:
				visit(x.Body)
			case *apt.Call:
				for _, a := range x.Args {
					if an, ok := a.(*apt.Name); ok && an.Name == name {
						valid = false
					}
				}
			case *apt.IO:
				if slices.Contains(x.Reads, name) {
					valid = false
				}
			}
		}
		if pending {
			valid = false
		}
	}
	visit(body)
	if !valid || !found || len(ubs) == 0 {
		return symbolic.Expr{}, symbolic.Expr{}, false
	}
	return lo0, symbolic.Max(append(ubs, hi0)...), true
}

// upperBound is the upper bound of a one-dimensional array's subscript, as
// declared, when the evaluation knows it.
func (ev *evaluator) upperBound(name string) (symbolic.Expr, bool) {
	d := ev.prog.Resolve(ev.frame().routine, name)
	if d == nil || len(d.Dims) != 1 || d.Dims[0].Hi == nil {
		return symbolic.Expr{}, false
	}
	return ev.closedInt(ev.value(d.Dims[0].Hi), d.Dims[0].Hi.At()).Single()
}

// stepOf returns c for x + c, c + x or x - c with c an integer constant.
func stepOf(e apt.Expr, name string) (int64, bool) {
	b, ok := e.(*apt.Binary)
	if !ok || (b.Op != apt.OpAdd && b.Op != apt.OpSub) {
		return 0, false
	}
	isX := func(e apt.Expr) bool { n, ok := e.(*apt.Name); return ok && n.Name == name }
	constOf := constOffset
	switch {
	case isX(b.X):
		c, ok := constOf(b.Y)
		if b.Op == apt.OpSub {
			c = -c
		}
		return c, ok
	case isX(b.Y) && b.Op == apt.OpAdd:
		return constOf(b.X)
	}
	return 0, false
}

// walkIteration walks one iteration of loop l's body from the state body,
// with l on the frame's loop stack as a running loop has it: the probe of
// an iteration that searches and invariance tests make.
func (ev *evaluator) walkIteration(l *apt.Loop, body *domainState, o *Occ) {
	ev.cur = body.clone()
	fr := ev.frame()
	fr.loops = append(fr.loops, l)
	fr.entries = append(fr.entries, body.clone())
	fr.loopFrames = append(fr.loopFrames, nil)
	ev.walk(l.Body, o)
	fr.loops = fr.loops[:len(fr.loops)-1]
	fr.entries = fr.entries[:len(fr.entries)-1]
	fr.loopFrames = fr.loopFrames[:len(fr.loopFrames)-1]
}

// nestsLoops reports whether a loop is among the nodes, at any depth of
// their constructs (not in the routines they call).
func nestsLoops(nodes []apt.Node) bool {
	found := false
	for _, n := range nodes {
		apt.Inspect(n, func(m apt.Node) bool {
			if _, ok := m.(*apt.Loop); ok {
				found = true
			}
			return !found
		})
	}
	return found
}

// ownsExit reports whether x, met at the top level of l's body or of the
// IFs there, leaves l.
func ownsExit(x *apt.Exit, l *apt.Loop) bool {
	return x.Construct == "" || strings.EqualFold(x.Construct, l.Construct)
}
