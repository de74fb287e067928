package symeval

import (
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// boundedExit finds, in the body of a counted DO with step 1, an exit its
// own variable decides: a top-level `IF (v >= e) EXIT` (or v > e, e <= v,
// e < v; C's `if (i >= m) break;`) with e a value the body does not
// change. The exit is taken on the first trip with v >= e, so the DO runs
// as DO v = lo, min(hi, max(lo, e)), the test true on its last trip only
// where e <= hi; the statements after the IF skip that trip by the IF's
// own condition. It returns the bound e the exit sets, the EXIT, and
// whether there is such an exit.
func (ev *evaluator) boundedExit(l *apt.Loop) (symbolic.Expr, *apt.Exit, bool) {
	var mod []string
	for _, n := range l.Body {
		f, ok := n.(*apt.If)
		if !ok || f.Kind != apt.IfBlock && f.Kind != apt.IfLogical || len(f.Branches) != 1 || len(f.Branches[0].Body) != 1 {
			continue
		}
		x, ok := f.Branches[0].Body[0].(*apt.Exit)
		if !ok || x.Construct != "" && x.Construct != l.Construct {
			continue
		}
		rel, ok := f.Branches[0].Cond.(*apt.Binary)
		if !ok {
			return symbolic.Expr{}, nil, false
		}
		side, op := rel.Y, rel.Op
		if nm, isName := rel.Y.(*apt.Name); isName && nm.Name == l.Var {
			// e op v: v with the operator turned around.
			side = rel.X
			op = map[apt.Op]apt.Op{apt.OpLe: apt.OpGe, apt.OpLt: apt.OpGt}[rel.Op]
		} else if nm, isName := rel.X.(*apt.Name); !isName || nm.Name != l.Var {
			return symbolic.Expr{}, nil, false
		}
		if op != apt.OpGe && op != apt.OpGt {
			return symbolic.Expr{}, nil, false
		}
		// The bound must be what it is on every trip.
		if mod == nil {
			mod = ev.modified(l.Body)
		}
		invariant := true
		apt.InspectExpr(side, func(e apt.Expr) bool {
			switch y := e.(type) {
			case *apt.Name:
				invariant = invariant && !y.Array && y.Name != l.Var && !slices.Contains(mod, ev.key(y.Name))
			case *apt.Index, *apt.Component, *apt.FuncCall:
				invariant = false
			}
			return invariant
		})
		if !invariant {
			return symbolic.Expr{}, nil, false
		}
		e, ok := ev.closedInt(ev.value(side), side.At()).Single()
		if !ok {
			return symbolic.Expr{}, nil, false
		}
		if op == apt.OpGt {
			e = e.Add(symbolic.Int(1))
		}
		return e, x, true
	}
	return symbolic.Expr{}, nil, false
}
