package fortran

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Polymorphic objects (F2008 4.3.1.3, 6.7.1.1, 8.1.9). ALLOCATE(t :: x)
// gives x the dynamic type t (apt.Stmt.TypeSpec), which the evaluation
// follows. SELECT TYPE is an IF construct whose guards are tests of the
// selector's dynamic type: TYPE IS (t) is SAME_TYPE_AS(x, 't'), CLASS IS
// (t) is EXTENDS_TYPE_OF(x, 't'), CLASS DEFAULT the ELSE; the intrinsics
// take a type's name where the program's own take an object. Inside a
// guard the selector is used as the guard's type: the typer finds a
// component or binding of an extension where the declared type has none.
// An associate name (SELECT TYPE (a => obj%p)) stands for its selector,
// as in ASSOCIATE.

// allocTypeSpec consumes the derived type-spec of an ALLOCATE, the name
// before ::, and returns it in lower case; "" (the cursor unchanged)
// where there is none. An intrinsic type-spec (ALLOCATE (CHARACTER(LEN=n)
// :: s), for a deferred-length string) is consumed and gives "": it sets
// no dynamic type.
func allocTypeSpec(p *parser) string {
	save := *p
	if t := p.peek(); t.kind != tIdent {
		return ""
	}
	name := p.ident()
	intrinsic := false
	switch name {
	case "integer", "real", "doubleprecision", "complex", "logical", "character":
		if p.at("(") {
			p.next()
			p.selectorArgs(name == "character")
			if !p.accept(")") {
				*p = save
				return ""
			}
		}
		intrinsic = true
	}
	if p.accept("::") || p.accept(":") && p.accept(":") {
		if intrinsic {
			return ""
		}
		return name
	}
	*p = save
	return ""
}

// selectType parses SELECT TYPE ([name =>] selector).
func (b *builder) selectType(s *stmt, p *parser, cname string) {
	u := b.ensureUnit(s)
	p.expect("(")
	assoc := map[string]apt.Expr{}
	save := *p
	var sel apt.Expr
	if t := p.peek(); t.kind == tIdent {
		name := p.ident()
		if p.accept("=>") {
			sel = p.expr()
			assoc[name] = sel
		} else {
			*p = save
		}
	}
	if sel == nil {
		sel = p.expr()
	}
	p.expect(")")
	p.expectEnd()
	if p.err != "" {
		return
	}
	n := &apt.If{NodeBase: base(s), Kind: apt.IfBlock, Construct: cname}
	if len(u.stack) >= maxNesting {
		b.push(s, nil) // reports the error
		return
	}
	u.add(n)
	var none []apt.Node
	b.push(s, &construct{kind: cSelect, ifn: n, body: &none, name: cname, assoc: assoc, selector: sel})
}

// inSelectType reports whether the innermost construct is a SELECT TYPE.
func (b *builder) inSelectType() bool {
	if b.u == nil || len(b.u.stack) == 0 {
		return false
	}
	c := b.u.stack[len(b.u.stack)-1]
	return c != nil && c.kind == cSelect && c.selector != nil
}

// typeGuard parses TYPE IS (t), CLASS IS (t) and CLASS DEFAULT.
func (b *builder) typeGuard(s *stmt, p *parser) {
	c := b.u.stack[len(b.u.stack)-1]
	var cond apt.Expr
	if !p.keyword("CLASSDEFAULT") {
		fn := "same_type_as"
		if !p.keyword("TYPEIS") {
			p.keyword("CLASSIS")
			fn = "extends_type_of"
		}
		p.expect("(")
		at := p.peek()
		var name string
		if t, ok := b.typeSpecAt(p); ok {
			name = t.String()
			if t.Base == apt.TypeDerived {
				name = t.Derived
			}
		} else {
			name = p.ident()
		}
		p.expect(")")
		cond = &apt.FuncCall{Pos: p.pos(at.at), Name: fn, Intrinsic: true, Type: apt.Type{Base: apt.TypeLogical, Kind: 4},
			Args: []apt.Expr{c.selector, &apt.Const{Pos: p.pos(at.at), Kind: apt.ConstChar, Text: strings.ToLower(name),
				Type: apt.Type{Base: apt.TypeCharacter}}}}
	}
	p.optName()
	p.expectEnd()
	if p.err != "" {
		return
	}
	b.newBranch(s, c, cond)
}
