package aptrun

import (
	"fmt"
	"math"
	"math/cmplx"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// kind is the dynamic kind of a value.
type kind uint8

const (
	kInt  kind = iota + 1 // int64 in i
	kReal                 // float64 in f (every real kind)
	kCplx                 // complex128 in c
	kLog                  // logical: i is 0 or 1
	kChar                 // string in s
	kObj                  // derived-type scalar: obj
	kArr                  // array-valued expression result: arr
	kProc                 // procedure passed as an actual argument: proc
)

// value is a Fortran value: a scalar of an intrinsic type, a derived-type
// object (by reference: assignment copies it), an array temporary or a
// procedure.
type value struct {
	k    kind
	i    int64
	f    float64
	c    complex128
	s    string
	obj  *object
	arr  *arrVal
	proc *apt.Routine
}

// arrVal is an array-valued intermediate: its elements in array element
// (column-major) order and its shape.
type arrVal struct {
	shape []int64
	elems []value
}

func intV(i int64) value       { return value{k: kInt, i: i} }
func realV(f float64) value    { return value{k: kReal, f: f} }
func cplxV(c complex128) value { return value{k: kCplx, c: c} }
func charV(s string) value     { return value{k: kChar, s: s} }
func logV(b bool) value {
	if b {
		return value{k: kLog, i: 1}
	}
	return value{k: kLog}
}

func arrayV(shape []int64, elems []value) value {
	return value{k: kArr, arr: &arrVal{shape: shape, elems: elems}}
}

func (v value) isArr() bool { return v.k == kArr }

func (k kind) String() string {
	switch k {
	case kInt:
		return "integer"
	case kReal:
		return "real"
	case kCplx:
		return "complex"
	case kLog:
		return "logical"
	case kChar:
		return "character"
	case kObj:
		return "derived-type object"
	case kArr:
		return "array"
	case kProc:
		return "procedure"
	}
	return "undefined"
}

// zeroOf is the value an untouched variable of type t reads as (derived
// types are handled by the caller, which builds an object).
func zeroOf(t apt.Type, clen int64) value {
	switch t.Base {
	case apt.TypeReal:
		return realV(0)
	case apt.TypeComplex:
		return cplxV(0)
	case apt.TypeLogical:
		return logV(false)
	case apt.TypeCharacter:
		if clen > 0 {
			return charV(strings.Repeat(" ", int(clen)))
		}
		return charV("")
	}
	return intV(0)
}

// asInt converts a numeric scalar to an integer the way INT does.
func asInt(v value) (int64, bool) {
	switch v.k {
	case kInt, kLog:
		return v.i, true
	case kReal:
		if math.IsNaN(v.f) || math.IsInf(v.f, 0) {
			return 0, false
		}
		return int64(v.f), true
	case kCplx:
		return int64(real(v.c)), true
	}
	return 0, false
}

func asReal(v value) (float64, bool) {
	switch v.k {
	case kInt:
		return float64(v.i), true
	case kReal:
		return v.f, true
	case kCplx:
		return real(v.c), true
	}
	return 0, false
}

func asCplx(v value) (complex128, bool) {
	switch v.k {
	case kInt:
		return complex(float64(v.i), 0), true
	case kReal:
		return complex(v.f, 0), true
	case kCplx:
		return v.c, true
	}
	return 0, false
}

// convert converts v to the intrinsic type t for assignment; clen >= 0 pads
// or truncates a character value.
func convert(v value, t apt.Type, clen int64) (value, error) {
	switch t.Base {
	case apt.TypeInteger:
		if v.k == kInt {
			return v, nil
		}
		if i, ok := asInt(v); ok && v.k != kLog {
			return intV(i), nil
		}
	case apt.TypeReal:
		if f, ok := asReal(v); ok {
			return realV(f), nil
		}
	case apt.TypeComplex:
		if c, ok := asCplx(v); ok {
			return cplxV(c), nil
		}
	case apt.TypeLogical:
		if v.k == kLog {
			return v, nil
		}
	case apt.TypeCharacter:
		if v.k == kChar {
			return charV(fitLen(v.s, clen)), nil
		}
	default:
		return v, nil
	}
	return value{}, fmt.Errorf("cannot assign a %s value to a %s variable", v.k, t.Base)
}

func fitLen(s string, clen int64) string {
	if clen < 0 {
		return s
	}
	n := int(clen)
	if len(s) > n {
		return s[:n]
	}
	if len(s) < n {
		return s + strings.Repeat(" ", n-len(s))
	}
	return s
}

// parseConst converts a literal's text to a value.
func parseConst(c *apt.Const) (value, error) {
	text := c.Text
	switch c.Kind {
	case apt.ConstInt:
		t := stripKind(text)
		i, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return value{}, fmt.Errorf("bad integer literal %q", text)
		}
		return intV(i), nil
	case apt.ConstReal:
		f, err := parseReal(text)
		if err != nil {
			return value{}, err
		}
		return realV(f), nil
	case apt.ConstLogical:
		return logV(strings.HasPrefix(strings.ToUpper(text), ".T")), nil
	case apt.ConstChar:
		return charV(text), nil
	case apt.ConstBOZ:
		t := strings.ToUpper(text)
		base := 16
		switch {
		case strings.HasPrefix(t, "B"):
			base = 2
		case strings.HasPrefix(t, "O"):
			base = 8
		}
		t = strings.Trim(t[1:], "'\"")
		i, err := strconv.ParseInt(t, base, 64)
		if err != nil {
			return value{}, fmt.Errorf("bad BOZ literal %q", text)
		}
		return intV(i), nil
	case apt.ConstComplex:
		t := strings.TrimSpace(text)
		t = strings.TrimSuffix(strings.TrimPrefix(t, "("), ")")
		parts := strings.Split(t, ",")
		if len(parts) != 2 {
			return value{}, fmt.Errorf("bad complex literal %q", text)
		}
		re, err1 := parseReal(strings.TrimSpace(parts[0]))
		im, err2 := parseReal(strings.TrimSpace(parts[1]))
		if err1 != nil || err2 != nil {
			return value{}, fmt.Errorf("bad complex literal %q", text)
		}
		return cplxV(complex(re, im)), nil
	}
	return value{}, fmt.Errorf("unsupported literal %q", text)
}

