package symbolic

import (
	"math/big"
	"slices"
)

// Add returns e + f.
func (e Expr) Add(f Expr) Expr { return e.addSigned(f, false) }

// Sub returns e - f.
func (e Expr) Sub(f Expr) Expr { return e.addSigned(f, true) }

// addSigned returns e + f, or e - f when neg: the terms of f are negated as
// they are merged rather than copied into a negated f first.
func (e Expr) addSigned(f Expr, neg bool) Expr {
	if len(f.t) == 0 {
		return e
	}
	if len(e.t) == 0 {
		if neg {
			return f.Neg()
		}
		return f
	}
	fc := func(y term) Rat {
		if neg {
			return y.c.Neg()
		}
		return y.c
	}
	out := make([]term, 0, len(e.t)+len(f.t))
	i, j := 0, 0
	for i < len(e.t) && j < len(f.t) {
		x, y := e.t[i], f.t[j]
		switch c := cmpMono(x.m, y.m); {
		case c < 0:
			out = append(out, x)
			i++
		case c > 0:
			out = append(out, term{c: fc(y), m: y.m})
			j++
		default:
			s := x.c.Add(y.c)
			if neg {
				s = x.c.Sub(y.c)
			}
			if !s.IsZero() {
				out = append(out, term{c: s, m: x.m})
			}
			i++
			j++
		}
	}
	out = append(out, e.t[i:]...)
	for _, y := range f.t[j:] {
		out = append(out, term{c: fc(y), m: y.m})
	}
	if len(out) == 0 {
		return Expr{}
	}
	return Expr{t: out}
}

// Neg returns -e.
func (e Expr) Neg() Expr { return e.Scale(RatInt(-1)) }

// Scale returns r*e.
func (e Expr) Scale(r Rat) Expr {
	if r.IsZero() || len(e.t) == 0 {
		return Expr{}
	}
	if r.IsOne() {
		return e
	}
	out := make([]term, len(e.t))
	for i, t := range e.t {
		out[i] = term{c: t.c.Mul(r), m: t.m}
	}
	return Expr{t: out}
}

// Sum returns the sum of es.
func Sum(es ...Expr) Expr {
	var n int
	for _, e := range es {
		n += len(e.t)
	}
	ts := make([]term, 0, n)
	for _, e := range es {
		ts = append(ts, e.t...)
	}
	return Expr{t: sortTerms(ts)}
}

// Product returns the product of es.
func Product(es ...Expr) Expr {
	p := Int(1)
	for _, e := range es {
		p = p.Mul(e)
	}
	return p
}

// Mul returns e*f, expanded into canonical form.
func (e Expr) Mul(f Expr) Expr {
	if len(e.t) == 0 || len(f.t) == 0 {
		return Expr{}
	}
	if len(f.t) == 1 && len(f.t[0].m) == 0 {
		return e.Scale(f.t[0].c)
	}
	if len(e.t) == 1 && len(e.t[0].m) == 0 {
		return f.Scale(e.t[0].c)
	}
	if len(e.t) == 1 {
		e, f = f, e
	}
	if len(f.t) == 1 && !hasSpecialAtoms(e) && !hasSpecialAtoms(f) {
		// Times one term: adding the same exponent vector to every monomial
		// keeps their order, so the product is canonical as built.
		y := f.t[0]
		n := len(e.t) * len(y.m)
		for _, x := range e.t {
			n += len(x.m)
		}
		ts := make([]term, len(e.t))
		backing := make([]factor, 0, n)
		for i, x := range e.t {
			start := len(backing)
			backing = appendMulMono(backing, x.m, y.m)
			ts[i] = term{c: x.c.Mul(y.c), m: backing[start:len(backing):len(backing)]}
		}
		return Expr{t: ts}
	}
	var ts []term
	if p, ok := denseMul(e, f); ok {
		if !hasSpecialAtoms(e) && !hasSpecialAtoms(f) {
			return Expr{t: p} // no sqrt or reciprocal: the product is canonical as built
		}
		ts = p
	} else if p, ok := packedMul(e, f); ok {
		ts = p
	} else {
		ts = schoolMul(e, f)
	}
	return fixTerms(ts)
}

// schoolMul multiplies every pair of terms and sorts the products: the method
// for any operands, and the reference the fast methods are tested against.
func schoolMul(e, f Expr) []term {
	ts := make([]term, 0, len(e.t)*len(f.t))
	for _, x := range e.t {
		for _, y := range f.t {
			m := mulMono(x.m, y.m)
			ts = append(ts, term{c: x.c.Mul(y.c), m: m})
		}
	}
	return sortTerms(ts)
}

// mulMono returns the product of two monomials (merging sorted factor lists).
func mulMono(x, y []factor) []factor {
	return appendMulMono(make([]factor, 0, len(x)+len(y)), x, y)
}

