package llvmir

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Returns. A function's value is assigned to its result before the
// RETURN (ret), as a Fortran function's is; an address computed in the
// return goes through a pointer of its own.
//
// Structures returned in registers. x86-64's ABI returns a structure of up
// to 16 bytes in registers, and clang writes that as a value of a literal
// type ({ double*, i64 } for struct { double *data; long n; }, { i64, i8 }
// for struct { int nx, steps; char verbose; }): the function loads its
// structure through a view of that type (or copies it into a temporary of
// it) and returns the load; the caller stores the value through a view of
// its own structure (or into a temporary it then copies from), field by
// field with extractvalue where the types line up. Both ends are written as
// what the source says: the function's result is its structure, and the
// caller's structure is assigned the call's result, whole.

// structRet is what a function returning a structure in registers returns:
// the structure's type, and for each return the storage it returns.
type structRet struct {
	typ  *types.StructType
	from map[*ir.TermRet]value.Value
}

// returnedStruct is f's structRet, nil where f returns no structure that
// way.
func (l *lifter) returnedStruct(f *ir.Func) *structRet {
	return memoFunc(&l.structRets, f, findStructRet)
}

// memoFunc returns find(f), found once per function and kept in *m.
func memoFunc[T any](m *map[*ir.Func]T, f *ir.Func, find func(*ir.Func) T) T {
	if r, ok := (*m)[f]; ok {
		return r
	}
	if *m == nil {
		*m = map[*ir.Func]T{}
	}
	r := find(f)
	(*m)[f] = r
	return r
}

func findStructRet(f *ir.Func) *structRet {
	if _, lit := f.Sig.RetType.(*types.StructType); !lit {
		if _, isInt := f.Sig.RetType.(*types.IntType); !isInt {
			return nil
		}
	}
	if st, ok := f.Sig.RetType.(*types.StructType); ok && st.Name() != "" {
		return nil // a named structure returned as itself
	}
	r := &structRet{from: map[*ir.TermRet]value.Value{}}
	for _, b := range f.Blocks {
		t, ok := b.Term.(*ir.TermRet)
		if !ok {
			continue
		}
		ld, ok := unwrapArg(t.X).(*ir.InstLoad)
		if !ok {
			return nil
		}
		src := structStorage(f, stripCasts(ld.Src))
		if src == nil {
			return nil
		}
		st, ok := pointee(src).(*types.StructType)
		if !ok || st.Name() == "" || r.typ != nil && !types.Equal(st, r.typ) {
			return nil
		}
		r.typ, r.from[t] = st, src
	}
	if r.typ == nil {
		return nil
	}
	return r
}

// structStorage is the structure a view or temporary at p holds: p itself
// where it is a structure's storage, or the structure a memcpy in f copied
// into the temporary p.
func structStorage(f *ir.Func, p value.Value) value.Value {
	if st, ok := pointee(p).(*types.StructType); ok && st.Name() != "" {
		return p
	}
	if _, ok := p.(*ir.InstAlloca); !ok {
		return nil
	}
	from, _ := structCopyOf(f, p, 0)
	return from
}

// structCopyOf finds the one memcpy of f whose argument end (0: the
// destination, 1: the source) is p, and returns its other end where that
// is a named structure's storage, and the memcpy; nil where there is not
// exactly one such copy.
func structCopyOf(f *ir.Func, p value.Value, end int) (value.Value, ir.Instruction) {
	var other value.Value
	var at ir.Instruction
	for _, b := range f.Blocks {
		for _, inst := range b.Insts {
			c, ok := inst.(*ir.InstCall)
			if !ok || len(c.Args) < 3 {
				continue
			}
			if n, _ := calleeName(c); n != "llvm.memcpy" || stripCasts(unwrapArg(c.Args[end])) != p {
				continue
			}
			o := stripCasts(unwrapArg(c.Args[1-end]))
			if st, ok := pointee(o).(*types.StructType); !ok || st.Name() == "" || other != nil {
				return nil, nil
			}
			other, at = o, c
		}
	}
	return other, at
}

// structCopy is a caller's assignment of a call's returned structure to
// one of its own: written at the instruction that completes it.
type structCopy struct {
	dst  value.Value
	call *ir.InstCall
}

