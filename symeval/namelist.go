package symeval

import (
	"strconv"
	"strings"

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
	// Every value is checked before any is stored: input the evaluation
	// cannot follow leaves the whole group to parameters.
	type store struct {
		target apt.Expr
		val    Value
		item   *runenv.NamelistItem
	}
	var stores []store
	for i := range items {
		it := &items[i]
		name, subs, isElem := strings.Cut(it.Name, "(")
		if !inGroup[name] || strings.Contains(it.Name, "%") {
			return false // not of the group, or a component
		}
		decl := ev.prog.Resolve(ev.frame().routine, name)
		if decl == nil {
			return false
		}
		switch decl.Type.Base {
		case apt.TypeInteger, apt.TypeReal, apt.TypeLogical:
		case apt.TypeCharacter:
			if l, ok := ev.charLen(&apt.Name{Name: name, Type: decl.Type}); decl.IsArray() || !ok || l < 0 || l > maxInputBytes {
				return false
			}
		default:
			return false
		}
		if !decl.IsArray() {
			if isElem || len(it.Values) > 1 {
				return false
			}
			if len(it.Values) == 0 || it.Values[0] == "" {
				continue // a null value: unchanged
			}
			target := &apt.Name{Name: name, Type: decl.Type}
			if decl.Type.Base == apt.TypeCharacter {
				l, _ := ev.charLen(target)
				stores = append(stores, store{target, charDatum(it.Values[0], l), it})
				continue
			}
			if _, given := ev.values[name]; given || ev.paramName(name) != "" {
				continue // -D or an annotation gives it: the user's value
			}
			v, ok := listValue(it.Values[0], decl.Type.Base)
			if !ok {
				return false
			}
			stores = append(stores, store{target, Known(v), it})
			continue
		}
		// An array, an element or a section of one: the values go to its
		// elements in array element order, a null value or a short list
		// leaving the others as they were (Fortran 2008 10.11.3.3).
		ix, ok := namelistRef(name, decl, subs, isElem)
		if !ok {
			return false
		}
		dims, total, ok := ev.sectionSubs(ix, decl, maxSectionElems)
		if !ok || len(it.Values) > total {
			return false
		}
		els := sectionElements(ix, dims, total)
		for k, text := range it.Values {
			if text == "" {
				continue
			}
			v, ok := listValue(text, decl.Type.Base)
			if !ok {
				return false
			}
			stores = append(stores, store{els[k], Known(v), it})
		}
	}
	for i, st := range stores {
		ev.assign(st.target, st.val)
		if i == 0 || stores[i-1].item != st.item {
			// One note for the object, with all its values.
			ev.noteRead(ReadValue{Pos: n.Span.Start(), Name: st.item.Name, File: at.File, Line: st.item.Record,
				Text: strings.Join(st.item.Values, ", ")})
		}
	}
	ev.setUnit(k, readpos.Unit{File: at.File, Record: int64(next)})
	if st := keyword(n, "iostat"); st != nil {
		ev.assign(st, Known(symbolic.Int(0)))
	}
	return true
}

// namelistRef is the reference a namelist object designates: the whole
// array name (a section of every element), or the element or section its
// subscripts select, which must be integers or lo:hi[:stride] of them.
func namelistRef(name string, decl *apt.Var, subs string, isElem bool) (*apt.Index, bool) {
	ix := &apt.Index{Name: name, Type: decl.Type}
	if !isElem {
		for range decl.Dims {
			ix.Subs = append(ix.Subs, &apt.Section{})
		}
		return ix, true
	}
	subs, closed := strings.CutSuffix(subs, ")")
	parts := strings.Split(subs, ",")
	if !closed || len(parts) != len(decl.Dims) {
		return nil, false
	}
	num := func(t string) (apt.Expr, bool) {
		if t == "" {
			return nil, true
		}
		if _, err := strconv.ParseInt(t, 10, 64); err != nil {
			return nil, false
		}
		return &apt.Const{Kind: apt.ConstInt, Text: t, Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}, true
	}
	for _, p := range parts {
		f := strings.Split(p, ":")
		if len(f) == 1 {
			e, ok := num(f[0])
			if !ok || e == nil {
				return nil, false
			}
			ix.Subs = append(ix.Subs, e)
			continue
		}
		if len(f) > 3 {
			return nil, false
		}
		sec := &apt.Section{}
		var ok1, ok2, ok3 bool = true, true, true
		sec.Lo, ok1 = num(f[0])
		sec.Hi, ok2 = num(f[1])
		if len(f) == 3 {
			sec.Stride, ok3 = num(f[2])
		}
		if !ok1 || !ok2 || !ok3 {
			return nil, false
		}
		ix.Subs = append(ix.Subs, sec)
	}
	return ix, true
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
