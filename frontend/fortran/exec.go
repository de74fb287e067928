package fortran

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// assignment parses "target = value" or "target => value".
func (b *builder) assignment(s *stmt, p *parser) {
	u := b.ensureUnit(s)
	st := b.assignStmt(s, p)
	if st != nil && !b.statementFunction(u, st) {
		u.addStmt(st)
	}
}

// statementFunction records f(x, y) = expr before the unit's first
// executable statement, where f is no array, as the statement function it
// is (Fortran 2008 §12.6.4): a function contained in the unit whose body
// assigns expr to its result, the dummies and the result typed as the
// unit declares those names. It reports whether st was one.
func (b *builder) statementFunction(u *unit, st *apt.Stmt) bool {
	ix, ok := st.Target.(*apt.Index)
	if u.exec || st.Kind != apt.StmtAssign || !ok || ix.Base != nil || len(ix.Subs) == 0 || u.interfaces > 0 || u.typeDef != nil {
		return false
	}
	host := u.r.Scope.Lookup(ix.Name)
	if host != nil && (host.IsArray() || host.Param != nil || host.Type.Base == apt.TypeCharacter) {
		return false
	}
	if host == nil && (u.host != nil || len(u.r.Scope.Uses) > 0 || u.r.Scope.ImplicitNone) {
		// An array of a module or of the host (elapsed(n) = 0 with USE
		// timers) is not declared here: a statement function would be,
		// where USE or IMPLICIT NONE is in force.
		return false
	}
	r := &apt.Routine{NodeBase: apt.NodeBase{Span: st.Span}, Name: ix.Name, Kind: apt.KindFunction,
		Result: ix.Name, Statement: true, Scope: &apt.Scope{}}
	seen := map[string]bool{}
	for _, a := range ix.Subs {
		nm, ok := a.(*apt.Name)
		if !ok || seen[nm.Name] {
			return false
		}
		seen[nm.Name] = true
		r.Formals = append(r.Formals, nm.Name)
	}
	for _, name := range append(slices.Clone(r.Formals), ix.Name) {
		v := &apt.Var{Name: name, Pos: st.Span.Start()}
		if hv := u.r.Scope.Lookup(name); hv != nil {
			v.Type = hv.Type
		}
		r.Scope.Add(v)
	}
	if host != nil {
		host.Procedure = true // the name is the function's
	}
	r.Body = []apt.Node{&apt.Block{NodeBase: apt.NodeBase{Span: st.Span}, Stmts: []*apt.Stmt{{Span: st.Span,
		Kind: apt.StmtAssign, Target: &apt.Name{Pos: ix.Pos, Name: ix.Name}, Value: st.Value}}}}
	u.r.Contains = append(u.r.Contains, r)
	return true
}

func (b *builder) assignStmt(s *stmt, p *parser) *apt.Stmt {
	tok := p.next()
	if tok.kind != tIdent {
		p.fail(tok.at, "expected a variable, found "+describe(tok))
		return nil
	}
	target := p.designatorRest(strings.ToLower(tok.text), p.pos(tok.at), nil)
	kind := apt.StmtAssign
	if p.accept("=>") {
		kind = apt.StmtPointerAssign
	} else {
		p.expect("=")
	}
	value := p.expr()
	p.expectEnd()
	if p.err != "" {
		return nil
	}
	return &apt.Stmt{Span: s.span(), Label: s.label, Kind: kind, Target: target, Value: value}
}

