package symbolic

import (
	"math"
	"math/big"
	"slices"
)

// The simplifications below are identities that hold at every point where both
// sides are defined; none depends on assumptions about the symbols (those live in
// Assumptions.Simplify). Each rule names its identity.

func funcExpr(kind atomKind, args ...Expr) Expr {
	a := &atom{kind: kind, args: args}
	switch kind {
	case kFloor, kTrunc:
		a.integer = true
	case kMin, kMax:
		a.integer = true
		for _, x := range args {
			if !x.isIntegerValued() {
				a.integer = false
			}
		}
	}
	return atomExpr(intern(a))
}

// Floor returns the largest integer not above x.
//
//	floor(c)     = the folded constant
//	floor(n + y) = n + floor(y) for integer-valued n
//
// so every integer-valued monomial leaves the argument with its coefficient
// reduced to [0, 1): floor(3N/2 + 1) = N + 1 + floor(N/2), floor(N) = N.
func Floor(x Expr) Expr {
	if c, ok := x.Const(); ok {
		return Const(c.Floor())
	}
	var whole, rest []term
	for _, t := range x.t {
		if monoIntegral(t.m) {
			fl := t.c.Floor()
			if !fl.IsZero() {
				whole = append(whole, term{c: fl, m: t.m})
			}
			if fr := t.c.Sub(fl); !fr.IsZero() {
				rest = append(rest, term{c: fr, m: t.m})
			}
			continue
		}
		rest = append(rest, t)
	}
	w := Expr{t: whole}
	if len(rest) == 0 {
		return w
	}
	r := Expr{t: rest}
	if c, ok := r.Const(); ok { // a constant in [0, 1)
		return w.Add(Const(c.Floor()))
	}
	if f, ok := floorOfConstant(r); ok {
		return w.Add(Int(f))
	}
	return w.Add(funcExpr(kFloor, r))
}

// floatMargin is how far (relative to its magnitude, at least 1) the value of
// a symbol-free irrational expression must lie from every integer for
// floorOfConstant to take its floor from a float64 evaluation.
const floatMargin = 1e-9

// floorOfConstant returns floor(x) for an x without symbols whose value is
// irrational, such as 2*sqrt(2) + 1/1000 (Fortran's INT(SQRT(8.0) + 0.001)
// at P = 8): x is evaluated in float64 and its floor taken when the value
// lies farther than floatMargin from every integer. The rounding error of
// evaluating such an expression (a few sqrt, log2 and ln 2 atoms, each
// correctly rounded, combined by a few operations) is of the order of 1e-15
// relative, far inside the margin, so the floor is exact; nearer an integer
// (sqrt(2)^2 - 2 written in a form the algebra does not cancel) it is left
// symbolic. ok is false when x has a symbol or no finite value.
func floorOfConstant(x Expr) (int64, bool) {
	if len(x.Symbols()) > 0 {
		return 0, false
	}
	v, err := x.EvalFloat(nil)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1<<52 {
		return 0, false
	}
	fl := math.Floor(v)
	if v-fl < floatMargin*max(1, math.Abs(v)) || fl+1-v < floatMargin*max(1, math.Abs(v)) {
		return 0, false
	}
	return int64(fl), true
}

// Ceil returns the smallest integer not below x, as ceil(x) = -floor(-x); the
// printers show such terms as ceil again.
func Ceil(x Expr) Expr { return Floor(x.Neg()).Neg() }

// Trunc returns x rounded toward zero (Fortran INT, integer division).
//
//	trunc(c)  = the folded constant
//	trunc(n)  = n for integer-valued n
//	trunc(-y) = -trunc(y), so the argument leads with a positive coefficient.
//
// trunc(n + y) = n + trunc(y) is false across zero and is not applied.
func Trunc(x Expr) Expr {
	if c, ok := x.Const(); ok {
		return Const(c.Trunc())
	}
	if x.isIntegerValued() {
		return x
	}
	if f, ok := floorOfConstant(x); ok {
		// Away from integers, trunc is floor on the positive side and
		// floor + 1 on the negative side.
		if f < 0 {
			f++
		}
		return Int(f)
	}
	if x.t[0].c.Sign() < 0 {
		return funcExpr(kTrunc, x.Neg()).Neg()
	}
	return funcExpr(kTrunc, x)
}

// Div returns the Fortran integer quotient of a and b, trunc(a/b): the value of
// a/b for INTEGER a and b. It panics if b is zero.
func IDiv(a, b Expr) Expr { return Trunc(a.Div(b)) }

