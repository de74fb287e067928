package symeval

import (
	"maps"
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
)

// The size of a loop nest at a point. Whether a loop that computes what
// later control reads is run by the concrete machine first or walked trip
// by trip depends on the work a run does: a matrix built by a nest of ten
// planes, thirty lines and twenty cells, each with its 27 neighbours,
// takes 162000 iterations, though its outer loop takes ten. nestIters
// estimates that work from the bounds the state already holds as
// numbers or as a run's tables (j < bucket[b]), without evaluating
// anything (no parameter is made): an inner loop's bounds that use an
// outer loop's variable take its first value. It is an estimate, for
// choosing how to evaluate; no count rests on it.

// nestIters returns how many iterations the loops inside body take, in
// all, per execution of body; vars are the enclosing loop variables, at
// their first values. A loop whose bounds are not numbers here counts
// one iteration; a C loop tested against a bound it loads each time (a
// DO WHILE j < e) counts e.
func (ev *evaluator) nestIters(body []apt.Node, vars map[string]int64) int64 {
	var total int64
	for _, n := range body {
		switch x := n.(type) {
		case *apt.Loop:
			trips, lo := int64(1), int64(0)
			if x.Var != "" && x.Lower != nil && x.Upper != nil {
				a, ok1 := ev.quickInt(x.Lower, vars)
				b, ok2 := ev.quickInt(x.Upper, vars)
				st, ok3 := int64(1), true
				if x.Step != nil {
					st, ok3 = ev.quickInt(x.Step, vars)
				}
				if ok1 && ok2 && ok3 && st != 0 {
					trips, lo = max((b-a+st)/st, 0), a
				}
			}
			if b, ok := x.While.(*apt.Binary); ok && (b.Op == apt.OpLt || b.Op == apt.OpLe) {
				// A C loop whose bound is loaded on every test
				// (j < count[b]): about the bound's trips, from 0.
				if n, ok := ev.quickInt(b.Y, vars); ok {
					trips = max(n, 1)
				}
			}
			inner := vars
			if x.Var != "" {
				inner = maps.Clone(vars)
				if inner == nil {
					inner = map[string]int64{}
				}
				inner[x.Var] = lo
			}
			total = satAdd(total, satMul(trips, 1+ev.nestIters(x.Body, inner)))
		case *apt.If:
			var most int64
			for _, b := range x.Branches {
				most = max(most, ev.nestIters(b.Body, vars))
			}
			total = satAdd(total, most)
		}
	}
	return total
}

// firstTrip binds the DO variable of l to its first value, lower, where
// that is a number: what nestIters reads inner bounds at.
func firstTrip(l *apt.Loop, lower Value) map[string]int64 {
	if lo, ok := valueInt(lower); ok && l.Var != "" {
		return map[string]int64{l.Var: lo}
	}
	return nil
}

// quickInt is the value of the integer expression e where every name in it
// is an enclosing loop variable (vars) or a scalar the state holds as one
// number; false otherwise. It evaluates nothing and makes no parameter.
func (ev *evaluator) quickInt(e apt.Expr, vars map[string]int64) (int64, bool) {
	switch x := e.(type) {
	case *apt.Const:
		if x.Kind != apt.ConstInt {
			return 0, false
		}
		n, err := strconv.ParseInt(x.Text, 10, 64)
		return n, err == nil
	case *apt.Name:
		if v, ok := vars[x.Name]; ok {
			return v, true
		}
		if d := ev.prog.Resolve(ev.frame().routine, x.Name); d == nil || d.IsArray() {
			return 0, false
		} else if d.Param != nil {
			return ev.prog.IntConstant(ev.frame().routine, d.Param)
		}
		v, ok := ev.env.lookup(ev.key(x.Name))
		if !ok {
			return 0, false
		}
		return valueInt(v)
	case *apt.Index:
		return ev.quickElement(x, vars)
	case *apt.Unary:
		a, ok := ev.quickInt(x.X, vars)
		switch {
		case !ok:
			return 0, false
		case x.Op == apt.OpNeg:
			return -a, true
		case x.Op == apt.OpPlus:
			return a, true
		}
	case *apt.Binary:
		a, ok1 := ev.quickInt(x.X, vars)
		b, ok2 := ev.quickInt(x.Y, vars)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch x.Op {
		case apt.OpAdd:
			return a + b, true
		case apt.OpSub:
			return a - b, true
		case apt.OpMul:
			return a * b, true
		case apt.OpDiv:
			if b != 0 && x.IntDiv {
				return a / b, true
			}
		}
	}
	return 0, false
}

// quickElement is quickInt of an element of a one-dimensional array held
// as a table (a count a run of the program left, for j < bucket[b]): its
// largest value over the ranks.
func (ev *evaluator) quickElement(ix *apt.Index, vars map[string]int64) (int64, bool) {
	if ix.Base != nil || len(ix.Subs) != 1 {
		return 0, false
	}
	d := ev.prog.Resolve(ev.frame().routine, ix.Name)
	if d == nil || len(d.Dims) != 1 {
		return 0, false
	}
	k, ok := ev.quickInt(ix.Subs[0], vars)
	if !ok {
		return 0, false
	}
	lo := int64(1)
	if d.Dims[0].Lo != nil {
		if lo, ok = ev.quickInt(d.Dims[0].Lo, nil); !ok {
			return 0, false
		}
	}
	k -= lo
	keys := ev.elementKeys(ix.Name)
	if p, isPtr := ev.pointee(ix.Name, d.Type); isPtr && keys[len(keys)-1] == p.key() {
		k += p.off
	}
	v, has := ev.env.lookup(keys[len(keys)-1])
	if !has || v.arr == nil || v.arr.tab == nil {
		return 0, false
	}
	best, found := int64(0), false
	for r := range int64(max(len(v.arr.tab.rows), 1)) {
		row, known := v.arr.tab.row(r)
		if k < 0 || k >= int64(len(row)) || !known[k] {
			return 0, false
		}
		if !found || row[k] > best {
			best, found = row[k], true
		}
	}
	return best, found
}

// satAdd and satMul are + and * that stop at a large bound instead of
// overflowing.
const nestCap = int64(1) << 40

func satAdd(a, b int64) int64 { return min(a+b, nestCap) }

func satMul(a, b int64) int64 {
	if a != 0 && b > nestCap/a {
		return nestCap
	}
	return min(a*b, nestCap)
}
