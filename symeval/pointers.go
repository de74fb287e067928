package symeval

import (
	"slices"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
)

// sameArray decides a comparison of two whole arrays: in the C frontend's
// APT a pointer is an array name, and `if (y == x)` (a dot product that
// takes the shorter path when both arguments are one vector) compares
// addresses. Two names are the same array where they are bound to one
// storage (the same variable, or dummies whose actuals were the same
// array); they are different arrays where each names storage of its own
// that no pointer assignment anywhere in the program can redirect. Any
// other pair (a dummy bound to an element, `a + 1`; a pointer the program
// assigns) is left to the caller, which treats the test as data.
func (ev *evaluator) sameArray(x *apt.Binary) (counting.Formula, bool) {
	if x.Op != apt.OpEq && x.Op != apt.OpNe {
		return nil, false
	}
	a, ok1 := x.X.(*apt.Name)
	b, ok2 := x.Y.(*apt.Name)
	if !ok1 || !ok2 {
		return nil, false
	}
	ka, definiteA, okA := ev.arrayIdentity(a.Name)
	kb, definiteB, okB := ev.arrayIdentity(b.Name)
	if !okA || !okB {
		return nil, false
	}
	same := ka == kb
	if !same && (!definiteA || !definiteB) {
		return nil, false
	}
	return truth(same == (x.Op == apt.OpEq)), true
}

// arrayIdentity returns the storage key of the whole array name in the
// current routine; ok is false where the name is no array or an assigned
// pointer, definite false where the storage may be another name's (a
// dummy not bound to a whole array, or bound to a pointer the program
// assigns).
func (ev *evaluator) arrayIdentity(name string) (key string, definite, ok bool) {
	fr := ev.frame()
	d := ev.prog.Resolve(fr.routine, name)
	if d == nil || !d.IsArray() || d.Param != nil || ev.repointed()[d] {
		return "", false, false
	}
	definite = true
	if slices.Contains(fr.routine.Formals, name) {
		_, bound := fr.alias[name]
		definite = bound && !fr.sharedStorage[name]
	}
	return ev.key(name), definite, true
}

// repointed returns the array declarations the program assigns as a
// whole (a C pointer set to another array, a Fortran pointer associated)
// or allocates as objects pointers share: their names may come to refer
// to another's storage.
func (ev *evaluator) repointed() map[*apt.Var]bool {
	if ev.repointedDecls != nil {
		return ev.repointedDecls
	}
	ev.repointedDecls = map[*apt.Var]bool{}
	for _, r := range ev.prog.Routines {
		apt.Inspect(r, func(n apt.Node) bool {
			blk, ok := n.(*apt.Block)
			if !ok {
				return true
			}
			for _, s := range blk.Stmts {
				target := s.Target
				if s.Kind == apt.StmtAllocate && s.Heap && len(s.Args) > 0 {
					target = s.Args[0]
				} else if s.Kind != apt.StmtAssign && s.Kind != apt.StmtPointerAssign {
					continue
				}
				if nm, ok := target.(*apt.Name); ok {
					if d := ev.prog.Resolve(r, nm.Name); d != nil && d.IsArray() {
						ev.repointedDecls[d] = true
					}
				}
			}
			return true
		})
	}
	return ev.repointedDecls
}
