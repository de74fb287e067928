package fortran

import (
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
)

// typer runs after every file is read, when all modules are known: it applies
// IMPLICIT rules so that every variable has a type, tells array references from
// function references (the same syntax in Fortran), fills expression types,
// marks integer division, and counts each statement's operations.
type typer struct {
	fe *frontend
	p  *apt.Program
	r  *apt.Routine
	// create is false while typing annotations: a name there that the program
	// does not declare is a model parameter, not an implicitly typed variable.
	create bool
	// memo maps expressions already typed to their replacements while typing
	// a node whose fields alias each other (Comm); nil otherwise.
	memo map[apt.Expr]apt.Expr
	// hoist are the nodes a dispatched function reference needs before
	// the node being typed (polymorph.go); hoistOK is set where they may
	// go there (not in a DO WHILE's test, evaluated at every trip).
	hoist   []apt.Node
	hoistOK bool
}

func newTyper(fe *frontend) *typer {
	return &typer{fe: fe, p: fe.prog}
}

func (t *typer) program(p *apt.Program) {
	var all []*apt.Routine
	var collect func(r *apt.Routine)
	collect = func(r *apt.Routine) {
		all = append(all, r)
		for _, c := range r.Contains {
			collect(c)
		}
	}
	for _, r := range p.Routines {
		collect(r)
	}
	// Declared types first, everywhere, so that a USEd module's variables are
	// typed before the routines that use them are.
	for _, r := range all {
		t.r = r
		t.declarations(r)
	}
	for _, r := range all {
		t.r = r
		t.create = true
		sc := r.Scope
		for i := 0; i < len(sc.Vars); i++ { // Vars may grow while typing
			v := sc.Vars[i]
			t.typeVar(v)
		}
		for _, dt := range sc.Types {
			for _, f := range dt.Fields {
				t.typeVar(f)
			}
		}
		for _, pr := range sc.Processors {
			for i := range pr.Shape {
				pr.Shape[i] = t.expr(pr.Shape[i])
			}
		}
		r.Body = t.nodes(r.Body)
		t.create = false
		for _, a := range r.Params {
			a.Value = t.expr(a.Value)
		}
		for _, a := range r.Assumes {
			a.Cond = t.expr(a.Cond)
		}
	}
}

// declarations resolves USEs and gives every declared variable its type.
func (t *typer) declarations(r *apt.Routine) {
	for _, u := range r.Scope.Uses {
		if m := t.p.Routine(u.Module); m != nil && m.Kind == apt.KindModule {
			u.Resolved = true
		} else if !u.Resolved {
			t.fe.diag(u.Pos, apt.Warning, "module "+u.Module+" is not among the inputs; names from it are typed implicitly")
		}
	}
	for _, v := range r.Scope.Vars {
		t.fixType(v)
	}
	for _, dt := range r.Scope.Types {
		for _, f := range dt.Fields {
			t.fixType(f)
		}
	}
}

// fixType applies IMPLICIT rules to an untyped variable and evaluates named kinds.
func (t *typer) fixType(v *apt.Var) {
	if v.Associate && v.Type.Base == 0 {
		return // typed where it is set (node)
	}
	if v.Type.Base == 0 && (v.Procedure || v.External) {
		// A procedure has the type of its interface's result, if any:
		// none for a subroutine, which needs no declaration (EXTERNAL
		// names one as well as a function).
		v.Type = t.implicitTypeQuiet(v.Name)
		v.Implicit = true
	}
	if v.Type.Base == 0 {
		v.Type = t.implicitType(v.Name, v.Pos)
		v.Implicit = true
	}
	if v.Type.Kind == 0 && v.Type.KindExpr != nil {
		if k, ok := t.evalKind(v.Type.KindExpr, 0); ok {
			v.Type.Kind, v.Type.KindExpr = k, nil
			if v.Type.Base == apt.TypeComplex {
				v.Type.Kind = 2 * k
			}
		}
	}
}

