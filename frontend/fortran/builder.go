package fortran

import (
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// builder turns a file's statements into program units. Declarations go to the
// unit's Scope; executable statements become APT nodes nested by an explicit
// construct stack (DO, IF, SELECT CASE), which also closes labelled DO loops
// that share a terminal statement.
type builder struct {
	fe *frontend
	u  *unit
}

type unit struct {
	r     *apt.Routine
	host  *unit
	stack []*construct
	block *apt.Block
	// typeDef is the derived type being defined (between TYPE and END TYPE).
	typeDef *apt.DerivedType
	// typeBound is set after CONTAINS inside a derived type definition.
	typeBound bool
	// interfaces counts open INTERFACE blocks, whose bodies only declare;
	// generic is the generic interface the open block names, nil for none.
	interfaces int
	generic    *apt.Generic
	contains   bool
	// enumNext is the value the next enumerator without one takes,
	// between ENUM, BIND(C) and END ENUM; nil outside.
	enumNext apt.Expr
	// exec is set once the unit has an executable statement: a
	// statement function definition comes before.
	exec bool
	// Annotations waiting for the next loop.
	iterations  apt.Expr
	omp         string
	ompClauses  string
	independent bool
}

type constructKind uint8

const (
	cDo constructKind = iota + 1
	cIf
	cSelect
	cWhere
	cForall
	cAssociate
	cBlock
)

type construct struct {
	kind  constructKind
	loop  *apt.Loop
	ifn   *apt.If
	body  *[]apt.Node
	label string // terminal label of a labelled DO
	name  string
	// nest is the loop nest of a FORALL construct, outermost first.
	nest []*apt.Loop
	// assoc are an ASSOCIATE construct's names and what they stand for
	// (associate.go).
	assoc map[string]apt.Expr
	// selector is a SELECT TYPE construct's selector (selecttype.go).
	selector apt.Expr
}

// maxNesting bounds construct nesting. Real programs nest a few levels deep;
// the bound keeps pathological input from making hierarchical node IDs (whose
// length grows with depth) quadratic in size.
const maxNesting = 100

// maxUnitNesting bounds CONTAINS nesting (Fortran itself allows two levels).
const maxUnitNesting = 4

// push opens a construct, or reports false (with an error) when that would
// nest too deeply.
func (b *builder) push(s *stmt, c *construct) bool {
	if len(b.u.stack) >= maxNesting {
		b.unknown(s, s.posAt(0), "constructs nested more than "+strconv.Itoa(maxNesting)+" deep")
		return false
	}
	b.u.stack = append(b.u.stack, c)
	return true
}

func (u *unit) body() *[]apt.Node {
	if n := len(u.stack); n > 0 {
		return u.stack[n-1].body
	}
	return &u.r.Body
}

func (u *unit) add(n apt.Node) {
	u.exec = true
	u.block = nil
	b := u.body()
	*b = append(*b, n)
}

func (u *unit) addStmt(st *apt.Stmt) {
	u.exec = true
	if u.block == nil || st.Label != "" {
		blk := &apt.Block{NodeBase: apt.NodeBase{Span: st.Span, Label: st.Label}}
		u.add(blk)
		u.block = blk
	}
	u.block.Stmts = append(u.block.Stmts, st)
	u.block.Span.EndLine, u.block.Span.EndCol = st.Span.EndLine, st.Span.EndCol
}

func base(s *stmt) apt.NodeBase {
	return apt.NodeBase{Span: s.span(), Label: s.label}
}

// ensureUnit opens an unnamed main program for statements outside any unit
// (Fortran 77 allows omitting the PROGRAM statement).
func (b *builder) ensureUnit(s *stmt) *unit {
	if b.u == nil {
		r := &apt.Routine{NodeBase: apt.NodeBase{Span: s.span()}, Name: "main", Kind: apt.KindProgram, Scope: &apt.Scope{}}
		b.openUnit(r)
	}
	return b.u
}

func (b *builder) openUnit(r *apt.Routine) {
	if r.Scope == nil {
		r.Scope = &apt.Scope{}
	}
	r.Params = append(r.Params, b.fe.pendingParams...)
	r.Assumes = append(r.Assumes, b.fe.pendingAssumes...)
	b.fe.pendingParams, b.fe.pendingAssumes = nil, nil
	nu := &unit{r: r}
	depth := 0
	for h := b.u; h != nil; h = h.host {
		depth++
	}
	if b.u != nil && b.u.contains && depth >= maxUnitNesting {
		// Fortran nests at most a module procedure's internal procedures; deeper
		// nesting means missing END statements.
		b.fe.diag(r.Span.Start(), apt.Error, "program units nested too deeply (missing END?)")
		for b.u != nil {
			b.closeUnit(nil)
		}
	}
	if b.u != nil && b.u.contains {
		nu.host = b.u
		b.u.r.Contains = append(b.u.r.Contains, r)
	} else {
		for b.u != nil {
			b.fe.diag(r.Span.Start(), apt.Error, "missing END for "+b.u.r.Kind.String()+" "+b.u.r.Name+" before "+r.Kind.String()+" "+r.Name)
			b.closeUnit(nil)
		}
		b.fe.prog.Routines = append(b.fe.prog.Routines, r)
	}
	b.u = nu
}

// closeUnit ends the current unit at statement s (nil at end of file).
func (b *builder) closeUnit(s *stmt) {
	u := b.u
	if u == nil {
		return
	}
	for len(u.stack) > 0 {
		c := u.stack[len(u.stack)-1]
		pos := u.r.Span.Start()
		if c.loop != nil {
			pos = c.loop.Span.Start()
		} else if c.ifn != nil {
			pos = c.ifn.Span.Start()
		}
		b.fe.diag(pos, apt.Error, "construct not closed before the end of "+u.r.Kind.String()+" "+u.r.Name)
		b.pop()
	}
	if u.typeDef != nil {
		b.fe.diag(u.typeDef.Pos, apt.Error, "TYPE "+u.typeDef.Name+" not closed by END TYPE")
		u.typeDef = nil
	}
	if s != nil {
		u.r.Span.EndLine, u.r.Span.EndCol = int(s.end.line), int(s.end.col)
	} else if u.r.Span.EndLine == 0 {
		u.r.Span.EndLine, u.r.Span.EndCol = u.r.Span.Line, u.r.Span.Col
	}
	b.u = u.host
}

func (b *builder) finishFile(name string) {
	for b.u != nil {
		if b.u.host != nil || b.u.r.Name != "main" || b.u.r.Kind != apt.KindProgram {
			b.fe.diag(apt.Pos{File: name, Line: b.u.r.Span.Line, Col: b.u.r.Span.Col}, apt.Error,
				"missing END for "+b.u.r.Kind.String()+" "+b.u.r.Name)
		} else {
			// Statements outside any unit with no END after them: the
			// file is no program (an include file given as a source;
			// gfortran: "Unexpected end of file").
			b.fe.diag(apt.Pos{File: name, Line: b.u.r.Span.Line, Col: b.u.r.Span.Col}, apt.Error,
				"the file ends without END: statements outside a PROGRAM, SUBROUTINE or FUNCTION need an END after them "+
					"(a file of declarations is read through the INCLUDE of the file that uses it)")
		}
		b.closeUnit(nil)
	}
}

// pop closes the innermost construct; its span was set by the closing statement.
func (b *builder) pop() {
	u := b.u
	u.stack = u.stack[:len(u.stack)-1]
	u.block = nil
}

func setEnd(sp *apt.Span, s *stmt) {
	sp.EndLine, sp.EndCol = int(s.end.line), int(s.end.col)
}

// unknown records a statement the frontend cannot model: a diagnostic at pos and
// an Unknown node in the current body.
func (b *builder) unknown(s *stmt, pos apt.Pos, msg string) {
	d := apt.Diagnostic{Pos: pos, Severity: apt.Error, Msg: msg}
	b.fe.diags = append(b.fe.diags, d)
	u := b.ensureUnit(s)
	if u.interfaces > 0 || u.typeDef != nil {
		return
	}
	u.add(&apt.Unknown{NodeBase: base(s), Text: s.raw, Diag: d})
}

// statement handles one statement.
func (b *builder) statement(s *stmt) {
	if s.dir != dirNone {
		b.directive(s)
		return
	}
	if b.u != nil && b.u.interfaces > 0 {
		b.captureSeparate(s)
		b.interfaceBody(s)
		return
	}
	p := newParser(s, 0)
	if b.u != nil {
		p.assoc = b.u.associated
	}
	// Construct name: NAME: DO / IF / SELECT CASE.
	name := ""
	if n := constructName(s.text); n > 0 {
		name = strings.ToLower(string(s.text[:n]))
		p.i = n + 1
	}
	if b.u != nil && b.u.typeDef != nil {
		b.typeBody(s, p)
	} else {
		b.dispatch(s, p, name)
	}
	if p.err != "" {
		b.unknown(s, p.pos(p.errAt), p.err)
	}
	if s.label != "" && b.u != nil {
		b.closeLabel(s.label, s)
	}
}

// constructName returns the length of a leading "NAME:" (not "::") that is
// followed by DO, IF, SELECT CASE, SELECT TYPE, WHERE, FORALL, ASSOCIATE or
// BLOCK, or 0.
func constructName(t []byte) int {
	if len(t) == 0 || !isLetter(t[0]) {
		return 0
	}
	k := 1
	for k < len(t) && isAlnum(t[k]) {
		k++
	}
	if k+1 >= len(t) || t[k] != ':' || t[k+1] == ':' {
		return 0
	}
	rest := string(t[k+1:])
	for _, kw := range []string{"DO", "IF(", "SELECTCASE", "SELECTTYPE(", "WHERE(", "FORALL(", "ASSOCIATE("} {
		if strings.HasPrefix(rest, kw) {
			return k
		}
	}
	if rest == "BLOCK" {
		return k
	}
	return 0
}

// closeLabel closes the labelled DO loops whose terminal statement carries label:
// several nested loops may share it (DO 10 I / DO 10 J / 10 CONTINUE).
func (b *builder) closeLabel(label string, s *stmt) {
	u := b.u
	for len(u.stack) > 0 {
		c := u.stack[len(u.stack)-1]
		if c.kind != cDo || c.label != label {
			return
		}
		setEnd(&c.loop.Span, s)
		b.pop()
	}
}

// matchParen returns the index just after the parenthesis matching the one at
// i, skipping character constants, or -1.
func matchParen(t []byte, i int) int {
	depth := 0
	var quote byte
	for k := i; k < len(t); k++ {
		c := t[k]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '\'', '"':
			quote = c
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return k + 1
			}
		}
	}
	return -1
}

