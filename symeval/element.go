package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Components below an array element. An element of an array of derived
// type holds its components in its own storage, and so do the scalar
// components of those components: chunk%tiles(t)%t_xmin and
// chunk%tiles(t)%field%x_min are both parts of the element tiles(t). The
// evaluation follows each INTEGER or LOGICAL one as an array of its own
// over the elements (fieldRef), keyed by the array's key and the path of
// components from the element ("%t_xmin", "%field%x_min"), whatever the
// depth of the path.

// elementOf returns the array element e is part of, through scalar
// components (tiles(t)%field gives tiles(t) and "field%"), and the path
// of components from it, each followed by "%"; false when e is no element
// or part of one (a whole array, a component of a scalar, or a pointer's
// target, C's p->f).
func elementOf(e apt.Expr) (*apt.Index, string, bool) {
	switch x := e.(type) {
	case *apt.Index:
		return x, "", true
	case *apt.Component:
		if x.Array || x.Deref {
			return nil, "", false
		}
		ix, path, ok := elementOf(x.Base)
		return ix, path + x.Field + "%", ok
	}
	return nil, "", false
}

// partArg is an actual argument that is a scalar component of an array
// element (fieldRef), bound to a dummy the routine may assign: where the
// element is, so that the dummy's value is stored there on return.
type partArg struct {
	formal string
	key    string
	off    Value
	ok     bool
	t      apt.Type
}

// partKey returns the storage key of the array that holds the component c
// of array elements (elementOf), as fieldRef keys a scalar one and
// storeBlock a whole array.
func (ev *evaluator) partKey(c *apt.Component) (string, bool) {
	ix, path, ok := elementOf(c.Base)
	if !ok {
		return "", false
	}
	k, ok := ev.arrayKey(ix)
	if !ok {
		return "", false
	}
	return k + "%" + path + c.Field, true
}

// elementArg binds an element of an array of structures (&items[k], a
// C pointer to one element of a table; items(k) in Fortran) to a dummy of
// its derived type that the routine reads through (it->len) and does not
// index: the dummy is a copy of the element's scalar components, and the
// parts are where those the routine may assign go back on return. It
// reports false where the element's components are not followed.
func (ev *evaluator) elementArg(r *apt.Routine, formal string, ix *apt.Index) (Value, []partArg, bool) {
	d := r.Scope.Lookup(formal)
	if d == nil || d.Type.Base != apt.TypeDerived || ix.Type.Base != apt.TypeDerived || d.Type.Derived != ix.Type.Derived {
		return Value{}, nil, false
	}
	if hasSection(ix) || indexesName(r.Body, formal) {
		return Value{}, nil, false
	}
	if _, _, heap := ev.heapElement(ix); heap {
		return Value{}, nil, false // an element of an array of pointers: the objects are followed (heap.go)
	}
	fields := map[string]Value{}
	var parts []partArg
	for _, f := range ev.elementFields(ix) {
		if f.IsArray() || f.Type.Base == apt.TypeDerived || f.Type.Base == apt.TypeCharacter {
			continue
		}
		if ev.prog.Notation() == apt.Fortran {
			// The component of the element, followed as an array over
			// the elements (fieldRef).
			c := &apt.Component{Pos: ix.Pos, Base: ix, Field: f.Name, Type: f.Type}
			fields[f.Name] = ev.value(c)
			if key, off, ok := ev.fieldRef(c); key != "" {
				parts = append(parts, partArg{formal: formal + "%" + f.Name, key: key, off: off, ok: ok, t: f.Type})
			}
			continue
		}
		// The field of the element is that element of the field's array
		// (items%len(k)), as the frontend writes items[k].len.
		el := &apt.Index{Pos: ix.Pos, Name: ix.Name + "%" + f.Name, Subs: ix.Subs, Type: f.Type}
		fields[f.Name] = ev.value(el)
		if key, off, ok := ev.arrayRef(el); key != "" {
			parts = append(parts, partArg{formal: formal + "%" + f.Name, key: key, off: off, ok: ok, t: f.Type})
		}
	}
	if len(fields) == 0 {
		return Value{}, nil, false
	}
	return Value{Fields: fields}, parts, true
}

// elementFields are the scalar fields of an element of the C array of
// structures ix names: the arrays of them the frontend made (items%len of
// Item items[8]), in the routine's scope or a module it uses.
func (ev *evaluator) elementFields(ix *apt.Index) []*apt.Var {
	r := ev.frame().routine
	var out []*apt.Var
	seen := map[string]bool{}
	scopes := []*apt.Scope{r.Scope}
	for _, u := range r.Scope.Uses {
		if m := ev.prog.Routine(u.Module); m != nil && m.Scope != nil {
			scopes = append(scopes, m.Scope)
		}
	}
	for _, sc := range scopes {
		for _, v := range sc.Vars {
			f, ok := strings.CutPrefix(v.Name, ix.Name+"%")
			if !ok || strings.Contains(f, "%") || seen[f] || ev.prog.Resolve(r, v.Name) != v {
				continue
			}
			seen[f] = true
			out = append(out, &apt.Var{Name: f, Type: v.Type})
		}
	}
	if len(out) == 0 && ev.prog.Notation() == apt.Fortran && ix.Type.Base == apt.TypeDerived {
		// A Fortran array of a derived type: its type's scalar
		// components, each followed as an array over the elements
		// (blocks(b)%nx is an element of blocks%nx).
		types, _ := ev.lineage(ix.Type.Derived)
		for _, dt := range types {
			for _, f := range dt.Fields {
				if seen[f.Name] || f.IsArray() || f.Pointer || f.Allocatable {
					continue
				}
				seen[f.Name] = true
				out = append(out, &apt.Var{Name: f.Name, Type: f.Type})
			}
		}
	}
	return out
}

// indexesName reports whether nodes subscript the array name (p[1].f, a
// step to another element): the dummy is then more than one element.
func indexesName(nodes []apt.Node, name string) bool {
	found := false
	see := func(es ...apt.Expr) {
		for _, e := range es {
			apt.InspectExpr(e, func(x apt.Expr) bool {
				if ix, ok := x.(*apt.Index); ok && ix.Name == name && ix.Base == nil {
					found = true
				}
				return !found
			})
		}
	}
	for _, n := range nodes {
		apt.Inspect(n, func(m apt.Node) bool {
			switch x := m.(type) {
			case *apt.Block:
				for _, st := range x.Stmts {
					see(append([]apt.Expr{st.Target, st.Value, st.Mask}, st.Args...)...)
				}
			case *apt.If:
				see(x.Selector)
				for _, b := range x.Branches {
					see(b.Cond)
				}
			case *apt.Loop:
				see(x.Lower, x.Upper, x.Step, x.While, x.Iterations)
			case *apt.Call:
				see(x.Args...)
			case *apt.Comm:
				found = true // (its buffers are not looked into: taken as indexed)
			}
			return !found
		})
	}
	return found
}