func (t *typer) typeVar(v *apt.Var) {
	for i := range v.Dims {
		v.Dims[i].Lo = t.expr(v.Dims[i].Lo)
		v.Dims[i].Hi = t.expr(v.Dims[i].Hi)
	}
	v.Param = t.expr(v.Param)
	for i := range v.Init {
		v.Init[i] = t.expr(v.Init[i])
	}
	v.Type.Len = t.expr(v.Type.Len)
}

// implicitType returns the type IMPLICIT rules give name in the current routine:
// its own rules, then its host's; IMPLICIT NONE anywhere on the way means no
// type (a diagnostic); otherwise Fortran's default, I-N integer, others real.
func (t *typer) implicitType(name string, pos apt.Pos) apt.Type {
	if name == "" {
		return apt.Type{Base: apt.TypeUnknown}
	}
	c := name[0]
	for r := t.r; r != nil; r = t.p.Host(r) {
		for _, rule := range r.Scope.Implicit {
			if c >= rule.From && c <= rule.To {
				return rule.Type
			}
		}
		if r.Scope.ImplicitNone {
			if pos.IsValid() {
				t.fe.diag(pos, apt.Warning, "no type for "+name+" under IMPLICIT NONE")
			}
			return apt.Type{Base: apt.TypeUnknown}
		}
	}
	if c >= 'i' && c <= 'n' {
		return apt.Type{Base: apt.TypeInteger, Kind: 4}
	}
	return apt.Type{Base: apt.TypeReal, Kind: 4}
}

// evalKind evaluates a kind given by a named constant or an inquiry function.
func (t *typer) evalKind(e apt.Expr, depth int) (int, bool) {
	if depth > 10 {
		return 0, false
	}
	switch e := e.(type) {
	case *apt.Const:
		if e.Kind == apt.ConstInt {
			n, err := strconv.Atoi(e.Text)
			return n, err == nil
		}
	case *apt.Name:
		if v := t.p.Resolve(t.r, e.Name); v != nil && v.Param != nil {
			return t.evalKind(v.Param, depth+1)
		}
	case *apt.Keyword:
		return t.evalKind(e.Value, depth+1)
	case *apt.Index, *apt.FuncCall:
		var name string
		var args []apt.Expr
		if x, ok := e.(*apt.Index); ok {
			name, args = x.Name, x.Subs
		} else {
			x := e.(*apt.FuncCall)
			name, args = x.Name, x.Args
		}
		if len(args) == 0 {
			return 0, false
		}
		arg := args[0]
		if kw, ok := arg.(*apt.Keyword); ok {
			arg = kw.Value
		}
		switch name {
		case "kind":
			var ty apt.Type
			switch a := arg.(type) {
			case *apt.Const:
				ty = a.Type
			case *apt.Name:
				if v := t.p.Resolve(t.r, a.Name); v != nil {
					ty = v.Type
				}
			}
			switch {
			case ty.Kind > 0 && ty.Base == apt.TypeComplex:
				return ty.Kind / 2, true // Kind counts bytes
			case ty.Kind > 0:
				return ty.Kind, true
			case ty.KindExpr != nil:
				return t.evalKind(ty.KindExpr, depth+1)
			}
		case "selected_real_kind":
			if n, ok := t.evalKind(arg, depth+1); ok {
				switch {
				case n <= 6:
					return 4, true
				case n <= 15:
					return 8, true
				}
				return 16, true
			}
		case "selected_int_kind":
			if n, ok := t.evalKind(arg, depth+1); ok {
				switch {
				case n <= 2:
					return 1, true
				case n <= 4:
					return 2, true
				case n <= 9:
					return 4, true
				}
				return 8, true
			}
		}
	}
	return 0, false
}

// intrinsicResult is the type of intrinsic name applied to args, of the
// kind its KIND argument gives (int(x, 8) is integer(8)); of unknown kind
// when that argument cannot be evaluated.
func (t *typer) intrinsicResult(name string, args []apt.Expr) apt.Type {
	ty := intrinsicType(name, args)
	if pos, ok := kindArgPos[name]; ok {
		if a := intrinsicArg(args, pos-1, "kind"); a != nil {
			k, ok := t.evalKind(a, 0)
			if !ok {
				k = 0
			}
			ty.Kind = k
			if ty.Base == apt.TypeComplex {
				ty.Kind = 2 * k
			}
		}
	}
	return ty
}