// hasTopLevelColons reports whether t has a declaration's "::": outside
// parentheses, where a section's (v(::2)) is not.
func hasTopLevelColons(t []byte) bool {
	for k := topLevel(t, 0, ':'); k >= 0; k = topLevel(t, k+1, ':') {
		if k+1 < len(t) && t[k+1] == ':' {
			return true
		}
	}
	return false
}

// topLevel finds the first occurrence of c outside parentheses, brackets and
// character constants at or after i; for '=' it skips ==, <=, >=, /= and =>.
func topLevel(t []byte, i int, c byte) int {
	depth := 0
	var quote byte
	for k := i; k < len(t); k++ {
		x := t[k]
		if quote != 0 {
			if x == quote {
				quote = 0
			}
			continue
		}
		switch x {
		case '\'', '"':
			quote = x
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		default:
			if x == c && depth == 0 {
				if c == '=' {
					if k+1 < len(t) && (t[k+1] == '=' || t[k+1] == '>') {
						k++
						continue
					}
					if k > 0 && (t[k-1] == '<' || t[k-1] == '>' || t[k-1] == '/' || t[k-1] == '=') {
						continue
					}
				}
				return k
			}
		}
	}
	return -1
}

// controlsStatement reports whether t starts with IF (...), WHERE (...) or
// FORALL (...) followed by the statement it controls (IF (k == 3) p => a),
// not by what an assignment to an array of that name would have.
func controlsStatement(t []byte) bool {
	for _, kw := range []string{"IF(", "WHERE(", "FORALL(", "ELSEIF(", "ELSEWHERE("} {
		if hasKeywordPrefix(t, kw) {
			end := matchParen(t, len(kw)-1)
			if end > 0 && end < len(t) && t[end] != '=' && t[end] != '(' && t[end] != '%' {
				return true
			}
		}
	}
	return false
}