// Mod returns Fortran's MOD(a, b) = a - b*trunc(a/b), whose sign follows a. It
// panics if b is zero.
func Mod(a, b Expr) Expr { return a.Sub(b.Mul(IDiv(a, b))) }

// FloorDiv returns floor(a/b). It panics if b is zero.
func FloorDiv(a, b Expr) Expr { return Floor(a.Div(b)) }

// Modulo returns Fortran's MODULO(a, b) = a - b*floor(a/b), whose sign follows b.
// With it, modulo(k*P, P) = 0 for integer k. It panics if b is zero.
func Modulo(a, b Expr) Expr { return a.Sub(b.Mul(FloorDiv(a, b))) }

// Min returns the least of xs (at least one).
func Min(xs ...Expr) Expr { return minMax(kMin, xs) }

// Max returns the greatest of xs (at least one).
func Max(xs ...Expr) Expr { return minMax(kMax, xs) }

// Abs returns |x| = max(x, -x).
func Abs(x Expr) Expr { return Max(x, x.Neg()) }

// minMax builds min or max with these identities:
//
//	min(a, d + c*min(b, e)) = min(a, d + c*b, d + c*e) for c > 0, and
//	min(a, d + c*max(b, e)) = min(a, d + c*b, d + c*e) for c < 0 (flattening)
//	min(a, a)              = a
//	min(y + c1, y + c2)    = y + min(c1, c2)         (arguments a constant apart)
//	min(y + a, y + b)      = y + min(a, b)           (common terms move out)
//	min(g*a, g*b)          = g*min(a, b), g > 0      (common positive content)
//	min(a, b)              = -max(-a, -b)            (one orientation per argument set)
func minMax(kind atomKind, xs []Expr) Expr {
	if len(xs) == 0 {
		panic("symbolic: min or max of nothing")
	}
	var args []Expr
	work := slices.Clone(xs)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if inner, ok := linearMinMax(x, kind); ok {
			work = append(work, inner...)
			continue
		}
		args = append(args, x)
	}
	slices.Reverse(args)
	better := func(c int) bool { // c = cmp(new, old); keep new?
		if kind == kMin {
			return c < 0
		}
		return c > 0
	}
	// Arguments that differ by a constant: keep the extreme one.
	var kept []Expr
	for _, x := range args {
		merged := false
		for i, y := range kept {
			if d, ok := x.Sub(y).Const(); ok {
				if better(d.Sign()) {
					kept[i] = x
				}
				merged = true
				break
			}
		}
		if !merged {
			kept = append(kept, x)
		}
	}
	if len(kept) == 1 {
		return kept[0]
	}
	// Common terms: those with the same monomial and coefficient in every argument.
	common := commonTerms(kept)
	if !common.IsZero() {
		for i := range kept {
			kept[i] = kept[i].Sub(common)
		}
		return common.Add(minMax(kind, kept))
	}
	// Common positive content.
	var g Rat // gcd of the contents of the non-zero arguments; zero is a multiple of anything
	for _, x := range kept {
		if x.IsZero() {
			continue
		}
		if g.IsZero() {
			g = content(x)
		} else {
			g = ratGCD(g, content(x))
		}
	}
	if !g.IsZero() && !g.IsOne() {
		for i := range kept {
			kept[i] = kept[i].Scale(g.Inv())
		}
		return minMax(kind, kept).Scale(g)
	}
	slices.SortFunc(kept, Compare)
	// Orientation: of the set and its negation, keep the one that sorts first.
	neg := make([]Expr, len(kept))
	for i, x := range kept {
		neg[i] = x.Neg()
	}
	slices.SortFunc(neg, Compare)
	// A set equal to its negation (max(k, -k, 0)) is kept as max: min(S) = -max(S).
	if c := cmpArgLists(neg, kept); c < 0 || c == 0 && kind == kMin {
		other := kMax
		if kind == kMax {
			other = kMin
		}
		return funcExpr(other, neg...).Neg()
	}
	return funcExpr(kind, kept...)
}

