package symeval

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Array elements as values. Real programs keep sizes in arrays: the cells of
// a multi-partition (cell_size(dir, c), filled in a loop from the rank), the
// grid of every multigrid level (m1(k), halved from the finest), the
// dimensions of each FFT layout. The evaluation keeps, for every INTEGER or
// LOGICAL array, the stores made to it in order: each to an element offset
// (the subscripts linearised in column-major order, a closed form), under a
// guard where paths joined, over the value of the elements never stored.
// Reading an element walks the stores from the newest: a store whose offset
// is decided equal gives the value, one decided different is skipped, and an
// undecided one gives an alternative guarded by the offsets' equality, so
// slice(1, stage) with stage a number and the slice filled from the rank is
// one value per rank class. An element no store reached and no DATA gave is
// undefined: Fortran forbids reading it, so it adds no alternative.
//
// What the evaluation cannot follow clobbers the array (its elements become
// unknown): a store in a loop evaluated symbolically (its body once for all
// iterations) other than A(i + c) = f(i) (rangestore.go), a store through a subscript it cannot linearise, an array
// passed by element to a routine that assigns it, a receive or READ into
// it. Real arrays are not followed: they hold the program's data.

// maxArrayStores bounds the stores an array keeps; past it the array is
// clobbered.
const maxArrayStores = 4096

// arrayState is what the evaluation knows of an array's elements.
type arrayState struct {
	// clobbered means elements not stored since hold values the evaluation
	// does not know; otherwise they are undefined or base.
	clobbered bool
	base      *Value
	stores    []*arrayStore
	// sums are what the evaluation knows of ranges of elements it does
	// not know one by one: their sum (rowsums.go). A store makes a new
	// state without them.
	sums []rowSum
	// tab, in a clobbered state, holds the elements a concrete run left
	// (concrete.go): those not stored since are known where it knows
	// them. A state made without it keeps them unknown.
	tab *elemTable
	// data marks a REAL array filled whole with one number
	// (uniformdata.go): where another path has no state for it, its
	// elements are the program's data, not undefined.
	data bool
}

// arrayStore is one assignment to an element: val at offset off where guard
// holds (nil: always). A store with upTo set stands for a loop's stores to
// the offsets off..*upTo, the elements outside that range keeping theirs:
// val is unknown where the evaluation does not follow the values, else
// the value at each offset, offSym standing for the offset (rangestore.go).
type arrayStore struct {
	off   symbolic.Expr
	upTo  *symbolic.Expr
	guard counting.Formula
	val   Value
}

// dimOrder lists the dimensions of an array of n from the fastest varying
// to the slowest, as the evaluation lays arrays out: Fortran's first
// subscript fastest (column-major), C's last (row-major).
func (ev *evaluator) dimOrder(n int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
		if ev.cPointers() {
			order[i] = n - 1 - i
		}
	}
	return order
}

// tracked reports whether the evaluation follows the elements of an array of
// type t.
func tracked(t apt.Type) bool {
	return t.Base == apt.TypeInteger || t.Base == apt.TypeLogical || t.Base == apt.TypeCharacter
}

// arrayRef resolves an element reference: the storage key of the array and
// its element offset, and whether the array is followed.
func (ev *evaluator) arrayRef(ix *apt.Index) (key string, off Value, ok bool) {
	if !tracked(ix.Type) {
		if _, small := ev.realTable(ix); !small {
			return "", Value{}, false
		}
	}
	return ev.indexRef(ix)
}

// fieldRef resolves a scalar component of an element of an array of
// derived type, at any depth below it (chunk%tiles(t)%t_xmax,
// chunk%tiles(t)%field%x_min; element.go): the elements' INTEGER or
// LOGICAL part is followed as an array of its own, keyed by the array's key
// and the path of components, at the element's offset.
func (ev *evaluator) fieldRef(c *apt.Component) (key string, off Value, ok bool) {
	bi, path, isEl := elementOf(c.Base)
	if !isEl || c.Array || !tracked(c.Type) {
		if k, off, ok := ev.derefField(c); ok {
			return k, off, true
		}
		return "", Value{}, false
	}
	if _, _, heap := ev.heapElement(bi); heap {
		// An element of an array of pointers: the component is of the
		// object it points to (refKey), not of an array of structs.
		return "", Value{}, false
	}
	k, off, ok := ev.indexRef(bi)
	if k == "" {
		return "", Value{}, false
	}
	return k + "%" + path + c.Field, off, ok
}

