package llvmir

import (
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// mathFuncs are C library and LLVM math functions, by the intrinsic name
// the cost model knows (Fortran's).
var mathFuncs = map[string]string{
	"sqrt": "sqrt", "sqrtf": "sqrt", "exp": "exp", "expf": "exp", "log": "log", "logf": "log",
	"log10": "log10", "log2": "log2", "log2f": "log2", "llvm.log2": "log2", "sin": "sin", "cos": "cos", "tan": "tan", "atan": "atan", "atan2": "atan2",
	"asin": "asin", "acos": "acos", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
	"fabs": "abs", "fabsf": "abs", "abs": "abs", "labs": "abs", "floor": "floor", "ceil": "ceiling",
	"fmax": "max", "fmin": "min", "fmod": "mod", "pow": "**", "powf": "**", "round": "nint",
	"cbrt": "cbrt", "cbrtf": "cbrt", "roundf": "nint", "lround": "nint", "llround": "nint",
	"trunc": "aint", "truncf": "aint", "floorf": "floor", "ceilf": "ceiling",
	"llvm.sqrt": "sqrt", "llvm.fabs": "abs", "llvm.exp": "exp", "llvm.log": "log", "llvm.sin": "sin",
	"llvm.cos": "cos", "llvm.pow": "**", "llvm.floor": "floor", "llvm.ceil": "ceiling",
	"llvm.smax": "max", "llvm.smin": "min", "llvm.umax": "max", "llvm.umin": "min", "llvm.abs": "abs",
	"llvm.maxnum": "max", "llvm.minnum": "min", "llvm.fmuladd": "fmuladd", "llvm.fma": "fmuladd",
	"llvm.round": "nint", "llvm.trunc": "aint",
}

// calleeName is the symbol a call calls ("" for an indirect call), with
// an LLVM intrinsic's type suffix removed (llvm.smax.i32 is llvm.smax).
func calleeName(c *ir.InstCall) (string, *ir.Func) {
	f, ok := stripCasts(c.Callee).(*ir.Func)
	if !ok {
		return "", nil
	}
	n := f.Name()
	if strings.HasPrefix(n, "llvm.") {
		parts := strings.Split(n, ".")
		if len(parts) >= 2 {
			n = parts[0] + "." + parts[1]
		}
	}
	return n, f
}

// pureCall reports a call of a math function or value intrinsic: no side
// effects the model needs, so it may be written into its user.
func pureCall(c *ir.InstCall) bool {
	n, f := calleeName(c)
	_, ok := mathFuncs[n]
	return ok && f != nil && len(f.Blocks) == 0
}

// inputFuncs return a value the program reads at run time (from its
// arguments, the environment or a stream): a named input parameter.
var inputFuncs = map[string]bool{"atoi": true, "atol": true, "atoll": true, "atof": true, "strtol": true,
	"strtoul": true, "strtoll": true, "strtoull": true, "strtod": true, "strtof": true}

// readFuncs read into the variables whose addresses they are given.
var readFuncs = map[string]int{"scanf": 1, "fscanf": 2, "sscanf": 2, "__isoc99_scanf": 1,
	"__isoc99_fscanf": 2, "__isoc99_sscanf": 2}

// writeFuncs write output.
var writeFuncs = map[string]bool{"printf": true, "fprintf": true, "puts": true, "fputs": true, "putchar": true,
	"fwrite": true, "fflush": true, "sprintf": false, "snprintf": false, "perror": true}

// ignoredFuncs do work the model leaves out (allocation, string copies of
// fixed size): no node.
var ignoredFuncs = map[string]bool{"malloc": true, "calloc": true, "realloc": true, "free": true,
	"aligned_alloc": true, "memalign": true, "valloc": true, "_mm_malloc": true, "_mm_free": true,
	"llvm.memcpy": true, "llvm.memset": true, "llvm.memmove": true, "srand": true,
	"time": true, "gettimeofday": true, "clock": true,
	"llvm.va_start": true, "llvm.va_end": true, "assert": true, "__assert_fail": true,
	// The C++ runtime's start-up, which the static constructors call:
	// registering a static object's destructor, <iostream>'s set-up.
	"__cxa_atexit": true, "_ZNSt8ios_base4InitC1Ev": true,
	// errno's address: the loads and stores through it are the global
	// errno's (refs.go, location).
	"__errno_location": true,
	// std::allocator<char>'s constructors and destructors, which the
	// library compiles (for std::string) and which do nothing.
	"_ZNSaIcEC1Ev": true, "_ZNSaIcEC2Ev": true, "_ZNSaIcED1Ev": true, "_ZNSaIcED2Ev": true}

// allocFuncs allocate the arrays the program indexes through the pointers
// they return.
var allocFuncs = map[string]bool{"malloc": true, "calloc": true, "realloc": true,
	"aligned_alloc": true, "memalign": true, "valloc": true, "_mm_malloc": true}

// allocation is what an allocation whose result a pointer variable holds
// is: an ALLOCATE of that array with as many elements as the bytes asked
// for hold (malloc(b), calloc(n, s), realloc(q, b)), so that a loop nest's
// footprint knows its extent; nil when the elements' size is not known (a
// struct, a pointer passed on unnamed).
func (x *fn) allocation(name string, c *ir.InstCall, p apt.Pos) *apt.Stmt {
	// malloc returns i8*: the elements are those of the pointer it is
	// cast to, and the variable may hold either.
	var holder, typed value.Value = c, c
	for _, u := range x.uses[c] {
		if b, ok := u.user.(*ir.InstBitCast); ok {
			typed = b
			if _, named := x.names[c]; !named {
				holder = b
			}
			break
		}
	}
	n, ok := x.names[holder]
	pt, isPtr := typed.Type().(*types.PointerType)
	if !ok || !isPtr {
		return nil
	}
	// Objects pointers refer to: a struct, or an array of pointers (a
	// graph's nodes, a node's arcs); the other elements are numbers, an
	// array of the variable's own.
	_, isStruct := pt.ElemType.(*types.StructType)
	_, isPtrs := pt.ElemType.(*types.PointerType)
	// A row stored into an element of an array of pointers (owner[i] =
	// malloc(...), a jagged array's row) is reached through that element:
	// an object too, so that what the row holds is the element's.
	isRow := x.storedInElement(c) || typed != value.Value(c) && x.storedInElement(typed)
	size, ok := scalarBytes(pt.ElemType)
	if isStruct {
		size, _, ok = typeSize(pt.ElemType)
	}
	if !ok || size <= 0 {
		return nil
	}
	var ops apt.Ops
	var bytes apt.Expr
	switch {
	case name == "calloc" && len(c.Args) == 2:
		bytes = &apt.Binary{Op: apt.OpMul, X: x.exprOps(c.Args[0], &ops), Y: x.exprOps(c.Args[1], &ops)}
	case (name == "malloc" || name == "valloc") && len(c.Args) == 1, name == "_mm_malloc" && len(c.Args) == 2:
		bytes = x.exprOps(c.Args[0], &ops)
	case (name == "aligned_alloc" || name == "memalign") && len(c.Args) == 2:
		bytes = x.exprOps(c.Args[1], &ops)
	case name == "realloc" && len(c.Args) == 2:
		bytes = x.exprOps(c.Args[1], &ops)
	default:
		return nil
	}
	elems := bytes
	if size > 1 {
		elems = &apt.Binary{Op: apt.OpDiv, X: bytes, Y: intConst(size), IntDiv: true}
	}
	x.declare(n, valueType(typed.Type()), x.dimsOf(holder))
	hi := &apt.Binary{Op: apt.OpSub, X: elems, Y: intConst(1)}
	et := x.vars[n].Type
	if isPtrs {
		et = addrType
	}
	st := &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAllocate, Heap: isStruct || isPtrs || isRow,
		Args: []apt.Expr{&apt.Index{Pos: p, Name: n, Type: et, Subs: []apt.Expr{&apt.Section{Lo: intConst(0), Hi: hi}}}}}
	if name == "calloc" && !st.Heap {
		// calloc's storage is zeroed: ALLOCATE with SOURCE=0.
		st.Args = append(st.Args, &apt.Keyword{Name: "source", Value: intConst(0)})
	}
	if name == "realloc" && st.Heap {
		// The object grows in place: its elements stay, the pointer
		// reallocated is the second argument.
		st.Args = append(st.Args, x.exprOps(c.Args[0], &ops))
	}
	return st
}

