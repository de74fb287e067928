package symeval

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// HPF owner computes (SCALA, seed 001 §4): in a program with HPF directives,
// processor rank of the P processors of its one-dimensional PROCESSORS
// arrangement executes an assignment to an element of a distributed array
// only when it owns the element. The arrangement's extent is P, whatever
// the program names it. The rule applies to a Block whose statements all
// assign elements of distributed arrays with one owner; other blocks run on
// every processor.

// collectHPF finds the processor arrangements' extents and whether any
// array is distributed.
func (ev *evaluator) collectHPF() {
	ev.hpfSize = map[string]bool{}
	for _, r := range allRoutines(ev.prog) {
		if r.Scope == nil {
			continue
		}
		for _, p := range r.Scope.Processors {
			if len(p.Shape) != 1 {
				continue
			}
			if nm, ok := p.Shape[0].(*apt.Name); ok {
				ev.hpfSize[nm.Name] = true
				ev.sizeVars[nm.Name] = true
			}
		}
		for _, v := range r.Scope.Vars {
			if v.Dist != nil && len(r.Scope.Processors) > 0 {
				ev.hpf = true
			}
		}
	}
}

// distribution returns the distribution of an array, following one
// identity ALIGN, and the array whose bounds are distributed.
func (ev *evaluator) distribution(v *apt.Var) (*apt.Distribution, *apt.Var) {
	d := v.Dist
	if d != nil && d.AlignWith != "" {
		w := ev.prog.Resolve(ev.frame().routine, d.AlignWith)
		if w == nil || w.Dist == nil || w.Dist.AlignWith != "" {
			return nil, nil
		}
		return w.Dist, w
	}
	return d, v
}

// ownerCond returns the condition under which rank owns the element a
// statement assigns; ok is false when the statement is not an assignment
// to one element of an array distributed in one dimension by BLOCK or
// CYCLIC.
func (ev *evaluator) ownerCond(s *apt.Stmt) (counting.Formula, bool) {
	ix, ok := s.Target.(*apt.Index)
	if !ev.hpf || s.Kind != apt.StmtAssign || !ok || ix.Base != nil {
		return nil, false
	}
	v := ev.prog.Resolve(ev.frame().routine, ix.Name)
	if v == nil {
		return nil, false
	}
	d, arr := ev.distribution(v)
	if d == nil {
		return nil, false
	}
	k := -1
	for j, f := range d.Formats {
		if f.Kind != apt.DistStar {
			if k >= 0 {
				return nil, false
			}
			k = j
		}
	}
	if k < 0 || k >= len(ix.Subs) || k >= len(arr.Dims) {
		return nil, false
	}
	if _, isSec := ix.Subs[k].(*apt.Section); isSec {
		return nil, false
	}
	pos := s.Span.Start()
	i := ev.closedInt(ev.value(ix.Subs[k]), pos)
	lo := Known(symbolic.Int(1))
	if arr.Dims[k].Lo != nil {
		lo = ev.closedInt(ev.value(arr.Dims[k].Lo), pos)
	}
	ext, ok := ev.dimExtent(arr.Dims[k])
	if !ok || !i.IsKnown() || !lo.IsKnown() {
		return nil, false
	}
	P, rank := symbolic.Sym(Size), symbolic.Sym(Rank)
	f := d.Formats[k]
	var arg symbolic.Expr
	if f.Arg != nil {
		a, ok := ev.closedInt(ev.value(f.Arg), pos).Single()
		if !ok {
			return nil, false
		}
		arg = a
	}
	// off = i - lo, the element's offset in the distributed dimension.
	off, ok := lift2(i, lo, func(a, b symbolic.Expr) (symbolic.Expr, bool) { return a.Sub(b), true })
	if !ok {
		return nil, false
	}
	switch f.Kind {
	case apt.DistBlock:
		// Blocks of b = ceil(ext/P) (or the BLOCK(b) argument): rank owns
		// offsets rank*b .. rank*b + b - 1.
		b, ok := lift1(ext, func(e symbolic.Expr) (symbolic.Expr, bool) {
			if f.Arg != nil {
				return arg, true
			}
			return symbolic.Ceil(e.Div(P)), true
		})
		if !ok {
			return nil, false
		}
		first, _ := lift1(b, func(x symbolic.Expr) (symbolic.Expr, bool) { return rank.Mul(x), true })
		last, _ := lift1(b, func(x symbolic.Expr) (symbolic.Expr, bool) { return rank.Mul(x).Add(x).Sub(symbolic.Int(1)), true })
		f1, ok1 := relation(off, first, apt.OpGe)
		f2, ok2 := relation(off, last, apt.OpLe)
		if !ok1 || !ok2 {
			return nil, false
		}
		return counting.And{f1, f2}, true
	case apt.DistCyclic:
		if f.Arg != nil {
			return nil, false
		}
		// Offsets rank, rank + P, rank + 2P, ...
		m, ok := lift1(off, func(x symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Modulo(x, P), true })
		if !ok {
			return nil, false
		}
		return relation(m, Known(rank), apt.OpEq)
	}
	return nil, false
}

// ownerOf returns the owner condition shared by every statement of b.
func (ev *evaluator) ownerOf(b *apt.Block) (counting.Formula, bool) {
	var out counting.Formula
	for _, s := range b.Stmts {
		f, ok := ev.ownerCond(s)
		if !ok {
			return nil, false
		}
		if out != nil && out.String() != f.String() {
			return nil, false
		}
		out = f
	}
	return out, out != nil
}
