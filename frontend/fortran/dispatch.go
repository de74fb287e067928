package fortran

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// dispatch classifies a statement by its leading keyword (the canonical text has
// no blanks, so keywords are prefixes) and hands it to its handler.
func (b *builder) dispatch(s *stmt, p *parser, cname string) {
	start := p.i
	t := s.text[start:]
	ts := string(t)
	if isAssignment(s.text, start) {
		b.assignment(s, p)
		return
	}
	if b.unitHeader(s, p) {
		return
	}
	has := func(kw string) bool { return strings.HasPrefix(ts, kw) }
	switch {
	case ts == "END" || has("ENDPROGRAM") || has("ENDSUBROUTINE") || has("ENDFUNCTION") ||
		has("ENDMODULE") || has("ENDBLOCKDATA") || has("ENDSUBMODULE") || has("ENDPROCEDURE"):
		b.endUnit(s)
	case has("ENDDO"):
		p.keyword("ENDDO")
		b.endDo(s, p)
	case has("ENDIF"):
		b.endIf(s, cIf, "END IF")
	case has("ENDSELECT"):
		b.endIf(s, cSelect, "END SELECT")
	case has("ENDWHERE"):
		b.endIf(s, cWhere, "END WHERE")
	case ts == "CONTAINS":
		u := b.ensureUnit(s)
		u.contains = true
		u.block = nil
	case has("INTERFACE") || has("ABSTRACTINTERFACE"):
		b.openInterface(s)
	case has("SELECTTYPE("):
		p.keyword("SELECTTYPE")
		b.selectType(s, p, cname)
	case b.inSelectType() && (has("TYPEIS(") || has("CLASSIS(") || has("CLASSDEFAULT")):
		b.typeGuard(s, p)
	case b.declaration(s, p):
	case has("DOWHILE(") || has("DO"):
		b.doStmt(s, p, cname)
	case has("IF("):
		b.ifStmt(s, p, cname)
	case has("ELSEIF("):
		p.keyword("ELSEIF")
		b.elseIf(s, p)
	case has("ELSEWHERE"):
		b.elseWhere(s, p)
	case has("ELSE"):
		b.elseStmt(s)
	case has("SELECTCASE("):
		p.keyword("SELECTCASE")
		b.selectCase(s, p, cname)
	case has("CASE"):
		p.keyword("CASE")
		b.caseStmt(s, p)
	case has("WHERE("):
		p.keyword("WHERE")
		b.where(s, p)
	case has("FORALL("):
		p.keyword("FORALL")
		b.forall(s, p, cname)
	case has("ENDFORALL"):
		b.endForall(s)
	case has("ASSOCIATE("):
		b.associate(s, p)
	case has("ENDASSOCIATE"):
		b.endScoping(s, cAssociate, "END ASSOCIATE")
	case ts == "BLOCK":
		b.blockConstruct(s, cname)
	case ts == "ENDBLOCK" || has("ENDBLOCK") && !has("ENDBLOCKDATA"):
		b.endScoping(s, cBlock, "END BLOCK")
	default:
		b.executable(s, p, ts)
	}
}