// memalign is posix_memalign(&q, align, bytes): an ALLOCATE of the
// pointer variable q, as malloc(bytes) assigned to q is, and a result of
// 0 (the allocation succeeds in the run the counts describe).
func (x *fn) memalign(c *ir.InstCall, p apt.Pos, used bool) *apt.Block {
	a := stripCasts(unwrapArg(c.Args[0]))
	n, named := x.names[a]
	pt, ok1 := a.Type().(*types.PointerType)
	if !named || !ok1 {
		return nil
	}
	inner, ok := pt.ElemType.(*types.PointerType)
	if !ok {
		return nil
	}
	size, ok := scalarBytes(inner.ElemType)
	if !ok || size <= 0 {
		return nil
	}
	if _, isPtrs := inner.ElemType.(*types.PointerType); isPtrs {
		return nil
	}
	// The variable holds the pointer the program indexes (q[i]): an
	// array of its elements, whatever its address's uses declared.
	v := x.declare(n, valueType(inner.ElemType), []apt.Dim{{Lo: intConst(0), Hi: &apt.Star{}}})
	if len(v.Dims) == 0 {
		v.Type, v.Dims = valueType(inner.ElemType), []apt.Dim{{Lo: intConst(0), Hi: &apt.Star{}}}
	}
	var ops apt.Ops
	elems := &apt.Binary{Op: apt.OpDiv, X: x.exprOps(c.Args[2], &ops), Y: intConst(size), IntDiv: true}
	hi := &apt.Binary{Op: apt.OpSub, X: elems, Y: intConst(1)}
	b := block(&apt.Stmt{Span: spanAt(p), Kind: apt.StmtAllocate,
		Args: []apt.Expr{&apt.Index{Pos: p, Name: n, Type: v.Type, Subs: []apt.Expr{&apt.Section{Lo: intConst(0), Hi: hi}}}}})
	if used {
		b.Stmts = append(b.Stmts, x.assign(c, p, intConst(0), apt.Ops{}))
	}
	return b
}

