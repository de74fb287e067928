package concrete

import (
	"math"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// funcCall compiles a reference to one of the program's functions or to
// an intrinsic.
func (c *compiler) funcCall(f *apt.FuncCall) num {
	if !f.Intrinsic {
		if r := c.m.Routine(c.rt.r, f.Name); r != nil {
			call := c.call(c.site, f.Name, f.Args, f.Pos)
			crt := c.m.compile(r)
			res, pos := crt.result, f.Pos
			if res < 0 {
				stop(pos, "%s is not a function", f.Name)
			}
			if crt.slots[res].real {
				return realNum(func(a *act) (float64, bool) {
					ca := call(a)
					vw := ca.view(res, pos)
					v, ok := vw.s.F[vw.off], vw.s.Known[vw.off]
					ca.release()
					return v, ok
				})
			}
			return intNum(func(a *act) (int64, bool) {
				ca := call(a)
				vw := ca.view(res, pos)
				v, ok := vw.s.I[vw.off], vw.s.Known[vw.off]
				ca.release()
				return v, ok
			})
		}
	}
	return c.intrinsic(f)
}

// intrinsic compiles the numeric intrinsics.
func (c *compiler) intrinsic(f *apt.FuncCall) num {
	pos := f.Pos
	switch f.Name {
	case "size", "lbound", "ubound":
		return c.bounds(f)
	}
	var args []num
	for _, a := range f.Args {
		if kw, ok := a.(*apt.Keyword); ok {
			if kw.Name == "kind" {
				continue
			}
			a = kw.Value
		}
		args = append(args, c.expr(a))
	}
	need := func(n int) {
		if len(args) < n {
			stop(pos, "%s with %d arguments", f.Name, len(args))
		}
	}
	sg := single(f.Type)
	realFn := func(fn func(float64) float64) num {
		need(1)
		x := args[0].asReal()
		return realNum(func(a *act) (float64, bool) {
			v, ok := x(a)
			return round(fn(v), sg), ok
		})
	}
	anyReal := false
	for _, x := range args {
		anyReal = anyReal || x.real
	}
	if fn, ok := realFuncs[f.Name]; ok {
		return realFn(fn)
	}
	if _, ok := CCharFunc(f.Name, 0); ok && c.m.prog.Notation() != apt.Fortran {
		need(1)
		x, name := args[0].asInt(), f.Name
		return intNum(func(a *act) (int64, bool) {
			v, ok := x(a)
			r, _ := CCharFunc(name, v)
			return r, ok
		})
	}
	switch f.Name {
	case "selected_real_kind":
		// The kinds gfortran gives: REAL(4) to 6 digits, REAL(8) to 15,
		// REAL(10) to 18, REAL(16) to 33; -1 beyond.
		need(1)
		p := args[0].asInt()
		return intNum(func(a *act) (int64, bool) {
			v, ok := p(a)
			switch {
			case v <= 6:
				return 4, ok
			case v <= 15:
				return 8, ok
			case v <= 18:
				return 10, ok
			case v <= 33:
				return 16, ok
			}
			return -1, ok
		})
	case "selected_int_kind":
		need(1)
		r := args[0].asInt()
		return intNum(func(a *act) (int64, bool) {
			v, ok := r(a)
			switch {
			case v <= 2:
				return 1, ok
			case v <= 4:
				return 2, ok
			case v <= 9:
				return 4, ok
			case v <= 18:
				return 8, ok
			case v <= 38:
				return 16, ok
			}
			return -1, ok
		})
	case "undefined", "mpi_wtime", "mpi_wtick", "omp_get_wtime", "rand", "random", "drand48", "lrand48", "mrand48":
		// A value the program leaves undefined (C's undef on a path
		// that sets nothing), the clock, or the C library's random
		// numbers (their state is the library's): unknown, so that the
		// run stops only where control needs it (a timer's sums, the
		// random data a block starts with, do not).
		if f.Type.Base == apt.TypeReal {
			return realNum(func(*act) (float64, bool) { return 0, false })
		}
		return intNum(func(*act) (int64, bool) { return 0, false })
	case "int", "ifix", "idint", "int2", "int8":
		need(1)
		return intNum(args[0].asInt())
	case "nint", "idnint":
		need(1)
		x := args[0].asReal()
		return intNum(func(a *act) (int64, bool) { v, ok := x(a); return nint(v), ok })
	case "floor", "ceiling":
		need(1)
		x, fn := args[0].asReal(), math.Floor
		if f.Name == "ceiling" {
			fn = math.Ceil
		}
		return intNum(func(a *act) (int64, bool) { v, ok := x(a); return int64(fn(v)), ok })
	case "atan", "datan":
		if len(args) == 2 {
			return c.real2(args, sg, math.Atan2)
		}
		return realFn(math.Atan)
	case "atan2", "datan2":
		return c.real2(args, sg, math.Atan2)
	case "abs", "iabs", "dabs":
		need(1)
		if args[0].real {
			return realFn(math.Abs)
		}
		x := args[0].i
		return intNum(func(a *act) (int64, bool) {
			v, ok := x(a)
			if v < 0 {
				v = -v
			}
			return v, ok
		})
	case "mod", "amod", "dmod", "modulo":
		need(2)
		floor := f.Name == "modulo"
		if anyReal {
			return c.real2(args, sg, func(p, q float64) float64 {
				if floor {
					return p - math.Floor(p/q)*q
				}
				return math.Mod(p, q)
			})
		}
		x, y := args[0].i, args[1].i
		return intNum(func(a *act) (int64, bool) {
			p, ok1 := x(a)
			q, ok2 := y(a)
			if !ok1 || !ok2 {
				return 0, false
			}
			if q == 0 {
				stop(pos, "%s by zero", f.Name)
			}
			r := p % q
			if floor && r != 0 && (r < 0) != (q < 0) {
				r += q
			}
			return r, true
		})
	case "sign", "isign", "dsign":
		need(2)
		if anyReal {
			return c.real2(args, sg, func(p, q float64) float64 {
				if q >= 0 {
					return math.Abs(p)
				}
				return -math.Abs(p)
			})
		}
		return c.int2(args, func(p, q int64) int64 {
			if p < 0 {
				p = -p
			}
			if q < 0 {
				return -p
			}
			return p
		})
	case "dim", "idim", "ddim":
		need(2)
		if anyReal {
			return c.real2(args, sg, func(p, q float64) float64 { return math.Max(p-q, 0) })
		}
		return c.int2(args, func(p, q int64) int64 { return max(p-q, 0) })
	case "min", "max", "min0", "max0", "amin1", "amax1", "dmin1", "dmax1", "amin0", "amax0", "min1", "max1":
		need(1)
		isMax := strings.Contains(f.Name, "max")
		if f.Type.Base == apt.TypeReal {
			xs := make([]fval, len(args))
			for i, x := range args {
				xs[i] = x.asReal()
			}
			best := extreme[float64](xs, isMax)
			return realNum(func(a *act) (float64, bool) { v, ok := best(a); return round(v, sg), ok })
		}
		xs := make([]ival, len(args))
		for i, x := range args {
			xs[i] = x.asInt()
		}
		return intNum(extreme[int64](xs, isMax))
	case "iand", "and":
		return c.int2(args, func(p, q int64) int64 { return p & q })
	case "ior", "or":
		return c.int2(args, func(p, q int64) int64 { return p | q })
	case "ieor", "xor":
		return c.int2(args, func(p, q int64) int64 { return p ^ q })
	case "ishft":
		return c.int2(args, func(p, q int64) int64 {
			switch {
			case q >= 64 || q <= -64:
				return 0
			case q >= 0:
				return p << uint(q)
			}
			return int64(uint64(p) >> uint(-q))
		})
	case "not":
		need(1)
		x := args[0].asInt()
		return intNum(func(a *act) (int64, bool) { v, ok := x(a); return ^v, ok })
	case "btest":
		return c.int2(args, func(p, q int64) int64 { return b2i(q >= 0 && q < 64 && p&(1<<uint(q)) != 0) })
	}
	for _, x := range f.Args {
		if opaque(apt.TypeOf(x)) {
			// A function of values the run does not follow (CONJG of
			// complex data, LEN_TRIM of text): unknown too.
			return c.opaqueExpr(f, f.Type)
		}
	}
	stop(pos, "intrinsic %s", f.Name)
	return num{}
}

// real2 compiles a real function of two arguments.
func (c *compiler) real2(args []num, sg bool, fn func(p, q float64) float64) num {
	if len(args) < 2 {
		stop(apt.Pos{}, "a function of two arguments with %d", len(args))
	}
	x, y := args[0].asReal(), args[1].asReal()
	return realNum(func(a *act) (float64, bool) {
		p, ok1 := x(a)
		q, ok2 := y(a)
		return round(fn(p, q), sg), ok1 && ok2
	})
}

// int2 compiles an integer function of two arguments.
func (c *compiler) int2(args []num, fn func(p, q int64) int64) num {
	if len(args) < 2 {
		stop(apt.Pos{}, "a function of two arguments with %d", len(args))
	}
	x, y := args[0].asInt(), args[1].asInt()
	return intNum(func(a *act) (int64, bool) {
		p, ok1 := x(a)
		q, ok2 := y(a)
		return fn(p, q), ok1 && ok2
	})
}

// extreme compiles MAX (isMax) or MIN of xs.
func extreme[T int64 | float64, F ~func(a *act) (T, bool)](xs []F, isMax bool) F {
	return func(a *act) (T, bool) {
		best, ok := xs[0](a)
		for _, x := range xs[1:] {
			v, k := x(a)
			ok = ok && k
			if isMax && v > best || !isMax && v < best {
				best = v
			}
		}
		return best, ok
	}
}

// realFuncs are the real functions of one argument, by every name.
var realFuncs = map[string]func(float64) float64{}

func init() {
	for names, fn := range map[string]func(float64) float64{
		"real float sngl dble dfloat dreal": func(v float64) float64 { return v },
		"aint dint":                         math.Trunc,
		"anint dnint":                       math.Round,
		"sqrt dsqrt":                        math.Sqrt,
		"exp dexp":                          math.Exp,
		"log alog dlog":                     math.Log,
		"log10 alog10 dlog10":               math.Log10,
		"sin dsin":                          math.Sin,
		"cos dcos":                          math.Cos,
		"tan dtan":                          math.Tan,
		"asin dasin":                        math.Asin,
		"acos dacos":                        math.Acos,
		"sinh dsinh":                        math.Sinh,
		"cosh dcosh":                        math.Cosh,
		"tanh dtanh":                        math.Tanh,
	} {
		for _, n := range strings.Fields(names) {
			realFuncs[n] = fn
		}
	}
}

// bounds compiles SIZE, LBOUND and UBOUND of a whole array, with DIM= for
// the last two: from the bounds the array has in the run (its
// declaration's, its allocation's, its actual's).
func (c *compiler) bounds(f *apt.FuncCall) num {
	pos := f.Pos
	var arr *apt.Name
	var dim apt.Expr
	for k, a := range f.Args {
		if kw, ok := a.(*apt.Keyword); ok {
			switch kw.Name {
			case "dim":
				dim = kw.Value
			case "array":
				arr, _ = kw.Value.(*apt.Name)
			}
			continue
		}
		switch k {
		case 0:
			arr, _ = a.(*apt.Name)
		case 1:
			dim = a
		}
	}
	if arr == nil {
		stop(pos, "%s of an expression", f.Name)
	}
	i := c.rt.slotOf(c.m, arr.Name, pos)
	if len(c.rt.slots[i].lo) == 0 {
		stop(pos, "%s of the scalar %s", f.Name, arr.Name)
	}
	if dim == nil {
		if f.Name != "size" {
			stop(pos, "%s without DIM= is an array", f.Name)
		}
		return intNum(func(a *act) (int64, bool) { return a.view(i, pos).n, true })
	}
	d := c.intExpr(dim)
	name := f.Name
	return intNum(func(a *act) (int64, bool) {
		k, ok := d(a)
		vw := a.view(i, pos)
		lo, ext := vw.shape()
		if !ok || k < 1 || k > int64(len(ext)) {
			stop(pos, "%s of %s at dimension %d", name, arr.Name, k)
		}
		switch name {
		case "size":
			return ext[k-1], true
		case "lbound":
			return lo[k-1], true
		}
		return lo[k-1] + ext[k-1] - 1, true
	})
}