// executable handles the simple executable statements.
func (b *builder) executable(s *stmt, p *parser, ts string) {
	u := b.ensureUnit(s)
	has := func(kw string) bool { return strings.HasPrefix(ts, kw) }
	switch {
	case has("CALL"):
		p.keyword("CALL")
		b.call(s, p)
	case has("GOTO"):
		p.keyword("GOTO")
		b.gotoStmt(s, p)
	case ts == "CONTINUE":
		u.add(&apt.Continue{NodeBase: base(s)})
	case has("RETURN"):
		p.keyword("RETURN")
		n := &apt.Return{NodeBase: base(s)}
		if !p.atEnd() {
			n.Value = p.expr()
		}
		p.expectEnd()
		if p.err == "" {
			u.add(n)
		}
	case has("ERRORSTOP"), has("STOP"):
		n := &apt.Stop{NodeBase: base(s), Error: p.keyword("ERRORSTOP")}
		if !n.Error {
			p.keyword("STOP")
		}
		if !p.atEnd() {
			n.Code = p.expr()
		}
		p.expectEnd()
		if p.err == "" {
			u.add(n)
		}
	case has("PAUSE"):
		u.add(&apt.Continue{NodeBase: base(s)})
	case has("EXIT"):
		p.keyword("EXIT")
		name := p.optName()
		p.expectEnd()
		if c := u.namedConstruct(name); c != nil && c.kind != cDo {
			// EXIT from a BLOCK, IF or SELECT construct (Fortran 2008
			// 8.1.10): a jump to its end, which the APT, where such a
			// construct is no node of its own, does not model.
			d := apt.Diagnostic{Pos: s.posAt(0), Severity: apt.Warning,
				Msg: "an EXIT from the construct " + name + ", which is no loop, is not modelled; what follows it in the construct is not counted"}
			b.fe.diags = append(b.fe.diags, d)
			u.add(&apt.Unknown{NodeBase: base(s), Text: s.raw, Diag: d, Skips: true})
			break
		}
		u.add(&apt.Exit{NodeBase: base(s), Construct: name})
	case has("CYCLE"):
		p.keyword("CYCLE")
		u.add(&apt.Cycle{NodeBase: base(s), Construct: p.optName()})
		p.expectEnd()
	case has("READ"), has("WRITE"), has("PRINT"), has("OPEN("), has("CLOSE("), has("INQUIRE("),
		has("REWIND"), has("BACKSPACE"), has("FLUSH"), has("ENDFILE"):
		b.io(s, p, ts)
	case has("ALLOCATE("), has("DEALLOCATE("), has("NULLIFY("):
		b.allocate(s, p, ts)
	case has("ASSIGN"):
		p.keyword("ASSIGN")
		b.assignLabel(s, p)
	case has("FORMAT("), has("ENTRY"):
		// FORMAT is not executable: a READ or WRITE naming its label
		// uses its specification. ENTRY points are rare and not modelled
		// as routines, but they do not change the enclosing routine's
		// control flow.
		if has("FORMAT(") && s.label != "" {
			u := b.ensureUnit(s)
			if u.r.Formats == nil {
				u.r.Formats = map[string]string{}
			}
			u.r.Formats[strings.TrimLeft(s.label, "0")] = ts[len("FORMAT"):]
		}
		if has("ENTRY") {
			b.fe.diag(s.posAt(0), apt.Warning, "ENTRY statement ignored: calls to the entry are costed as unknown routines")
		}
	default:
		b.unknown(s, s.posAt(0), "unrecognised statement")
	}
}

// optName parses an optional construct name after EXIT or CYCLE.
func (p *parser) optName() string {
	if t := p.peek(); t.kind == tIdent {
		p.next()
		return strings.ToLower(t.text)
	}
	return ""
}

