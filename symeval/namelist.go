package symeval

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/readpos"
	"github.com/mkvet/mkvet/internal/runenv"
	"github.com/mkvet/mkvet/symbolic"
)

// NAMELIST input. A READ with NML=group sets the variables of the group
// its input names, by name (Fortran 2008 10.11.3): from a file of the
// run's directory (Options.Dir) at the unit's record, each named scalar
// takes its value as a list-directed datum, the others keep theirs, and
// the unit moves past the record of the closing slash
// (runenv.NamelistRead). Where the input cannot be read (no directory, no
// such file, a name the evaluation does not model: an array element, a
// component, a character value), any variable of the group may change:
// each becomes a parameter named after it, as a value READ reads is.

// namelistOf returns the group a READ names with NML=, from its routine's
// scope or a module's; nil when it names none.
func (ev *evaluator) namelistOf(n *apt.IO) *apt.Namelist {
	nm, ok := keyword(n, "nml").(*apt.Name)
	if !ok {
		return nil
	}
	if r := ev.frame().routine; r != nil && r.Scope != nil {
		if g := r.Scope.FindNamelist(nm.Name); g != nil {
			return g
		}
	}
	for _, r := range ev.prog.Routines {
		if r.Kind == apt.KindModule && r.Scope != nil {
			if g := r.Scope.FindNamelist(nm.Name); g != nil {
				return g
			}
		}
	}
	return nil
}

// readNamelist evaluates a READ with NML=, and reports whether it was
// one.
func (ev *evaluator) readNamelist(n *apt.IO) bool {
	if n.Kind != apt.IORead || keyword(n, "nml") == nil {
		return false
	}
	g := ev.namelistOf(n)
	if g == nil {
		return false
	}
	if !ev.readNamelistFile(n, g) {
		for _, name := range g.Vars {
			ev.readParam(n, name)
		}
	}
	return true
}

// readNamelistFile sets the variables the input names, false when the
// input cannot be read.
func (ev *evaluator) readNamelistFile(n *apt.IO, g *apt.Namelist) bool {
	if ev.dir == "" || len(ev.cur.vars) > 0 {
		return false
	}
	k, at, recs, ok := ev.unitFile(n)
	if !ok {
		return false
	}
	items, next, ok := runenv.NamelistRead(recs, int(at.Record), g.Name)
	if !ok {
		return false
	}
	inGroup := map[string]bool{}
	for _, v := range g.Vars {
		inGroup[v] = true
	}
	vals := make([]Value, len(items))
	set := make([]bool, len(items))
	for i, it := range items {
		if !inGroup[it.Name] || len(it.Values) > 1 {
			return false // not a scalar of the group: an element, a component, an array
		}
		decl := ev.prog.Resolve(ev.frame().routine, it.Name)
		if decl == nil || decl.IsArray() {
			return false
		}
		name := &apt.Name{Name: it.Name, Type: decl.Type}
		switch decl.Type.Base {
		case apt.TypeInteger, apt.TypeReal, apt.TypeLogical:
		case apt.TypeCharacter:
			if l, ok := ev.charLen(name); !ok || l < 0 || l > maxInputBytes {
				return false
			}
		default:
			return false
		}
		if len(it.Values) == 0 || it.Values[0] == "" {
			continue // a null value: unchanged
		}
		if decl.Type.Base == apt.TypeCharacter {
			l, _ := ev.charLen(name)
			vals[i], set[i] = charDatum(it.Values[0], l), true
			continue
		}
		if _, given := ev.values[it.Name]; given || ev.paramName(it.Name) != "" {
			continue // -D or an annotation gives it: the user's value
		}
		v, ok := listValue(it.Values[0], decl.Type.Base)
		if !ok {
			return false
		}
		vals[i], set[i] = Known(v), true
	}
	for i, it := range items {
		if !set[i] {
			continue
		}
		ev.store(it.Name, vals[i])
		ev.noteRead(ReadValue{Pos: n.Span.Start(), Name: it.Name, File: at.File, Line: it.Record, Text: it.Values[0]})
	}
	ev.setUnit(k, readpos.Unit{File: at.File, Record: int64(next)})
	if st := keyword(n, "iostat"); st != nil {
		ev.assign(st, Known(symbolic.Int(0)))
	}
	return true
}

// readParam makes the variable name a value read at n: a parameter named
// after it (an unknown element for an array, an unknown value for text
// or an object), unless the user gives it.
func (ev *evaluator) readParam(n *apt.IO, name string) {
	if ev.paramName(name) != "" {
		return
	}
	decl := ev.prog.Resolve(ev.frame().routine, name)
	real := decl == nil || decl.Type.Base != apt.TypeInteger
	if decl != nil && (decl.IsArray() || decl.Type.Base == apt.TypeCharacter || decl.Type.Base == apt.TypeDerived) {
		ev.store(name, unknownValue(name, "the value read into "+name+" at "+n.Span.Start().String(), real))
		return
	}
	if p := ev.params[name]; p != nil && p.Value != nil {
		ev.store(name, Known(p.expr())) // -D gives it
		return
	}
	p := ev.newParam(name, FromRead, n.Span.Start(), "the value read into "+name, real)
	ev.store(name, Known(p.expr()))
}
