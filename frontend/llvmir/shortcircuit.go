package llvmir

import (
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// threadShortCircuits rewrites the loop tests clang writes for && and ||
// so that each operand of the test branches out of the loop itself.
//
// clang computes `for (k = 1; k < max && r > tol; k++)` as a chain of
// blocks that meet in a block holding only `phi i1 [false, %a], [%c, %b]`
// and `br i1 %phi, %body, %exit`: the loop's exit test is that phi, which
// no comparison of an induction variable can be read from. When every
// constant the phi receives sends the branch out of the loop, the edge
// that brings the constant goes straight to the exit instead, and a block
// that brings a computed value branches on it itself (jump threading of
// the phi, as LLVM's JumpThreading does for constant operands). The
// header then tests `k < max` and leaves the loop, a counted loop, and
// `r > tol` becomes an exit from its body, which the evaluation treats as
// any early exit. The rewrite keeps the IR valid (the exit's phis get an
// operand per new edge), so the instrumented module built from it still
// compiles.
func threadShortCircuits(f *ir.Func) *graph {
	g := newGraph(f)
	// One rewrite at a time: each changes the blocks the next one's
	// test reads. A function has few such tests; the bound only guards
	// against a rewrite that would not shrink the function.
	changed := false
	for range len(f.Blocks) {
		if g.irreducible || !threadOne(f, g) {
			break
		}
		changed = true
		g = newGraph(f)
	}
	if changed {
		renumber(f)
	}
	return g
}

// renumber gives the function's unnamed values (%0, %1, ...) their
// numbers afresh: the removed blocks and phis left gaps, which LLVM's
// syntax does not allow (the instrumented module is written from f).
func renumber(f *ir.Func) {
	type numbered interface {
		IsUnnamed() bool
		SetID(int64)
	}
	reset := func(v any) {
		if n, ok := v.(numbered); ok && n.IsUnnamed() {
			n.SetID(0)
		}
	}
	for _, p := range f.Params {
		reset(p)
	}
	for _, b := range f.Blocks {
		reset(b)
		for _, inst := range b.Insts {
			reset(inst)
		}
		reset(b.Term)
	}
	if err := f.AssignIDs(); err != nil {
		panic(err) // every number was reset: AssignIDs has nothing to refuse
	}
}

// threadOne rewrites the first short-circuit loop test it finds in f and
// reports whether it found one.
func threadOne(f *ir.Func, g *graph) bool {
	for bi, b := range g.blocks {
		l := g.inner[bi]
		if l == nil || len(b.Insts) == 0 || len(b.Insts) > 2 {
			continue
		}
		br, ok := b.Term.(*ir.TermCondBr)
		if !ok {
			continue
		}
		phi, ok := b.Insts[0].(*ir.InstPhi)
		if !ok || usesOf(f, phi) != 1 {
			continue
		}
		tt, ft := blockOf(br.TargetTrue), blockOf(br.TargetFalse)
		switch {
		case len(b.Insts) == 1 && br.Cond == value.Value(phi):
		case len(b.Insts) == 2 && isNot(b.Insts[1], phi) && br.Cond == b.Insts[1].(value.Value) && usesOf(f, b.Insts[1].(value.Value)) == 1:
			// `while (!(a || b))`: the test is the phi's negation; the
			// phi's values branch the other way.
			tt, ft = ft, tt
		default:
			continue
		}
		if tt == nil || ft == nil || tt == ft {
			continue
		}
		in, out := tt, ft
		exitOn := false
		switch {
		case l.blocks[g.index[tt]] && !l.blocks[g.index[ft]]:
		case l.blocks[g.index[ft]] && !l.blocks[g.index[tt]]:
			in, out, exitOn = ft, tt, true
		default:
			continue
		}
		if !threadable(phi, b, out, exitOn) || !predsOf(g, bi, phi) {
			continue
		}
		thread(f, b, phi, tt, ft, in, out)
		return true
	}
	return false
}

// threadable reports whether every operand of phi can be threaded: a
// constant that leaves the loop, from a block whose branch reaches b once
// and does not reach out already; a computed value, from a block that
// only jumps to b.
func threadable(phi *ir.InstPhi, b, out *ir.Block, exitOn bool) bool {
	if len(phi.Incs) < 2 {
		return false
	}
	seen := map[*ir.Block]bool{}
	for _, inc := range phi.Incs {
		p := blockOf(inc.Pred)
		if p == nil || seen[p] {
			return false
		}
		seen[p] = true
		if c, ok := inc.X.(*constant.Int); ok {
			if (c.X.Sign() != 0) != exitOn {
				return false
			}
			switch t := p.Term.(type) {
			case *ir.TermBr:
			case *ir.TermCondBr:
				tt, ft := blockOf(t.TargetTrue), blockOf(t.TargetFalse)
				if tt == ft || tt == out || ft == out {
					return false
				}
			default:
				return false
			}
			continue
		}
		if t, ok := p.Term.(*ir.TermBr); !ok || blockOf(t.Target) != b {
			return false
		}
	}
	return true
}

// predsOf reports whether phi's incoming blocks are exactly block bi's
// predecessors: in IR that is not (a block jumping to bi that the phi
// leaves out), removing bi would leave that jump to no block.
func predsOf(g *graph, bi int, phi *ir.InstPhi) bool {
	if len(phi.Incs) != len(g.pred[bi]) {
		return false
	}
	for _, inc := range phi.Incs {
		p, ok := g.index[blockOf(inc.Pred)]
		if !ok || !slices.Contains(g.pred[bi], p) {
			return false
		}
	}
	return true
}

// thread does the rewrite threadable allowed and removes b: a computed
// value v of phi now branches where b's test sends v, to tt when v is true
// and to ft when it is false.
func thread(f *ir.Func, b *ir.Block, phi *ir.InstPhi, tt, ft, in, out *ir.Block) {
	md := b.Term.(*ir.TermCondBr).Metadata
	var toOut, toIn []*ir.Block
	for _, inc := range phi.Incs {
		p := blockOf(inc.Pred)
		if _, ok := inc.X.(*constant.Int); ok {
			switch t := p.Term.(type) {
			case *ir.TermBr:
				t.Target, t.Successors = out, nil
			case *ir.TermCondBr:
				if blockOf(t.TargetTrue) == b {
					t.TargetTrue = out
				} else {
					t.TargetFalse = out
				}
				t.Successors = nil
			}
			toOut = append(toOut, p)
			continue
		}
		p.Term = &ir.TermCondBr{Cond: inc.X, TargetTrue: tt, TargetFalse: ft, Metadata: md}
		toOut, toIn = append(toOut, p), append(toIn, p)
	}
	rebase(out, b, toOut)
	rebase(in, b, toIn)
	for i, x := range f.Blocks {
		if x == b {
			f.Blocks = append(f.Blocks[:i], f.Blocks[i+1:]...)
			break
		}
	}
}

// rebase gives each phi of to the operand it had from old once per block
// of from, in place of the one from old.
func rebase(to, old *ir.Block, from []*ir.Block) {
	for _, inst := range to.Insts {
		phi, ok := inst.(*ir.InstPhi)
		if !ok {
			continue
		}
		var incs []*ir.Incoming
		for _, inc := range phi.Incs {
			if blockOf(inc.Pred) != old {
				incs = append(incs, inc)
				continue
			}
			for _, p := range from {
				incs = append(incs, ir.NewIncoming(inc.X, p))
			}
		}
		phi.Incs = incs
	}
}

// isNot reports whether inst is `xor i1 v, true`.
func isNot(inst ir.Instruction, v value.Value) bool {
	x, ok := inst.(*ir.InstXor)
	if !ok {
		return false
	}
	c, ok := x.Y.(*constant.Int)
	return ok && x.X == v && c.X.Sign() != 0
}

// usesOf counts the operands in f that are v.
func usesOf(f *ir.Func, v value.Value) int {
	n := 0
	count := func(u value.User) {
		for _, op := range u.Operands() {
			if *op == v {
				n++
			}
		}
	}
	for _, b := range f.Blocks {
		for _, inst := range b.Insts {
			if u, ok := inst.(value.User); ok {
				count(u)
			}
		}
		if u, ok := b.Term.(value.User); ok {
			count(u)
		}
	}
	return n
}

// shortCircuit folds the tests clang writes for `if (a || b)` and
// `if (a && b)` into one condition. clang branches on a to the arm or to
// a block that only tests b and branches to the same arm or the other:
// emitted as they stand, the arm reached from both tests would be written
// twice, once under each (its loops two nodes, counted by neither). A
// test block folds in when b is its only predecessor, it computes nothing
// but its condition (every instruction written into the expression) and
// the arms it joins take no value from it (no phi operand from it).
// Chains (a || b || c) fold one test at a time.
func (x *fn) shortCircuit(l *loop, b int, cond apt.Expr, tt, ft int) (apt.Expr, int, int) {
	for range 16 {
		var next int
		var or bool
		switch {
		case x.testOnly(l, b, ft):
			next, or = ft, true
		case x.testOnly(l, b, tt):
			next, or = tt, false
		default:
			return cond, tt, ft
		}
		t := x.g.blocks[next].Term.(*ir.TermCondBr)
		c2 := x.condExpr(t.Cond)
		t2, f2 := x.g.index[blockOf(t.TargetTrue)], x.g.index[blockOf(t.TargetFalse)]
		switch {
		case or && t2 == tt:
			cond, ft = &apt.Binary{Pos: cond.At(), Op: apt.OpOr, X: cond, Y: c2}, f2
		case or && f2 == tt:
			cond, ft = &apt.Binary{Pos: cond.At(), Op: apt.OpOr, X: cond, Y: not(c2)}, t2
		case !or && f2 == ft:
			cond, tt = &apt.Binary{Pos: cond.At(), Op: apt.OpAnd, X: cond, Y: c2}, t2
		case !or && t2 == ft:
			cond, tt = &apt.Binary{Pos: cond.At(), Op: apt.OpAnd, X: cond, Y: not(c2)}, f2
		default:
			return cond, tt, ft
		}
		b = next
	}
	return cond, tt, ft
}

// testOnly reports whether block t, reached from b, is a test of its own
// that shortCircuit may fold into b's: b is its only predecessor, it is in
// b's loop, neither is a loop's header or counted exit, it ends in a
// conditional branch whose targets take no phi operand from it and are no
// back edges, and each of its instructions is written into the condition.
func (x *fn) testOnly(l *loop, b, t int) bool {
	if t < 0 || t >= len(x.g.blocks) || len(x.g.pred[t]) != 1 || x.g.pred[t][0] != b || x.g.header[t] != nil || x.g.inner[t] != x.g.inner[b] {
		return false
	}
	if x.g.header[b] != nil {
		return false // a loop's own test: its plan reads the header's branch
	}
	if p := x.plans[l]; l != nil && (p.exitAt == t || p.exitAt == b) {
		return false
	}
	blk := x.g.blocks[t]
	br, ok := blk.Term.(*ir.TermCondBr)
	if !ok || blockOf(br.TargetTrue) == blockOf(br.TargetFalse) {
		return false
	}
	for _, inst := range blk.Insts {
		if isDbg(inst) {
			continue
		}
		v, ok := inst.(value.Value)
		if !ok || !(x.inline[v] || x.skip[v] || x.alias[v] != nil) {
			return false
		}
	}
	for _, to := range []*ir.Block{blockOf(br.TargetTrue), blockOf(br.TargetFalse)} {
		if i, ok := x.g.index[to]; !ok || x.g.dominates(i, t) {
			// A back edge from the test (to a header, or around a
			// cycle the loops do not hold): moved to b, it would no
			// longer be one.
			return false
		}
		for _, inst := range to.Insts {
			phi, ok := inst.(*ir.InstPhi)
			if !ok {
				break
			}
			for _, inc := range phi.Incs {
				if blockOf(inc.Pred) == blk {
					return false
				}
			}
		}
	}
	return true
}
