package symeval

import (
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// whileCounter returns the trip count of DO WHILE (v < e) (or <=, >, >=,
// either side) whose body steps the INTEGER v by a constant c once per
// trip, at its top level and nowhere else, and changes nothing e reads,
// and leaves only by its test: max(0, ceil((e - v0)/c)) trips from v's
// value v0 before the loop, c of the sign that moves v towards e. It is
// the counted form of a C for loop whose bound is read from memory on
// every trip (i < a->len), which clang leaves as a while loop. The
// counter and the bound must be known before the loop: an unknown bound
// keeps the loop's own trip-count parameter. It returns the counter
// too: its name, its value before the loop and its step.
func (ev *evaluator) whileCounter(l *apt.Loop) (Value, whileRow, bool) {
	b, ok := l.While.(*apt.Binary)
	if !ok || exitsLoop(l.Body) || hasJumps(l.Body) {
		return Value{}, whileRow{}, false
	}
	if b.Op == apt.OpAnd {
		return ev.whileCounterAnd(l, b)
	}
	if trips, ok := ev.realWhileCounter(l, b); ok {
		return trips, whileRow{real: true}, true
	}
	flip := map[apt.Op]apt.Op{apt.OpLt: apt.OpGt, apt.OpLe: apt.OpGe, apt.OpGt: apt.OpLt, apt.OpGe: apt.OpLe}
	var counter *apt.Name
	var y apt.Expr
	var op apt.Op
	var step, offset int64
	// Either side may be the counter (e > v is v < e), with a constant
	// offset (v + c < e is v < e - c): the one the body steps.
	for _, o := range [][2]apt.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		x, yy, oo := o[0], o[1], b.Op
		if o[0] == b.Y {
			oo = flip[oo]
		}
		off := int64(0)
		if nm, c, ok := offsetCounter(x); ok {
			if k, ok := constOffset(c); ok {
				x, off = nm, k
			}
		}
		nm, isName := x.(*apt.Name)
		if !isName || nm.Type.Base != apt.TypeInteger || oo == 0 {
			continue
		}
		// A C loop whose test calls a function (i < length(&s), it !=
		// v.end()) runs the call before the loop and again at the end
		// of every trip (the frontend's rotated header): where the call
		// gives the same value on every trip, the bound is the value it
		// has now. (invariantBound has checked what the call reads:
		// nothing is left for counterStep to check of the bound.)
		var inv apt.Expr = yy
		if _, recomputed := ev.invariantBound(l, len(l.Body), yy); recomputed {
			inv = nil
		}
		if _, s, ok := ev.counterStep(l, nm.Name, inv); ok && s != 0 {
			counter, y, op, step, offset = nm, yy, oo, s, off
			break
		}
	}
	if counter == nil {
		return Value{}, whileRow{}, false
	}
	bound := ev.value(y)
	if !bound.IsKnown() {
		return Value{}, whileRow{}, false
	}
	start := ev.load(counter.Name)
	if !start.IsKnown() {
		return Value{}, whileRow{}, false
	}
	row := whileRow{name: counter.Name, start: ev.closedInt(start, counter.Pos), step: step}
	c := symbolic.Int(max(step, -step))
	// A bound or a start of one value per rank class (a block's extent
	// with the remainder on the first ranks) gives a trip count per class.
	trips, ok := lift2(ev.closedInt(bound, y.At()), row.start, func(e, x0 symbolic.Expr) (symbolic.Expr, bool) {
		e = e.Sub(symbolic.Int(offset)) // v + offset < e is v < e - offset
		var need symbolic.Expr          // steps of |c| to make
		switch {
		case op == apt.OpLt && step > 0:
			need = e.Sub(x0)
		case op == apt.OpLe && step > 0:
			need = e.Sub(x0).Add(symbolic.Int(1))
		case op == apt.OpGt && step < 0:
			need = x0.Sub(e)
		case op == apt.OpGe && step < 0:
			need = x0.Sub(e).Add(symbolic.Int(1))
		default:
			return symbolic.Expr{}, false // a counter moving away from its bound
		}
		return symbolic.Max(ceilSteps(need, c), symbolic.Int(0)), true
	})
	return trips, row, ok
}

