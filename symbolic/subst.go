package symbolic

import (
	"errors"
	"fmt"
	"slices"
)

// Subst returns e with every symbol named in s replaced by its expression, and
// the result brought back to canonical form (so floor(N/P) with N = 2*P becomes
// 2). It fails when the substitution makes a divisor zero.
func (e Expr) Subst(s map[string]Expr) (Expr, error) {
	if len(s) == 0 || !e.mentions(s) {
		return e, nil
	}
	memo := map[*atom]Expr{}
	return e.substTerms(func(a *atom) (Expr, bool, error) { return substAtom(a, s, memo) })
}

// mentions reports whether e depends on a symbol named in s.
func (e Expr) mentions(s map[string]Expr) bool {
	found := false
	e.visitAtoms(func(a *atom) {
		if a.kind == kSym && !found {
			_, found = s[a.name]
		}
	})
	return found
}

// substTerms returns e with each atom that value reports changed replaced by
// its value, in canonical form. A term with no changed atom is kept as it
// is, without arithmetic: most terms of the expressions counting rewrites
// are such (a relation's terms in the parameters when a loop variable is
// replaced), and the rebuilt sum then only merges the changed ones into
// them. It fails when an atom with a negative exponent becomes 0.
func (e Expr) substTerms(value func(*atom) (Expr, bool, error)) (Expr, error) {
	var same []term  // the unchanged terms, once a term has changed
	var parts []Expr // the changed terms
	for i, t := range e.t {
		var prod Expr // the product of the changed factors' values
		changed := false
		var keep []factor
		for j, f := range t.m {
			v, ok, err := value(f.a)
			if err != nil {
				return Expr{}, err
			}
			if !ok {
				if changed {
					keep = append(keep, f)
				}
				continue
			}
			if f.e < 0 && v.IsZero() {
				return Expr{}, fmt.Errorf("division by zero: %s becomes 0", f.a.describe())
			}
			pw := v.Pow(int(f.e))
			if !changed {
				changed, prod = true, pw
				keep = append(keep, t.m[:j]...)
				continue
			}
			prod = prod.Mul(pw)
		}
		if !changed {
			if parts != nil {
				same = append(same, t)
			}
			continue
		}
		if parts == nil {
			same = append(same, e.t[:i]...)
			parts = make([]Expr, 0, len(e.t)-i+1)
		}
		if len(keep) > 0 || !t.c.IsOne() {
			prod = prod.Mul(Expr{t: []term{{c: t.c, m: keep}}})
		}
		parts = append(parts, prod)
	}
	if parts == nil {
		return e, nil
	}
	if len(same) > 0 {
		parts = append(parts, Expr{t: same})
	}
	return Sum(parts...), nil
}

// SubstConst replaces the named symbols with rational values.
func (e Expr) SubstConst(vals map[string]Rat) (Expr, error) {
	s := make(map[string]Expr, len(vals))
	for k, v := range vals {
		s[k] = Const(v)
	}
	return e.Subst(s)
}

// substAtom returns the value of atom a under s and whether it changed.
func substAtom(a *atom, s map[string]Expr, memo map[*atom]Expr) (Expr, bool, error) {
	if v, ok := memo[a]; ok {
		return v, true, nil
	}
	switch a.kind {
	case kSym:
		v, ok := s[a.name]
		return v, ok, nil
	case kConst:
		return Expr{}, false, nil
	}
	args := make([]Expr, len(a.args))
	changed := false
	for i, x := range a.args {
		y, err := x.Subst(s)
		if err != nil {
			return Expr{}, false, err
		}
		args[i] = y
		if !Equal(x, y) {
			changed = true
		}
	}
	if !changed {
		return Expr{}, false, nil
	}
	v, err := rebuild(a.kind, args)
	if err != nil {
		return Expr{}, false, err
	}
	memo[a] = v
	return v, true, nil
}

// rebuild applies the function of an atom kind to new arguments.
func rebuild(k atomKind, args []Expr) (Expr, error) {
	switch k {
	case kFloor:
		return Floor(args[0]), nil
	case kTrunc:
		return Trunc(args[0]), nil
	case kMin:
		return Min(args...), nil
	case kMax:
		return Max(args...), nil
	case kLog2:
		return Log2(args[0]), nil
	case kSqrt:
		return Sqrt(args[0]), nil
	case kRecip:
		// The atom stands for its argument; the factor's negative exponent divides.
		return args[0], nil
	}
	panic("symbolic: rebuild of a non-function atom")
}

// ErrNotDifferentiable is returned by Diff for floor, trunc, min and max of the
// variable: they are piecewise, and their derivative is not an expression.
var ErrNotDifferentiable = errors.New("not differentiable")

// Diff returns the partial derivative of e with respect to the symbol x
// (MK §5.4 finds the optimal grain size from dT/dK = 0).
//
//	d/dx log2(u) = u' / (u ln 2)
//	d/dx sqrt(u) = u' / (2 sqrt(u))
//	d/dx (1/s)^k = -k s' (1/s)^(k+1)
func (e Expr) Diff(x string) (Expr, error) {
	parts := make([]Expr, 0, len(e.t))
	for _, t := range e.t {
		for i, f := range t.m {
			da, err := diffAtom(f.a, x)
			if err != nil {
				return Expr{}, err
			}
			if da.IsZero() {
				continue
			}
			// c * e * a^(e-1) * a' * prod_{j != i} f_j
			rest := slices.Clone(t.m)
			rest[i].e--
			if rest[i].e == 0 {
				rest = slices.Delete(rest, i, i+1)
			}
			p := Expr{t: []term{{c: t.c.Mul(RatInt(int64(f.e))), m: rest}}}
			parts = append(parts, fixTerms(p.t).Mul(da))
		}
	}
	return Sum(parts...), nil
}