// actuals types a call's actual arguments in place; a procedure handed
// over as an argument (EXTERNAL, a module procedure) declares no variable
// of its name.
func (t *typer) actuals(list []apt.Expr) {
	for i, a := range list {
		if nm, ok := a.(*apt.Name); ok && t.procedureName(nm.Name) {
			nm.Type = apt.Type{Base: apt.TypeUnknown}
			continue
		}
		list[i] = t.expr(a)
	}
}

// procedureName reports whether name, used as an actual argument, names a
// subroutine or function of the program rather than a variable: nothing
// in scope declares it and a procedure has that name.
func (t *typer) procedureName(name string) bool {
	if t.p.Resolve(t.r, name) != nil {
		return false
	}
	r := t.p.Routine(name)
	return r != nil && (r.Kind == apt.KindSubroutine || r.Kind == apt.KindFunction)
}

// lookup returns the variable name refers to, declaring it implicitly in the
// current routine when nothing declares it (and creation is allowed).
func (t *typer) lookup(name string, pos apt.Pos) *apt.Var {
	if v := t.p.Resolve(t.r, name); v != nil {
		return v
	}
	if !t.create {
		return nil
	}
	v := &apt.Var{Name: name, Pos: pos, Implicit: true}
	v.Type = t.implicitType(name, pos)
	t.r.Scope.Add(v)
	return v
}

// findType returns the derived type definition visible from the current routine.
func (t *typer) findType(name string) *apt.DerivedType {
	seen := map[*apt.Routine]bool{}
	var search func(r *apt.Routine) *apt.DerivedType
	search = func(r *apt.Routine) *apt.DerivedType {
		if r == nil || seen[r] {
			return nil
		}
		seen[r] = true
		if dt := r.Scope.LookupType(name); dt != nil {
			return dt
		}
		for _, u := range r.Scope.Uses {
			if m := t.p.Routine(u.Module); m != nil {
				if dt := search(m); dt != nil {
					return dt
				}
			}
		}
		return search(t.p.Host(r))
	}
	return search(t.r)
}

func (t *typer) exprs(list []apt.Expr) {
	for i := range list {
		list[i] = t.expr(list[i])
	}
}

// expr types e and returns it, or its replacement when an Index turns out to be
// a function reference.
func (t *typer) expr(e apt.Expr) apt.Expr {
	if e == nil {
		return nil
	}
	if t.memo == nil {
		return t.resolve(e)
	}
	if r, ok := t.memo[e]; ok {
		return r
	}
	r := t.resolve(e)
	t.memo[e] = r
	return r
}

