package fortran

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Declarations outside the core of decl.go: Cray pointers, a legacy
// extension, and ENUM, BIND(C) enumerators.

// crayPointers declares the pairs of a Cray pointer statement (an
// extension gfortran takes with -fcray-pointer, the Fortran binding MPI 2
// gave MPI_ALLOC_MEM): POINTER (ptr, pointee[(dims)]) [, (ptr, pointee)]...
// The pointer is an address, an 8-byte integer unless declared otherwise;
// the pointee is a variable of its own declared type and shape, whose
// storage the address names.
func (b *builder) crayPointers(p *parser) {
	for {
		p.expect("(")
		ptrTok := p.next()
		if ptrTok.kind != tIdent {
			p.fail(ptrTok.at, "expected the name of a Cray pointer, found "+describe(ptrTok))
			return
		}
		ptr := b.declare(strings.ToLower(ptrTok.text), p.pos(ptrTok.at))
		if ptr.Type.Base == 0 {
			ptr.Type = apt.Type{Base: apt.TypeInteger, Kind: 8}
		}
		p.expect(",")
		tok := p.next()
		if tok.kind != tIdent {
			p.fail(tok.at, "expected the name of a pointee, found "+describe(tok))
			return
		}
		v := b.declare(strings.ToLower(tok.text), p.pos(tok.at))
		if p.accept("(") {
			v.Dims = dims(p.argList())
			p.expect(")")
		}
		p.expect(")")
		if p.err != "" || !p.accept(",") {
			break
		}
	}
	p.expectEnd()
}

// enumerators declares ENUMERATOR [::] a [= e], b, ...: named integer
// constants (C's int), each without a value one more than the one before
// (the first of the ENUM 0).
func (b *builder) enumerators(p *parser) {
	p.accept("::")
	for !p.atEnd() {
		tok := p.next()
		if tok.kind != tIdent {
			p.fail(tok.at, "expected a name in ENUMERATOR, found "+describe(tok))
			return
		}
		val := b.u.enumNext
		if p.accept("=") {
			val = p.expr()
			if p.err != "" {
				return
			}
		}
		v := b.declare(strings.ToLower(tok.text), p.pos(tok.at))
		v.Param, v.Type = val, apt.Type{Base: apt.TypeInteger, Kind: 4}
		b.u.enumNext = &apt.Binary{Pos: p.pos(tok.at), Op: apt.OpAdd, X: val, Y: intConst(1)}
		if !p.accept(",") {
			break
		}
	}
	p.expectEnd()
}
