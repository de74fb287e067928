package symeval

import (
	"strconv"
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

// slotInit is the declaration whose initial value the storage at key k
// holds, d being the current routine's declaration of it: d where it has
// one, else, for a COMMON member, the declaration of the same member that
// a DATA statement or BLOCK DATA in another program unit initialises (a
// COMMON block's storage is one for the run, whichever unit names it).
// The other unit's initial values must be constants, and an array's
// declared the same there.
func (ev *evaluator) slotInit(k string, d *apt.Var) *apt.Var {
	if d == nil || len(d.Init) > 0 {
		return d
	}
	if o := ev.initialArrays[k]; o != nil && d.IsArray() {
		// A dummy argument (or a pointer) naming an initialised array
		// of its caller or of a module (`integer :: dims(2) = 0` handed
		// to a routine that calls MPI_DIMS_CREATE): the actual's
		// elements, in array element order as the dummy sees them.
		return o
	}
	if !strings.HasPrefix(k, "/") {
		return d
	}
	if ev.commonInits == nil {
		ev.commonInits = commonInits(ev.prog)
	}
	o := ev.commonInits[k]
	if o == nil || o.IsArray() != d.IsArray() || len(o.Dims) != len(d.Dims) {
		return d
	}
	for i := range o.Dims {
		if apt.FormatExpr(o.Dims[i].Lo) != apt.FormatExpr(d.Dims[i].Lo) || apt.FormatExpr(o.Dims[i].Hi) != apt.FormatExpr(d.Dims[i].Hi) {
			return d
		}
	}
	return o
}

// commonInits maps the storage key of each COMMON member some program
// unit initialises with constants to that unit's declaration of it.
func commonInits(prog *apt.Program) map[string]*apt.Var {
	out := map[string]*apt.Var{}
	for _, r := range allRoutines(prog) {
		if r.Scope == nil {
			continue
		}
		for _, c := range r.Scope.Commons {
			for i, name := range c.Vars {
				v := r.Scope.Lookup(name)
				if v == nil || len(v.Init) == 0 {
					continue
				}
				// DATA values may name the unit's constants (DATA N
				// /NMAX/): their values stand in for them.
				init := make([]apt.Expr, len(v.Init))
				for j, e := range v.Init {
					init[j] = inlineConstants(prog, r, e, 0)
				}
				k := "/" + c.Name + "/#" + strconv.Itoa(i)
				if _, seen := out[k]; !seen && constantInit(init) {
					c := *v
					c.Init = init
					out[k] = &c
				}
			}
		}
	}
	return out
}

// constantInit reports whether an initialiser names no variable or
// constant, so that it means the same in any unit.
func constantInit(init []apt.Expr) bool {
	for _, e := range init {
		named := false
		apt.InspectExpr(e, func(x apt.Expr) bool {
			switch x.(type) {
			case *apt.Name, *apt.Index, *apt.Component, *apt.FuncCall:
				named = true
			}
			return !named
		})
		if named {
			return false
		}
	}
	return true
}

// inlineConstants is e with the named constants of unit r replaced by
// their values, themselves so replaced (to a depth that no chain of
// constants a program writes reaches).
func inlineConstants(prog *apt.Program, r *apt.Routine, e apt.Expr, depth int) apt.Expr {
	if depth > 8 {
		return e
	}
	return substNames(e, func(nm *apt.Name) apt.Expr {
		if d := prog.Resolve(r, nm.Name); d != nil && d.Param != nil && !d.IsArray() {
			return inlineConstants(prog, r, d.Param, depth+1)
		}
		return nm
	})
}
