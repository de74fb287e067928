package symeval

import (
	"fmt"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// First touch (issue 47). The first store to a page the process has not
// written traps into the kernel, which maps a page and clears it: ten
// times the store itself on current x86-64 machines (membench's touch
// kernel). A program pays it once per array, in the loop that first
// writes the array after its ALLOCATE, or for static storage (COMMON,
// module variables, the main program's arrays) after the program starts:
// the loop that zeroes a freshly allocated field, which has nothing else
// to cost. The evaluation follows, per array, whether the run has written
// it; the first innermost loop that stores to a fresh array carries the
// array's bytes (Access.Fresh), which the memory model prices at the
// machine's first-touch rate (model.Memory.Touch).
//
// The rules: an array's state is kept by its declaration where its
// storage belongs to one call (an allocatable local array allocated on
// every call reuses the block the C library's allocator freed at the last
// return), by its storage key otherwise; a dummy argument stands for its
// actual's array. Only the first ALLOCATE of an array gives fresh memory:
// after a DEALLOCATE the allocator hands the freed block back. A whole-array
// assignment, a READ, a message received into the array or a routine
// outside the program writes it too (unpriced: no loop of the program
// moves it); a store of one element outside loops writes one page and
// leaves the rest fresh. Every element of an array of derived type
// shares one state.

// freshKey is the key under which the state keeps whether the array with
// identity id is fresh: Known(bytes) while it is, touchedMark after.
func freshKey(id string) string { return "\x00fresh\x00" + id }

// touchedMark marks an array the run has written.
var touchedMark = Known(symbolic.Int(-1))

// freshID returns the first-touch identity of the array a reference,
// a section or an actual argument names, false when it names none.
func (ev *evaluator) freshID(e apt.Expr) (string, bool) {
	var name string
	switch x := e.(type) {
	case *apt.Name:
		name = x.Name
	case *apt.Index:
		if x.Base != nil {
			k, ok := ev.arrayKey(x)
			return k, ok
		}
		name = x.Name
	case *apt.Component:
		k, ok := ev.refKey(x)
		return k, ok
	default:
		return "", false
	}
	fr := ev.frame()
	if k, ok := fr.storage[name]; ok {
		return k, true
	}
	d := ev.prog.Resolve(fr.routine, name)
	if d == nil || !d.IsArray() || d.Param != nil {
		return "", false
	}
	key := ev.key(name)
	if strings.HasPrefix(key, fr.id+".") {
		// Storage of this call: the declaration is the array.
		return fmt.Sprintf("v%p", d), true
	}
	return key, true
}

// freshBytes returns the bytes of the array name where the array with
// identity id has not been written yet, false where it has or where
// the evaluation cannot tell.
func (ev *evaluator) freshBytes(id string, x *apt.Index) (symbolic.Expr, bool) {
	if bytes, recorded, fresh := ev.freshState(id); recorded {
		return bytes, fresh
	}
	if !ev.staticArray(id, x) {
		return symbolic.Expr{}, false
	}
	return ev.arrayBytes(x)
}

// freshState reads the state's record of the array with identity id:
// recorded is false where there is none (never allocated, or static
// storage not yet written); fresh, with its bytes, where it has not been
// written since its allocation. A record with several values (an
// ALLOCATE in one arm of an IF) is not fresh.
func (ev *evaluator) freshState(id string) (bytes symbolic.Expr, recorded, fresh bool) {
	v, ok := ev.env.lookup(freshKey(id))
	if !ok {
		return symbolic.Expr{}, false, false
	}
	e, single := v.Single()
	if !single {
		return symbolic.Expr{}, true, false
	}
	if n, isInt := e.Int64(); isInt && n < 0 {
		return symbolic.Expr{}, true, false
	}
	return e, true, true
}

// staticArray reports whether id is the storage of an array of static
// storage the program has not assigned in its declaration: COMMON, a
// module's or host's variable, or the main program's array.
func (ev *evaluator) staticArray(id string, x *apt.Index) bool {
	if ev.prog.Notation() != apt.Fortran {
		return false
	}
	if d, ok := ev.statics[id]; ok {
		return d != nil && d.IsArray() && !d.Allocatable && !d.Pointer && len(d.Init) == 0
	}
	fr := ev.frame()
	if fr.routine.Kind != apt.KindProgram || x.Base != nil {
		return false
	}
	d := fr.routine.Scope.Lookup(x.Name)
	return d != nil && d.IsArray() && !d.Allocatable && !d.Pointer && len(d.Init) == 0
}

// allocateFresh notes the ALLOCATE of x with the extents dims: fresh
// memory where the array was never allocated, or never written since.
func (ev *evaluator) allocateFresh(x *apt.Index, dims []bound) {
	id, ok := ev.freshID(x)
	if !ok {
		return
	}
	if _, recorded, fresh := ev.freshState(id); recorded && !fresh {
		return // written since: the allocator hands the freed block back
	}
	size, ok := ev.elemBytes(x.Type)
	if !ok {
		return
	}
	n := symbolic.Int(size)
	for _, b := range dims {
		e, ok := b.ext.Single()
		if !ok {
			ev.env.set(freshKey(id), touchedMark) // a size no model can price
			return
		}
		n = n.Mul(symbolic.Max(e, symbolic.Int(0)))
	}
	ev.env.set(freshKey(id), Known(n))
}

// touch notes that the run writes the array e names in a way no loop of
// the program prices.
func (ev *evaluator) touch(e apt.Expr) {
	if id, ok := ev.freshID(e); ok {
		ev.env.set(freshKey(id), touchedMark)
	}
}

// firstTouch returns the accesses of the innermost loop l with the bytes
// of each array its statements write for the first time (Access.Fresh),
// and notes those arrays written; accs itself is not changed (the nest's
// accesses are shared by its contexts).
func (ev *evaluator) firstTouch(l *apt.Loop, accs []Access) []Access {
	out := accs
	copied := false
	collectRefs(l.Body, func(x *apt.Index, store bool) {
		if !store {
			return
		}
		id, ok := ev.freshID(x)
		if !ok {
			return
		}
		bytes, ok := ev.freshBytes(id, x)
		if !ok {
			return
		}
		for i := range out {
			if a := &out[i]; a.Store && a.Array == x.Name && a.Fresh == nil {
				if !copied {
					out, copied = append([]Access(nil), accs...), true
					a = &out[i]
				}
				a.Fresh = &bytes
				ev.env.set(freshKey(id), touchedMark)
				return
			}
		}
	})
	return out
}
