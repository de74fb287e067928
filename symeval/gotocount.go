package symeval

import (
	"slices"
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
// are known. Nothing else in the loop may change one: the loop without its
// step must not modify it (ev.modified: assignments, READs, I/O status
// items, calls through their summaries).
func (ev *evaluator) gotoCounters(seg []apt.Node) []gotoCounter {
	var out []gotoCounter
	head := true // before the loop's first statement other than CONTINUE
	skipTo := innerJumps(seg)
	for ni, n := range seg[:len(seg)-1] {
		if _, isCont := n.(*apt.Continue); isCont && head {
			continue
		}
		if f, isIf := n.(*apt.If); isIf && head && len(f.Branches) == 1 && isExitJump(f.Branches[0], ev, labelsIn(seg)) {
			// The loop's test at its head (20 IF (I .GT. N) GOTO 40):
			// every run that goes on passes it.
			head = false
			continue
		}
		head = false
		if hasJumps([]apt.Node{n}) && skipTo[ni] < 0 {
			break // statements after a jump may be skipped on a run
		}
		if slices.ContainsFunc(skipTo[:ni], func(t int) bool { return t > ni }) {
			continue // a jump forward within the loop passes it on some runs
		}
		b, ok := n.(*apt.Block)
		if !ok {
			continue
		}
		for si, s := range b.Stmts {
			nm, ok := s.Target.(*apt.Name)
			if !ok || s.Kind != apt.StmtAssign || nm.Array || nm.Type.Base != apt.TypeInteger || ev.paramName(nm.Name) != "" {
				continue
			}
			step, ok := stepOf(s.Value, nm.Name)
			if !ok || step == 0 {
				continue
			}
			d := ev.prog.Resolve(ev.frame().routine, nm.Name)
			key := ev.key(nm.Name)
			if d == nil || d.Pointer || d.Target || !ev.frameLocal(key) {
				// Storage a routine may reach without an argument.
				continue
			}
			rest := slices.Clone(seg)
			without := *b
			without.Stmts = slices.Delete(slices.Clone(b.Stmts), si, si+1)
			rest[ni] = &without
			if slices.Contains(ev.modified(rest), key) {
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

// innerJumps returns, for each statement of the loop seg at its top level,
// the index of the furthest statement its jumps reach within the loop's
// body: a jump forward to a label of the body skips the statements before
// it, one back to a label of the body but the head is an inner loop's, which
// the statements after it follow on every run. It is -1 for a statement
// that may leave the run (a GO TO out of the loop or back to its head, an
// EXIT, a CYCLE, a RETURN, a STOP), 0 for one without jumps.
func innerJumps(seg []apt.Node) []int {
	at := map[string]int{}
	for i, n := range seg[:len(seg)-1] {
		if l := n.Base().Label; l != "" {
			at[l] = i
		}
	}
	out := make([]int, len(seg))
	for ni, n := range seg {
		apt.Inspect(n, func(x apt.Node) bool {
			if out[ni] < 0 {
				return false
			}
			switch g := x.(type) {
			case *apt.Goto:
				for _, t := range g.Targets {
					if i, in := at[t]; in && i > 0 {
						out[ni] = max(out[ni], i)
					} else {
						out[ni] = -1
					}
				}
			case *apt.Cycle, *apt.Exit, *apt.Return, *apt.Stop:
				out[ni] = -1
			}
			return out[ni] >= 0
		})
	}
	return out
}

// frameLocal reports whether the storage at key is a local variable of a
// routine on the call stack (a dummy argument's is its caller's), not in
// COMMON or saved: no routine reaches it but through an argument.
func (ev *evaluator) frameLocal(key string) bool {
	if strings.HasPrefix(key, "/") {
		return false // COMMON
	}
	d, _ := ev.ownerOfKey(key)
	return d != nil && !d.InCommon && !d.Save && d.Init == nil
}

// solveTrips returns the runs of a loop built from GO TO whose test at the
// bottom goes back while test holds, test a condition on the run number k
// alone (its counters' values): the first run at which it fails. A test
// of relations linear in k (a counter against its bound) is solved in
// closed form, however many the runs; another is decided run by run. It
// fails when the test mentions anything else, or holds past maxRunTrips
// runs.
func solveTrips(test counting.Formula, k string) (int64, bool) {
	if test == nil {
		return 0, false
	}
	if run, ok := firstFailure(test, k); ok {
		return run, true
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

// firstFailure is the first run k >= 1 at which f fails, for f a
// conjunction of relations linear in k that hold up to a run and fail from
// it on (a*k + b >= 0 or > 0 with a < 0, a*k + b /= 0 with its root a
// whole run); false for anything else, and for a test that never fails.
func firstFailure(f counting.Formula, k string) (int64, bool) {
	switch x := f.(type) {
	case counting.And:
		best, found := int64(0), false
		for _, g := range x {
			run, ok := firstFailure(g, k)
			if !ok {
				return 0, false
			}
			if !found || run < best {
				best, found = run, true
			}
		}
		return best, found
	case counting.Rel:
		v, a, b, ok := x.R.E.LinearOne()
		if !ok || v != k || a.Sign() >= 0 {
			return 0, false
		}
		at := b.Quo(a.Neg()) // the relation's edge: a*k + b == 0
		var run symbolic.Rat
		switch x.R.Op {
		case symbolic.GE: // holds while k <= at
			run = at.Floor().Add(symbolic.RatInt(1))
		case symbolic.GT: // holds while k < at
			run = at.Neg().Floor().Neg() // ceil(at)
		default:
			return 0, false
		}
		n, ok := run.Int64()
		return max(n, 1), ok
	case counting.Not:
		// .not. e >= 0 is -e > 0, .not. e > 0 is -e >= 0; .not. of a
		// disjunction is the conjunction of the .not.s.
		if or, isOr := x.F.(counting.Or); isOr {
			and := make(counting.And, len(or))
			for i, g := range or {
				and[i] = counting.Not{F: g}
			}
			return firstFailure(and, k)
		}
		r, ok := x.F.(counting.Rel)
		if !ok {
			return 0, false
		}
		switch r.R.Op {
		case symbolic.GE:
			return firstFailure(counting.Rel{R: symbolic.Relation{E: r.R.E.Neg(), Op: symbolic.GT}}, k)
		case symbolic.GT:
			return firstFailure(counting.Rel{R: symbolic.Relation{E: r.R.E.Neg(), Op: symbolic.GE}}, k)
		case symbolic.EQ:
		default:
			return 0, false
		}
		v, a, b, ok := r.R.E.LinearOne()
		if !ok || v != k || a.IsZero() {
			return 0, false
		}
		root := b.Neg().Quo(a)
		n, ok := root.Int64()
		if !ok || !root.IsInt() || n < 1 {
			return 0, false // a counter that steps over its bound
		}
		return n, true
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
	if callsAny(b.Cond) {
		return 0, false
	}
	f, kname, ok := ev.condOnRun(seg, counters, b.Cond, 0)
	if !ok {
		return 0, false
	}
	return solveTrips(f, kname)
}

// condOnRun evaluates cond, a test of the loop seg built from GO TO, on
// its run k (the name returned): every value the loop changes unknown, its
// counters at start + (k - before)*step (before 0 after their steps, 1
// before them).
func (ev *evaluator) condOnRun(seg []apt.Node, counters []gotoCounter, cond apt.Expr, before int64) (counting.Formula, string, bool) {
	pos := seg[0].Base().Span.Start()
	for _, key := range ev.modified(seg) {
		ev.env.set(key, ev.changedBy(key, "the value of %s as the loop at "+pos.String()+" changes it", true))
	}
	kname := ev.loopVarName("k")
	k := symbolic.Sym(kname)
	for _, c := range counters {
		ev.env.set(c.key, Known(c.start.Add(c.step.Mul(k.Sub(symbolic.Int(before))))))
	}
	f, ok := ev.cond(cond)
	return f, kname, ok
}

// testConjunct is one .AND. operand of the test at the bottom of a loop
// built from GO TO, as evaluated on run k.
type testConjunct struct {
	e  apt.Expr
	f  counting.Formula
	ok bool
}

// andOperands appends the operands of e's .AND.s, however nested, to dst.
func andOperands(e apt.Expr, dst []apt.Expr) []apt.Expr {
	if b, ok := e.(*apt.Binary); ok && b.Op == apt.OpAnd {
		return andOperands(b.Y, andOperands(b.X, dst))
	}
	return append(dst, e)
}

// testConjuncts evaluates the .AND. operands of a bottom test: none when
// there is one, or when the test calls a user function (it would run a
// second time).
func (ev *evaluator) testConjuncts(e apt.Expr) []testConjunct {
	ops := andOperands(e, nil)
	if len(ops) < 2 || callsAny(e) {
		return nil
	}
	out := make([]testConjunct, len(ops))
	for i, x := range ops {
		f, ok := ev.cond(x)
		out[i] = testConjunct{e: x, f: f, ok: ok}
	}
	return out
}

// counterBound returns the runs of a loop built from GO TO whose bottom test
// is a conjunction of conditions on the run k alone (its counters, known
// values) and on data the evaluation cannot see (a convergence test: res >
// eps .and. it < itmax): the first run at which the former fail. The data
// operands, returned, are an early exit taken as never taken, as a DO
// loop's EXIT on data is. Any other operand (an integer the loop computes)
// leaves the count to the walk; so does a disjunction, which its counter
// operands do not bound.
func counterBound(conjs []testConjunct, k string) (int64, []apt.Expr, bool) {
	var counter counting.And
	data, ok := splitOnData(len(conjs), func(i int) (apt.Expr, bool) {
		c := conjs[i]
		if c.ok && len(formulaSymbolsBut(c.f, []string{k}, nil)) == 0 {
			counter = append(counter, c.f)
			return c.e, true
		}
		return c.e, false
	})
	if !ok || len(data) == 0 {
		return 0, nil, false
	}
	n, ok := solveTrips(counter, k)
	return n, data, ok
}

// splitOnData sorts the n operands of a loop test joined by .AND. into
// those counted(i) counts (keeping what it needs) and those on data the
// evaluation cannot see, returned. It fails when an operand is neither,
// or none is counted: a loop test bounded by its counters alone, the data
// operands taken as never ending it (counterBound, whileCounterAnd).
func splitOnData(n int, counted func(i int) (apt.Expr, bool)) ([]apt.Expr, bool) {
	var data []apt.Expr
	nc := 0
	for i := range n {
		x, ok := counted(i)
		switch {
		case ok:
			nc++
		case onData(x):
			data = append(data, x)
		default:
			return nil, false
		}
	}
	return data, nc > 0
}

// assumeDataNotExiting records that the loop's bottom test (last, going
// back to label) leaving where one of its data operands fails is taken as
// never leaving so.
func (ev *evaluator) assumeDataNotExiting(last apt.Node, label string, data []apt.Expr) {
	b := condJumpTo(last, label)
	if b == nil || len(data) == 0 {
		return
	}
	ev.assumeExitNotTaken(b.Span.Start(), ev.src(exitOnData(data)))
}

// exitOnData is the condition under which a test joining data operands by
// .AND. fails on their account: .not. d1 .or. .not. d2 ...
func exitOnData(data []apt.Expr) apt.Expr {
	var exit apt.Expr
	for _, d := range data {
		x := negation(d)
		if exit != nil {
			x = &apt.Binary{Op: apt.OpOr, X: exit, Y: x}
		}
		exit = x
	}
	return exit
}

// negation is .not. e as a reader writes it: the operand of a .not., the
// opposite relation.
func negation(e apt.Expr) apt.Expr {
	opposite := map[apt.Op]apt.Op{apt.OpLt: apt.OpGe, apt.OpGe: apt.OpLt, apt.OpLe: apt.OpGt, apt.OpGt: apt.OpLe, apt.OpEq: apt.OpNe, apt.OpNe: apt.OpEq}
	switch x := e.(type) {
	case *apt.Unary:
		if x.Op == apt.OpNot {
			return x.X
		}
	case *apt.Binary:
		if op, ok := opposite[x.Op]; ok {
			y := *x
			y.Op = op
			return &y
		}
	}
	return &apt.Unary{Op: apt.OpNot, X: e}
}

// headExit returns the loop's test at its head, the first statement of
// seg after CONTINUEs, when it is an IF whose one arm only jumps forward
// out of the loop (20 IF (I .GT. N) GOTO 40), and the loop goes back by a
// plain GO TO at its end.
func (ev *evaluator) headExit(seg []apt.Node, label string) *apt.Branch {
	g, ok := seg[len(seg)-1].(*apt.Goto)
	if !ok || g.Kind != apt.GotoPlain || len(g.Targets) != 1 || g.Targets[0] != label {
		return nil
	}
	for _, n := range seg[:len(seg)-1] {
		if _, isCont := n.(*apt.Continue); isCont {
			continue
		}
		if f, isIf := n.(*apt.If); isIf && len(f.Branches) == 1 && f.Branches[0].Cond != nil && isExitJump(f.Branches[0], ev, labelsIn(seg)) {
			return f.Branches[0]
		}
		return nil
	}
	return nil
}

// presolveGotoTop counts the runs of a loop built from GO TO whose test is
// at its head (headExit): the first run k at which the exit condition
// holds, with every value the loop changes unknown and its counters at
// their values on run k (start + (k-1)*step, before their steps). The
// head runs that many times, the rest of the body one time fewer. A
// condition on anything but the counters is left to the walk. The caller
// restores the state.
func (ev *evaluator) presolveGotoTop(seg []apt.Node, label string, counters []gotoCounter) (int64, bool) {
	b := ev.headExit(seg, label)
	if b == nil || callsAny(b.Cond) {
		return 0, false
	}
	f, kname, ok := ev.condOnRun(seg, counters, b.Cond, 1)
	if !ok {
		return 0, false
	}
	// The runs go on while the exit condition fails.
	return solveTrips(counting.Not{F: f}, kname)
}