func (t *typer) resolve(e apt.Expr) apt.Expr {
	switch e := e.(type) {
	case *apt.Const:
		if e.Type.Kind == 0 && e.Type.KindExpr != nil {
			if k, ok := t.evalKind(e.Type.KindExpr, 0); ok {
				e.Type.Kind = k
				if e.Type.Base == apt.TypeComplex {
					e.Type.Kind = 2 * k // Kind counts bytes
				}
			}
		}
	case *apt.Name:
		if v := t.lookup(e.Name, e.Pos); v != nil {
			e.Type, e.Array = v.Type, v.IsArray()
		} else if e.Type.Base == 0 {
			e.Type = apt.Type{Base: apt.TypeUnknown}
		}
	case *apt.Index:
		if e.Base != nil {
			e.Base = t.expr(e.Base)
			t.exprs(e.Subs)
			if t.field(e.Base, e.Name) == nil {
				// obj%f(args) where f is no component: a type-bound
				// function.
				if v, done := t.dispatchFunc(e); done {
					return v
				}
				if f := t.bindFunc(e); f != nil {
					return f
				}
			}
			e.Type = t.fieldType(e.Base, e.Name)
			return e
		}
		v := t.p.Resolve(t.r, e.Name)
		if v != nil && !v.External && (v.IsArray() || v.Type.Base == apt.TypeCharacter && hasSection(e.Subs)) {
			t.exprs(e.Subs)
			e.Type = v.Type
			e.Substring = !v.IsArray()
			return e
		}
		args := e.Subs
		t.actuals(args)
		f := &apt.FuncCall{Pos: e.Pos, Name: e.Name, Args: args}
		if v == nil && t.resolveGenericFunc(f) {
			return f
		}
		// A type declaration of an intrinsic's name (integer max) leaves it
		// intrinsic; EXTERNAL, a dummy argument or a program routine of that
		// name overrides it.
		_, isIntr := intrinsics[e.Name]
		isIntr = isIntr && t.p.Routine(e.Name) == nil && (v == nil || !v.External && !v.Dummy)
		switch {
		case v != nil && v.Intrinsic, isIntr:
			f.Intrinsic = true
			f.Type = t.intrinsicResult(e.Name, args)
		case v != nil:
			f.Type = v.Type
		default:
			if r := t.p.Routine(e.Name); r != nil && r.Kind == apt.KindFunction {
				if rv := r.Scope.Lookup(r.Result); rv != nil && rv.Type.Base != 0 {
					f.Type = rv.Type
					break
				}
			}
			f.Type = t.implicitTypeQuiet(e.Name)
		}
		return f
	case *apt.Section:
		e.Lo, e.Hi, e.Stride = t.expr(e.Lo), t.expr(e.Hi), t.expr(e.Stride)
	case *apt.Component:
		e.Base = t.expr(e.Base)
		e.Type = t.fieldType(e.Base, e.Field)
		if f := t.field(e.Base, e.Field); f != nil {
			e.Array = f.IsArray()
		}
	case *apt.FuncCall:
		t.actuals(e.Args)
		t.resolveGenericFunc(e)
	case *apt.Unary:
		e.X = t.expr(e.X)
	case *apt.Binary:
		e.X, e.Y = t.expr(e.X), t.expr(e.Y)
		e.IntDiv = e.Op == apt.OpDiv && apt.IsInteger(e.X) && apt.IsInteger(e.Y)
	case *apt.ArrayCons:
		t.exprs(e.Elems)
	case *apt.ImpliedDo:
		t.lookup(e.Var, e.Pos)
		t.exprs(e.Items)
		e.Lo, e.Hi, e.Step = t.expr(e.Lo), t.expr(e.Hi), t.expr(e.Step)
	case *apt.Keyword:
		e.Value = t.expr(e.Value)
	}
	return e
}

// implicitTypeQuiet types an undeclared external function by its first letter
// without a diagnostic (IMPLICIT NONE code declares functions through modules,
// which may be outside the inputs).
func (t *typer) implicitTypeQuiet(name string) apt.Type {
	return t.implicitType(name, apt.Pos{})
}

func hasSection(subs []apt.Expr) bool {
	for _, s := range subs {
		if _, ok := s.(*apt.Section); ok {
			return true
		}
	}
	return false
}

// field returns the component field of the derived-type value base, or nil.
func (t *typer) field(base apt.Expr, field string) *apt.Var {
	bt := apt.TypeOf(base)
	if bt.Base == apt.TypeDerived {
		return t.componentOf(bt.Derived, field)
	}
	return nil
}

// fieldType returns the type of component field of the derived-type value base.
func (t *typer) fieldType(base apt.Expr, field string) apt.Type {
	if f := t.field(base, field); f != nil {
		return f.Type
	}
	return apt.Type{Base: apt.TypeUnknown}
}

// nodes types a list of nodes and returns it with the nodes dispatched
// function references need before them (polymorph.go).
func (t *typer) nodes(list []apt.Node) []apt.Node {
	var out []apt.Node
	for _, n := range list {
		saved, ok := t.hoist, t.hoistOK
		t.hoist, t.hoistOK = nil, true
		if c, isCall := n.(*apt.Call); isCall && c.Object != nil {
			if d, done := t.dispatchCall(c); done {
				n = d
			} else {
				t.node(n)
			}
		} else if b, isBlock := n.(*apt.Block); isBlock {
			out = append(out, t.block(b)...)
			t.hoist, t.hoistOK = saved, ok
			continue
		} else {
			t.node(n)
		}
		out = append(out, t.hoist...)
		out = append(out, n)
		t.hoist, t.hoistOK = saved, ok
	}
	return out
}

