package fortran

import "github.com/mkvet/mkvet/frontend/apt"

// resultRule says how an intrinsic function's result type follows from its
// arguments.
type resultRule uint8

const (
	sameAsArg resultRule = iota + 1 // the (promoted) type of the arguments
	intResult
	real4Result
	real8Result
	logicalResult
	charResult
	complexResult
	realPartResult  // the real type of the same kind (aimag)
	magnitudeResult // the argument's type, real of the same kind for a complex
)

// intrinsics are the Fortran intrinsic functions the frontend recognises; a
// reference to one is a FuncCall with Intrinsic set, counted by name in Ops.
var intrinsics = map[string]resultRule{
	"abs": magnitudeResult, "sqrt": sameAsArg, "exp": sameAsArg, "log": sameAsArg, "log10": sameAsArg,
	"sin": sameAsArg, "cos": sameAsArg, "tan": sameAsArg, "asin": sameAsArg, "acos": sameAsArg,
	"atan": sameAsArg, "atan2": sameAsArg, "sinh": sameAsArg, "cosh": sameAsArg, "tanh": sameAsArg,
	"sign": sameAsArg, "min": sameAsArg, "max": sameAsArg, "dim": sameAsArg, "mod": sameAsArg,
	"modulo": sameAsArg, "sum": sameAsArg, "product": sameAsArg, "maxval": sameAsArg,
	"minval": sameAsArg, "dot_product": sameAsArg, "matmul": sameAsArg, "transpose": sameAsArg,
	"spread": sameAsArg, "reshape": sameAsArg, "merge": sameAsArg, "pack": sameAsArg,
	"unpack": sameAsArg, "aint": sameAsArg, "anint": sameAsArg, "cshift": sameAsArg,
	"eoshift": sameAsArg, "huge": sameAsArg, "tiny": sameAsArg, "epsilon": sameAsArg,
	"nearest": sameAsArg, "fraction": sameAsArg, "hypot": sameAsArg, "gamma": sameAsArg,
	"erf": sameAsArg, "erfc": sameAsArg, "norm2": sameAsArg, "transfer": sameAsArg,
	"int": intResult, "nint": intResult, "floor": intResult, "ceiling": intResult, "ifix": intResult,
	"idint": intResult, "idnint": intResult, "len": intResult, "len_trim": intResult,
	"index": intResult, "size": intResult, "lbound": intResult, "ubound": intResult,
	"ichar": intResult, "iachar": intResult, "iand": intResult, "ior": intResult, "ieor": intResult,
	"ishft": intResult, "ishftc": intResult, "storage_size": intResult, "shiftl": intResult, "shiftr": intResult, "shifta": intResult, "not": intResult, "kind": intResult,
	"selected_real_kind": intResult, "selected_int_kind": intResult, "maxloc": intResult,
	"minloc": intResult, "count": intResult, "shape": intResult, "iabs": intResult,
	"isign": intResult, "max0": intResult, "min0": intResult, "mod0": intResult,
	"exponent": intResult, "iargc": intResult, "command_argument_count": intResult,
	"bit_size": intResult, "digits": intResult, "range": intResult, "precision": intResult,
	"real": real4Result, "float": real4Result, "sngl": real4Result, "amax1": real4Result,
	"amin1": real4Result, "alog": real4Result, "alog10": real4Result, "amod": real4Result,
	"dble": real8Result, "dfloat": real8Result, "dsqrt": real8Result, "dexp": real8Result,
	"dlog": real8Result, "dlog10": real8Result, "dabs": real8Result, "dsin": real8Result,
	"dcos": real8Result, "dtan": real8Result, "datan": real8Result, "datan2": real8Result,
	"dmax1": real8Result, "dmin1": real8Result, "dsign": real8Result, "dmod": real8Result,
	"dprod": real8Result, "dreal": real8Result, "dint": real8Result, "dnint": real8Result,
	"present": logicalResult, "allocated": logicalResult, "associated": logicalResult,
	"same_type_as": logicalResult, "extends_type_of": logicalResult,
	"any": logicalResult, "all": logicalResult, "btest": logicalResult, "lge": logicalResult,
	"lgt": logicalResult, "lle": logicalResult, "llt": logicalResult,
	"char": charResult, "achar": charResult, "trim": charResult, "adjustl": charResult,
	"adjustr": charResult, "repeat": charResult,
	"cmplx": complexResult, "dcmplx": complexResult, "conjg": sameAsArg, "aimag": realPartResult,
}