// indexRef is arrayRef whatever the element type.
func (ev *evaluator) indexRef(ix *apt.Index) (key string, off Value, ok bool) {
	if k, off, ok := ev.heapElement(ix); k != "" {
		// An element of a heap array, through a pointer.
		return k, off, ok
	}
	if k, off, ok := ev.derefArray(ix); ok {
		// An element of another array's storage, through a pointer.
		return k, off, ok
	}
	if k, off, ok := ev.viewElement(ix); k != "" {
		// A field of an element of an array of structures.
		return k, off, ok
	}
	if k, off, ok := ev.fieldElement(ix); k != "" {
		// An array field of one, through a pointer.
		return k, off, ok
	}
	var dims []apt.Dim
	var outer Value // the offset of the element of an array of derived type holding this array
	nested := false
	var sh []bound // the bounds of a deferred-shape or assumed-shape array (shapeBounds)
	if bi, path, isEl := elementOf(ix.Base); isEl {
		// An array component of an element of an array of derived type,
		// or of a scalar component below one
		// (chunk%tiles(t)%neighbours(k), tiles(t)%field%nbr(k)): the
		// field's elements of all the elements, the element's block then
		// the component's offset.
		bk, boff, bok := ev.indexRef(bi)
		if bk == "" || !bok {
			return "", Value{}, false
		}
		key, outer, nested = bk+"%"+path+ix.Name, boff, true
		dt := ev.prog.LookupType(ev.frame().routine, apt.TypeOf(ix.Base).Derived)
		if dt == nil {
			return "", Value{}, false
		}
		f := dt.Field(ix.Name)
		if f == nil {
			return "", Value{}, false
		}
		dims = f.Dims
		if needsShape(dims) {
			// An allocatable component: the element's own bounds
			// (elemshape.go), each element's block elemStride long.
			bs, ok := ev.elemBounds(&apt.Component{Pos: ix.Pos, Base: ix.Base, Field: ix.Name, Type: ix.Type, Array: true})
			if !ok {
				return key, Value{}, false
			}
			sh = bs
		}
	} else if ix.Base != nil {
		if k, off, ok := ev.heapFieldElement(ix); k != "" {
			return k, off, ok
		}
		k, ok := ev.refKey(ix.Base)
		if !ok {
			return "", Value{}, false
		}
		key = k + "%" + ix.Name
		dt := ev.prog.LookupType(ev.frame().routine, apt.TypeOf(ix.Base).Derived)
		switch {
		case dt == nil && ev.cPointers() && len(ix.Subs) == 1:
			// A C structure's array field through a pointer (p->loc[k]):
			// the frontend declares no structure types, and the field's
			// elements are those of the caller's flattened array
			// (g%loc), indexed from 0.
			dims = []apt.Dim{{Lo: &apt.Const{Kind: apt.ConstInt, Text: "0"}, Hi: &apt.Star{}}}
		case dt == nil:
			return "", Value{}, false
		default:
			f := dt.Field(ix.Name)
			if f == nil {
				return "", Value{}, false
			}
			dims = f.Dims
			sh = ev.shapeBounds(key, nil, dims)
		}
	} else {
		// (A named constant array's elements are its value's:
		// initState.)
		decl := ev.prog.Resolve(ev.frame().routine, ix.Name)
		if decl == nil || !decl.IsArray() {
			return "", Value{}, false
		}
		key, dims = ev.key(ix.Name), decl.Dims
		sh = ev.shapeBounds(key, decl, dims)
	}
	if len(dims) != len(ix.Subs) || sh != nil && len(sh) != len(dims) {
		return key, Value{}, false
	}
	// Column-major offset: sum over k of (s_k - lo_k) * stride_k; C's
	// arrays are row-major, the last subscript the fastest, so that the
	// first dimension's extent is never needed (int g[n][m][2], a
	// variable-length array of unknown first extent).
	offset := Known(symbolic.Int(0))
	stride := Known(symbolic.Int(1))
	order := ev.dimOrder(len(ix.Subs))
	for j, k := range order {
		s := ix.Subs[k]
		if _, isSec := s.(*apt.Section); isSec {
			return key, Value{}, false
		}
		sv := ev.closedInt(ev.value(s), s.At())
		lo := ev.dimLo(dims, sh, k)
		term, ok := lift2(sv, lo, func(a, b symbolic.Expr) (symbolic.Expr, bool) { return a.Sub(b), true })
		if !ok {
			return key, Value{}, false
		}
		term, ok = lift2(term, stride, mul)
		if !ok {
			return key, Value{}, false
		}
		if offset, ok = lift2(offset, term, func(a, b symbolic.Expr) (symbolic.Expr, bool) { return a.Add(b), true }); !ok {
			return key, Value{}, false
		}
		if j == len(order)-1 {
			break
		}
		ext, ok := ev.dimExt(dims, sh, k)
		if !ok {
			return key, Value{}, false
		}
		if stride, ok = lift2(stride, ext, mul); !ok {
			return key, Value{}, false
		}
	}
	if nested {
		// The component's elements of one element form a block of the
		// component's size (of an allocatable one, elemStride).
		size := elemBlockSize(sh)
		for _, d := range dims {
			if sh != nil {
				break
			}
			ext, ok := ev.dimExtent(d)
			if !ok {
				return key, Value{}, false
			}
			if size, ok = lift2(size, ext, mul); !ok {
				return key, Value{}, false
			}
		}
		blk, ok := lift2(outer, size, mul)
		if !ok {
			return key, Value{}, false
		}
		if offset, ok = lift2(blk, offset, func(a, b symbolic.Expr) (symbolic.Expr, bool) { return a.Add(b), true }); !ok {
			return key, Value{}, false
		}
	}
	return key, offset, true
}

