package symeval

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Addresses of C pointers. In the C frontend's APT a pointer to numbers is
// an array name, and what the program computes with the pointer itself is
// its address: a container's size is the difference of two pointers
// (std::vector's size() is (finish - start) / sizeof(T)), an iterator loop
// runs until one pointer reaches another (for (p = first; p != last; ++p)).
// The evaluation gives each array storage an address, an integer far from
// any count (addrBase, addrStride apart, so no two storages' elements
// meet), and follows the addresses pointers receive: an array's own
// storage, an allocation (a new storage each time it is made), another
// pointer, an element (&a[k] is a's address plus k elements' bytes), a
// function's result. A pointer's address is kept beside its elements,
// under its key with addrSuffix (its slot), and changes wherever the
// pointer is assigned or allocated (pointerSlot), or the structure whose
// component it is is changed by a routine (assignedSlots): a loop that
// moves it leaves it unknown after the loop like any variable it
// assigns, or is run (computesControl). The difference of two addresses of one
// storage is then the exact element distance in bytes, and a comparison
// of two such addresses is decided; addresses of different storages
// compare as different, as they are. A pointer dummy is the C value it
// is: bound to its actual's address on entry, local to the call.

const (
	addrBase   int64 = 1 << 58
	addrStride int64 = 1 << 40
	addrSuffix       = "\x00@"
)

// cPointers reports whether the program's arrays are C pointers.
func (ev *evaluator) cPointers() bool {
	return ev.prog.Notation() != apt.Fortran
}

// isPointerRef reports whether e names a whole array (a C pointer): a
// variable, or a component the type declares of assumed size.
func (ev *evaluator) isPointerRef(e apt.Expr) bool {
	switch x := e.(type) {
	case *apt.Name:
		if !numeric(x.Type) {
			return false
		}
		if x.Array {
			return true
		}
		d := ev.prog.Resolve(ev.frame().routine, x.Name)
		return d != nil && d.IsArray() && d.Param == nil
	case *apt.Component:
		if !numeric(x.Type) {
			return false
		}
		if x.Array {
			return true
		}
		t := apt.TypeOf(x.Base)
		if t.Base != apt.TypeDerived {
			return false
		}
		dt := ev.prog.LookupType(ev.frame().routine, t.Derived)
		if dt == nil {
			return false
		}
		f := dt.Field(x.Field)
		return f != nil && f.IsArray() && unsized(f.Dims)
	}
	return false
}

// numeric reports whether t is a number type: a pointer to text or to
// structs is not one whose address the evaluation computes with (text
// and heap objects are followed otherwise: cstring.go, heap.go).
func numeric(t apt.Type) bool {
	switch t.Base {
	case apt.TypeInteger, apt.TypeReal, apt.TypeLogical, apt.TypeComplex:
		return true
	}
	return false
}

// isPointerVar reports whether an assignment to e sets a pointer: a
// variable declared of assumed size (a C pointer, not an array of its
// own, whose whole-array assignment fills it), or a pointer component.
func (ev *evaluator) isPointerVar(e apt.Expr) bool {
	if !ev.isPointerRef(e) {
		return false
	}
	if nm, ok := e.(*apt.Name); ok {
		d := ev.prog.Resolve(ev.frame().routine, nm.Name)
		return d != nil && unsized(d.Dims)
	}
	return true
}

// unsized reports whether an array is declared without its own extent
// (a C pointer's (0:*), a deferred or assumed shape).
func unsized(dims []apt.Dim) bool {
	if len(dims) == 0 {
		return false
	}
	if needsShape(dims) {
		return true
	}
	_, star := dims[len(dims)-1].Hi.(*apt.Star)
	return star
}

// otherStorages reports whether a and b are addresses (constants the
// evaluation gave storages or heap objects) in two different storages.
func otherStorages(a, b symbolic.Expr) bool {
	x, ok1 := a.Int64()
	y, ok2 := b.Int64()
	if !ok1 || !ok2 || x < heapBase || y < heapBase {
		return false
	}
	return storageOf(x) != storageOf(y)
}

// storageOf numbers the storage or heap object an address is in.
func storageOf(a int64) int64 {
	if a >= addrBase {
		return (a-addrBase)/addrStride + 1
	}
	return -((a-heapBase)/heapStride + 1)
}

// newAddress is the address of a storage made now.
func (ev *evaluator) newAddress() Value {
	ev.naddr++
	return Known(symbolic.Int(addrBase + ev.naddr*addrStride))
}