// doStmt parses DO [label] [,] [var = lo, hi [, step]] and DO [label] [,] WHILE (cond).
func (b *builder) doStmt(s *stmt, p *parser, cname string) {
	u := b.ensureUnit(s)
	p.keyword("DO")
	loop := &apt.Loop{NodeBase: base(s), Construct: cname}
	c := &construct{kind: cDo, loop: loop, body: &loop.Body, name: cname}
	// Label: digits directly after DO. In DO10I=1,N the label is 10 and the
	// variable I: a variable name cannot start with a digit, so all leading
	// digits belong to the label.
	at := p.restAt()
	k := at
	for k < len(p.t) && isDigit(p.t[k]) {
		k++
	}
	if k > at {
		c.label = strings.TrimLeft(string(p.t[at:k]), "0")
		if c.label == "" {
			c.label = "0"
		}
		loop.EndLabel = c.label
		p.i, p.peeked = k, false
	}
	p.accept(",")
	switch {
	case p.atEnd():
		loop.Forever = true
	case p.hasPrefix("CONCURRENT("):
		b.doConcurrent(s, p, c)
		return
	case p.keyword("WHILE"):
		p.expect("(")
		loop.While = p.expr()
		p.expect(")")
	default:
		loop.Var = p.ident()
		if sel, ok := b.u.associated(loop.Var); ok {
			if nm, isName := sel.(*apt.Name); isName {
				loop.Var = nm.Name // a BLOCK's own variable
			}
		}
		p.expect("=")
		loop.Lower = p.expr()
		p.expect(",")
		loop.Upper = p.expr()
		if p.accept(",") {
			loop.Step = p.expr()
		}
	}
	p.expectEnd()
	if p.err != "" {
		// Keep the construct so that its END DO or terminal label still
		// matches; the loop has no bounds and an Unknown records the error.
		b.unknown(s, p.pos(p.errAt), p.err)
		p.err = ""
		loop.Var, loop.Lower, loop.Upper, loop.Step, loop.While = "", nil, nil, nil, nil
		loop.Forever = true
	}
	loop.Iterations, loop.OMP, loop.OMPClauses, loop.Independent = u.iterations, u.omp, u.ompClauses, u.independent
	u.iterations, u.omp, u.ompClauses, u.independent = nil, "", "", false
	loop.Label = s.label
	if len(u.stack) >= maxNesting {
		b.push(s, c) // reports the error
		return
	}
	u.add(loop)
	b.push(s, c)
}

// endDo closes the innermost block DO.
func (b *builder) endDo(s *stmt, p *parser) {
	u := b.ensureUnit(s)
	if n := len(u.stack); n == 0 || u.stack[n-1].kind != cDo {
		p.fail(0, "END DO without a matching DO")
		return
	}
	c := u.stack[len(u.stack)-1]
	for _, l := range c.nest {
		setEnd(&l.Span, s)
	}
	if s.label != "" && c.label == s.label {
		// "10 END DO" terminating DO 10: closeLabel does it.
		u.add(&apt.Continue{NodeBase: base(s)})
		return
	}
	if s.label != "" {
		u.add(&apt.Continue{NodeBase: base(s)})
	}
	setEnd(&c.loop.Span, s)
	b.pop()
}