func stripKind(t string) string {
	if i := strings.IndexByte(t, '_'); i >= 0 {
		return t[:i]
	}
	return t
}

func parseReal(text string) (float64, error) {
	t := strings.ToUpper(stripKind(text))
	t = strings.NewReplacer("D", "E", "Q", "E").Replace(t)
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, fmt.Errorf("bad real literal %q", text)
	}
	return f, nil
}

// elementwise applies f to scalars, or element by element when an operand is
// an array (a scalar operand is broadcast).
func elementwise(x, y value, f func(a, b value) (value, error)) (value, error) {
	if !x.isArr() && !y.isArr() {
		return f(x, y)
	}
	var shape []int64
	n := -1
	if x.isArr() {
		shape, n = x.arr.shape, len(x.arr.elems)
	}
	if y.isArr() {
		if n >= 0 && len(y.arr.elems) != n {
			return value{}, fmt.Errorf("array operands of different sizes (%d and %d)", n, len(y.arr.elems))
		}
		shape, n = y.arr.shape, len(y.arr.elems)
	}
	out := make([]value, n)
	for i := range out {
		a, b := x, y
		if x.isArr() {
			a = x.arr.elems[i]
		}
		if y.isArr() {
			b = y.arr.elems[i]
		}
		r, err := f(a, b)
		if err != nil {
			return value{}, err
		}
		out[i] = r
	}
	return arrayV(shape, out), nil
}

func unary(op apt.Op, x value) (value, error) {
	if x.isArr() {
		return elementwise(x, value{}, func(a, _ value) (value, error) { return unary(op, a) })
	}
	switch op {
	case apt.OpNot:
		if x.k == kLog {
			return logV(x.i == 0), nil
		}
	case apt.OpNeg:
		switch x.k {
		case kInt:
			return intV(-x.i), nil
		case kReal:
			return realV(-x.f), nil
		case kCplx:
			return cplxV(-x.c), nil
		}
	case apt.OpPlus:
		switch x.k {
		case kInt, kReal, kCplx:
			return x, nil
		}
	}
	return value{}, fmt.Errorf("operator %s not defined for a %s operand", op, x.k)
}

// numericKind is the kind both operands of an arithmetic operation convert to.
func numericKind(x, y value) (kind, bool) {
	num := func(k kind) bool { return k == kInt || k == kReal || k == kCplx }
	if !num(x.k) || !num(y.k) {
		return 0, false
	}
	switch {
	case x.k == kCplx || y.k == kCplx:
		return kCplx, true
	case x.k == kReal || y.k == kReal:
		return kReal, true
	}
	return kInt, true
}

func ipow(b, e int64) int64 {
	if e < 0 {
		switch b {
		case 1:
			return 1
		case -1:
			if e%2 == 0 {
				return 1
			}
			return -1
		}
		return 0 // 1/b**|e| truncates to zero (b == 0 is caught by the caller)
	}
	r := int64(1)
	for e > 0 {
		if e&1 == 1 {
			r *= b
		}
		b *= b
		e >>= 1
	}
	return r
}

