package aptrun

import (
	"fmt"
	"maps"
	"math"
	"math/cmplx"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// intrinsic evaluates a reference to an intrinsic function.
func (e *engine) intrinsic(fr *frame, x *apt.FuncCall) (value, error) {
	name := x.Name
	var pos []apt.Expr
	var kw map[string]apt.Expr // nil unless there are keyword arguments
	for _, a := range x.Args {
		if k, ok := a.(*apt.Keyword); ok {
			if kw == nil {
				kw = map[string]apt.Expr{}
			}
			kw[k.Name] = k.Value
		} else {
			pos = append(pos, a)
		}
	}
	// arg returns the i-th argument, positional or by keyword.
	arg := func(i int, key string) apt.Expr {
		if i < len(pos) {
			return pos[i]
		}
		return kw[key]
	}
	fail := func(format string, args ...any) (value, error) {
		return value{}, fmt.Errorf("%s: %s: %s", x.Pos, name, fmt.Sprintf(format, args...))
	}
	// Inquiry functions look at their argument's type or descriptor.
	switch name {
	case "command_argument_count", "iargc":
		return e.argumentCount(), nil
	case "kind":
		return intV(int64(typeKind(apt.TypeOf(arg(0, "x"))))), nil
	case "huge", "tiny", "epsilon", "digits", "precision", "range", "bit_size":
		t := apt.TypeOf(arg(0, "x"))
		return inquiry(name, t)
	case "present":
		nm, ok := arg(0, "a").(*apt.Name)
		if !ok {
			return fail("argument is not a dummy argument name")
		}
		return logV(!fr.absent[nm.Name]), nil
	case "allocated", "associated":
		l, err := e.locate(fr, arg(0, "array"))
		if err != nil {
			return value{}, err
		}
		if l.owner == nil {
			if name == "associated" {
				return fail("pointers are not supported")
			}
			return fail("argument is not an allocatable array")
		}
		return logV(l.arr.alloc), nil
	case "size", "lbound", "ubound", "shape":
		return e.boundsInquiry(fr, x, arg(0, "array"), arg(1, "dim"))
	case "len":
		v, err := e.eval(fr, arg(0, "string"))
		if err != nil {
			return value{}, err
		}
		if v.isArr() && len(v.arr.elems) > 0 {
			v = v.arr.elems[0]
		}
		return intV(int64(len(v.s))), nil
	case "selected_real_kind":
		p := int64(0)
		if a := arg(0, "p"); a != nil {
			var err error
			if p, err = e.evalInt(fr, a); err != nil {
				return value{}, err
			}
		}
		switch {
		case p <= 6:
			return intV(4), nil
		case p <= 15:
			return intV(8), nil
		case p <= 33:
			return intV(16), nil
		}
		return intV(-1), nil
	case "selected_int_kind":
		r, err := e.evalInt(fr, arg(0, "r"))
		if err != nil {
			return value{}, err
		}
		switch {
		case r <= 2:
			return intV(1), nil
		case r <= 4:
			return intV(2), nil
		case r <= 9:
			return intV(4), nil
		case r <= 18:
			return intV(8), nil
		}
		return intV(-1), nil
	}
	// The rest evaluate their arguments.
	vals := make([]value, len(pos))
	for i, a := range pos {
		v, err := e.eval(fr, a)
		if err != nil {
			return value{}, err
		}
		vals[i] = v
	}
	var kv map[string]value
	if len(kw) > 0 {
		kv = map[string]value{}
	}
	for k, a := range kw {
		v, err := e.eval(fr, a)
		if err != nil {
			return value{}, err
		}
		kv[k] = v
	}
	switch name {
	case "sum", "product", "maxval", "minval", "count", "any", "all":
		return reduce(name, x, vals, kv)
	case "dot_product":
		if len(vals) != 2 || !vals[0].isArr() || !vals[1].isArr() || len(vals[0].arr.elems) != len(vals[1].arr.elems) {
			return fail("needs two arrays of the same size")
		}
		var acc value = intV(0)
		if apt.TypeOf(x).Base != apt.TypeInteger {
			acc = realV(0)
		}
		for i := range vals[0].arr.elems {
			p, err := binary(apt.OpMul, vals[0].arr.elems[i], vals[1].arr.elems[i])
			if err != nil {
				return fail("%v", err)
			}
			if acc, err = binary(apt.OpAdd, acc, p); err != nil {
				return fail("%v", err)
			}
		}
		return acc, nil
	case "maxloc", "minloc":
		if len(vals) != 1 || !vals[0].isArr() || len(vals[0].arr.shape) != 1 {
			return fail("only the one-argument form on a rank-1 array is supported")
		}
		best := int64(0)
		for i, v := range vals[0].arr.elems {
			if i == 0 {
				best = 1
				continue
			}
			r, err := compare(map[bool]apt.Op{true: apt.OpGt, false: apt.OpLt}[name == "maxloc"], v, vals[0].arr.elems[best-1])
			if err != nil {
				return fail("%v", err)
			}
			if r.i != 0 {
				best = int64(i + 1)
			}
		}
		return arrayV([]int64{1}, []value{intV(best)}), nil
	case "trim":
		if len(vals) != 1 || vals[0].k != kChar {
			return fail("needs a character argument")
		}
		return charV(strings.TrimRight(vals[0].s, " ")), nil
	case "repeat":
		if len(vals) != 2 || vals[0].k != kChar || vals[1].k != kInt || vals[1].i < 0 ||
			int64(len(vals[0].s))*vals[1].i > maxCharLen {
			return fail("needs a string and a count")
		}
		return charV(strings.Repeat(vals[0].s, int(vals[1].i))), nil
	}
	// Elemental functions: applied element by element when an argument is
	// an array.
	f, ok := elementals[name]
	if !ok {
		return fail("intrinsic not supported by the interpreter")
	}
	kindArg := int64(0)
	if k, ok := kv["kind"]; ok {
		kindArg = k.i
	}
	for _, k := range slices.Sorted(maps.Keys(kv)) {
		if k != "kind" {
			vals = append(vals, kv[k])
		}
	}
	var shape []int64
	n := -1
	for _, v := range vals {
		if v.isArr() {
			if n >= 0 && len(v.arr.elems) != n {
				return fail("array arguments of different sizes")
			}
			shape, n = v.arr.shape, len(v.arr.elems)
		}
	}
	if n < 0 {
		r, err := f(vals, kindArg)
		if err != nil {
			return fail("%v", err)
		}
		return r, nil
	}
	out := make([]value, n)
	args := make([]value, len(vals))
	for i := range out {
		for j, v := range vals {
			if v.isArr() {
				args[j] = v.arr.elems[i]
			} else {
				args[j] = v
			}
		}
		r, err := f(args, kindArg)
		if err != nil {
			return fail("%v", err)
		}
		out[i] = r
	}
	return arrayV(shape, out), nil
}

func typeKind(t apt.Type) int {
	if t.Kind != 0 {
		return t.Kind
	}
	if t.Base == apt.TypeComplex {
		return 4
	}
	return 4
}

func inquiry(name string, t apt.Type) (value, error) {
	k := typeKind(t)
	switch t.Base {
	case apt.TypeInteger:
		bits := int64(8 * k)
		switch name {
		case "huge":
			if k >= 8 {
				return intV(math.MaxInt64), nil
			}
			return intV(int64(1)<<(bits-1) - 1), nil
		case "digits":
			return intV(bits - 1), nil
		case "bit_size":
			return intV(bits), nil
		case "range":
			return intV(int64(float64(bits-1) * math.Log10(2))), nil
		}
	case apt.TypeReal:
		single := k == 4
		switch name {
		case "huge":
			if single {
				return realV(math.MaxFloat32), nil
			}
			return realV(math.MaxFloat64), nil
		case "tiny":
			if single {
				return realV(1.17549435e-38), nil
			}
			return realV(2.2250738585072014e-308), nil
		case "epsilon":
			if single {
				return realV(float64(math.Nextafter32(1, 2) - 1)), nil
			}
			return realV(math.Nextafter(1, 2) - 1), nil
		case "digits":
			if single {
				return intV(24), nil
			}
			return intV(53), nil
		case "precision":
			if single {
				return intV(6), nil
			}
			return intV(15), nil
		case "range":
			if single {
				return intV(37), nil
			}
			return intV(307), nil
		}
	}
	return value{}, fmt.Errorf("%s of a %s argument is not supported", name, t)
}

// boundsInquiry evaluates SIZE, LBOUND, UBOUND and SHAPE.
func (e *engine) boundsInquiry(fr *frame, x *apt.FuncCall, a, dimX apt.Expr) (value, error) {
	var lo, ext []int64
	l, err := e.locate(fr, a)
	switch {
	case err == nil && l.owner != nil:
		if !l.arr.alloc {
			return value{}, fmt.Errorf("%s: %s of an unallocated array", x.Pos, x.Name)
		}
		lo, ext = l.arr.lo, l.arr.ext
	case err == nil && l.arr != nil:
		ext = l.shape
	default:
		v, err2 := e.eval(fr, a)
		if err2 != nil {
			return value{}, err2
		}
		if !v.isArr() {
			return value{}, fmt.Errorf("%s: %s of a scalar", x.Pos, x.Name)
		}
		ext = v.arr.shape
	}
	if lo == nil {
		lo = make([]int64, len(ext))
		for i := range lo {
			lo[i] = 1
		}
	}
	per := func(d int) (int64, error) {
		switch x.Name {
		case "size":
			if ext[d] < 0 {
				return 0, fmt.Errorf("%s: size of an assumed-size dimension", x.Pos)
			}
			return ext[d], nil
		case "lbound":
			return lo[d], nil
		case "ubound":
			if ext[d] < 0 {
				return 0, fmt.Errorf("%s: ubound of an assumed-size dimension", x.Pos)
			}
			return lo[d] + ext[d] - 1, nil
		}
		return ext[d], nil
	}
	if dimX != nil && x.Name != "shape" {
		d, err := e.evalInt(fr, dimX)
		if err != nil {
			return value{}, err
		}
		if d < 1 || d > int64(len(ext)) {
			return value{}, fmt.Errorf("%s: %s: dim=%d out of range", x.Pos, x.Name, d)
		}
		r, err := per(int(d - 1))
		return intV(r), err
	}
	if x.Name == "size" {
		n := int64(1)
		for d := range ext {
			r, err := per(d)
			if err != nil {
				return value{}, err
			}
			n *= r
		}
		return intV(n), nil
	}
	out := make([]value, len(ext))
	for d := range ext {
		r, err := per(d)
		if err != nil {
			return value{}, err
		}
		out[d] = intV(r)
	}
	return arrayV([]int64{int64(len(ext))}, out), nil
}

// reduce evaluates the array reductions (whole array, optional mask; dim
// only for rank-1 arrays).
func reduce(name string, x *apt.FuncCall, vals []value, kv map[string]value) (value, error) {
	fail := func(format string, args ...any) (value, error) {
		return value{}, fmt.Errorf("%s: %s: %s", x.Pos, name, fmt.Sprintf(format, args...))
	}
	if len(vals) == 0 {
		v, ok := kv["array"]
		if !ok {
			v, ok = kv["mask"]
			delete(kv, "mask")
		}
		if !ok {
			return fail("missing argument")
		}
		vals = []value{v}
	}
	a := vals[0]
	if !a.isArr() {
		return fail("argument is not an array")
	}
	var mask value
	if len(vals) > 1 {
		if vals[1].k == kLog || vals[1].isArr() && len(vals[1].arr.elems) > 0 && vals[1].arr.elems[0].k == kLog {
			mask = vals[1]
		} else if len(a.arr.shape) != 1 {
			return fail("dim= on an array of rank %d is not supported", len(a.arr.shape))
		}
	}
	if m, ok := kv["mask"]; ok {
		mask = m
	}
	if d, ok := kv["dim"]; ok && len(a.arr.shape) != 1 && d.k == kInt {
		return fail("dim= on an array of rank %d is not supported", len(a.arr.shape))
	}
	if mask.isArr() && len(mask.arr.elems) != len(a.arr.elems) {
		return fail("mask and array differ in size")
	}
	var elems []value
	for i, v := range a.arr.elems {
		if mask.isArr() && (mask.arr.elems[i].k != kLog || mask.arr.elems[i].i == 0) {
			continue
		}
		if mask.k == kLog && mask.i == 0 {
			continue
		}
		elems = append(elems, v)
	}
	isInt := apt.TypeOf(x).Base == apt.TypeInteger
	if len(a.arr.elems) > 0 {
		isInt = a.arr.elems[0].k == kInt
	}
	switch name {
	case "count", "any", "all":
		n := int64(0)
		for _, v := range elems {
			if v.k != kLog {
				return fail("argument is not logical")
			}
			n += v.i
		}
		switch name {
		case "count":
			return intV(n), nil
		case "any":
			return logV(n > 0), nil
		}
		return logV(n == int64(len(elems))), nil
	case "sum", "product":
		op, acc := apt.OpAdd, intV(0)
		if name == "product" {
			op, acc = apt.OpMul, intV(1)
		}
		if !isInt {
			acc = realV(float64(acc.i))
		}
		for _, v := range elems {
			var err error
			if acc, err = binary(op, acc, v); err != nil {
				return fail("%v", err)
			}
		}
		return acc, nil
	}
	// maxval, minval
	if len(elems) == 0 {
		t := apt.TypeOf(x)
		h, err := inquiry("huge", t)
		if err != nil {
			return fail("%v", err)
		}
		if name == "maxval" {
			return unary(apt.OpNeg, h)
		}
		return h, nil
	}
	best := elems[0]
	op := apt.OpGt
	if name == "minval" {
		op = apt.OpLt
	}
	for _, v := range elems[1:] {
		r, err := compare(op, v, best)
		if err != nil {
			return fail("%v", err)
		}
		if r.i != 0 {
			best = v
		}
	}
	return best, nil
}

// elemental is a scalar intrinsic: its arguments and the kind= argument.
type elemental func(args []value, kind int64) (value, error)

var elementals = map[string]elemental{}

func init() {
	num1 := func(fi func(int64) int64, ff func(float64) float64, fc func(complex128) complex128) elemental {
		return func(a []value, _ int64) (value, error) {
			if len(a) < 1 {
				return value{}, fmt.Errorf("missing argument")
			}
			switch a[0].k {
			case kInt:
				if fi != nil {
					return intV(fi(a[0].i)), nil
				}
				return realV(ff(float64(a[0].i))), nil
			case kReal:
				return realV(ff(a[0].f)), nil
			case kCplx:
				if fc != nil {
					return cplxV(fc(a[0].c)), nil
				}
			}
			return value{}, fmt.Errorf("argument of type %s", a[0].k)
		}
	}
	real1 := func(ff func(float64) float64, fc func(complex128) complex128) elemental {
		return num1(nil, ff, fc)
	}
	abs := func(a []value, _ int64) (value, error) {
		if len(a) == 1 && a[0].k == kCplx {
			return realV(cmplx.Abs(a[0].c)), nil
		}
		return num1(func(i int64) int64 { return max(i, -i) }, math.Abs, nil)(a, 0)
	}
	for _, n := range []string{"abs", "iabs", "dabs"} {
		elementals[n] = abs
	}
	for n, f := range map[string]elemental{
		"sqrt": real1(math.Sqrt, cmplx.Sqrt), "exp": real1(math.Exp, cmplx.Exp),
		"log": real1(math.Log, cmplx.Log), "log10": real1(math.Log10, nil), "log2": real1(math.Log2, nil),
		"sin": real1(math.Sin, cmplx.Sin), "cos": real1(math.Cos, cmplx.Cos),
		"tan": real1(math.Tan, nil), "asin": real1(math.Asin, nil), "acos": real1(math.Acos, nil),
		"atan": real1(math.Atan, nil), "sinh": real1(math.Sinh, nil), "cosh": real1(math.Cosh, nil),
		"tanh": real1(math.Tanh, nil), "erf": real1(math.Erf, nil), "erfc": real1(math.Erfc, nil),
		"gamma": real1(math.Gamma, nil),
	} {
		elementals[n] = f
	}
	for alias, n := range map[string]string{"dsqrt": "sqrt", "dexp": "exp", "alog": "log", "dlog": "log",
		"alog10": "log10", "dlog10": "log10", "dsin": "sin", "dcos": "cos", "dtan": "tan", "datan": "atan"} {
		elementals[alias] = elementals[n]
	}
	atan2 := func(a []value, _ int64) (value, error) {
		y, ok1 := asReal(a[0])
		x, ok2 := asReal(a[1])
		if len(a) != 2 || !ok1 || !ok2 {
			return value{}, fmt.Errorf("needs two real arguments")
		}
		return realV(math.Atan2(y, x)), nil
	}
	elementals["atan2"], elementals["datan2"] = atan2, atan2
	hypot := func(a []value, _ int64) (value, error) {
		x, _ := asReal(a[0])
		y, _ := asReal(a[1])
		return realV(math.Hypot(x, y)), nil
	}
	elementals["hypot"] = hypot
	minmax := func(op apt.Op, out kind) elemental {
		return func(a []value, _ int64) (value, error) {
			if len(a) < 1 {
				return value{}, fmt.Errorf("missing argument")
			}
			best := a[0]
			anyReal := a[0].k == kReal
			for _, v := range a[1:] {
				anyReal = anyReal || v.k == kReal
				r, err := compare(op, v, best)
				if err != nil {
					return value{}, err
				}
				if r.i != 0 {
					best = v
				}
			}
			switch {
			case out == kInt:
				n, _ := asInt(best)
				return intV(n), nil
			case out == kReal || anyReal:
				f, ok := asReal(best)
				if !ok {
					return best, nil // character min/max
				}
				return realV(f), nil
			}
			return best, nil
		}
	}
	for _, n := range []string{"max", "dmax1"} {
		elementals[n] = minmax(apt.OpGt, 0)
	}
	for _, n := range []string{"min", "dmin1"} {
		elementals[n] = minmax(apt.OpLt, 0)
	}
	elementals["max0"], elementals["min0"] = minmax(apt.OpGt, kInt), minmax(apt.OpLt, kInt)
	elementals["amax1"], elementals["amin1"] = minmax(apt.OpGt, kReal), minmax(apt.OpLt, kReal)
	mod := func(a []value, _ int64) (value, error) {
		if len(a) != 2 {
			return value{}, fmt.Errorf("needs two arguments")
		}
		if a[0].k == kInt && a[1].k == kInt {
			if a[1].i == 0 {
				return value{}, fmt.Errorf("second argument is zero")
			}
			return intV(a[0].i % a[1].i), nil
		}
		x, ok1 := asReal(a[0])
		y, ok2 := asReal(a[1])
		if !ok1 || !ok2 {
			return value{}, fmt.Errorf("arguments are not numeric")
		}
		return realV(math.Mod(x, y)), nil
	}
	for _, n := range []string{"mod", "amod", "dmod"} {
		elementals[n] = mod
	}
	elementals["modulo"] = func(a []value, _ int64) (value, error) {
		if len(a) != 2 {
			return value{}, fmt.Errorf("needs two arguments")
		}
		if a[0].k == kInt && a[1].k == kInt {
			p := a[1].i
			if p == 0 {
				return value{}, fmt.Errorf("second argument is zero")
			}
			r := a[0].i % p
			if r != 0 && (r < 0) != (p < 0) {
				r += p
			}
			return intV(r), nil
		}
		x, _ := asReal(a[0])
		y, _ := asReal(a[1])
		return realV(x - math.Floor(x/y)*y), nil
	}
	sign := func(a []value, _ int64) (value, error) {
		if len(a) != 2 {
			return value{}, fmt.Errorf("needs two arguments")
		}
		if a[0].k == kInt && a[1].k == kInt {
			m := max(a[0].i, -a[0].i)
			if a[1].i < 0 {
				m = -m
			}
			return intV(m), nil
		}
		x, _ := asReal(a[0])
		y, _ := asReal(a[1])
		return realV(math.Copysign(math.Abs(x), y)), nil
	}
	for _, n := range []string{"sign", "isign", "dsign"} {
		elementals[n] = sign
	}
	elementals["dim"] = func(a []value, _ int64) (value, error) {
		d, err := binary(apt.OpSub, a[0], a[1])
		if err != nil {
			return value{}, err
		}
		if r, _ := compare(apt.OpLt, d, intV(0)); r.i != 0 {
			return binary(apt.OpSub, d, d)
		}
		return d, nil
	}
	elementals["dprod"] = func(a []value, _ int64) (value, error) {
		x, _ := asReal(a[0])
		y, _ := asReal(a[1])
		return realV(x * y), nil
	}
	toInt := func(round func(float64) float64) elemental {
		return func(a []value, _ int64) (value, error) {
			if len(a) < 1 {
				return value{}, fmt.Errorf("missing argument")
			}
			switch a[0].k {
			case kInt:
				return a[0], nil
			case kReal:
				if math.IsNaN(a[0].f) || math.IsInf(a[0].f, 0) {
					return value{}, fmt.Errorf("argument %v has no integer value", a[0].f)
				}
				return intV(int64(round(a[0].f))), nil
			case kCplx:
				return intV(int64(round(real(a[0].c)))), nil
			}
			return value{}, fmt.Errorf("argument of type %s", a[0].k)
		}
	}
	for _, n := range []string{"int", "ifix", "idint"} {
		elementals[n] = toInt(math.Trunc)
	}
	for _, n := range []string{"nint", "idnint"} {
		elementals[n] = toInt(math.Round)
	}
	elementals["floor"] = toInt(math.Floor)
	elementals["ceiling"] = toInt(math.Ceil)
	toReal := func(a []value, _ int64) (value, error) {
		if len(a) < 1 {
			return value{}, fmt.Errorf("missing argument")
		}
		f, ok := asReal(a[0])
		if !ok {
			return value{}, fmt.Errorf("argument of type %s", a[0].k)
		}
		return realV(f), nil
	}
	for _, n := range []string{"real", "float", "sngl", "dble", "dfloat", "dreal"} {
		elementals[n] = toReal
	}
	roundReal := func(round func(float64) float64) elemental {
		return func(a []value, _ int64) (value, error) {
			f, ok := asReal(a[0])
			if !ok {
				return value{}, fmt.Errorf("argument of type %s", a[0].k)
			}
			return realV(round(f)), nil
		}
	}
	elementals["aint"], elementals["dint"] = roundReal(math.Trunc), roundReal(math.Trunc)
	elementals["anint"], elementals["dnint"] = roundReal(math.Round), roundReal(math.Round)
	mkCplx := func(a []value, _ int64) (value, error) {
		re, ok := asCplx(a[0])
		if !ok {
			return value{}, fmt.Errorf("argument of type %s", a[0].k)
		}
		if a[0].k == kCplx || len(a) == 1 {
			return cplxV(re), nil
		}
		im, _ := asReal(a[1])
		return cplxV(complex(real(re), im)), nil
	}
	elementals["cmplx"], elementals["dcmplx"] = mkCplx, mkCplx
	elementals["conjg"] = func(a []value, _ int64) (value, error) {
		c, _ := asCplx(a[0])
		return cplxV(cmplx.Conj(c)), nil
	}
	elementals["aimag"] = func(a []value, _ int64) (value, error) {
		c, _ := asCplx(a[0])
		return realV(imag(c)), nil
	}
	bits := func(f func(x, y int64) int64) elemental {
		return func(a []value, _ int64) (value, error) {
			if len(a) != 2 || a[0].k != kInt || a[1].k != kInt {
				return value{}, fmt.Errorf("needs two integer arguments")
			}
			return intV(f(a[0].i, a[1].i)), nil
		}
	}
	elementals["iand"] = bits(func(x, y int64) int64 { return x & y })
	elementals["ior"] = bits(func(x, y int64) int64 { return x | y })
	elementals["ieor"] = bits(func(x, y int64) int64 { return x ^ y })
	elementals["ishft"] = bits(func(x, y int64) int64 {
		switch {
		case y >= 64 || y <= -64:
			return 0
		case y >= 0:
			return x << uint(y)
		}
		return int64(uint64(x) >> uint(-y))
	})
	// SHIFTL, SHIFTR and SHIFTA (Fortran 2008 13.7.155-157), in 64 bits
	// like ISHFT here.
	elementals["shiftl"] = bits(func(x, y int64) int64 {
		if y >= 64 {
			return 0
		}
		return x << uint(y)
	})
	elementals["shiftr"] = bits(func(x, y int64) int64 {
		if y >= 64 {
			return 0
		}
		return int64(uint64(x) >> uint(y))
	})
	elementals["shifta"] = bits(func(x, y int64) int64 { return x >> uint(min(y, 63)) })
	elementals["btest"] = func(a []value, _ int64) (value, error) {
		if len(a) != 2 || a[0].k != kInt || a[1].k != kInt || a[1].i < 0 || a[1].i > 63 {
			return value{}, fmt.Errorf("needs an integer and a bit position")
		}
		return logV(a[0].i>>uint(a[1].i)&1 == 1), nil
	}
	elementals["not"] = func(a []value, _ int64) (value, error) {
		if a[0].k != kInt {
			return value{}, fmt.Errorf("needs an integer")
		}
		return intV(^a[0].i), nil
	}
	elementals["merge"] = func(a []value, _ int64) (value, error) {
		if len(a) != 3 || a[2].k != kLog {
			return value{}, fmt.Errorf("needs tsource, fsource and a logical mask")
		}
		if a[2].i != 0 {
			return a[0], nil
		}
		return a[1], nil
	}
	char1 := func(f func(s string) value) elemental {
		return func(a []value, _ int64) (value, error) {
			if len(a) < 1 || a[0].k != kChar {
				return value{}, fmt.Errorf("needs a character argument")
			}
			return f(a[0].s), nil
		}
	}
	elementals["len_trim"] = char1(func(s string) value { return intV(int64(len(strings.TrimRight(s, " ")))) })
	elementals["adjustl"] = char1(func(s string) value {
		t := strings.TrimLeft(s, " ")
		return charV(t + strings.Repeat(" ", len(s)-len(t)))
	})
	elementals["adjustr"] = char1(func(s string) value {
		t := strings.TrimRight(s, " ")
		return charV(strings.Repeat(" ", len(s)-len(t)) + t)
	})
	ichar := char1(func(s string) value {
		if s == "" {
			return intV(0)
		}
		return intV(int64(s[0]))
	})
	elementals["ichar"], elementals["iachar"] = ichar, ichar
	char := func(a []value, _ int64) (value, error) {
		if a[0].k != kInt || a[0].i < 0 || a[0].i > 255 {
			return value{}, fmt.Errorf("needs a character code")
		}
		return charV(string([]byte{byte(a[0].i)})), nil
	}
	elementals["char"], elementals["achar"] = char, char
	elementals["index"] = func(a []value, _ int64) (value, error) {
		if len(a) < 2 || a[0].k != kChar || a[1].k != kChar {
			return value{}, fmt.Errorf("needs two character arguments")
		}
		back := len(a) > 2 && a[2].k == kLog && a[2].i != 0
		if back {
			return intV(int64(strings.LastIndex(a[0].s, a[1].s) + 1)), nil
		}
		return intV(int64(strings.Index(a[0].s, a[1].s) + 1)), nil
	}
	lexical := func(op apt.Op) elemental {
		return func(a []value, _ int64) (value, error) { return compare(op, a[0], a[1]) }
	}
	elementals["lge"], elementals["lgt"] = lexical(apt.OpGe), lexical(apt.OpGt)
	elementals["lle"], elementals["llt"] = lexical(apt.OpLe), lexical(apt.OpLt)
}
