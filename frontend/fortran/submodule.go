package fortran

import (
	"regexp"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Submodules (Fortran 2008). A module declares a procedure's interface
// (MODULE SUBROUTINE s(...) inside an INTERFACE block) and a submodule of
// it defines the procedure, either repeating the header (MODULE
// SUBROUTINE s(...) ... END SUBROUTINE) or naming it alone (MODULE
// PROCEDURE s ... END PROCEDURE), the arguments and their declarations
// then coming from the interface. A submodule sees its ancestor's
// entities by host association: here a USE of the ancestor (and of its
// parent submodule), which gives the same names. Its procedures are
// program routines like a module's, found by name at their calls.

// separateHeader matches the first line of a separate module procedure's
// header: MODULE followed by a procedure prefix, a type or SUBROUTINE or
// FUNCTION (blanks are significant here: MODULE SUBROUTINES names a module).
var separateHeader = regexp.MustCompile(`(?i)^\s*module\s+((subroutine|function|pure|impure|elemental|recursive|non_recursive)\b|` +
	`(integer|real|logical|complex|character|double\s*precision|double\s*complex)\s*(\(|\*|\s+(function|pure|impure|elemental|recursive)\b)|` +
	`(type|class)\s*\()`)

// separateBody matches MODULE PROCEDURE s outside an interface block.
var separateBody = regexp.MustCompile(`(?i)^\s*module\s+procedure\s+[a-z_][a-z0-9_$]*\s*(!.*)?$`)

// captureSeparate records the statements of a separate module procedure's
// interface body, from its header to its END, for MODULE PROCEDURE.
func (b *builder) captureSeparate(s *stmt) {
	fe := b.fe
	if fe.capturing != nil {
		*fe.capturing = append(*fe.capturing, s)
		if isEndOfProcedure(string(s.text)) {
			stmts := *fe.capturing
			fe.capturing = nil
			if name := separateName(stmts[0]); name != "" {
				if fe.separate == nil {
					fe.separate = map[string][]*stmt{}
				}
				fe.separate[name] = stmts
			}
		}
		return
	}
	if separateHeader.MatchString(s.raw) {
		fe.capturing = &[]*stmt{s}
	}
}

func isEndOfProcedure(t string) bool {
	return t == "END" || strings.HasPrefix(t, "ENDSUBROUTINE") || strings.HasPrefix(t, "ENDFUNCTION") ||
		strings.HasPrefix(t, "ENDPROCEDURE")
}

// separateName is the lower-case name a separate procedure's header
// declares, "" when it has none.
func separateName(s *stmt) string {
	t := string(s.text)
	for _, kw := range []string{"SUBROUTINE", "FUNCTION"} {
		if i := strings.Index(t, kw); i >= 0 {
			rest := t[i+len(kw):]
			j := 0
			for j < len(rest) && isAlnum(rest[j]) {
				j++
			}
			return strings.ToLower(rest[:j])
		}
	}
	return ""
}

// submodule opens SUBMODULE (ancestor[:parent]) name as a module that uses
// its ancestor and parent.
func (b *builder) submodule(s *stmt, p *parser, newRoutine func(string, apt.RoutineKind) *apt.Routine) {
	p.keyword("SUBMODULE")
	p.expect("(")
	ancestor := strings.ToLower(p.ident())
	parent := ""
	if p.accept(":") {
		parent = strings.ToLower(p.ident())
	}
	p.expect(")")
	name := p.ident()
	p.expectEnd()
	if p.err != "" {
		return
	}
	b.openUnit(newRoutine(name, apt.KindModule))
	for _, m := range []string{ancestor, parent} {
		if m != "" {
			b.u.r.Scope.AddUse(&apt.Use{Module: m, Pos: s.posAt(0)})
		}
	}
}

// separateProcedure opens MODULE PROCEDURE s: the routine its interface
// body declares, with that body's arguments and declarations. Without
// one seen before (its module in a file read later), the routine has no
// arguments, and a warning says so.
func (b *builder) separateProcedure(s *stmt) bool {
	t := strings.TrimPrefix(string(s.text), "MODULEPROCEDURE")
	name := strings.ToLower(t)
	iface, ok := b.fe.separate[name]
	if !ok {
		b.fe.diag(s.posAt(0), apt.Warning, "MODULE PROCEDURE "+name+": no interface body for it was read before; "+
			"give the file of the module that declares it first")
		b.openUnit(&apt.Routine{NodeBase: apt.NodeBase{Span: s.span()}, Name: name, Kind: apt.KindSubroutine, Scope: &apt.Scope{}})
		return true
	}
	head := *iface[0]
	head.file, head.start, head.end = s.file, s.start, s.end // the routine is where its body is
	if !b.unitHeader(&head, newParser(&head, 0)) {
		b.fe.diag(s.posAt(0), apt.Warning, "MODULE PROCEDURE "+name+": its interface body's header is not understood")
		return true
	}
	for _, st := range iface[1 : len(iface)-1] {
		b.statement(st)
	}
	return true
}