func (t *typer) node(n apt.Node) {
	switch n := n.(type) {
	case *apt.Loop:
		if n.Var != "" {
			t.lookup(n.Var, n.Span.Start())
		}
		n.Lower, n.Upper, n.Step = t.expr(n.Lower), t.expr(n.Upper), t.expr(n.Step)
		ok := t.hoistOK
		t.hoistOK = false
		n.While, n.Iterations = t.expr(n.While), t.expr(n.Iterations)
		t.hoistOK = ok
		n.Body = t.nodes(n.Body)
	case *apt.If:
		n.Selector = t.expr(n.Selector)
		ok := t.hoistOK
		for i, b := range n.Branches {
			// What goes before the IF is evaluated before its first
			// test, not before an ELSE IF's.
			t.hoistOK = ok && i == 0
			b.Cond = t.expr(b.Cond)
			t.hoistOK = ok
			for i := range b.Cases {
				b.Cases[i].Lo, b.Cases[i].Hi = t.expr(b.Cases[i].Lo), t.expr(b.Cases[i].Hi)
			}
			b.Body = t.nodes(b.Body)
		}
	case *apt.Call:
		t.actuals(n.Args)
		if n.Object != nil {
			n.Object = t.expr(n.Object)
			t.bindCall(n)
		}
		t.resolveGeneric(n)
	case *apt.Comm:
		// The message fields share expressions with Args; the memo makes
		// both see the same replacement when an Index becomes a FuncCall.
		t.memo = map[apt.Expr]apt.Expr{}
		defer func() { t.memo = nil }()
		t.exprs(n.Args)
		for _, m := range []*apt.Msg{n.Send, n.Recv} {
			if m != nil {
				m.Buffer, m.Count, m.Displs = t.expr(m.Buffer), t.expr(m.Count), t.expr(m.Displs)
				m.Datatype, m.Peer, m.Tag = t.expr(m.Datatype), t.expr(m.Peer), t.expr(m.Tag)
			}
		}
		n.Root, n.Reduce, n.Comm = t.expr(n.Root), t.expr(n.Reduce), t.expr(n.Comm)
		n.Request, n.Count, n.Status, n.Result = t.expr(n.Request), t.expr(n.Count), t.expr(n.Status), t.expr(n.Result)
	case *apt.Block:
		for _, s := range n.Stmts {
			t.stmt(s)
		}
	case *apt.IO:
		if nm, ok := n.Format.(*apt.Name); ok && keywordOf(n.Control, "nml") == nil && t.namelistGroup(nm.Name) {
			// READ (u, group): a NAMELIST group's name in the format's
			// place (Fortran 2018 12.6.2.1) is NML=group.
			n.Control = append(n.Control, &apt.Keyword{Pos: nm.Pos, Name: "nml", Value: nm})
			n.Format = nil
		}
		n.Unit, n.Format = t.expr(n.Unit), t.expr(n.Format)
		for i, c := range n.Control {
			if k, ok := c.(*apt.Keyword); ok && k.Name == "nml" {
				continue // a NAMELIST group's name, not a variable
			}
			n.Control[i] = t.expr(c)
		}
		t.exprs(n.Items)
	case *apt.Goto:
		n.Index = t.expr(n.Index)
	case *apt.Return:
		n.Value = t.expr(n.Value)
	case *apt.Stop:
		n.Code = t.expr(n.Code)
	}
}

// stmt types one statement of a block.
func (t *typer) stmt(s *apt.Stmt) {
	if t.procTarget(s) {
		s.Target = t.expr(s.Target)
		return
	}
	if nm, ok := s.Target.(*apt.Name); ok {
		if v := t.p.Resolve(t.r, nm.Name); v != nil && v.Associate && v.Type.Base == 0 {
			// An ASSOCIATE name's value: the expression's type.
			s.Value = t.expr(s.Value)
			v.Type = apt.TypeOf(s.Value)
		}
	}
	s.Target, s.Value, s.Mask = t.expr(s.Target), t.expr(s.Value), t.expr(s.Mask)
	t.exprs(s.Args)
	s.Ops = countOps(s)
}

