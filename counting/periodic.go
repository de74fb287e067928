package counting

import (
	"slices"

	"github.com/mkvet/mkvet/symbolic"
)

// periodic is a BLOCK-CYCLIC ownership test on a variable v,
//
//	mod(floor((v + off)/m), p) == rho,
//
// with m (the block) and p (the processors) positive integer parameters: v
// is owned when v + off falls in the window [m*rho, m*rho + m - 1] of its
// period m*p (HPF's BLOCK-CYCLIC(m); SCALA's distributions, seed 001 §4).
type periodic struct {
	idx            int // the congruence's relation in the cell
	off, m, p, rho symbolic.Expr
}

// matchPeriodic finds a BLOCK-CYCLIC congruence on the innermost variable v
// when it is the only relation (and the weight holds no function) with v
// inside a function. The block or the period must be parametric: constant
// ones split into residue classes, which gives forms as short.
//
// Counted the other way (the floor of the block index and the offset in
// the block as two new variables, each summed with case splits), a
// one-dimensional BLOCK-CYCLIC count came out in 5 to 22 guarded pieces; the
// window sum below is one expression (issue 15).
func (en *engine) matchPeriodic(c cell, v string) (periodic, bool) {
	if hasAtomOf(c.weight, v) {
		return periodic{}, false
	}
	found := -1
	var pd periodic
	for i, r := range c.rels {
		if !hasAtomOf(r.E, v) {
			continue
		}
		if found >= 0 || r.Op != symbolic.EQ {
			return periodic{}, false
		}
		var ok bool
		if pd, ok = en.periodicRel(c, r.E, v); !ok {
			return periodic{}, false
		}
		found = i
	}
	if found < 0 {
		return periodic{}, false
	}
	pd.idx = found
	return pd, true
}

// hasAtomOf reports whether v occurs inside a function of e.
func hasAtomOf(e symbolic.Expr, v string) bool {
	return slices.ContainsFunc(e.FuncAtoms(), func(at symbolic.Expr) bool { return at.Has(v) })
}

// periodicRel matches e == 0 as a1*(A - p*floor(A/p)) + g == 0 with A =
// floor((v + off)/m) (trunc where its argument is provably non-negative,
// as Fortran's MOD and integer division of a loop index from 1 are), g free
// of v: mod(A, p) == -g/a1.
func (en *engine) periodicRel(c cell, e symbolic.Expr, v string) (periodic, bool) {
	var ats []symbolic.Expr
	for _, at := range e.FuncAtoms() {
		if at.Has(v) {
			ats = append(ats, at)
		}
	}
	if len(ats) != 2 {
		return periodic{}, false
	}
	inner, outer := ats[0], ats[1]
	if _, args, _ := inner.AsFunc(); len(args) == 1 && args[0].Has(v) && hasAtomOf(args[0], v) {
		inner, outer = outer, inner
	}
	n1, a1s, _ := inner.AsFunc()
	n2, a2s, _ := outer.AsFunc()
	if (n1 != "floor" && n1 != "trunc") || (n2 != "floor" && n2 != "trunc") {
		return periodic{}, false
	}
	// The block: inner = floor(alpha*v + beta), m = 1/alpha.
	alpha, beta, ok := a1s[0].Linear(v)
	if !ok || alpha.IsZero() || !paramOnly(alpha, c.vars) {
		return periodic{}, false
	}
	m := symbolic.Int(1).Div(alpha)
	if !en.positiveInteger(m, c) {
		return periodic{}, false
	}
	off := beta.Mul(m)
	if !off.IsIntegerValued() || hasAtomOf(off, v) {
		return periodic{}, false
	}
	// The period: outer = floor(inner/p).
	t1, t2 := en.newVar("a"), en.newVar("a")
	y := a2s[0].Replace(inner, symbolic.Sym(t1))
	ay, by, ok := y.Linear(t1)
	if !ok || !by.IsZero() || ay.IsZero() || y.Has(v) || !paramOnly(ay, c.vars) {
		return periodic{}, false
	}
	p := symbolic.Int(1).Div(ay)
	if !en.positiveInteger(p, c) {
		return periodic{}, false
	}
	if _, ok := m.Mul(p).Const(); ok {
		return periodic{}, false
	}
	// e = a1*inner + a2*outer + g with a2 = -p*a1.
	x := e.Replace(outer, symbolic.Sym(t2)).Replace(inner, symbolic.Sym(t1))
	if x.Has(v) {
		return periodic{}, false
	}
	a1, rest, ok := x.Linear(t1)
	if !ok {
		return periodic{}, false
	}
	a2, g, ok := rest.Linear(t2)
	if !ok {
		return periodic{}, false
	}
	k, ok := a1.Const()
	if !ok || k.IsZero() || !a2.Equal(p.Mul(a1).Neg()) {
		return periodic{}, false
	}
	// trunc is floor where v + off >= 0 (the block index is then >= 0 too).
	if n1 == "trunc" || n2 == "trunc" {
		nonneg := symbolic.Relation{E: symbolic.Sym(v).Add(off), Op: symbolic.GE}
		if en.scope(c).Prove(nonneg, false) != symbolic.True {
			return periodic{}, false
		}
	}
	rho := g.Neg().Scale(symbolic.RatInt(1).Quo(k))
	return periodic{off: off, m: m, p: p, rho: rho}, true
}

// positiveInteger reports whether m is a provably positive, integer-valued
// single term (a constant or a parameter monomial).
func (en *engine) positiveInteger(m symbolic.Expr, c cell) bool {
	return m.NumTerms() == 1 && m.IsIntegerValued() && en.sign(m, c) == 1
}

