package symeval

import (
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Deferred-shape arrays. An ALLOCATABLE or POINTER array declared a(:, :)
// has the bounds its ALLOCATE gives it, and Fortran 90 programs size their
// arrays that way (the cells of a multi-partition, allocated for as many
// cells as the process count gives). The evaluation keeps those bounds in
// the state, as a value of the array's storage (shapeKey), so that they
// follow the paths as values do: an ALLOCATE in one arm of an IF holds in
// that arm, a DEALLOCATE drops them, a loop that allocates anew makes them
// another on each trip. An assumed-shape dummy (a(:) neither ALLOCATABLE
// nor POINTER) has its actual's extents and its own lower bounds, 1 unless
// it declares others.
//
// An array whose bounds the state does not hold (a pointer associated by
// =>, a dummy bound to a section) keeps its declared lower bounds, or 1:
// its elements are still placed consistently, and a dimension whose extent
// a reference needs makes the reference one the evaluation cannot follow.

// bound is one dimension of an array: its lower bound and extent.
type bound struct {
	lo, ext Value
}

// shapeKey is where the state keeps the bounds of the array stored at key.
func shapeKey(key string) string { return key + "#(shape)" }

// allocStatusKey is where the state keeps whether the allocatable stored
// at key is allocated (1) or not (0): set by ALLOCATE and DEALLOCATE, read
// by ALLOCATED.
func allocStatusKey(key string) string { return key + "#(allocated)" }

// shapeFields name a dimension's bounds in the value at shapeKey.
func loField(k int) string  { return "lo" + strconv.Itoa(k+1) }
func extField(k int) string { return "ext" + strconv.Itoa(k+1) }

// needsShape reports whether an array declared with dims takes bounds from
// its allocation or its actual: a dimension is deferred (:) or assumed
// (lo:).
func needsShape(dims []apt.Dim) bool {
	for _, d := range dims {
		if d.Deferred || d.Hi == nil {
			return true
		}
	}
	return false
}

// setShape records the bounds an ALLOCATE gives the array stored at key.
func (ev *evaluator) setShape(key string, dims []bound) {
	f := make(map[string]Value, 2*len(dims))
	for k, d := range dims {
		f[loField(k)], f[extField(k)] = d.lo, d.ext
	}
	ev.env.set(shapeKey(key), Value{Fields: f})
}

// shapeAt returns the bounds the state holds for the n-dimensional array
// stored at key, and whether it holds any. A dimension whose bounds are not
// known has unknown values.
func (ev *evaluator) shapeAt(key string, n int) ([]bound, bool) {
	v, ok := ev.env.lookup(shapeKey(key))
	if !ok {
		return nil, false
	}
	out := make([]bound, n)
	for k := range out {
		// A value that is no shape (the bounds after a loop that
		// allocates) leaves every dimension unknown.
		out[k] = bound{lo: v.Fields[loField(k)], ext: v.Fields[extField(k)]}
	}
	return out, true
}

// shapeBounds returns the bounds of the array stored at key and declared with
// dims (decl its declaration, nil for a component), or nil when they are
// its declared ones: the ALLOCATE's for a deferred-shape array, for an
// assumed-shape dummy its own lower bounds and its actual's extents.
func (ev *evaluator) shapeBounds(key string, decl *apt.Var, dims []apt.Dim) []bound {
	if !needsShape(dims) {
		return nil
	}
	if decl != nil && decl.Dummy && !decl.Allocatable && !decl.Pointer {
		exts, ok := ev.frame().shapes[decl.Name]
		if !ok || len(exts) != len(dims) {
			return nil
		}
		out := make([]bound, len(dims))
		for k, d := range dims {
			out[k] = bound{lo: ev.lowerBound(d), ext: exts[k]}
		}
		return out
	}
	out, ok := ev.shapeAt(key, len(dims))
	if !ok {
		return nil
	}
	return out
}

// lowerBound is a declared dimension's lower bound: 1 unless it gives one.
func (ev *evaluator) lowerBound(d apt.Dim) Value {
	if d.Lo != nil {
		return ev.value(d.Lo)
	}
	return Known(symbolic.Int(1))
}

// dimLo and dimExt return the lower bound and the extent (ok false where
// not known) of dimension k of an array declared with dims, whose bounds
// are sh (shapeBounds).
func (ev *evaluator) dimLo(dims []apt.Dim, sh []bound, k int) Value {
	if d := dims[k]; sh != nil && (d.Deferred || d.Hi == nil) {
		return sh[k].lo
	}
	return ev.lowerBound(dims[k])
}

func (ev *evaluator) dimExt(dims []apt.Dim, sh []bound, k int) (Value, bool) {
	if d := dims[k]; sh != nil && (d.Deferred || d.Hi == nil) {
		return sh[k].ext, sh[k].ext.IsKnown()
	}
	return ev.dimExtent(dims[k])
}

// arrayBounds returns the bounds of every dimension of the array name in
// the current routine, and whether each extent is known.
func (ev *evaluator) arrayBounds(name string, decl *apt.Var) ([]bound, bool) {
	key := ev.key(name)
	sh := ev.shapeBounds(key, decl, decl.Dims)
	out := make([]bound, len(decl.Dims))
	all := true
	for k := range decl.Dims {
		e, ok := ev.dimExt(decl.Dims, sh, k)
		all = all && ok
		out[k] = bound{lo: ev.dimLo(decl.Dims, sh, k), ext: e}
	}
	return out, all
}

// componentBounds returns the bounds of every dimension of the array
// component c (obj%w, of a variable, not of an element of an array of
// derived type): its ALLOCATE's where it is deferred-shape, else its
// declared ones; ok false where an extent is not known.
func (ev *evaluator) componentBounds(c *apt.Component) ([]bound, bool) {
	if _, _, nested := elementOf(c.Base); nested {
		return ev.elemBounds(c)
	}
	k, ok := ev.refKey(c.Base)
	if !ok {
		return nil, false
	}
	dt := ev.prog.LookupType(ev.frame().routine, apt.TypeOf(c.Base).Derived)
	if dt == nil {
		return nil, false
	}
	f := dt.Field(c.Field)
	if f == nil || !f.IsArray() {
		return nil, false
	}
	sh := ev.shapeBounds(k+"%"+c.Field, nil, f.Dims)
	out := make([]bound, len(f.Dims))
	for d := range f.Dims {
		e, ok := ev.dimExt(f.Dims, sh, d)
		if !ok {
			return nil, false
		}
		out[d] = bound{lo: ev.dimLo(f.Dims, sh, d), ext: e}
	}
	return out, true
}

// actualShape returns the extents of the array an actual argument names
// (a variable, a component, a section), for an assumed-shape dummy it is
// bound to.
func (ev *evaluator) actualShape(a apt.Expr) ([]Value, bool) {
	bs, ok := ev.valueBounds(a)
	if !ok {
		return nil, false
	}
	out := make([]Value, len(bs))
	for k, b := range bs {
		out[k] = b.ext
	}
	return out, true
}

// valueBounds returns the bounds of the array an expression designates: a
// variable's (its declaration, ALLOCATE or actual), a component's, or a
// section's extents with lower bounds 1. ok is false where a bound is not
// known; a variable's known dimensions are returned still.
func (ev *evaluator) valueBounds(e apt.Expr) ([]bound, bool) {
	switch x := e.(type) {
	case *apt.Name:
		decl := ev.prog.Resolve(ev.frame().routine, x.Name)
		if decl == nil || !decl.IsArray() {
			return nil, false
		}
		return ev.arrayBounds(x.Name, decl)
	case *apt.Component:
		return ev.componentBounds(x)
	case *apt.Index:
		exts, ok := ev.sectionShape(x)
		if !ok || !hasSection(x) {
			return nil, false
		}
		bs := make([]bound, len(exts))
		for k, e := range exts {
			bs[k] = bound{lo: Known(symbolic.Int(1)), ext: e}
		}
		return bs, true
	}
	return nil, false
}

// sectionShape returns the extents of the section ix of a variable or of
// a component (a subscript that is not a section drops its dimension):
// floor((hi - lo) / stride) + 1 of each, none negative.
func (ev *evaluator) sectionShape(ix *apt.Index) ([]Value, bool) {
	decl := ev.prog.Resolve(ev.frame().routine, ix.Name)
	var bs []bound // the bounds a section without them takes
	if decl != nil && decl.IsArray() && ix.Base == nil && len(decl.Dims) == len(ix.Subs) {
		bs, _ = ev.arrayBounds(ix.Name, decl)
	}
	if ix.Base != nil {
		// A section of a component (obj%a(:, 1)): the component's
		// bounds, where a declaration of its name would mislead.
		decl = nil
		if cb, ok := ev.componentBounds(&apt.Component{Pos: ix.Pos, Base: ix.Base, Field: ix.Name}); ok && len(cb) == len(ix.Subs) {
			bs = cb
		}
	}
	var out []Value
	for d, sub := range ix.Subs {
		sec, isSec := sub.(*apt.Section)
		if !isSec {
			continue
		}
		lo, hi, ok := ev.sectionLimits(sec, decl, bs, d)
		if !ok {
			return nil, false
		}
		ext, ok := lift2(lo, hi, extent)
		if sec.Stride != nil {
			st, isInt := valueInt(ev.value(sec.Stride))
			if !isInt || st == 0 {
				return nil, false
			}
			ext, ok = lift2(lo, hi, func(l, h symbolic.Expr) (symbolic.Expr, bool) {
				return symbolic.Max(symbolic.FloorDiv(h.Sub(l), symbolic.Int(st)).Add(symbolic.Int(1)), symbolic.Int(0)), true
			})
		}
		if !ok {
			return nil, false
		}
		out = append(out, ext)
	}
	return out, true
}

// allocKey returns the storage key of an object an ALLOCATE or DEALLOCATE
// names, for its shape: a variable or a component of one. An array
// component of an element of an array of derived type has a shape per
// element, which the state does not keep.
func (ev *evaluator) allocKey(ix *apt.Index) (string, bool) {
	if _, _, nested := elementOf(ix.Base); nested {
		return "", false
	}
	return ev.arrayKey(ix)
}

// allocate evaluates an object or the STAT= of an ALLOCATE: the array's
// bounds, and its elements undefined until stored. STAT= is 0: the
// allocation succeeds in the run the counts describe (ERRMSG= is then
// left as it is).
func (ev *evaluator) allocate(a apt.Expr) {
	if kw, ok := a.(*apt.Keyword); ok {
		if kw.Name == "stat" {
			ev.assign(kw.Value, Known(symbolic.Int(0)))
		}
		return
	}
	ix, ok := a.(*apt.Index)
	if !ok {
		return
	}
	dims := make([]bound, len(ix.Subs))
	for k, s := range ix.Subs {
		lo, hi := Known(symbolic.Int(1)), Value{}
		if sec, ok := s.(*apt.Section); ok {
			if sec.Lo != nil {
				lo = ev.value(sec.Lo)
			}
			if sec.Hi != nil {
				hi = ev.value(sec.Hi)
			}
		} else {
			hi = ev.value(s)
		}
		ext, _ := lift2(lo, hi, extent)
		dims[k] = bound{lo: lo, ext: ext}
	}
	ev.allocateShaped(ix, dims)
}

// allocateFilled gives the elements of the object a of an ALLOCATE with
// bounds and a scalar SOURCE= (allocate(a(n), source=0); C's calloc, whose
// storage is zeroed) the source's value.
func (ev *evaluator) allocateFilled(a, src apt.Expr) {
	ix, ok := a.(*apt.Index)
	if !ok || !tracked(ix.Type) {
		return
	}
	if _, isArray := ev.valueBounds(src); isArray {
		return
	}
	key, ok := ev.allocKey(ix)
	if !ok {
		return
	}
	v := ev.value(src)
	ev.env.set(key, Value{arr: &arrayState{base: &v}})
}

// allocateMolded evaluates an object of ALLOCATE(..., SOURCE= or MOLD=)
// written without bounds (allocate(v, mold=u)): it takes the bounds of
// the source expression (Fortran 2018 9.7.1.2).
func (ev *evaluator) allocateMolded(a, src apt.Expr) {
	var ix *apt.Index
	switch x := a.(type) {
	case *apt.Name:
		ix = &apt.Index{Pos: x.Pos, Name: x.Name, Type: x.Type}
	case *apt.Component:
		ix = &apt.Index{Pos: x.At(), Name: x.Field, Base: x.Base, Type: x.Type}
	default:
		return
	}
	dims, ok := ev.valueBounds(src)
	if !ok {
		return
	}
	ev.allocateShaped(ix, dims)
}

// allocateShaped gives the object ix names the bounds dims.
func (ev *evaluator) allocateShaped(ix *apt.Index, dims []bound) {
	ev.allocateFresh(ix, dims)
	if ev.allocateElem(ix, dims) {
		return
	}
	key, ok := ev.allocKey(ix)
	if !ok {
		return
	}
	if ev.cPointers() {
		// malloc, new[]: a storage of its own at an address of its own.
		var arr apt.Expr = &apt.Name{Name: ix.Name, Type: ix.Type, Array: true}
		if ix.Base != nil {
			arr = &apt.Component{Base: ix.Base, Field: ix.Name, Type: ix.Type, Array: true}
		}
		a := ev.newAddress()
		ev.assignAddr(arr, a)
		ev.noteStorage(a, key, ix.Type)
		ev.noteAlloc(a, key)
	}
	ev.setShape(key, dims)
	ev.env.set(allocStatusKey(key), Known(symbolic.Int(1)))
	if tracked(ix.Type) {
		ev.env.set(key, Value{arr: &arrayState{}})
	}
	if ix.Type.Base == apt.TypeDerived && !ev.cPointers() {
		ev.initElemComponents(key, ix.Type.Derived, 0)
	}
}

// deallocate evaluates an object or the STAT= of a DEALLOCATE: the array
// has no bounds any more. STAT= is 0, as for ALLOCATE.
func (ev *evaluator) deallocate(a apt.Expr) {
	if kw, ok := a.(*apt.Keyword); ok {
		if kw.Name == "stat" {
			ev.assign(kw.Value, Known(symbolic.Int(0)))
		}
		return
	}
	if ev.deallocateElem(a) {
		return
	}
	key, ok := ev.wholeKey(a)
	if !ok {
		return
	}
	ev.env.del(shapeKey(key))
	ev.env.set(allocStatusKey(key), Known(symbolic.Int(0)))
}

// wholeKey is the storage key of an allocatable object named whole: a
// variable or a component.
func (ev *evaluator) wholeKey(a apt.Expr) (string, bool) {
	switch x := a.(type) {
	case *apt.Name:
		return ev.key(x.Name), true
	case *apt.Component:
		return ev.refKey(x)
	}
	return "", false
}

// allocatedIntrinsic evaluates ALLOCATED(a): the status the program's own
// ALLOCATE and DEALLOCATE statements gave a, where the state holds it. An
// allocatable of the program's own (not a dummy) that no ALLOCATE has
// reached in this run is unallocated, as every allocatable starts (and a
// local one is again at each call); inside a probe's slice, which runs
// only some statements, that is not concluded.
func (ev *evaluator) allocatedIntrinsic(f *apt.FuncCall) (Value, bool) {
	if f.Name != "allocated" || len(f.Args) != 1 {
		return Value{}, false
	}
	a := f.Args[0]
	if kw, ok := a.(*apt.Keyword); ok {
		a = kw.Value
	}
	if ev.probeSkip != nil {
		return Value{}, false
	}
	if v, ok := ev.elemAllocated(a); ok {
		return v, true
	}
	key, ok := ev.wholeKey(a)
	if !ok {
		return Value{}, false
	}
	if v, ok := ev.env.lookup(allocStatusKey(key)); ok {
		return v, true
	}
	nm, isName := a.(*apt.Name)
	if !isName {
		return Value{}, false
	}
	decl := ev.prog.Resolve(ev.frame().routine, nm.Name)
	if decl == nil || !decl.Allocatable || decl.Dummy {
		return Value{}, false
	}
	if _, aliased := ev.frame().alias[nm.Name]; aliased {
		return Value{}, false
	}
	return Known(symbolic.Int(0)), true
}

// initAllocStatus gives the local allocatables of a routine's new frame
// (not its dummies, not SAVE ones, which keep theirs) the status every
// call starts them with: unallocated. A dummy reaches its actual's
// status through the frame's alias.
func (ev *evaluator) initAllocStatus(r *apt.Routine) {
	if r.Kind == apt.KindModule {
		return
	}
	for _, v := range r.Scope.Vars {
		if !v.Allocatable || v.Dummy || v.Save || v.InCommon {
			continue
		}
		if ev.prog.Resolve(r, v.Name) != v {
			continue
		}
		ev.env.set(allocStatusKey(ev.key(v.Name)), Known(symbolic.Int(0)))
	}
	// So do the allocatable components of its local structures (if
	// (allocated(x%v)) deallocate(x%v) before an ALLOCATE).
	for _, v := range r.Scope.Vars {
		if v.Dummy || v.Save || v.InCommon || v.Pointer || v.Allocatable || v.IsArray() || v.Type.Base != apt.TypeDerived {
			continue
		}
		if ev.prog.Resolve(r, v.Name) != v {
			continue
		}
		if dt := ev.prog.LookupType(r, v.Type.Derived); dt != nil {
			for _, f := range dt.Fields {
				if f.Allocatable {
					ev.env.set(allocStatusKey(ev.key(v.Name)+"%"+f.Name), Known(symbolic.Int(0)))
				}
			}
		}
	}
}

// moveAlloc evaluates MOVE_ALLOC(from, to): to takes from's allocation,
// status and bounds, and from is unallocated. It reports whether c was
// one.
func (ev *evaluator) moveAlloc(c *apt.Call) bool {
	if c.Callee != "move_alloc" || len(c.Args) < 2 || ev.prog.Routine("move_alloc") != nil {
		return false
	}
	keyOf := func(a apt.Expr) (string, bool) {
		if kw, ok := a.(*apt.Keyword); ok {
			a = kw.Value
		}
		return ev.wholeKey(a)
	}
	from, ok1 := keyOf(c.Args[0])
	to, ok2 := keyOf(c.Args[1])
	if !ok1 || !ok2 {
		return false
	}
	for _, suffix := range []func(string) string{shapeKey, allocStatusKey, func(k string) string { return k }} {
		if v, ok := ev.env.lookup(suffix(from)); ok {
			ev.env.set(suffix(to), v)
		} else {
			ev.env.del(suffix(to))
		}
	}
	ev.env.del(shapeKey(from))
	ev.env.set(allocStatusKey(from), Known(symbolic.Int(0)))
	return true
}

// allocated adds to set the storage an ALLOCATE or DEALLOCATE statement
// may change: each object's shape and, for ALLOCATE, its elements, and the
// STAT= variable (collectAssigned).
func (ev *evaluator) allocated(s *apt.Stmt, set map[string]bool) {
	for _, a := range s.Args {
		switch x := a.(type) {
		case *apt.Keyword:
			if k, ok := ev.refKey(x.Value); ok && x.Name == "stat" {
				set[k] = true
			}
		case *apt.Index:
			if x.Base != nil && ev.elemShapeKeys(x.Base, x.Name, set) {
				continue
			}
			if k, ok := ev.allocKey(x); ok {
				set[shapeKey(k)] = true
				set[allocStatusKey(k)] = true
				if tracked(x.Type) {
					set[k] = true
				}
			}
		case *apt.Name:
			set[shapeKey(ev.key(x.Name))] = true
			set[allocStatusKey(ev.key(x.Name))] = true
		case *apt.Component:
			if ev.elemShapeKeys(x.Base, x.Field, set) {
				continue
			}
			if k, ok := ev.refKey(x); ok {
				set[shapeKey(k)] = true
				set[allocStatusKey(k)] = true
			}
		}
	}
}

// shapeIntrinsic evaluates SIZE, LBOUND and UBOUND of an array variable
// whose bounds the evaluation knows (its declaration, its ALLOCATE, its
// actual argument): SIZE(a) the product of the extents, SIZE(a, d) one,
// LBOUND(a, d) and UBOUND(a, d) a dimension's bounds. false for the array
// results of LBOUND(a) and UBOUND(a), and where a bound is not known.
// storageSize evaluates STORAGE_SIZE(a) (Fortran 2008 13.7.160), the bits
// of one element of a's type: a message of bytes is sized by it.
func (ev *evaluator) storageSize(f *apt.FuncCall) (Value, bool) {
	if f.Name != "storage_size" || len(f.Args) != 1 {
		return Value{}, false // (KIND= changes only the result's kind)
	}
	t := apt.TypeOf(f.Args[0])
	if t.Base == apt.TypeDerived {
		return Value{}, false
	}
	b, ok := ev.elemBytes(t)
	if !ok {
		return Value{}, false
	}
	return Known(symbolic.Int(8 * b)), true
}

func (ev *evaluator) shapeIntrinsic(f *apt.FuncCall) (Value, bool) {
	switch f.Name {
	case "size", "lbound", "ubound":
	default:
		return Value{}, false
	}
	if len(f.Args) == 0 {
		return Value{}, false
	}
	bs, ok := ev.valueBounds(f.Args[0])
	if !ok && bs == nil {
		return Value{}, false
	}
	dim := -1
	if len(f.Args) > 1 {
		a := f.Args[1]
		if kw, isKw := a.(*apt.Keyword); isKw {
			if kw.Name != "dim" {
				return Value{}, false // KIND= alone
			}
			a = kw.Value
		}
		d, ok := ev.value(a).Single()
		if !ok {
			return Value{}, false
		}
		k, ok := d.Int64()
		if !ok || k < 1 || int(k) > len(bs) {
			return Value{}, false
		}
		dim = int(k) - 1
	}
	known := func(v Value) bool { return v.IsKnown() && v.arr == nil && v.Fields == nil }
	switch {
	case f.Name == "size" && dim < 0:
		out := Known(symbolic.Int(1))
		for _, b := range bs {
			if !known(b.ext) {
				return Value{}, false
			}
			var ok bool
			if out, ok = ev.lift2(out, b.ext, func(x, y symbolic.Expr) (symbolic.Expr, bool) { return x.Mul(y), true }); !ok {
				return Value{}, false
			}
		}
		return out, true
	case dim < 0:
		return Value{}, false // LBOUND(a), UBOUND(a): an array
	case f.Name == "size":
		return bs[dim].ext, known(bs[dim].ext)
	case f.Name == "lbound":
		return bs[dim].lo, known(bs[dim].lo)
	}
	if !known(bs[dim].lo) || !known(bs[dim].ext) {
		return Value{}, false
	}
	return ev.lift2(bs[dim].lo, bs[dim].ext, func(lo, ext symbolic.Expr) (symbolic.Expr, bool) {
		return lo.Add(ext).Sub(symbolic.Int(1)), true
	})
}
