package symeval

import (
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Heap objects. A C program builds its data structures from malloc'd
// structs and arrays of pointers (a graph's nodes, each node's arcs), and
// reaches them through pointers that share them: what one pointer stores,
// every other sees. An allocation the frontend marks as a heap object
// (apt.Stmt.Heap) gives its target the object's address, an integer the
// evaluation follows like any other (pointers compare, are stored in
// arrays, passed and returned); a component or element reached through a
// pointer whose value is such an address is the object's, stored under
// the object's own key ("&3%indegree", the elements of "&4"), which every
// pointer to it resolves to. Only where the address is known is the
// object followed: an allocation in a loop the evaluation does not run
// (whose every iteration would be another object) gives no address, and
// a pointer with several possible values is not dereferenced; what is
// reached through it then stays unknown, as before.

// heapBase is the first address and heapStride the space between two
// objects' addresses: far from any count, so an address is never taken for
// one, and room for an object of 64 GiB (an array of a million structures
// of 24 bytes is 24 MB: within 1 MiB, its addresses past the first 43,690
// elements read as the next object's, and were refused). Storages of
// numbers start above the 2^22 objects this leaves (addrBase).
const (
	heapBase   int64 = 1 << 44
	heapStride int64 = 1 << 36
)

// heapObj is one allocated object: its storage key.
type heapObj struct {
	key string
	// elems marks an array of structures (malloc(n * sizeof *p), a
	// std::vector's storage): its fields are arrays over the elements,
	// p[k].f is element k of the field's array (structarr.go).
	elems bool
	// n is how many elements the allocation made, where the evaluation
	// knows it: the extent a run of the program's code holds the
	// fields' arrays with.
	n Value
}

// allocHeap evaluates a heap allocation target(0:n-1): a new object whose
// address target receives, where the allocation is made once per walk of
// the enclosing code (no loop around it walked symbolically). A
// reallocation (from, the pointer realloc is given) keeps the object, its
// elements and its address. Objects are unbounded: the extent is the
// program's business, the elements stored are the evaluation's.
func (ev *evaluator) allocHeap(a, from apt.Expr) {
	ix, ok := a.(*apt.Index)
	if !ok {
		return
	}
	if from != nil {
		if v := ev.value(from); v.IsKnown() {
			if _, ok := ev.objectOf(v); ok {
				ev.store(ix.Name, v)
				return
			}
		}
	}
	if len(ev.cur.vars) > 0 || ev.probing > 0 {
		// Every iteration of a loop the evaluation does not run would
		// allocate an object of its own: no one address.
		ev.store(ix.Name, unknownValue(ix.Name, "the address "+ix.Name+" receives from an allocation in a loop", false))
		return
	}
	id := int64(len(ev.heap))
	addr := heapBase + id*heapStride
	if ev.heap == nil {
		ev.heap = map[int64]*heapObj{}
	}
	obj := &heapObj{key: "&" + strconv.FormatInt(id, 10), elems: ev.manyElems(ix)}
	if sec, ok := ix.Subs[0].(*apt.Section); ok && sec.Hi != nil {
		lo := Known(symbolic.Int(0))
		if sec.Lo != nil {
			lo = ev.closedInt(ev.value(sec.Lo), ix.Pos)
		}
		hi := ev.closedInt(ev.value(sec.Hi), ix.Pos)
		obj.n, _ = lift2(lo, hi, extent)
	}
	ev.heap[addr] = obj
	ev.store(ix.Name, Known(symbolic.Int(addr)))
}

// objectOf returns the heap object a value is the address of. A pointer
// that is null on some ranks (those whose branch did not allocate) and
// the object's address on the others is dereferenced where it is not
// null: it is the object's address there (nonNull).
func (ev *evaluator) objectOf(v Value) (*heapObj, bool) {
	if len(ev.heap) == 0 {
		return nil, false
	}
	e, ok := nonNull(ev.pruneRanks(v)).Single()
	if !ok {
		return nil, false
	}
	c, ok := e.Int64()
	if !ok || c < heapBase {
		return nil, false
	}
	o, ok := ev.heap[c]
	return o, ok
}

// nonNull drops the alternatives of a pointer's value that are the null
// address: a program reads and writes through the pointer only where it
// holds an address (one that did not would stop).
func nonNull(v Value) Value {
	if len(v.Alts) < 2 {
		return v
	}
	var out []Alt
	for _, a := range v.Alts {
		if c, isc := a.E.Int64(); isc && c == 0 {
			continue
		}
		out = append(out, a)
	}
	if len(out) == 0 || len(out) == len(v.Alts) {
		return v
	}
	if len(out) == 1 {
		out[0].Guard = nil
	}
	v.Alts = out
	return v
}

// objectKey returns the key of the heap object the pointer expression e
// points to, when its value is an object's address.
func (ev *evaluator) objectKey(e apt.Expr) (string, bool) {
	if len(ev.heap) == 0 {
		return "", false
	}
	switch e.(type) {
	case *apt.Name, *apt.Component, *apt.Index:
	default:
		return "", false
	}
	if nm, ok := e.(*apt.Name); ok {
		// A pointer variable: its value as stored (an array's name is
		// no value of its own).
		if ev.paramName(nm.Name) != "" {
			return "", false
		}
		v, ok := ev.env.lookup(ev.key(nm.Name))
		if !ok {
			return "", false
		}
		o, ok := ev.objectOf(v)
		if !ok {
			return "", false
		}
		return o.key, true
	}
	o, ok := ev.objectOf(ev.value(e))
	if !ok {
		return "", false
	}
	return o.key, true
}

// heapElement resolves an element reference through a pointer: ix is
// p(k) for a pointer variable p, or x%f(k) for a pointer component f, whose
// value is the address of an array object.
func (ev *evaluator) heapElement(ix *apt.Index) (key string, off Value, ok bool) {
	if len(ev.heap) == 0 || len(ix.Subs) != 1 {
		return "", Value{}, false
	}
	var ptr apt.Expr = &apt.Name{Name: ix.Name}
	if ix.Base != nil {
		ptr = &apt.Component{Base: ix.Base, Field: ix.Name}
	}
	k, found := ev.objectKey(ptr)
	if !found {
		return "", Value{}, false
	}
	if _, isSec := ix.Subs[0].(*apt.Section); isSec {
		return k, Value{}, false
	}
	off = ev.closedInt(ev.value(ix.Subs[0]), ix.Pos)
	return k, off, off.IsKnown()
}

// allocatesHeap reports whether nodes allocate heap objects, themselves or
// in the routines they call: a loop that does makes an object per
// iteration, which only running it iteration by iteration follows.
func (ev *evaluator) allocatesHeap(nodes []apt.Node) bool {
	found := false
	var visit func(nodes []apt.Node)
	visit = func(nodes []apt.Node) {
		for _, n := range nodes {
			apt.Inspect(n, func(m apt.Node) bool {
				if found {
					return false
				}
				switch x := m.(type) {
				case *apt.Block:
					for _, s := range x.Stmts {
						if s.Kind == apt.StmtAllocate && s.Heap {
							found = true
							return false
						}
						ev.calleesOf(s.Value, func(r *apt.Routine) {
							if !found && ev.routineHeap(r) {
								found = true
							}
						})
					}
				case *apt.Call:
					for _, r := range ev.callees(x.Callee) {
						found = found || ev.routineHeap(r)
					}
				}
				return !found
			})
		}
	}
	visit(nodes)
	return found
}

// routineHeap memoizes allocatesHeap per routine.
func (ev *evaluator) routineHeap(r *apt.Routine) bool {
	if v, ok := ev.heapRoutines[r]; ok {
		return v
	}
	if ev.heapRoutines == nil {
		ev.heapRoutines = map[*apt.Routine]bool{}
	}
	ev.heapRoutines[r] = false // a recursive call adds nothing
	v := ev.allocatesHeap(r.Body)
	ev.heapRoutines[r] = v
	return v
}

// calleesOf calls f for each routine of the program e calls.
func (ev *evaluator) calleesOf(e apt.Expr, f func(*apt.Routine)) {
	apt.InspectExpr(e, func(x apt.Expr) bool {
		if c, ok := x.(*apt.FuncCall); ok && !c.Intrinsic {
			if r := ev.routineNamed(c.Name); r != nil {
				f(r)
			}
		}
		return true
	})
}

// heapProgram reports (once) whether any routine of the program allocates
// heap objects: only then are loops checked for allocations.
func (ev *evaluator) heapProgram() bool {
	if ev.hasHeap == 0 {
		ev.hasHeap = -1
		for _, r := range allRoutines(ev.prog) {
			if ev.routineHeap(r) {
				ev.hasHeap = 1
				break
			}
		}
	}
	return ev.hasHeap > 0
}

// noteHeapWrite records a store to the heap object (or an object's
// component) at key while a loop's body is walked for all its iterations
// at once. The body reaches objects through pointers, which the loop's
// syntactic summary (modified) does not see: after the loop, what such a
// walk stored at offsets in the loop's own variables, or left as one
// iteration's value, is not the objects' (forgetPointerWrites).
func (ev *evaluator) noteHeapWrite(key string) {
	if strings.HasPrefix(key, "&") {
		ev.noteWrite(key)
	}
}

// noteWrite records a store to the storage at key that the code walked
// reaches through a pointer (forgetPointerWrites).
func (ev *evaluator) noteWrite(key string) {
	if ev.ptrWrites != nil {
		ev.ptrWrites[key] = true
	}
}

// forgetPointerWrites makes what a loop walked for all its iterations at
// once stored through pointers (written: heap objects, other arrays'
// storages) unknown, as the loop at pos changed it, and gives the log back
// to the enclosing loop's walk (outer), which the keys are stores of too.
func (ev *evaluator) forgetPointerWrites(outer, written map[string]bool, pos apt.Pos) {
	for k := range written {
		if outer != nil {
			outer[k] = true
		}
		if v, ok := ev.env.lookup(k); ok && v.arr != nil {
			ev.clobber(k)
			continue
		}
		ev.env.set(k, ev.changedBy(k, "the value of %s as the loop at "+pos.String()+" changes it", true))
	}
	ev.ptrWrites = outer
}

// objectAlts returns the heap objects the pointer expression e points to
// under each guard, where its value has several alternatives (an object
// allocated on one path on some ranks, another on the others) and each is
// an object's address.
func (ev *evaluator) objectAlts(e apt.Expr) ([]Alt, []string, bool) {
	if len(ev.heap) == 0 {
		return nil, nil, false
	}
	switch e.(type) {
	case *apt.Name, *apt.Component, *apt.Index:
	default:
		return nil, nil, false
	}
	v := ev.value(e)
	if !v.IsKnown() || len(v.Alts) < 2 {
		return nil, nil, false
	}
	var keys []string
	for _, a := range v.Alts {
		o, ok := ev.objectOf(Known(a.E))
		if !ok {
			return nil, nil, false
		}
		keys = append(keys, o.key)
	}
	return v.Alts, keys, true
}

// objectsField reads the component field of the object the pointer base
// points to where it points to one of several (objectAlts): each object's
// value under its guard.
func (ev *evaluator) objectsField(base apt.Expr, field string) (Value, bool) {
	alts, keys, ok := ev.objectAlts(base)
	if !ok {
		return Value{}, false
	}
	var out []Alt
	for i, a := range alts {
		v, ok := ev.env.lookup(keys[i] + "%" + field)
		if !ok || !v.IsKnown() {
			return Value{}, false
		}
		for _, b := range v.Alts {
			out = append(out, Alt{Guard: and(a.Guard, b.Guard), E: b.E})
		}
	}
	if len(out) > maxAlts {
		return Value{}, false
	}
	return ev.pruneRanks(Value{Alts: mergeAlts(out)}), true
}

// storeObjectsField stores v to the component field of the object base
// points to where it points to one of several: each object's component is
// v where its guard holds and keeps its value where not; unknown where
// either is.
func (ev *evaluator) storeObjectsField(base apt.Expr, field string, v Value) bool {
	alts, keys, ok := ev.objectAlts(base)
	if !ok {
		return false
	}
	for i, a := range alts {
		k := keys[i] + "%" + field
		old, had := ev.env.lookup(k)
		if !v.IsKnown() || !had || !old.IsKnown() {
			ev.env.set(k, unknownValue(field, "the field "+field+" stored through a pointer to one of several objects", v.unk != nil && v.unk.real))
			continue
		}
		var out []Alt
		for _, b := range v.Alts {
			out = append(out, Alt{Guard: and(a.Guard, b.Guard), E: b.E})
		}
		for _, b := range old.Alts {
			out = append(out, Alt{Guard: and(not(a.Guard), b.Guard), E: b.E})
		}
		ev.env.set(k, ev.pruneRanks(Value{Alts: mergeAlts(out)}))
	}
	return true
}

// heapKeyID returns the id of the heap object whose storage key k is
// ("&3", the elements of object 3, or "&3%next", one of its fields).
func heapKeyID(k string) (int64, bool) {
	rest, ok := strings.CutPrefix(k, "&")
	if !ok {
		return 0, false
	}
	digits, _, _ := strings.Cut(rest, "%")
	id, err := strconv.ParseInt(digits, 10, 64)
	return id, err == nil && id >= 0
}