// whileRow is the counter of a counted DO WHILE: its name, its value
// before the loop and its step; on trip k (from 1) it holds start + (k -
// 1)*step.
type whileRow struct {
	name  string
	start Value
	step  int64
	// data are the operands of a test joined by .AND. on data the
	// evaluation cannot see (whileCounterAnd), taken as holding.
	data []apt.Expr
	// real marks a count of a REAL counter's steps, in the program's
	// floating point: a run in exact arithmetic would miss its rounding.
	real bool
}

// whileCounterAnd counts DO WHILE (.not. converged .and. it < maxit): a
// test joining by .AND. conditions whileCounter counts alone (an INTEGER
// counter's bound, a REAL time's end) and conditions on data (REAL,
// LOGICAL values the loop computes). The count is the least of the
// counted operands'; the data operands are an exit taken as never taken,
// as a DO loop's EXIT on data is (the caller notes it where the count is
// used). A test calling a function of the program, or with an operand
// that is neither, is not counted.
func (ev *evaluator) whileCounterAnd(l *apt.Loop, b *apt.Binary) (Value, whileRow, bool) {
	if callsAny(b) {
		return Value{}, whileRow{}, false
	}
	var trips []Value
	var row whileRow
	real := false
	ops := andOperands(b, nil)
	data, ok := splitOnData(len(ops), func(i int) (apt.Expr, bool) {
		x := ops[i]
		if _, isBin := x.(*apt.Binary); !isBin {
			return x, false
		}
		one := *l
		one.While = x
		t, r, ok := ev.whileCounter(&one)
		if ok {
			trips, row, real = append(trips, t), r, real || r.real
		}
		return x, ok
	})
	if !ok {
		return Value{}, whileRow{}, false
	}
	least := trips[0]
	for _, t := range trips[1:] {
		var ok bool
		if least, ok = lift2(least, t, func(a, b symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Min(a, b), true }); !ok {
			return Value{}, whileRow{}, false
		}
	}
	if len(trips) > 1 {
		row = whileRow{} // the counter that ends the loop is not one
	}
	row.data, row.real = data, real
	return least, row, true
}

// counterStep finds the one step x = x + c (c a constant) of counter at
// the top level of l's body, which changes neither counter elsewhere nor
// anything bound reads: the index of the body's node that holds it, and
// c; false where there is no such step.
func (ev *evaluator) counterStep(l *apt.Loop, counter string, bound apt.Expr) (int, int64, bool) {
	mod := map[string]bool{}
	ev.collectAssigned(l.Body, mod)
	if ev.exprMentions(bound, mod) {
		return 0, 0, false
	}
	// The step may go through a temporary (i3 = i2 + 1, then i2 = i3:
	// the frontend's copy of a loop variable whose name another loop's
	// took), set once, at the top level, before the counter's copy.
	temps := map[string]int64{}
	sets := map[string]int{}
	for _, n := range l.Body {
		apt.Inspect(n, func(m apt.Node) bool {
			if b, ok := m.(*apt.Block); ok {
				for _, st := range b.Stmts {
					if nm, ok := st.Target.(*apt.Name); ok {
						sets[nm.Name]++
					}
				}
			}
			return true
		})
	}
	stepAt, step := -1, int64(0)
	for i, n := range l.Body {
		blk, ok := n.(*apt.Block)
		if !ok {
			continue
		}
		for _, st := range blk.Stmts {
			nm, ok := st.Target.(*apt.Name)
			if !ok {
				continue
			}
			if nm.Name != counter {
				if c, ok := stepOf(st.Value, counter); ok && sets[nm.Name] == 1 && st.Kind == apt.StmtAssign {
					temps[nm.Name] = c
				}
				continue
			}
			c, ok := stepOf(st.Value, counter)
			if src, isName := st.Value.(*apt.Name); !ok && isName {
				c, ok = temps[src.Name]
			}
			if !ok || stepAt >= 0 {
				return 0, 0, false
			}
			stepAt, step = i, c
		}
	}
	if stepAt < 0 {
		return 0, 0, false
	}
	// Nowhere else: the top-level blocks hold the one step found.
	other := map[string]bool{}
	for i, n := range l.Body {
		if i != stepAt {
			ev.collectAssigned([]apt.Node{n}, other)
		}
	}
	if other[ev.key(counter)] {
		return 0, 0, false
	}
	return stepAt, step, true
}