// arrayOf returns the state of the array stored at key.
func (ev *evaluator) arrayOf(key string, decl *apt.Var) *arrayState {
	v, ok := ev.env.lookup(key)
	if ok && v.arr != nil {
		return v.arr
	}
	if ok {
		// Assigned by what the evaluation does not follow.
		return &arrayState{clobbered: true}
	}
	if decl != nil {
		return ev.initState(ev.slotInit(key, decl))
	}
	return &arrayState{}
}

// storeElement evaluates an assignment to an array element.
func (ev *evaluator) storeElement(ix *apt.Index, v Value) {
	if ix.Type.Base == apt.TypeInteger && ix.Type.Kind == 1 {
		if ev.storeChar(ix, v) {
			return
		}
		if len(ev.escapedText) > 0 {
			if _, own := ev.escapedText[ev.key(ix.Name)]; !own {
				ev.forgetEscaped(ix.Pos)
			}
		}
	}
	if ix.Type.Base == apt.TypeCharacter && v.str != nil {
		// An element of a character array (names(2) = 'slow'): its
		// text cut to the element's length.
		if l, ok := ev.charLen(ix); ok && l >= 0 && int64(len(*v.str)) > l {
			t := (*v.str)[:l]
			v = Value{str: &t}
		}
	}
	key, off, ok := ev.arrayRef(ix)
	if ok && ev.storeOffs != nil && ev.cur != nil && len(ev.cur.vars) > 0 {
		ev.storeOffs[ix] = off // for rowSums at the loop's end
	}
	if key != "" && ix.Base == nil && key != ev.key(ix.Name) {
		// Through a pointer into another storage, which the loop being
		// walked does not name.
		ev.noteWrite(key)
	}
	ev.storeAt(key, off, ok, ev.initDecl(ix), ix.Type, v)
}

// storeField evaluates an assignment to a component of an element of an
// array of derived type (fieldRef).
func (ev *evaluator) storeField(c *apt.Component, v Value) bool {
	key, off, ok := ev.fieldRef(c)
	if key == "" {
		return false
	}
	ev.storeAt(key, off, ok, nil, c.Type, v)
	return true
}

// storeAt stores v at offset off of the array at key (ok false: an
// offset the evaluation cannot follow, which clobbers the array).
func (ev *evaluator) storeAt(key string, off Value, ok bool, decl *apt.Var, t apt.Type, v Value) {
	if key == "" {
		return
	}
	ev.noteHeapWrite(key)
	if !ok {
		ev.clobber(key)
		return
	}
	if t.Base == apt.TypeInteger {
		v = toInteger(v)
	}
	st := ev.arrayOf(key, decl)
	next := &arrayState{clobbered: st.clobbered, base: st.base, tab: st.tab}
	next.stores = slices.Clip(st.stores)
	for _, a := range off.Alts {
		s := &arrayStore{off: a.E, guard: a.Guard, val: v}
		if a.Guard == nil {
			// A store to a constant offset replaces the earlier ones to it.
			if _, isConst := a.E.Int64(); isConst {
				next.stores = slices.DeleteFunc(slices.Clone(next.stores), func(o *arrayStore) bool {
					return o.guard == nil && symbolic.Equal(o.off, a.E)
				})
			}
		}
		next.stores = append(next.stores, s)
	}
	if len(next.stores) > maxArrayStores {
		ev.clobber(key)
		return
	}
	ev.env.set(key, Value{arr: next})
}

func (ev *evaluator) declOf(ix *apt.Index) *apt.Var {
	if ix.Base != nil {
		return nil
	}
	return ev.prog.Resolve(ev.frame().routine, ix.Name)
}

// clobber makes every element of the array at key unknown.
func (ev *evaluator) clobber(key string) {
	ev.env.set(key, Value{arr: &arrayState{clobbered: true}})
}

// loadElement evaluates a reference to an array element.
func (ev *evaluator) loadElement(ix *apt.Index) Value {
	key, off, ok := ev.arrayRef(ix)
	return ev.loadAt(key, off, ok, ev.initDecl(ix), ix, ix.Name, ix.Type)
}

// initDecl is the declaration whose initialiser gives an array's elements
// before any store: the variable's, or for an array component its
// default initialisation in the type (integer :: n(2) = [40, 30]), which
// every object of the type starts with (Fortran 2018 7.5.4.6).
func (ev *evaluator) initDecl(ix *apt.Index) *apt.Var {
	if ix.Base == nil {
		return ev.declOf(ix)
	}
	if _, _, nested := elementOf(ix.Base); nested {
		return nil
	}
	dt := ev.prog.LookupType(ev.frame().routine, apt.TypeOf(ix.Base).Derived)
	if dt == nil {
		return nil
	}
	if f := dt.Field(ix.Name); f != nil && f.IsArray() && len(f.Init) > 0 && !f.Allocatable && !f.Pointer {
		return f
	}
	return nil
}

// loadField evaluates a component of an element of an array of derived
// type (fieldRef); ok is false when it is not one the evaluation follows.
func (ev *evaluator) loadField(c *apt.Component) (Value, bool) {
	key, off, ok := ev.fieldRef(c)
	if key == "" {
		return Value{}, false
	}
	bi, _, _ := elementOf(c.Base)
	return ev.loadAt(key, off, ok, nil, bi, c.Field, c.Type), true
}

