package symeval

import "github.com/mkvet/mkvet/frontend/apt"

// structConstructor evaluates a Fortran structure constructor,
// type-name(component-spec, ...) (Fortran 2018 7.5.10), where no function
// of that name hides it: the components in order, the ancestors' (EXTENDS)
// first, or by keyword; one left out takes its default initialisation.
// The value carries the components (Value.Fields), which an assignment
// stores one by one (cfg = config_t(nx, ny, steps) sets cfg%nx, cfg%ny,
// cfg%steps). A component the evaluation does not keep as a scalar (an
// array, a pointer) is evaluated for the calls its expression makes and
// left unknown.
func (ev *evaluator) structConstructor(f *apt.FuncCall) (Value, bool) {
	if f.Intrinsic || ev.prog.Notation() != apt.Fortran {
		return Value{}, false
	}
	types, ok := ev.lineage(f.Name)
	if !ok || len(types) == 0 {
		return Value{}, false
	}
	// The components in constructor order: the farthest ancestor's first.
	var comps []*apt.Var
	for i := len(types) - 1; i >= 0; i-- {
		comps = append(comps, types[i].Fields...)
	}
	byName := make(map[string]*apt.Var, len(comps))
	for _, c := range comps {
		byName[c.Name] = c
	}
	fields := map[string]Value{}
	set := map[string]bool{}
	next := 0
	for _, a := range f.Args {
		var c *apt.Var
		val := a
		if kw, ok := a.(*apt.Keyword); ok {
			c, val = byName[kw.Name], kw.Value
			if c == nil {
				// The parent component named after an ancestor type
				// (child(base=b, k=1)): its components are b's.
				if v := ev.value(kw.Value); v.Fields != nil && ev.isAncestor(types, kw.Name) {
					for k, fv := range v.Fields {
						fields[k], set[k] = fv, true
					}
				}
				continue
			}
		} else if next < len(comps) {
			c = comps[next]
			next++
		}
		if c == nil {
			ev.value(val)
			continue
		}
		set[c.Name] = true
		v := ev.value(val)
		if c.IsArray() || c.Pointer || c.Allocatable {
			continue
		}
		if c.Type.Base == apt.TypeInteger {
			v = toInteger(v)
		}
		fields[c.Name] = v
	}
	for _, c := range comps {
		if set[c.Name] || c.IsArray() || c.Pointer || c.Allocatable {
			continue
		}
		if v, ok := ev.fieldDefault(c); ok {
			fields[c.Name] = v
		} else if c.Type.Base == apt.TypeDerived && len(c.Init) == 0 {
			// A component of derived type takes its type's defaults.
			if d, ok := ev.typeDefaults(c.Type.Derived, 1); ok {
				fields[c.Name] = d
			}
		}
	}
	return Value{Fields: fields}, true
}

// typeDefaults is the value every object of type typ starts with: its
// scalar components' default initialisations, through components of
// derived type (those without one are left out, their values undefined).
func (ev *evaluator) typeDefaults(typ string, depth int) (Value, bool) {
	return ev.componentValues(typ, depth, func(c *apt.Var) (Value, bool) {
		if c.Type.Base == apt.TypeDerived && len(c.Init) == 0 {
			return ev.typeDefaults(c.Type.Derived, depth+1)
		}
		return ev.fieldDefault(c)
	})
}

// isAncestor reports whether name is one of the ancestor types of the
// lineage types (not the type itself).
func (ev *evaluator) isAncestor(types []*apt.DerivedType, name string) bool {
	for _, dt := range types[1:] {
		if dt.Name == name {
			return true
		}
	}
	return false
}

// unknownComponents is the value of a whole object of type typ assigned a
// value whose components the evaluation does not know (the result of a
// function it does not follow): each scalar component unknown, so that
// neither the object's earlier components nor their default
// initialisations stand for them. ok is false for a type the routine
// cannot see (a library's handle type).
func (ev *evaluator) unknownComponents(typ, src string, depth int) (Value, bool) {
	return ev.componentValues(typ, depth, func(c *apt.Var) (Value, bool) {
		if c.Type.Base == apt.TypeDerived {
			return ev.unknownComponents(c.Type.Derived, src+"%"+c.Name, depth+1)
		}
		return unknownValue(c.Name, "the value of "+src+"%"+c.Name, c.Type.Base != apt.TypeInteger), true
	})
}

// objectValue is the value of the object e of type typ component by
// component, each read as a reference to it reads it (its stored value,
// else its default initialisation), for a whole assignment c = d.
func (ev *evaluator) objectValue(e apt.Expr, typ string, depth int) (Value, bool) {
	return ev.componentValues(typ, depth, func(c *apt.Var) (Value, bool) {
		ref := &apt.Component{Pos: e.At(), Base: e, Field: c.Name, Type: c.Type}
		if c.Type.Base == apt.TypeDerived {
			return ev.objectValue(ref, c.Type.Derived, depth+1)
		}
		return ev.value(ref), true
	})
}

// componentValues is a value of type typ with each scalar component
// (the ancestors' too, arrays and pointers left out) given by value; false
// for a type the routine cannot see or nested past 8 levels.
func (ev *evaluator) componentValues(typ string, depth int, value func(c *apt.Var) (Value, bool)) (Value, bool) {
	types, ok := ev.lineage(typ)
	if !ok || len(types) == 0 || depth > 8 {
		return Value{}, false
	}
	fields := map[string]Value{}
	for _, dt := range types {
		for _, c := range dt.Fields {
			if _, done := fields[c.Name]; done || c.IsArray() || c.Pointer || c.Allocatable {
				continue
			}
			if v, ok := value(c); ok {
				fields[c.Name] = v
			}
		}
	}
	return Value{Fields: fields}, true
}