// appendMulMono appends the product of two monomials to out.
func appendMulMono(out, x, y []factor) []factor {
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		if x[i].a == y[j].a {
			if s := x[i].e + y[j].e; s != 0 {
				out = append(out, factor{a: x[i].a, e: s})
			}
			i++
			j++
			continue
		}
		if cmpAtom(x[i].a, y[j].a) < 0 {
			out = append(out, x[i])
			i++
		} else {
			out = append(out, y[j])
			j++
		}
	}
	out = append(out, x[i:]...)
	return append(out, y[j:]...)
}

// Packed multiplication. When both operands together use at most 8 atoms and
// every exponent is within ±31, a monomial packs into one uint64: 8 bits per
// atom, biased by 64, earliest atom in the highest byte. The product of two
// monomials is then one addition and one subtraction of packed words (fields
// stay in [2, 126], so nothing carries), and numeric order of packed words is
// the lexicographic order of exponent vectors.
const (
	packMaxAtoms = 8
	packMaxExp   = 31
	packBias     = 64
)

func packedMul(e, f Expr) ([]term, bool) {
	var atoms [packMaxAtoms]*atom
	n := 0
	add := func(x Expr) bool {
		for _, t := range x.t {
			for _, fa := range t.m {
				if fa.e > packMaxExp || fa.e < -packMaxExp {
					return false
				}
				found := false
				for k := 0; k < n; k++ {
					if atoms[k] == fa.a {
						found = true
						break
					}
				}
				if !found {
					if n == packMaxAtoms {
						return false
					}
					atoms[n] = fa.a
					n++
				}
			}
		}
		return true
	}
	if !add(e) || !add(f) {
		return nil, false
	}
	as := atoms[:n]
	slices.SortFunc(as, cmpAtom)
	var bias uint64
	for k := 0; k < packMaxAtoms; k++ {
		bias |= packBias << (8 * k)
	}
	pack := func(m []factor) uint64 {
		w := bias
		k := 0
		for _, fa := range m {
			for as[k] != fa.a {
				k++
			}
			w += uint64(int64(fa.e)) << (8 * (packMaxAtoms - 1 - k)) // two's complement add into a biased field
		}
		return w
	}
	pe := make([]uint64, len(e.t))
	for i, t := range e.t {
		pe[i] = pack(t.m)
	}
	pf := make([]uint64, len(f.t))
	for i, t := range f.t {
		pf[i] = pack(t.m)
	}
	type acc struct {
		key uint64
		deg int32
		c   Rat
	}
	res := make([]acc, 0, min(len(e.t)*len(f.t), 1024))
	index := make(map[uint64]int32, min(len(e.t)*len(f.t), 1024))
	for i, x := range e.t {
		for j, y := range f.t {
			key := pe[i] + pf[j] - bias
			c := x.c.Mul(y.c)
			if k, ok := index[key]; ok {
				res[k].c = res[k].c.Add(c)
				continue
			}
			index[key] = int32(len(res))
			res = append(res, acc{key: key, deg: monoDeg(x.m) + monoDeg(y.m), c: c})
		}
	}
	// Drop cancelled terms and sort: higher degree first, then higher packed word.
	k := 0
	nf := 0
	for _, r := range res {
		if !r.c.IsZero() {
			res[k] = r
			k++
			nf += fieldCount(r.key, bias)
		}
	}
	res = res[:k]
	slices.SortFunc(res, func(x, y acc) int {
		if x.deg != y.deg {
			if x.deg > y.deg {
				return -1
			}
			return 1
		}
		switch {
		case x.key > y.key:
			return -1
		case x.key < y.key:
			return 1
		}
		return 0
	})
	ts := make([]term, len(res))
	backing := make([]factor, 0, nf)
	for i, r := range res {
		start := len(backing)
		for a := 0; a < n; a++ {
			field := int32((r.key >> (8 * (packMaxAtoms - 1 - a))) & 0xff)
			if ex := field - packBias; ex != 0 {
				backing = append(backing, factor{a: as[a], e: ex})
			}
		}
		ts[i] = term{c: r.c, m: backing[start:len(backing):len(backing)]}
	}
	return ts, true
}

// fieldCount returns the number of non-zero exponent fields of a packed word.
func fieldCount(w, bias uint64) int {
	d := w ^ bias
	n := 0
	for d != 0 {
		if d&0xff != 0 {
			n++
		}
		d >>= 8
	}
	return n
}

// hasSpecialAtoms reports whether e holds a sqrt or reciprocal atom, the only
// atoms whose products may leave canonical range (see fixTerms).
func hasSpecialAtoms(e Expr) bool {
	for _, t := range e.t {
		for _, f := range t.m {
			if f.a.kind == kSqrt || f.a.kind == kRecip {
				return true
			}
		}
	}
	return false
}