// addrSlot is where the address of the pointer a whole-array reference
// names is kept: a dummy's in the call's frame (C passes the pointer by
// value), any other's beside the variable's or component's elements.
func (ev *evaluator) addrSlot(e apt.Expr) (string, bool) {
	switch x := e.(type) {
	case *apt.Name:
		fr := ev.frame()
		if slices.Contains(fr.routine.Formals, x.Name) && ev.isPointerRef(x) {
			return fr.id + "." + x.Name + addrSuffix, true
		}
		if ev.paramName(x.Name) != "" {
			return "", false
		}
		return ev.key(x.Name) + addrSuffix, true
	case *apt.Component:
		if k, isElem, ok := ev.elementSlot(x); isElem {
			return k + addrSuffix, ok
		}
		if k, ok := ev.refKey(x); ok {
			return k + addrSuffix, true
		}
	}
	return "", false
}

// addrOf is the address pointer expression e holds: a whole array's, an
// element's (&a[k]), or the value of any other expression (a function
// returning a pointer, a heap object's address).
func (ev *evaluator) addrOf(e apt.Expr) Value {
	switch x := e.(type) {
	case *apt.Name, *apt.Component:
		if !ev.isPointerRef(e) {
			if v, ok := ev.referencedAddr(e); ok {
				return v
			}
			v := ev.value(e)
			if c, ok := e.(*apt.Component); ok && !v.IsKnown() && c.Array && numeric(c.Type) && ev.cPointers() {
				// A structure's array field (int d[3] in p->d): it
				// holds no address, its storage has one.
				return ev.fieldArrayAddr(c)
			}
			return v
		}
		if v, ok := ev.storedAddr(e); ok {
			return v
		}
		return unknownValue(keyName(refName(e)), "the address "+ev.src(e)+" holds", false)
	case *apt.Index:
		if len(x.Subs) != 1 {
			break
		}
		if _, isSec := x.Subs[0].(*apt.Section); isSec {
			break
		}
		var arr apt.Expr = &apt.Name{Pos: x.Pos, Name: x.Name, Type: x.Type, Array: true}
		if x.Base != nil {
			arr = &apt.Component{Pos: x.Pos, Base: x.Base, Field: x.Name, Type: x.Type, Array: true}
		}
		base := ev.addrOf(arr)
		if x.Base == nil && x.Type.Base == apt.TypeDerived && ev.cPointers() {
			// A pointer to structures holds its address as its value
			// (structarr.go).
			base = ev.structPointer(&apt.Name{Pos: x.Pos, Name: x.Name, Type: x.Type})
		}
		size, ok := ev.strideOf(x.Type)
		off := ev.closedInt(ev.value(x.Subs[0]), x.Pos)
		if !ok || !base.IsKnown() || !off.IsKnown() {
			break
		}
		if v, ok := lift2(base, off, func(b, k symbolic.Expr) (symbolic.Expr, bool) {
			return b.Add(k.Mul(symbolic.Int(size))), true
		}); ok {
			return v
		}
	default:
		return ev.value(e)
	}
	return unknownValue(refName(e), "the address "+ev.src(e)+" holds", false)
}

// refName is the variable or component an expression names.
func refName(e apt.Expr) string {
	switch x := e.(type) {
	case *apt.Name:
		return x.Name
	case *apt.Component:
		return x.Field
	case *apt.Index:
		return x.Name
	}
	return ""
}

// storedAddr is the address a whole-array reference holds, where known:
// the one its pointer received, a heap object's address it holds as its
// value, or the address of the array's own storage (a declared array that
// no pointer assignment redirects).
func (ev *evaluator) storedAddr(e apt.Expr) (Value, bool) {
	slot, ok := ev.addrSlot(e)
	if !ok {
		return Value{}, false
	}
	if v, ok := ev.env.lookup(slot); ok {
		return v, v.IsKnown()
	}
	if c, isComp := e.(*apt.Component); isComp {
		if _, isElem, _ := ev.elementSlot(c); isElem {
			// A pointer field of an element no assignment the
			// evaluation followed set: not known, and no storage of
			// its own (that is an array field's).
			return Value{}, false
		}
		if k, ok := ev.objectKey(c.Base); ok {
			if v, ok := ev.env.lookup(k + "%" + c.Field); ok && v.IsKnown() {
				return v, true
			}
			return Value{}, false
		}
		if c.Array && ev.cPointers() && numeric(c.Type) {
			// A field no pointer assignment set: a structure's array
			// field (int d[3]), whose storage has the address.
			v := ev.fieldArrayAddr(c)
			return v, v.IsKnown()
		}
		return Value{}, false
	}
	nm := e.(*apt.Name)
	d := ev.prog.Resolve(ev.frame().routine, nm.Name)
	if d == nil || !d.IsArray() || d.Allocatable || d.Pointer || unsized(d.Dims) ||
		slices.Contains(ev.frame().routine.Formals, nm.Name) || ev.repointed()[d] {
		return Value{}, false
	}
	// The array's own storage: its address is fixed for the storage's
	// life.
	v := ev.newAddress()
	ev.setAddr(slot, v)
	ev.noteStorage(v, ev.key(nm.Name), d.Type)
	return v, true
}