// loadAt reads the element at offset off of the array at key; ix is the
// reference whose subscripts select it, name what to call an unknown.
func (ev *evaluator) loadAt(key string, off Value, ok bool, decl *apt.Var, ix *apt.Index, name string, t apt.Type) Value {
	unknown := unknownValue(name, "an element of "+name, t.Base != apt.TypeInteger)
	if !ok {
		// An element selected by a value that changes from one iteration
		// to the next (a random index) is another element each time.
		for _, s := range ix.Subs {
			if v := ev.value(s); v.unk != nil && v.unk.varying {
				unknown.unk.varying = true
			}
		}
		return unknown
	}
	st := ev.arrayOf(key, decl)
	if v, ok := storedText(st, off); ok {
		return v
	}
	// An element selected by a loop's variable varies from one iteration
	// to the next: no one parameter stands for it.
	if mentions(off, ev.cur.vars) {
		unknown.unk.varying = true
	}
	// So does one a recurrence probe reads at the symbols it gives the
	// loop's variable and the variables the loop changes (probe#...):
	// x = x + a(i) is no recurrence with a constant step. The probe's
	// value is marked, so that the parameter it may become is not taken
	// for a constant step (probeIncrements).
	probeRead := mentionsProbe(off)
	// One unknown (and so one parameter) per element of one state of the
	// array, however often it is read: for an element a loop's variable
	// selects, per element as a function of the loop's variables (reads
	// of a(dir) with no store between are one value, whatever dir is).
	if e, single := off.Single(); single && (!unknown.unk.varying || !probeRead) {
		mk := elemKey(key, st, e)
		if v, ok := ev.env.lookup(key); !ok || v.arr != st {
			mk = fmt.Sprintf("%s|initial|%s", key, e.Key())
		}
		if unknown.unk.varying {
			mk += "|in " + strings.Join(ev.cur.vars, ",")
		}
		if u, ok := ev.unkElems[mk]; ok {
			unknown = Value{unk: u}
		} else {
			ev.unkElems[mk] = unknown.unk
		}
	}
	if probeRead {
		unknown.unk.probed = true
	}
	if e, single := off.Single(); single && unknown.unk.elem == nil {
		unknown.unk.elem = &elemRef{key: key, st: st, off: e}
	}
	var out []Alt
	for _, oa := range off.Alts {
		alts, ok := ev.readOffset(st, oa.E)
		if !ok && oa.Guard != nil {
			// A subscript's alternative no process of this path has (a
			// neighbour 0 where the call is made only for a neighbour)
			// reads nothing.
			if t, dec := ev.decideOnPath(oa.Guard, ev.cur.conds); dec && !t {
				continue
			}
		}
		if !ok {
			if debugRuns && ix != nil {
				var subs []string
				for _, sb := range ix.Subs {
					subs = append(subs, fmt.Sprint(ev.value(sb).Alts))
				}
				fmt.Fprintf(os.Stderr, "loadAt %s off=%s clobbered=%v stores=%d at %s %s subs=%v\n", key, oa.E, st.clobbered, len(st.stores), ix.Pos, apt.FormatExpr(ix), subs)
				for _, s := range st.stores {
					fmt.Fprintf(os.Stderr, "   store off=%s upTo=%v guard=%v val=%v unk=%v\n", s.off, s.upTo, s.guard, s.val.Alts, s.val.unk != nil)
				}
			}
			return unknown
		}
		for _, a := range alts {
			out = append(out, Alt{Guard: and(oa.Guard, a.Guard), E: a.E})
		}
		if len(out) > maxAlts {
			return unknown
		}
	}
	if len(out) == 0 {
		return unknown
	}
	return ev.pruneRanks(Value{Alts: mergeAlts(out)})
}

// storedText is the text an element at a constant offset holds where the
// newest store that may reach it put a known string there (a table of
// option names, names[k] = "nx"): the elements' numbers follow only
// numbers (walkStores).
func storedText(st *arrayState, off Value) (Value, bool) {
	o, ok := off.Single()
	if !ok {
		return Value{}, false
	}
	oc, ok := o.Const()
	if !ok {
		return Value{}, false
	}
	for i := len(st.stores) - 1; i >= 0; i-- {
		s := st.stores[i]
		so, isc := s.off.Const()
		if !isc || s.upTo != nil || s.guard != nil {
			return Value{}, false
		}
		if so.Equal(oc) {
			return s.val, s.val.str != nil
		}
	}
	return Value{}, false
}

// elemKey identifies the element at offset off of one state of an array.
func elemKey(key string, st *arrayState, off symbolic.Expr) string {
	return fmt.Sprintf("%s|%p|%s", key, st, off.Key())
}

// readOffset returns the alternatives of the element at offset o.
func (ev *evaluator) readOffset(st *arrayState, o symbolic.Expr) ([]Alt, bool) {
	out, ok := ev.walkStores(st, o)
	if !ok && len(st.stores) > maxAlts {
		return ev.readOffsetByRank(st, o)
	}
	return out, ok
}