// diffAtom returns d/dx of the atom a.
func diffAtom(a *atom, x string) (Expr, error) {
	switch a.kind {
	case kSym:
		if a.name == x {
			return Int(1), nil
		}
		return Expr{}, nil
	case kConst:
		return Expr{}, nil
	}
	depends := false
	for _, arg := range a.args {
		if arg.Has(x) {
			depends = true
		}
	}
	if !depends {
		return Expr{}, nil
	}
	u := a.args[0]
	du, err := u.Diff(x)
	if err != nil {
		return Expr{}, err
	}
	switch a.kind {
	case kLog2:
		return du.Div(u).Div(Ln2), nil
	case kSqrt:
		return du.Div(atomExpr(a).Scale(RatInt(2))), nil
	case kRecip:
		// d(1/s) = -s'/s^2, and the atom is s; d(s) = s'.
		return du, nil
	}
	return Expr{}, fmt.Errorf("%s: %w in %s", a.describe(), ErrNotDifferentiable, x)
}

// Degree returns the highest power of the symbol x in e (negative powers count),
// and false when x occurs inside a function, where e is not a polynomial in x.
func (e Expr) Degree(x string) (int, bool) {
	cs, ok := e.Coeffs(x)
	if !ok {
		return 0, false
	}
	d := 0
	first := true
	for k := range cs {
		if first || k > d {
			d, first = k, false
		}
	}
	return d, true
}

// Coeffs collects e by powers of the symbol x: e = sum over k of cs[k] * x^k,
// with no cs[k] depending on x. ok is false when x occurs inside a function.
func (e Expr) Coeffs(x string) (cs map[int]Expr, ok bool) {
	type group struct {
		k  int
		ts []term
	}
	var groups []group
	for _, t := range e.t {
		k, rest, ok := divideOut(t, x)
		if !ok {
			return nil, false
		}
		g := slices.IndexFunc(groups, func(g group) bool { return g.k == k })
		if g < 0 {
			groups = append(groups, group{k: k})
			g = len(groups) - 1
		}
		groups[g].ts = append(groups[g].ts, rest)
	}
	cs = make(map[int]Expr, len(groups))
	for _, g := range groups {
		// Dividing by the same x^k keeps the terms in canonical order (the
		// order is a monomial order); terms without x are untouched.
		cs[g.k] = Expr{t: g.ts}
	}
	return cs, true
}

// Linear splits e as a*x + b with a and b free of the symbol x (also inside
// functions); ok is false when e is not of that form (x^2, 1/x, floor(x)).
// It is Coeffs for the linear case, without building a map.
func (e Expr) Linear(x string) (a, b Expr, ok bool) {
	var at, bt []term
	for _, t := range e.t {
		k, rest, ok := divideOut(t, x)
		switch {
		case !ok || k != 0 && k != 1:
			return Expr{}, Expr{}, false
		case k == 0:
			bt = append(bt, t)
		default:
			// Dividing every term by x keeps them in canonical order.
			at = append(at, rest)
		}
	}
	return Expr{t: at}, Expr{t: bt}, true
}

// divideOut returns the power k of the symbol x in t and t / x^k; ok is
// false when x occurs inside a function of t.
func divideOut(t term, x string) (k int, rest term, ok bool) {
	at := -1
	for i, f := range t.m {
		if f.a.kind == kSym && f.a.name == x {
			k, at = int(f.e), i
			continue
		}
		for _, arg := range f.a.args {
			if arg.Has(x) {
				return 0, term{}, false
			}
		}
	}
	if at < 0 {
		return 0, t, true
	}
	return k, term{c: t.c, m: append(slices.Clip(t.m[:at]), t.m[at+1:]...)}, true
}

// linearIn splits e as c*x + rest with c a non-zero constant and rest free of
// the symbol x (also inside functions); ok is false when e is not of that
// form. It is Linear for the one shape bounds are read from.
func (e Expr) linearIn(x string) (c Rat, rest Expr, ok bool) {
	a, b, ok := e.Linear(x)
	if !ok {
		return Rat{}, Expr{}, false
	}
	if c, ok = a.Const(); !ok || c.IsZero() {
		return Rat{}, Expr{}, false
	}
	return c, b, true
}

// Lead returns the leading term of e in the canonical order (highest total
// degree first), or 0.
func (e Expr) Lead() Expr {
	if len(e.t) == 0 {
		return Expr{}
	}
	return Expr{t: e.t[:1:1]}
}

// LeadIn returns the term of the highest power of x in e: coefficient * x^k.
func (e Expr) LeadIn(x string) (Expr, bool) {
	cs, ok := e.Coeffs(x)
	if !ok {
		return Expr{}, false
	}
	d, _ := e.Degree(x)
	if len(cs) == 0 {
		return Expr{}, true
	}
	return cs[d].Mul(Sym(x).Pow(d)), true
}
