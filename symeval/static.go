package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Static storage read before it is assigned. A Fortran module, COMMON or
// SAVE variable (apt.Program.Static) holds zero bytes until the program
// assigns it, as compilers leave such storage: an integer or real 0, a
// logical .FALSE., a character variable all NUL characters (which compare
// unequal to blanks). The standard leaves it undefined; a program that
// reads it relies on what gfortran and the others do, and the run gets
// that. The value is found by storage key, so that a dummy argument
// associated with such a variable reads it too; a note says where the
// evaluation took it so.

// noteStatic records whether the storage key k, variable v's, is static.
func (ev *evaluator) noteStatic(k string, v *apt.Var, static bool) {
	if ev.statics == nil {
		ev.statics = map[string]*apt.Var{}
	}
	if !static {
		v = nil
	}
	ev.statics[k] = v
}

// staticZero is the value static storage at key k holds before any
// assignment, false when k is not a Fortran scalar of static storage.
func (ev *evaluator) staticZero(k string) (Value, bool) {
	v, ok := ev.zeroOf(k)
	if !ok || ev.bufferLoad > 0 {
		// (A broadcast's buffer, read for the root's value: the
		// others' is overwritten, not used.)
		return v, ok
	}
	decl := ev.statics[k]
	ev.res.Assumed = appendAssumption(ev.res.Assumed, Assumption{Pos: decl.Pos,
		What: decl.Name + " (" + decl.Pos.String() + ") is read before the program assigns it: taken as zero, as compilers leave static storage"})
	return v, true
}

// zeroOf is staticZero without its note: the value alone.
func (ev *evaluator) zeroOf(k string) (Value, bool) {
	decl := ev.statics[k]
	if decl == nil || decl.IsArray() || decl.Pointer || decl.Allocatable || decl.Procedure || len(decl.Init) > 0 ||
		ev.prog.Notation() != apt.Fortran {
		return Value{}, false
	}
	var v Value
	switch decl.Type.Base {
	case apt.TypeInteger, apt.TypeReal, apt.TypeLogical:
		v = Known(symbolic.Int(0))
	case apt.TypeCharacter:
		if decl.Type.Len == nil {
			s := "\x00"
			v = Value{str: &s}
			break
		}
		n, ok := ev.value(decl.Type.Len).Single()
		if !ok {
			return Value{}, false
		}
		l, ok := n.Int64()
		if !ok || l < 0 || l > maxInputBytes {
			return Value{}, false
		}
		s := strings.Repeat("\x00", int(l))
		v = Value{str: &s}
	default:
		return Value{}, false
	}
	return v, true
}

// savedLocal reports whether v, a local of a Fortran procedure, keeps its
// value from one call to the next: declared SAVE, or given an initial
// value, which implies SAVE (Fortran 2008 5.3.16). Such a variable is one
// storage for the whole run, not a new one at each call: a run-once flag
// (`logical, save :: first = .true.`) set at the first call stays set at
// the others. A dummy argument, a constant or a name MPI defines is
// never one.
func (ev *evaluator) savedLocal(v *apt.Var) bool {
	if ev.prog.Notation() != apt.Fortran || v.Dummy || v.Param != nil || v.Predefined != "" {
		return false
	}
	return v.Save || len(v.Init) > 0
}
