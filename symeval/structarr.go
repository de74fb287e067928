package symeval

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Arrays of C structures reached through pointers. A program allocates its
// blocks, neighbours or messages as one array of structures (blocks =
// malloc(n * sizeof(block)), a std::vector's storage) and reaches an
// element through a pointer to it: bp = &blocks[n] and bp->level, a
// routine given &blocks[n], a walk for (b = first; b < first + n; b++).
// The array is a heap object (heap.go) whose fields are arrays over the
// elements: blocks[k].f and bp->f, where bp points k elements in, are
// both element k of the object's array for f, whichever pointer, routine
// or name the program reaches it by. A pointer to an element holds the
// object's address plus k times the structure's size (the frontend keeps
// that size in the type's Kind), so pointer arithmetic, differences and
// comparisons are those of the run.

// manyElems reports whether an allocation target(0:n-1) makes an array of
// elements rather than one (malloc(sizeof(T)) is one object, whose fields
// stay scalars): its last index is not the constant 0.
func (ev *evaluator) manyElems(ix *apt.Index) bool {
	if len(ix.Subs) != 1 || ix.Type.Base != apt.TypeDerived {
		return false
	}
	sec, ok := ix.Subs[0].(*apt.Section)
	if !ok {
		return false
	}
	c, ok := ev.prog.IntConstant(ev.frame().routine, sec.Hi)
	return !ok || c != 0
}

// heapAt is the heap object the address v points into and the element it
// designates, for elements of size bytes: v is the object's address plus
// a multiple of size (an element's constant address, or one a walk
// advances symbolically).
func (ev *evaluator) heapAt(v Value, size int64) (*heapObj, Value, bool) {
	if len(ev.heap) == 0 || size <= 0 || !v.IsKnown() {
		return nil, Value{}, false
	}
	v = nonNull(ev.pruneRanks(v)) // (objectOf)
	var obj *heapObj
	elem, ok := lift1(v, func(e symbolic.Expr) (symbolic.Expr, bool) {
		_, c := e.SplitConst()
		a, isInt := c.Int64()
		if !isInt || a < heapBase {
			return symbolic.Expr{}, false
		}
		base := objectBase(a)
		o := ev.heap[base]
		if o == nil || obj != nil && o != obj {
			return symbolic.Expr{}, false
		}
		obj = o
		k := e.Sub(symbolic.Int(base)).Scale(symbolic.RatFrac(1, size))
		return k, k.IsIntegerValued()
	})
	if !ok || obj == nil {
		return nil, Value{}, false
	}
	return obj, elem, true
}

// structPlace is the heap object and element the pointer to structures e
// points to.
func (ev *evaluator) structPlace(e apt.Expr) (*heapObj, Value, bool) {
	t := apt.TypeOf(e)
	if t.Base != apt.TypeDerived || t.Kind <= 0 || len(ev.heap) == 0 {
		return nil, Value{}, false
	}
	var v Value
	if nm, ok := e.(*apt.Name); ok {
		if ev.paramName(nm.Name) != "" {
			return nil, Value{}, false
		}
		got, ok := ev.env.lookup(ev.key(nm.Name))
		if !ok {
			return nil, Value{}, false
		}
		v = got
	} else {
		v = ev.value(e)
	}
	return ev.heapAt(v, int64(t.Kind))
}