// addrType is the type of a pointer held as a value (an element of an
// array of pointers): its address, an integer the evaluation follows.
var addrType = apt.Type{Base: apt.TypeInteger, Kind: 8}

// typeSize is the size and alignment of an LLVM type as x86-64's ABI lays
// it out (natural alignment, structs padded to their largest member's).
func typeSize(t types.Type) (size, align int64, ok bool) {
	switch t := t.(type) {
	case *types.StructType:
		if t.Opaque {
			return 0, 0, false
		}
		var off, al int64 = 0, 1
		for _, f := range t.Fields {
			fs, fa, ok := typeSize(f)
			if !ok {
				return 0, 0, false
			}
			if !t.Packed {
				off = (off + fa - 1) / fa * fa
				al = max(al, fa)
			}
			off += fs
		}
		if !t.Packed {
			off = (off + al - 1) / al * al
		}
		return off, al, true
	case *types.ArrayType:
		es, ea, ok := typeSize(t.ElemType)
		return es * int64(t.Len), ea, ok
	}
	s, ok := scalarBytes(t)
	return s, s, ok && s > 0
}

// scalarBytes is the size of a value of an integer, floating-point or
// pointer type.
func scalarBytes(t types.Type) (int64, bool) {
	switch t := t.(type) {
	case *types.IntType:
		return max(1, int64(t.BitSize)/8), t.BitSize%8 == 0
	case *types.FloatType:
		switch t.Kind {
		case types.FloatKindFloat:
			return 4, true
		case types.FloatKindDouble:
			return 8, true
		}
	case *types.PointerType:
		return 8, true
	}
	return 0, false
}

// cxxHeapFuncs are C++'s operators new and delete (Itanium ABI names, the
// throwing, nothrow and sized forms): new and new[] of n bytes allocate as
// malloc(n) does, delete and delete[] free.
var cxxHeapFuncs = map[string]string{
	"_Znwm": "malloc", "_Znam": "malloc", "_ZnwmRKSt9nothrow_t": "malloc", "_ZnamRKSt9nothrow_t": "malloc",
	"_ZdlPv": "free", "_ZdaPv": "free", "_ZdlPvm": "free", "_ZdaPvm": "free",
	"_ZdlPvRKSt9nothrow_t": "free", "_ZdaPvRKSt9nothrow_t": "free",
}

var stopFuncs = map[string]bool{"exit": true, "abort": true, "_exit": true, "quick_exit": true}

