package llvmir

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Copies of memory. clang writes C's initialisers, structure assignments
// and byte copies as memset and memcpy of storage, and views a storage
// through casts; these are written as the assignments the source means.

// initArray models what C's array initialisers compile to: memset of a
// whole local or global array to zero (int dims[2] = {0, 0}) is the
// whole-array assignment a = 0; memcpy of a whole array from a constant
// initialiser (int periods[2] = {1, 0}, int w[2][2] = {{1, 2}, {3}})
// assigns each element. Anything else these intrinsics do is left out
// (nil).
func (x *fn) initArray(name string, c *ir.InstCall, p apt.Pos) *apt.Block {
	if len(c.Args) < 3 {
		return nil
	}
	dst := stripCasts(unwrapArg(c.Args[0]))
	elem := storageType(dst)
	at, ok := elem.(*types.ArrayType)
	if !ok {
		return nil
	}
	_, nested := at.ElemType.(*types.ArrayType)
	ref, _ := x.location(dst, &apt.Ops{})
	ix, ok := ref.(*apt.Index)
	if !ok {
		return nil
	}
	whole := &apt.Name{Pos: p, Name: ix.Name, Type: ix.Type, Array: true}
	switch name {
	case "llvm.memset":
		v, ok := unwrapArg(c.Args[1]).(*constant.Int)
		if !ok || v.X.Sign() != 0 || nested {
			return nil
		}
		return block(&apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: whole, Value: intConst(0)})
	case "llvm.memcpy":
		src, ok := stripCasts(unwrapArg(c.Args[1])).(*ir.Global)
		if !ok || !src.Immutable || at.Len > 64 {
			return nil
		}
		if !types.Equal(src.ContentType, elem) {
			return nil
		}
		stmts, ok := x.l.arrayInits(ix.Name, ix.Type, at, src.Init, p, 64, false)
		if !ok || len(stmts) == 0 {
			return nil
		}
		return block(stmts...)
	}
	return nil
}

// arrayInits returns the assignments of the constant c to the elements of
// the array name of type t, nested arrays element by element with C's
// subscripts outermost first (as location writes the references), at most
// max of them. A zero initialiser gives its zeros; an element with no
// value the APT can write (a pointer to a string) is left out where skip
// is set, else fails it all.
func (l *lifter) arrayInits(name string, et apt.Type, t *types.ArrayType, c constant.Constant, p apt.Pos, max int, skip bool) ([]*apt.Stmt, bool) {
	var stmts []*apt.Stmt
	var walk func(c constant.Constant, t types.Type, subs []apt.Expr) bool
	var field func(name string, et apt.Type, c constant.Constant, t types.Type, subs []apt.Expr) bool
	// field assigns one element's scalar, or each field of an element
	// that is a structure (a table of kernels {"direct", force, update}):
	// the lifter names table[i].force as the array table%force (refs.go).
	field = func(name string, et apt.Type, c constant.Constant, t types.Type, subs []apt.Expr) bool {
		if st, ok := t.(*types.StructType); ok {
			for k, ft := range st.Fields {
				var fc constant.Constant
				switch cc := c.(type) {
				case *constant.Struct:
					if k >= len(cc.Fields) {
						return skip
					}
					fc = cc.Fields[k]
				case *constant.ZeroInitializer:
					fc = constant.NewZeroInitializer(ft)
				default:
					return skip
				}
				switch ft.(type) {
				case *types.ArrayType:
					continue // an array inside each element: not written
				}
				if !field(name+"%"+l.fieldName(st, k), valueType(ft), fc, ft, subs) {
					return false
				}
			}
			return true
		}
		if len(stmts) >= max {
			return false
		}
		v := l.constInit(c)
		if v == nil {
			return skip
		}
		stmts = append(stmts, &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign,
			Target: &apt.Index{Pos: p, Name: name, Subs: subs, Type: et}, Value: v})
		return true
	}
	walk = func(c constant.Constant, t types.Type, subs []apt.Expr) bool {
		at, isArr := t.(*types.ArrayType)
		if !isArr {
			return field(name, et, c, t, subs)
		}
		for i := range int64(at.Len) {
			var e constant.Constant
			switch a := c.(type) {
			case *constant.Array:
				e = a.Elems[i]
			case *constant.ZeroInitializer:
				e = constant.NewZeroInitializer(at.ElemType)
			default:
				return false
			}
			if !walk(e, at.ElemType, append(subs[:len(subs):len(subs)], intConst(i))) {
				return false
			}
		}
		return true
	}
	ok := walk(c, t, nil)
	return stmts, ok
}

// storageType is the type of what a local or global holds, nil for any
// other value.
func storageType(v value.Value) types.Type {
	switch d := v.(type) {
	case *ir.InstAlloca:
		return d.ElemType
	case *ir.Global:
		return d.ContentType
	}
	return nil
}