// walkStores is readOffset by the stores' guards, newest first.
func (ev *evaluator) walkStores(st *arrayState, o symbolic.Expr) ([]Alt, bool) {
	var out []Alt
	var notPrev counting.Formula // no newer store matched
	oc, oConst := o.Const()
	for i := len(st.stores) - 1; i >= 0; i-- {
		s := st.stores[i]
		if oConst {
			// A constant offset against a store's constant offset or
			// range (an array filled element by element in a run): a
			// miss is decided here, without making the relations that
			// would say so.
			if so, ok := s.off.Const(); ok {
				if s.upTo == nil && !so.Equal(oc) {
					continue
				}
				if s.upTo != nil {
					if hi, ok := s.upTo.Const(); ok && (oc.Cmp(so) < 0 || oc.Cmp(hi) > 0) {
						continue
					}
				}
			}
		}
		if s.upTo != nil && !s.val.IsKnown() {
			// Stores of a loop to a range of offsets: an element
			// decided outside it is not one of them.
			in := and(s.guard, rel(s.off, "<=", o), rel(o, "<=", *s.upTo))
			if t, dec := ev.decideHere(in); dec && !t {
				continue
			}
			return nil, false
		}
		m := and(s.guard, rel(s.off, "==", o))
		if s.upTo != nil {
			// One value stored to a range of offsets (a whole
			// component array of one element set at once).
			m = and(s.guard, rel(s.off, "<=", o), rel(o, "<=", *s.upTo))
		}
		if m == nil {
			m = formulaTrue
		}
		t, dec := ev.decideHere(m)
		if dec && !t {
			continue
		}
		val := atOffset(s.val, o) // a loop's range store: f(o)
		if !val.IsKnown() {
			return nil, false
		}
		here := and(notPrev, m)
		if dec && t {
			here = notPrev
		}
		for _, a := range val.Alts {
			g := and(here, a.Guard)
			if isFalse(g) {
				continue
			}
			out = append(out, Alt{Guard: g, E: a.E})
		}
		if len(out) > maxAlts {
			return nil, false
		}
		if dec && t {
			return out, true
		}
		notPrev = and(notPrev, not(m))
		if isFalse(notPrev) {
			return out, true
		}
	}
	if len(out) > 0 && notPrev != nil {
		// No element outside the stores is read here (rank is one of
		// the offsets a loop over the processes stored).
		if t, dec := ev.decideHere(notPrev); dec && !t {
			return out, true
		}
	}
	if st.tab != nil {
		alts, ok := ev.tableAt(st.tab, o)
		if !ok {
			return nil, false
		}
		for _, a := range alts {
			out = append(out, Alt{Guard: and(notPrev, a.Guard), E: a.E})
		}
		return out, true
	}
	switch {
	case st.base != nil && st.base.IsKnown():
		for _, a := range st.base.Alts {
			out = append(out, Alt{Guard: and(notPrev, a.Guard), E: a.E})
		}
	case st.clobbered:
		return nil, false
	case len(out) > 0 && !isTrue(notPrev) && notPrev != nil:
		// Where no store matched the element is undefined, and Fortran
		// forbids reading it: the oldest alternative covers that case, so
		// that the alternatives still partition the domain.
		out[len(out)-1].Guard = or(out[len(out)-1].Guard, notPrev)
	}
	return out, len(out) > 0
}

// assignWhole evaluates an assignment to a whole array: a scalar value sets
// every element; anything else clobbers it.
func (ev *evaluator) assignWhole(key string, t apt.Type, v Value) {
	if !tracked(t) && !(t.Base == apt.TypeReal && ev.realTableKey(key)) {
		if v, had := ev.env.lookup(key); had && v.arr != nil && t.Base == apt.TypeReal {
			ev.clobber(key) // a view of a small table (untrackedArray)
		}
		return
	}
	if e, ok := v.Single(); ok {
		if t.Base == apt.TypeInteger {
			e = symbolic.Trunc(e)
		}
		b := Known(e)
		ev.env.set(key, Value{arr: &arrayState{base: &b}})
		return
	}
	if v.arr != nil {
		// Another array's elements, in array element order (a
		// function's result, a whole array): a copy of them.
		cp := *v.arr
		cp.stores = slices.Clone(cp.stores)
		ev.env.set(key, Value{arr: &cp})
		return
	}
	ev.clobber(key)
}

// storedDecl is the declaration of the array an element reference
// stores to: the variable's, or for an array component of a variable
// (f%idx(i)) the component's in its type.
func (ev *evaluator) storedDecl(ix *apt.Index) *apt.Var {
	if ix.Base == nil {
		return ev.prog.Resolve(ev.frame().routine, ix.Name)
	}
	if _, _, nested := elementOf(ix.Base); nested {
		return nil
	}
	dt := ev.prog.LookupType(ev.frame().routine, apt.TypeOf(ix.Base).Derived)
	if dt == nil {
		return nil
	}
	f := dt.Field(ix.Name)
	if f == nil || !f.IsArray() {
		return nil
	}
	return f
}