// structAddr is the address &p[k] for a pointer p to structures of an
// array the evaluation follows: p's address plus k elements.
func (ev *evaluator) structAddr(ix *apt.Index) (Value, bool) {
	if len(ix.Subs) != 1 || ix.Type.Base != apt.TypeDerived || ix.Type.Kind <= 0 || len(ev.heap) == 0 || !ev.cPointers() {
		return Value{}, false
	}
	if _, isSec := ix.Subs[0].(*apt.Section); isSec {
		return Value{}, false
	}
	// The pointer: a variable, or a structure's field holding one (a
	// std::vector's start, this->_M_impl._M_start[n]).
	var p apt.Expr = &apt.Name{Pos: ix.Pos, Name: ix.Name, Type: ix.Type}
	if ix.Base != nil {
		p = &apt.Component{Pos: ix.Pos, Base: ix.Base, Field: ix.Name, Type: ix.Type}
	}
	if _, _, ok := ev.structPlace(p); !ok {
		// &p[0] is p whatever it holds: null (an empty std::vector's
		// start, whose begin() and end() are equal), or any address
		// inside a heap object (a slot of a vector of pointers, which
		// need not be a multiple of the structure's size from its start).
		if c, isConst := constInt(ix.Subs[0]); isConst && c == 0 {
			if v := ev.structPointer(p); v.IsKnown() && v.arr == nil && v.Fields == nil {
				if n, ok := v.Single(); ok && (n.IsZero() || ev.inObject(n)) {
					return v, true
				}
			}
		}
		return Value{}, false
	}
	var base Value
	if ix.Base == nil {
		base, _ = ev.env.lookup(ev.key(ix.Name))
	} else {
		base = ev.value(p)
	}
	k := ev.closedInt(ev.value(ix.Subs[0]), ix.Pos)
	if c, ok := k.Single(); ok {
		if n, ok := c.Int64(); ok && (n*int64(ix.Type.Kind) >= heapStride || n*int64(ix.Type.Kind) <= -heapStride) {
			// Past the space between two objects' addresses: the
			// address would read as another object's.
			return Value{}, false
		}
	}
	size := symbolic.Int(int64(ix.Type.Kind))
	return lift2(base, k, func(b, k symbolic.Expr) (symbolic.Expr, bool) {
		return b.Add(k.Mul(size)), true
	})
}

// inObject reports whether the constant address a lies inside a heap
// object the run allocated.
func (ev *evaluator) inObject(a symbolic.Expr) bool {
	c, ok := a.Int64()
	if !ok || c < heapBase || c >= addrBase {
		return false
	}
	return ev.heap[objectBase(c)] != nil
}

// objectBase is the address of the heap object whose space holds the
// address a (a >= heapBase): objects are heapStride bytes apart.
func objectBase(a int64) int64 {
	return heapBase + (a-heapBase)/heapStride*heapStride
}

// viewElement resolves p%f(k), the frontend's name for the field f of
// element k of the structures p points to (p[k].f; p[k].f[j] of an array
// field, the view's further dimensions the field's), to the field's array
// in the object p points into.
func (ev *evaluator) viewElement(ix *apt.Index) (string, Value, bool) {
	if ix.Base != nil || len(ix.Subs) == 0 || len(ev.heap) == 0 || !ev.cPointers() {
		return "", Value{}, false
	}
	root, path, ok := strings.Cut(ix.Name, "%")
	if !ok {
		return "", Value{}, false
	}
	d := ev.prog.Resolve(ev.frame().routine, root)
	if d == nil || d.Type.Base != apt.TypeDerived || d.Param != nil {
		return "", Value{}, false
	}
	view := ev.prog.Resolve(ev.frame().routine, ix.Name)
	if view == nil || len(view.Dims) != len(ix.Subs) {
		return "", Value{}, false
	}
	obj, e, ok := ev.structPlace(&apt.Name{Pos: ix.Pos, Name: root, Type: d.Type})
	if !ok || !obj.elems {
		return "", Value{}, false
	}
	k, ok := ev.subValue(ix.Subs[0])
	if !ok {
		return obj.key + "%" + path, Value{}, false
	}
	el, _ := lift2(e, k, func(a, b symbolic.Expr) (symbolic.Expr, bool) { return a.Add(b), true })
	off, ok := ev.fieldOffset(el, ix.Subs[1:], view.Dims[1:])
	return obj.key + "%" + path, off, ok
}

// fieldElement resolves p->f[j] for a pointer p into an array of
// structures and an array field f: element j of the field of the element p
// points to, in the object's array for f (the elements' fields one after
// another).
func (ev *evaluator) fieldElement(ix *apt.Index) (string, Value, bool) {
	if ix.Base == nil || len(ix.FieldDims) != len(ix.Subs) || len(ev.heap) == 0 || !ev.cPointers() || !tracked(ix.Type) {
		return "", Value{}, false
	}
	obj, e, ok := ev.structPlace(ix.Base)
	if !ok || !obj.elems {
		return "", Value{}, false
	}
	off, ok := ev.fieldOffset(e, ix.Subs, ix.FieldDims)
	return obj.key + "%" + ix.Name, off, ok
}

