package llvmir

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

func isPointer(t types.Type) bool {
	_, ok := t.(*types.PointerType)
	return ok
}

// nameExpr references a variable at the position of the statement being
// built (the IR keeps no column per operand).
func (x *fn) nameExpr(name string, t apt.Type) apt.Expr {
	return &apt.Name{Pos: x.at, Name: name, Type: t}
}

func (x *fn) expr(v value.Value) apt.Expr { return x.exprOps(v, nil) }

// condExpr is a branch condition as a logical expression.
func (x *fn) condExpr(v value.Value) apt.Expr {
	e := x.expr(v)
	if c, ok := e.(*apt.Const); ok && c.Kind == apt.ConstInt {
		return logical(c.Text != "0")
	}
	return e
}

func logical(b bool) apt.Expr {
	t := ".FALSE."
	if b {
		t = ".TRUE."
	}
	return &apt.Const{Kind: apt.ConstLogical, Text: t, Type: apt.Type{Base: apt.TypeLogical, Kind: 4}}
}

func unknownExpr(what string) apt.Expr {
	return &apt.FuncCall{Name: what, Type: apt.Type{Base: apt.TypeUnknown}}
}

// exprOps is the expression of value v; the operations of the
// instructions written into it are added to ops (when not nil).
func (x *fn) exprOps(v value.Value, ops *apt.Ops) apt.Expr {
	if ops == nil {
		ops = &apt.Ops{}
	}
	v = unwrapArg(v)
	switch c := v.(type) {
	case *constant.Int:
		if c.Typ.BitSize == 1 {
			return logical(c.X.Sign() != 0)
		}
		return bigConst(c.X)
	case *constant.Float:
		return floatConst(c)
	case *constant.Null, *constant.ZeroInitializer:
		return intConst(0)
	case *constant.Undef, *constant.Poison:
		return unknownExpr("undefined")
	case *ir.Global:
		return x.globalRef(c)
	case *ir.Func:
		return x.l.funcRef(c)
	case *constant.ExprBitCast:
		return x.exprOps(c.From, ops)
	case *constant.ExprAddrSpaceCast:
		return x.exprOps(c.From, ops)
	case *constant.ExprPtrToInt:
		return x.exprOps(c.From, ops)
	case *constant.ExprIntToPtr:
		return x.exprOps(c.From, ops)
	case *constant.ExprGetElementPtr:
		e, _ := x.gepRef(c.Src, c.ElemType, constValues(c.Indices), ops)
		return e
	case *ir.Param:
		n := x.names[c]
		return x.nameExpr(n, x.vars[n].Type)
	case *ir.TermInvoke:
		n := x.names[c]
		x.declare(n, valueType(c.Typ), x.dimsOf(c))
		return x.nameExpr(n, x.vars[n].Type)
	case ir.Instruction:
		if a, ok := x.alias[v]; ok {
			return x.exprOps(a, ops)
		}
		if x.inline[v] {
			return x.build(c, ops)
		}
		n, ok := x.names[v]
		if !ok {
			return unknownExpr("unnamed")
		}
		x.declare(n, valueType(v.Type()), x.dimsOf(v))
		return x.nameExpr(n, x.vars[n].Type)
	}
	return unknownExpr("constant")
}

// constValues are the indices of a constant getelementptr as values. llir
// wraps each in a constant.Index (which carries LLVM's inrange flag):
// unwrapped, a zero index and a field number read as the integers they are
// (key_array[0] is an element, g.f the field f, not field 0).
func constValues(cs []constant.Constant) []value.Value {
	out := make([]value.Value, len(cs))
	for i, c := range cs {
		if ix, ok := c.(*constant.Index); ok {
			c = ix.Constant
		}
		out[i] = c
	}
	return out
}

func bigConst(v *big.Int) apt.Expr {
	if v.Sign() < 0 {
		return &apt.Unary{Op: apt.OpNeg, X: bigConst(new(big.Int).Neg(v))}
	}
	return &apt.Const{Kind: apt.ConstInt, Text: v.String(), Type: intType}
}