// call emits a call instruction: a statement (a function whose result is
// used), or nodes (a CALL, an MPI Comm, I/O, STOP).
func (x *fn) call(c *ir.InstCall, p apt.Pos) (*apt.Stmt, []apt.Node) {
	name, f := calleeName(c)
	if m, ok := cxxHeapFuncs[name]; ok && len(f.Blocks) == 0 {
		name = m
	}
	base := apt.NodeBase{Span: spanAt(p)}
	used := len(x.uses[c]) > 0
	if f == nil {
		if _, asm := c.Callee.(*ir.InlineAsm); asm {
			return nil, []apt.Node{x.unknown(p, "inline assembly", "inline assembly is not modelled; its cost is unknown")}
		}
		return x.indirectCall(c, base, p, used && !types.Equal(c.Typ, types.Void))
	}
	mpiName := strings.TrimPrefix(name, "P")
	immediate := apt.LookupImmediate(mpiName)
	if op := apt.LookupCommOp(mpiName); (op != 0 || immediate != 0) && strings.HasPrefix(mpiName, "MPI_") {
		x.useMPI()
		args := x.mpiArgs(c.Args)
		var n *apt.Comm
		var need int
		if op != 0 {
			n, need = apt.NewComm(op, args)
		} else {
			n, need = apt.NewImmediateComm(immediate, args)
		}
		n.NodeBase = base
		x.l.sites = append(x.l.sites, Site{Node: n, Func: x.f, Call: c, Invoke: x.l.invokes[c]})
		if len(args) < need {
			x.l.diag(p, apt.Warning, mpiName+" has too few arguments")
		}
		return nil, []apt.Node{n}
	}
	if strings.HasPrefix(mpiName, "MPI_") {
		x.useMPI()
		lower := strings.ToLower(mpiName)
		if used && !types.Equal(c.Typ, types.I32) {
			var ops apt.Ops
			return x.assign(c, p, x.callExpr(c, &ops), ops), nil
		}
		return nil, []apt.Node{&apt.Call{NodeBase: base, Callee: lower, Args: x.mpiArgs(c.Args)}}
	}
	defined := len(f.Blocks) > 0 // the program's own: never a library function of the same name
	if !defined {
		if st, nodes, ok := x.streamCall(c, name, base, p); ok {
			return st, nodes
		}
	}
	switch {
	case defined:
	case stopFuncs[name]:
		return nil, []apt.Node{&apt.Stop{NodeBase: base}}
	case inputFuncs[name]:
		n := x.names[c]
		x.declare(n, valueType(c.Typ), nil)
		io := &apt.IO{NodeBase: base, Kind: apt.IORead, Unit: &apt.Star{},
			Items: []apt.Expr{x.nameExpr(n, x.vars[n].Type)}, Reads: []string{n}, As: x.chosenInto(c)}
		if len(c.Args) > 0 {
			io.Arg = x.argvIndexOf(c.Args[0])
			if g, ok := stripCasts(unwrapArg(c.Args[0])).(*ir.InstGetElementPtr); ok && io.Arg == nil && len(g.Indices) == 1 {
				// Past the argument's first characters (the number
				// after "--n="): the argument, and how many to skip.
				if k := x.argvIndexOf(g.Src); k != nil {
					io.Arg, io.ArgSkip = k, x.expr(unwrapArg(g.Indices[0]))
				}
			}
			if io.Arg == nil && x.argvKindOf(c.Args[0]) == 0 {
				io.From = x.expr(c.Args[0])
			}
		}
		if strings.HasPrefix(name, "strto") && len(c.Args) > 1 {
			if _, null := unwrapArg(c.Args[1]).(*constant.Null); !null {
				// strtol(s, &end, 10): end is set past the number
				// (C11 7.22.1.4), where a parser goes on reading.
				end, _ := x.location(unwrapArg(c.Args[1]), &apt.Ops{})
				io.Control = append(io.Control, &apt.Keyword{Pos: p, Name: apt.KeywordEndPtr, Value: end})
			}
		}
		return nil, []apt.Node{io}
	case name == "fgets" && len(c.Args) == 3:
		// A line of a stream into a buffer (C11 7.21.7.2); its value is
		// the buffer, or NULL at the end of the file.
		buf, _ := x.location(unwrapArg(c.Args[0]), &apt.Ops{})
		io := &apt.IO{NodeBase: base, Kind: apt.IORead, Unit: x.expr(unwrapArg(c.Args[2])), Items: []apt.Expr{buf},
			Line: true, Control: []apt.Expr{&apt.Keyword{Pos: p, Name: "size", Value: x.expr(c.Args[1])}}}
		if used {
			n := x.names[c]
			x.declare(n, valueType(c.Typ), x.dimsOf(c))
			io.Result = x.nameExpr(n, x.vars[n].Type)
		}
		return nil, []apt.Node{io}
	case (name == "getline" || name == "__getline") && len(c.Args) == 3:
		// POSIX getline(&buf, &cap, f): a line of a stream into a buffer
		// it (re)allocates; its value is the line's length, -1 at the
		// end of the file.
		buf, _ := x.location(unwrapArg(c.Args[0]), &apt.Ops{})
		io := &apt.IO{NodeBase: base, Kind: apt.IORead, Unit: x.expr(unwrapArg(c.Args[2])), Items: []apt.Expr{buf},
			Line: true, Control: []apt.Expr{&apt.Keyword{Pos: p, Name: apt.KeywordGetline, Value: intConst(1)}}}
		if used {
			n := x.names[c]
			x.declare(n, valueType(c.Typ), nil)
			io.Result = x.nameExpr(n, x.vars[n].Type)
		}
		return nil, []apt.Node{io}
	case readFuncs[name] > 0:
		io := &apt.IO{NodeBase: base, Kind: apt.IORead, Unit: &apt.Star{}, Stream: true}
		if k := readFuncs[name] - 1; k < len(c.Args) {
			io.Scan = x.expr(unwrapArg(c.Args[k]))
		}
		switch {
		case strings.Contains(name, "fscanf") && len(c.Args) > 0:
			io.Unit = x.expr(unwrapArg(c.Args[0])) // the FILE's unit (fopen)
		case strings.Contains(name, "sscanf") && len(c.Args) > 0:
			// Text the program holds, not standard input.
			io.Stream, io.From = false, x.expr(unwrapArg(c.Args[0]))
		}
		if used {
			n := x.names[c]
			x.declare(n, valueType(c.Typ), nil)
			io.Result = x.nameExpr(n, x.vars[n].Type)
		}
		for _, a := range c.Args[readFuncs[name]:] {
			ref, _ := x.location(unwrapArg(a), &apt.Ops{})
			io.Items = append(io.Items, ref)
			if nm, ok := ref.(*apt.Name); ok {
				io.Reads = append(io.Reads, nm.Name)
			}
		}
		return nil, []apt.Node{io}
	case writeFuncs[name]:
		io := &apt.IO{NodeBase: base, Kind: apt.IOWrite, Unit: &apt.Star{}}
		for _, a := range c.Args {
			if e := x.expr(a); !isStringConst(a) {
				io.Items = append(io.Items, e)
			}
		}
		return nil, []apt.Node{io}
	case name == "llvm.memset" || name == "llvm.memcpy" || name == "llvm.memmove":
		if b := x.initArray(name, c, p); b != nil {
			return nil, []apt.Node{b}
		}
		if b := x.initStruct(name, c, p); b != nil {
			return nil, []apt.Node{b}
		}
		if b := x.zeroStruct(name, c, p); b != nil {
			return nil, []apt.Node{b}
		}
		if b := x.copyElements(name, c, p); b != nil {
			return nil, []apt.Node{b}
		}
		if b := x.copyFields(name, c, p); b != nil {
			return nil, []apt.Node{b}
		}
		return nil, nil
	case allocFuncs[name] && used:
		return x.allocation(name, c, p), nil
	case name == "posix_memalign" && len(c.Args) == 3:
		if b := x.memalign(c, p, used); b != nil {
			return nil, []apt.Node{b}
		}
	case ignoredFuncs[name]:
		return nil, nil
	case name == "fopen" || name == "fopen64":
		return nil, x.fopen(c, base, p)
	case name == "fclose" && len(c.Args) == 1:
		return nil, []apt.Node{&apt.IO{NodeBase: base, Kind: apt.IOClose, Unit: x.expr(unwrapArg(c.Args[0]))}}
	}
	if _, ok := mathFuncs[name]; ok && !defined {
		var ops apt.Ops
		return x.assign(c, p, x.callExpr(c, &ops), ops), nil
	}
	if used && !types.Equal(c.Typ, types.Void) {
		var ops apt.Ops
		return x.assign(c, p, x.callExpr(c, &ops), ops), nil
	}
	n := &apt.Call{NodeBase: base, Callee: x.l.fnames[f], Display: x.l.display[f], Args: x.callArgs(c.Args)}
	x.l.sites = append(x.l.sites, Site{Node: n, Func: x.f, Call: c, Invoke: x.l.invokes[c]})
	return nil, []apt.Node{n}
}