// periodicSum sums the weight over v where the congruence holds, between
// v's bounds, with the window sum; the congruence can hold only for
// 0 <= rho <= p - 1 (and rho an integer), which the cells are guarded by.
func (en *engine) periodicSum(c cell, v string, pd periodic) ([]cell, error) {
	guards := []symbolic.Relation{
		{E: pd.rho, Op: symbolic.GE},
		{E: pd.p.Sub(symbolic.Int(1)).Sub(pd.rho), Op: symbolic.GE},
	}
	if !pd.rho.IsIntegerValued() {
		guards = append(guards, symbolic.Relation{E: symbolic.Floor(pd.rho).Sub(pd.rho), Op: symbolic.EQ})
	}
	kept, feasible := prune(en.scope(c), guards)
	if !feasible {
		return nil, nil
	}
	c = withRels(c, kept...)
	sum := func(lo, hi symbolic.Expr) (symbolic.Expr, error) {
		return en.windowSum(c.weight, v, lo, hi, pd)
	}
	return en.eliminateWith(c, v, pd.idx, sum)
}

// windowSum returns the sum of w over the owned v in lo..hi, for hi >= lo - 1:
// W(hi + off + 1) - W(lo + off), where W(X) sums w over the owned y = v + off
// in 0..X-1,
//
//	W(X) = sum_{q=0}^{Q-1} sum_{t=0}^{m-1} w(m*p*q + m*rho + t - off)
//	     + sum_{t=0}^{T-1} w(m*p*Q + m*rho + t - off),
//	Q = floor(X/(m*p)),  T = min(m, max(0, X - m*p*Q - m*rho)):
//
// Q whole periods and the part of the last one's window below X. W(X+1) -
// W(X) is w at v = X - off when that v is owned and 0 otherwise, for every
// integer X (Faulhaber's sums are polynomial identities in Q, negative Q
// included), so the difference is exact for any lo and hi. For w = 1, W(X) =
// m*Q + T: the count a person writes, m*floor(n/(m*p)) + min(m, max(0, r -
// m*rho)) with r = n - m*p*floor(n/(m*p)).
func (en *engine) windowSum(w symbolic.Expr, v string, lo, hi symbolic.Expr, pd periodic) (symbolic.Expr, error) {
	mp := pd.m.Mul(pd.p)
	q, t, qn, tn := en.newVar("q"), en.newVar("t"), en.newVar("Q"), en.newVar("T")
	one := symbolic.Int(1)
	at, err := w.Subst(map[string]symbolic.Expr{v: mp.Mul(symbolic.Sym(q)).Add(pd.m.Mul(pd.rho)).Add(symbolic.Sym(t)).Sub(pd.off)})
	if err != nil {
		return symbolic.Expr{}, err
	}
	period, err := sumOver(at, t, symbolic.Int(0), pd.m.Sub(one))
	if err != nil {
		return symbolic.Expr{}, err
	}
	whole, err := sumOver(period, q, symbolic.Int(0), symbolic.Sym(qn).Sub(one))
	if err != nil {
		return symbolic.Expr{}, err
	}
	last, err := at.Subst(map[string]symbolic.Expr{q: symbolic.Sym(qn)})
	if err != nil {
		return symbolic.Expr{}, err
	}
	part, err := sumOver(last, t, symbolic.Int(0), symbolic.Sym(tn).Sub(one))
	if err != nil {
		return symbolic.Expr{}, err
	}
	W := whole.Add(part)
	at1 := func(x symbolic.Expr) (symbolic.Expr, error) {
		Q := symbolic.Floor(x.Div(mp))
		T := symbolic.Min(pd.m, symbolic.Max(symbolic.Int(0), x.Sub(mp.Mul(Q)).Sub(pd.m.Mul(pd.rho))))
		return W.Subst(map[string]symbolic.Expr{qn: Q, tn: T})
	}
	upper, err := at1(hi.Add(pd.off).Add(one))
	if err != nil {
		return symbolic.Expr{}, err
	}
	lower, err := at1(lo.Add(pd.off))
	if err != nil {
		return symbolic.Expr{}, err
	}
	return upper.Sub(lower), nil
}

// deferPeriodic returns the cell with another variable made innermost when v
// carries a BLOCK-CYCLIC congruence whose bounds hold other variables (the
// inner index of a triangular nest): summed first, that variable leaves v
// bounds in the parameters alone, and the window sum then has no function
// of a variable for the outer sums to split on (1 piece instead of 48). A
// sum over a finite set does not depend on the order it is taken in.
func (en *engine) deferPeriodic(c cell, v string, pd periodic) (cell, bool) {
	others := false
	for i, r := range c.rels {
		if i != pd.idx && r.E.Has(v) {
			for _, u := range c.vars[:len(c.vars)-1] {
				others = others || r.E.Has(u)
			}
		}
	}
	if !others {
		return c, false
	}
	for i := len(c.vars) - 2; i >= 0; i-- {
		u := c.vars[i]
		if en.affineIn(c, u) {
			vars := append(slices.Delete(slices.Clone(c.vars), i, i+1), u)
			return cell{vars: vars, rels: c.rels, weight: c.weight}, true
		}
	}
	return c, false
}

// affineIn reports whether u occurs only outside functions, in the weight
// polynomially and in the relations linearly with coefficients in the
// parameters, so that eliminate can sum it.
func (en *engine) affineIn(c cell, u string) bool {
	if hasAtomOf(c.weight, u) {
		return false
	}
	if _, ok := c.weight.Coeffs(u); !ok {
		return false
	}
	for _, r := range c.rels {
		if !r.E.Has(u) {
			continue
		}
		a, _, ok := r.E.Linear(u)
		if !ok || hasAtomOf(r.E, u) || !paramOnly(a, c.vars) {
			return false
		}
	}
	return true
}