// block types a block's statements; where one needs nodes before it (a
// dispatched function reference), the block is split there: the
// statements before, those nodes, then the rest.
func (t *typer) block(b *apt.Block) []apt.Node {
	var out []apt.Node
	start := 0
	for i, s := range b.Stmts {
		t.hoist = nil
		t.stmt(s)
		if len(t.hoist) == 0 {
			continue
		}
		if i > start {
			out = append(out, &apt.Block{NodeBase: b.NodeBase, Stmts: b.Stmts[start:i]})
		}
		out = append(out, t.hoist...)
		start = i
	}
	t.hoist = nil
	if start == 0 {
		return append(out, b)
	}
	return append(out, &apt.Block{NodeBase: b.NodeBase, Stmts: b.Stmts[start:]})
}

// procTarget reports whether s points a procedure pointer at a routine
// (p => name): the name is the routine's, not a variable to declare, and
// its type is none.
func (t *typer) procTarget(s *apt.Stmt) bool {
	if s.Kind != apt.StmtPointerAssign {
		return false
	}
	vn, ok2 := s.Value.(*apt.Name)
	if !ok2 {
		return false
	}
	switch tg := s.Target.(type) {
	case *apt.Name:
		if v := t.p.Resolve(t.r, tg.Name); v == nil || !v.Procedure {
			return false
		}
	case *apt.Component:
		// A procedure pointer component (obj%run => jacobi).
		bt := apt.TypeOf(t.expr(tg.Base))
		if b := t.bindingOf(bt.Derived, tg.Field); bt.Base != apt.TypeDerived || b == nil || !b.Pointer {
			return false
		}
	default:
		return false
	}
	if w := t.p.Resolve(t.r, vn.Name); w != nil && !w.Procedure && !w.External {
		return false // a variable
	}
	vn.Type = apt.Type{Base: apt.TypeUnknown}
	return true
}

// countOps counts the operations of one execution of s.
func countOps(s *apt.Stmt) apt.Ops {
	var o apt.Ops
	switch s.Kind {
	case apt.StmtAssign:
	case apt.StmtPointerAssign:
		// p => a(:, k) sets p's descriptor: no element moves, whatever
		// the target's rank.
		o.Stores++
		return o
	default:
		return o
	}
	switch tg := s.Target.(type) {
	case *apt.Index:
		o.Stores++
		countRef(tg, &o)
	case *apt.Name:
		if tg.Array {
			o.Stores++
			o.Vector = true
		}
	case *apt.Component:
		if tg.Array || wholeArrayBase(tg.Base) {
			o.Stores++
			o.Vector = true
		}
		countBase(tg.Base, &o)
	}
	countExpr(s.Value, &o, false)
	countExpr(s.Mask, &o, false)
	return o
}

// countRef counts the subscripts of an array reference and of the objects it
// is a component of.
func countRef(x *apt.Index, o *apt.Ops) {
	if hasSection(x.Subs) && !x.Substring {
		o.Vector = true
	}
	for _, sub := range x.Subs {
		countExpr(sub, o, true)
	}
	if x.Base != nil {
		countBase(x.Base, o)
	}
}

// countBase counts the subscripts of the object part of a component reference.
func countBase(e apt.Expr, o *apt.Ops) {
	switch e := e.(type) {
	case *apt.Name:
		if e.Array {
			o.Vector = true // a component of every element (states%energy)
		}
	case *apt.Index:
		countRef(e, o)
	case *apt.Component:
		countBase(e.Base, o)
	}
}

// wholeArrayBase reports whether a component's base is a whole array of
// structures, so that the component designates one element of each.
func wholeArrayBase(e apt.Expr) bool {
	switch e := e.(type) {
	case *apt.Name:
		return e.Array
	case *apt.Component:
		return wholeArrayBase(e.Base)
	}
	return false
}

