package symbolic

// Pairs of opposed relations: the contradictions counting leaves most often.
//
// Fourier–Motzkin elimination splits a domain into cases whose guards are
// often plainly empty: 6*m >= 4 beside 6*m <= 2 for one expression m (a
// process-grid coordinate), or i >= n + 1 beside i <= n. Refuting such a
// guard through the prover means a copy of the assumptions per relation and
// a proof each; adding the two relations shows it at once.

// opposedPairContradicts reports whether two of rels (at least one from
// extra, the others from base) cannot both hold because their non-constant
// parts are negative multiples of each other: from x + a >= 0 and
// -λ·x + b >= 0 (λ > 0) follows λ·a + b >= 0, false when λ·a + b < 0 (or = 0
// with either relation strict). Integer-valued parts are first divided by
// their coefficients' common divisor and the constant rounded down, which is
// exact for integers and refutes 6m >= 4 with 6m <= 5.
func opposedPairContradicts(base, extra []Relation) bool {
	var rs []halfSpace
	for _, r := range extra {
		rs = appendHalfSpaces(rs, r)
	}
	n := len(rs)
	if n == 0 {
		return false
	}
	for _, r := range base {
		rs = appendHalfSpaces(rs, r)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < len(rs); j++ {
			if rs[i].opposes(rs[j]) {
				return true
			}
		}
	}
	return false
}

// halfSpace is nonconst + k >= 0 (> 0 when strict), nonconst a sum of
// non-constant terms.
type halfSpace struct {
	nonconst []term
	k        Rat
	strict   bool
}

func appendHalfSpaces(out []halfSpace, r Relation) []halfSpace {
	switch r.Op {
	case GE, GT:
		if h, ok := newHalfSpace(r.E, r.Op == GT); ok {
			out = append(out, h)
		}
	case EQ:
		if h, ok := newHalfSpace(r.E, false); ok {
			out = append(out, h)
		}
		if h, ok := newHalfSpace(r.E.Neg(), false); ok {
			out = append(out, h)
		}
	}
	return out
}

func newHalfSpace(e Expr, strict bool) (halfSpace, bool) {
	h := halfSpace{strict: strict}
	for _, t := range e.t {
		if len(t.m) == 0 {
			h.k = h.k.Add(t.c)
			continue
		}
		h.nonconst = append(h.nonconst, t)
	}
	if len(h.nonconst) == 0 {
		return h, false // a constant relation is the prover's to judge
	}
	if !(Expr{t: h.nonconst}).isIntegerValued() || !h.k.IsInt() {
		return h, true
	}
	// An integer part x > -k is x >= -k + 1; then g·y + k >= 0 with y
	// integer is y + floor(k/g) >= 0.
	if h.strict {
		h.k, h.strict = h.k.Sub(RatInt(1)), false
	}
	g := h.nonconst[0].c.Abs()
	for _, t := range h.nonconst[1:] {
		g = ratGCD(g, t.c.Abs())
	}
	if g.Cmp(RatInt(1)) != 0 {
		scaled := make([]term, len(h.nonconst))
		for i, t := range h.nonconst {
			scaled[i] = term{c: t.c.Quo(g), m: t.m}
		}
		h.nonconst, h.k = scaled, h.k.Quo(g).Floor()
	}
	return h, true
}

// opposes reports whether h and o cannot both hold.
func (h halfSpace) opposes(o halfSpace) bool {
	if len(h.nonconst) != len(o.nonconst) {
		return false
	}
	// o's part is -λ times h's, λ read from the first terms.
	lambda := o.nonconst[0].c.Quo(h.nonconst[0].c).Neg()
	if lambda.Sign() <= 0 {
		return false
	}
	for i := range h.nonconst {
		x, y := h.nonconst[i], o.nonconst[i]
		if !monoEqual(x.m, y.m) || y.c.Cmp(x.c.Mul(lambda).Neg()) != 0 {
			return false
		}
	}
	sum := h.k.Mul(lambda).Add(o.k)
	return sum.Sign() < 0 || sum.Sign() == 0 && (h.strict || o.strict)
}