// ceilSteps is ceil(need/c): the steps of c > 0 that cover need.
func ceilSteps(need, c symbolic.Expr) symbolic.Expr {
	return symbolic.FloorDiv(need.Add(c).Sub(symbolic.Int(1)), c)
}

// whileNeedsRun reports whether the trips of the counted DO WHILE l
// compute values control reads later (computesControl), other than its
// counter and the bound its rotated test recomputes: those have closed
// forms (whileCounter), and a run would only repeat them.
func (ev *evaluator) whileNeedsRun(l *apt.Loop) bool {
	own := map[string]bool{}
	for _, x := range andOperands(l.While, nil) {
		b, ok := x.(*apt.Binary)
		if !ok {
			if onData(x) {
				continue // a flag the loop sets: taken as holding
			}
			return true
		}
		for _, e := range []apt.Expr{b.X, b.Y} {
			if nm, _, ok := offsetCounter(e); ok {
				e = nm
			}
			if nm, isName := e.(*apt.Name); isName {
				own[ev.key(nm.Name)] = true
			}
		}
	}
	scalars, arrays := ev.computesControl(l)
	if arrays {
		return true
	}
	for _, k := range scalars {
		if !own[k] {
			return true
		}
	}
	return false
}

// plainBody reports whether nodes, and the routines they call, hold
// straight-line work only: no branch, loop, jump, message or I/O. Its
// trips then differ only in the data they compute (an element loop of
// getters), which counting follows as well as a run; a body that branches
// or communicates on what it reads through the counter (a peer in a list
// of arcs) is run where its trips are few.
func (ev *evaluator) plainBody(nodes []apt.Node, seen map[*apt.Routine]bool) bool {
	plain := true
	for _, n := range nodes {
		apt.Inspect(n, func(m apt.Node) bool {
			if !plain {
				return false
			}
			switch x := m.(type) {
			case *apt.Block:
				for _, st := range x.Stmts {
					ev.calleesOf(st.Value, func(r *apt.Routine) {
						if plain && !seen[r] {
							seen[r] = true
							plain = ev.plainBody(r.Body, seen)
						}
					})
					ev.calleesOf(st.Target, func(r *apt.Routine) {
						if plain && !seen[r] {
							seen[r] = true
							plain = ev.plainBody(r.Body, seen)
						}
					})
				}
			case *apt.Call:
				for _, r := range ev.callees(x.Callee) {
					if plain && !seen[r] {
						seen[r] = true
						plain = ev.plainBody(r.Body, seen)
					}
				}
			case *apt.If, *apt.Loop, *apt.Goto, *apt.Comm, *apt.IO, *apt.Unknown, *apt.Exit, *apt.Cycle, *apt.Stop:
				plain = false
			}
			return plain
		})
	}
	return plain
}

// manyTrips reports whether every value of the trip count t is a constant
// above fewTrips.
func (ev *evaluator) manyTrips(t Value) bool {
	for _, a := range t.Alts {
		if n, ok := a.E.Int64(); !ok || n <= fewTrips {
			return false
		}
	}
	return len(t.Alts) > 0
}

// fewTrips is the most trips of a counted DO WHILE that is run rather
// than counted where its trips compute nothing control reads.
const fewTrips = 64

// constOffset is the value of an integer constant or its negation (the
// offset offsetCounter returns, the step of k = k + -1 as the C frontend
// writes --k); a Fortran constant's kind suffix (1_8) is left out.
func constOffset(c apt.Expr) (int64, bool) {
	neg := false
	if u, ok := c.(*apt.Unary); ok && u.Op == apt.OpNeg {
		c, neg = u.X, true
	}
	k, ok := c.(*apt.Const)
	if !ok || k.Kind != apt.ConstInt {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(strings.SplitN(k.Text, "_", 2)[0]), 10, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}