// isAssignment decides whether the statement text from i is an assignment (or a
// pointer assignment), the classic fixed-form test: a top-level "=" with no
// top-level comma after it and no "::", and not DO v=..., or a logical IF whose
// parenthesised condition is followed by more text.
func isAssignment(t []byte, i int) bool {
	t = t[i:]
	eq := topLevel(t, 0, '=')
	if eq < 0 {
		// Pointer assignment p => x (a top-level =>: ASSOCIATE (a => x)
		// has its inside parentheses).
		depth := 0
		for k := 0; k+1 < len(t); k++ {
			switch t[k] {
			case '(':
				depth++
			case ')':
				depth--
			}
			if t[k] == '=' && t[k+1] == '>' && depth == 0 {
				if k > 0 && !hasTopLevelColons(t[:k]) && topLevel(t[:k], 0, ',') < 0 && !hasKeywordPrefix(t, "USE") {
					return isLetter(t[0]) && !controlsStatement(t)
				}
				return false
			}
		}
		return false
	}
	if hasTopLevelColons(t[:eq]) || !isLetter(t[0]) {
		return false
	}
	if hasKeywordPrefix(t, "DO") && topLevel(t, eq+1, ',') >= 0 {
		// DO v = lo, hi (the loop variable cannot contain parentheses).
		if strings.IndexByte(string(t[:eq]), '(') < 0 {
			return false
		}
	}
	if controlsStatement(t) {
		return false
	}
	// A PARAMETER or DATA-like statement never reaches here with a top-level '='
	// except the F77 extension "PARAMETER N=1", which is rare; treat as assignment.
	return true
}

