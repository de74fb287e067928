package symeval

import (
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// maxRealTrips bounds the trips realWhileCounter steps a REAL counter
// through: beyond it the loop keeps its trip-count parameter.
const maxRealTrips = 1 << 24

// realWhileCounter counts DO WHILE (t < t_end) whose body steps the REAL t
// by a value it does not change (t = t + dt), once per trip at its top
// level and nowhere else, and changes nothing the bound reads: a time loop.
// The count is the run's own: t steps in its precision (IEEE single or
// double, as compilers on x86-64 compute), so 0.1 added ten times falls
// short of 1 and the loop runs an eleventh trip. Both sides may hold the
// counter; a negative step counts down to a lower bound.
func (ev *evaluator) realWhileCounter(l *apt.Loop, b *apt.Binary) (Value, bool) {
	flip := map[apt.Op]apt.Op{apt.OpLt: apt.OpGt, apt.OpLe: apt.OpGe, apt.OpGt: apt.OpLt, apt.OpGe: apt.OpLe}
	counter, bound, op := realName(b.X), b.Y, b.Op
	if counter == nil {
		counter, bound, op = realName(b.Y), b.X, flip[b.Op]
	}
	if counter == nil || op == 0 {
		return Value{}, false
	}
	mod := map[string]bool{}
	ev.collectAssigned(l.Body, mod)
	if ev.exprMentions(bound, mod) {
		return Value{}, false
	}
	stepE, ok := ev.realStep(l, counter.Name, mod)
	if !ok {
		return Value{}, false
	}
	t0, ok1 := ev.realConst(ev.load(counter.Name), counter.Type)
	dt, ok2 := ev.realConst(ev.value(stepE), apt.TypeOf(stepE))
	te, ok3 := ev.realConst(ev.value(bound), apt.TypeOf(bound))
	if !ok1 || !ok2 || !ok3 {
		return Value{}, false
	}
	holds := realTest(op, te)
	if dt == 0 || (op == apt.OpLt || op == apt.OpLe) != (dt > 0) {
		return Value{}, false // a counter that never reaches its bound
	}
	single := singleReal(counter.Type)
	t, trips := t0, int64(0)
	for ; holds(t); trips++ {
		if trips >= maxRealTrips {
			return Value{}, false
		}
		if t += dt; single {
			t = float64(float32(t))
		}
	}
	return Known(symbolic.Int(trips)), true
}

// realName is e when it is a REAL scalar variable.
func realName(e apt.Expr) *apt.Name {
	nm, ok := e.(*apt.Name)
	if !ok || nm.Array || nm.Type.Base != apt.TypeReal {
		return nil
	}
	return nm
}

// realStep returns e of the one statement counter = counter + e (or e +
// counter, counter - e as a step of -e) at the top level of l's body, e
// reading nothing the loop changes (mod), where nothing else in the loop
// changes counter.
func (ev *evaluator) realStep(l *apt.Loop, counter string, mod map[string]bool) (apt.Expr, bool) {
	var step apt.Expr
	for i, n := range l.Body {
		blk, ok := n.(*apt.Block)
		if !ok {
			continue
		}
		for si, st := range blk.Stmts {
			nm, ok := st.Target.(*apt.Name)
			if !ok || nm.Name != counter || st.Kind != apt.StmtAssign {
				continue
			}
			a, ok := st.Value.(*apt.Binary)
			if !ok || step != nil {
				return nil, false
			}
			isC := func(e apt.Expr) bool { x, ok := e.(*apt.Name); return ok && x.Name == counter }
			switch {
			case a.Op == apt.OpAdd && isC(a.X):
				step = a.Y
			case a.Op == apt.OpAdd && isC(a.Y):
				step = a.X
			case a.Op == apt.OpSub && isC(a.X):
				step = &apt.Unary{Op: apt.OpNeg, X: a.Y}
			default:
				return nil, false
			}
			// Nothing else in the loop changes the counter.
			rest := slices.Clone(l.Body)
			without := *blk
			without.Stmts = slices.Delete(slices.Clone(blk.Stmts), si, si+1)
			rest[i] = &without
			other := map[string]bool{}
			ev.collectAssigned(rest, other)
			if other[ev.key(counter)] || ev.exprMentions(step, mod) {
				return nil, false
			}
		}
	}
	return step, step != nil
}

// realConst is v's value as the program holds it in a variable of type t:
// rounded to single precision for a default REAL, finite.
func (ev *evaluator) realConst(v Value, t apt.Type) (float64, bool) {
	e, ok := v.Single()
	if !ok {
		return 0, false
	}
	r, ok := e.Const()
	if !ok {
		return 0, false
	}
	f := heldAs(r, t)
	return f, finite(f)
}

// singleReal reports whether t is a single-precision REAL.
func singleReal(t apt.Type) bool {
	return t.Base == apt.TypeReal && t.Kind == 4
}

// realClockExit finds, as the first top-level IF of l's body whose arm
// ends with an EXIT of l, a test of a REAL clock against a bound the loop
// does not change (t = t + dt; IF (t >= t_end) EXIT): the clock stepped as
// realWhileCounter steps it, in the run's precision, before or after the
// test as the body orders them. It returns the trip (from 1) on which the
// exit is taken, the IF's arm and its EXIT.
func (ev *evaluator) realClockExit(l *apt.Loop) (int64, *apt.Branch, *apt.Exit, bool) {
	ifAt := -1
	var arm *apt.Branch
	for i, n := range l.Body {
		f, ok := n.(*apt.If)
		if !ok || f.Kind != apt.IfBlock && f.Kind != apt.IfLogical || len(f.Branches) != 1 {
			continue
		}
		if b := f.Branches[0]; b.Cond != nil && isExit(b) {
			ifAt, arm = i, b
			break
		}
	}
	if arm == nil {
		return 0, nil, nil, false
	}
	rel, ok := arm.Cond.(*apt.Binary)
	if !ok {
		return 0, nil, nil, false
	}
	flip := map[apt.Op]apt.Op{apt.OpLt: apt.OpGt, apt.OpLe: apt.OpGe, apt.OpGt: apt.OpLt, apt.OpGe: apt.OpLe}
	counter, bound, op := realName(rel.X), rel.Y, rel.Op
	if counter == nil {
		counter, bound, op = realName(rel.Y), rel.X, flip[rel.Op]
	}
	if counter == nil || op == 0 {
		return 0, nil, nil, false
	}
	mod := map[string]bool{}
	ev.collectAssigned(l.Body, mod)
	if ev.exprMentions(bound, mod) {
		return 0, nil, nil, false
	}
	stepE, ok := ev.realStep(l, counter.Name, mod)
	if !ok {
		return 0, nil, nil, false
	}
	stepAt := slices.IndexFunc(l.Body, func(n apt.Node) bool {
		blk, ok := n.(*apt.Block)
		return ok && slices.ContainsFunc(blk.Stmts, func(s *apt.Stmt) bool {
			nm, ok := s.Target.(*apt.Name)
			return ok && nm.Name == counter.Name
		})
	})
	t0, ok1 := ev.realConst(ev.load(counter.Name), counter.Type)
	dt, ok2 := ev.realConst(ev.value(stepE), apt.TypeOf(stepE))
	te, ok3 := ev.realConst(ev.value(bound), apt.TypeOf(bound))
	if !ok1 || !ok2 || !ok3 || stepAt < 0 || dt == 0 {
		return 0, nil, nil, false
	}
	holds := realTest(op, te)
	single := singleReal(counter.Type)
	step := func(t float64) float64 {
		if t += dt; single {
			t = float64(float32(t))
		}
		return t
	}
	t := t0
	for trip := int64(1); trip <= maxRealTrips; trip++ {
		if stepAt < ifAt {
			t = step(t)
		}
		if holds(t) {
			return trip, arm, arm.Body[len(arm.Body)-1].(*apt.Exit), true
		}
		if stepAt > ifAt {
			t = step(t)
		}
	}
	return 0, nil, nil, false
}

// realTest is the test t op te of a REAL clock against its bound.
func realTest(op apt.Op, te float64) func(float64) bool {
	return func(t float64) bool {
		switch op {
		case apt.OpLt:
			return t < te
		case apt.OpLe:
			return t <= te
		case apt.OpGt:
			return t > te
		case apt.OpGe:
			return t >= te
		}
		return false
	}
}
