package symeval

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// signValue evaluates SIGN(a, b) (ISIGN) of INTEGER arguments: |a| where
// b >= 0, -|a| where b < 0, as aptrun computes it. The result is a value
// by case on b's sign, one alternative where b's sign is decided (a sweep
// direction that a run makes a number). A REAL b may be a negative zero,
// which the exact algebra does not tell from zero: REAL arguments are left
// to the generic path (an unknown).
func (ev *evaluator) signValue(f *apt.FuncCall, args []Value) (Value, bool) {
	if f.Name != "sign" && f.Name != "isign" || len(args) != 2 {
		return Value{}, false
	}
	for _, a := range f.Args {
		if apt.TypeOf(a).Base != apt.TypeInteger {
			return Value{}, false
		}
	}
	a, b := args[0], args[1]
	if !a.IsKnown() || !b.IsKnown() || a.arr != nil || b.arr != nil {
		return Value{}, false
	}
	abs, ok := lift1(a, func(x symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Abs(x), true })
	if !ok {
		return Value{}, false
	}
	neg, ok := lift1(abs, func(x symbolic.Expr) (symbolic.Expr, bool) { return x.Neg(), true })
	if !ok {
		return Value{}, false
	}
	nonNeg, ok := relation(b, Known(symbolic.Int(0)), apt.OpGe)
	if !ok {
		return Value{}, false
	}
	if t, dec := ev.decideHere(nonNeg); dec {
		if t {
			return abs, true
		}
		return neg, true
	}
	v := ev.choose(nonNeg, abs, neg)
	return v, v.IsKnown()
}