// assignAddr records that the pointer target now holds address v.
func (ev *evaluator) assignAddr(target apt.Expr, v Value) {
	if slot, ok := ev.addrSlot(target); ok {
		ev.setAddr(slot, v)
		return
	}
	ev.forgetElementsField(target)
}

// setAddr stores an address in its slot, which the set of slots records
// (assignedSlots).
func (ev *evaluator) setAddr(slot string, v Value) {
	if !ev.slots[slot] {
		if ev.slots == nil {
			ev.slots = map[string]bool{}
			ev.slotsAt = map[string][]string{}
		}
		ev.slots[slot] = true
		// Indexed under every component prefix (a%b%p: a and a%b), so
		// slotsUnder reads its answer instead of scanning every slot.
		for i := range len(slot) {
			if slot[i] == '%' {
				ev.slotsAt[slot[:i]] = append(ev.slotsAt[slot[:i]], slot)
			}
		}
	}
	ev.env.set(slot, v)
}

// pointerSlot adds to set the address slot of a pointer an assignment
// (or allocation) sets (collectAssigned): the pointer's, not its elements'.
func (ev *evaluator) pointerSlot(target apt.Expr, set map[string]bool) {
	if !ev.cPointers() {
		return
	}
	if slot, ok := ev.addrSlot(target); ok {
		set[slot] = true
	}
}

// assignedSlots adds to set the address slots of the pointer components
// of the structures set holds (a routine that changes a structure, a
// std::vector's push_back, moves its pointers). A pointer's own slot is
// its assignments' (pointerSlot): storing its elements, or passing it to
// a routine (a C pointer is passed by value), does not move it.
func (ev *evaluator) assignedSlots(set map[string]bool) {
	var add []string
	for k := range set {
		if !strings.HasSuffix(k, addrSuffix) {
			add = append(add, ev.slotsUnder(k, false)...)
		}
	}
	for _, k := range add {
		set[k] = true
	}
}

// slotsUnder lists the address slots set so far of the pointer
// components of the variable or component at key k, and with own k's
// own slot.
func (ev *evaluator) slotsUnder(k string, own bool) []string {
	out := ev.slotsAt[k]
	if own && ev.slots[k+addrSuffix] {
		out = append(out[:len(out):len(out)], k+addrSuffix)
	}
	return out
}

// assignPointer evaluates an assignment to a C pointer (or to the pointer
// a scalar dummy refers to): the target holds the address of what the
// value names (&a[k] an element's), not an element. done reports the
// statement evaluated; where the address is not one the evaluation
// follows (unknown, or a heap object's, which heap.go follows as the
// pointer's value) the assignment is left to the usual evaluation, with
// pre the value already computed where the expression is a call (it runs
// once).
func (ev *evaluator) assignPointer(s *apt.Stmt) (done bool, pre *Value) {
	if !ev.cPointers() || !ev.isPointerVar(s.Target) && !ev.refersToPointer(s.Target) {
		return false, nil
	}
	v := Value{}
	if s.Load {
		// The pointer the element holds (row = owner[i]), not the
		// element's own address.
		v = ev.value(s.Value)
	} else if c, ok := s.Value.(*apt.Component); ok && isComponent(s.Target) && !c.Array && numeric(c.Type) && !ev.isPointerRef(c) {
		// The address of a structure's scalar field kept in another
		// structure's pointer field (o.dst = &cmd.n): a pointer holding
		// it reaches the field (derefScalar).
		if k, ok := ev.refKey(c); ok {
			v = ev.keyAddr(k)
		}
	} else {
		v = ev.addrOf(s.Value)
	}
	if _, heap := ev.objectOf(v); v.IsKnown() && !heap {
		ev.assignAddr(s.Target, v)
		if nm, isName := s.Target.(*apt.Name); isName {
			if tracked(nm.Type) && ev.paramName(nm.Name) == "" && ev.isPointerVar(nm) {
				ev.clobber(ev.key(nm.Name)) // its elements are another storage's now
			}
			return true, nil
		}
		ev.assign(s.Target, v)
		return true, nil
	}
	ev.dropAddr(s.Target)
	if _, isCall := s.Value.(*apt.FuncCall); isCall {
		return false, &v
	}
	return false, nil
}

// pointerValue is the address a C pointer holds where an assignment
// stores the pointer itself into something that is not a pointer (a
// function's result, ptr = t_ret; an element of a table of addresses):
// the value of a pointer is its address, not its elements.
func (ev *evaluator) pointerValue(s *apt.Stmt) (Value, bool) {
	nm, ok := s.Value.(*apt.Name)
	if !ok || !ev.cPointers() || !ev.isPointerVar(nm) || ev.isPointerVar(s.Target) {
		return Value{}, false
	}
	if tn, ok := s.Target.(*apt.Name); ok {
		if d := ev.prog.Resolve(ev.frame().routine, tn.Name); d == nil || d.IsArray() {
			return Value{}, false
		}
	}
	v, ok := ev.storedAddr(nm)
	if !ok {
		return Value{}, false
	}
	if _, heap := ev.objectOf(v); heap {
		return Value{}, false
	}
	return v, true
}