// intrinsicType returns the result type of intrinsic name applied to args.
func intrinsicType(name string, args []apt.Expr) apt.Type {
	argType := apt.Type{Base: apt.TypeUnknown}
	for i, a := range args {
		if kw, ok := a.(*apt.Keyword); ok {
			a = kw.Value
		}
		if i == 0 {
			argType = apt.TypeOf(a)
			continue
		}
		// min, max, mod, sign, ...: promote across arguments.
		at := apt.TypeOf(a)
		if rank(at.Base) > rank(argType.Base) || (at.Base == argType.Base && at.Kind > argType.Kind) {
			argType = at
		}
	}
	switch intrinsics[name] {
	case sameAsArg:
		return argType
	case intResult:
		return apt.Type{Base: apt.TypeInteger, Kind: 4}
	case real4Result:
		if name == "real" && argType.Base == apt.TypeComplex {
			return apt.Type{Base: apt.TypeReal, Kind: argType.Kind / 2}
		}
		return apt.Type{Base: apt.TypeReal, Kind: 4}
	case real8Result:
		return apt.Type{Base: apt.TypeReal, Kind: 8}
	case logicalResult:
		return apt.Type{Base: apt.TypeLogical, Kind: 4}
	case charResult:
		return apt.Type{Base: apt.TypeCharacter}
	case complexResult:
		if name == "dcmplx" {
			return apt.Type{Base: apt.TypeComplex, Kind: 16}
		}
		return apt.Type{Base: apt.TypeComplex, Kind: 8}
	case realPartResult:
		return apt.Type{Base: apt.TypeReal, Kind: max(argType.Kind/2, 4)}
	case magnitudeResult:
		if argType.Base == apt.TypeComplex {
			return apt.Type{Base: apt.TypeReal, Kind: argType.Kind / 2}
		}
		return argType
	}
	return apt.Type{Base: apt.TypeUnknown}
}

func rank(b apt.BaseType) int {
	switch b {
	case apt.TypeInteger:
		return 1
	case apt.TypeReal:
		return 2
	case apt.TypeComplex:
		return 3
	}
	return 0
}

// kindArgPos is the position (from 1) of the KIND argument of the
// intrinsics that take one: it, not the default, gives the result's kind.
var kindArgPos = map[string]int{
	"int": 2, "nint": 2, "floor": 2, "ceiling": 2, "real": 2, "aint": 2, "anint": 2, "cmplx": 3,
	"char": 2, "achar": 2, "ichar": 2, "iachar": 2, "len": 2, "len_trim": 2, "index": 4,
	"size": 3, "lbound": 3, "ubound": 3, "shape": 2, "count": 3, "maxloc": 4, "minloc": 4,
}

// intrinsicArg is argument i (from 0) of an intrinsic reference, given by
// position or by one of the keywords keys; nil when absent.
func intrinsicArg(args []apt.Expr, i int, keys ...string) apt.Expr {
	for j, a := range args {
		if kw, ok := a.(*apt.Keyword); ok {
			for _, k := range keys {
				if kw.Name == k {
					return kw.Value
				}
			}
		} else if j == i {
			return a
		}
	}
	return nil
}

// intrinsicRank is the rank of intrinsic name's result given rankOf for
// its arguments: elemental ones take their arguments' largest rank,
// inquiries and reductions without DIM are scalars (F2008 13.7); false
// where it does not follow from the arguments.
func intrinsicRank(name string, args []apt.Expr, rankOf func(apt.Expr) (int, bool)) (int, bool) {
	first := func() (int, bool) {
		if a := intrinsicArg(args, 0, "array", "mask", "source", "matrix", "matrix_a"); a != nil {
			return rankOf(a)
		}
		return 0, false
	}
	switch name {
	case "huge", "tiny", "epsilon", "len", "kind", "selected_real_kind", "selected_int_kind", "present",
		"allocated", "associated", "trim", "repeat", "iargc", "command_argument_count", "bit_size", "digits",
		"range", "precision", "dot_product", "size":
		return 0, true
	case "sum", "product", "maxval", "minval", "count", "any", "all", "norm2", "maxloc", "minloc", "lbound", "ubound":
		// DIM removes one dimension; the second positional argument of
		// SUM(ARRAY, MASK) is no DIM.
		if d := intrinsicArg(args, 1, "dim"); d != nil && apt.TypeOf(d).Base != apt.TypeLogical {
			r, ok := first()
			return r - 1, ok && r > 0
		}
		switch name {
		case "maxloc", "minloc", "lbound", "ubound":
			return 1, true
		}
		return 0, true
	case "shape", "pack":
		return 1, true
	case "transpose":
		return 2, true
	case "matmul":
		ra, oka := rankOf(intrinsicArg(args, 0, "matrix_a"))
		rb, okb := rankOf(intrinsicArg(args, 1, "matrix_b"))
		return ra + rb - 2, oka && okb && ra+rb > 2
	case "spread":
		r, ok := first()
		return r + 1, ok
	case "unpack":
		if a := intrinsicArg(args, 1, "mask"); a != nil {
			return rankOf(a)
		}
		return 0, false
	case "cshift", "eoshift":
		return first()
	case "reshape":
		if c, ok := intrinsicArg(args, 1, "shape").(*apt.ArrayCons); ok {
			for _, e := range c.Elems {
				if _, ok := e.(*apt.ImpliedDo); ok {
					return 0, false
				}
			}
			return len(c.Elems), true
		}
		return 0, false
	case "transfer":
		if intrinsicArg(args, 2, "size") != nil {
			return 1, true
		}
		if r, ok := rankOf(intrinsicArg(args, 1, "mold")); ok {
			return min(r, 1), true
		}
		return 0, false
	}
	m := 0
	for _, a := range args {
		if kw, ok := a.(*apt.Keyword); ok {
			a = kw.Value
		}
		r, ok := rankOf(a)
		if !ok {
			return 0, false
		}
		m = max(m, r)
	}
	return m, true
}