// needsFix reports whether a term holds a factor outside canonical range: a sqrt
// with exponent other than 1, or a reciprocal atom with a positive exponent.
func needsFix(t term) bool {
	for _, f := range t.m {
		switch f.a.kind {
		case kSqrt:
			if f.e != 1 {
				return true
			}
		case kRecip:
			if f.e > 0 {
				return true
			}
		}
	}
	return false
}

// fixTerms rewrites terms whose factors leave the canonical range:
//
//	sqrt(x)^(2q+r) = x^q * sqrt(x)^r, r in {0, 1}  (valid wherever sqrt(x) is defined)
//	recip(s)^k     = s^k for k > 0                   (the sum is expanded again)
//
// and returns the canonical expression.
func fixTerms(ts []term) Expr {
	bad := false
	for _, t := range ts {
		if needsFix(t) {
			bad = true
			break
		}
	}
	if !bad {
		if len(ts) == 0 {
			return Expr{}
		}
		return Expr{t: ts}
	}
	var good []term
	var parts []Expr
	for _, t := range ts {
		if !needsFix(t) {
			good = append(good, t)
			continue
		}
		var keep []factor
		p := Const(t.c)
		for _, f := range t.m {
			switch {
			case f.a.kind == kSqrt && f.e != 1:
				q, r := floorDivMod(int64(f.e), 2)
				p = p.Mul(f.a.args[0].Pow(int(q)))
				if r == 1 {
					keep = append(keep, factor{a: f.a, e: 1})
				}
			case f.a.kind == kRecip && f.e > 0:
				p = p.Mul(f.a.args[0].Pow(int(f.e)))
			default:
				keep = append(keep, f)
			}
		}
		p = p.Mul(Expr{t: []term{{c: RatInt(1), m: keep}}})
		parts = append(parts, p)
	}
	parts = append(parts, Expr{t: good})
	return Sum(parts...)
}

func floorDivMod(a, b int64) (q, r int64) {
	q, r = a/b, a%b
	if r != 0 && (r < 0) != (b < 0) {
		q--
		r += b
	}
	return q, r
}

// Pow returns e**k for an integer k. Negative powers of sums become reciprocal
// atoms unless e divides exactly. e**0 is 1 for every e, 0**0 included (the
// convention of Fortran compilers); 0**k for k < 0 panics.
func (e Expr) Pow(k int) Expr {
	switch {
	case k == 0:
		return Int(1)
	case k == 1:
		return e
	case k < 0:
		return Int(1).Div(e).Pow(-k)
	}
	if len(e.t) == 1 {
		// A single term: raise the coefficient and scale the exponents.
		t := e.t[0]
		m := make([]factor, len(t.m))
		for i, f := range t.m {
			m[i] = factor{a: f.a, e: f.e * int32(k)}
		}
		return fixTerms([]term{{c: t.c.PowInt(k), m: m}})
	}
	res := Int(1)
	base := e
	for k > 0 {
		if k&1 == 1 {
			res = res.Mul(base)
		}
		k >>= 1
		if k > 0 {
			base = base.Mul(base)
		}
	}
	return res
}

// Div returns the exact quotient e/f. Division by a single term multiplies by its
// inverse (N/P is N*P^-1); division by a sum that divides e exactly as a
// polynomial gives the polynomial quotient; otherwise the sum becomes a
// reciprocal atom. Div panics if f is zero.
func (e Expr) Div(f Expr) Expr {
	if f.IsZero() {
		panic("symbolic: division by zero")
	}
	if e.IsZero() {
		return Expr{}
	}
	if len(f.t) == 1 {
		return e.Mul(invTerm(f.t[0]))
	}
	if q, ok := polyDiv(e, f); ok {
		return q
	}
	return e.Mul(recip(f))
}

// invTerm returns 1/t for a single term t.
func invTerm(t term) Expr {
	m := make([]factor, len(t.m))
	for i, f := range t.m {
		m[i] = factor{a: f.a, e: -f.e}
	}
	return fixTerms([]term{{c: t.c.Inv(), m: m}})
}

// recip returns 1/s for a sum s of two or more terms: s = c * g * s' with c the
// rational content (sign chosen so s' leads with a positive coefficient), g the
// greatest common monomial and s' primitive, so that equal sums share one atom.
func recip(s Expr) Expr {
	c := content(s)
	if s.t[0].c.Sign() < 0 {
		c = c.Neg()
	}
	g := commonMono(s)
	gExpr := Expr{t: []term{{c: c, m: g}}}
	ginv := invTerm(gExpr.t[0])
	prim := s.Mul(ginv)
	a := intern(&atom{kind: kRecip, args: []Expr{prim}})
	return ginv.Mul(Expr{t: []term{{c: RatInt(1), m: []factor{{a: a, e: -1}}}}})
}