// floatConst writes a floating-point constant as the shortest decimal
// that reads back as the same double: the number the source wrote (0.1,
// not its binary expansion).
func floatConst(c *constant.Float) apt.Expr {
	if c.NaN || c.X == nil || c.X.IsInf() {
		return unknownExpr("nan")
	}
	neg := c.X.Sign() < 0
	f, _ := new(big.Float).Abs(c.X).Float64()
	text := strings.ToUpper(strconv.FormatFloat(f, 'g', -1, 64))
	if !strings.ContainsAny(text, ".E") {
		text += ".0"
	}
	var e apt.Expr = &apt.Const{Kind: apt.ConstReal, Text: text, Type: valueType(c.Typ)}
	if neg {
		e = &apt.Unary{Op: apt.OpNeg, X: e}
	}
	return e
}

// mpiHandle is the MPI name of one of Open MPI's predefined objects
// (ompi_request_null is MPI_REQUEST_NULL), nil for another global.
func mpiHandle(g *ir.Global) *apt.Name {
	name := g.Name()
	if !strings.HasPrefix(name, "ompi_") {
		return nil
	}
	n := strings.TrimPrefix(name, "ompi_")
	n = strings.Replace(n, "mpi_op_", "mpi_", 1)
	if !strings.HasPrefix(n, "mpi_") {
		n = "mpi_" + n
	}
	return &apt.Name{Name: n, Type: intType}
}

// globalRef is a global variable or an MPI handle (Open MPI's predefined
// objects: ompi_mpi_comm_world is MPI_COMM_WORLD, ompi_mpi_op_sum MPI_SUM).
func (x *fn) globalRef(g *ir.Global) apt.Expr {
	name := g.Name()
	if h := mpiHandle(g); h != nil {
		x.useMPI()
		return h
	}
	if v := x.l.globals[g]; v != nil {
		return &apt.Name{Pos: x.at, Name: v.Name, Type: v.Type, Array: len(v.Dims) > 0}
	}
	if c, ok := g.Init.(*constant.CharArray); ok && g.Immutable {
		// A string literal: its text, up to its NUL.
		text := string(c.X)
		if i := strings.IndexByte(text, 0); i >= 0 {
			text = text[:i]
		}
		return &apt.Const{Pos: x.at, Kind: apt.ConstChar, Text: text, Type: apt.Type{Base: apt.TypeCharacter, Kind: 1}}
	}
	return unknownExpr("address_of_" + strings.ToLower(cleanName(name)))
}

func (x *fn) useMPI() {
	x.l.mpi = true
	for _, u := range x.r.Scope.Uses {
		if u.Module == "mpi" {
			return
		}
	}
	x.r.Scope.AddUse(&apt.Use{Module: "mpi", Resolved: true})
}

var iops = map[string]apt.Op{"add": apt.OpAdd, "sub": apt.OpSub, "mul": apt.OpMul}