// cmpArgLists orders argument lists, preferring lists whose first argument leads
// with a positive coefficient, then by Compare.
func cmpArgLists(a, b []Expr) int {
	pa, pb := leadSign(a[0]) > 0, leadSign(b[0]) > 0
	if pa != pb {
		if pa {
			return -1
		}
		return 1
	}
	for i := range a {
		if c := Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

func leadSign(e Expr) int {
	if len(e.t) == 0 {
		return 0
	}
	return e.t[0].c.Sign()
}

// linearMinMax finds in x exactly one term c*A with A a min or max atom that
// acts as kind after scaling by c (max when c < 0 turns min), and returns the
// arguments d + c*a for the arguments a of A, d being the rest of x.
func linearMinMax(x Expr, kind atomKind) ([]Expr, bool) {
	found := -1
	for i, t := range x.t {
		if len(t.m) != 1 || t.m[0].e != 1 {
			continue
		}
		k := t.m[0].a.kind
		if k != kMin && k != kMax {
			continue
		}
		if t.c.Sign() < 0 {
			k = kMin + kMax - k
		}
		if k != kind {
			continue
		}
		if found >= 0 {
			return nil, false // two candidates: flattening would multiply arguments
		}
		found = i
	}
	if found < 0 {
		return nil, false
	}
	t := x.t[found]
	rest := Expr{t: slices.Delete(slices.Clone(x.t), found, found+1)}
	out := make([]Expr, len(t.m[0].a.args))
	for i, a := range t.m[0].a.args {
		out[i] = rest.Add(a.Scale(t.c))
	}
	return out, true
}

func singleAtom(x Expr) (*atom, bool) {
	if len(x.t) == 1 && len(x.t[0].m) == 1 && x.t[0].c.IsOne() && x.t[0].m[0].e == 1 {
		return x.t[0].m[0].a, true
	}
	return nil, false
}

func commonTerms(xs []Expr) Expr {
	var out []term
	for _, t := range xs[0].t {
		inAll := true
		for _, x := range xs[1:] {
			found := false
			for _, u := range x.t {
				if monoEqual(u.m, t.m) && u.c.Equal(t.c) {
					found = true
					break
				}
			}
			if !found {
				inAll = false
				break
			}
		}
		if inAll {
			out = append(out, t)
		}
	}
	return Expr{t: out}
}

func ratGCD(a, b Rat) Rat {
	n := new(big.Int).GCD(nil, nil, new(big.Int).Abs(a.Num()), new(big.Int).Abs(b.Num()))
	da, db := a.Den(), b.Den()
	g := new(big.Int).GCD(nil, nil, da, db)
	l := da.Mul(da, db.Quo(db, g))
	return ratFromBig(new(big.Rat).SetFrac(n, l))
}

// Log2 returns the base-2 logarithm of x.
//
//	log2(2^k)       = k
//	log2(2^k * y)   = k + log2(y) for a power-of-two factor of x's content
//
// The argument is left with content free of powers of two. Logarithms of
// products of symbols are not split: log2(a*b) = log2(a) + log2(b) fails for
// negative a and b. A non-positive constant argument is kept (its value is
// undefined and evaluation reports it).
func Log2(x Expr) Expr {
	if x.IsZero() {
		return funcExpr(kLog2, x)
	}
	c := content(x)
	k := twoAdic(c)
	if k != 0 {
		x = x.Scale(RatInt(2).PowInt(-k))
	}
	if r, ok := x.Const(); ok && r.IsOne() {
		return Int(int64(k))
	}
	return Int(int64(k)).Add(funcExpr(kLog2, x))
}

// twoAdic returns the exponent of 2 in the positive rational c.
func twoAdic(c Rat) int {
	n, d := c.Num(), c.Den()
	return int(n.TrailingZeroBits()) - int(d.TrailingZeroBits())
}

// Ln returns the natural logarithm of x as log2(x)*ln2, so that ln and log2 share
// one canonical form.
func Ln(x Expr) Expr { return Log2(x).Mul(Ln2) }

// Sqrt returns the non-negative square root of x.
//
//	sqrt(s^2 * y) = s * sqrt(y) for the square part s > 0 of x's content
//	sqrt(c)       = the folded constant when c is a rational square
//	sqrt(y)^2     = y (in products, see fixTerms)
func Sqrt(x Expr) Expr {
	if x.IsZero() {
		return x
	}
	c := content(x)
	s := squarePart(c)
	if !s.IsOne() {
		x = x.Scale(s.Mul(s).Inv())
	}
	if r, ok := x.Const(); ok && r.IsOne() {
		return Const(s)
	}
	return funcExpr(kSqrt, x).Scale(s)
}

// squarePart returns the largest rational s > 0 with s^2 dividing c's numerator
// and denominator squares (found by trial division of small primes).
func squarePart(c Rat) Rat {
	sq := func(n *big.Int) *big.Int {
		out := big.NewInt(1)
		m := new(big.Int).Set(n)
		for p := int64(2); p < 1000; p++ {
			pp := big.NewInt(p * p)
			bp := big.NewInt(p)
			for new(big.Int).Mod(m, pp).Sign() == 0 {
				m.Quo(m, pp)
				out.Mul(out, bp)
			}
			if m.Cmp(pp) < 0 {
				break
			}
		}
		if r := new(big.Int).Sqrt(m); new(big.Int).Mul(r, r).Cmp(m) == 0 {
			out.Mul(out, r)
		}
		return out
	}
	num := new(big.Int).Abs(c.Num())
	return ratFromBig(new(big.Rat).SetFrac(sq(num), sq(c.Den())))
}

// SurelyNonNegative reports whether e >= 0 at every point where e is
// defined, given that the symbols nonneg names are >= 0 (every symbol is
// integer-valued). It is a cheap sufficient test, not a prover (that is
// Assumptions.Prove): false means "not shown". Two sound rules:
//
//   - a sum of terms with positive coefficients over non-negative factors
//     (such symbols, even powers, floor and trunc of non-negative
//     arguments, square roots) is non-negative;
//   - floor(u) <= u, so e >= e' where e' replaces each term -c*floor(u)
//     (c > 0) by -c*u; e' >= 0 then shows e >= 0. This is what makes the
//     remainder n - k*floor(n/k), and remainders of remainders, visibly
//     non-negative: mod(mod(rank, 4) + 1, 4) has a non-negative dividend.
func SurelyNonNegative(e Expr, nonneg func(name string) bool) bool {
	return surelyNonNeg(e, nonneg, 0)
}

// maxNonNegDepth bounds the nesting of floors surelyNonNeg looks through.
const maxNonNegDepth = 6

func surelyNonNeg(e Expr, nonneg func(string) bool, depth int) bool {
	if depth > maxNonNegDepth {
		return false
	}
	if c, ok := e.Const(); ok {
		return c.Sign() >= 0
	}
	termsOK := true
	for _, t := range e.t {
		if t.c.Sign() < 0 || !nonNegMonomial(t.m, nonneg, depth) {
			termsOK = false
			break
		}
	}
	if termsOK {
		return true
	}
	// Relax every negatively weighted floor (or trunc of a non-negative
	// argument, which is that floor) to its argument.
	relaxed, kept := Expr{}, make([]term, 0, len(e.t))
	changed := false
	for _, t := range e.t {
		if t.c.Sign() < 0 && len(t.m) == 1 && t.m[0].e == 1 {
			a := t.m[0].a
			if a.kind == kFloor || (a.kind == kTrunc && surelyNonNeg(a.args[0], nonneg, depth+1)) {
				relaxed = relaxed.Add(a.args[0].Scale(t.c))
				changed = true
				continue
			}
		}
		kept = append(kept, t)
	}
	if !changed {
		return false
	}
	return surelyNonNeg(Expr{t: kept}.Add(relaxed), nonneg, depth+1)
}

// nonNegMonomial reports whether the product of m is surely >= 0.
func nonNegMonomial(m []factor, nonneg func(string) bool, depth int) bool {
	for _, f := range m {
		if f.e%2 == 0 {
			continue
		}
		a := f.a
		switch a.kind {
		case kSym:
			if a.real || !nonneg(a.name) {
				return false
			}
		case kConst, kSqrt:
		case kFloor, kTrunc, kRecip:
			if !surelyNonNeg(a.args[0], nonneg, depth+1) {
				return false
			}
		case kMin:
			for _, x := range a.args {
				if !surelyNonNeg(x, nonneg, depth+1) {
					return false
				}
			}
		case kMax:
			some := false
			for _, x := range a.args {
				if surelyNonNeg(x, nonneg, depth+1) {
					some = true
					break
				}
			}
			if !some {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// IDivNonNeg returns Fortran's integer quotient trunc(a/b), as floor(a/b)
// where SurelyNonNegative shows a >= 0 and b >= 0: the two agree there,
// and floor's canonical form takes integer parts out of its argument
// (floor(n + y) = n + floor(y)), which trunc's cannot across zero.
// Remainders of remainders then stay small: mod(mod(r, 4) + 1, 4) is
// r + 1 - 4*floor((r + 1)/4) for r >= 0.
func IDivNonNeg(a, b Expr, nonneg func(name string) bool) Expr {
	if SurelyNonNegative(a, nonneg) && SurelyNonNegative(b, nonneg) {
		return FloorDiv(a, b)
	}
	return IDiv(a, b)
}

// ModNonNeg is Mod(a, b) by IDivNonNeg: Fortran's MOD of a non-negative
// dividend by a non-negative divisor is MODULO.
func ModNonNeg(a, b Expr, nonneg func(name string) bool) Expr {
	return a.Sub(b.Mul(IDivNonNeg(a, b, nonneg)))
}