// indirectCall emits a call through a function pointer as a CALL of the
// variable that holds it, declared a procedure pointer: the evaluation
// calls the function the value names (symeval/procptr.go), a function's
// name being a value like any other (k = use_copy ? copy : jacobi; a
// table of them; a struct field). A pointer computed in the call's
// expression (p->kernel, table[i]) is first assigned to a variable of its
// own, returned as the statement. A call whose result is used (r =
// f(x)) is a function reference through the variable, assigned to the
// result.
func (x *fn) indirectCall(c *ir.InstCall, base apt.NodeBase, p apt.Pos, result bool) (*apt.Stmt, []apt.Node) {
	if nodes := x.virtualCall(c, base, p, result); nodes != nil {
		return nil, nodes
	}
	v := stripCasts(c.Callee)
	name, named := x.names[v]
	_, isParam := v.(*ir.Param)
	_, isInst := v.(ir.Instruction)
	named = named && !x.inline[v] && x.alias[v] == nil && (isParam || isInst)
	if !named {
		name = x.uniq("fp")
	}
	d := x.declare(name, valueType(v.Type()), nil)
	d.Procedure, d.Pointer = true, true
	n := &apt.Call{NodeBase: base, Callee: name, Args: x.callArgs(c.Args)}
	var st *apt.Stmt
	if !named {
		st = &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: x.nameExpr(name, d.Type), Value: x.expr(v)}
		switch st.Value.(type) {
		case *apt.Name, *apt.Index, *apt.Component:
			// Where it is read from (table[k], s%step), for messages.
			n.Display = apt.FormatExpr(st.Value)
		}
	}
	if result {
		ops := apt.Ops{Calls: map[string]int{name: 1}}
		fc := &apt.FuncCall{Pos: p, Name: name, Args: n.Args, Type: valueType(c.Typ), Display: n.Display}
		asg := x.assign(c, p, fc, ops)
		if st == nil {
			return asg, nil
		}
		return st, []apt.Node{block(asg)}
	}
	x.l.sites = append(x.l.sites, Site{Node: n, Func: x.f, Call: c, Invoke: x.l.invokes[c]})
	return st, []apt.Node{n}
}