// build is the expression an instruction computes, with its operations
// counted into ops.
func (x *fn) build(inst ir.Instruction, ops *apt.Ops) apt.Expr {
	bin := func(op apt.Op, a, b value.Value, count *int) apt.Expr {
		v := inst.(value.Value)
		if x.addr[v] {
			ops.SubscriptOps++
		} else if count != nil {
			*count++
		}
		return &apt.Binary{Op: op, X: x.exprOps(a, ops), Y: x.exprOps(b, ops)}
	}
	switch c := inst.(type) {
	case *ir.InstAdd:
		return bin(apt.OpAdd, c.X, c.Y, &ops.Adds)
	case *ir.InstSub:
		return bin(apt.OpSub, c.X, c.Y, &ops.Adds)
	case *ir.InstMul:
		return bin(apt.OpMul, c.X, c.Y, &ops.Muls)
	case *ir.InstSDiv, *ir.InstUDiv:
		a, b := operands(c)[0], operands(c)[1]
		e := bin(apt.OpDiv, a, b, &ops.Divs).(*apt.Binary)
		e.IntDiv = true
		if !x.addr[c.(value.Value)] {
			ops.IntDivs++
		}
		return e
	case *ir.InstSRem, *ir.InstURem:
		a, b := operands(c)[0], operands(c)[1]
		if !x.addr[c.(value.Value)] {
			ops.Divs++
			ops.IntDivs++
		} else {
			ops.SubscriptOps++
		}
		return intrinsic("mod", intType, x.exprOps(a, ops), x.exprOps(b, ops))
	case *ir.InstShl:
		if k, ok := c.Y.(*constant.Int); ok && k.X.IsInt64() && k.X.Int64() < 62 {
			return bin(apt.OpMul, c.X, constant.NewInt(types.I64, 1<<k.X.Int64()), &ops.Muls)
		}
		// A shift by a variable (n << l): Fortran 2008's SHIFTL, of the
		// operand's width.
		ops.Logic++
		return intrinsic("shiftl", shiftType(c.Typ), x.exprOps(c.X, ops), x.exprOps(c.Y, ops))
	case *ir.InstAShr, *ir.InstLShr:
		a, b := operands(c)[0], operands(c)[1]
		if k, ok := b.(*constant.Int); ok && k.X.IsInt64() && k.X.Int64() < 62 {
			e := bin(apt.OpDiv, a, constant.NewInt(types.I64, 1<<k.X.Int64()), &ops.Divs).(*apt.Binary)
			e.IntDiv = true
			return e
		}
		// By a variable (nx >> l, the extent of level l): SHIFTA
		// (arithmetic) or SHIFTR (logical).
		fn := "shifta"
		if _, logical := c.(*ir.InstLShr); logical {
			fn = "shiftr"
		}
		ops.Logic++
		return intrinsic(fn, shiftType(c.(value.Value).Type()), x.exprOps(a, ops), x.exprOps(b, ops))
	case *ir.InstAnd, *ir.InstOr, *ir.InstXor:
		a, b := operands(c)[0], operands(c)[1]
		ops.Logic++
		if t, ok := c.(value.Value).Type().(*types.IntType); ok && t.BitSize == 1 {
			op := map[string]apt.Op{"and": apt.OpAnd, "or": apt.OpOr, "xor": apt.OpNeqv}[opName(c)]
			return &apt.Binary{Op: op, X: x.exprOps(a, ops), Y: x.exprOps(b, ops)}
		}
		fn := map[string]string{"and": "iand", "or": "ior", "xor": "ieor"}[opName(c)]
		return intrinsic(fn, intType, x.exprOps(a, ops), x.exprOps(b, ops))
	case *ir.InstFAdd:
		return bin(apt.OpAdd, c.X, c.Y, &ops.Adds)
	case *ir.InstFSub:
		return bin(apt.OpSub, c.X, c.Y, &ops.Adds)
	case *ir.InstFMul:
		return bin(apt.OpMul, c.X, c.Y, &ops.Muls)
	case *ir.InstFDiv:
		return bin(apt.OpDiv, c.X, c.Y, &ops.Divs)
	case *ir.InstFRem:
		ops.Divs++
		return intrinsic("mod", valueType(c.Typ), x.exprOps(c.X, ops), x.exprOps(c.Y, ops))
	case *ir.InstFNeg:
		ops.Negs++
		return &apt.Unary{Op: apt.OpNeg, X: x.exprOps(c.X, ops)}
	case *ir.InstTrunc:
		if t, ok := c.To.(*types.IntType); ok && t.BitSize == 1 {
			// A C bool loaded from memory (an i8 0 or 1) becomes a
			// truth value: the test x != 0.
			return &apt.Binary{Op: apt.OpNe, X: x.exprOps(c.From, ops), Y: intConst(0)}
		}
		return x.exprOps(c.From, ops)
	case *ir.InstZExt, *ir.InstSExt, *ir.InstFPTrunc, *ir.InstFPExt, *ir.InstBitCast,
		*ir.InstAddrSpaceCast, *ir.InstPtrToInt, *ir.InstIntToPtr, *ir.InstFreeze:
		return x.exprOps(operands(c)[0], ops)
	case *ir.InstSIToFP, *ir.InstUIToFP:
		return x.exprOps(operands(c)[0], ops)
	case *ir.InstFPToSI, *ir.InstFPToUI:
		return intrinsic("int", intType, x.exprOps(operands(c)[0], ops))
	case *ir.InstICmp:
		if !x.addr[c] {
			ops.Cmps++
		}
		return &apt.Binary{Op: ipredOp(c.Pred), X: x.exprOps(c.X, ops), Y: x.exprOps(c.Y, ops)}
	case *ir.InstFCmp:
		ops.Cmps++
		op, ok := fpredOp(c.Pred)
		if !ok {
			return unknownExpr("fcmp_" + c.Pred.String())
		}
		return &apt.Binary{Op: op, X: x.exprOps(c.X, ops), Y: x.exprOps(c.Y, ops)}
	case *ir.InstExtractValue:
		if e, ok := x.overflowPart(c, ops); ok {
			return e
		}
	case *ir.InstSelect:
		return intrinsic("merge", valueType(c.Typ), x.exprOps(c.ValueTrue, ops), x.exprOps(c.ValueFalse, ops), x.exprOps(c.Cond, ops))
	case *ir.InstGetElementPtr:
		e, _ := x.gepRef(c.Src, c.ElemType, c.Indices, ops)
		return slotAddr(e, c.Typ)
	case *ir.InstLoad:
		if x.argvKindOf(c) == argvElement {
			// A string of the command line: argv(pos), whichever
			// pointer the program read it through.
			ops.Loads++
			return &apt.Index{Pos: x.at, Name: x.argvName, Subs: []apt.Expr{x.argvDef(c)}, Type: x.vars[x.argvName].Type}
		}
		e, elem := x.location(c.Src, ops)
		if elem {
			ops.Loads++
		}
		return e
	case *ir.InstPhi:
		n := x.names[c]
		return x.nameExpr(n, valueType(c.Typ))
	case *ir.InstCall:
		return x.callExpr(c, ops)
	}
	return unknownExpr(strings.ToLower(opName(inst)))
}