// initStruct writes a structure initialised from a constant (clang copies
// `params_t p = {64, 64, 10, 0.1}` from a private constant with memcpy) as
// the assignment of the whole structure; nil for any other copy.
func (x *fn) initStruct(name string, c *ir.InstCall, p apt.Pos) *apt.Block {
	if name != "llvm.memcpy" || len(c.Args) < 3 {
		return nil
	}
	dst := stripCasts(unwrapArg(c.Args[0]))
	src, ok := stripCasts(unwrapArg(c.Args[1])).(*ir.Global)
	if !ok || !src.Immutable || src.Init == nil {
		return x.copyStruct(dst, stripCasts(unwrapArg(c.Args[1])), p)
	}
	elem := storageType(dst)
	if _, ok := elem.(*types.StructType); !ok || !types.Equal(elem, src.ContentType) {
		return nil
	}
	to, arr := x.location(dst, &apt.Ops{})
	from := x.globalRef(src)
	if _, ok := from.(*apt.Name); arr || !ok {
		return nil
	}
	return block(&apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: to, Value: from})
}

// copyStruct writes clang's copy of one structure into another of its
// type (e = d, a structure passed by value or returned, an iterator
// copied into a call's temporary) as the assignment of the whole
// structure, every component and the addresses its pointers hold going
// with it; nil where either side is not a structure of that type held in
// a variable or a component.
func (x *fn) copyStruct(dst, src value.Value, p apt.Pos) *apt.Block {
	dp, ok1 := dst.Type().(*types.PointerType)
	sp, ok2 := src.Type().(*types.PointerType)
	if !ok1 || !ok2 {
		return nil
	}
	if _, ok := dp.ElemType.(*types.StructType); !ok || !types.Equal(dp.ElemType, sp.ElemType) {
		return nil
	}
	var ops apt.Ops
	to, arr1 := x.location(dst, &ops)
	from, arr2 := x.location(src, &ops)
	if arr1 || arr2 {
		return nil
	}
	for _, e := range []apt.Expr{to, from} {
		switch e.(type) {
		case *apt.Name, *apt.Component:
		default:
			return nil
		}
	}
	return block(&apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: to, Value: from, Ops: ops})
}

// copyElements writes a copy of n elements of numbers from one address to
// another (memcpy or memmove of n*sizeof(T) bytes: a buffer saved, a
// vector's elements moved into its new storage) as the section assignment
// dst[i:i+n-1] = src[j:j+n-1], so that the values go with them; nil where
// the two sides are not elements of one numeric type or the byte count is
// not a whole number of them.
func (x *fn) copyElements(name string, c *ir.InstCall, p apt.Pos) *apt.Block {
	if name == "llvm.memset" || len(c.Args) < 3 {
		return nil
	}
	dst, src := stripCasts(unwrapArg(c.Args[0])), stripCasts(unwrapArg(c.Args[1]))
	dt, st := pointee(dst), pointee(src)
	if dt == nil || !types.Equal(dt, st) {
		return nil
	}
	switch t := dt.(type) {
	case *types.IntType, *types.FloatType:
		if it, ok := t.(*types.IntType); ok && it.BitSize <= 8 {
			return nil // bytes: text, or a copy of anything
		}
	case *types.StructType:
		return x.copyStructElements(dst, src, t, unwrapArg(c.Args[2]), p)
	default:
		return nil
	}
	size, _, ok := typeSize(dt)
	if !ok || size == 0 {
		return nil
	}
	var ops apt.Ops
	n := x.elementCount(unwrapArg(c.Args[2]), size, &ops)
	if n == nil {
		return nil
	}
	to, _ := x.location(dst, &ops)
	from, _ := x.location(src, &ops)
	section := func(e apt.Expr) apt.Expr {
		ix, ok := e.(*apt.Index)
		if !ok || len(ix.Subs) != 1 || ix.Base != nil {
			return nil
		}
		out := *ix
		lo := ix.Subs[0]
		out.Subs = []apt.Expr{&apt.Section{Pos: p, Lo: lo,
			Hi: &apt.Binary{Op: apt.OpSub, X: &apt.Binary{Op: apt.OpAdd, X: lo, Y: n}, Y: intConst(1)}}}
		return &out
	}
	t, f := section(to), section(from)
	if t == nil || f == nil {
		return nil
	}
	ops.Vector = true
	return block(&apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: t, Value: f, Ops: ops})
}