func (x *fn) assign(v value.Value, p apt.Pos, e apt.Expr, ops apt.Ops) *apt.Stmt {
	n := x.names[v]
	x.declare(n, valueType(v.Type()), x.dimsOf(v))
	return &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: x.nameExpr(n, x.vars[n].Type), Value: e, Ops: ops}
}

func isStringConst(v value.Value) bool {
	g := rootGlobal(unwrapArg(v))
	return g != nil && strings.HasPrefix(g.Name(), ".str")
}

// callExpr is a function reference: an intrinsic the cost model knows
// (counted in Intrinsics), a^b for pow, or a user or library function
// (counted in Calls).
func (x *fn) callExpr(c *ir.InstCall, ops *apt.Ops) apt.Expr {
	name, f := calleeName(c)
	if f == nil {
		return unknownExpr("indirect")
	}
	if m, ok := mathFuncs[name]; ok && len(f.Blocks) == 0 {
		var args []apt.Expr
		for _, a := range c.Args {
			args = append(args, x.exprOps(a, ops))
		}
		switch {
		case m == "**" && len(args) == 2:
			ops.Pows++
			return &apt.Binary{Op: apt.OpPow, X: args[0], Y: args[1]}
		case m == "fmuladd" && len(args) == 3:
			ops.Muls++
			ops.Adds++
			return &apt.Binary{Op: apt.OpAdd, X: &apt.Binary{Op: apt.OpMul, X: args[0], Y: args[1]}, Y: args[2]}
		}
		if m != "max" && m != "min" || !isIntType(c.Typ) {
			if ops.Intrinsics == nil {
				ops.Intrinsics = map[string]int{}
			}
			ops.Intrinsics[m]++
		}
		return intrinsic(m, valueType(c.Typ), args...)
	}
	fname := x.l.fnames[f]
	if strings.HasPrefix(strings.TrimPrefix(name, "P"), "MPI_") {
		fname = strings.ToLower(strings.TrimPrefix(name, "P"))
		x.useMPI()
	}
	if ops.Calls == nil {
		ops.Calls = map[string]int{}
	}
	ops.Calls[fname]++
	args := x.callArgs(c.Args)
	if name == "getopt_long" && len(f.Blocks) == 0 && len(args) == 5 {
		if t, ok := x.longOptions(c.Args[3]); ok {
			args[3] = t
		}
	}
	return &apt.FuncCall{Pos: x.at, Name: fname, Args: args, Type: valueType(c.Typ), Display: x.l.display[f]}
}

func isIntType(t types.Type) bool {
	_, ok := t.(*types.IntType)
	return ok
}

// callArgs are the actual arguments of a call of the program's own
// functions: values by value; addresses as the object they point to, so
// that a callee storing through a scalar's address assigns the caller's
// variable (Fortran's by-reference binding) and an array is passed whole
// or from an element (sequence association).
func (x *fn) callArgs(args []value.Value) []apt.Expr {
	out := make([]apt.Expr, len(args))
	for i, a := range args {
		out[i] = x.argExpr(unwrapArg(a))
	}
	return out
}

