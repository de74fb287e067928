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
	realPartResult // the real type of the same kind (aimag, abs of complex)
)

// intrinsics are the Fortran intrinsic functions the frontend recognises; a
// reference to one is a FuncCall with Intrinsic set, counted by name in Ops.
var intrinsics = map[string]resultRule{
	"abs": sameAsArg, "sqrt": sameAsArg, "exp": sameAsArg, "log": sameAsArg, "log10": sameAsArg,
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
	"ishft": intResult, "ishftc": intResult, "not": intResult, "kind": intResult,
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