// copyStructElements writes a copy of n structures of type st from src to
// dst (memmove of n*sizeof(T) bytes: a std::vector's elements relocated
// into its new storage) as one section assignment per scalar field,
// dst%f[i:i+n-1] = src%f[j:j+n-1], nested structures' fields included;
// nil where a field is an array or the byte count is not n structures.
func (x *fn) copyStructElements(dst, src value.Value, st *types.StructType, bytes value.Value, p apt.Pos) *apt.Block {
	size, _, ok := typeSize(st)
	if !ok || size == 0 {
		return nil
	}
	var nops apt.Ops
	n := x.elementCount(bytes, size, &nops)
	if k, one := constValue(n); n == nil || one && k == 1 {
		return nil // (one structure: copyFields, field by field)
	}
	// Element 1's field, whose subscript the section replaces: the
	// reference of element 0 is the component p->f, not an element.
	one := constant.NewInt(types.I64, 1)
	section := func(e apt.Expr) apt.Expr {
		ix, ok := e.(*apt.Index)
		if !ok || len(ix.Subs) != 1 {
			return nil
		}
		out := *ix
		lo := &apt.Binary{Op: apt.OpSub, X: ix.Subs[0], Y: intConst(1)}
		var l apt.Expr = lo
		if k, ok := constValue(ix.Subs[0]); ok {
			l = intConst(k - 1)
		}
		out.Subs = []apt.Expr{&apt.Section{Pos: p, Lo: l,
			Hi: &apt.Binary{Op: apt.OpSub, X: &apt.Binary{Op: apt.OpAdd, X: l, Y: n}, Y: intConst(1)}}}
		return &out
	}
	var stmts []*apt.Stmt
	ok = scalarFields(st, []value.Value{one}, func(idx []value.Value) bool {
		ops := nops
		to, _ := x.gepRef(dst, st, idx, &ops)
		from, _ := x.gepRef(src, st, idx, &ops)
		t, f := section(to), section(from)
		if t == nil || f == nil {
			return false
		}
		ops.Vector = true
		stmts = append(stmts, &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: t, Value: f, Ops: ops})
		return true
	})
	if !ok || len(stmts) == 0 {
		return nil
	}
	return block(stmts...)
}

// elementCount is bytes/size as an expression: the factor of a product
// with size (n * sizeof(T), as C writes a byte count), a constant's
// quotient, else nil.
func (x *fn) elementCount(bytes value.Value, size int64, ops *apt.Ops) apt.Expr {
	if k, ok := bytes.(*constant.Int); ok {
		if b := k.X.Int64(); b%size == 0 {
			return intConst(b / size)
		}
		return nil
	}
	if m, ok := bytes.(*ir.InstMul); ok {
		for _, pair := range [][2]value.Value{{m.X, m.Y}, {m.Y, m.X}} {
			if k, ok := unwrapArg(pair[1]).(*constant.Int); ok && k.X.Int64() == size {
				return x.exprOps(pair[0], ops)
			}
		}
	}
	if sh, ok := bytes.(*ir.InstShl); ok && size&(size-1) == 0 {
		if k, ok := unwrapArg(sh.Y).(*constant.Int); ok && int64(1)<<k.X.Int64() == size {
			return x.exprOps(sh.X, ops)
		}
	}
	return nil
}

// skipViews drops the casts of a local's or a global's address that only
// give another view of its storage (clang's { double*, i64 } view of a
// 16-byte struct passed in registers, an i8* for a byte copy) to address
// computations, loads and stores: those look through casts to the storage
// itself, so the cast needs no pointer variable of its own, which would
// make the storage look like a pointer's.
func (x *fn) skipViews() {
	for _, b := range x.g.blocks {
		for _, inst := range b.Insts {
			c, ok := inst.(*ir.InstBitCast)
			if !ok || x.srcName[c] || len(x.uses[c]) == 0 {
				continue
			}
			switch stripCasts(c.From).(type) {
			case *ir.InstAlloca, *ir.Global:
			default:
				continue
			}
			only := true
			for _, u := range x.uses[c] {
				switch w := u.user.(type) {
				case *ir.InstGetElementPtr:
					only = only && w.Src == value.Value(c)
				case *ir.InstLoad:
				case *ir.InstStore:
					only = only && w.Dst == value.Value(c) && w.Src != value.Value(c)
				default:
					only = false
				}
			}
			if only {
				x.skip[c] = true
			}
		}
	}
}

