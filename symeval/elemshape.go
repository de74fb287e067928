package symeval

import (
	"slices"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Allocatable components of array elements. A program keeps its grids
// (multigrid levels, blocks of a multi-block mesh, tiles) in an array of a
// derived type whose array components are ALLOCATABLE or POINTER, and
// allocates each element's own (allocate(lev(l)%u(0:n+1, 0:n+1)) in a loop
// over the levels, or in a routine given the element). The bounds are then
// one set per element. The evaluation keeps each bound, and whether the
// component is allocated, as an INTEGER array over the elements, as it
// keeps a scalar component (fieldRef): keyed by the array's key and the
// path to the component, at the element's offset. A loop over the elements
// run trip by trip stores and reads them at constant offsets; one
// evaluated symbolically stores them at the offsets its variable gives,
// where the arrays' own machinery (rangestore.go) makes a closed form of
// them in the index.

// elemBoundKey is where the lower bound (lo) or extent (ext) of dimension
// d of the component stored at key (elemShapeRef) is kept.
func elemBoundKey(key, what string, d int) string {
	return key + "#(elem " + what + itoa(d+1) + ")"
}

// isElemShapeKey reports whether k is an elemBoundKey or elemStatusKey.
func isElemShapeKey(k string) bool { return strings.Contains(k, "#(elem ") }

// elemStatusKey is where whether the component is allocated is kept.
func elemStatusKey(key string) string { return key + "#(elem allocated)" }

var intType = apt.Type{Base: apt.TypeInteger}

// elemShapeRef returns the key of the array component field of the element
// base is part of (elementOf), the element's offset, and the component's
// declaration, for a component whose bounds are its allocation's. key is
// "" where base is no element of an array the evaluation follows.
func (ev *evaluator) elemShapeRef(base apt.Expr, field string) (key string, off Value, ok bool, f *apt.Var) {
	if ev.cPointers() {
		return "", Value{}, false, nil
	}
	bi, path, isEl := elementOf(base)
	if !isEl || hasSection(bi) {
		return "", Value{}, false, nil
	}
	if _, _, heap := ev.heapElement(bi); heap {
		return "", Value{}, false, nil
	}
	dt := ev.prog.LookupType(ev.frame().routine, apt.TypeOf(base).Derived)
	if dt == nil {
		return "", Value{}, false, nil
	}
	f = dt.Field(field)
	if f == nil || !f.IsArray() || !needsShape(f.Dims) {
		return "", Value{}, false, nil
	}
	bk, boff, bok := ev.indexRef(bi)
	if bk == "" {
		return "", Value{}, false, nil
	}
	return bk + "%" + path + field, boff, bok, f
}

// allocateElem records the bounds dims an ALLOCATE gives the component ix
// of an array element; false where ix is none.
func (ev *evaluator) allocateElem(ix *apt.Index, dims []bound) bool {
	if ix.Base == nil {
		return false
	}
	key, off, ok, f := ev.elemShapeRef(ix.Base, ix.Name)
	if key == "" || len(f.Dims) != len(dims) {
		return false
	}
	ev.storeElemShape(key, off, ok, dims)
	return true
}

// storeElemShape stores the bounds dims (nil: none, deallocated) of the
// component at key of the element at off.
func (ev *evaluator) storeElemShape(key string, off Value, ok bool, dims []bound) {
	status := int64(0)
	if dims != nil {
		status = 1
	}
	for d, b := range dims {
		ev.storeAt(elemBoundKey(key, "lo", d), off, ok, nil, intType, b.lo)
		ev.storeAt(elemBoundKey(key, "ext", d), off, ok, nil, intType, b.ext)
	}
	ev.storeAt(elemStatusKey(key), off, ok, nil, intType, Known(symbolic.Int(status)))
}

// deallocateElem forgets the bounds of the component a of an array
// element; false where a is none.
func (ev *evaluator) deallocateElem(a apt.Expr) bool {
	c, isComp := a.(*apt.Component)
	if !isComp {
		return false
	}
	key, off, ok, f := ev.elemShapeRef(c.Base, c.Field)
	if key == "" {
		return false
	}
	ev.deallocateElemAt(key, off, ok, len(f.Dims), Known(symbolic.Int(0)))
	return true
}

// deallocateElemAt stores that the component at key of the element at off
// has no bounds the evaluation knows (n dimensions), and the status st.
func (ev *evaluator) deallocateElemAt(key string, off Value, ok bool, n int, st Value) {
	for d := range n {
		ev.storeAt(elemBoundKey(key, "lo", d), off, ok, nil, intType, Value{})
		ev.storeAt(elemBoundKey(key, "ext", d), off, ok, nil, intType, Value{})
	}
	ev.storeAt(elemStatusKey(key), off, ok, nil, intType, st)
}

// elemBounds returns the bounds of the component c of an array element:
// its allocation's, where the evaluation holds them; declared ones for a
// component of explicit shape.
func (ev *evaluator) elemBounds(c *apt.Component) ([]bound, bool) {
	key, off, ok, f := ev.elemShapeRef(c.Base, c.Field)
	if key == "" {
		return ev.declaredElemBounds(c)
	}
	bi, _, _ := elementOf(c.Base)
	out := make([]bound, len(f.Dims))
	for d := range f.Dims {
		lo := ev.loadAt(elemBoundKey(key, "lo", d), off, ok, nil, bi, c.Field, intType)
		ext := ev.loadAt(elemBoundKey(key, "ext", d), off, ok, nil, bi, c.Field, intType)
		if !lo.IsKnown() || !ext.IsKnown() || lo.unk != nil || ext.unk != nil {
			return nil, false
		}
		out[d] = bound{lo: lo, ext: ext}
	}
	return out, true
}

// declaredElemBounds are the bounds of an array component of explicit
// shape of an array element (tiles(t)%nbr(4)): the type's.
func (ev *evaluator) declaredElemBounds(c *apt.Component) ([]bound, bool) {
	dt := ev.prog.LookupType(ev.frame().routine, apt.TypeOf(c.Base).Derived)
	if dt == nil {
		return nil, false
	}
	f := dt.Field(c.Field)
	if f == nil || !f.IsArray() || needsShape(f.Dims) {
		return nil, false
	}
	out := make([]bound, len(f.Dims))
	for d, dim := range f.Dims {
		e, ok := ev.dimExtent(dim)
		if !ok {
			return nil, false
		}
		out[d] = bound{lo: ev.lowerBound(dim), ext: e}
	}
	return out, true
}

// elemAllocated evaluates ALLOCATED(x%f) for a component of an array
// element, where the evaluation holds its status.
func (ev *evaluator) elemAllocated(a apt.Expr) (Value, bool) {
	c, isComp := a.(*apt.Component)
	if !isComp {
		return Value{}, false
	}
	key, off, ok, _ := ev.elemShapeRef(c.Base, c.Field)
	if key == "" {
		return Value{}, false
	}
	bi, _, _ := elementOf(c.Base)
	v := ev.loadAt(elemStatusKey(key), off, ok, nil, bi, c.Field, intType)
	if !v.IsKnown() || v.unk != nil {
		return Value{}, false
	}
	return v, true
}

// elemShapeKeys adds to set the keys an ALLOCATE or DEALLOCATE of the
// component a of an array element changes (collectAssigned).
func (ev *evaluator) elemShapeKeys(base apt.Expr, field string, set map[string]bool) bool {
	if ev.cPointers() {
		return false
	}
	bi, path, isEl := elementOf(base)
	if !isEl {
		return false
	}
	dt := ev.prog.LookupType(ev.frame().routine, apt.TypeOf(base).Derived)
	if dt == nil {
		return false
	}
	f := dt.Field(field)
	if f == nil || !f.IsArray() || !needsShape(f.Dims) {
		return false
	}
	// (The key alone: the element's subscripts are not evaluated here.)
	bk, ok := ev.arrayKey(bi)
	if !ok {
		return false
	}
	key := bk + "%" + path + field
	for d := range f.Dims {
		set[elemBoundKey(key, "lo", d)] = true
		set[elemBoundKey(key, "ext", d)] = true
	}
	set[elemStatusKey(key)] = true
	return true
}

// elemShapeArg is an allocatable component of an array element bound to
// a dummy of the element's type (call smooth(lev(l))): the dummy's
// component has the element's bounds, and those the routine gives it
// (an ALLOCATE of lv%u in the routine) are the element's on return.
type elemShapeArg struct {
	formal, field string // the dummy's component formal%field
	key           string // elemShapeRef's
	off           Value
	ok            bool
	dims          []bound // on entry; nil: not allocated or not known
	status        Value
	rank          int // the component's
}

// elemShapeArgs returns the allocatable array components of the element
// ix bound to the dummy formal of r.
func (ev *evaluator) elemShapeArgs(r *apt.Routine, formal string, ix *apt.Index) []elemShapeArg {
	d := r.Scope.Lookup(formal)
	if d == nil || d.IsArray() || d.Type.Base != apt.TypeDerived || ix.Type.Base != apt.TypeDerived || hasSection(ix) {
		return nil
	}
	dt := ev.prog.LookupType(ev.frame().routine, ix.Type.Derived)
	if dt == nil {
		return nil
	}
	var out []elemShapeArg
	for _, f := range dt.Fields {
		if !f.IsArray() || !needsShape(f.Dims) {
			continue
		}
		key, off, ok, _ := ev.elemShapeRef(ix, f.Name)
		if key == "" {
			continue
		}
		a := elemShapeArg{formal: formal, field: f.Name, key: key, off: off, ok: ok, rank: len(f.Dims)}
		c := &apt.Component{Pos: ix.Pos, Base: ix, Field: f.Name, Type: f.Type, Array: true}
		if dims, ok := ev.elemBounds(c); ok {
			a.dims = dims
		}
		if v, ok := ev.elemAllocated(c); ok {
			a.status = v
		}
		out = append(out, a)
	}
	return out
}

// bindElemShapes gives the callee's dummies (frame id) the bounds and
// status of the elements' components.
func (ev *evaluator) bindElemShapes(id string, args []elemShapeArg) {
	for _, a := range args {
		k := id + "." + a.formal + "%" + a.field
		if a.dims != nil {
			ev.setShape(k, a.dims)
		}
		if a.status.IsKnown() {
			ev.env.set(allocStatusKey(k), a.status)
		}
	}
}

// returnElemShapes stores the bounds the callee's dummies (frame id) end
// with back into the elements, where the routine changed them.
func (ev *evaluator) returnElemShapes(id string, args []elemShapeArg) {
	for _, a := range args {
		k := id + "." + a.formal + "%" + a.field
		st, hasSt := ev.env.lookup(allocStatusKey(k))
		sh, hasSh := ev.env.lookup(shapeKey(k))
		if !hasSt && !hasSh && a.dims == nil {
			continue // nothing known, nothing done
		}
		stSame := hasSt == a.status.IsKnown() && (!hasSt || sameValue(st, a.status))
		shSame := !hasSh && a.dims == nil || hasSh && a.dims != nil && sameShape(sh, a.dims)
		if stSame && shSame {
			continue
		}
		if s, ok := st.Single(); hasSt && ok && s.IsZero() {
			ev.deallocateElemAt(a.key, a.off, a.ok, a.rank, st)
			continue
		}
		if !hasSh || sh.Fields == nil {
			// Changed in a way the evaluation does not follow.
			ev.deallocateElemAt(a.key, a.off, a.ok, a.rank, Value{})
			continue
		}
		dims := make([]bound, a.rank)
		for d := range dims {
			dims[d] = bound{lo: sh.Fields[loField(d)], ext: sh.Fields[extField(d)]}
		}
		ev.storeElemShape(a.key, a.off, a.ok, dims)
	}
}

func sameShape(sh Value, dims []bound) bool {
	for d, b := range dims {
		if !sameValue(sh.Fields[loField(d)], b.lo) || !sameValue(sh.Fields[extField(d)], b.ext) {
			return false
		}
	}
	return true
}

// elemPointer returns the pointer to a structure that the association
// s (lp => lev(l)) points at an array element, and the element; false for
// any other.
func (ev *evaluator) elemPointer(s *apt.Stmt) (*apt.Name, *apt.Index, *apt.DerivedType, bool) {
	nm, ok := s.Target.(*apt.Name)
	ix, ok2 := s.Value.(*apt.Index)
	if !ok || !ok2 || s.Kind != apt.StmtPointerAssign || ev.cPointers() || ev.paramName(nm.Name) != "" {
		return nil, nil, nil, false
	}
	d := ev.prog.Resolve(ev.frame().routine, nm.Name)
	if d == nil || !d.Pointer || d.IsArray() || d.Type.Base != apt.TypeDerived || ix.Type.Base != apt.TypeDerived || d.Type.Derived != ix.Type.Derived {
		return nil, nil, nil, false
	}
	dt := ev.prog.LookupType(ev.frame().routine, d.Type.Derived)
	if dt == nil {
		return nil, nil, nil, false
	}
	return nm, ix, dt, true
}

// pointElem evaluates lp => lev(l): the pointer's array components have
// the element's bounds and status as they are now, which is how the
// program reaches the element's arrays through it. It reports whether s
// was such an association.
func (ev *evaluator) pointElem(s *apt.Stmt) bool {
	nm, ix, dt, ok := ev.elemPointer(s)
	if !ok {
		return false
	}
	key := ev.key(nm.Name)
	copies := !ev.writesThrough(nm.Name)
	for _, f := range dt.Fields {
		if pointedScalar(f) {
			// A scalar component (lp%n), as the element holds it, where
			// the routine assigns none through the pointer (which the
			// element would then not see).
			k := key + "%" + f.Name
			if !copies {
				ev.env.del(k)
				continue
			}
			c := &apt.Component{Pos: ix.Pos, Base: ix, Field: f.Name, Type: f.Type}
			if v, ok := ev.loadField(c); ok && v.IsKnown() && v.unk == nil {
				ev.env.set(k, v)
			} else {
				ev.env.del(k)
			}
			continue
		}
		if !f.IsArray() || !needsShape(f.Dims) {
			continue
		}
		k := key + "%" + f.Name
		c := &apt.Component{Pos: ix.Pos, Base: ix, Field: f.Name, Type: f.Type, Array: true}
		if dims, ok := ev.elemBounds(c); ok {
			ev.setShape(k, dims)
		} else {
			ev.env.del(shapeKey(k))
		}
		if v, ok := ev.elemAllocated(c); ok {
			ev.env.set(allocStatusKey(k), v)
		} else {
			ev.env.del(allocStatusKey(k))
		}
	}
	return true
}

// elemPointerKeys adds to set the keys pointElem sets for s.
func (ev *evaluator) elemPointerKeys(s *apt.Stmt, set map[string]bool) {
	nm, _, dt, ok := ev.elemPointer(s)
	if !ok {
		return
	}
	key := ev.key(nm.Name)
	for _, f := range dt.Fields {
		if pointedScalar(f) {
			set[key+"%"+f.Name] = true
		}
		if f.IsArray() && needsShape(f.Dims) {
			set[shapeKey(key+"%"+f.Name)] = true
			set[allocStatusKey(key+"%"+f.Name)] = true
		}
	}
}

// elemShapeOf returns the element whose component the object a of an
// ALLOCATE or DEALLOCATE is, where one of the keys it changes is key.
func (ev *evaluator) elemShapeOf(a apt.Expr, key string) (*apt.Index, bool) {
	var base apt.Expr
	var field string
	switch x := a.(type) {
	case *apt.Index:
		base, field = x.Base, x.Name
	case *apt.Component:
		base, field = x.Base, x.Field
	}
	if base == nil {
		return nil, false
	}
	keys := map[string]bool{}
	if !ev.elemShapeKeys(base, field, keys) || !keys[key] {
		return nil, false
	}
	eix, _, _ := elementOf(base)
	return eix, eix != nil
}

// pointedScalar reports whether pointElem copies the component f: an
// INTEGER or LOGICAL scalar, as fieldRef follows them.
func pointedScalar(f *apt.Var) bool {
	return !f.IsArray() && !f.Pointer && !f.Allocatable && (f.Type.Base == apt.TypeInteger || f.Type.Base == apt.TypeLogical)
}

// writesThrough reports whether the current routine may change a
// component of the structure the pointer name points to: it assigns or
// reads into one, or passes the pointer or a component to a routine.
func (ev *evaluator) writesThrough(name string) bool {
	rooted := func(e apt.Expr) bool {
		for {
			switch x := e.(type) {
			case *apt.Component:
				e = x.Base
			case *apt.Index:
				if x.Base == nil {
					return false
				}
				e = x.Base
			case *apt.Name:
				return x.Name == name
			default:
				return false
			}
		}
	}
	found := false
	for _, n := range ev.frame().routine.Body {
		apt.Inspect(n, func(m apt.Node) bool {
			switch x := m.(type) {
			case *apt.Block:
				for _, st := range x.Stmts {
					if st.Target != nil && rooted(st.Target) {
						if _, whole := st.Target.(*apt.Name); !whole {
							found = true
						}
					}
				}
			case *apt.Call:
				for _, a := range x.Args {
					if rooted(a) {
						found = true
					}
				}
			case *apt.IO:
				found = found || len(x.Reads) > 0 && slices.ContainsFunc(x.Reads, func(r string) bool { return r == name })
			}
			return !found
		})
	}
	return found
}

// elemStride is how far apart the elements of an allocatable component of
// consecutive array elements are kept (lev(l)%nbr(k) at offset
// (l-1)*elemStride + k-1): each element's own extents place its elements,
// and no element's block reaches the next.
const elemStride = 1 << 32

// elemBlockSize is the length of one element's block of a component with
// bounds sh (nil: of explicit shape, whose caller sizes it).
func elemBlockSize(sh []bound) Value {
	if sh == nil {
		return Known(symbolic.Int(1))
	}
	return Known(symbolic.Int(elemStride))
}