func (x *fn) argExpr(a value.Value) apt.Expr {
	if !isPointer(a.Type()) {
		return x.expr(a)
	}
	switch b := stripCasts(a).(type) {
	case *ir.InstAlloca:
		n := x.names[b]
		d := allocaDims(b)
		x.declare(n, valueType(b.ElemType), d)
		return &apt.Name{Name: n, Type: x.vars[n].Type, Array: len(d) > 0}
	case *ir.Global:
		return x.globalRef(b)
	case *ir.InstGetElementPtr, *constant.ExprGetElementPtr:
		e, _ := x.location(b, &apt.Ops{})
		if ix, ok := e.(*apt.Index); ok && allZero(ix.Subs) {
			if ix.Base != nil {
				// A whole array field through a pointer (p->dims).
				return &apt.Component{Pos: ix.Pos, Base: ix.Base, Field: ix.Name, Type: ix.Type, Array: true}
			}
			return &apt.Name{Name: ix.Name, Type: ix.Type, Array: true}
		}
		if _, ok := e.(*apt.Index); ok {
			if g, isInst := b.(*ir.InstGetElementPtr); isInst && !x.inline[g] && !x.skip[g] && x.alias[g] == nil {
				if v := x.vars[x.names[g]]; v != nil && len(v.Dims) > 0 {
					// An address the function holds in a pointer of
					// its own (++p; f(p)): the pointer, since the
					// variable p + 1 is written from may hold p + 1
					// by now (a C variable's SSA values share its name).
					return &apt.Name{Name: x.names[g], Type: v.Type, Array: true}
				}
			}
		}
		return slotAddr(e, b.Type())
	case *constant.Null:
		return intConst(0)
	}
	return x.expr(a)
}

func allZero(subs []apt.Expr) bool {
	for _, s := range subs {
		if v, ok := constValue(s); !ok || v != 0 {
			return false
		}
	}
	return true
}

// mpiArgs are the arguments of an MPI call: handles by their MPI names,
// MPI_STATUS_IGNORE (a null pointer) and MPI_IN_PLACE by name, addresses
// as the objects they point to.
func (x *fn) mpiArgs(args []value.Value) []apt.Expr {
	out := make([]apt.Expr, len(args))
	for i, a := range args {
		a = unwrapArg(a)
		switch c := stripCasts(a).(type) {
		case *constant.Null:
			out[i] = &apt.Name{Name: "mpi_status_ignore", Type: intType}
			continue
		case *constant.ExprIntToPtr:
			if k, ok := c.From.(*constant.Int); ok && k.X.Int64() == 1 {
				out[i] = &apt.Name{Name: "mpi_in_place", Type: intType}
				continue
			}
		}
		out[i] = x.argExpr(a)
	}
	return out
}

// indexFields reads the member names of the debug info's struct types,
// by the struct's name or, for an anonymous struct, its typedef's (clang
// names the IR type after the typedef: typedef struct {...} DGraph is
// %struct.DGraph).
func (l *lifter) indexFields() {
	l.fields = map[string][]string{}
	members := func(ct *metadata.DICompositeType) []string {
		var names []string
		for _, e := range ct.Elements.Fields {
			if m, ok := e.(*metadata.DIDerivedType); ok {
				names = append(names, strings.ToLower(cleanName(m.Name)))
			}
		}
		return names
	}
	add := func(name string, ct *metadata.DICompositeType) {
		if _, dup := l.fields[name]; !dup && name != "" && ct.Elements != nil {
			l.fields[name] = members(ct)
		}
	}
	for _, d := range l.m.MetadataDefs {
		switch x := d.(type) {
		case *metadata.DICompositeType:
			add(x.Name, x)
		case *metadata.DIDerivedType:
			if ct, ok := x.BaseType.(*metadata.DICompositeType); ok && x.Tag == enum.DwarfTagTypedef && ct.Name == "" {
				add(x.Name, ct)
			}
		}
	}
}

