package fortran

import (
	"slices"
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Dynamic dispatch (F2008 4.5.7.3, 12.5.1). CALL obj%b(args) on a
// polymorphic obj (CLASS(t)) calls the procedure obj's dynamic type binds
// to b: t's own, or an extension's that overrides it. Where the types of
// the program that t's family holds bind b to more than one procedure,
// the call becomes an IF over the dynamic type (SAME_TYPE_AS(obj, 'e'),
// the tests SELECT TYPE's guards are: selecttype.go) with one call per
// procedure; the evaluation decides the test where it knows the type
// (symeval/dyntype.go) and takes it with a frequency where it does not.
// A deferred binding (an abstract interface) is no procedure: only the
// types that implement it are called.

// typeFamily returns name and the program's types that extend it, at any
// depth, in the order the program declares them.
func (t *typer) typeFamily(name string) []string {
	out := []string{name}
	var types []*apt.DerivedType
	var visit func(rs []*apt.Routine)
	visit = func(rs []*apt.Routine) {
		for _, r := range rs {
			if r.Scope != nil {
				types = append(types, r.Scope.Types...)
			}
			visit(r.Contains)
		}
	}
	visit(t.p.Routines)
	for changed := true; changed; {
		changed = false
		for _, dt := range types {
			if dt.Extends != "" && slices.Contains(out, dt.Extends) && !slices.Contains(out, dt.Name) {
				out = append(out, dt.Name)
				changed = true
			}
		}
	}
	return out
}

// componentOf returns the component field of the type named typ: its
// own, an ancestor's (EXTENDS), or, where neither has one, an extension's
// (a reference inside a SELECT TYPE guard, whose selector is of the
// guard's type).
func (t *typer) componentOf(typ, field string) *apt.Var {
	seen := map[string]bool{}
	for n := typ; n != "" && !seen[n]; {
		seen[n] = true
		dt := t.findType(n)
		if dt == nil {
			break
		}
		if f := dt.Field(field); f != nil {
			return f
		}
		n = dt.Extends
	}
	for _, e := range t.typeFamily(typ)[1:] {
		if dt := t.findType(e); dt != nil {
			if f := dt.Field(field); f != nil {
				return f
			}
		}
	}
	return nil
}

// dispatchTarget is one procedure a dispatch may call, and the types
// that bind it.
type dispatchTarget struct {
	r     *apt.Routine
	bp    boundProc
	types []string
}

// dispatchTargets returns the procedures the types of obj's family bind
// name to, where obj is polymorphic and the binding specific; false
// otherwise.
func (t *typer) dispatchTargets(obj apt.Expr, name string) ([]*dispatchTarget, bool) {
	ot := apt.TypeOf(obj)
	if ot.Base != apt.TypeDerived || !ot.Class || ot.Derived == "" || ot.Derived == "*" {
		return nil, false
	}
	var targets []*dispatchTarget
	for _, e := range t.typeFamily(ot.Derived) {
		b := t.bindingOf(e, name)
		if b == nil {
			continue
		}
		if b.Generic {
			return nil, false
		}
		if len(b.Procs) == 0 {
			continue
		}
		r := t.p.Routine(b.Procs[0])
		if r == nil {
			continue // deferred: an interface, no procedure
		}
		i := slices.IndexFunc(targets, func(x *dispatchTarget) bool { return x.r == r })
		if i < 0 {
			targets = append(targets, &dispatchTarget{r: r, bp: boundProc{name: r.Name, noPass: b.NoPass, pass: b.Pass}})
			i = len(targets) - 1
		}
		targets[i].types = append(targets[i].types, e)
	}
	return targets, len(targets) > 0
}

// dispatchIf is the IF over obj's dynamic type whose branch for each
// target holds what body gives.
func dispatchIf(base apt.NodeBase, obj apt.Expr, targets []*dispatchTarget, body func(*dispatchTarget) apt.Node) *apt.If {
	n := &apt.If{NodeBase: base, Kind: apt.IfBlock, Dispatch: true}
	pos := base.Span.Start()
	for _, x := range targets {
		var cond apt.Expr
		for _, e := range x.types {
			test := typeTest("same_type_as", obj, e, pos)
			if cond == nil {
				cond = test
			} else {
				cond = &apt.Binary{Pos: pos, Op: apt.OpOr, X: cond, Y: test}
			}
		}
		n.Branches = append(n.Branches, &apt.Branch{NodeBase: apt.NodeBase{Span: base.Span}, Cond: cond, Body: []apt.Node{body(x)}})
	}
	return n
}

// dispatchCall rewrites CALL obj%b(args) on a polymorphic obj whose
// family binds b to several procedures as an IF over obj's dynamic type;
// where it binds one (a deferred binding one extension implements), the
// call is bound to it. It reports false where the call is left to
// bindCall (a TYPE(t) object, a generic binding).
func (t *typer) dispatchCall(c *apt.Call) (apt.Node, bool) {
	obj := t.expr(c.Object)
	c.Object = obj
	targets, ok := t.dispatchTargets(obj, c.Callee)
	if !ok {
		return nil, false
	}
	for _, x := range targets {
		if withObject(x.r, x.bp, c.Args, obj) == nil {
			return nil, false
		}
	}
	t.actuals(c.Args)
	call := func(x *dispatchTarget) *apt.Call {
		return &apt.Call{NodeBase: c.NodeBase, Callee: x.r.Name, Args: withObject(x.r, x.bp, c.Args, obj)}
	}
	if len(targets) == 1 {
		one := call(targets[0])
		c.Callee, c.Args, c.Object = one.Callee, one.Args, nil
		t.resolveGeneric(c)
		return c, true
	}
	return dispatchIf(c.NodeBase, obj, targets, func(x *dispatchTarget) apt.Node { return call(x) }), true
}

// dispatchFunc returns, for a reference obj%f(args) of a function binding
// on a polymorphic obj whose family binds f to several functions, a
// variable of the routine that an IF over obj's dynamic type, put before
// the node being typed (t.hoist), sets to the function's result. Where no
// IF may go before it (a DO WHILE's test, an ELSE IF's), the reference is
// left unbound (handled, a value the evaluation does not know) rather than
// bound to the declared type's function; false leaves it to bindFunc.
func (t *typer) dispatchFunc(e *apt.Index) (apt.Expr, bool) {
	targets, ok := t.dispatchTargets(e.Base, e.Name)
	if !ok || len(targets) < 2 {
		return nil, false
	}
	if !t.hoistOK {
		e.Type = apt.Type{Base: apt.TypeUnknown}
		return e, true
	}
	var rt apt.Type
	for _, x := range targets {
		if x.r.Kind != apt.KindFunction || withObject(x.r, x.bp, e.Subs, e.Base) == nil {
			return nil, false
		}
		rv := x.r.Scope.Lookup(x.r.Result)
		if rv == nil || rv.IsArray() {
			return nil, false
		}
		rt = rv.Type
	}
	// Named after the binding (a value asked for is s%sweeps()'s, sweeps).
	name := e.Name
	for k := 2; t.r.Scope.Lookup(name) != nil || t.p.Resolve(t.r, name) != nil; k++ {
		name = e.Name + "_" + strconv.Itoa(k)
	}
	t.r.Scope.Add(&apt.Var{Name: name, Pos: e.Pos, Type: rt, Temp: true})
	span := apt.Span{File: e.Pos.File, Line: e.Pos.Line, Col: e.Pos.Col, EndLine: e.Pos.Line, EndCol: e.Pos.Col}
	n := dispatchIf(apt.NodeBase{Span: span}, e.Base, targets, func(x *dispatchTarget) apt.Node {
		f := &apt.FuncCall{Pos: e.Pos, Name: x.r.Name, Args: withObject(x.r, x.bp, e.Subs, e.Base), Type: rt}
		s := &apt.Stmt{Span: span, Kind: apt.StmtAssign, Target: &apt.Name{Pos: e.Pos, Name: name, Type: rt}, Value: f}
		s.Ops = countOps(s)
		return &apt.Block{NodeBase: apt.NodeBase{Span: span}, Stmts: []*apt.Stmt{s}}
	})
	t.hoist = append(t.hoist, n)
	return &apt.Name{Pos: e.Pos, Name: name, Type: rt}, true
}

// typeTest is the test fn(obj, 'typ') of obj's dynamic type.
func typeTest(fn string, obj apt.Expr, typ string, pos apt.Pos) apt.Expr {
	return &apt.FuncCall{Pos: pos, Name: fn, Intrinsic: true, Type: apt.Type{Base: apt.TypeLogical, Kind: 4},
		Args: []apt.Expr{obj, &apt.Const{Pos: pos, Kind: apt.ConstChar, Text: typ, Type: apt.Type{Base: apt.TypeCharacter}}}}
}