// binary applies a non-short-circuit binary operator to scalars or arrays.
func binary(op apt.Op, x, y value) (value, error) {
	if x.isArr() || y.isArr() {
		return elementwise(x, y, func(a, b value) (value, error) { return binary(op, a, b) })
	}
	switch {
	case op.IsLogical():
		if x.k != kLog || y.k != kLog {
			return value{}, fmt.Errorf("operator %s needs logical operands, not %s and %s", op, x.k, y.k)
		}
		a, b := x.i != 0, y.i != 0
		switch op {
		case apt.OpAnd:
			return logV(a && b), nil
		case apt.OpOr:
			return logV(a || b), nil
		case apt.OpEqv:
			return logV(a == b), nil
		case apt.OpNeqv:
			return logV(a != b), nil
		}
	case op.IsRelational():
		return compare(op, x, y)
	case op == apt.OpConcat:
		if x.k != kChar || y.k != kChar {
			return value{}, fmt.Errorf("// needs character operands, not %s and %s", x.k, y.k)
		}
		return charV(x.s + y.s), nil
	}
	k, ok := numericKind(x, y)
	if !ok {
		return value{}, fmt.Errorf("operator %s not defined for %s and %s operands", op, x.k, y.k)
	}
	switch k {
	case kInt:
		a, b := x.i, y.i
		switch op {
		case apt.OpAdd:
			return intV(a + b), nil
		case apt.OpSub:
			return intV(a - b), nil
		case apt.OpMul:
			return intV(a * b), nil
		case apt.OpDiv:
			if b == 0 {
				return value{}, fmt.Errorf("integer division by zero")
			}
			return intV(a / b), nil // truncates toward zero, as Fortran does
		case apt.OpPow:
			if a == 0 && b < 0 {
				return value{}, fmt.Errorf("zero raised to a negative power")
			}
			return intV(ipow(a, b)), nil
		}
	case kReal:
		a, _ := asReal(x)
		b, _ := asReal(y)
		switch op {
		case apt.OpAdd:
			return realV(a + b), nil
		case apt.OpSub:
			return realV(a - b), nil
		case apt.OpMul:
			return realV(a * b), nil
		case apt.OpDiv:
			return realV(a / b), nil
		case apt.OpPow:
			if y.k == kInt {
				return realV(math.Pow(a, float64(y.i))), nil
			}
			return realV(math.Pow(a, b)), nil
		}
	case kCplx:
		a, _ := asCplx(x)
		b, _ := asCplx(y)
		switch op {
		case apt.OpAdd:
			return cplxV(a + b), nil
		case apt.OpSub:
			return cplxV(a - b), nil
		case apt.OpMul:
			return cplxV(a * b), nil
		case apt.OpDiv:
			return cplxV(a / b), nil
		case apt.OpPow:
			return cplxV(cmplx.Pow(a, b)), nil
		}
	}
	return value{}, fmt.Errorf("unsupported operator %s", op)
}

// compare evaluates a relational operator on scalars.
func compare(op apt.Op, x, y value) (value, error) {
	var c int
	switch {
	case x.k == kChar && y.k == kChar:
		// Fortran pads the shorter operand with blanks.
		a, b := x.s, y.s
		if len(a) < len(b) {
			a += strings.Repeat(" ", len(b)-len(a))
		} else if len(b) < len(a) {
			b += strings.Repeat(" ", len(a)-len(b))
		}
		c = strings.Compare(a, b)
	case x.k == kLog && y.k == kLog && (op == apt.OpEq || op == apt.OpNe):
		c = int(x.i - y.i)
	default:
		k, ok := numericKind(x, y)
		if !ok {
			return value{}, fmt.Errorf("cannot compare %s with %s", x.k, y.k)
		}
		switch k {
		case kInt:
			switch {
			case x.i < y.i:
				c = -1
			case x.i > y.i:
				c = 1
			}
		case kReal:
			a, _ := asReal(x)
			b, _ := asReal(y)
			if math.IsNaN(a) || math.IsNaN(b) {
				return logV(op == apt.OpNe), nil
			}
			switch {
			case a < b:
				c = -1
			case a > b:
				c = 1
			}
		case kCplx:
			if op != apt.OpEq && op != apt.OpNe {
				return value{}, fmt.Errorf("complex values are not ordered")
			}
			if x.c != y.c {
				c = 1
			}
		}
	}
	switch op {
	case apt.OpEq:
		return logV(c == 0), nil
	case apt.OpNe:
		return logV(c != 0), nil
	case apt.OpLt:
		return logV(c < 0), nil
	case apt.OpLe:
		return logV(c <= 0), nil
	case apt.OpGt:
		return logV(c > 0), nil
	case apt.OpGe:
		return logV(c >= 0), nil
	}
	return value{}, fmt.Errorf("unsupported relational operator %s", op)
}
