package symeval

import (
	"github.com/mkvet/mkvet/frontend/apt"
)

// REAL arrays filled whole with one number. The evaluation does not follow
// the program's REAL data (array.go), but a set-up that clears an array
// (vdelt = 0 for a static problem, a coefficient that only a time-dependent
// run sets) and then tests its elements (IF (vdelt(g) /= 0)) decides a
// branch the run takes the same way every time: the test is on a value the
// set-up fixed, not on data. So a whole-array assignment of a number to a
// REAL array makes its state "every element is that number" (a base and no
// stores, marked data), which element reads give; any other store to the
// array clobbers the state (untrackedArray, the loops and calls that clobber
// what they store), after which its elements are unknown as before.
//
// Only an array's own storage is filled so: not a dummy (an explicit-shape
// dummy may cover part of its actual), a pointer, a TARGET or an EQUIVALENCE
// item (stores through another name), or a COMMON member (another unit may
// lay the block out otherwise). Reading through any view of it is exact: every element holds
// the number.

// uniformDataKey returns the storage key of a whole REAL array t whose
// state a whole-array assignment of a number may set.
func (ev *evaluator) uniformDataKey(t *apt.Name) (string, bool) {
	if !t.Array || t.Type.Base != apt.TypeReal || ev.paramName(t.Name) != "" {
		return "", false
	}
	d := ev.prog.Resolve(ev.frame().routine, t.Name)
	if d == nil || !d.IsArray() || d.Dummy || d.Pointer || d.Target || d.InCommon || ev.equivalenced(t.Name) {
		return "", false
	}
	if ev.realTableKey(ev.key(t.Name)) {
		return "", false // a small table: followed element by element
	}
	return ev.key(t.Name), true
}

// equivalenced reports whether an EQUIVALENCE statement of the program
// names name: of any unit, since the variable may be a module's or a
// host's (a name another unit uses for something else only keeps that
// one's fills unfollowed).
func (ev *evaluator) equivalenced(name string) bool {
	if ev.equivNames == nil {
		ev.equivNames = map[string]bool{}
		var add func(rs []*apt.Routine)
		add = func(rs []*apt.Routine) {
			for _, r := range rs {
				for _, n := range r.Scope.Equivalenced {
					ev.equivNames[n] = true
				}
				add(r.Contains)
			}
		}
		add(ev.prog.Routines)
	}
	return ev.equivNames[name]
}

// assignUniformData evaluates an assignment to a whole REAL array the
// evaluation may follow as one number (uniformDataKey); it reports false
// for any other target. A scalar value that is a number sets every
// element; anything else only runs the calls it makes and clobbers a state
// the array had.
func (ev *evaluator) assignUniformData(s *apt.Stmt) bool {
	nm, ok := s.Target.(*apt.Name)
	if !ok || s.Kind != apt.StmtAssign {
		return false
	}
	key, ok := ev.uniformDataKey(nm)
	if !ok {
		return false
	}
	if s.Mask == nil && ev.where == nil && ev.dataWhere == 0 && scalarOperand(s.Value) {
		if e, one := ev.value(s.Value).Single(); one {
			if _, num := e.Const(); num {
				b := Known(e)
				ev.env.set(key, Value{arr: &arrayState{base: &b, data: true}})
				return true
			}
		}
	} else {
		ev.evalCalls(s.Value)
		if s.Mask != nil {
			ev.evalCalls(s.Mask)
		}
	}
	if v, had := ev.env.lookup(key); had && v.arr != nil {
		ev.clobber(key)
	}
	return true
}

// scalarOperand reports whether e is a literal or a scalar variable or
// named constant, optionally negated: a value worth evaluating for a fill.
func scalarOperand(e apt.Expr) bool {
	switch x := e.(type) {
	case *apt.Const:
		return true
	case *apt.Name:
		return !x.Array
	case *apt.Unary:
		return scalarOperand(x.X)
	}
	return false
}

// uniformDataValue is the number every element of the REAL array ix is an
// element of holds, where it holds one (assignUniformData, no store
// since): whatever the subscripts, the element holds it.
func (ev *evaluator) uniformDataValue(ix *apt.Index) (Value, bool) {
	if ix.Type.Base != apt.TypeReal || ix.Base != nil || hasSection(ix) {
		return Value{}, false
	}
	k, ok := ev.arrayKey(ix)
	if !ok {
		return Value{}, false
	}
	v, had := ev.env.lookup(k)
	if !had || v.arr == nil || !v.arr.data || v.arr.clobbered || len(v.arr.stores) > 0 || v.arr.base == nil {
		return Value{}, false
	}
	return *v.arr.base, true
}
