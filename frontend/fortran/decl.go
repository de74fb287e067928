package fortran

import (
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

func intConst(n int) *apt.Const {
	return &apt.Const{Kind: apt.ConstInt, Text: strconv.Itoa(n), Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
}

// declare returns the variable name in the current unit's scope (or the derived
// type being defined), creating it untyped; IMPLICIT rules type it at the end.
func (b *builder) declare(name string, pos apt.Pos) *apt.Var {
	u := b.u
	if u.typeDef != nil {
		if f := u.typeDef.Field(name); f != nil {
			return f
		}
		v := &apt.Var{Name: name, Pos: pos}
		u.typeDef.Fields = append(u.typeDef.Fields, v)
		return v
	}
	if blk := u.openBlock(); blk != nil {
		return b.declareInBlock(blk, name, pos)
	}
	if v := u.r.Scope.Lookup(name); v != nil {
		return v
	}
	v := &apt.Var{Name: name, Pos: pos}
	u.r.Scope.Add(v)
	return v
}

// typeSpecAt parses an intrinsic or derived type specification at the cursor:
// INTEGER, REAL, DOUBLE PRECISION, COMPLEX, DOUBLE COMPLEX, LOGICAL, CHARACTER
// with *n, (n), (KIND=k) or (LEN=n, KIND=k), or TYPE(name)/CLASS(name). It
// leaves the cursor unchanged when there is none.
func (b *builder) typeSpecAt(p *parser) (apt.Type, bool) {
	var t apt.Type
	switch {
	case p.keyword("INTEGER"):
		t = apt.Type{Base: apt.TypeInteger, Kind: 4}
	case p.keyword("REAL"):
		t = apt.Type{Base: apt.TypeReal, Kind: 4}
	case p.keyword("DOUBLEPRECISION"):
		return apt.Type{Base: apt.TypeReal, Kind: 8}, true
	case p.keyword("DOUBLECOMPLEX"):
		return apt.Type{Base: apt.TypeComplex, Kind: 16}, true
	case p.keyword("BYTE"):
		// A one-byte integer (an extension gfortran takes).
		return apt.Type{Base: apt.TypeInteger, Kind: 1}, true
	case p.keyword("COMPLEX"):
		t = apt.Type{Base: apt.TypeComplex, Kind: 8}
	case p.keyword("LOGICAL"):
		t = apt.Type{Base: apt.TypeLogical, Kind: 4}
	case p.keyword("CHARACTER"):
		t = apt.Type{Base: apt.TypeCharacter, Len: intConst(1)}
	case p.hasPrefix("TYPE(") || p.hasPrefix("CLASS("):
		class := false
		if !p.keyword("TYPE") {
			class = p.keyword("CLASS")
		}
		p.expect("(")
		n := "*" // CLASS(*), unlimited polymorphic; TYPE(*), assumed type
		if !p.accept("*") {
			n = p.ident()
		}
		p.expect(")")
		if strings.EqualFold(n, "mpi_request") && !class {
			// mpi_f08's request handle wraps the integer one
			// (MPI 3.1 §17.2.2): held as an integer, compared with
			// MPI_REQUEST_NULL as the mpi module's is.
			return apt.Type{Base: apt.TypeInteger, Kind: 4}, true
		}
		return apt.Type{Base: apt.TypeDerived, Derived: n, Class: class}, true
	default:
		return t, false
	}
	if p.restAt() < len(p.t) && p.t[p.restAt()] == '*' {
		// Old-style length or kind: REAL*8, CHARACTER*10, CHARACTER*(*).
		at := p.restAt() + 1
		p.i, p.peeked = at, false
		if at < len(p.t) && p.t[at] == '(' {
			p.next()
			var e apt.Expr
			if p.at("*") {
				e = &apt.Star{Pos: p.pos(p.next().at)}
			} else {
				e = p.expr()
			}
			p.expect(")")
			t.Len = e
			return t, true
		}
		k := at
		for k < len(p.t) && isDigit(p.t[k]) {
			k++
		}
		if k == at {
			p.fail(at, "expected a length or kind after *")
			return t, true
		}
		n, _ := strconv.Atoi(string(p.t[at:k]))
		p.i = k
		if t.Base == apt.TypeCharacter {
			t.Len = intConst(n)
		} else {
			t.Kind = n
			if t.Base == apt.TypeComplex {
				t.Kind = n // COMPLEX*16 is 16 bytes
			}
		}
		return t, true
	}
	if p.at("(") {
		// Kind or length selector; IMPLICIT REAL (A-H) is handled by the caller.
		p.next()
		args := p.selectorArgs(t.Base == apt.TypeCharacter)
		p.expect(")")
		for i, a := range args {
			key := ""
			if kw, ok := a.(*apt.Keyword); ok {
				key, a = kw.Name, kw.Value
			} else if t.Base == apt.TypeCharacter && i == 0 {
				key = "len"
			} else {
				key = "kind"
			}
			switch key {
			case "len":
				t.Len = a
			case "kind":
				if c, ok := a.(*apt.Const); ok && c.Kind == apt.ConstInt {
					n, _ := strconv.Atoi(c.Text)
					t.Kind = n
					if t.Base == apt.TypeComplex {
						t.Kind = 2 * n
					}
				} else {
					t.Kind, t.KindExpr = 0, a
				}
			}
		}
	}
	return t, true
}

// declaration handles specification statements; it reports false when the
// statement is not one.
func (b *builder) declaration(s *stmt, p *parser) bool {
	ts := string(s.text[p.i:])
	has := func(kw string) bool { return strings.HasPrefix(ts, kw) }
	switch {
	case has("IMPLICIT"):
		b.ensureUnit(s)
		p.keyword("IMPLICIT")
		b.implicit(s, p)
	case has("ENUM,BIND(C)") && ts == "ENUM,BIND(C)":
		b.ensureUnit(s).enumNext = intConst(0)
	case ts == "ENDENUM":
		b.ensureUnit(s).enumNext = nil
	case has("ENUMERATOR") && b.u != nil && b.u.enumNext != nil:
		p.keyword("ENUMERATOR")
		b.enumerators(p)
	case has("DIMENSION"):
		b.ensureUnit(s)
		p.keyword("DIMENSION")
		p.accept("::")
		b.entities(s, p, nil, attrs{})
	case has("PARAMETER("):
		b.ensureUnit(s)
		p.keyword("PARAMETER")
		b.parameter(s, p)
	case has("COMMON"):
		b.ensureUnit(s)
		p.keyword("COMMON")
		b.common(s, p)
	case has("DATA") && !has("DATA=") && len(ts) > 4:
		b.ensureUnit(s)
		p.keyword("DATA")
		b.data(s, p)
	case has("USE"):
		b.ensureUnit(s)
		p.keyword("USE")
		b.use(s, p)
	case has("SAVE"), has("EXTERNAL"), has("INTRINSIC"), has("ALLOCATABLE"), has("OPTIONAL"),
		has("POINTER"), has("TARGET"), has("INTENT("), has("PUBLIC"), has("PRIVATE"), has("PROTECTED"),
		has("VALUE"), has("VOLATILE"), has("ASYNCHRONOUS"), has("CONTIGUOUS"):
		b.ensureUnit(s)
		b.attrStmt(s, p, ts)
	case has("TYPE(") || has("CLASS("):
		b.ensureUnit(s)
		b.typeDecl(s, p)
	case has("TYPE"):
		b.ensureUnit(s)
		b.typeDef(s, p)
	case has("INTEGER"), has("REAL"), has("DOUBLEPRECISION"), has("DOUBLECOMPLEX"), has("COMPLEX"),
		has("LOGICAL"), has("CHARACTER"), has("BYTE"):
		b.ensureUnit(s)
		b.typeDecl(s, p)
	case (has("PROCEDURE(") || has("PROCEDURE,") || has("PROCEDURE::")) && (b.u == nil || b.u.typeDef == nil):
		b.ensureUnit(s)
		b.procedureDecl(s, p)
	case has("NAMELIST"):
		b.ensureUnit(s)
		p.keyword("NAMELIST")
		b.namelist(s, p)
	case has("EQUIVALENCE"):
		// Storage association does not change the cost model, but
		// the evaluation must know which variables share storage.
		b.ensureUnit(s)
		p.keyword("EQUIVALENCE")
		b.equivalence(p)
	case has("SEQUENCE"), has("IMPORT"), has("MODULEPROCEDURE"),
		has("PROCEDURE"), has("GENERIC"):
		// Storage association does not change the cost model.
		b.ensureUnit(s)
	case has("INCLUDE'") || has("INCLUDE\""):
		u := b.ensureUnit(s)
		name, _ := includeName(s)
		u.r.Scope.Includes = append(u.r.Scope.Includes, name)
		if isMPIHeader(name) {
			b.predefineMPI("mpif.h")
		}
	default:
		return false
	}
	return true
}

// attrs are the attributes of a type declaration.
type attrs struct {
	param, alloc, save, ext, intr, ptr, target, optional bool
	intent                                               string
	dims                                                 []apt.Dim
}

// apply adds the attributes to v (attribute statements add to what earlier
// statements declared).
func (a attrs) apply(v *apt.Var) {
	v.Allocatable = v.Allocatable || a.alloc
	v.Save = v.Save || a.save
	v.External = v.External || a.ext
	v.Intrinsic = v.Intrinsic || a.intr
	v.Pointer = v.Pointer || a.ptr
	v.Target = v.Target || a.target
	v.Optional = v.Optional || a.optional
	if a.intent != "" {
		v.Intent = a.intent
	}
}

// typeDecl parses "type-spec [[, attr]... ::] entity-list".
func (b *builder) typeDecl(s *stmt, p *parser) {
	t, ok := b.typeSpecAt(p)
	if !ok {
		p.fail(p.restAt(), "expected a type")
		return
	}
	var a attrs
	for p.accept(",") {
		b.attribute(p, &a)
	}
	p.accept("::")
	b.entities(s, p, &t, a)
}

func (b *builder) attribute(p *parser, a *attrs) {
	switch {
	case p.keyword("PARAMETER"):
		a.param = true
	case p.keyword("ALLOCATABLE"):
		a.alloc = true
	case p.keyword("SAVE"):
		a.save = true
	case p.keyword("EXTERNAL"):
		a.ext = true
	case p.keyword("INTRINSIC"):
		a.intr = true
	case p.keyword("POINTER"):
		a.ptr = true
	case p.keyword("TARGET"):
		a.target = true
	case p.keyword("OPTIONAL"):
		a.optional = true
	case p.keyword("DIMENSION"):
		p.expect("(")
		a.dims = dims(p.argList())
		p.expect(")")
	case p.keyword("INTENT"):
		p.expect("(")
		switch {
		case p.keyword("INOUT"):
			a.intent = "inout"
		case p.keyword("IN"):
			a.intent = "in"
		case p.keyword("OUT"):
			a.intent = "out"
		default:
			p.fail(p.restAt(), "expected IN, OUT or INOUT")
		}
		p.expect(")")
	case p.keyword("PUBLIC"), p.keyword("PRIVATE"), p.keyword("VALUE"), p.keyword("VOLATILE"),
		p.keyword("PROTECTED"), p.keyword("CONTIGUOUS"), p.keyword("ASYNCHRONOUS"):
	case p.keyword("BIND"):
		p.expect("(")
		p.argList()
		p.expect(")")
	default:
		t := p.peek()
		p.fail(t.at, "unknown attribute "+describe(t))
	}
}

// dims converts subscript-like expressions to array bounds.
func dims(args []apt.Expr) []apt.Dim {
	out := make([]apt.Dim, 0, len(args))
	for _, a := range args {
		switch a := a.(type) {
		case *apt.Section:
			if a.Lo == nil && a.Hi == nil {
				out = append(out, apt.Dim{Deferred: true})
			} else {
				out = append(out, apt.Dim{Lo: a.Lo, Hi: a.Hi})
			}
		default:
			out = append(out, apt.Dim{Hi: a})
		}
	}
	return out
}

// entities parses "name[(dims)][*len][= init | => null()] , ...". t is nil for
// DIMENSION statements, which do not set a type.
func (b *builder) entities(s *stmt, p *parser, t *apt.Type, a attrs) {
	for !p.atEnd() {
		tok := p.next()
		if tok.kind != tIdent {
			p.fail(tok.at, "expected a name, found "+describe(tok))
			return
		}
		v := b.declare(strings.ToLower(tok.text), p.pos(tok.at))
		if t != nil {
			v.Type = *t
		}
		if a.dims != nil {
			v.Dims = a.dims
		}
		if p.accept("(") {
			v.Dims = dims(p.argList())
			p.expect(")")
		}
		if p.t != nil && p.restAt() < len(p.t) && p.t[p.restAt()] == '*' && t != nil {
			p.next()
			if p.accept("(") {
				if p.at("*") {
					v.Type.Len = &apt.Star{Pos: p.pos(p.next().at)}
				} else {
					v.Type.Len = p.expr()
				}
				p.expect(")")
			} else {
				n := p.next()
				if n.kind != tInt {
					p.fail(n.at, "expected a length after *")
					return
				}
				num, _ := strconv.Atoi(n.text)
				if v.Type.Base == apt.TypeCharacter {
					v.Type.Len = intConst(num)
				} else {
					v.Type.Kind = num
				}
			}
		}
		switch {
		case p.accept("="):
			e := p.expr()
			if a.param {
				v.Param = e
			} else {
				v.Init = []apt.Expr{e}
				v.Save = true // initialisation implies SAVE
			}
		case p.accept("=>"):
			v.Init = []apt.Expr{p.expr()}
		case p.at("/"):
			// F77 extension: REAL X/1.0/.
			p.next()
			v.Init = b.dataValues(p)
		}
		a.apply(v)
		if !p.accept(",") {
			break
		}
	}
	p.expectEnd()
}

// procedureDecl parses "PROCEDURE([interface]) [[, attr]... ::] name
// [=> initial-target], ...": procedure pointers (POINTER) and dummy or
// external procedures. Procedure components of a derived type are not
// declared (a call through one is not modelled).
func (b *builder) procedureDecl(s *stmt, p *parser) {
	p.keyword("PROCEDURE")
	iface := ""
	if p.accept("(") {
		if !p.at(")") {
			iface = strings.ToLower(p.ident())
		}
		p.expect(")")
	}
	var a attrs
	for p.accept(",") {
		b.attribute(p, &a)
	}
	p.accept("::")
	for !p.atEnd() {
		tok := p.next()
		if tok.kind != tIdent {
			p.fail(tok.at, "expected a name, found "+describe(tok))
			return
		}
		v := b.declare(strings.ToLower(tok.text), p.pos(tok.at))
		v.Procedure, v.Interface = true, iface
		if p.accept("=>") {
			v.Init = []apt.Expr{p.expr()}
		}
		a.apply(v)
		if !p.accept(",") {
			break
		}
	}
	p.expectEnd()
}

// implicit parses IMPLICIT NONE or IMPLICIT type (letters), ...
func (b *builder) implicit(s *stmt, p *parser) {
	sc := b.u.r.Scope
	if p.keyword("NONE") {
		// IMPLICIT NONE (TYPE, EXTERNAL) (Fortran 2018): EXTERNAL asks
		// every procedure to be declared, which changes nothing here;
		// IMPLICIT NONE () is IMPLICIT NONE (TYPE), and IMPLICIT NONE
		// (EXTERNAL) alone leaves implicit typing on.
		types := true
		if p.accept("(") {
			types = p.at(")")
			for !p.accept(")") {
				switch {
				case p.keyword("TYPE"):
					types = true
				case p.keyword("EXTERNAL"):
				default:
					p.fail(p.restAt(), "expected TYPE or EXTERNAL in IMPLICIT NONE (...)")
					return
				}
				if !p.accept(",") && !p.at(")") {
					p.fail(p.restAt(), "expected , or ) in IMPLICIT NONE (...)")
					return
				}
			}
		}
		sc.ImplicitNone = sc.ImplicitNone || types
		p.expectEnd()
		return
	}
	for !p.atEnd() {
		// The kind selector of IMPLICIT REAL(8)(A-H) is followed by a second
		// parenthesised list; IMPLICIT REAL(A-H) has only the letter list.
		save := p.restAt()
		t, ok := b.typeSpecAt(p)
		if !ok {
			p.fail(save, "expected a type in IMPLICIT")
			return
		}
		if !p.at("(") {
			// The selector was the letter list: re-parse without it.
			p.i, p.peeked = save, false
			t = b.baseTypeOnly(p)
		}
		p.expect("(")
		for !p.atEnd() {
			from := p.ident()
			to := from
			if p.accept("-") {
				to = p.ident()
			}
			if len(from) != 1 || len(to) != 1 || from > to {
				p.fail(p.restAt(), "expected a letter range in IMPLICIT")
				return
			}
			sc.Implicit = append(sc.Implicit, apt.ImplicitRule{From: from[0], To: to[0], Type: t})
			if !p.accept(",") {
				break
			}
		}
		p.expect(")")
		if !p.accept(",") {
			break
		}
	}
	p.expectEnd()
}

// baseTypeOnly parses just the type keyword (and *n) for IMPLICIT.
func (b *builder) baseTypeOnly(p *parser) apt.Type {
	for _, k := range []struct {
		kw string
		t  apt.Type
	}{
		{"INTEGER", apt.Type{Base: apt.TypeInteger, Kind: 4}},
		{"REAL", apt.Type{Base: apt.TypeReal, Kind: 4}},
		{"DOUBLEPRECISION", apt.Type{Base: apt.TypeReal, Kind: 8}},
		{"DOUBLECOMPLEX", apt.Type{Base: apt.TypeComplex, Kind: 16}},
		{"COMPLEX", apt.Type{Base: apt.TypeComplex, Kind: 8}},
		{"LOGICAL", apt.Type{Base: apt.TypeLogical, Kind: 4}},
		{"CHARACTER", apt.Type{Base: apt.TypeCharacter, Len: intConst(1)}},
	} {
		if p.keyword(k.kw) {
			return k.t
		}
	}
	p.fail(p.restAt(), "expected a type in IMPLICIT")
	return apt.Type{Base: apt.TypeUnknown}
}

// parameter parses PARAMETER (name = value, ...).
func (b *builder) parameter(s *stmt, p *parser) {
	p.expect("(")
	for !p.atEnd() {
		tok := p.next()
		if tok.kind != tIdent {
			p.fail(tok.at, "expected a name in PARAMETER, found "+describe(tok))
			return
		}
		p.expect("=")
		e := p.expr()
		if p.err != "" {
			return
		}
		b.declare(strings.ToLower(tok.text), p.pos(tok.at)).Param = e
		if !p.accept(",") {
			break
		}
	}
	p.expect(")")
	p.expectEnd()
}

// common parses COMMON [/name/] list [[,] /name/ list]...
func (b *builder) common(s *stmt, p *parser) {
	sc := b.u.r.Scope
	name := ""
	for !p.atEnd() {
		if p.accept("//") {
			name = ""
		} else if p.accept("/") {
			name = p.ident()
			p.expect("/")
		}
		blk := findCommon(sc, name)
		if blk == nil {
			blk = &apt.Common{Name: name, Pos: s.posAt(0)}
			sc.Commons = append(sc.Commons, blk)
		}
		for !p.atEnd() && !p.at("/") && !p.at("//") {
			tok := p.next()
			if tok.kind != tIdent {
				p.fail(tok.at, "expected a name in COMMON, found "+describe(tok))
				return
			}
			v := b.declare(strings.ToLower(tok.text), p.pos(tok.at))
			if p.accept("(") {
				v.Dims = dims(p.argList())
				p.expect(")")
			}
			v.Common, v.InCommon = name, true
			blk.Vars = append(blk.Vars, v.Name)
			if !p.accept(",") {
				break
			}
		}
	}
	p.expectEnd()
}

// namelist parses NAMELIST /group/ names [[,] /group/ names]...: a READ
// with NML=group sets the variables its input names.
// equivalence records the variables an EQUIVALENCE statement names (the
// first name of each item: a, b in (a, b(1))): another name reaches their
// storage.
func (b *builder) equivalence(p *parser) {
	sc := b.u.r.Scope
	depth, item := 0, false
	for !p.atEnd() {
		tok := p.next()
		switch {
		case tok.kind == tOp && tok.text == "(":
			depth++
			item = depth == 1
			continue
		case tok.kind == tOp && tok.text == ")":
			depth--
		case tok.kind == tOp && tok.text == "," && depth == 1:
			item = true
			continue
		case tok.kind == tIdent && item && depth == 1:
			sc.Equivalenced = append(sc.Equivalenced, strings.ToLower(tok.text))
		}
		item = false
	}
}

func (b *builder) namelist(s *stmt, p *parser) {
	sc := b.u.r.Scope
	for !p.atEnd() {
		p.accept(",")
		if !p.accept("/") {
			tok := p.next()
			p.fail(tok.at, "expected /group/ in NAMELIST, found "+describe(tok))
			return
		}
		at := p.peek().at
		name := p.ident()
		p.expect("/")
		g := sc.FindNamelist(name)
		if g == nil {
			g = &apt.Namelist{Name: name, Pos: s.posAt(at)}
			sc.Namelists = append(sc.Namelists, g)
		}
		for !p.atEnd() && !p.at("/") {
			tok := p.next()
			if tok.kind != tIdent {
				p.fail(tok.at, "expected a name in NAMELIST, found "+describe(tok))
				return
			}
			g.Vars = append(g.Vars, strings.ToLower(tok.text))
			if !p.accept(",") || p.at("/") {
				break
			}
		}
	}
	p.expectEnd()
}

func findCommon(sc *apt.Scope, name string) *apt.Common {
	for _, c := range sc.Commons {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// data parses DATA targets /values/ [[,] targets /values/]...
func (b *builder) data(s *stmt, p *parser) {
	for !p.atEnd() {
		var targets []apt.Expr
		for !p.atEnd() && !p.at("/") {
			targets = append(targets, p.dataTarget())
			if !p.accept(",") {
				break
			}
		}
		p.expect("/")
		values := b.dataValues(p)
		if p.err != "" {
			return
		}
		names := make([]string, len(targets))
		scalars := true
		for i, t := range targets {
			switch t := t.(type) {
			case *apt.Name:
				names[i] = t.Name
			case *apt.Index:
				names[i], scalars = t.Name, false
			case *apt.ImpliedDo:
				scalars = false
				apt.InspectExpr(t, func(e apt.Expr) bool {
					if x, ok := e.(*apt.Index); ok && names[i] == "" {
						names[i] = x.Name
					}
					return true
				})
			}
		}
		if scalars && len(values) == len(targets) {
			for i, n := range names {
				v := b.declare(n, targets[i].At())
				v.Init, v.Data = append(v.Init, values[i]), true
			}
		} else if len(names) > 0 && names[0] != "" {
			v := b.declare(names[0], targets[0].At())
			v.Init, v.Data = append(v.Init, values...), true
		}
		p.accept(",")
	}
}

// dataValues parses values up to the closing "/". A repeated value r*c is kept
// as the Binary r*c (DATA values are constants, so a product there is always a
// repeat count).
func (b *builder) dataValues(p *parser) []apt.Expr {
	var vals []apt.Expr
	for !p.atEnd() && !p.at("/") {
		var v apt.Expr
		neg := p.at("-")
		if neg || p.at("+") {
			t := p.next()
			v = &apt.Unary{Pos: p.pos(t.at), Op: map[bool]apt.Op{true: apt.OpNeg, false: apt.OpPlus}[neg], X: p.primary()}
		} else {
			v = p.primary()
		}
		if p.accept("*") {
			var c apt.Expr
			if p.at("-") || p.at("+") {
				t := p.next()
				op := apt.OpPlus
				if t.text == "-" {
					op = apt.OpNeg
				}
				c = &apt.Unary{Pos: p.pos(t.at), Op: op, X: p.primary()}
			} else {
				c = p.primary()
			}
			v = &apt.Binary{Pos: v.At(), Op: apt.OpMul, X: v, Y: c}
		}
		vals = append(vals, v)
		if !p.accept(",") {
			break
		}
	}
	p.expect("/")
	return vals
}

// use parses USE [, intrinsic ::] name [, ONLY: list] [, local => remote]...
func (b *builder) use(s *stmt, p *parser) {
	if p.accept(",") {
		p.keyword("INTRINSIC")
		p.keyword("NON_INTRINSIC")
	}
	p.accept("::")
	name := p.ident()
	u := &apt.Use{Module: name, Pos: s.posAt(0)}
	if p.accept(",") {
		only := p.keyword("ONLY")
		if only {
			p.expect(":")
		}
		for !p.atEnd() {
			if p.keyword("OPERATOR") || p.keyword("ASSIGNMENT") {
				p.expect("(")
				for !p.atEnd() && !p.at(")") {
					p.next()
				}
				p.expect(")")
			} else {
				local := p.ident()
				remote := local
				if p.accept("=>") {
					remote = p.ident()
					if u.Renames == nil {
						u.Renames = map[string]string{}
					}
					u.Renames[local] = remote
				}
				if only {
					u.Only = append(u.Only, local)
				}
			}
			if !p.accept(",") {
				break
			}
		}
	}
	p.expectEnd()
	if p.err != "" {
		return
	}
	if name == "mpi" || name == "mpi_f08" {
		b.predefineMPI(name)
		return
	}
	b.u.r.Scope.AddUse(u)
}

// attrStmt handles SAVE, EXTERNAL, INTRINSIC, ALLOCATABLE, INTENT, OPTIONAL,
// POINTER, TARGET, PUBLIC, PRIVATE ... as statements.
func (b *builder) attrStmt(s *stmt, p *parser, ts string) {
	var a attrs
	declaring := false
	for _, kw := range []string{"SAVE", "EXTERNAL", "INTRINSIC", "ALLOCATABLE", "OPTIONAL", "POINTER", "TARGET", "INTENT("} {
		if p.hasPrefix(kw) {
			declaring = true
			break
		}
	}
	if !declaring {
		// PUBLIC, PRIVATE, PROTECTED, VALUE, VOLATILE...: access control only.
		return
	}
	b.attribute(p, &a) // the statement's keyword is the attribute's
	if a.ptr && p.at("(") {
		b.crayPointers(p)
		return
	}
	p.accept("::")
	if a.save && p.atEnd() {
		return // SAVE with no list saves everything
	}
	for !p.atEnd() {
		if a.save && p.at("/") {
			p.next()
			p.ident()
			p.expect("/")
		} else {
			tok := p.next()
			if tok.kind != tIdent {
				p.fail(tok.at, "expected a name, found "+describe(tok))
				return
			}
			v := b.declare(strings.ToLower(tok.text), p.pos(tok.at))
			if p.accept("(") {
				v.Dims = dims(p.argList())
				p.expect(")")
			}
			a.apply(v)
		}
		if !p.accept(",") {
			break
		}
	}
	p.expectEnd()
}

// typeDef starts a derived type definition: TYPE [[, attrs] ::] name.
func (b *builder) typeDef(s *stmt, p *parser) {
	p.keyword("TYPE")
	parent := ""
	for p.accept(",") {
		switch {
		case p.keyword("PUBLIC"), p.keyword("PRIVATE"), p.keyword("SEQUENCE"), p.keyword("ABSTRACT"):
		case p.keyword("EXTENDS"):
			p.expect("(")
			parent = p.ident()
			p.expect(")")
		case p.keyword("BIND"):
			p.expect("(")
			p.argList()
			p.expect(")")
		default:
			p.fail(p.restAt(), "unknown TYPE attribute")
			return
		}
	}
	p.accept("::")
	name := p.ident()
	p.expectEnd()
	if p.err != "" {
		return
	}
	b.u.typeDef = &apt.DerivedType{Name: name, Pos: s.posAt(0), Extends: parent}
}

// typeBody handles the component declarations of a derived type definition.
func (b *builder) typeBody(s *stmt, p *parser) {
	ts := string(s.text)
	switch {
	case strings.HasPrefix(ts, "ENDTYPE"):
		b.u.r.Scope.Types = append(b.u.r.Scope.Types, b.u.typeDef)
		b.u.typeDef, b.u.typeBound = nil, false
	case ts == "SEQUENCE", ts == "PRIVATE", ts == "PUBLIC":
	case ts == "CONTAINS":
		b.u.typeBound = true
	case b.u.typeBound, strings.HasPrefix(ts, "PROCEDURE"), strings.HasPrefix(ts, "FINAL"), strings.HasPrefix(ts, "GENERIC"):
		// Type-bound procedure bindings name routines defined elsewhere.
		b.binding(p)
	default:
		if _, ok := b.typeSpecAt(newParser(s, 0)); !ok {
			p.fail(0, "expected a component declaration in TYPE "+b.u.typeDef.Name)
			return
		}
		b.typeDecl(s, p)
	}
}

// dataTarget parses a DATA target: a variable, array element, substring or an
// implied DO list. A full expression would swallow the "/" that starts the
// value list.
func (p *parser) dataTarget() apt.Expr {
	t := p.next()
	switch {
	case t.kind == tOp && t.text == "(":
		return p.parenthesised(p.pos(t.at))
	case t.kind == tIdent:
		return p.designatorRest(strings.ToLower(t.text), p.pos(t.at), nil)
	}
	p.fail(t.at, "expected a DATA target, found "+describe(t))
	return &apt.Star{Pos: p.pos(t.at)}
}

// binding parses a type-bound procedure statement after CONTAINS in a type
// definition: PROCEDURE [(iface)] [[, attrs] ::] b [=> proc] [, ...] or
// GENERIC [, access] :: name => b1, b2. FINAL, and generics of operators
// and assignment, bind nothing a CALL names and are skipped.
func (b *builder) binding(p *parser) {
	dt := b.u.typeDef
	// A binding not read binds nothing: calls of it stay unresolved, and
	// are reported as such, as before bindings were read.
	defer func() { p.err = "" }()
	switch {
	case p.keyword("PROCEDURE"):
		if p.accept("(") {
			p.ident() // the interface of a deferred binding
			p.expect(")")
		}
		var tmpl apt.Binding
		for p.accept(",") {
			switch {
			case p.keyword("NOPASS"):
				tmpl.NoPass = true
			case p.keyword("PASS"):
				if p.accept("(") {
					tmpl.Pass = p.ident()
					p.expect(")")
				}
			case p.keyword("POINTER"):
				// A procedure pointer component, among the components.
				tmpl.Pointer = true
			case p.keyword("DEFERRED"), p.keyword("NON_OVERRIDABLE"), p.keyword("PUBLIC"), p.keyword("PRIVATE"):
			default:
				return
			}
		}
		p.accept("::")
		for !p.atEnd() {
			name := p.ident()
			if p.err != "" || name == "" {
				return
			}
			bd := tmpl
			bd.Name, bd.Procs = name, []string{name}
			if bd.Pointer {
				bd.Procs = nil
			}
			if p.accept("=>") {
				target := p.ident()
				bd.Procs = []string{target}
				if strings.EqualFold(target, "null") && p.accept("(") {
					p.expect(")")
					bd.Procs = nil
				}
			}
			dt.Bindings = append(dt.Bindings, &bd)
			if !p.accept(",") {
				break
			}
		}
	case p.keyword("GENERIC"):
		for p.accept(",") {
			if !p.keyword("PUBLIC") && !p.keyword("PRIVATE") {
				return
			}
		}
		p.accept("::")
		if t := p.peek(); t.kind == tIdent && (strings.HasPrefix(t.text, "OPERATOR") || strings.HasPrefix(t.text, "ASSIGNMENT")) {
			return
		}
		name := p.ident()
		if p.err != "" || !p.accept("=>") {
			return
		}
		bd := &apt.Binding{Name: name, Generic: true}
		for !p.atEnd() {
			bd.Procs = append(bd.Procs, p.ident())
			if p.err != "" || !p.accept(",") {
				break
			}
		}
		dt.Bindings = append(dt.Bindings, bd)
	}
}

// selectorArgs parses the items of a type's kind or length selector. A
// character length may be deferred (CHARACTER(LEN=:), ALLOCATABLE, or
// CHARACTER(:)): its colon is read as a Star, a length the declaration
// does not fix, as an assumed length is.
func (p *parser) selectorArgs(character bool) []apt.Expr {
	var args []apt.Expr
	if p.at(")") {
		return args
	}
	for {
		t := p.peek()
		switch {
		case character && t.kind == tOp && t.text == ":":
			p.next()
			args = append(args, &apt.Star{Pos: p.pos(t.at)})
		case character && t.kind == tIdent && strings.EqualFold(t.text, "LEN") && p.deferredLen():
			args = append(args, &apt.Keyword{Pos: p.pos(t.at), Name: "len", Value: &apt.Star{Pos: p.pos(t.at)}})
		default:
			args = append(args, p.arg())
		}
		if !p.accept(",") {
			return args
		}
	}
}

// deferredLen consumes LEN=: where the parser is at it, and reports
// whether it did.
func (p *parser) deferredLen() bool {
	save, savePeek, saveTok := p.i, p.peeked, p.tok
	p.next()
	if p.accept("=") && p.at(":") {
		p.next()
		return true
	}
	p.i, p.peeked, p.tok = save, savePeek, saveTok
	return false
}