// loopStores returns, for an array a DO loop with unit step stores to only
// by assignments to A(v + c) (v the DO variable, c a constant: one
// subscript), the offsets those stores reach as v runs from lo to hi. Any
// other change to the array in the body (a store through another
// subscript, a call, a READ) makes it fail.
func (ev *evaluator) loopStores(body []apt.Node, doVar, key string, lo, hi Value) (from, to symbolic.Expr, decl *apt.Var, ok bool) {
	l, ok1 := lo.Single()
	h, ok2 := hi.Single()
	if !ok1 || !ok2 {
		return symbolic.Expr{}, symbolic.Expr{}, nil, false
	}
	var cs []int64
	valid := true
	// store records a store to element ix (v + c) of an array; arrays
	// says whether its declaration must be an array (a component's).
	store := func(ix *apt.Index, arrays bool) {
		c, ok := offsetOf(ix, doVar)
		d := ev.storedDecl(ix)
		if !ok || d == nil || arrays && !d.IsArray() {
			valid = false
			return
		}
		decl = d
		cs = append(cs, c)
	}
	var visit func(nodes []apt.Node)
	visit = func(nodes []apt.Node) {
		for _, n := range nodes {
			switch x := n.(type) {
			case *apt.Block:
				for _, st := range x.Stmts {
					if st.Kind == apt.StmtAllocate || st.Kind == apt.StmtDeallocate {
						// The bounds of a component of element v + c
						// (allocate(p(k)%u(n))): kept per element.
						for _, a := range st.Args {
							if eix, ok := ev.elemShapeOf(a, key); ok {
								store(eix, true)
							}
						}
						continue
					}
					if comp, isComp := st.Target.(*apt.Component); isComp {
						// A component of element v + c of an array of
						// derived type (p(k)%nx = ...): the component's
						// array.
						if k, ok := ev.partKey(comp); ok && k == key {
							eix, _, _ := elementOf(comp.Base)
							store(eix, true)
						}
						continue
					}
					ix, isIx := st.Target.(*apt.Index)
					if !isIx {
						if nm, isName := st.Target.(*apt.Name); isName && ev.key(nm.Name) == key {
							valid = false
						}
						continue
					}
					if k, ok := ev.arrayKey(ix); ok && k == key {
						store(ix, false)
					}
				}
			case *apt.If:
				for _, b := range x.Branches {
					visit(b.Body)
				}
			case *apt.Loop:
				visit(x.Body)
			default:
				mod := map[string]bool{}
				ev.collectAssigned([]apt.Node{n}, mod)
				if mod[key] {
					valid = false
				}
			}
		}
	}
	visit(body)
	if !valid || len(cs) == 0 || decl == nil || len(decl.Dims) != 1 {
		return symbolic.Expr{}, symbolic.Expr{}, nil, false
	}
	lb := Known(symbolic.Int(1))
	if sh := ev.shapeBounds(key, decl, decl.Dims); len(sh) == 1 {
		lb = sh[0].lo // its ALLOCATE's (allocate(a(0:n)))
	} else if decl.Dims[0].Lo != nil {
		lb = ev.value(decl.Dims[0].Lo)
	}
	b, ok := lb.Single()
	if !ok {
		return symbolic.Expr{}, symbolic.Expr{}, nil, false
	}
	cmin, cmax := slices.Min(cs), slices.Max(cs)
	return l.Add(symbolic.Int(cmin)).Sub(b), h.Add(symbolic.Int(cmax)).Sub(b), decl, true
}

// offsetOf returns c for a one-subscript reference A(v + c), A(v - c) or
// A(v).
func offsetOf(ix *apt.Index, v string) (int64, bool) {
	if len(ix.Subs) != 1 {
		return 0, false
	}
	switch s := ix.Subs[0].(type) {
	case *apt.Name:
		return 0, s.Name == v
	case *apt.Binary:
		nm, ok := s.X.(*apt.Name)
		c, isConst := s.Y.(*apt.Const)
		if !ok || !isConst || nm.Name != v || c.Kind != apt.ConstInt {
			return 0, false
		}
		n, err := strconv.ParseInt(c.Text, 10, 64)
		if err != nil {
			return 0, false
		}
		switch s.Op {
		case apt.OpAdd:
			return n, true
		case apt.OpSub:
			return -n, true
		}
	}
	return 0, false
}

// clobberRange marks the elements at offsets from..to of the array at key
// as changed by a loop, keeping what the evaluation knows of the others.
func (ev *evaluator) clobberRange(key string, decl *apt.Var, from, to symbolic.Expr) {
	st := ev.arrayOf(key, decl)
	next := &arrayState{clobbered: st.clobbered, base: st.base, tab: st.tab, stores: slices.Clip(st.stores)}
	next.stores = append(next.stores, &arrayStore{off: from, upTo: &to})
	if len(next.stores) > maxArrayStores {
		ev.clobber(key)
		return
	}
	ev.env.set(key, Value{arr: next})
}

