package fortran

import (
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
)

// ASSOCIATE and BLOCK (Fortran 2003 §8.1.3, 2008 §8.1.4). Neither makes a
// node of the APT: their statements join the enclosing body in order.
//
// An associate name bound to a variable (lo => f%lo, u => f%u, x => a(i))
// is that variable: every reference to the name inside the construct is
// written as the selector (u(i) as f%u(i)), so what the statements read and
// assign is what the program's do. One bound to an expression
// (r => (c*dt)**2) is a value taken when the construct begins: a variable
// of the routine, set there, typed as the expression is. A BLOCK's
// declarations join the routine's scope, under a name of their own where
// they hide a variable of the routine (declareInBlock).

// associate parses ASSOCIATE (name => selector, ...).
func (b *builder) associate(s *stmt, p *parser) {
	u := b.ensureUnit(s)
	p.keyword("ASSOCIATE")
	p.expect("(")
	names := map[string]apt.Expr{}
	var values []*apt.Stmt
	for p.err == "" {
		pos := p.pos(p.peek().at)
		name := p.ident()
		p.expect("=>")
		sel := p.expr()
		if p.err != "" {
			break
		}
		isArray := func(name string) bool {
			v := u.r.Scope.Lookup(name)
			return v != nil && v.IsArray()
		}
		if designator(sel, isArray) {
			names[name] = sel
		} else {
			// The value at the construct's start, in a variable of the
			// routine (renamed where the routine has one of the name).
			v := name
			for i := 2; u.r.Scope.Lookup(v) != nil; i++ {
				v = name + "_" + strconv.Itoa(i)
			}
			u.r.Scope.Add(&apt.Var{Name: v, Pos: pos, Associate: true})
			names[name] = &apt.Name{Pos: pos, Name: v}
			values = append(values, &apt.Stmt{Span: s.span(), Kind: apt.StmtAssign,
				Target: &apt.Name{Pos: pos, Name: v}, Value: sel})
		}
		if !p.accept(",") {
			break
		}
	}
	p.expect(")")
	p.expectEnd()
	if p.err != "" {
		return
	}
	for _, st := range values {
		u.addStmt(st)
	}
	b.push(s, &construct{kind: cAssociate, body: u.body(), assoc: names})
}

// blockConstruct opens a BLOCK: its statements stay in the enclosing body.
func (b *builder) blockConstruct(s *stmt, name string) {
	u := b.ensureUnit(s)
	b.push(s, &construct{kind: cBlock, body: u.body(), name: name, assoc: map[string]apt.Expr{}})
}

// openBlock is the BLOCK construct whose specification part is being
// read: the innermost open construct, where it is a BLOCK.
func (u *unit) openBlock() *construct {
	if len(u.stack) == 0 || u.stack[len(u.stack)-1].kind != cBlock {
		return nil
	}
	return u.stack[len(u.stack)-1]
}

// declareInBlock declares name as a local of the BLOCK blk (Fortran 2008
// 8.1.4: a declaration there makes a construct entity that hides the host's
// variable of the name for the construct's extent). A name the routine
// already has gets a variable of its own (n_2), which the construct's
// references are written as, as an associate name's are.
func (b *builder) declareInBlock(blk *construct, name string, pos apt.Pos) *apt.Var {
	u := b.u
	if sel, ok := blk.assoc[name]; ok {
		if nm, isName := sel.(*apt.Name); isName {
			if v := u.r.Scope.Lookup(nm.Name); v != nil {
				return v
			}
		}
	}
	local := name
	for i := 2; u.r.Scope.Lookup(local) != nil || u.associated2(local); i++ {
		local = name + "_" + strconv.Itoa(i)
	}
	// (Renamed, it is a name the source does not have: Temp.)
	v := &apt.Var{Name: local, Pos: pos, Temp: local != name}
	u.r.Scope.Add(v)
	blk.assoc[name] = &apt.Name{Pos: pos, Name: local}
	return v
}

// associated2 reports whether an open construct binds name.
func (u *unit) associated2(name string) bool {
	_, ok := u.associated(name)
	return ok
}

// namedConstruct is the open construct called name, innermost first; nil
// for "" or a name no open construct has.
func (u *unit) namedConstruct(name string) *construct {
	if name == "" {
		return nil
	}
	for i := len(u.stack) - 1; i >= 0; i-- {
		if u.stack[i].name == name {
			return u.stack[i]
		}
	}
	return nil
}

// endScoping closes an ASSOCIATE or BLOCK construct.
func (b *builder) endScoping(s *stmt, k constructKind, what string) {
	if c := b.innermost(s, k, what); c != nil {
		b.pop()
		if s.label != "" {
			b.u.add(&apt.Continue{NodeBase: base(s)})
		}
	}
}

// associated is the selector an associate name stands for in the open
// constructs, innermost first.
func (u *unit) associated(name string) (apt.Expr, bool) {
	for i := len(u.stack) - 1; i >= 0; i-- {
		if e, ok := u.stack[i].assoc[name]; ok {
			return e, true
		}
	}
	return nil, false
}

// designator reports whether e is a variable: a name, a component, an
// element or section of an array the unit declares, with no function
// reference in its subscripts. At parse time f(x) is written as an array
// element is; a name the unit does not declare an array may be a
// function, whose calls substituting would repeat: isArray tells.
func designator(e apt.Expr, isArray func(string) bool) bool {
	switch x := e.(type) {
	case *apt.Name:
		return true
	case *apt.Component:
		return designator(x.Base, isArray)
	case *apt.Index:
		if x.Base != nil && !designator(x.Base, isArray) || x.Base == nil && !isArray(x.Name) {
			return false
		}
		pure := true
		for _, s := range x.Subs {
			apt.InspectExpr(s, func(y apt.Expr) bool {
				if ix, ok := y.(*apt.Index); ok && ix.Base == nil && !isArray(ix.Name) {
					pure = false
				}
				return pure
			})
		}
		return pure
	}
	return false
}

// substitute writes a reference to an associate name bound to sel: the
// name alone, or subscripted (args non-nil).
func substitute(sel apt.Expr, pos apt.Pos, args []apt.Expr, subscripted bool) (apt.Expr, bool) {
	switch x := sel.(type) {
	case *apt.Name:
		if subscripted {
			return &apt.Index{Pos: pos, Name: x.Name, Subs: args}, true
		}
		return &apt.Name{Pos: pos, Name: x.Name}, true
	case *apt.Component:
		if subscripted {
			return &apt.Index{Pos: pos, Name: x.Field, Subs: args, Base: x.Base}, true
		}
		return &apt.Component{Pos: pos, Base: x.Base, Field: x.Field}, true
	case *apt.Index:
		if subscripted {
			return nil, false // a section of a section: not written
		}
		c := *x
		c.Pos = pos
		return &c, true
	}
	return nil, false
}