// countExpr counts the operations of evaluating e; inSub is set inside
// subscripts, whose arithmetic goes to SubscriptOps.
func countExpr(e apt.Expr, o *apt.Ops, inSub bool) {
	switch x := e.(type) {
	case nil:
	case *apt.Binary:
		switch {
		case inSub && (x.Op == apt.OpAdd || x.Op == apt.OpSub || x.Op == apt.OpMul || x.Op == apt.OpDiv):
			o.SubscriptOps++
		case x.Op == apt.OpAdd || x.Op == apt.OpSub:
			o.Adds++
		case x.Op == apt.OpMul:
			o.Muls++
		case x.Op == apt.OpDiv:
			o.Divs++
			if x.IntDiv {
				o.IntDivs++
			}
		case x.Op == apt.OpPow:
			o.Pows++
		case x.Op.IsRelational():
			o.Cmps++
		case x.Op.IsLogical():
			o.Logic++
		}
		countExpr(x.X, o, inSub)
		countExpr(x.Y, o, inSub)
	case *apt.Unary:
		switch {
		case x.Op == apt.OpNeg && isConst(x.X):
			// A negative literal such as -1 costs nothing at run time.
		case x.Op == apt.OpNeg && inSub:
			o.SubscriptOps++
		case x.Op == apt.OpNeg:
			o.Negs++
		case x.Op == apt.OpNot:
			o.Logic++
		}
		countExpr(x.X, o, inSub)
	case *apt.Index:
		o.Loads++
		countRef(x, o)
	case *apt.Name:
		if x.Array {
			o.Loads++
			o.Vector = true
		}
	case *apt.Component:
		if x.Array || wholeArrayBase(x.Base) {
			o.Loads++
			o.Vector = true
		}
		countBase(x.Base, o)
	case *apt.Section:
		countExpr(x.Lo, o, true)
		countExpr(x.Hi, o, true)
		countExpr(x.Stride, o, true)
	case *apt.FuncCall:
		if x.Intrinsic {
			if o.Intrinsics == nil {
				o.Intrinsics = map[string]int{}
			}
			o.Intrinsics[x.Name]++
			// Inquiry functions look at an array's descriptor, not its elements.
			switch x.Name {
			case "size", "lbound", "ubound", "shape", "allocated", "present", "associated", "kind", "len":
				return
			}
		} else {
			if o.Calls == nil {
				o.Calls = map[string]int{}
			}
			o.Calls[x.Name]++
		}
		for _, a := range x.Args {
			countExpr(a, o, inSub)
		}
	case *apt.ArrayCons:
		for _, a := range x.Elems {
			countExpr(a, o, inSub)
		}
	case *apt.ImpliedDo:
		for _, a := range x.Items {
			countExpr(a, o, inSub)
		}
	case *apt.Keyword:
		countExpr(x.Value, o, inSub)
	}
}

func isConst(e apt.Expr) bool {
	_, ok := e.(*apt.Const)
	return ok
}

// keywordOf returns the value of the keyword specifier name in a control
// list, or nil.
func keywordOf(control []apt.Expr, name string) apt.Expr {
	for _, c := range control {
		if k, ok := c.(*apt.Keyword); ok && k.Name == name {
			return k.Value
		}
	}
	return nil
}

// namelistGroup reports whether name is a NAMELIST group the current
// routine sees (its own, a host's, a module's) and no variable of that
// name hides it.
func (t *typer) namelistGroup(name string) bool {
	if t.p.Resolve(t.r, name) != nil {
		return false
	}
	var hosts func(rs []*apt.Routine, path []*apt.Routine) []*apt.Routine
	hosts = func(rs []*apt.Routine, path []*apt.Routine) []*apt.Routine {
		for _, r := range rs {
			if r == t.r {
				return append(path, r)
			}
			if p := hosts(r.Contains, append(path, r)); p != nil {
				return p
			}
		}
		return nil
	}
	for _, r := range hosts(t.p.Routines, nil) {
		if r.Scope != nil && r.Scope.FindNamelist(name) != nil {
			return true
		}
	}
	for _, r := range t.p.Routines {
		if r.Kind == apt.KindModule && r.Scope != nil && r.Scope.FindNamelist(name) != nil {
			return true
		}
	}
	return false
}