// storeBlock evaluates an assignment of one value to a whole array
// component of an element of an array of derived type
// (chunk%tiles(t)%mask = 0): a store to the element's block of the field.
func (ev *evaluator) storeBlock(c *apt.Component, v Value) bool {
	bi, path, isEl := elementOf(c.Base)
	if !isEl || !c.Array || !tracked(c.Type) {
		return false
	}
	bk, boff, ok := ev.indexRef(bi)
	if bk == "" {
		return false
	}
	key := bk + "%" + path + c.Field
	dt := ev.prog.LookupType(ev.frame().routine, apt.TypeOf(c.Base).Derived)
	var f *apt.Var
	if dt != nil {
		f = dt.Field(c.Field)
	}
	e, single := v.Single()
	if !ok || f == nil || !single {
		ev.clobber(key)
		return true
	}
	size, stride := Known(symbolic.Int(1)), Value{}
	if needsShape(f.Dims) {
		// An allocatable component: the element's own extents, in a
		// block elemStride long.
		bs, bok := ev.elemBounds(c)
		if !bok {
			ev.clobber(key)
			return true
		}
		stride = elemBlockSize(bs)
		for _, b := range bs {
			if size, ok = lift2(size, b.ext, mul); !ok {
				ev.clobber(key)
				return true
			}
		}
	} else {
		for _, d := range f.Dims {
			ext, ok := ev.dimExtent(d)
			if !ok {
				ev.clobber(key)
				return true
			}
			if size, ok = lift2(size, ext, mul); !ok {
				ev.clobber(key)
				return true
			}
		}
		stride = size
	}
	first, ok1 := lift2(boff, stride, mul)
	last, ok2 := lift2(first, size, func(a, b symbolic.Expr) (symbolic.Expr, bool) { return a.Add(b).Sub(symbolic.Int(1)), true })
	lo, ok3 := first.Single()
	hi, ok4 := last.Single()
	if !ok1 || !ok2 || !ok3 || !ok4 {
		ev.clobber(key)
		return true
	}
	if c.Type.Base == apt.TypeInteger {
		e = symbolic.Trunc(e)
	}
	st := ev.arrayOf(key, nil)
	next := &arrayState{clobbered: st.clobbered, base: st.base, tab: st.tab, stores: slices.Clip(st.stores)}
	next.stores = append(next.stores, &arrayStore{off: lo, upTo: &hi, val: Known(e)})
	if len(next.stores) > maxArrayStores {
		ev.clobber(key)
		return true
	}
	ev.env.set(key, Value{arr: next})
	return true
}

// maxBlockCopy bounds the elements blockOf copies.
const maxBlockCopy = 64

// blockOf returns the elements of a whole array component of an element
// of an array of derived type (chunk%tiles(t)%neighbours), as an array of
// its own from offset 0, with the key of the field's array: an actual
// argument bound to an array dummy. It fails for a component of unknown or
// large size, or an element the evaluation cannot place.
func (ev *evaluator) blockOf(c *apt.Component) (Value, string, bool) {
	bi, path, isEl := elementOf(c.Base)
	if !isEl || !c.Array || !tracked(c.Type) {
		return Value{}, "", false
	}
	bk, boff, ok := ev.indexRef(bi)
	if bk == "" || !ok {
		return Value{}, "", false
	}
	key := bk + "%" + path + c.Field
	dt := ev.prog.LookupType(ev.frame().routine, apt.TypeOf(c.Base).Derived)
	if dt == nil {
		return Value{}, key, false
	}
	f := dt.Field(c.Field)
	if f == nil {
		return Value{}, key, false
	}
	n := int64(1)
	for _, d := range f.Dims {
		ext, ok := ev.dimExtent(d)
		e, single := ext.Single()
		m, isConst := e.Int64()
		if !ok || !single || !isConst {
			return Value{}, key, false
		}
		n *= m
	}
	first, ok := boff.Single()
	if !ok || n > maxBlockCopy {
		return Value{}, key, false
	}
	first = first.Mul(symbolic.Int(n))
	st := ev.arrayOf(key, nil)
	out := &arrayState{}
	for i := int64(0); i < n; i++ {
		alts, ok := ev.readOffset(st, first.Add(symbolic.Int(i)))
		if !ok {
			if st.clobbered {
				return Value{}, key, false
			}
			continue // never stored: undefined, as in the actual
		}
		out.stores = append(out.stores, &arrayStore{off: symbolic.Int(i), val: Value{Alts: alts}})
	}
	return Value{arr: out}, key, true
}

// chooseArrays is choose for two states of one array: the stores both paths
// share, then each path's own under its condition (a range store keeps its
// range).
func chooseArrays(cond counting.Formula, a, b *arrayState) (*arrayState, bool) {
	if a.base != b.base {
		return nil, false
	}
	if a.clobbered != b.clobbered {
		// One side's elements are unknown (a buffer only the root
		// fills, a NULL pointer elsewhere): each side's stores hold
		// under its condition, and every other element is unknown.
		out := &arrayState{clobbered: true, base: a.base}
		for _, s := range a.stores {
			out.stores = append(out.stores, &arrayStore{off: s.off, upTo: s.upTo, guard: and(cond, s.guard), val: s.val})
		}
		nc := not(cond)
		for _, s := range b.stores {
			out.stores = append(out.stores, &arrayStore{off: s.off, upTo: s.upTo, guard: and(nc, s.guard), val: s.val})
		}
		return out, len(out.stores) <= maxArrayStores
	}
	n := 0
	for n < len(a.stores) && n < len(b.stores) && a.stores[n] == b.stores[n] {
		n++
	}
	out := &arrayState{clobbered: a.clobbered, base: a.base, stores: slices.Clone(a.stores[:n])}
	if a.tab == b.tab {
		out.tab = a.tab
	}
	for _, s := range a.stores[n:] {
		out.stores = append(out.stores, &arrayStore{off: s.off, upTo: s.upTo, guard: and(cond, s.guard), val: s.val})
	}
	nc := not(cond)
	for _, s := range b.stores[n:] {
		out.stores = append(out.stores, &arrayStore{off: s.off, upTo: s.upTo, guard: and(nc, s.guard), val: s.val})
	}
	return out, len(out.stores) <= maxArrayStores
}

