package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// maxRealTable bounds the REAL arrays whose elements the evaluation
// follows. INTEGER and LOGICAL arrays are followed whatever their size
// (their elements are counts, bounds and flags); a REAL array mostly holds
// the program's data, whose values no count depends on and which would cost
// the evaluation a value per element. A few set-up values packed into a
// REAL buffer for a broadcast are the other use (Sweep3D's data(4)
// carrying its convergence test's epsi): those are followed. The bound is
// a buffer's size, not a data table's: following a computed table of 64
// values through a loop that tests them turns its branches on the data
// into runs the evaluation's budget cannot finish (TestLongRegisters).
const maxRealTable = 16

// realTable returns the storage key of the array ix is an element of when
// that is a REAL array the evaluation follows: a variable (not a component)
// whose storage is declared, in the routine that owns it, with constant
// extents holding at most maxRealTable elements. The storage's declaration
// decides, not the view's: a dummy argument of a small table is followed,
// an assumed-size view of it too.
func (ev *evaluator) realTable(ix *apt.Index) (string, bool) {
	if ix.Type.Base != apt.TypeReal || ix.Base != nil || ev.paramName(ix.Name) != "" {
		return "", false
	}
	key := ev.key(ix.Name)
	return key, ev.realTableKey(key)
}

// realTableKey reports whether the storage at key is a small REAL table.
func (ev *evaluator) realTableKey(key string) bool {
	d, r := ev.ownerOfKey(key)
	if d == nil || d.Type.Base != apt.TypeReal || !d.IsArray() || d.Allocatable || d.Pointer || d.Dummy {
		return false
	}
	if small, ok := ev.realTables[d]; ok {
		return small
	}
	small := ev.constantElements(d, r) <= maxRealTable
	ev.realTables[d] = small
	return small
}

// ownerOfKey is declOfKey with the routine whose declaration it is, in
// which the declaration's named constants are resolved.
func (ev *evaluator) ownerOfKey(key string) (*apt.Var, *apt.Routine) {
	for i := len(ev.frames) - 1; i >= 0; i-- {
		fr := ev.frames[i]
		if name, ok := strings.CutPrefix(key, fr.id+"."); ok && !strings.ContainsAny(name, ".%#") {
			return ev.prog.Resolve(fr.routine, name), fr.routine
		}
	}
	if strings.HasPrefix(key, "/") {
		if name := ev.nameOfKey(key); !isDigits(name) {
			return ev.prog.Resolve(ev.frame().routine, name), ev.frame().routine
		}
	}
	return nil, nil
}

// constantElements is the number of elements of an array declared with
// constant extents (literals or named constants), or a number past every
// bound when an extent is not constant.
func (ev *evaluator) constantElements(d *apt.Var, r *apt.Routine) int64 {
	const unknown = 1 << 62
	n := int64(1)
	for _, dim := range d.Dims {
		lo, hi := int64(1), int64(0)
		if dim.Lo != nil {
			v, ok := ev.prog.IntConstant(r, dim.Lo)
			if !ok {
				return unknown
			}
			lo = v
		}
		v, ok := ev.prog.IntConstant(r, dim.Hi)
		if !ok || dim.Deferred {
			return unknown
		}
		hi = v
		if hi < lo {
			return 0
		}
		if n *= hi - lo + 1; n > maxRealTable {
			return unknown
		}
	}
	return n
}
