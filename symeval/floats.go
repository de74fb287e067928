package symeval

import (
	"math"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// The evaluation takes REAL arithmetic exactly, as rationals: 0.1 is 1/10.
// Where a REAL value becomes an INTEGER (INT, FLOOR, NINT, an assignment to
// an INTEGER variable, C's cast) the run's rounding can move the result by
// one: INT(0.3D0/0.1D0) is 2 in the run (the quotient is
// 2.9999999999999996), 3 exactly; INT(LOG(1000D0)/LOG(10D0)) is 2. A
// comparison of REALs can go the other way: 0.1D0 + 0.2D0 > 0.3D0. There,
// when the exact value is a number, the expression is computed again as
// the run computes it: each operation in its operands' precision (IEEE
// double, or single for a default REAL), from the values the program's
// variables hold, each rounded to its variable's precision.

// floatOf computes e in floating point as the run does; false where an
// operand is no number, of a precision that is not known, or an operation
// that is not one of IEEE's correctly rounded ones or a conversion (the
// libraries' LOG and EXP are taken as Go's, within an ulp of them).
func (ev *evaluator) floatOf(e apt.Expr) (float64, bool) {
	switch x := e.(type) {
	case *apt.Const:
		if x.Kind != apt.ConstInt && x.Kind != apt.ConstReal {
			return 0, false
		}
		return ev.leafFloat(e)
	case *apt.Name, *apt.Index, *apt.Component:
		if ev.cPointers() && ev.isPointerRef(e) {
			return 0, false // a C pointer: an address, not a REAL
		}
		return ev.leafFloat(e)
	case *apt.Unary:
		v, ok := ev.floatOf(x.X)
		switch x.Op {
		case apt.OpNeg:
			return -v, ok
		case apt.OpPlus:
			return v, ok
		}
		return 0, false
	case *apt.Binary:
		return ev.binaryFloat(x)
	case *apt.FuncCall:
		if x.Intrinsic {
			return ev.intrinsicFloat(x)
		}
	}
	return 0, false
}

// leafFloat is the value of a constant or variable as the run holds it:
// an INTEGER exactly, a REAL rounded to its precision.
func (ev *evaluator) leafFloat(e apt.Expr) (float64, bool) {
	t := apt.TypeOf(e)
	if t.Base != apt.TypeInteger && !knownPrecision(t) {
		return 0, false
	}
	c, ok := ev.value(e).Single()
	if !ok {
		return 0, false
	}
	r, ok := c.Const()
	if !ok {
		return 0, false
	}
	if t.Base == apt.TypeInteger {
		n, ok := c.Int64()
		return float64(n), ok && math.Abs(float64(n)) < 1<<53
	}
	return heldAs(r, t), true
}

// heldAs is r as a variable of REAL type t holds it: rounded once to
// single precision for a REAL(4), to double otherwise.
func heldAs(r symbolic.Rat, t apt.Type) float64 {
	if singleReal(t) {
		f, _ := r.Big().Float32()
		return float64(f)
	}
	return r.Float64()
}

// knownPrecision reports whether t is a REAL of single or double
// precision.
func knownPrecision(t apt.Type) bool {
	return t.Base == apt.TypeReal && (t.Kind == 4 || t.Kind == 8)
}

// binaryFloat is one arithmetic operation in the precision of its result:
// single when both operands are (or an INTEGER and a single), else double.
func (ev *evaluator) binaryFloat(b *apt.Binary) (float64, bool) {
	t := apt.TypeOf(b)
	if t.Base == apt.TypeInteger {
		return ev.leafFloat(b) // INTEGER arithmetic is exact
	}
	if !knownPrecision(t) {
		return 0, false
	}
	x, ok1 := ev.floatOf(b.X)
	y, ok2 := ev.floatOf(b.Y)
	if !ok1 || !ok2 {
		return 0, false
	}
	var v float64
	switch b.Op {
	case apt.OpAdd:
		v = x + y
	case apt.OpSub:
		v = x - y
	case apt.OpMul:
		v = x * y
	case apt.OpDiv:
		if y == 0 {
			return 0, false
		}
		v = x / y
	case apt.OpPow:
		n := int64(y)
		if float64(n) != y || n < 0 || n > 64 || !apt.IsInteger(b.Y) {
			return 0, false
		}
		// A small INTEGER power is repeated multiplication, each product
		// rounded, as compilers expand it.
		v = 1
		for range n {
			if v *= x; singleReal(t) {
				v = float64(float32(v))
			}
		}
		return v, finite(v)
	default:
		return 0, false
	}
	if singleReal(t) {
		// Single-precision operands: the operation rounds to single.
		v = float64(float32(v))
	}
	return v, finite(v)
}

// intrinsicFloat evaluates the REAL intrinsics the run computes exactly or
// nearly so: conversions, SQRT, ABS, MIN, MAX, LOG, LOG10, EXP.
func (ev *evaluator) intrinsicFloat(f *apt.FuncCall) (float64, bool) {
	args := make([]float64, len(f.Args))
	for i, a := range f.Args {
		if _, kw := a.(*apt.Keyword); kw {
			return 0, false
		}
		v, ok := ev.floatOf(a)
		if !ok {
			return 0, false
		}
		args[i] = v
	}
	if len(args) == 0 {
		return 0, false
	}
	var v float64
	switch strings.ToLower(f.Name) {
	case "real", "float", "sngl", "dble", "dfloat", "dreal":
		v = args[0]
	case "sqrt", "dsqrt":
		v = math.Sqrt(args[0])
	case "abs", "dabs":
		v = math.Abs(args[0])
	case "min", "amin1", "dmin1":
		v = args[0]
		for _, a := range args[1:] {
			v = math.Min(v, a)
		}
	case "max", "amax1", "dmax1":
		v = args[0]
		for _, a := range args[1:] {
			v = math.Max(v, a)
		}
	case "log", "dlog", "alog":
		v = math.Log(args[0])
	case "log10", "dlog10", "alog10":
		v = math.Log10(args[0])
	case "exp", "dexp":
		v = math.Exp(args[0])
	case "int", "ifix", "idint", "aint", "dint":
		v = math.Trunc(args[0])
	case "floor":
		v = math.Floor(args[0])
	case "ceiling":
		v = math.Ceil(args[0])
	case "nint", "idnint", "anint", "dnint":
		v = math.Round(args[0]) // half away from zero, as NINT
	default:
		return 0, false
	}
	t := f.Type
	switch {
	case t.Base == apt.TypeInteger:
	case !knownPrecision(t):
		return 0, false
	case singleReal(t):
		v = float64(float32(v))
	}
	return v, finite(v)
}

// realToInteger are the intrinsics that turn a REAL into an integer
// value, with the conversion each makes.
var realToInteger = map[string]func(float64) float64{
	"int": math.Trunc, "ifix": math.Trunc, "idint": math.Trunc, "aint": math.Trunc, "dint": math.Trunc,
	"floor": math.Floor, "ceiling": math.Ceil,
	"nint": math.Round, "idnint": math.Round, "anint": math.Round, "dnint": math.Round,
}

func finite(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }

// toIntegerAsRun is the INTEGER a REAL expression e, whose exact value is
// v, converts to in the run (conv: math.Trunc, Floor, Ceil or Round): the
// conversion of e computed in floating point (floatOf), where v is a
// constant (a number, or a closed form such as LOG(1000)/LOG(10) that no
// rational holds). A call of the program's own functions is not run again.
func (ev *evaluator) toIntegerAsRun(e apt.Expr, v Value, conv func(float64) float64) (Value, bool) {
	c, ok := v.Single()
	if !ok || apt.TypeOf(e).Base != apt.TypeReal || callsAny(e) {
		return Value{}, false
	}
	if len(c.Symbols()) > 0 {
		return Value{}, false // a closed form, not a number (LOG(8.0) is one)
	}
	f, ok := ev.floatOf(e)
	if !ok {
		return Value{}, false
	}
	n := conv(f)
	if math.Abs(n) >= 1<<62 {
		return Value{}, false
	}
	return Known(symbolic.Int(int64(n))), true
}

// relationAsRun decides a comparison with a REAL operand whose operands'
// exact values (xv, yv) are constants as the run does, in floating point.
func (ev *evaluator) relationAsRun(b *apt.Binary, xv, yv Value) (bool, bool) {
	if apt.TypeOf(b.X).Base != apt.TypeReal && apt.TypeOf(b.Y).Base != apt.TypeReal || callsAny(b) {
		return false, false
	}
	for _, v := range []Value{xv, yv} {
		c, ok := v.Single()
		if !ok || len(c.Symbols()) > 0 {
			return false, false
		}
	}
	x, ok1 := ev.floatOf(b.X)
	y, ok2 := ev.floatOf(b.Y)
	if !ok1 || !ok2 {
		return false, false
	}
	switch b.Op {
	case apt.OpEq:
		return x == y, true
	case apt.OpNe:
		return x != y, true
	case apt.OpLt:
		return x < y, true
	case apt.OpLe:
		return x <= y, true
	case apt.OpGt:
		return x > y, true
	case apt.OpGe:
		return x >= y, true
	}
	return false, false
}