// zeroStruct writes memset(&s, 0, sizeof s) of a local structure (T s =
// {0}, = {}) as the assignment of zero to each of its number fields, an
// array field whole: what the program then reads of them is 0, as in the
// run. nil for anything else.
func (x *fn) zeroStruct(name string, c *ir.InstCall, p apt.Pos) *apt.Block {
	if name != "llvm.memset" || len(c.Args) < 3 {
		return nil
	}
	if v, ok := unwrapArg(c.Args[1]).(*constant.Int); !ok || v.X.Sign() != 0 {
		return nil
	}
	a, ok := stripCasts(unwrapArg(c.Args[0])).(*ir.InstAlloca)
	if !ok {
		return nil
	}
	st, ok := a.ElemType.(*types.StructType)
	if !ok || len(allocaDims(a)) > 0 {
		return nil
	}
	size, _, sok := typeSize(st)
	if n, ok := constValue(x.expr(unwrapArg(c.Args[2]))); !ok || !sok || n != size {
		return nil // part of it
	}
	root := x.names[a]
	x.declare(root, valueType(st), nil)
	var stmts []*apt.Stmt
	var walk func(base apt.Expr, flat string, t *types.StructType, depth int) bool
	walk = func(base apt.Expr, flat string, t *types.StructType, depth int) bool {
		for k, ft := range t.Fields {
			f := x.l.fieldName(t, k)
			switch e := ft.(type) {
			case *types.IntType, *types.FloatType:
				stmts = append(stmts, &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign,
					Target: &apt.Component{Pos: p, Base: base, Field: f, Type: valueType(ft)}, Value: intConst(0)})
			case *types.ArrayType:
				switch e.ElemType.(type) {
				case *types.IntType, *types.FloatType:
				default:
					return false
				}
				// Its elements (the field is an array of the
				// structure's own, not a pointer to assign).
				n := flat + "%" + f
				v := x.declare(n, valueType(e.ElemType), []apt.Dim{{Lo: intConst(0), Hi: &apt.Star{}}})
				stmts = append(stmts, &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign,
					Target: &apt.Index{Pos: p, Name: n, Type: v.Type, Subs: []apt.Expr{
						&apt.Section{Lo: intConst(0), Hi: intConst(int64(e.Len) - 1)}}}, Value: intConst(0)})
			case *types.StructType:
				if depth > 3 || !walk(&apt.Component{Pos: p, Base: base, Field: f, Type: valueType(e)}, flat+"%"+f, e, depth+1) {
					return false
				}
			case *types.PointerType:
				stmts = append(stmts, &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign,
					Target: &apt.Component{Pos: p, Base: base, Field: f, Type: addrType}, Value: intConst(0)})
			default:
				return false
			}
		}
		return true
	}
	if !walk(x.nameExpr(root, x.vars[root].Type), root, st, 0) || len(stmts) == 0 {
		return nil
	}
	return block(stmts...)
}

// copyFields writes memcpy or memmove of one whole structure onto another
// of the same type where copyStruct does not (an element of an array of
// structures or one reached through a pointer: a C struct assignment
// a[i] = s, C++'s copy of an element into a vector's storage) as an
// assignment per scalar field,
// nested structures' fields included, so that the values go with them;
// nil where the byte count is not the structure's size or a field is an
// array (its elements would keep their old values).
func (x *fn) copyFields(name string, c *ir.InstCall, p apt.Pos) *apt.Block {
	if name == "llvm.memset" || len(c.Args) < 3 {
		return nil
	}
	dst, src := stripCasts(unwrapArg(c.Args[0])), stripCasts(unwrapArg(c.Args[1]))
	st, ok := pointee(dst).(*types.StructType)
	if !ok || !types.Equal(st, pointee(src)) {
		return nil
	}
	size, _, ok := typeSize(st)
	n, isc := unwrapArg(c.Args[2]).(*constant.Int)
	if !ok || !isc || n.X.Int64() != size {
		return nil
	}
	var stmts []*apt.Stmt
	ok = scalarFields(st, []value.Value{constant.NewInt(types.I64, 0)}, func(idx []value.Value) bool {
		var ops apt.Ops
		to, _ := x.gepRef(dst, st, idx, &ops)
		from, _ := x.gepRef(src, st, idx, &ops)
		if !isReference(to) || !isReference(from) {
			return false
		}
		stmts = append(stmts, &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: to, Value: from})
		return true
	})
	if !ok || len(stmts) == 0 {
		return nil
	}
	return block(stmts...)
}

// scalarFields calls each with the GEP indices (after path) of every
// scalar field of st, nested structures' (three deep) in order; false
// where a field is neither (an array) or each refuses one.
func scalarFields(st *types.StructType, path []value.Value, each func(idx []value.Value) bool) bool {
	var walk func(t *types.StructType, path []value.Value, depth int) bool
	walk = func(t *types.StructType, path []value.Value, depth int) bool {
		for k, ft := range t.Fields {
			idx := append(path[:len(path):len(path)], constant.NewInt(types.I32, int64(k)))
			switch f := ft.(type) {
			case *types.StructType:
				if depth >= 3 || !walk(f, idx, depth+1) {
					return false
				}
			case *types.IntType, *types.FloatType, *types.PointerType:
				if !each(idx) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return walk(st, path, 0)
}

// isReference reports whether e names storage: a variable, an element or
// a component.
func isReference(e apt.Expr) bool {
	switch e.(type) {
	case *apt.Name, *apt.Index, *apt.Component:
		return true
	}
	return false
}