// slotAddr is the address of a slot of an array of pointers to
// structures (&v[k] of a std::vector<T*>, its end _M_finish + 1), which
// the reference e names as the slot's element, a pointer held as a value.
// As an address it is a pointer to 8-byte cells: p + 1 steps one slot, and
// a call given it stores into the slot instead of reading it. Pointers to
// other pointers (an MPI_Request is one) keep their element reading.
func slotAddr(e apt.Expr, t types.Type) apt.Expr {
	ix, ok := e.(*apt.Index)
	if !ok || ix.Type != addrType {
		return e
	}
	if !slotOfStruct(t) {
		return e
	}
	cp := *ix
	cp.Type = apt.Type{Base: apt.TypeDerived, Kind: 8}
	return &cp
}

// slotOfStruct reports whether t is a pointer to a pointer to a
// structure (T**), the address of a slot of an array of pointers.
func slotOfStruct(t types.Type) bool {
	pt, ok := t.(*types.PointerType)
	if !ok {
		return false
	}
	inner, ok := pt.ElemType.(*types.PointerType)
	if !ok {
		return false
	}
	_, isStruct := inner.ElemType.(*types.StructType)
	return isStruct && valueType(inner.ElemType).Base == apt.TypeDerived
}

// overflowPart is a part of the result of an arithmetic intrinsic that
// reports overflow ({value, overflowed}): the operation's value, or the
// test that its exact value leaves the type's range. C++'s new T[n]
// computes n*sizeof(T) so and asks for -1 bytes where it overflows: with
// n known, the test is decided.
func (x *fn) overflowPart(c *ir.InstExtractValue, ops *apt.Ops) (apt.Expr, bool) {
	call, ok := c.X.(*ir.InstCall)
	if !ok || len(c.Indices) != 1 || c.Indices[0] > 1 || len(call.Args) != 2 {
		return nil, false
	}
	it, ok := call.Args[0].Type().(*types.IntType)
	if !ok || it.BitSize < 2 {
		return nil, false
	}
	name, _ := calleeName(call)
	var op apt.Op
	signed := strings.HasPrefix(name, "llvm.s")
	switch name {
	case "llvm.umul", "llvm.smul":
		op = apt.OpMul
	case "llvm.uadd", "llvm.sadd":
		op = apt.OpAdd
	case "llvm.usub", "llvm.ssub":
		op = apt.OpSub
	default:
		return nil, false
	}
	val := &apt.Binary{Op: op, X: x.exprOps(call.Args[0], ops), Y: x.exprOps(call.Args[1], ops)}
	if c.Indices[0] == 0 {
		if op == apt.OpMul {
			ops.Muls++
		} else {
			ops.Adds++
		}
		return val, true
	}
	one := big.NewInt(1)
	lo, hi := new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, uint(it.BitSize)), one)
	if signed {
		hi = new(big.Int).Sub(new(big.Int).Lsh(one, uint(it.BitSize-1)), one)
		lo = new(big.Int).Neg(new(big.Int).Lsh(one, uint(it.BitSize-1)))
	}
	return &apt.Binary{Op: apt.OpOr,
		X: &apt.Binary{Op: apt.OpGt, X: val, Y: bigConst(hi)},
		Y: &apt.Binary{Op: apt.OpLt, X: val, Y: bigConst(lo)}}, true
}

