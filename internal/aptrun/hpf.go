package aptrun

import (
	"github.com/mkvet/mkvet/frontend/apt"
)

// HPF owner computes. A program with HPF directives runs, on each of the P
// processors of its (one-dimensional) PROCESSORS arrangement, only the
// assignments to distributed array elements that processor owns (seed 001
// §4: processor k's work on A(J2) BLOCK-distributed is the count of J2 in its
// block). The interpreter applies the rule to a whole Block when every
// statement of it assigns an element of a distributed array and all have
// one owner; other blocks run everywhere. The arrangement's extent, when it
// is a variable, holds Config.P.

// procSizes returns the names of the variables that give the extent of a
// one-dimensional PROCESSORS arrangement.
func procSizes(prog *apt.Program) map[string]bool {
	out := map[string]bool{}
	var visit func(rs []*apt.Routine)
	visit = func(rs []*apt.Routine) {
		for _, r := range rs {
			if r.Scope != nil {
				for _, p := range r.Scope.Processors {
					if len(p.Shape) == 1 {
						if nm, ok := p.Shape[0].(*apt.Name); ok {
							out[nm.Name] = true
						}
					}
				}
			}
			visit(r.Contains)
		}
	}
	visit(prog.Routines)
	return out
}

// distribution returns the HPF distribution of an array, following one
// identity ALIGN, and the array whose bounds it distributes.
func (e *engine) distribution(r *apt.Routine, v *apt.Var) (*apt.Distribution, *apt.Var) {
	d := v.Dist
	if d != nil && d.AlignWith != "" {
		w := e.resolve(r, d.AlignWith)
		if w == nil || w.Dist == nil || w.Dist.AlignWith != "" {
			return nil, nil
		}
		return w.Dist, w
	}
	return d, v
}

// owner returns the processor (0-based) that owns element i of dimension k
// of an array with lower bound lo and extent ext distributed by f over p
// processors; ok is false for a format it does not model.
func owner(f apt.DistFormat, arg, i, lo, ext, p int64) (int64, bool) {
	switch f.Kind {
	case apt.DistBlock:
		b := arg
		if b <= 0 {
			b = (ext + p - 1) / p // HPF BLOCK: blocks of ceil(ext/p)
		}
		if b <= 0 {
			return 0, false
		}
		return (i - lo) / b, true
	case apt.DistCyclic:
		b := arg
		if b <= 0 {
			b = 1
		}
		return ((i - lo) / b) % p, true
	}
	return 0, false
}

// runsHere reports whether this processor executes block b under owner
// computes.
func (e *engine) runsHere(fr *frame, b *apt.Block) (bool, error) {
	if len(b.Stmts) == 0 || e.cfg.P < 1 {
		return true, nil
	}
	first := int64(-1)
	for _, s := range b.Stmts {
		ix, ok := s.Target.(*apt.Index)
		if s.Kind != apt.StmtAssign || !ok || ix.Base != nil {
			return true, nil
		}
		v := e.resolve(fr.r, ix.Name)
		if v == nil {
			return true, nil
		}
		d, arr := e.distribution(fr.r, v)
		if d == nil || arr == nil {
			return true, nil
		}
		k := -1
		for j, f := range d.Formats {
			if f.Kind != apt.DistStar {
				if k >= 0 {
					return true, nil // more than one distributed dimension
				}
				k = j
			}
		}
		if k < 0 || k >= len(ix.Subs) {
			return true, nil
		}
		if _, isSec := ix.Subs[k].(*apt.Section); isSec {
			return true, nil
		}
		lo, ext, err := e.evalDims(fr, arr, s.Span.Start())
		if err != nil || k >= len(lo) {
			return true, nil
		}
		i, err := e.evalInt(fr, ix.Subs[k])
		if err != nil {
			return false, err
		}
		var arg int64
		if d.Formats[k].Arg != nil {
			if arg, err = e.evalInt(fr, d.Formats[k].Arg); err != nil {
				return false, err
			}
		}
		o, ok := owner(d.Formats[k], arg, i, lo[k], ext[k], e.cfg.P)
		if !ok {
			return true, nil
		}
		if first >= 0 && o != first {
			return true, nil
		}
		first = o
	}
	return first == e.cfg.Rank, nil
}
