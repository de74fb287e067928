package symbolic

import "slices"

// Evaluation at the witnesses. Every question the prover gets is first
// evaluated at a set's few points; compiling each question into a Func for
// that costs more than the evaluations. Here the expression is walked once,
// each atom and term computed at all the points together in int64 fractions
// (q64), and nothing is allocated. What does not fit (an overflow, log2,
// sqrt) goes to the compiled exact path instead.

// qvec holds one value per witness point.
type qvec [maxWitnesses]q64

// pointEval evaluates expressions at the points of a witness set.
type pointEval struct {
	w     *witnessSet
	extra []string // e's symbols that w does not have, sorted
	n     int      // the number of points
	// bad[i]: the expression has no value at point i (a zero divisor), as
	// the exact evaluation reports an error there.
	bad [maxWitnesses]bool
}

// evalQ evaluates e at w's points into out; ok is false when the int64
// path cannot (the caller then evaluates exactly).
func (w *witnessSet) evalQ(e Expr, out *qvec, bad *[maxWitnesses]bool) (ok bool) {
	if len(w.pts) > maxWitnesses {
		return false
	}
	pe := pointEval{w: w, n: len(w.pts)}
	var buf [4]string
	for _, s := range e.appendSymbols(buf[:0]) {
		if _, found := slices.BinarySearch(w.vars, s); !found {
			pe.extra = append(pe.extra, s)
		}
	}
	if !pe.expr(e, out) {
		return false
	}
	*bad = pe.bad
	return true
}

// symbol sets out to the symbol's value at each point: its coordinate, or
// for a symbol the set does not constrain, the small values the exact path
// gives it ((i+j)%5 - 1 at point i, j its place among such symbols).
func (pe *pointEval) symbol(name string, out *qvec) {
	if k, found := slices.BinarySearch(pe.w.vars, name); found {
		for i, p := range pe.w.pts {
			out[i] = q64{p[k], 1}
		}
		return
	}
	j, _ := slices.BinarySearch(pe.extra, name)
	for i := range pe.n {
		out[i] = q64{int64((i+j)%5) - 1, 1}
	}
}

func (pe *pointEval) expr(e Expr, out *qvec) bool {
	for i := range pe.n {
		out[i] = q64{0, 1}
	}
	var av qvec // declared outside the loops, which keeps it on the stack
	for _, t := range e.t {
		if t.c.b != nil {
			return false
		}
		var p qvec
		for i := range pe.n {
			p[i] = q64{t.c.n, t.c.den()}
		}
		for _, fa := range t.m {
			if !pe.atom(fa.a, &av) {
				return false
			}
			for i := range pe.n {
				if pe.bad[i] {
					continue
				}
				v, k := av[i], fa.e
				if k < 0 {
					if v.n == 0 {
						pe.bad[i] = true
						continue
					}
					v, k = q64{v.d, v.n}, -k
					if v.d < 0 {
						v = q64{-v.n, -v.d}
					}
				}
				for range k {
					var ok1, ok2 bool
					p[i].n, ok1 = mul64(p[i].n, v.n)
					p[i].d, ok2 = mul64(p[i].d, v.d)
					if !ok1 || !ok2 {
						return false
					}
				}
			}
		}
		for i := range pe.n {
			if pe.bad[i] {
				continue
			}
			var ok bool
			if out[i], ok = out[i].add(p[i]); !ok {
				return false
			}
		}
	}
	return true
}

func (pe *pointEval) atom(a *atom, out *qvec) bool {
	switch a.kind {
	case kSym:
		pe.symbol(a.name, out)
		return true
	case kRecip:
		return pe.expr(a.args[0], out)
	case kFloor, kTrunc:
		if !pe.expr(a.args[0], out) {
			return false
		}
		for i := range pe.n {
			if pe.bad[i] {
				continue
			}
			q, r := floorDivMod(out[i].n, out[i].d)
			if a.kind == kTrunc && r != 0 && out[i].n < 0 {
				q++
			}
			out[i] = q64{q, 1}
		}
		return true
	case kMin, kMax:
		if !pe.expr(a.args[0], out) {
			return false
		}
		for _, arg := range a.args[1:] {
			var v qvec
			if !pe.expr(arg, &v) {
				return false
			}
			for i := range pe.n {
				if pe.bad[i] {
					continue
				}
				lt, ok1 := v[i].less(out[i])
				gt, ok2 := out[i].less(v[i])
				if !ok1 || !ok2 {
					return false
				}
				if a.kind == kMin && lt || a.kind == kMax && gt {
					out[i] = v[i]
				}
			}
		}
		return true
	}
	return false // log2, sqrt, ln 2: not rational
}