func opName(inst any) string {
	s := ""
	if l, ok := inst.(interface{ LLString() string }); ok {
		s = l.LLString()
	}
	if i := strings.Index(s, "= "); i >= 0 {
		s = s[i+2:]
	}
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i]
	}
	return s
}

// shiftType is the integer type of a shift's operands: its kind is the
// width the bits are shifted in.
func shiftType(t types.Type) apt.Type {
	if it, ok := t.(*types.IntType); ok && it.BitSize == 64 {
		return apt.Type{Base: apt.TypeInteger, Kind: 8}
	}
	return apt.Type{Base: apt.TypeInteger, Kind: 4}
}

func intrinsic(name string, t apt.Type, args ...apt.Expr) apt.Expr {
	return &apt.FuncCall{Name: name, Intrinsic: true, Args: args, Type: t}
}

func ipredOp(p enum.IPred) apt.Op {
	switch p {
	case enum.IPredEQ:
		return apt.OpEq
	case enum.IPredNE:
		return apt.OpNe
	case enum.IPredSLT, enum.IPredULT:
		return apt.OpLt
	case enum.IPredSLE, enum.IPredULE:
		return apt.OpLe
	case enum.IPredSGT, enum.IPredUGT:
		return apt.OpGt
	}
	return apt.OpGe
}

func fpredOp(p enum.FPred) (apt.Op, bool) {
	switch p {
	case enum.FPredOEQ, enum.FPredUEQ:
		return apt.OpEq, true
	case enum.FPredONE, enum.FPredUNE:
		return apt.OpNe, true
	case enum.FPredOLT, enum.FPredULT:
		return apt.OpLt, true
	case enum.FPredOLE, enum.FPredULE:
		return apt.OpLe, true
	case enum.FPredOGT, enum.FPredUGT:
		return apt.OpGt, true
	case enum.FPredOGE, enum.FPredUGE:
		return apt.OpGe, true
	}
	return 0, false
}

// constText is the text of a constant pointer to a string literal.
func (x *fn) constText(v value.Value) (string, bool) {
	e, ok := x.expr(v).(*apt.Const)
	if !ok || e.Kind != apt.ConstChar {
		return "", false
	}
	return e.Text, true
}