// fieldOffset is the offset in a field's array over the elements of the
// element el's subscripts subs of a field of bounds dims: el times the
// field's size, plus the row-major offset of subs.
func (ev *evaluator) fieldOffset(el Value, subs []apt.Expr, dims []apt.Dim) (Value, bool) {
	off := el
	for i, s := range subs {
		r := ev.frame().routine
		lo, ok1 := ev.prog.IntConstant(r, dims[i].Lo)
		hi, ok2 := ev.prog.IntConstant(r, dims[i].Hi)
		if !ok1 || !ok2 || hi < lo {
			return Value{}, false
		}
		v, ok := ev.subValue(s)
		if !ok {
			return Value{}, false
		}
		ext := symbolic.Int(hi - lo + 1)
		if off, ok = lift2(off, v, func(a, b symbolic.Expr) (symbolic.Expr, bool) {
			return a.Mul(ext).Add(b).Sub(symbolic.Int(lo)), true
		}); !ok {
			return Value{}, false
		}
	}
	return off, true
}

// subValue is a subscript's integer value; false for a section.
func (ev *evaluator) subValue(s apt.Expr) (Value, bool) {
	if _, isSec := s.(*apt.Section); isSec {
		return Value{}, false
	}
	v := ev.closedInt(ev.value(s), s.At())
	return v, v.IsKnown()
}

// derefField resolves p->f (and p->f.g) for a pointer p into an array of
// structures to element k of the field's array, where p points k elements
// in.
func (ev *evaluator) derefField(c *apt.Component) (string, Value, bool) {
	if c.Array || !tracked(c.Type) || len(ev.heap) == 0 || !ev.cPointers() {
		return "", Value{}, false
	}
	root, path, ok := derefRoot(c)
	if !ok {
		return "", Value{}, false
	}
	obj, e, ok := ev.structPlace(root)
	if !ok || !obj.elems {
		return "", Value{}, false
	}
	return obj.key + "%" + path, e, true
}

// heapFieldElement resolves s.p[k].f (C, written s.p%f[k]: the pointer p
// a field of the structure s) where p holds the address of a heap array of
// structures: the field f of the object's element k, keyed as the fields
// reached through any pointer into the object are (derefField,
// viewElement), so that a store through another pointer to that element
// (a vector's end pointer passed to the function that fills the slot) is
// the element read here.
func (ev *evaluator) heapFieldElement(ix *apt.Index) (string, Value, bool) {
	if !ev.cPointers() || len(ix.Subs) != 1 || ix.Base == nil || len(ix.FieldDims) > 0 || !tracked(ix.Type) || len(ev.heap) == 0 {
		return "", Value{}, false
	}
	ptr, field, ok := strings.Cut(ix.Name, "%")
	if !ok {
		return "", Value{}, false
	}
	if _, isSec := ix.Subs[0].(*apt.Section); isSec {
		return "", Value{}, false
	}
	obj, ok := ev.objectOf(ev.value(&apt.Component{Pos: ix.Pos, Base: ix.Base, Field: ptr}))
	if !ok || !obj.elems {
		return "", Value{}, false
	}
	off := ev.closedInt(ev.value(ix.Subs[0]), ix.Pos)
	return obj.key + "%" + field, off, off.IsKnown()
}

// derefRoot splits p->a.b into the pointer p and the field path a%b.
// The path leaves out the structures at the start of their enclosing
// ones that it goes through (firstParts): the fields of the structures a
// heap object holds are keyed by their place in the element, whichever
// type the pointer to it has.
func derefRoot(c *apt.Component) (apt.Expr, string, bool) {
	chain := derefChain(c)
	if chain == nil {
		return nil, "", false
	}
	slices.Reverse(chain)
	root := chain[0].Base
	chain = chain[firstParts(chain[:len(chain)-1]):]
	path := chain[0].Field
	for _, x := range chain[1:] {
		path += "%" + x.Field
	}
	return root, path, true
}

// derefChain is the components of p->a.b from b inwards to the one
// through the pointer p; nil where c reaches no pointer.
func derefChain(c *apt.Component) []*apt.Component {
	var chain []*apt.Component
	for cur := c; ; {
		chain = append(chain, cur)
		if cur.Deref {
			return chain
		}
		b, ok := cur.Base.(*apt.Component)
		if !ok {
			return nil
		}
		cur = b
	}
}