// planStructReturns finds, for each call of a function returning a
// structure in registers, the structure its value goes to, and marks the
// instructions that take it apart (the stores of the value or of its
// fields, into a view or a temporary) as written by the one assignment.
func (x *fn) planStructReturns() {
	for _, b := range x.f.Blocks {
		for _, inst := range b.Insts {
			c, ok := inst.(*ir.InstCall)
			if !ok {
				continue
			}
			callee, ok := stripCasts(c.Callee).(*ir.Func)
			if !ok {
				continue
			}
			r := x.l.returnedStruct(callee)
			if r == nil {
				continue
			}
			x.returnStructUses(c, r.typ)
		}
	}
}

func (x *fn) returnStructUses(c *ir.InstCall, st *types.StructType) {
	var dst value.Value
	var at ir.Instruction
	var stores []*ir.InstStore
	var extracts []value.Value
	for _, u := range x.uses[c] {
		switch w := u.user.(type) {
		case *ir.InstStore:
			d := stripCasts(w.Dst)
			s, from := d, ir.Instruction(w)
			if t, ok := pointee(d).(*types.StructType); !ok || t.Name() == "" {
				// A temporary, copied into the structure afterwards.
				s, from = structCopyOf(x.f, d, 1)
			}
			if s == nil || from == nil || !types.Equal(pointee(s), st) || dst != nil && dst != s {
				return
			}
			dst, stores, at = s, append(stores, w), from
		case *ir.InstExtractValue:
			for _, v := range x.uses[w] {
				s, ok := v.user.(*ir.InstStore)
				if !ok {
					return
				}
				d := viewBase(s.Dst)
				if d == nil || !types.Equal(pointee(d), st) || dst != nil && dst != d {
					return
				}
				dst, stores = d, append(stores, s)
				if at == nil {
					at = s
				}
			}
			extracts = append(extracts, w)
		default:
			return
		}
	}
	if dst == nil || at == nil {
		return
	}
	for _, s := range stores {
		x.skipStore[s] = true
	}
	for _, e := range extracts {
		x.skip[e] = true
	}
	if x.structCopies == nil {
		x.structCopies = map[ir.Instruction]structCopy{}
	}
	x.structCopies[at] = structCopy{dst: dst, call: c}
	x.declare(x.names[c], valueType(st), nil)
}

// viewBase is the structure storage a field address of a view of it
// points into (a GEP of field k of a bitcast of the structure's address).
func viewBase(p value.Value) value.Value {
	g, ok := stripCasts(p).(*ir.InstGetElementPtr)
	if !ok {
		return nil
	}
	b := stripCasts(g.Src)
	if st, ok := pointee(b).(*types.StructType); ok && st.Name() != "" {
		return b
	}
	return nil
}

// structCopyNode is the assignment planned at inst, nil where none is.
func (x *fn) structCopyNode(inst ir.Instruction, p apt.Pos) *apt.Stmt {
	sc, ok := x.structCopies[inst]
	if !ok {
		return nil
	}
	to, arr := x.location(sc.dst, &apt.Ops{})
	if arr {
		return nil
	}
	n := x.names[sc.call]
	return &apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: to, Value: x.nameExpr(n, x.vars[n].Type)}
}

// retBlock emits the function's return block reached from inside a loop.
func (x *fn) retBlock(b int) []apt.Node {
	t := x.g.blocks[b].Term.(*ir.TermRet)
	return x.ret(b, t)
}

func (x *fn) ret(b int, t *ir.TermRet) []apt.Node {
	var out []apt.Node
	p := x.posOf(t)
	if t.X != nil && x.result != "" {
		var ops apt.Ops
		e := x.exprOps(t.X, &ops)
		if sr := x.l.returnedStruct(x.f); sr != nil {
			// A structure returned in registers: the structure itself.
			e, _ = x.location(sr.from[t], &ops)
		} else if _, ix := e.(*apt.Index); ix && len(x.dimsOf(t.X)) > 0 {
			// An address computed in the return (return first + n): it
			// goes through a pointer of its own, so that the result is
			// the address, not the element there.
			tmp := x.uniq("t_ret")
			x.declare(tmp, valueType(t.X.Type()), x.dimsOf(t.X))
			out = append(out, block(&apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: x.nameExpr(tmp, x.vars[tmp].Type), Value: e, Ops: ops}))
			e, ops = x.nameExpr(tmp, x.vars[tmp].Type), apt.Ops{}
		}
		out = append(out, block(&apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: x.nameExpr(x.result, x.vars[x.result].Type), Value: e, Ops: ops}))
	}
	return append(out, &apt.Return{NodeBase: apt.NodeBase{Span: spanAt(p)}})
}
