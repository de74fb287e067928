package llvmir

import (
	"strconv"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// References: where a load reads and a store writes. An address is an
// element of a named array (one subscript per dimension walked), a field
// path of a structure (s%f, p->f), an element of an array a loaded
// pointer holds, or an array field of a structure reached through a
// pointer; fields of arrays of structures are arrays of their own by
// field (items%len).

// location is what a load reads or a store writes at address p: a scalar
// variable (a local whose address was taken, a global, a scalar passed by
// reference, a field path of one) or an element of an array; elem says
// which.
func (x *fn) location(p value.Value, ops *apt.Ops) (apt.Expr, bool) {
	orig := p
	p = stripCasts(p)
	switch c := p.(type) {
	case *ir.InstAlloca:
		n := x.names[c]
		if d := allocaDims(c); len(d) > 0 {
			x.declare(n, valueType(c.ElemType), d)
			return &apt.Index{Pos: x.at, Name: n, Subs: zeros(len(d)), Type: valueType(c.ElemType)}, true
		}
		var d []apt.Dim
		if isPointer(c.ElemType) && !isFuncPointer(c.ElemType) && scalarPointee(c.ElemType) {
			// A pointer variable whose address the program takes
			// (strtol(p, &end, 10)): a pointer, as the SSA ones are.
			d = []apt.Dim{{Lo: intConst(0), Hi: &apt.Star{}}}
		}
		x.declare(n, valueType(c.ElemType), d)
		return x.nameExpr(n, x.vars[n].Type), false
	case *ir.Global:
		e := x.globalRef(c)
		if nm, ok := e.(*apt.Name); ok && nm.Array {
			if n := len(dims(c.ContentType)); n > 0 {
				return &apt.Index{Pos: x.at, Name: nm.Name, Subs: zeros(n), Type: nm.Type}, true
			}
			// A global pointer (pointerGlobal): the pointer itself.
			return &apt.Name{Pos: x.at, Name: nm.Name, Type: nm.Type}, false
		}
		return e, false
	case *ir.Param:
		n := x.names[c]
		if x.scalarP[c] {
			return x.nameExpr(n, x.vars[n].Type), false
		}
		return &apt.Index{Pos: x.at, Name: n, Subs: zeros(1), Type: x.vars[n].Type}, true
	case *ir.InstGetElementPtr:
		return x.gepRef(c.Src, c.ElemType, c.Indices, ops)
	case *ir.InstCall:
		if r, arr, ok := x.refCallRef(c, ops); ok {
			return r, arr
		}
		if name, _ := calleeName(c); name == "__errno_location" {
			// errno (a macro for *__errno_location()): a global the
			// library calls the program makes leave as it was, as a
			// successful call does (C11 7.5), from 0 at the start.
			return x.l.errnoRef(x.at), false
		}
	case *constant.ExprGetElementPtr:
		return x.gepRef(c.Src, c.ElemType, constValues(c.Indices), ops)
	}
	e := x.exprOps(p, ops)
	if nm, ok := e.(*apt.Name); ok {
		t := nm.Type
		if pt, isPtr := orig.Type().(*types.PointerType); isPtr && orig != p && isPointer(p.Type()) {
			// Through a cast ((int *)ptr): an element of the cast's type.
			if _, opaque := pt.ElemType.(*types.StructType); !opaque {
				t = valueType(pt.ElemType)
			}
		}
		return &apt.Index{Pos: x.at, Name: nm.Name, Subs: zeros(1), Type: t}, true
	}
	if c, ok := e.(*apt.Component); ok && isPointer(p.Type()) {
		// Through a pointer kept in a structure's field (*o.dst, an
		// option table's destination): element 0 of what the field
		// points to, as through a pointer variable.
		t := c.Type
		if pt, isPtr := p.Type().(*types.PointerType); isPtr {
			if _, opaque := pt.ElemType.(*types.StructType); !opaque {
				t = valueType(pt.ElemType)
			}
		}
		return &apt.Index{Pos: x.at, Base: c.Base, Name: c.Field, Subs: zeros(1), Type: t}, true
	}
	return unknownExpr("memory"), true
}

func zeros(n int) []apt.Expr {
	out := make([]apt.Expr, n)
	for i := range out {
		out[i] = intConst(0)
	}
	return out
}

// gepRef is the reference an address computation makes: an element of
// an array with one subscript per array dimension walked (the pointer
// offset first, for a pointer base), or a scalar field path s%f.
func (x *fn) gepRef(src value.Value, elem types.Type, idx []value.Value, ops *apt.Ops) (apt.Expr, bool) {
	var name string
	var subs []apt.Expr
	// comp is the field path as a component reference base%f%g while no
	// subscript precedes it: a struct passed by address then binds to the
	// caller's, as a derived-type argument does.
	var comp apt.Expr
	root := false // a named object, not a pointer: the first index is 0
	// ptr is set while the base is a pointer value (an argument, a loaded
	// pointer): the first field reached through it is C's p->f.
	ptr := false
	global := false
	var via apt.Expr        // the reference a loaded pointer came from
	var fieldBase apt.Expr  // the structure of an array field reached through a pointer
	var arrDims []apt.Dim   // the bounds of the array types the indices walk
	var fieldDims []apt.Dim // those of the array field fieldBase holds
	base := stripCasts(src)
	if f := ctypeTable(base); f != "" && len(idx) == 1 {
		// (*__ctype_b_loc())[c], the table glibc's character macros
		// read (isspace(c) is its class word's bit): the C library's
		// answer, which the evaluation knows (concrete.CCharFunc).
		return &apt.FuncCall{Pos: x.at, Name: f, Args: []apt.Expr{x.exprOps(idx[0], ops)},
			Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}, true
	}
	var t apt.Type
	switch b := base.(type) {
	case *ir.InstAlloca:
		name, root = x.names[b], true
		x.declare(name, valueType(b.ElemType), allocaDims(b))
	case *ir.Global:
		e := x.globalRef(b)
		nm, ok := e.(*apt.Name)
		if !ok {
			return e, true
		}
		name, root, global = nm.Name, true, true
	case *ir.InstGetElementPtr, *constant.ExprGetElementPtr:
		inner, _ := x.location(b, ops)
		switch r := inner.(type) {
		case *apt.Index:
			name, subs = r.Name, append([]apt.Expr(nil), r.Subs...)
			if r.Base != nil {
				// An array field through a pointer, stepped into
				// (p->d[k] after p->d): the field's elements still.
				fieldBase, fieldDims = r.Base, r.FieldDims
			}
		case *apt.Name:
			name = r.Name
		case *apt.Component:
			comp, name = r, flatName(r)
		default:
			return inner, true
		}
		// An address of a row (b[2] of int b[4][3], p->dims of a struct
		// field int dims[2]) is its first element, with a zero subscript
		// per row dimension: this address computation walks into the row,
		// so its indices take those places rather than follow them (b[2][k]
		// is b(2, k), not b(2, 0, k)).
		if n := len(dims(pointee(b))); n > 0 && n <= len(subs) && allZero(subs[len(subs)-n:]) {
			subs = subs[:len(subs)-n]
		}
		// Pointer arithmetic on an element: the offset adds to the last
		// subscript.
		if len(idx) > 0 {
			off := x.exprOps(idx[0], ops)
			if len(subs) > 0 {
				if v, ok := constValue(off); !ok || v != 0 {
					subs[len(subs)-1] = sum(subs[len(subs)-1], off, ops)
				}
			} else if v, ok := constValue(off); !ok || v != 0 {
				subs = append(subs, off)
			}
			idx = idx[1:]
		}
		root = true
		idx = append([]value.Value{nil}, idx...)
	default:
		if k := x.argvIndexOf(base); k != nil && x.argvName != "" && len(idx) == 1 {
			// A character of a command-line argument (argv[i][1]): the
			// argument's text, read where the run gives it.
			return &apt.Index{Pos: x.at, Name: x.argvName, Subs: []apt.Expr{k, x.exprOps(idx[0], ops)},
				Type: apt.Type{Base: apt.TypeInteger, Kind: 1}}, true
		}
		ptr = true
		e := x.exprOps(base, ops)
		switch b := e.(type) {
		case *apt.Name:
			name = b.Name
		case *apt.Component, *apt.Index:
			// A pointer loaded from a field or an element (dg->node,
			// dg->node[i]): what it points to is reached through that
			// reference, p->node[k] an element of the component node,
			// p->node[k]->id a component of that element.
			via = e
			name = flatName(e)
		default:
			return unknownExpr("memory"), true
		}
	}
	t = valueType(elem)
	cur := elem
	for i, v := range idx {
		if i == 0 {
			if v == nil {
				continue
			}
			// A zero first index steps nowhere: into a named object, or
			// into the pointee's fields (p->f is p[0].f).
			if isConstZero(v) && (root || len(idx) > 1) {
				continue
			}
			subs = append(subs, x.exprOps(v, ops))
			continue
		}
		switch ct := cur.(type) {
		case *types.StructType:
			k := 0
			if ci, ok := unwrapArg(v).(*constant.Int); ok {
				k = int(ci.X.Int64())
			}
			field := func(f string, st types.Type, next types.Type, first bool) {
				if len(subs) == 0 {
					if comp == nil && via != nil {
						comp = via
					}
					if comp == nil {
						comp = x.nameExpr(name, valueType(st))
					}
					comp = &apt.Component{Pos: x.at, Base: comp, Field: f, Deref: ptr, First: first}
					ptr = false
				}
				name += "%" + f
				cur = next
				if c, ok := comp.(*apt.Component); ok && len(subs) == 0 {
					c.Type = valueType(cur)
					c.Array = numberPointer(cur)
				}
			}
			if path := x.l.coercedField(storedType(base), ct, k, i); path != nil {
				// The ABI's view of a structure passed in registers:
				// its field is the structure's own at that offset.
				for _, f := range path {
					field(f.name, f.in, f.typ, false)
				}
				break
			}
			next := cur
			if k < len(ct.Fields) {
				next = ct.Fields[k]
			}
			field(x.l.fieldName(ct, k), ct, next, k == 0)
		case *types.ArrayType:
			subs = append(subs, x.exprOps(v, ops))
			arrDims = append(arrDims, apt.Dim{Lo: intConst(0), Hi: intConst(int64(ct.Len) - 1)})
			cur = ct.ElemType
		default:
			subs = append(subs, x.exprOps(v, ops))
		}
		t = valueType(cur)
	}
	if _, isArr := cur.(*types.ArrayType); isArr {
		// The address of a row: its first element.
		for _, d := range dims(cur) {
			subs = append(subs, intConst(0))
			arrDims = append(arrDims, d)
		}
		t = valueType(cur)
	}
	if len(subs) == 0 {
		if comp != nil {
			if _, isArr := cur.(*types.ArrayType); !isArr {
				return comp, false
			}
		}
		if _, ok := x.vars[name]; !ok {
			x.declare(name, t, nil)
		}
		return x.nameExpr(name, t), false
	}
	if _, isPtr := cur.(*types.PointerType); isPtr {
		// An element that is a pointer: its value is an address.
		t = addrType
	}
	if via != nil {
		// An element of the array a loaded pointer points to: the array
		// is the component's (dg->node[k] is dg%node(k)); a pointer
		// loaded from an element is not followed further.
		c, ok := via.(*apt.Component)
		if !ok || comp != nil {
			return unknownExpr("memory"), true
		}
		return &apt.Index{Pos: x.at, Base: c.Base, Name: c.Field, Subs: subs, Type: t, Deref: c.Deref}, true
	}
	if fieldBase != nil && comp == nil && via == nil {
		ix := &apt.Index{Pos: x.at, Base: fieldBase, Name: name, Subs: subs, Type: t}
		switch {
		case len(arrDims) == len(subs):
			ix.FieldDims = arrDims
		case len(fieldDims) == len(subs):
			ix.FieldDims = fieldDims
		}
		return ix, true
	}
	if c, ok := comp.(*apt.Component); ok && via == nil && c.ThroughPointer() {
		// An array field of a structure reached through a pointer
		// (this->_M_elems[k] of std::array, p->dims[d]): the field's
		// elements in the structure the pointer designates, which a
		// by-reference binding makes the caller's (Fortran's
		// obj%arr(k)), not an array of the function's own.
		ix := &apt.Index{Pos: x.at, Base: c.Base, Name: c.Field, Subs: subs, Type: t}
		if len(arrDims) == len(subs) {
			ix.FieldDims = arrDims
		}
		return ix, true
	}
	// A field of an element of an array of structures with an array
	// field (blocks[n].cells[j]): the view's further dimensions are the
	// field's, its first the elements' (row-major: its extent is never
	// needed).
	viewDims := []apt.Dim{{Lo: intConst(0), Hi: &apt.Star{}}}
	if strings.Contains(name, "%") && len(subs) > 1 && len(arrDims) == len(subs)-1 {
		viewDims = append(viewDims, arrDims...)
	}
	if root, _, isView := strings.Cut(name, "%"); x.vars[root] == nil && x.l.isGlobalName(root) {
		global = true // (reached through an element of it: opts[k] then .type)
		if !isView && ptr {
			x.l.pointerGlobal(name) // a global pointer's elements
		}
	}
	if v := x.vars[name]; v == nil && !global {
		// (A global array is declared in the module of globals with its
		// extents: a local of its name would hide them.)
		x.declare(name, t, viewDims)
	} else if v == nil && strings.Contains(name, "%") {
		// A field of a global array of structures (opts[k].type) is
		// the program's one array opts%type, whichever function
		// stores or reads it.
		x.l.globalView(name, t, viewDims)
	}
	return &apt.Index{Pos: x.at, Name: name, Subs: subs, Type: t}, true
}

// numberPointer reports whether t points to numbers (not text, structs or
// pointers, which the heap objects follow: symeval/heap.go): a field
// holding an array of the program's, which the APT marks as a whole array
// (its address is what the program computes with).
func numberPointer(t types.Type) bool {
	pt, ok := t.(*types.PointerType)
	if !ok {
		return false
	}
	switch e := pt.ElemType.(type) {
	case *types.FloatType:
		return true
	case *types.IntType:
		return e.BitSize > 8
	}
	return false
}

func sum(a, b apt.Expr, ops *apt.Ops) apt.Expr {
	ops.SubscriptOps++
	return &apt.Binary{Op: apt.OpAdd, X: a, Y: b}
}

// fieldName names field k of a struct type from the debug info's member
// list, else by its position.
func (l *lifter) fieldName(t *types.StructType, k int) string {
	if l.fields == nil {
		l.indexFields()
	}
	name := strings.TrimPrefix(t.Name(), "struct.")
	name = strings.TrimPrefix(name, "class.")
	if fs, ok := l.fields[name]; ok && k < len(fs) {
		return fs[k]
	}
	return "f" + strconv.Itoa(k)
}

// fieldStep is one field on a path into a structure: its name, the
// structure it is in and its type.
type fieldStep struct {
	name    string
	in, typ types.Type
}

// coercedField is the path in structure actual to the field that field k
// of view covers, where view is the ABI's literal structure over actual's
// storage (clang passes a 16-byte struct {double *a; long n} in registers
// as { double*, i64 } and stores the two halves through that view): the
// field of actual that starts at the same offset and has the same size,
// nested structures walked into. Nil where the view is the structure
// itself, at is not the first field step, or no field lines up.
func (l *lifter) coercedField(actual types.Type, view *types.StructType, k, at int) []fieldStep {
	as, ok := actual.(*types.StructType)
	if at != 1 || !ok || view.Name() != "" || types.Equal(as, view) || k >= len(view.Fields) {
		return nil
	}
	off := int64(0)
	for i, f := range view.Fields[:k+1] {
		fs, fa, ok := typeSize(f)
		if !ok {
			return nil
		}
		if !view.Packed {
			off = (off + fa - 1) / fa * fa
		}
		if i < k {
			off += fs
		}
	}
	want, _, _ := typeSize(view.Fields[k])
	var path []fieldStep
	for cur := types.Type(as); ; {
		st, ok := cur.(*types.StructType)
		if !ok {
			if s, _, ok := typeSize(cur); ok && s == want && off == 0 && len(path) > 0 {
				return path
			}
			return nil
		}
		pos, found := int64(0), false
		for i, f := range st.Fields {
			fs, fa, ok := typeSize(f)
			if !ok {
				return nil
			}
			if !st.Packed {
				pos = (pos + fa - 1) / fa * fa
			}
			if off >= pos && off < pos+fs {
				path = append(path, fieldStep{l.fieldName(st, i), st, f})
				off -= pos
				cur, found = f, true
				break
			}
			pos += fs
		}
		if !found {
			return nil
		}
	}
}

// storedType is the type of what a local, a global or a pointer's target
// holds.
func storedType(v value.Value) types.Type {
	if t := storageType(v); t != nil {
		return t
	}
	return pointee(v)
}

// flatName is a component reference's path as one name, a%b%c.
func flatName(e apt.Expr) string {
	switch c := e.(type) {
	case *apt.Component:
		return flatName(c.Base) + "%" + c.Field
	case *apt.Name:
		return c.Name
	}
	return "?"
}

// pointee is the type a pointer value points to (nil for other values).
func pointee(v value.Value) types.Type {
	if pt, ok := v.Type().(*types.PointerType); ok {
		return pt.ElemType
	}
	return nil
}

// ctypeTable names the table of glibc's character classes or case maps a
// pointer loaded from __ctype_b_loc(), __ctype_toupper_loc() or
// __ctype_tolower_loc() is, "" for any other value.
func ctypeTable(v value.Value) string {
	ld, ok := v.(*ir.InstLoad)
	if !ok {
		return ""
	}
	c, ok := stripCasts(ld.Src).(*ir.InstCall)
	if !ok {
		return ""
	}
	name, _ := calleeName(c)
	switch name {
	case "__ctype_b_loc":
		return "__ctype_b"
	case "__ctype_toupper_loc":
		return "__ctype_toupper"
	case "__ctype_tolower_loc":
		return "__ctype_tolower"
	}
	return ""
}

// scalarPointee reports whether the pointer type t points to numbers or
// characters (not structures, pointers or functions).
func scalarPointee(t types.Type) bool {
	p, ok := t.(*types.PointerType)
	if !ok {
		return false
	}
	switch p.ElemType.(type) {
	case *types.IntType, *types.FloatType:
		return true
	}
	return false
}