// ifStmt parses IF (cond) THEN, the logical IF (cond) stmt and the arithmetic
// IF (e) l1, l2, l3.
func (b *builder) ifStmt(s *stmt, p *parser, cname string) {
	u := b.ensureUnit(s)
	p.keyword("IF")
	p.expect("(")
	cond := p.expr()
	p.expect(")")
	if p.err != "" {
		return
	}
	rest := p.restAt()
	switch {
	case rest >= len(p.t):
		p.fail(rest, "missing statement after IF (...)")
	case string(p.t[rest:]) == "THEN":
		n := &apt.If{NodeBase: base(s), Kind: apt.IfBlock, Construct: cname}
		br := &apt.Branch{NodeBase: apt.NodeBase{Span: s.span()}, Cond: cond}
		n.Branches = append(n.Branches, br)
		if len(u.stack) >= maxNesting {
			b.push(s, nil) // reports the error
			return
		}
		u.add(n)
		b.push(s, &construct{kind: cIf, ifn: n, body: &br.Body, name: cname})
	case rest < len(p.t) && isDigit(p.t[rest]):
		// Arithmetic IF: branches e<0, e==0, e>0.
		var labels []string
		for !p.atEnd() {
			t := p.next()
			if t.kind != tInt {
				p.fail(t.at, "expected a label in arithmetic IF, found "+describe(t))
				return
			}
			labels = append(labels, strings.TrimLeft(t.text, "0"))
			if !p.accept(",") {
				break
			}
		}
		p.expectEnd()
		if len(labels) != 3 {
			p.fail(rest, "arithmetic IF needs three labels")
		}
		if p.err != "" {
			return
		}
		n := &apt.If{NodeBase: base(s), Kind: apt.IfArithmetic}
		zero := &apt.Const{Pos: cond.At(), Kind: apt.ConstInt, Text: "0", Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
		for i, op := range []apt.Op{apt.OpLt, apt.OpEq, apt.OpGt} {
			g := &apt.Goto{NodeBase: apt.NodeBase{Span: s.span()}, Kind: apt.GotoPlain, Targets: []string{labels[i]}}
			n.Branches = append(n.Branches, &apt.Branch{NodeBase: apt.NodeBase{Span: s.span()},
				Cond: &apt.Binary{Pos: cond.At(), Op: op, X: cond, Y: zero}, Body: []apt.Node{g}})
		}
		u.add(n)
	default:
		// Logical IF: the controlled statement becomes the only branch's body.
		n := &apt.If{NodeBase: base(s), Kind: apt.IfLogical}
		br := &apt.Branch{NodeBase: apt.NodeBase{Span: s.span()}, Cond: cond}
		n.Branches = append(n.Branches, br)
		inner := &stmt{file: s.file, text: s.text[rest:], pos: s.pos[rest:], start: s.pos[rest], end: s.end, raw: s.raw}
		u.add(n)
		u.stack = append(u.stack, &construct{kind: cIf, ifn: n, body: &br.Body})
		depth := len(u.stack)
		ip := newParser(inner, 0)
		ip.assoc = u.associated // (an associate name in the controlled statement)
		if isAssignment(inner.text, 0) {
			b.assignment(inner, ip)
		} else if hasKeywordPrefix(inner.text, "IF(") || hasKeywordPrefix(inner.text, "DO") && !hasKeywordPrefix(inner.text, "DOUBLE") ||
			hasKeywordPrefix(inner.text, "END") || hasKeywordPrefix(inner.text, "ELSE") || hasKeywordPrefix(inner.text, "SELECT") {
			ip.fail(0, "statement not allowed in a logical IF")
		} else {
			b.executable(inner, ip, string(inner.text))
		}
		if ip.err != "" {
			b.unknown(inner, ip.pos(ip.errAt), ip.err)
		}
		if len(u.stack) == depth {
			u.stack = u.stack[:depth-1]
		}
		u.block = nil
	}
}

// innermost returns the innermost open construct if it is of kind k, or nil
// after recording an Unknown for a statement (what) that has no construct.
func (b *builder) innermost(s *stmt, k constructKind, what string) *construct {
	u := b.ensureUnit(s)
	if n := len(u.stack); n > 0 && u.stack[n-1].kind == k {
		return u.stack[n-1]
	}
	b.unknown(s, s.posAt(0), what+" without a matching construct")
	return nil
}

func (b *builder) newBranch(s *stmt, c *construct, cond apt.Expr) *apt.Branch {
	br := &apt.Branch{NodeBase: apt.NodeBase{Span: s.span()}, Cond: cond}
	c.ifn.Branches = append(c.ifn.Branches, br)
	c.body = &br.Body
	b.u.block = nil
	return br
}

func (b *builder) elseIf(s *stmt, p *parser) {
	p.expect("(")
	cond := p.expr()
	p.expect(")")
	p.keyword("THEN")
	p.optName()
	p.expectEnd()
	if p.err != "" {
		return
	}
	if c := b.innermost(s, cIf, "ELSE IF"); c != nil {
		b.newBranch(s, c, cond)
	}
}

func (b *builder) elseStmt(s *stmt) {
	if c := b.innermost(s, cIf, "ELSE"); c != nil {
		b.newBranch(s, c, nil)
	}
}

func (b *builder) endIf(s *stmt, k constructKind, what string) {
	c := b.innermost(s, k, what)
	if c == nil {
		return
	}
	setEnd(&c.ifn.Span, s)
	b.pop()
	if s.label != "" {
		// A labelled END IF is a jump target just after the construct.
		b.u.add(&apt.Continue{NodeBase: base(s)})
	}
}

func (b *builder) selectCase(s *stmt, p *parser, cname string) {
	u := b.ensureUnit(s)
	p.expect("(")
	sel := p.expr()
	p.expect(")")
	p.expectEnd()
	if p.err != "" {
		return
	}
	n := &apt.If{NodeBase: base(s), Kind: apt.IfSelect, Selector: sel, Construct: cname}
	if len(u.stack) >= maxNesting {
		b.push(s, nil) // reports the error
		return
	}
	u.add(n)
	var none []apt.Node
	b.push(s, &construct{kind: cSelect, ifn: n, body: &none, name: cname})
}

// caseStmt parses CASE (v, lo:hi, ...) and CASE DEFAULT.
func (b *builder) caseStmt(s *stmt, p *parser) {
	var cases []apt.CaseValue
	if !p.keyword("DEFAULT") {
		p.expect("(")
		for _, a := range p.argList() {
			if sec, ok := a.(*apt.Section); ok {
				cases = append(cases, apt.CaseValue{Lo: sec.Lo, Hi: sec.Hi, Range: true})
			} else {
				cases = append(cases, apt.CaseValue{Lo: a})
			}
		}
		p.expect(")")
	}
	p.optName()
	p.expectEnd()
	if p.err != "" {
		return
	}
	if c := b.innermost(s, cSelect, "CASE"); c != nil {
		br := b.newBranch(s, c, nil)
		br.Cases = cases
	}
}

// where handles WHERE (mask) assignment and the WHERE construct. The construct
// is an If of where kind whose branches are the masks; each masked assignment
// also keeps its mask.
func (b *builder) where(s *stmt, p *parser) {
	u := b.ensureUnit(s)
	p.expect("(")
	mask := p.expr()
	p.expect(")")
	if p.err != "" {
		return
	}
	if p.atEnd() {
		n := &apt.If{NodeBase: base(s), Kind: apt.IfWhere}
		br := &apt.Branch{NodeBase: apt.NodeBase{Span: s.span()}, Cond: mask}
		n.Branches = append(n.Branches, br)
		if len(u.stack) >= maxNesting {
			b.push(s, nil) // reports the error
			return
		}
		u.add(n)
		b.push(s, &construct{kind: cWhere, ifn: n, body: &br.Body})
		return
	}
	st := b.assignStmt(s, p)
	if st != nil {
		st.Mask = mask
		u.addStmt(st)
	}
}

func (b *builder) elseWhere(s *stmt, p *parser) {
	p.keyword("ELSEWHERE")
	var mask apt.Expr
	if p.accept("(") {
		mask = p.expr()
		p.expect(")")
	}
	if p.err != "" {
		return
	}
	if c := b.innermost(s, cWhere, "ELSE WHERE"); c != nil {
		b.newBranch(s, c, mask)
	}
}

// call parses CALL name[(args)]; MPI routines become Comm nodes.
func (b *builder) call(s *stmt, p *parser) {
	u := b.ensureUnit(s)
	at := p.peek()
	name := p.ident()
	if p.at("%") || p.at("(") && b.boundCall(p) {
		// CALL obj%proc(args): a type-bound procedure, bound by the typer
		// to the procedure of obj's type.
		d := p.designatorRest(name, p.pos(at.at), nil)
		p.expectEnd()
		if p.err != "" {
			return
		}
		c := &apt.Call{NodeBase: base(s)}
		switch x := d.(type) {
		case *apt.Index:
			if x.Base != nil {
				c.Callee, c.Args, c.Object = x.Name, x.Subs, x.Base
			}
		case *apt.Component:
			c.Callee, c.Object = x.Field, x.Base
		}
		if c.Object == nil {
			p.fail(at.at, "expected a procedure or a type-bound procedure after CALL")
			return
		}
		u.add(c)
		return
	}
	var args []apt.Expr
	if p.accept("(") {
		args = p.argList()
		p.expect(")")
	}
	p.expectEnd()
	if p.err != "" {
		return
	}
	if op := apt.LookupCommOp(name); op != 0 {
		u.add(b.comm(s, op, false, args))
		return
	}
	if op := apt.LookupImmediate(name); op != 0 {
		u.add(b.comm(s, op, true, args))
		return
	}
	u.add(&apt.Call{NodeBase: base(s), Callee: name, Args: args})
}

// gotoStmt parses GO TO l, GO TO (l1, l2, ...) [,] e and GO TO v [[,] (l1, ...)].
func (b *builder) gotoStmt(s *stmt, p *parser) {
	u := b.ensureUnit(s)
	n := &apt.Goto{NodeBase: base(s)}
	labels := func() {
		p.expect("(")
		for !p.atEnd() {
			t := p.next()
			if t.kind != tInt {
				p.fail(t.at, "expected a label, found "+describe(t))
				return
			}
			n.Targets = append(n.Targets, strings.TrimLeft(t.text, "0"))
			if !p.accept(",") {
				break
			}
		}
		p.expect(")")
	}
	switch t := p.peek(); {
	case t.kind == tInt:
		p.next()
		n.Kind = apt.GotoPlain
		n.Targets = []string{strings.TrimLeft(t.text, "0")}
	case p.at("("):
		n.Kind = apt.GotoComputed
		labels()
		p.accept(",")
		n.Index = p.expr()
		p.expectEnd()
		if p.err != "" {
			return
		}
		// A branch per label, as an arithmetic IF is: where the index is
		// i, the jump to the i-th label.
		f := &apt.If{NodeBase: base(s), Kind: apt.IfGoto}
		for i, l := range n.Targets {
			k := &apt.Const{Pos: n.Index.At(), Kind: apt.ConstInt, Text: strconv.Itoa(i + 1), Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
			g := &apt.Goto{NodeBase: apt.NodeBase{Span: s.span()}, Kind: apt.GotoPlain, Targets: []string{l}}
			f.Branches = append(f.Branches, &apt.Branch{NodeBase: apt.NodeBase{Span: s.span()},
				Cond: &apt.Binary{Pos: n.Index.At(), Op: apt.OpEq, X: n.Index, Y: k}, Body: []apt.Node{g}})
		}
		u.add(f)
		return
	case t.kind == tIdent:
		n.Kind = apt.GotoAssigned
		n.Index = p.expr()
		p.accept(",")
		if p.at("(") {
			labels()
		}
	default:
		p.fail(t.at, "expected a label after GO TO, found "+describe(t))
	}
	p.expectEnd()
	if p.err == "" {
		u.add(n)
	}
}

// assignLabel parses ASSIGN label TO var.
func (b *builder) assignLabel(s *stmt, p *parser) {
	u := b.ensureUnit(s)
	at := p.restAt()
	k := at
	for k < len(p.t) && isDigit(p.t[k]) {
		k++
	}
	if k == at || !hasKeywordPrefix(p.t[k:], "TO") {
		p.fail(at, "expected ASSIGN label TO variable")
		return
	}
	lab := &apt.Const{Pos: p.pos(at), Kind: apt.ConstInt, Text: strings.TrimLeft(string(p.t[at:k]), "0"), Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
	p.i, p.peeked = k+2, false
	tok := p.next()
	if tok.kind != tIdent {
		p.fail(tok.at, "expected a variable after TO")
		return
	}
	p.expectEnd()
	u.addStmt(&apt.Stmt{Span: s.span(), Label: s.label, Kind: apt.StmtLabelAssign,
		Target: &apt.Name{Pos: p.pos(tok.at), Name: strings.ToLower(tok.text)}, Value: lab})
}

// allocate parses ALLOCATE, DEALLOCATE and NULLIFY.
func (b *builder) allocate(s *stmt, p *parser, ts string) {
	u := b.ensureUnit(s)
	kind := apt.StmtAllocate
	switch {
	case p.keyword("ALLOCATE"):
	case p.keyword("DEALLOCATE"):
		kind = apt.StmtDeallocate
	case p.keyword("NULLIFY"):
		kind = apt.StmtNullify
	}
	p.expect("(")
	at := p.restAt()
	spec := ""
	if kind == apt.StmtAllocate {
		spec = allocTypeSpec(p)
	}
	args := p.argList()
	for _, a := range args {
		if _, ok := a.(*apt.Section); ok {
			// No object is a section: this is an intrinsic type-spec,
			// real(8) :: x, which argList read as lo::stride.
			p.fail(at, "an intrinsic type-spec in "+kind.String()+" is not supported")
		}
	}
	p.expect(")")
	p.expectEnd()
	if p.err != "" {
		return
	}
	u.addStmt(&apt.Stmt{Span: s.span(), Label: s.label, Kind: kind, Args: args, TypeSpec: spec})
}

// io parses READ, WRITE, PRINT, OPEN, CLOSE, INQUIRE, REWIND, BACKSPACE,
// ENDFILE and FLUSH.
func (b *builder) io(s *stmt, p *parser, ts string) {
	u := b.ensureUnit(s)
	n := &apt.IO{NodeBase: base(s)}
	for _, k := range []struct {
		kw   string
		kind apt.IOKind
	}{{"READ", apt.IORead}, {"WRITE", apt.IOWrite}, {"PRINT", apt.IOPrint}, {"OPEN", apt.IOOpen},
		{"CLOSE", apt.IOClose}, {"INQUIRE", apt.IOInquire}, {"REWIND", apt.IORewind},
		{"BACKSPACE", apt.IOBackspace}, {"ENDFILE", apt.IOEndfile}, {"FLUSH", apt.IOFlush}} {
		if p.keyword(k.kw) {
			n.Kind = k.kind
			break
		}
	}
	if p.at("(") {
		p.next()
		ctl := p.argList()
		p.expect(")")
		for i, c := range ctl {
			kw, isKw := c.(*apt.Keyword)
			switch {
			case isKw && kw.Name == "unit":
				n.Unit = kw.Value
			case isKw && (kw.Name == "fmt"):
				n.Format = kw.Value
			case !isKw && i == 0:
				n.Unit = c
			case !isKw && i == 1 && (n.Kind == apt.IORead || n.Kind == apt.IOWrite):
				n.Format = c
			default:
				n.Control = append(n.Control, c)
			}
		}
		p.accept(",") // extension: WRITE(6,*), X
	} else if n.Kind == apt.IOPrint || n.Kind == apt.IORead {
		// PRINT fmt, items / READ fmt, items.
		n.Format = p.arg()
		if !p.accept(",") && !p.atEnd() {
			p.fail(p.restAt(), "expected , after the format")
		}
	} else if !p.atEnd() {
		// REWIND u, BACKSPACE u.
		n.Unit = p.expr()
	}
	for !p.atEnd() {
		n.Items = append(n.Items, p.expr())
		if !p.accept(",") {
			break
		}
	}
	p.expectEnd()
	if p.err != "" {
		return
	}
	if n.Kind == apt.IORead {
		seen := map[string]bool{}
		for _, it := range n.Items {
			collectTargets(it, seen, &n.Reads)
		}
	}
	u.add(n)
}

// collectTargets lists the variables an input item stores into.
func collectTargets(e apt.Expr, seen map[string]bool, out *[]string) {
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			*out = append(*out, n)
		}
	}
	switch e := e.(type) {
	case *apt.Name:
		add(e.Name)
	case *apt.Index:
		if e.Base != nil {
			collectTargets(e.Base, seen, out)
			return
		}
		add(e.Name)
	case *apt.Component:
		collectTargets(e.Base, seen, out)
	case *apt.ImpliedDo:
		for _, it := range e.Items {
			collectTargets(it, seen, out)
		}
	}
}

// forall handles FORALL (i = lo:hi[:stride], ... [, mask]) assignment and the
// FORALL construct. Each index becomes a Loop, outermost first, marked
// Independent: FORALL promises that the iterations do not depend on each other.
// The mask, if any, guards the assignments.
func (b *builder) forall(s *stmt, p *parser, cname string) {
	u := b.ensureUnit(s)
	p.expect("(")
	nest, mask := p.concurrentHeader(s)
	if p.err == "" && len(nest) == 0 {
		p.fail(p.restAt(), "FORALL without an index")
	}
	if p.err != "" {
		return
	}
	nest[0].Construct = cname
	for i := 1; i < len(nest); i++ {
		nest[i].Label = ""
		nest[i-1].Body = append(nest[i-1].Body, nest[i])
	}
	inner := nest[len(nest)-1]
	if p.atEnd() {
		if len(u.stack) >= maxNesting {
			b.push(s, nil) // reports the error
			return
		}
		u.add(nest[0])
		body := &inner.Body
		if mask != nil {
			// The mask of a FORALL construct guards every statement in it.
			n := &apt.If{NodeBase: apt.NodeBase{Span: s.span()}, Kind: apt.IfLogical}
			br := &apt.Branch{NodeBase: apt.NodeBase{Span: s.span()}, Cond: mask}
			n.Branches = append(n.Branches, br)
			inner.Body = append(inner.Body, n)
			body = &br.Body
		}
		b.push(s, &construct{kind: cForall, loop: inner, body: body, name: cname, nest: nest})
		return
	}
	st := b.assignStmt(s, p)
	if st == nil {
		return
	}
	st.Mask = mask
	inner.Body = append(inner.Body, &apt.Block{NodeBase: apt.NodeBase{Span: st.Span}, Stmts: []*apt.Stmt{st}})
	u.add(nest[0])
}

// concurrentHeader parses the "i = lo:hi[:stride], ... [, mask])" of FORALL and
// DO CONCURRENT after the "(": one Independent loop per index, outermost
// first, and the mask if any.
func (p *parser) concurrentHeader(s *stmt) (nest []*apt.Loop, mask apt.Expr) {
	for !p.atEnd() {
		if ctl, ok := p.forallIndex(); ok {
			ctl.NodeBase, ctl.Independent = base(s), true
			nest = append(nest, ctl)
		} else {
			mask = p.expr()
		}
		if !p.accept(",") {
			break
		}
	}
	p.expect(")")
	return nest, mask
}

// forallIndex parses "i = lo:hi[:stride]" when the next tokens are a name and
// a single "=".
func (p *parser) forallIndex() (*apt.Loop, bool) {
	name, ok := p.controlVar()
	if !ok {
		return nil, false
	}
	l := &apt.Loop{Var: name}
	l.Lower = p.expr()
	p.expect(":")
	l.Upper = p.expr()
	if p.accept(":") {
		l.Step = p.expr()
	}
	return l, true
}

func (b *builder) endForall(s *stmt) {
	c := b.innermost(s, cForall, "END FORALL")
	if c == nil {
		return
	}
	for _, l := range c.nest {
		setEnd(&l.Span, s)
	}
	b.pop()
}

// doConcurrent handles DO CONCURRENT (i = lo:hi[:stride], ... [, mask]): like
// FORALL, a nest of Independent loops, closed by one END DO.
func (b *builder) doConcurrent(s *stmt, p *parser, c *construct) {
	u := b.u
	p.keyword("CONCURRENT")
	p.expect("(")
	nest, mask := p.concurrentHeader(s)
	// Fortran 2018's locality specifiers (LOCAL(t), LOCAL_INIT(x),
	// SHARED(a), DEFAULT(NONE)) and Fortran 2023's REDUCE(+:s) say how
	// variables are shared among iterations, not which run: skipped.
	for p.err == "" && !p.atEnd() {
		kw := ""
		for _, k := range []string{"LOCAL_INIT(", "LOCAL(", "SHARED(", "DEFAULT(", "REDUCE("} {
			if p.hasPrefix(k) {
				kw = k
				break
			}
		}
		if kw == "" {
			break
		}
		at := p.restAt()
		end := matchParen(p.t, at+len(kw)-1)
		if end < 0 {
			p.fail(at, "unbalanced parentheses in "+strings.ToLower(strings.TrimSuffix(kw, "(")))
			break
		}
		p.i, p.peeked = end, false
	}
	p.expectEnd()
	if p.err == "" && len(nest) == 0 {
		p.fail(p.restAt(), "DO CONCURRENT without an index")
	}
	if p.err != "" {
		// Keep a construct so that END DO still matches.
		b.unknown(s, p.pos(p.errAt), p.err)
		p.err = ""
		nest = []*apt.Loop{c.loop}
		c.loop.Forever = true
	}
	nest[0].Construct, nest[0].EndLabel = c.name, c.label
	nest[0].Iterations, nest[0].OMP, nest[0].OMPClauses = u.iterations, u.omp, u.ompClauses
	u.iterations, u.omp, u.ompClauses, u.independent = nil, "", "", false
	for i := 1; i < len(nest); i++ {
		nest[i].Label = ""
		nest[i-1].Body = append(nest[i-1].Body, nest[i])
	}
	inner := nest[len(nest)-1]
	c.loop, c.body, c.nest = inner, &inner.Body, nest
	if len(u.stack) >= maxNesting {
		b.push(s, nil) // reports the error
		return
	}
	u.add(nest[0])
	if mask != nil {
		n := &apt.If{NodeBase: apt.NodeBase{Span: s.span()}, Kind: apt.IfLogical}
		br := &apt.Branch{NodeBase: apt.NodeBase{Span: s.span()}, Cond: mask}
		n.Branches = append(n.Branches, br)
		inner.Body = append(inner.Body, n)
		c.body = &br.Body
	}
	b.push(s, c)
}

// boundCall reports whether CALL a(i)%proc(...) follows: an element's
// binding (the parenthesis after the name closes before a %).
func (b *builder) boundCall(p *parser) bool {
	q := *p
	q.next()
	depth := 1
	for depth > 0 && !q.atEnd() {
		switch t := q.next(); {
		case t.kind == tOp && t.text == "(":
			depth++
		case t.kind == tOp && t.text == ")":
			depth--
		}
	}
	return depth == 0 && q.at("%")
}