// unitHeader handles PROGRAM, SUBROUTINE, FUNCTION, MODULE and BLOCK DATA.
func (b *builder) unitHeader(s *stmt, p *parser) bool {
	ts := string(s.text)
	newRoutine := func(name string, kind apt.RoutineKind) *apt.Routine {
		return &apt.Routine{NodeBase: apt.NodeBase{Span: s.span()}, Name: strings.ToLower(name), Kind: kind, Scope: &apt.Scope{}}
	}
	switch {
	case strings.HasPrefix(ts, "PROGRAM") && len(ts) > 7:
		p.keyword("PROGRAM")
		name := p.ident()
		p.expectEnd()
		b.openUnit(newRoutine(name, apt.KindProgram))
		return true
	case strings.HasPrefix(ts, "SUBMODULE(") && topLevel(s.text, 0, '=') < 0:
		b.submodule(s, p, newRoutine)
		return true
	case separateBody.MatchString(s.raw) && b.u != nil && b.u.contains:
		return b.separateProcedure(s)
	case strings.HasPrefix(ts, "MODULE") && !strings.HasPrefix(ts, "MODULEPROCEDURE") && len(ts) > 6 && topLevel(s.text, 0, '=') < 0 &&
		!separateHeader.MatchString(s.raw):
		p.keyword("MODULE")
		name := p.ident()
		p.expectEnd()
		b.openUnit(newRoutine(name, apt.KindModule))
		return true
	case strings.HasPrefix(ts, "BLOCKDATA"):
		p.keyword("BLOCKDATA")
		name := "blockdata"
		if !p.atEnd() {
			name = p.ident()
		}
		p.expectEnd()
		b.openUnit(newRoutine(name, apt.KindBlockData))
		return true
	}
	// [prefixes] [type] SUBROUTINE|FUNCTION name
	save := p.i
	var typ apt.Type
	var hasType, elemental bool
	for {
		switch {
		case separateHeader.MatchString(s.raw) && p.keyword("MODULE"):
			continue // a separate module procedure (submodule.go)
		case p.keyword("ELEMENTAL"):
			elemental = true
			continue
		case p.keyword("RECURSIVE"), p.keyword("PURE"), p.keyword("IMPURE"):
			continue
		}
		if !hasType {
			if t, ok := b.typeSpecAt(p); ok {
				typ, hasType = t, true
				continue
			}
		}
		break
	}
	kind := apt.RoutineKind(0)
	switch {
	case p.hasPrefix("SUBROUTINE") && !hasType:
		p.keyword("SUBROUTINE")
		kind = apt.KindSubroutine
	case p.hasPrefix("FUNCTION"):
		// Distinguish "REAL FUNCTION F(X)" from a variable named FUNCTIONxxx:
		// a function header has a name followed by "(" and ends in ")" or RESULT.
		rest := string(s.text[p.restAt()+8:])
		k := strings.IndexByte(rest, '(')
		if k <= 0 || !(strings.HasSuffix(rest, ")")) {
			p.i, p.peeked = save, false
			return false
		}
		p.keyword("FUNCTION")
		kind = apt.KindFunction
	default:
		p.i, p.peeked = save, false
		return false
	}
	name := p.ident()
	if p.err != "" {
		p.i, p.peeked, p.err = save, false, ""
		return false
	}
	r := newRoutine(name, kind)
	r.Elemental = elemental
	if p.accept("(") {
		for !p.at(")") && !p.atEnd() {
			if p.accept("*") {
				r.Formals = append(r.Formals, "*")
			} else {
				r.Formals = append(r.Formals, strings.ToLower(p.ident()))
			}
			if !p.accept(",") {
				break
			}
		}
		p.expect(")")
	}
	if kind == apt.KindFunction {
		r.Result = r.Name
		if p.keyword("RESULT") {
			p.expect("(")
			r.Result = strings.ToLower(p.ident())
			p.expect(")")
		}
	}
	if p.keyword("BIND") {
		p.expect("(")
		p.argList()
		p.expect(")")
	}
	p.expectEnd()
	if p.err != "" {
		return true
	}
	b.openUnit(r)
	for _, f := range r.Formals {
		if f != "*" {
			b.declare(f, s.posAt(0)).Dummy = true
		}
	}
	if hasType && r.Result != "" {
		v := b.declare(r.Result, s.posAt(0))
		v.Type = typ
	}
	return true
}

// ident parses an identifier and returns it lower-cased.
func (p *parser) ident() string {
	t := p.next()
	if t.kind != tIdent {
		p.fail(t.at, "expected a name, found "+describe(t))
		return ""
	}
	return strings.ToLower(t.text)
}

func (b *builder) endUnit(s *stmt) {
	if b.u == nil {
		b.fe.diag(s.posAt(0), apt.Error, "END without a program unit")
		return
	}
	b.closeUnit(s)
}
