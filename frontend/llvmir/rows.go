package llvmir

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// Arrays of pointers. A C program keeps a table in rows reached through an
// array of pointers (int **owner, each row malloc'd; int *pos[3]): a row
// stored into such an element is a heap object of its own (allocation),
// and a pointer loaded from one is a statement of its own (p = owner(i),
// apt.Stmt.Load), so that owner[i][j] is p(j), the row's element.

// storedInElement reports whether v is stored into an element of an array
// of pointers: a store whose address indexes pointers (T** or [n x T*]),
// not a pointer variable's own slot or a struct's field.
func (x *fn) storedInElement(v value.Value) bool {
	for _, u := range x.uses[v] {
		if st, ok := u.user.(*ir.InstStore); ok && st.Src == v && indexesPointers(st.Dst) {
			return true
		}
	}
	return false
}

// indexesPointers reports whether the address addr is an element of an
// array of pointers: a getelementptr over T** or [n x T*].
func indexesPointers(addr value.Value) bool {
	var src types.Type
	switch g := stripCasts(addr).(type) {
	case *ir.InstGetElementPtr:
		src = g.ElemType
	case *constant.ExprGetElementPtr:
		src = g.ElemType
	default:
		return false
	}
	if at, isArr := src.(*types.ArrayType); isArr {
		src = at.ElemType
	}
	_, isPtr := src.(*types.PointerType)
	return isPtr
}

// rowPointer reports whether l loads a pointer to integers from an element
// of an array of pointers (owner[i] of int **owner, pos[d] of int *pos[3]):
// it is given a statement of its own, p = owner(i), so that owner[i][j] is
// p(j), an element of the row object p's value is the address of
// (symeval/heap.go), not an unknown location.
func rowPointer(l *ir.InstLoad) bool {
	pt, ok := l.Type().(*types.PointerType)
	if !ok {
		return false
	}
	if it, isInt := pt.ElemType.(*types.IntType); !isInt || it.BitSize <= 8 {
		// (Rows of reals hold no counts; text, argv[k], is followed as
		// text: cstring.go.)
		return false
	}
	return indexesPointers(l.Src)
}

// pointerLoad reports whether l loads a pointer that is a statement of its
// own, p = owner(i) (apt.Stmt.Load): a row pointer or a cast one.
func (x *fn) pointerLoad(l *ir.InstLoad) bool {
	return rowPointer(l) || x.castPointer(l)
}

// castPointer reports whether l loads an untyped pointer (void *, char *)
// kept in a structure's field or an array's element that the function
// uses as the address of numbers, through a cast: a table of options
// whose entries point at the variables they set (sscanf(arg, "%d", (int
// *)opt->ptr)). It is a statement of its own, as rowPointer's, so that the
// address the entry holds is followed to the variable.
func (x *fn) castPointer(l *ir.InstLoad) bool {
	pt, ok := l.Type().(*types.PointerType)
	if !ok {
		return false
	}
	if it, isInt := pt.ElemType.(*types.IntType); !isInt || it.BitSize != 8 {
		return false
	}
	switch stripCasts(l.Src).(type) {
	case *ir.InstGetElementPtr, *constant.ExprGetElementPtr:
	default:
		return false
	}
	cast := false
	for _, u := range x.uses[l] {
		c, ok := u.user.(*ir.InstBitCast)
		if !ok {
			return false
		}
		to, ok := c.To.(*types.PointerType)
		if !ok {
			return false
		}
		switch e := to.ElemType.(type) {
		case *types.IntType:
			cast = cast || e.BitSize > 8
		case *types.FloatType:
			cast = true
		default:
			return false
		}
	}
	return cast
}