// arrayKey returns the storage key of the array an element reference is
// to.
func (ev *evaluator) arrayKey(ix *apt.Index) (string, bool) {
	if bi, path, isEl := elementOf(ix.Base); isEl {
		k, ok := ev.arrayKey(bi)
		if !ok {
			return "", false
		}
		return k + "%" + path + ix.Name, true
	}
	if ix.Base != nil {
		k, ok := ev.refKey(ix.Base)
		if !ok {
			return "", false
		}
		return k + "%" + ix.Name, true
	}
	if ev.paramName(ix.Name) != "" {
		return "", false
	}
	return ev.key(ix.Name), true
}

// readOffsetByRank is readOffset at a point for an element stored under
// conditions on the rank alone, more than maxAlts of them (a loop over
// all the chunks storing each neighbour of the process's own chunk under
// IF (chunk == rank+1)): each rank takes the newest store whose offset
// and guard hold there, and the ranks' values are regrouped by rankAlts.
// False where an offset is not a number, a guard or value depends on more
// than the rank, or some rank's element is not known.
func (ev *evaluator) readOffsetByRank(st *arrayState, o symbolic.Expr) ([]Alt, bool) {
	np, ok := ev.values[Size]
	if _, fixed := ev.values[Rank]; !ok || fixed || np < 1 || np > maxTabulatedP {
		return nil, false
	}
	at, ok := o.Int64()
	if !ok {
		return nil, false
	}
	// Reads of one element of one state of the array (a neighbour tested
	// before every exchange) tabulate it once.
	memo := rankRead{st, len(st.stores), at}
	if m, ok := ev.rankReads[memo]; ok {
		return m, m != nil
	}
	alts, ok := ev.tabulateElement(st, at, np)
	if !ok {
		alts = nil
	}
	ev.rankReads[memo] = alts
	return alts, ok
}

// rankRead identifies a read of readOffsetByRank: the key holds the array
// state, so its address is not reused while the memo lives.
type rankRead struct {
	st  *arrayState
	n   int
	off int64
}

// tabulateElement is readOffsetByRank without its memo.
func (ev *evaluator) tabulateElement(st *arrayState, at, np int64) ([]Alt, bool) {
	everyRank := make([]bool, np)
	for r := range everyRank {
		everyRank[r] = true
	}
	ranksOf := func(f counting.Formula) ([]bool, bool) {
		if f == nil {
			return everyRank, true
		}
		if !onlyRank(f) {
			return nil, false
		}
		return ev.rankSet(f, np)
	}
	claimed := make([]bool, np)
	left := np
	var alts []Alt
	var sets [][]bool
	// take gives the unclaimed ranks in sel the alternatives of v.
	take := func(sel []bool, v Value) bool {
		var here []bool
		for r, h := range sel {
			if h && !claimed[r] {
				if here == nil {
					here = make([]bool, np)
				}
				here[r] = true
			}
		}
		if here == nil {
			return true
		}
		if !v.IsKnown() {
			return false
		}
		for _, a := range v.Alts {
			g, ok := ranksOf(a.Guard)
			if !ok {
				return false
			}
			set := make([]bool, np)
			for r, h := range here {
				if h && g[r] {
					set[r], claimed[r] = true, true
					left--
				}
			}
			// The guard is the ranks' (rankAltsOn makes it of set): the
			// value's own may hold at ranks a newer store took.
			alts, sets = append(alts, Alt{E: a.E}), append(sets, set)
		}
		return true
	}
	for i := len(st.stores) - 1; i >= 0 && left > 0; i-- {
		s := st.stores[i]
		from, ok := s.off.Int64()
		if !ok {
			return nil, false
		}
		to := from
		if s.upTo != nil {
			if to, ok = s.upTo.Int64(); !ok {
				return nil, false
			}
		}
		if at < from || at > to {
			continue
		}
		sel, ok := ranksOf(s.guard)
		if !ok || !take(sel, atOffset(s.val, symbolic.Int(at))) {
			return nil, false
		}
	}
	if left > 0 {
		switch {
		case st.base != nil:
			if !take(everyRank, *st.base) {
				return nil, false
			}
		case st.clobbered:
			return nil, false
		}
		// Elsewhere the element is undefined: no rank may read it.
	}
	if len(alts) == 0 {
		return nil, false
	}
	return ev.rankAltsOn(alts, sets, np), true
}

// mentionsProbe reports whether v mentions a symbol of a recurrence probe
// (control.go), which stands for a value that changes per iteration.
func mentionsProbe(v Value) bool {
	for _, a := range v.Alts {
		for _, s := range a.E.Symbols() {
			if strings.HasPrefix(s, "probe#") {
				return true
			}
		}
	}
	return false
}
