package fortran

import (
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Generic interfaces. A CALL of a generic name calls the specific
// procedure whose dummy arguments its actual arguments match, by type, kind
// and rank (Fortran 2008 12.5.5.2): the typer, which knows the actuals'
// types, names that specific in the call, so that every later stage sees an
// ordinary call. A call no specific matches keeps the generic's name (an
// external routine, reported as such).

// findGeneric returns the generic interface name visible from the routine
// being typed: declared in it, a host, or a module.
func (t *typer) findGeneric(name string) *apt.Generic {
	for r := t.r; r != nil; r = t.p.Host(r) {
		if r.Scope != nil {
			if g := r.Scope.FindGeneric(name); g != nil {
				return g
			}
		}
	}
	for _, r := range t.p.Routines {
		if r.Kind == apt.KindModule && r.Scope != nil {
			if g := r.Scope.FindGeneric(name); g != nil {
				return g
			}
		}
	}
	return nil
}

// resolveGeneric names in c the specific of the generic it calls.
func (t *typer) resolveGeneric(c *apt.Call) {
	g := t.findGeneric(c.Callee)
	if g == nil {
		return
	}
	// A routine of the generic's name is called directly, unless it is one
	// of the generic's specifics (F2008 12.4.3.4.1 lets them share a name).
	if t.p.Routine(c.Callee) != nil && !slices.Contains(g.Procs, c.Callee) {
		return
	}
	for _, name := range g.Procs {
		if r := t.p.Routine(name); r != nil && t.matches(r, c.Args) {
			c.Callee = r.Name
			return
		}
	}
}

// resolveGenericFunc names in f the specific function of the generic (or
// defined operator) it references, with the specific's result type; false
// where f names no generic or no specific matches.
func (t *typer) resolveGenericFunc(f *apt.FuncCall) bool {
	g := t.findGeneric(f.Name)
	if g == nil || t.p.Routine(f.Name) != nil && !slices.Contains(g.Procs, f.Name) {
		return false
	}
	for _, name := range g.Procs {
		r := t.p.Routine(name)
		if r == nil || r.Kind != apt.KindFunction || !t.matches(r, f.Args) {
			continue
		}
		f.Name, f.Intrinsic = r.Name, false
		if rv := r.Scope.Lookup(r.Result); rv != nil && rv.Type.Base != 0 {
			f.Type = rv.Type
		}
		return true
	}
	return false
}

// matches reports whether actual arguments args fit the dummy arguments of
// r: each actual (by position, or by keyword) a dummy of the same type,
// kind and rank, and every dummy without one optional.
func (t *typer) matches(r *apt.Routine, args []apt.Expr) bool {
	given := make([]bool, len(r.Formals))
	for i, a := range args {
		k := i
		if kw, ok := a.(*apt.Keyword); ok {
			k = -1
			for j, f := range r.Formals {
				if f == kw.Name {
					k = j
				}
			}
			a = kw.Value
		}
		if k < 0 || k >= len(r.Formals) {
			return false
		}
		given[k] = true
		d := r.Scope.Lookup(r.Formals[k])
		if d == nil {
			continue // an undeclared dummy: any actual
		}
		at := apt.TypeOf(a)
		if at.Base != apt.TypeUnknown && d.Type.Base != apt.TypeUnknown && at.Base != d.Type.Base {
			return false
		}
		if at.Kind > 0 && d.Type.Kind > 0 && at.Kind != d.Type.Kind {
			return false
		}
		if rank, ok := t.rankOf(a); ok && rank != len(d.Dims) {
			return false
		}
	}
	for k, f := range r.Formals {
		if !given[k] {
			if d := r.Scope.Lookup(f); d == nil || !d.Optional {
				return false
			}
		}
	}
	return true
}

// rankOf is the rank of an actual argument (F2008 6.5, 7.1.9.2); false
// where it is not known.
func (t *typer) rankOf(a apt.Expr) (int, bool) {
	switch x := a.(type) {
	case *apt.Name:
		if v := t.p.Resolve(t.r, x.Name); v != nil {
			return len(v.Dims), true
		}
		return 0, !x.Array
	case *apt.Index:
		// Sections and vector subscripts each give a dimension; subscripts
		// past an array's rank select a substring (a(i)(1:3)), as do all of
		// a character scalar's.
		subs := x.Subs
		if x.Base == nil {
			v := t.p.Resolve(t.r, x.Name)
			if v == nil {
				return 0, false
			}
			subs = subs[:min(len(subs), len(v.Dims))]
		}
		n := 0
		for _, s := range subs {
			if _, ok := s.(*apt.Section); ok {
				n++
			} else if r, ok := t.rankOf(s); !ok {
				return 0, false
			} else if r > 0 {
				n++
			}
		}
		return n, true
	case *apt.Component:
		// Of a%b, one part at most is an array (F2008 C618).
		if f := t.field(x.Base, x.Field); f != nil && f.IsArray() {
			return len(f.Dims), true
		} else if f != nil {
			return t.rankOf(x.Base)
		}
	case *apt.Const:
		return 0, true
	case *apt.ArrayCons:
		return 1, true
	case *apt.Keyword:
		return t.rankOf(x.Value)
	case *apt.Unary:
		return t.rankOf(x.X)
	case *apt.Binary:
		// Elemental: an array operand makes an array of its rank.
		rx, okx := t.rankOf(x.X)
		ry, oky := t.rankOf(x.Y)
		return max(rx, ry), okx && oky
	case *apt.FuncCall:
		if x.Intrinsic {
			return intrinsicRank(x.Name, x.Args, t.rankOf)
		}
		if r := t.p.Routine(x.Name); r != nil && r.Kind == apt.KindFunction && !r.Elemental {
			if v := r.Scope.Lookup(r.Result); v != nil {
				return len(v.Dims), true
			}
		}
	}
	return 0, false
}