// wholeObjectValue is objectValue for the right side of an assignment to
// a scalar object of derived type from another object of that type.
func (ev *evaluator) wholeObjectValue(s *apt.Stmt) (Value, bool) {
	t, ok := s.Target.(*apt.Name)
	if !ok || t.Array || t.Type.Base != apt.TypeDerived || ev.prog.Notation() != apt.Fortran {
		return Value{}, false
	}
	switch s.Value.(type) {
	case *apt.Name, *apt.Component, *apt.Index:
	default:
		return Value{}, false
	}
	if vt := apt.TypeOf(s.Value); vt.Base != apt.TypeDerived || vt.Derived != t.Type.Derived || vt.Class || t.Type.Class {
		return Value{}, false
	}
	return ev.objectValue(s.Value, t.Type.Derived, 0)
}

// copyArrayComponents gives the target of a whole assignment of one
// object of derived type to another (d = c; a C structure copied,
// std::array<int, 3> iters = {{5, 10, 20}} from its constant) what the
// evaluation knows of the source's array components: their elements go
// with the object, as its scalar components do (objectValue).
func (ev *evaluator) copyArrayComponents(s *apt.Stmt) {
	t, ok := s.Target.(*apt.Name)
	if !ok || t.Array || t.Type.Base != apt.TypeDerived {
		return
	}
	switch s.Value.(type) {
	case *apt.Name, *apt.Component:
	default:
		return
	}
	if vt := apt.TypeOf(s.Value); vt.Base != apt.TypeDerived || vt.Derived != t.Type.Derived {
		return
	}
	src, ok := ev.objectKeyOf(s.Value)
	dst := ev.key(t.Name)

	if !ok || src == dst || ev.paramName(t.Name) != "" {
		return
	}
	for _, k := range ev.env.withPrefix(src + "%") {
		if v := ev.env.get(k); v.arr != nil {
			ev.env.set(dst+k[len(src):], v)
		}
	}
}

// assignObjects stores a value of derived type into an element of an array
// of that type (pt(2) = pt_t(50), blocks(b) = blk) or into every element
// (pt = pt_t(50)): each scalar INTEGER or LOGICAL component, at any depth,
// the value's component, or unknown where the value's is not known. (The
// element's components are arrays over the elements, fieldRef; the
// defaults its ALLOCATE gave them are replaced.) It reports whether target
// was such an element or array.
func (ev *evaluator) assignObjects(target, src apt.Expr, v Value) bool {
	if !ev.objectsTarget(target) {
		return false
	}
	types, ok := ev.lineage(apt.TypeOf(target).Derived)
	if !ok {
		return false
	}
	if st, tt := apt.TypeOf(src), apt.TypeOf(target); st.Derived == tt.Derived && !st.Class && !tt.Class {
		switch src.(type) {
		case *apt.Name, *apt.Component, *apt.Index:
			// Another object of the type (st(1) = pt(2)): its
			// components as they are read.
			if o, ok := ev.objectValue(src, tt.Derived, 0); ok {
				v = o
			}
		}
	}
	whole := "" // over every element: the array's key
	if nm, isName := target.(*apt.Name); isName {
		whole = ev.key(nm.Name)
	}
	ev.assignParts(target, types, v, whole)
	return true
}

// objectsTarget reports whether target is an element of a Fortran array
// of derived type (no section) or a whole such array (assignObjects).
func (ev *evaluator) objectsTarget(target apt.Expr) bool {
	if apt.TypeOf(target).Base != apt.TypeDerived || ev.prog.Notation() != apt.Fortran {
		return false
	}
	switch x := target.(type) {
	case *apt.Index:
		if x.Base != nil || len(x.Subs) == 0 {
			return false
		}
		for _, s := range x.Subs {
			if _, isSec := s.(*apt.Section); isSec {
				return false
			}
		}
		return true
	case *apt.Name:
		return x.Array && ev.paramName(x.Name) == ""
	}
	return false
}

// assignNested is assignObjects for a scalar component of derived type of
// an element, comp: its own scalar components, through it; of every
// element where whole is the storage key of comp over all of them.
func (ev *evaluator) assignNested(comp *apt.Component, typ string, v Value, whole string) {
	if types, ok := ev.lineage(typ); ok {
		ev.assignParts(comp, types, v, whole)
	}
}

// assignParts stores v's scalar components into those of obj, an object
// of the types (a type and its ancestors): INTEGER and LOGICAL ones by
// assignment, or over every element where whole is the key of obj over
// all of them; components of derived type through assignNested; one v
// does not give, unknown.
func (ev *evaluator) assignParts(obj apt.Expr, types []*apt.DerivedType, v Value, whole string) {
	for _, dt := range types {
		for _, c := range dt.Fields {
			if c.IsArray() || c.Pointer || c.Allocatable {
				continue
			}
			fv, has := v.Fields[c.Name]
			if !has {
				fv = unknownValue(c.Name, ev.fieldWord()+ev.src(obj)+"%"+c.Name, c.Type.Base != apt.TypeInteger)
			}
			sub := &apt.Component{Pos: obj.At(), Base: obj, Field: c.Name, Type: c.Type}
			w := ""
			if whole != "" {
				w = whole + "%" + c.Name
			}
			switch {
			case c.Type.Base == apt.TypeDerived:
				ev.assignNested(sub, c.Type.Derived, fv, w)
			case !tracked(c.Type):
			case w != "":
				ev.assignWhole(w, c.Type, fv)
			default:
				ev.assign(sub, fv)
			}
		}
	}
}