// addressOnly reports whether the pointer nm reaches its elements only
// through the address it holds: a dummy bound to no storage of its
// caller's, only given an address (&a[k], p + 1), or a local holding an
// address inside another storage.
func (ev *evaluator) addressOnly(nm *apt.Name) bool {
	fr := ev.frame()
	if !ev.isPointerVar(nm) || fr.alias[nm.Name] != "" {
		return false
	}
	slot, ok := ev.addrSlot(nm)
	if !ok {
		return false
	}
	v, has := ev.env.lookup(slot)
	if !has {
		return false
	}
	if slices.Contains(fr.routine.Formals, nm.Name) {
		return true
	}
	// A local pointer holding an address inside another storage (q = p
	// + k, a row a wrapper allocated).
	c, ok := v.Single()
	if !ok {
		return false
	}
	a, isc := c.Int64()
	if !isc || a < addrBase {
		return false
	}
	st, ok := ev.storages[addrBase+(a-addrBase)/addrStride*addrStride]
	return ok && st.key != ev.key(nm.Name)
}

// pointedElement is *p for a C pointer p: the element p[0] it points to.
func pointedElement(p *apt.Name) *apt.Index {
	zero := &apt.Const{Pos: p.Pos, Kind: apt.ConstInt, Text: "0", Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
	return &apt.Index{Pos: p.Pos, Name: p.Name, Type: p.Type, Subs: []apt.Expr{zero}}
}

// dropAddr forgets the address the pointer target held: it is assigned
// one the evaluation does not know.
func (ev *evaluator) dropAddr(target apt.Expr) {
	if slot, ok := ev.addrSlot(target); ok {
		if _, had := ev.env.lookup(slot); had {
			ev.env.del(slot)
		}
		return
	}
	ev.forgetElementsField(target)
}

// pointerOperands evaluates the operands of a comparison or difference
// of two pointers as addresses; false where neither is a whole array or an
// address is not known.
func (ev *evaluator) pointerOperands(b *apt.Binary) (x, y Value, ok bool) {
	x, y, ok, _ = ev.pointerAddrs(b)
	return x, y, ok
}

// pointerAddrs is pointerOperands that also reports, where it fails,
// whether b is a difference of two C pointers of which one holds an
// address the evaluation follows and the other is an element's address
// (&a[k]) it does not know: that operand's value is the element, no
// address, and the distance is not known. (A pointer variable's value may
// be the address a heap object or a call gave it.)
func (ev *evaluator) pointerAddrs(b *apt.Binary) (x, y Value, ok, oneKnown bool) {
	if !ev.cPointers() || !ev.isPointerRef(b.X) && !ev.isPointerRef(b.Y) {
		return Value{}, Value{}, false, false
	}
	switch b.Op {
	case apt.OpSub, apt.OpEq, apt.OpNe, apt.OpLt, apt.OpLe, apt.OpGt, apt.OpGe:
	default:
		return Value{}, Value{}, false, false
	}
	x, y = ev.addrOf(b.X), ev.addrOf(b.Y)
	if kx, ky := x.IsKnown(), y.IsKnown(); !kx || !ky {
		// (Unknown addresses: the comparison is left as it was, a test
		// on data.)
		_, ix := b.X.(*apt.Index)
		_, iy := b.Y.(*apt.Index)
		return Value{}, Value{}, false, b.Op == apt.OpSub && (kx && iy || ky && ix)
	}
	return x, y, true, false
}

// pointerStep finds the one step p = &p[c] of pointer counter at the top
// level of l's body (directly, or through a temporary assigned &p[c] there
// once), which changes the pointer nowhere else: c in bytes.
func (ev *evaluator) pointerStep(l *apt.Loop, counter *apt.Name) (int64, bool) {
	size, ok := ev.strideOf(counter.Type)
	if !ok || size <= 0 {
		return 0, false
	}
	elemStep := func(e apt.Expr) (int64, bool) {
		ix, ok := e.(*apt.Index)
		if !ok || ix.Name != counter.Name || ix.Base != nil || len(ix.Subs) != 1 {
			return 0, false
		}
		v, ok := ev.value(ix.Subs[0]).Single()
		if !ok {
			return 0, false
		}
		return v.Int64()
	}
	temps := map[string]int64{} // temporaries assigned &counter[c]
	assigns := map[string]int{}
	var step int64
	found := 0
	for _, n := range l.Body {
		blk, ok := n.(*apt.Block)
		if !ok {
			continue
		}
		for _, st := range blk.Stmts {
			nm, ok := st.Target.(*apt.Name)
			if !ok || st.Kind != apt.StmtAssign {
				continue
			}
			assigns[nm.Name]++
			if c, ok := elemStep(st.Value); ok && nm.Name != counter.Name {
				temps[nm.Name] = c
				continue
			}
			if nm.Name != counter.Name {
				continue
			}
			c, ok := elemStep(st.Value)
			if src, isName := st.Value.(*apt.Name); isName {
				c, ok = temps[src.Name]
			}
			if !ok {
				return 0, false
			}
			step, found = c*size, found+1
		}
	}
	if found != 1 || step == 0 {
		return 0, false
	}
	// The pointer and its temporaries are assigned once, and nowhere
	// else: not in a branch, an inner loop or a routine the body calls.
	other := map[string]bool{}
	for _, n := range l.Body {
		if _, isBlock := n.(*apt.Block); !isBlock {
			ev.collectAssigned([]apt.Node{n}, other)
		}
	}
	for name, k := range assigns {
		if _, temp := temps[name]; name != counter.Name && !temp {
			continue
		}
		if k != 1 || other[ev.key(name)] {
			return 0, false
		}
	}
	return step, true
}

// pointerWhileCounter is the trip count of DO WHILE (p != e) (or p < e)
// whose body moves the pointer p by a constant number of elements once per
// trip (an iterator loop): the byte distance from p's address before the
// loop to e's, over the step.
func (ev *evaluator) pointerWhileCounter(l *apt.Loop, b *apt.Binary) (Value, bool) {
	if !ev.cPointers() || exitsLoop(l.Body) || hasJumps(l.Body) {
		return Value{}, false
	}
	x, y, op := b.X, b.Y, b.Op
	var counter *apt.Name
	var step int64
	for _, try := range [2]bool{false, true} {
		if try {
			x, y = y, x
			op = map[apt.Op]apt.Op{apt.OpLt: apt.OpGt, apt.OpLe: apt.OpGe, apt.OpGt: apt.OpLt, apt.OpGe: apt.OpLe, apt.OpNe: apt.OpNe}[op]
		}
		nm, ok := x.(*apt.Name)
		if !ok || !ev.isPointerRef(nm) && !ev.isStructPointer(nm) {
			continue
		}
		if s, ok := ev.pointerStep(l, nm); ok {
			counter, step = nm, s
			break
		}
	}
	if counter == nil {
		return Value{}, false
	}
	mod := map[string]bool{}
	ev.collectAssigned(l.Body, mod)
	// The bound is an address: &a[k] reads the pointer a and k, not the
	// element (a loop that stores through the pointer it walks to its
	// end stores into the elements).
	reads := []apt.Expr{y}
	if ix, ok := y.(*apt.Index); ok && ix.Base == nil && len(ix.Subs) == 1 {
		reads = []apt.Expr{&apt.Name{Pos: ix.Pos, Name: ix.Name, Type: ix.Type, Array: true}, ix.Subs[0]}
	}
	for _, r := range reads {
		if ev.exprMentions(r, mod) {
			return Value{}, false
		}
	}
	fromV, to := ev.addrOf(counter), ev.addrOf(y)
	if !fromV.IsKnown() || !to.IsKnown() {
		return Value{}, false
	}
	c := symbolic.Int(max(step, -step))
	// Either address may differ by a condition (a container's storage,
	// NULL where its size is 0): the count is the difference's under
	// each pair of conditions.
	return ev.lift2(fromV, to, func(from, e symbolic.Expr) (symbolic.Expr, bool) {
		var need symbolic.Expr
		switch {
		case (op == apt.OpNe || op == apt.OpLt) && step > 0:
			need = e.Sub(from)
		case (op == apt.OpNe || op == apt.OpGt) && step < 0:
			need = from.Sub(e)
		case op == apt.OpLe && step > 0:
			need = e.Sub(from).Add(c)
		case op == apt.OpGe && step < 0:
			need = from.Sub(e).Add(c)
		default:
			return symbolic.Expr{}, false
		}
		return symbolic.Max(ceilSteps(need, c), symbolic.Int(0)), true
	})
}

// strideOf is the bytes a C pointer to t steps by: a number's size, a
// structure's (the frontend keeps it in the type's Kind).
func (ev *evaluator) strideOf(t apt.Type) (int64, bool) {
	if t.Base == apt.TypeDerived && ev.cPointers() {
		return int64(t.Kind), t.Kind > 0
	}
	return ev.elemBytes(t)
}

// isStructPointer reports whether nm is a C pointer to structures (a
// declared pointer of a structure type, which the frontend sizes in the
// type's Kind): its value is the address it holds (heap.go, structarr.go),
// which steps by the structure's size.
func (ev *evaluator) isStructPointer(nm *apt.Name) bool {
	if nm.Type.Base != apt.TypeDerived || nm.Type.Kind <= 0 {
		return false
	}
	d := ev.prog.Resolve(ev.frame().routine, nm.Name)
	return d != nil && d.Param == nil && unsized(d.Dims)
}

// formalAddrs are the addresses r's pointer dummies receive from a call's
// actuals, where known: a C pointer is passed by value.
func (ev *evaluator) formalAddrs(r *apt.Routine, args []apt.Expr) map[string]Value {
	if !ev.cPointers() {
		return nil
	}
	var out map[string]Value
	for i, formal := range r.Formals {
		if i >= len(args) || args[i] == nil {
			continue
		}
		d := r.Scope.Lookup(formal)
		if d == nil || !d.IsArray() || !numeric(d.Type) {
			continue
		}
		a := args[i]
		switch a.(type) {
		case *apt.Name, *apt.Component, *apt.Index:
		default:
			continue
		}
		v := Value{}
		if nm, isName := a.(*apt.Name); isName && !ev.isPointerRef(a) {
			v = ev.scalarAddr(nm.Name) // a scalar passed by reference
		} else if c, isComp := a.(*apt.Component); !isComp || ev.isPointerRef(a) {
			v = ev.addrOf(a)
		} else if c.Array && numeric(c.Type) {
			// A structure's array field passed whole (p->dims, the
			// _M_elems of std::array): its storage's address.
			v = ev.fieldArrayAddr(c)
		}
		if v.IsKnown() {
			if out == nil {
				out = map[string]Value{}
			}
			out[formal] = v
		}
	}
	return out
}

// fieldArrayAddr is the address of the storage of a structure's array
// field, one per storage key for the evaluation's life, registered so that
// a pointer holding it reaches the field's elements (derefArray).
func (ev *evaluator) fieldArrayAddr(c *apt.Component) Value {
	k, ok := ev.refKey(c)
	if !ok {
		return Value{}
	}
	if a, ok := ev.fieldAddrs[k]; ok {
		return Known(symbolic.Int(a))
	}
	v := ev.newAddress()
	a, _ := v.Alts[0].E.Int64()
	if ev.fieldAddrs == nil {
		ev.fieldAddrs = map[string]int64{}
	}
	ev.fieldAddrs[k] = a
	ev.noteStorage(v, k, c.Type)
	return v
}

// scalarAddr is the address of a scalar variable's storage, passed by
// reference (std::min(a, b) takes and returns references): registered, so
// that an element 0 reached through a pointer holding it is the variable.
func (ev *evaluator) scalarAddr(name string) Value {
	if ev.paramName(name) != "" {
		return Value{}
	}
	return ev.keyAddr(ev.key(name))
}

// keyAddr is scalarAddr for the scalar stored at key (a structure's
// field, &cmd.n kept in an option table's pointer).
func (ev *evaluator) keyAddr(k string) Value {
	if a, ok := ev.scalarAddrs[k]; ok {
		return Known(symbolic.Int(a))
	}
	v := ev.newAddress()
	a, _ := v.Alts[0].E.Int64()
	if ev.scalarAddrs == nil {
		ev.scalarAddrs, ev.scalarAt = map[string]int64{}, map[int64]string{}
	}
	ev.scalarAddrs[k], ev.scalarAt[a] = a, k
	return v
}

// isComponent reports whether e is a structure's field.
func isComponent(e apt.Expr) bool {
	_, ok := e.(*apt.Component)
	return ok
}

// pointerOf is the pointer an element reference p[k] (or s.p[k], through
// a pointer kept in a field) goes through.
func pointerOf(ix *apt.Index) apt.Expr {
	if ix.Base != nil {
		return &apt.Component{Pos: ix.Pos, Base: ix.Base, Field: ix.Name, Type: ix.Type, Array: true}
	}
	return &apt.Name{Pos: ix.Pos, Name: ix.Name, Type: ix.Type, Array: true}
}

// derefScalar returns the storage of the scalar variable an element
// reference p[k] reaches through the address p holds.
func (ev *evaluator) derefScalar(ix *apt.Index) (string, bool) {
	if len(ev.scalarAt) == 0 || len(ix.Subs) != 1 || !ev.isPointerRef(pointerOf(ix)) {
		return "", false
	}
	a, ok := ev.addrOf(ix).Single()
	if !ok {
		return "", false
	}
	c, ok := a.Int64()
	if !ok {
		return "", false
	}
	k, ok := ev.scalarAt[c]
	return k, ok
}

// derefScalars reads p[0] where p holds the address of one of several
// scalars, by a condition (std::max(size(), n) returns a reference to the
// greater, which differs by rank): each scalar's value where its
// address's guard holds.
func (ev *evaluator) derefScalars(ix *apt.Index) (Value, bool) {
	if len(ev.scalarAt) == 0 || len(ix.Subs) != 1 {
		return Value{}, false
	}
	if c, ok := constInt(ix.Subs[0]); !ok || c != 0 {
		return Value{}, false
	}
	if !ev.isPointerRef(pointerOf(ix)) {
		return Value{}, false
	}
	a := ev.addrOf(ix)
	if !a.IsKnown() || len(a.Alts) < 2 {
		return Value{}, false
	}
	var out []Alt
	for _, alt := range a.Alts {
		c, ok := alt.E.Int64()
		if !ok {
			return Value{}, false
		}
		k, ok := ev.scalarAt[c]
		if !ok {
			return Value{}, false
		}
		v := ev.env.get(k)
		if !v.IsKnown() {
			return Value{}, false
		}
		for _, b := range v.Alts {
			out = append(out, Alt{Guard: and(alt.Guard, b.Guard), E: b.E})
		}
	}
	if len(out) > maxAlts {
		return Value{}, false
	}
	return ev.pruneRanks(Value{Alts: mergeAlts(out)}), true
}

// referencedAddr is the address held by the pointer a scalar dummy refers
// to (a reference to a pointer, const T*& in C++): the dummy's storage is
// the pointer's.
func (ev *evaluator) referencedAddr(e apt.Expr) (Value, bool) {
	nm, ok := e.(*apt.Name)
	if !ok || !ev.cPointers() {
		return Value{}, false
	}
	slot, ok := ev.addrSlot(nm)
	if !ok {
		return Value{}, false
	}
	v, ok := ev.env.lookup(slot)
	return v, ok && v.IsKnown()
}

// refersToPointer reports whether a scalar name's storage is a pointer's
// (a dummy bound by reference to a pointer whose address is known).
func (ev *evaluator) refersToPointer(e apt.Expr) bool {
	_, ok := ev.referencedAddr(e)
	return ok
}

// storageAt is an array storage given an address: its key and the bytes
// of its elements.
type storageAt struct {
	key  string
	size int64
}

// noteStorage records the storage at key, of elements of type t, as the
// one at address a (an array's own, an allocation's), so that a pointer
// holding an address inside it reaches its elements (derefArray).
func (ev *evaluator) noteStorage(a Value, key string, t apt.Type) {
	c, ok := a.Single()
	if !ok {
		return
	}
	base, isc := c.Int64()
	size, ok := ev.elemBytes(t)
	if !isc || !ok || size <= 0 {
		return
	}
	if ev.storages == nil {
		ev.storages = map[int64]storageAt{}
	}
	ev.storages[base] = storageAt{key: key, size: size}
}

// noteAlloc records that the storage at address a, kept under key, is
// one malloc made: when the frame whose local key names it returns, the
// storage stays where the pointers holding its address reach it.
func (ev *evaluator) noteAlloc(a Value, key string) {
	c, ok := a.Single()
	if !ok {
		return
	}
	base, ok := c.Int64()
	if !ok {
		return
	}
	for i := len(ev.frames) - 1; i >= 0; i-- {
		if fr := ev.frames[i]; strings.HasPrefix(key, fr.id+".") {
			fr.allocs = append(fr.allocs, base)
			return
		}
	}
}

// keepAllocs moves the storages malloc made under the returning frame's
// keys (the local pointer an allocation was first given) to keys of their
// own, as the heap outlives the call: a global pointer, a structure or a
// result the address was stored in reaches the elements after the return.
func (ev *evaluator) keepAllocs(fr *frame) {
	for _, base := range fr.allocs {
		st, ok := ev.storages[base]
		if !ok || !strings.HasPrefix(st.key, fr.id+".") {
			continue
		}
		to := "&m" + strconv.FormatInt((base-addrBase)/addrStride, 10)
		moves := [][2]string{{st.key, to}, {shapeKey(st.key), shapeKey(to)}, {allocStatusKey(st.key), allocStatusKey(to)}}
		for _, n := range []int64{1, 2, 4, 8, 16} {
			moves = append(moves, [2]string{st.key + "@" + strconv.FormatInt(n, 10), to + "@" + strconv.FormatInt(n, 10)})
		}
		for _, m := range moves {
			if v, ok := ev.env.lookup(m[0]); ok {
				ev.env.set(m[1], v)
			}
		}
		st.key = to
		ev.storages[base] = st
	}
}

// clobberPointees makes unknown what the C pointer p may point to, where
// the evaluation cannot name the element: the storage its address falls
// in, where the address's constant part says which (&v[p], p walked
// symbolically), else the pointer's own storage, as before. (Every
// storage would be sound there, and costs miniAMR its evaluation.)
func (ev *evaluator) clobberPointees(p *apt.Name) {
	var keys []string
	if v, ok := ev.storedAddr(p); ok {
		for _, a := range v.Alts {
			_, c := a.E.SplitConst()
			n, isInt := c.Int64()
			if !isInt || n < addrBase {
				keys = nil
				break
			}
			st, ok := ev.storages[addrBase+(n-addrBase)/addrStride*addrStride]
			if !ok {
				keys = nil
				break
			}
			keys = append(keys, st.key)
		}
	}
	if keys == nil {
		if k, ok := ev.refKey(p); ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		ev.clobber(k)
	}
}

// fieldPointee is derefArray for p->f[k], a structure's pointer field:
// the elements are those of the storage the field's address is in (an
// allocation another routine made and stored there: A->nnz_in_row =
// new int[n]), so that every routine reaching the structure reaches the
// same elements, whatever pointer it reaches the structure through.
func (ev *evaluator) fieldPointee(ix *apt.Index) (string, Value, bool) {
	p, ok := ev.fieldPointed(ix)
	if !ok {
		return "", Value{}, false
	}
	sub := ev.closedInt(ev.value(ix.Subs[0]), ix.Pos)
	off, ok := lift1(sub, func(k symbolic.Expr) (symbolic.Expr, bool) {
		return k.Add(symbolic.Int(p.off)), true
	})
	return p.key(), off, ok
}

// fieldPointed is where the elements of p->f[k] are: the storage the
// field's known address is in, other than the field's own.
func (ev *evaluator) fieldPointed(ix *apt.Index) (pointed, bool) {
	if ix.Base == nil || len(ev.storages) == 0 || !ev.cPointers() {
		return pointed{}, false
	}
	ptr := &apt.Component{Pos: ix.Pos, Base: ix.Base, Field: ix.Name, Type: ix.Type, Deref: ix.Deref, Array: true}
	slot, ok := ev.addrSlot(ptr)
	if !ok {
		return pointed{}, false
	}
	a, ok := ev.env.lookup(slot)
	if !ok || !a.IsKnown() {
		return pointed{}, false
	}
	p, ok := ev.pointedAt(a, ix.Type)
	if !ok {
		return pointed{}, false
	}
	if own, ok := ev.refKey(ptr); ok && p.storage == own {
		return pointed{}, false
	}
	return p, true
}

// derefArray returns the storage and offset an element reference p[k]
// reaches through the address the pointer p holds, where that address is
// inside another array's storage (q = p; row = owner[i] of a row another
// routine allocated; &a[j]): its elements are that storage's, not p's.
func (ev *evaluator) derefArray(ix *apt.Index) (string, Value, bool) {
	if len(ev.storages) == 0 || len(ix.Subs) != 1 || !ev.cPointers() {
		return "", Value{}, false
	}
	if _, isSec := ix.Subs[0].(*apt.Section); isSec {
		return "", Value{}, false
	}
	if ix.Base != nil {
		return ev.fieldPointee(ix)
	}
	d := ev.prog.Resolve(ev.frame().routine, ix.Name)
	if d == nil || !unsized(d.Dims) {
		return "", Value{}, false
	}
	if fr := ev.frame(); slices.Contains(fr.routine.Formals, ix.Name) && fr.alias[ix.Name] != "" {
		// A dummy bound to its actual's storage by reference: that
		// binding says where its elements are. (One given an address
		// alone, &a[k] or p + 1, has only the address.)
		return "", Value{}, false
	}
	p, ok := ev.pointee(ix.Name, ix.Type)
	if !ok {
		return ev.derefAlts(ix)
	}
	if p.storage == ev.key(ix.Name) {
		return "", Value{}, false
	}
	key := p.key()
	sub := ev.closedInt(ev.value(ix.Subs[0]), ix.Pos)
	off, ok := lift1(sub, func(k symbolic.Expr) (symbolic.Expr, bool) {
		return k.Add(symbolic.Int(p.off)), true
	})
	return key, off, ok
}

// derefAlts is derefArray for a pointer whose address differs by a
// condition (a cursor a rank-dependent number of elements along: *next++
// = c after a first row one entry shorter on rank 0), every alternative
// inside one storage of elements of ix's type: the element's offset
// differs by the same conditions. False where the alternatives reach
// different storages.
func (ev *evaluator) derefAlts(ix *apt.Index) (string, Value, bool) {
	slot, ok := ev.addrSlot(&apt.Name{Name: ix.Name})
	if !ok {
		return "", Value{}, false
	}
	v, ok := ev.env.lookup(slot)
	if !ok || !v.IsKnown() || len(v.Alts) < 2 {
		return "", Value{}, false
	}
	size, ok := ev.elemBytes(ix.Type)
	if !ok || size <= 0 {
		return "", Value{}, false
	}
	var st storageAt
	base := int64(-1)
	offs, ok := lift1(v, func(e symbolic.Expr) (symbolic.Expr, bool) {
		a, isc := e.Int64()
		if !isc || a < addrBase {
			return symbolic.Expr{}, false
		}
		b := addrBase + (a-addrBase)/addrStride*addrStride
		s, ok := ev.storages[b]
		if !ok || s.size != size || (a-b)%size != 0 || base >= 0 && b != base {
			return symbolic.Expr{}, false
		}
		st, base = s, b
		return symbolic.Int((a - b) / size), true
	})
	if !ok || st.key == ev.key(ix.Name) {
		return "", Value{}, false
	}
	sub := ev.closedInt(ev.value(ix.Subs[0]), ix.Pos)
	off, ok := lift2(offs, sub, func(x, y symbolic.Expr) (symbolic.Expr, bool) { return x.Add(y), true })
	return st.key, off, ok
}
