package fortran

import (
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Type-bound procedures (F2008 4.5.5, 12.5.1). A call obj%b(args) calls
// the procedure that obj's declared type binds to b: its own binding or
// the nearest parent's (EXTENDS), a GENERIC binding resolved by the
// actuals like a generic interface; obj is passed as the dummy the
// binding's PASS names (the first by default), not at all for NOPASS.
// The typer rewrites such calls and function references as ordinary ones;
// on a polymorphic object whose family binds b to several procedures, as
// a dispatch on the dynamic type (polymorph.go).

// boundProc is one procedure a binding may call.
type boundProc struct {
	name   string
	noPass bool
	pass   string
}

// bindingOf returns the binding named name of the type named typ or its
// nearest ancestor that has one.
func (t *typer) bindingOf(typ, name string) *apt.Binding {
	seen := map[string]bool{}
	for typ != "" && !seen[typ] {
		seen[typ] = true
		dt := t.findType(typ)
		if dt == nil {
			return nil
		}
		if b := dt.Binding(name); b != nil {
			return b
		}
		typ = dt.Extends
	}
	return nil
}

// boundProcs returns the procedures obj%name may call, a generic
// binding's specifics each as the type binds it.
func (t *typer) boundProcs(obj apt.Expr, name string) []boundProc {
	ot := apt.TypeOf(obj)
	if ot.Base != apt.TypeDerived || ot.Derived == "" {
		return nil
	}
	b := t.bindingOf(ot.Derived, name)
	if b == nil {
		return nil
	}
	specific := func(b *apt.Binding) (boundProc, bool) {
		// (A procedure pointer component calls what the run points it
		// at: symeval follows it.)
		if b.Generic || b.Pointer || len(b.Procs) == 0 {
			return boundProc{}, false
		}
		return boundProc{name: b.Procs[0], noPass: b.NoPass, pass: b.Pass}, true
	}
	if !b.Generic {
		if p, ok := specific(b); ok {
			return []boundProc{p}
		}
		return nil
	}
	var out []boundProc
	for _, s := range b.Procs {
		if sb := t.bindingOf(ot.Derived, s); sb != nil {
			if p, ok := specific(sb); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// withObject returns args with the object passed as r's dummy bp names.
func withObject(r *apt.Routine, bp boundProc, args []apt.Expr, obj apt.Expr) []apt.Expr {
	if bp.noPass {
		return args
	}
	k := 0
	if bp.pass != "" {
		k = slices.Index(r.Formals, bp.pass)
		if k < 0 {
			return nil
		}
	}
	positional := len(args)
	for i, a := range args {
		if _, kw := a.(*apt.Keyword); kw {
			positional = i
			break
		}
	}
	if k <= positional {
		return slices.Insert(slices.Clone(args), k, obj)
	}
	return append(slices.Clone(args), &apt.Keyword{Name: r.Formals[k], Value: obj})
}

// bind chooses the procedure of a binding the actuals match (the only one
// of a specific binding), and its actuals with the object.
func (t *typer) bind(obj apt.Expr, name string, args []apt.Expr) (*apt.Routine, []apt.Expr) {
	procs := t.boundProcs(obj, name)
	for _, bp := range procs {
		r := t.p.Routine(bp.name)
		if r == nil {
			continue
		}
		with := withObject(r, bp, args, obj)
		if with == nil {
			continue
		}
		if len(procs) == 1 || t.matches(r, with) {
			return r, with
		}
	}
	return nil, nil
}

// bindCall rewrites CALL obj%b(args) as the call of the bound procedure.
func (t *typer) bindCall(c *apt.Call) {
	if r, args := t.bind(c.Object, c.Callee, c.Args); r != nil {
		c.Callee, c.Args, c.Object = r.Name, args, nil
	}
}

// bindFunc returns the reference of the function obj%f(args) binds, or nil
// where f is no binding of obj's type.
func (t *typer) bindFunc(e *apt.Index) *apt.FuncCall {
	r, args := t.bind(e.Base, e.Name, e.Subs)
	if r == nil || r.Kind != apt.KindFunction {
		return nil
	}
	f := &apt.FuncCall{Pos: e.Pos, Name: r.Name, Args: args}
	if rv := r.Scope.Lookup(r.Result); rv != nil {
		f.Type = rv.Type
	}
	return f
}