// fopen models opening a file as Fortran's units do, the FILE pointer
// holding a unit number (OPEN NEWUNIT=): fscanf on it reads the file as a
// stream, fclose closes it. For reading, a program that stops when the
// file is missing needs it (the run provides it: an OPEN); one that goes
// on without it opens it only where it is there (INQUIRE FILE= EXIST=
// into the pointer, then the OPEN where it exists), which the evaluation
// decides from the run's folder (-dir), or takes as absent (NPB's optional
// timer.flag). The name is a literal, an argument of argv, or any string
// the program holds.
func (x *fn) fopen(c *ir.InstCall, base apt.NodeBase, p apt.Pos) []apt.Node {
	var file apt.Expr = &apt.Const{Kind: apt.ConstChar, Text: "?"}
	if len(c.Args) > 0 {
		file = x.fileName(unwrapArg(c.Args[0]), p)
	}
	mode := "r"
	if len(c.Args) > 1 {
		if m, ok := x.constText(unwrapArg(c.Args[1])); ok {
			mode = m
		}
	}
	n := x.names[c]
	x.declare(n, intType, nil)
	f := x.nameExpr(n, intType)
	word := func(w string) apt.Expr {
		return &apt.Const{Kind: apt.ConstChar, Text: w, Type: apt.Type{Base: apt.TypeCharacter}}
	}
	open := &apt.IO{NodeBase: base, Kind: apt.IOOpen, Control: []apt.Expr{&apt.Keyword{Name: "newunit", Value: f},
		&apt.Keyword{Name: "file", Value: file}}}
	switch {
	case strings.HasPrefix(mode, "w"):
		open.Control = append(open.Control, &apt.Keyword{Name: "status", Value: word("replace")}, &apt.Keyword{Name: "action", Value: word("write")})
		return []apt.Node{open}
	case strings.HasPrefix(mode, "a"):
		open.Control = append(open.Control, &apt.Keyword{Name: "status", Value: word("unknown")}, &apt.Keyword{Name: "action", Value: word("write")})
		return []apt.Node{open}
	}
	open.Control = append(open.Control, &apt.Keyword{Name: "status", Value: word("old")})
	if x.stopsWhenNull(c) {
		return []apt.Node{open}
	}
	inq := &apt.IO{NodeBase: base, Kind: apt.IOInquire, Control: []apt.Expr{
		&apt.Keyword{Name: "file", Value: file}, &apt.Keyword{Name: "exist", Value: f}}}
	there := &apt.If{NodeBase: apt.NodeBase{Span: base.Span}, Kind: apt.IfBlock, Branches: []*apt.Branch{{NodeBase: apt.NodeBase{Span: base.Span},
		Cond: &apt.Binary{Op: apt.OpNe, X: f, Y: intConst(0)}, Body: []apt.Node{open}}}}
	return []apt.Node{inq, there}
}

// fileName is the expression of a file name a call is given: a string
// literal, an argument of the command line, or what the program holds.
func (x *fn) fileName(a value.Value, p apt.Pos) apt.Expr {
	if text, ok := x.constText(a); ok {
		return &apt.Const{Kind: apt.ConstChar, Text: text, Type: apt.Type{Base: apt.TypeCharacter}}
	}
	if k := x.argvIndexOf(a); k != nil {
		return &apt.Index{Pos: p, Name: x.argvName, Subs: []apt.Expr{k}, Type: apt.Type{Base: apt.TypeCharacter}}
	}
	if e := x.expr(a); e != nil {
		return e
	}
	return &apt.Const{Kind: apt.ConstChar, Text: "?"}
}

// stopsWhenNull reports whether the program stops where the pointer v is
// null: a test of it against null whose null side reaches exit, abort or
// MPI_Abort within a few blocks.
func (x *fn) stopsWhenNull(v value.Value) bool {
	for _, u := range x.uses[v] {
		cmp, ok := u.user.(*ir.InstICmp)
		if !ok {
			continue
		}
		for _, cu := range x.uses[cmp] {
			br, ok := cu.user.(*ir.TermCondBr)
			if !ok {
				continue
			}
			null := blockOf(br.TargetTrue)
			if cmp.Pred == enum.IPredNE {
				null = blockOf(br.TargetFalse)
			}
			if x.reachesStop(x.g.index[null], 4) {
				return true
			}
		}
	}
	return false
}

// reachesStop reports whether block b, or the blocks it jumps on to
// unconditionally, stop the program (exit, abort, MPI_Abort, unreachable).
func (x *fn) reachesStop(b, depth int) bool {
	for ; depth > 0 && b >= 0 && b < len(x.g.blocks); depth-- {
		for _, inst := range x.g.blocks[b].Insts {
			if c, ok := inst.(*ir.InstCall); ok {
				if n, _ := calleeName(c); stopFuncs[n] || strings.TrimPrefix(n, "P") == "MPI_Abort" {
					return true
				}
			}
		}
		switch t := x.g.blocks[b].Term.(type) {
		case *ir.TermUnreachable:
			return true
		case *ir.TermBr:
			b = x.g.index[blockOf(t.Target)]
		default:
			return false
		}
	}
	return false
}
