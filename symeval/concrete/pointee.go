package concrete

import (
	"github.com/mkvet/mkvet/frontend/apt"
)

// Elements a C program reaches through a pointer the run does not set: an
// array a structure's pointer field holds (A->nnz_in_row[i], where the
// structure and its arrays were allocated before the run), or the array a
// dummy refers to through a pointer to a pointer ((*x)[i] of double **x,
// which the C frontend writes x[i]). The caller knows where the pointer
// points when the run starts (Machine.Pointee); the run holds the
// storage there as it holds a global's, so long as nothing it runs points
// the pointer elsewhere: code that repoints the pointer's root structure
// pointer (bp = ... with bp->f[i] read) is refused when compiled, and an
// assignment to a pointer field through a pointer (p->f = q) stops the
// run already (assign).

// pointeeOf returns the pointer expression through which ix reaches its
// elements, where the machine takes them from Pointee: p->f[k] of a
// structure pointer p (a variable or one of its fields, not an element of
// an array of structures), or x[k] of a scalar dummy x declared of a
// number type (a reference to a pointer). It returns the root variable
// too; nil where ix is no such reference.
func (c *compiler) pointeeOf(ix *apt.Index) (ptr apt.Expr, root string) {
	if c.m.Pointee == nil || c.m.prog.Notation() == apt.Fortran || len(ix.Subs) != 1 || ix.Substring || len(ix.FieldDims) > 0 {
		return nil, ""
	}
	if !numberType(ix.Type) {
		return nil, ""
	}
	if ix.Base != nil {
		root, ok := rootName(ix.Base)
		if !ok {
			return nil, ""
		}
		if !ix.Deref {
			// A.f[k] of a structure variable A (csr_t A; A.rowptr =
			// malloc(...)): the field holds a pointer as p->f does,
			// only the structure is not reached through one. A
			// structure held in an array or a pointer is not this.
			rv := c.m.prog.Resolve(c.rt.r, root)
			if rv == nil || rv.Type.Base != apt.TypeDerived || len(rv.Dims) > 0 || rv.Pointer {
				return nil, ""
			}
		}
		return &apt.Component{Pos: ix.Pos, Base: ix.Base, Field: ix.Name, Type: ix.Type, Deref: ix.Deref, Array: true}, root
	}
	v := c.m.prog.Resolve(c.rt.r, ix.Name)
	if v == nil || len(v.Dims) > 0 || v.Param != nil || !numberType(v.Type) || c.rt.r.Scope.Lookup(ix.Name) != v {
		return nil, ""
	}
	if !c.rt.allGlobal && !isFormal(c.rt.r, ix.Name) {
		return nil, ""
	}
	return &apt.Name{Pos: ix.Pos, Name: ix.Name, Type: ix.Type}, ix.Name
}

// rootName is the variable a chain of components starts from (p in
// p->a->b); false for one through an array element or a call.
func rootName(e apt.Expr) (string, bool) {
	switch x := e.(type) {
	case *apt.Name:
		return x.Name, true
	case *apt.Component:
		return rootName(x.Base)
	}
	return "", false
}

func isFormal(r *apt.Routine, name string) bool {
	for _, f := range r.Formals {
		if f == name {
			return true
		}
	}
	return false
}

func numberType(t apt.Type) bool {
	switch t.Base {
	case apt.TypeInteger, apt.TypeLogical, apt.TypeReal:
		return true
	}
	return false
}