// content returns the positive rational gcd of e's coefficients: the gcd of the
// numerators over the lcm of the denominators.
func content(e Expr) Rat {
	if len(e.t) == 0 {
		return RatInt(1)
	}
	num := e.t[0].c.Num()
	num.Abs(num)
	den := e.t[0].c.Den()
	for _, t := range e.t[1:] {
		n := t.c.Num()
		n.Abs(n)
		num.GCD(nil, nil, num, n)
		d := t.c.Den()
		g := new(big.Int).GCD(nil, nil, den, d)
		den.Mul(den, d.Quo(d, g))
	}
	return ratFromBig(new(big.Rat).SetFrac(num, den))
}

// commonMono returns the monomial gcd of e's terms: each atom at the least
// exponent it has across the terms (absent counts as 0).
func commonMono(e Expr) []factor {
	g := slices.Clone(e.t[0].m)
	for _, t := range e.t[1:] {
		var out []factor
		i, j := 0, 0
		for i < len(g) || j < len(t.m) {
			switch {
			case j == len(t.m) || i < len(g) && cmpAtom(g[i].a, t.m[j].a) < 0:
				if g[i].e < 0 {
					out = append(out, g[i])
				}
				i++
			case i == len(g) || cmpAtom(g[i].a, t.m[j].a) > 0:
				if t.m[j].e < 0 {
					out = append(out, t.m[j])
				}
				j++
			default:
				out = append(out, factor{a: g[i].a, e: min(g[i].e, t.m[j].e)})
				i++
				j++
			}
		}
		g = out
	}
	// Never pull out a sqrt or a reciprocal; they stay where the terms put them.
	g = slices.DeleteFunc(g, func(f factor) bool { return f.a.kind == kSqrt || f.a.kind == kRecip || f.e == 0 })
	return g
}

// polyDiv divides e by the sum f as polynomials in their atoms and returns the
// quotient when the division is exact. Both are first multiplied by monomials
// that clear negative exponents, so the division runs over ordinary polynomials
// where the graded lexicographic order makes the classical algorithm terminate.
func polyDiv(e, f Expr) (Expr, bool) {
	for _, t := range append(slices.Clip(e.t), f.t...) {
		for _, fa := range t.m {
			if fa.a.kind == kSqrt || fa.a.kind == kRecip {
				return Expr{}, false
			}
		}
	}
	// Shift both into ordinary polynomials.
	se := shiftMono(e)
	sf := shiftMono(f)
	num := e.Mul(monoExpr(se))
	den := f.Mul(monoExpr(sf))
	lead := den.t[0]
	var q []Expr
	r := num
	const maxSteps = 10000
	for steps := 0; !r.IsZero(); steps++ {
		if steps == maxSteps {
			return Expr{}, false
		}
		lt := r.t[0]
		m, ok := divMono(lt.m, lead.m)
		if !ok {
			return Expr{}, false
		}
		qt := Expr{t: []term{{c: lt.c.Quo(lead.c), m: m}}}
		q = append(q, qt)
		r = r.Sub(qt.Mul(den))
	}
	// e/f = (num/se) / (den/sf) = (num/den) * sf/se.
	quo := Sum(q...).Mul(monoExpr(sf)).Mul(invTerm(term{c: RatInt(1), m: se}))
	return quo, true
}

// shiftMono returns the monomial that clears every negative exponent of e.
func shiftMono(e Expr) []factor {
	var out []factor
	for _, t := range e.t {
		for _, f := range t.m {
			if f.e >= 0 {
				continue
			}
			found := false
			for i := range out {
				if out[i].a == f.a {
					out[i].e = max(out[i].e, -f.e)
					found = true
				}
			}
			if !found {
				out = append(out, factor{a: f.a, e: -f.e})
			}
		}
	}
	slices.SortFunc(out, func(x, y factor) int { return cmpAtom(x.a, y.a) })
	return out
}

func monoExpr(m []factor) Expr {
	return Expr{t: []term{{c: RatInt(1), m: m}}}
}

// divMono returns x/y when every exponent of y is at most the one in x.
func divMono(x, y []factor) ([]factor, bool) {
	out := make([]factor, 0, len(x))
	i, j := 0, 0
	for j < len(y) {
		if i == len(x) {
			return nil, false
		}
		switch c := cmpAtom(x[i].a, y[j].a); {
		case c < 0:
			out = append(out, x[i])
			i++
		case c > 0:
			return nil, false
		default:
			d := x[i].e - y[j].e
			if d < 0 {
				return nil, false
			}
			if d > 0 {
				out = append(out, factor{a: x[i].a, e: d})
			}
			i++
			j++
		}
	}
	return append(out, x[i:]...), true
}
