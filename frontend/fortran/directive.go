package fortran

import (
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// directive handles !mk$, !HPF$ and !$OMP comment directives. Directives never
// become Unknown nodes: one the frontend does not model is a warning, since the
// program means the same without it.
func (b *builder) directive(s *stmt) {
	p := newParser(s, 0)
	switch s.dir {
	case dirMK:
		b.mkAnnotation(s, p)
	case dirHPF:
		b.hpf(s, p)
	case dirOMP:
		b.omp(s, p)
	}
	if p.err != "" {
		b.fe.diag(p.pos(p.errAt), apt.Error, "in directive: "+p.err)
	}
}

// mkAnnotation parses mkvet's own annotations:
//
//	!mk$ param N [= expr]      name a problem size (and its default value)
//	!mk$ assume cond           a relation symbolic evaluation may rely on
//	!mk$ iterations expr       the trip count of the next loop
//	!mk$ region begin NAME     start of a parallel region (PerWiz, seed 003)
//	!mk$ region end [NAME]     its end
func (b *builder) mkAnnotation(s *stmt, p *parser) {
	pos := s.posAt(0)
	switch {
	case p.keyword("PARAM"):
		name := p.ident()
		a := &apt.Param{Name: name, Pos: pos}
		if p.accept("=") {
			a.Value = p.expr()
		}
		p.expectEnd()
		if p.err != "" {
			return
		}
		if b.u == nil {
			b.fe.pendingParams = append(b.fe.pendingParams, a)
		} else {
			b.u.r.Params = append(b.u.r.Params, a)
		}
	case p.keyword("ASSUME"):
		a := &apt.Assume{Cond: p.expr(), Pos: pos}
		p.expectEnd()
		if p.err != "" {
			return
		}
		if b.u == nil {
			b.fe.pendingAssumes = append(b.fe.pendingAssumes, a)
		} else {
			b.u.r.Assumes = append(b.u.r.Assumes, a)
		}
	case p.keyword("ITERATIONS"):
		e := p.expr()
		p.expectEnd()
		if p.err != "" {
			return
		}
		b.ensureUnit(s).iterations = e
	case p.keyword("REGIONBEGIN"):
		name := p.ident()
		p.expectEnd()
		if p.err == "" {
			b.ensureUnit(s).add(&apt.Region{NodeBase: apt.NodeBase{Span: s.span()}, Name: name, Begin: true})
		}
	case p.keyword("REGIONEND"):
		name := ""
		if !p.atEnd() {
			name = p.ident()
		}
		p.expectEnd()
		if p.err == "" {
			b.ensureUnit(s).add(&apt.Region{NodeBase: apt.NodeBase{Span: s.span()}, Name: name})
		}
	default:
		b.fe.diag(pos, apt.Warning, "unknown !mk$ annotation "+strconv.Quote(s.raw))
	}
}

// hpf parses the HPF directives mkvet models: PROCESSORS, DISTRIBUTE, ALIGN and
// INDEPENDENT. TEMPLATE, DYNAMIC and the rest are accepted with a note.
func (b *builder) hpf(s *stmt, p *parser) {
	pos := s.posAt(0)
	switch {
	case p.keyword("PROCESSORS"):
		u := b.ensureUnit(s)
		p.accept("::")
		for !p.atEnd() {
			name := p.ident()
			pr := &apt.Processors{Name: name, Pos: pos}
			if p.accept("(") {
				for _, d := range dims(p.argList()) {
					pr.Shape = append(pr.Shape, d.Hi)
				}
				p.expect(")")
			}
			if p.err != "" {
				return
			}
			u.r.Scope.Processors = append(u.r.Scope.Processors, pr)
			if !p.accept(",") {
				break
			}
		}
		p.expectEnd()
	case p.keyword("DISTRIBUTE"):
		b.ensureUnit(s)
		var names []string
		if !p.at("(") {
			names = append(names, p.ident())
		}
		p.expect("(")
		var formats []apt.DistFormat
		for !p.atEnd() {
			var f apt.DistFormat
			switch {
			case p.keyword("BLOCK"):
				f.Kind = apt.DistBlock
			case p.keyword("CYCLIC"):
				f.Kind = apt.DistCyclic
			case p.accept("*"):
				f.Kind = apt.DistStar
			default:
				p.fail(p.restAt(), "expected BLOCK, CYCLIC or * in DISTRIBUTE")
				return
			}
			if f.Kind != apt.DistStar && p.accept("(") {
				f.Arg = p.expr()
				p.expect(")")
			}
			formats = append(formats, f)
			if !p.accept(",") {
				break
			}
		}
		p.expect(")")
		onto := ""
		if p.keyword("ONTO") {
			onto = p.ident()
		}
		names = append(names, p.colonNames()...)
		p.expectEnd()
		if p.err != "" {
			return
		}
		for _, n := range names {
			b.declare(n, pos).Dist = &apt.Distribution{Formats: formats, Onto: onto, Pos: pos}
		}
	case p.keyword("ALIGN"):
		b.ensureUnit(s)
		var names []string
		var src []apt.Expr
		if !p.at("(") && !p.hasPrefix("WITH") {
			names = append(names, p.ident())
		}
		if p.accept("(") {
			src = p.argList()
			p.expect(")")
		}
		if !p.keyword("WITH") {
			p.fail(p.restAt(), "expected WITH in ALIGN")
			return
		}
		target := p.ident()
		var tgt []apt.Expr
		if p.accept("(") {
			tgt = p.argList()
			p.expect(")")
		}
		names = append(names, p.colonNames()...)
		p.expectEnd()
		if p.err != "" {
			return
		}
		for _, n := range names {
			b.declare(n, pos).Dist = &apt.Distribution{AlignWith: target, AlignSource: src, AlignTarget: tgt, Pos: pos}
		}
	case p.keyword("INDEPENDENT"):
		// INDEPENDENT [, NEW(vars)] [, REDUCTION(vars)]: the clauses do not change
		// the loop's cost.
		b.ensureUnit(s).independent = true
	default:
		b.fe.diag(pos, apt.Note, "HPF directive not modelled: "+s.raw)
	}
}

// omp records OpenMP work-sharing loop directives on the next loop; other
// OpenMP directives (PARALLEL, END ..., BARRIER, CRITICAL) are accepted without
// effect on the model.
func (b *builder) omp(s *stmt, p *parser) {
	kind := ""
	switch {
	case p.keyword("PARALLELDO"):
		kind = "parallel do"
	case p.keyword("DO"):
		kind = "do"
	default:
		return
	}
	u := b.ensureUnit(s)
	u.omp = kind
	// Clauses as written (lower case, blanks dropped by the reader).
	u.ompClauses = strings.ToLower(string(s.text[p.restAt():]))
}

// colonNames reads the ":: a, b, c" that ends a directive's object list, or
// nothing when there is no "::".
func (p *parser) colonNames() []string {
	var names []string
	if p.accept("::") {
		for !p.atEnd() {
			names = append(names, p.ident())
			if !p.accept(",") {
				break
			}
		}
	}
	return names
}