// pointeeSlot returns the slot of the elements the pointer expression ptr
// reaches (pointeeOf), one per expression as written: a global slot,
// bound through Pointee when the run first reaches it, of assumed size
// from the element the pointer points at.
func (rt *routine) pointeeSlot(ptr apt.Expr, root string, t apt.Type, pos apt.Pos) int {
	name := "*" + apt.FormatExpr(ptr)
	if i, ok := rt.byName[name]; ok {
		return i
	}
	zero := &apt.Const{Kind: apt.ConstInt, Text: "0", Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
	v := &apt.Var{Name: name, Type: t, Dims: []apt.Dim{{Lo: zero, Hi: &apt.Star{}}}}
	sl := &slot{name: name, v: v, kind: slotGlobal, real: realStored(t), single: single(t), local: -1, ptr: ptr}
	sl.lo = []ival{func(*act) (int64, bool) { return 0, true }}
	sl.hi = []ival{nil}
	if rt.ptrRoots == nil {
		rt.ptrRoots = map[string]apt.Pos{}
	}
	if _, seen := rt.ptrRoots[root]; !seen {
		rt.ptrRoots[root] = pos
	}
	i := len(rt.slots)
	rt.byName[name] = i
	rt.slots = append(rt.slots, sl)
	return i
}

// checkPointees refuses code that repoints the root of a pointer whose
// elements it reaches through Pointee: the binding would outlive the
// pointer's value.
func (rt *routine) checkPointees() {
	for root := range rt.ptrRoots {
		if pos, ok := rt.repointed[root]; ok {
			stop(pos, "the run points %s elsewhere and reaches elements through it", root)
		}
	}
}

// pointerStore compiles an element assignment whose value is a C pointer
// (a->rows[i] = p: an array of pointers): the element receives the
// address the pointer holds, as the caller numbers addresses (Address),
// unknown where it has no number for it. A run that reads such an
// element as a pointer stops (repoint); as a number it reads the address.
func (c *compiler) pointerStore(s *apt.Stmt, i int, off func(a *act) int64) (func(a *act), bool) {
	if c.m.prog.Notation() == apt.Fortran {
		return nil, false
	}
	q, ok := s.Value.(*apt.Name)
	if !ok {
		return nil, false
	}
	v := c.m.prog.Resolve(c.rt.r, q.Name)
	if v == nil || len(v.Dims) == 0 || v.Param != nil || !numberType(v.Type) {
		return nil, false
	}
	sl := c.rt.slots[i]
	if sl.real || sl.v.Type.Base != apt.TypeInteger {
		stop(s.Span.Start(), "the pointer %s is stored as a number of another type", q.Name)
	}
	pos := s.Span.Start()
	j := c.rt.slotOf(c.m, q.Name, pos)
	return func(a *act) {
		o := off(a)
		from := a.view(j, pos)
		var addr int64
		known := false
		if a.m.Address != nil {
			addr, known = a.m.Address(from.s, from.off)
		}
		st := a.vars[i].s
		st.I[o], st.Known[o], st.Written = addr, known, true
	}, true
}

// derefField returns the slot of a scalar number component reached
// through a structure pointer (m->nrow, a->b.n): a global slot Pointee
// binds to the component's storage, as pointeeSlot does for an array's;
// false for a component fieldPath names, or one the machine does not
// take from Pointee.
func (c *compiler) derefField(e *apt.Component) (int, bool) {
	if c.m.Pointee == nil || c.m.prog.Notation() == apt.Fortran || e.Array || !numberType(e.Type) {
		return 0, false
	}
	if _, _, ok := fieldPath(e); ok {
		return 0, false
	}
	root, ok := rootName(e)
	if !ok {
		return 0, false
	}
	name := "*" + apt.FormatExpr(e)
	if i, ok := c.rt.byName[name]; ok {
		return i, true
	}
	v := &apt.Var{Name: name, Type: e.Type}
	sl := &slot{name: name, v: v, kind: slotGlobal, real: realStored(e.Type), single: single(e.Type), local: -1, ptr: e}
	if c.rt.ptrRoots == nil {
		c.rt.ptrRoots = map[string]apt.Pos{}
	}
	if _, seen := c.rt.ptrRoots[root]; !seen {
		c.rt.ptrRoots[root] = e.Pos
	}
	i := len(c.rt.slots)
	c.rt.byName[name] = i
	c.rt.slots = append(c.rt.slots, sl)
	return i, true
}
