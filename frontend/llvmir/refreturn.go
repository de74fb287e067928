package llvmir

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// References to fields returned. A C++ function that returns a reference
// to a number or a pointer held in a field of its argument (an iterator's
// base(), which returns its pointer by const reference; int &n() { return
// s->n; }) returns in the IR the field's address, which the caller loads
// or stores through. The function's own result is lifted as the field's
// value (base = this->f0), and the caller's load of the address read it
// as a pointer to follow (t_call[0]: the first element of the vector, not
// its address; a store there reached nothing). The caller's loads and
// stores through such a call are the field of the argument it passes
// (__lhs->f0, s.n): the reference, read and written where the program
// reads and writes it, as the callee's code says. The call still runs.

// refRet is where a function's returns point: the field reached by the
// constant indices idx from the structure (of type elem) its parameter
// param points to.
type refRet struct {
	param int
	elem  types.Type
	idx   []value.Value
}

// refReturn is f's refRet, nil unless every return of f gives the
// address of the same number or pointer field of the structure one
// parameter points to.
func (l *lifter) refReturn(f *ir.Func) *refRet {
	if f == nil || len(f.Blocks) == 0 {
		return nil
	}
	return memoFunc(&l.refRets, f, findRefReturn)
}

func findRefReturn(f *ir.Func) *refRet {
	pt, ok := f.Sig.RetType.(*types.PointerType)
	if !ok {
		return nil
	}
	switch pt.ElemType.(type) {
	case *types.IntType, *types.FloatType:
	case *types.PointerType:
		if isFuncPointer(pt.ElemType) {
			return nil
		}
	default:
		return nil
	}
	var r *refRet
	for _, b := range f.Blocks {
		t, ok := b.Term.(*ir.TermRet)
		if !ok {
			continue
		}
		p, elem, idx, ok := fieldOfParam(t.X)
		if !ok {
			return nil
		}
		k := -1
		for i, q := range f.Params {
			if q == p {
				k = i
			}
		}
		if k < 0 || r != nil && (r.param != k || !types.Equal(r.elem, elem) || !sameIndices(r.idx, idx)) {
			return nil
		}
		r = &refRet{param: k, elem: elem, idx: idx}
	}
	return r
}

// fieldOfParam reports whether v is the address of a field (at any depth)
// of the structure a parameter points to, getelementptrs of constant
// indices from the parameter, and returns them as one: the parameter, the
// structure's type, the indices.
func fieldOfParam(v value.Value) (*ir.Param, types.Type, []value.Value, bool) {
	g, ok := stripCasts(v).(*ir.InstGetElementPtr)
	if !ok || len(g.Indices) < 2 || !isConstZero(g.Indices[0]) {
		return nil, nil, nil, false
	}
	for _, i := range g.Indices[1:] {
		if _, ok := unwrapArg(i).(*constant.Int); !ok {
			return nil, nil, nil, false
		}
	}
	if _, ok := g.ElemType.(*types.StructType); !ok {
		return nil, nil, nil, false
	}
	switch s := stripCasts(g.Src).(type) {
	case *ir.Param:
		if !types.Equal(pointee(s), g.ElemType) {
			return nil, nil, nil, false // a view of the argument as another type
		}
		return s, g.ElemType, g.Indices, true
	case *ir.InstGetElementPtr:
		// A field of a field: one walk from the outer structure.
		p, elem, idx, ok := fieldOfParam(s)
		if !ok || !types.Equal(pointee(s), g.ElemType) {
			return nil, nil, nil, false
		}
		return p, elem, append(idx[:len(idx):len(idx)], g.Indices[1:]...), true
	}
	return nil, nil, nil, false
}

func sameIndices(a, b []value.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, ok1 := unwrapArg(a[i]).(*constant.Int)
		y, ok2 := unwrapArg(b[i]).(*constant.Int)
		if !ok1 || !ok2 || x.X.Cmp(y.X) != 0 {
			return false
		}
	}
	return true
}

// refCallRef is the reference a load or store through the call c reaches
// where its callee returns a reference to a field of an argument: that
// field of the actual argument.
func (x *fn) refCallRef(c *ir.InstCall, ops *apt.Ops) (apt.Expr, bool, bool) {
	_, f := calleeName(c)
	r := x.l.refReturn(f)
	if r == nil || r.param >= len(c.Args) {
		return nil, false, false
	}
	e, arr := x.gepRef(unwrapArg(c.Args[r.param]), r.elem, r.idx, ops)
	return e, arr, true
}