// firstParts counts the leading components of chain that are structures
// placed first in theirs (Component.First): a C++ member function of a
// base class or member reaches its fields through a pointer to that part
// (std::vector's _Vector_impl_data constructor sets this->_M_start, which
// the vector's size() reads as this->_M_impl._M_start), at one address.
func firstParts(chain []*apt.Component) int {
	n := 0
	for n < len(chain) && chain[n].First && chain[n].Type.Base == apt.TypeDerived && !chain[n].Array {
		n++
	}
	return n
}

// subobjectAddr is the address of the structure c designates where it
// is a part placed first (firstParts) of the element of an array of
// structures a pointer points to: the element's own address.
func (ev *evaluator) subobjectAddr(c *apt.Component) (Value, bool) {
	if c.Type.Base != apt.TypeDerived || c.Array || len(ev.heap) == 0 {
		return Value{}, false
	}
	chain := derefChain(c)
	if chain == nil || firstParts(chain) != len(chain) {
		return Value{}, false
	}
	root := chain[len(chain)-1].Base
	obj, _, ok := ev.structPlace(root)
	if !ok || !obj.elems {
		return Value{}, false
	}
	return ev.structPointer(root), true
}

// refPointer reads r[0] for a dummy r bound by reference to a pointer to
// structures (std::__normal_iterator's const _Iterator& __i, bound to a
// vector's _M_finish): the pointer the caller's variable or field holds,
// an address or null, which the APT types as the structures it points to.
func (ev *evaluator) refPointer(ix *apt.Index) (Value, bool) {
	if ix.Base != nil || len(ix.Subs) != 1 || ix.Type.Base != apt.TypeDerived || !ev.cPointers() {
		return Value{}, false
	}
	if c, ok := constInt(ix.Subs[0]); !ok || c != 0 {
		return Value{}, false
	}
	k := ev.frame().alias[ix.Name]
	if k == "" {
		return Value{}, false
	}
	v, ok := ev.env.lookup(k)
	if !ok || !v.IsKnown() || v.arr != nil || v.Fields != nil {
		return Value{}, false
	}
	return v, true
}

// structPointer is the value a pointer to structures holds: a variable's,
// or a field's.
func (ev *evaluator) structPointer(p apt.Expr) Value {
	if nm, ok := p.(*apt.Name); ok {
		if ev.paramName(nm.Name) != "" {
			return Value{}
		}
		v, _ := ev.env.lookup(ev.key(nm.Name))
		return v
	}
	return ev.value(p)
}

// forgetElementsField forgets the pointer field target of every element
// of an array of structures where target is that field of an element the
// evaluation does not know which (a loop's variable selects it, a walk of
// all iterations at once stores there): any element's may have changed.
func (ev *evaluator) forgetElementsField(target apt.Expr) {
	c, ok := target.(*apt.Component)
	if !ok || len(ev.heap) == 0 || !ev.cPointers() {
		return
	}
	root, path, ok := derefRoot(c)
	if !ok {
		return
	}
	obj, _, ok := ev.structPlace(root)
	if !ok || !obj.elems {
		return
	}
	suffix := "]%" + path + addrSuffix
	for _, k := range ev.env.withPrefix(obj.key + "[") {
		if strings.HasSuffix(k, suffix) {
			ev.env.del(k)
			ev.noteWrite(k)
		}
	}
}

// elementSlot is the key of a pointer field of the element a pointer into
// an array of structures points to (the _M_start of the k-th of a
// std::vector's vectors): each element's pointer is its own, where a
// component's address slot would be the field's for every element.
// isElem reports an element of such an array whatever ok says: where the
// element is not one number (a loop's variable), there is no slot, not
// the field's shared one.
func (ev *evaluator) elementSlot(c *apt.Component) (key string, isElem, ok bool) {
	if len(ev.heap) == 0 || !ev.cPointers() {
		return "", false, false
	}
	root, path, ok := derefRoot(c)
	if !ok {
		return "", false, false
	}
	obj, e, ok := ev.structPlace(root)
	if !ok || !obj.elems {
		return "", false, false
	}
	k, ok := e.Single()
	if !ok {
		return "", true, false
	}
	n, ok := k.Int64()
	if !ok {
		return "", true, false
	}
	return obj.key + "[" + strconv.FormatInt(n, 10) + "]%" + path, true, true
}