func hasKeywordPrefix(t []byte, kw string) bool {
	return len(t) >= len(kw) && string(t[:len(kw)]) == kw
}

// interfaceBody skips the declarations inside an INTERFACE block.
func (b *builder) interfaceBody(s *stmt) {
	t := string(s.text)
	switch {
	case strings.HasPrefix(t, "ENDINTERFACE"):
		b.u.interfaces--
		if b.u.interfaces == 0 {
			b.u.generic = nil
		}
	case strings.HasPrefix(t, "INTERFACE"), strings.HasPrefix(t, "ABSTRACTINTERFACE"):
		b.u.interfaces++
	case b.u.generic == nil:
	case strings.HasPrefix(t, "MODULEPROCEDURE"), strings.HasPrefix(t, "PROCEDURE"):
		// The specifics of the generic: names, uppercase and unblanked.
		list := strings.TrimPrefix(strings.TrimPrefix(t, "MODULE"), "PROCEDURE")
		list = strings.TrimPrefix(list, "::")
		for _, n := range strings.Split(list, ",") {
			if n = strings.ToLower(strings.TrimSpace(n)); n != "" {
				b.u.generic.Procs = append(b.u.generic.Procs, n)
			}
		}
	case strings.HasPrefix(t, "SUBROUTINE"):
		// An interface body: an external specific of the generic.
		n := strings.TrimPrefix(t, "SUBROUTINE")
		if i := strings.IndexByte(n, '('); i >= 0 {
			n = n[:i]
		}
		if n != "" {
			b.u.generic.Procs = append(b.u.generic.Procs, strings.ToLower(n))
		}
	}
}

// openInterface starts an INTERFACE block; a named one (not OPERATOR or
// ASSIGNMENT) is a generic interface of the scope.
func (b *builder) openInterface(s *stmt) {
	u := b.ensureUnit(s)
	u.interfaces++
	t := string(s.text)
	name, ok := strings.CutPrefix(t, "INTERFACE")
	defined := strings.HasPrefix(name, "OPERATOR(.") && strings.HasSuffix(name, ".)")
	if !ok || name == "" || strings.ContainsAny(name, "(=") && !defined {
		// An operator of Fortran's own or assignment: what it overloads
		// is not resolved.
		return
	}
	name = strings.ToLower(name)
	sc := u.r.Scope
	g := sc.FindGeneric(name)
	if g == nil {
		g = &apt.Generic{Name: name, Pos: s.posAt(0)}
		sc.Generics = append(sc.Generics, g)
	}
	u.generic = g
}
