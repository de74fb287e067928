package analyzer

import (
	"math/big"
	"slices"
	"strconv"

	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// Symbols standing for the common growth factor t of the problem sizes and
// for log2(t). They are not valid Fortran names' spelling in mkvet's output
// and never appear in a report's closed forms.
const (
	growName = "mkvet_t"
	logName  = "mkvet_log2_t"
)

// order is the growth t^deg * log2(t)^logs of a term as every problem size
// grows by the factor t.
type order struct{ deg, logs int }

func (o order) cmp(q order) int {
	if o.deg != q.deg {
		return o.deg - q.deg
	}
	return o.logs - q.logs
}

// grows reports whether a term of order o tends to infinity with t.
func (o order) grows() bool { return o.deg > 0 || o.deg == 0 && o.logs > 0 }

// leading is the leading behaviour coef * t^ord of one piece of a value, on
// the ranks and values of P where guard holds (guard keeps the relations that
// do not involve the problem sizes).
type leading struct {
	ord   order
	coef  symbolic.Expr
	guard []symbolic.Relation
}

// growth computes leading terms of closed forms as every symbol except P and
// rank grows by a common factor t: the asymptotics behind the symbolic shares
// of package doc.
type growth struct {
	// a holds the report's assumptions and, for every size met, size >= 1:
	// the limit is taken with the sizes positive, growing together.
	a     *symbolic.Assumptions
	sizes map[string]bool
	// memo holds pieces' results by closed form, valid while no new size
	// has been assumed (the loops of a program share most closed forms).
	memo     map[symbolic.Fingerprint]piecesResult
	memoSize int
	// byID holds them by the closed form's storage as well: the program's
	// work is asked for at every nest, and its key (thousands of pieces
	// for a program whose counts rest on data) cost more than the rest.
	// Closed forms are not changed in place once built.
	byID map[pwID]piecesResult
}

// pwID identifies a closed form by its storage.
type pwID struct {
	first *symbolic.Piece
	n     int
}

type piecesResult struct {
	out []leading
	ok  bool
}

func newGrowth(a *symbolic.Assumptions) *growth {
	if a == nil {
		a = symbolic.NewAssumptions()
	}
	return &growth{a: a.Clone(), sizes: map[string]bool{}}
}

// sized reports whether e involves a problem size (a symbol other than P and
// rank).
func sized(e symbolic.Expr) bool {
	for _, s := range e.Symbols() {
		if s != cost.Size && s != cost.Rank {
			return true
		}
	}
	return false
}

// sizes returns the problem sizes among the symbols of pw, in first
// appearance order of the pieces.
func sizes(pw symbolic.Piecewise) []string {
	var out []string
	add := func(e symbolic.Expr) {
		for _, s := range e.Symbols() {
			if s != cost.Size && s != cost.Rank && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	for _, p := range pw.Pieces {
		add(p.Value)
		for _, g := range p.Guard {
			add(g.E)
		}
	}
	return out
}

// noteSizes assumes size >= 1 for the sizes of e not seen before.
func (g *growth) noteSizes(e symbolic.Expr) {
	for _, s := range e.Symbols() {
		if s != cost.Size && s != cost.Rank && !g.sizes[s] {
			g.sizes[s] = true
			g.a.Assume(symbolic.Rel(symbolic.Sym(s), ">=", symbolic.Int(1)))
		}
	}
}

// scale multiplies every problem size in e by t.
func (g *growth) scale(e symbolic.Expr) (symbolic.Expr, bool) {
	g.noteSizes(e)
	sub := map[string]symbolic.Expr{}
	t := symbolic.Sym(growName)
	for _, s := range e.Symbols() {
		if s != cost.Size && s != cost.Rank {
			sub[s] = symbolic.Sym(s).Mul(t)
		}
	}
	if len(sub) == 0 {
		return e, true
	}
	v, err := e.Subst(sub)
	return v, err == nil
}

// sign returns +1 or -1 when c is provably positive or negative under the
// assumptions, 0 when the prover cannot tell.
func (g *growth) sign(c symbolic.Expr) int {
	if r, ok := c.Const(); ok {
		return r.Sign()
	}
	if g.a.Prove(symbolic.Rel(c, ">", symbolic.Int(0))) == symbolic.True {
		return 1
	}
	if g.a.Prove(symbolic.Rel(c, "<", symbolic.Int(0))) == symbolic.True {
		return -1
	}
	return 0
}

// monomial returns coef * t^o.deg * log2(t)^o.logs.
func monomial(o order, coef symbolic.Expr) symbolic.Expr {
	return coef.Mul(symbolic.Sym(growName).Pow(o.deg)).Mul(symbolic.Sym(logName).Pow(o.logs))
}

// lead returns the leading term of an expression that is a polynomial in t
// and log2(t) (negative powers allowed) with coefficients free of both. zero
// is set when e is 0.
func lead(e symbolic.Expr) (o order, coef symbolic.Expr, zero, ok bool) {
	if e.IsZero() {
		return order{}, e, true, true
	}
	cs, ok := e.Coeffs(growName)
	if !ok {
		return order{}, coef, false, false
	}
	first := true
	for k, c := range cs {
		if c.IsZero() {
			continue
		}
		if first || k > o.deg {
			o.deg, coef, first = k, c, false
		}
	}
	if first {
		return order{}, e, true, true
	}
	ls, ok := coef.Coeffs(logName)
	if !ok {
		return order{}, coef, false, false
	}
	first = true
	for k, c := range ls {
		if c.IsZero() {
			continue
		}
		if first || k > o.logs {
			o.logs, coef, first = k, c, false
		}
	}
	if coef.Has(growName) || coef.Has(logName) {
		return order{}, coef, false, false
	}
	return o, coef, false, true
}

// flat replaces every function atom of e whose argument grows with t by an
// expression with the same leading term (ratio tending to 1), so that the
// result is a polynomial in t and log2(t):
//
//	floor(x), trunc(x) -> x            x growing (|floor(x) - x| < 1)
//	log2(c*t^k*L^j)    -> k*log2(t)    k > 0 (the rest is of lower order)
//	sqrt(c*t^2k*L^2j)  -> sqrt(c)*t^k*L^j
//	1/s                -> 1/lead(s)
//	max(...), min(...) -> the argument that dominates (ties keep max or min
//	                      of the leading coefficients)
//
// ok is false when no such rewriting is known.
func (g *growth) flat(e symbolic.Expr, depth int) (symbolic.Expr, bool) {
	if depth > 20 {
		return e, false
	}
	for _, at := range e.FuncAtoms() {
		if !at.Has(growName) {
			continue
		}
		name, args, ok := at.AsFunc()
		if !ok {
			return e, false
		}
		fargs := make([]symbolic.Expr, len(args))
		for i, x := range args {
			if fargs[i], ok = g.flat(x, depth+1); !ok {
				return e, false
			}
		}
		var v symbolic.Expr
		switch name {
		case "floor", "trunc":
			o, _, zero, ok := lead(fargs[0])
			if !ok || zero || !o.grows() {
				return e, false
			}
			v = fargs[0]
		case "recip":
			o, c, zero, ok := lead(fargs[0])
			if !ok || zero {
				return e, false
			}
			v = monomial(o, c)
		case "log2":
			o, _, zero, ok := lead(fargs[0])
			if !ok || zero || o.deg <= 0 {
				return e, false
			}
			v = symbolic.Int(int64(o.deg)).Mul(symbolic.Sym(logName))
		case "sqrt":
			o, c, zero, ok := lead(fargs[0])
			if !ok || zero || o.deg%2 != 0 || o.logs%2 != 0 {
				return e, false
			}
			v = monomial(order{o.deg / 2, o.logs / 2}, symbolic.Sqrt(c))
		case "min", "max":
			if v, ok = g.extreme(name == "max", fargs); !ok {
				return e, false
			}
		default:
			return e, false
		}
		e = e.Replace(at, v)
	}
	return e, true
}

// extreme returns the asymptotic form of max (or min) of flat arguments.
func (g *growth) extreme(isMax bool, args []symbolic.Expr) (symbolic.Expr, bool) {
	type arg struct {
		o    order
		c    symbolic.Expr
		sgn  int // direction of a growing argument; 0 when bounded
		flat symbolic.Expr
	}
	var as []arg
	for _, x := range args {
		o, c, zero, ok := lead(x)
		if !ok {
			return x, false
		}
		a := arg{o: o, c: c, flat: x}
		if !zero && o.grows() {
			if a.sgn = g.sign(c); a.sgn == 0 {
				return x, false
			}
		} else if x.Has(growName) || x.Has(logName) {
			return x, false // tends to 0 or a constant through t: not kept exactly
		}
		as = append(as, a)
	}
	// For max the winners are the arguments going to +inf fastest, else the
	// bounded ones, else those going to -inf slowest; min mirrors it.
	want := 1
	if !isMax {
		want = -1
	}
	pick := func(sgn int, fastest bool) []arg {
		var best []arg
		for _, a := range as {
			if a.sgn != sgn {
				continue
			}
			if len(best) == 0 {
				best = []arg{a}
				continue
			}
			c := a.o.cmp(best[0].o)
			if !fastest {
				c = -c
			}
			switch {
			case c > 0:
				best = []arg{a}
			case c == 0:
				best = append(best, a)
			}
		}
		return best
	}
	combine := func(xs []symbolic.Expr) symbolic.Expr {
		if len(xs) == 1 {
			return xs[0]
		}
		if isMax {
			return symbolic.Max(xs...)
		}
		return symbolic.Min(xs...)
	}
	for _, step := range []struct {
		sgn     int
		fastest bool
	}{{want, true}, {0, true}, {-want, false}} {
		best := pick(step.sgn, step.fastest)
		if len(best) == 0 {
			continue
		}
		if step.sgn == 0 {
			xs := make([]symbolic.Expr, len(best))
			for i, a := range best {
				xs[i] = a.flat
			}
			return combine(xs), true
		}
		cs := make([]symbolic.Expr, len(best))
		for i, a := range best {
			cs[i] = a.c
		}
		return monomial(best[0].o, combine(cs)), true
	}
	return symbolic.Expr{}, false
}

// exprLead returns the leading term of e as the sizes grow.
func (g *growth) exprLead(e symbolic.Expr) (o order, coef symbolic.Expr, zero, ok bool) {
	s, ok := g.scale(e)
	if !ok {
		return o, coef, false, false
	}
	f, ok := g.flat(s, 0)
	if !ok {
		return o, coef, false, false
	}
	return lead(f)
}

// pieces returns the leading term of each piece of pw whose guard does not
// become false as the sizes grow. Guard relations the assumptions decide
// are settled first; those on the sizes then by the sign of their leading
// coefficient; the others (on P and rank) are kept.
func (g *growth) pieces(pw symbolic.Piecewise) ([]leading, bool) {
	var id pwID
	if len(pw.Pieces) > 0 {
		id = pwID{&pw.Pieces[0], len(pw.Pieces)}
		if r, ok := g.byID[id]; ok && g.memoSize == len(g.sizes) {
			return r.out, r.ok
		}
	}
	for _, p := range pw.Pieces {
		for _, r := range p.Guard {
			g.noteSizes(r.E)
		}
		g.noteSizes(p.Value)
	}
	if g.memo == nil || g.memoSize != len(g.sizes) {
		g.memo, g.memoSize = map[symbolic.Fingerprint]piecesResult{}, len(g.sizes)
		g.byID = map[pwID]piecesResult{}
	}
	key := pw.Fingerprint()
	r, ok := g.memo[key]
	if !ok {
		r.out, r.ok = g.piecesUncached(pw)
		g.memo[key] = r
	}
	if id.first != nil {
		g.byID[id] = r
	}
	return r.out, r.ok
}

func (g *growth) piecesUncached(pw symbolic.Piecewise) ([]leading, bool) {
	var out []leading
pieces:
	for _, p := range pw.Pieces {
		var keep []symbolic.Relation
		for _, r := range p.Guard {
			g.noteSizes(r.E)
			switch g.a.Prove(r) {
			case symbolic.True:
				continue
			case symbolic.False:
				continue pieces
			}
			if !sized(r.E) {
				keep = append(keep, r)
				continue
			}
			o, c, zero, ok := g.exprLead(r.E)
			if ok && zero {
				// The growing parts cancel (mod(n, P) == 0): what is left
				// is bounded and keeps deciding the piece, like a
				// condition on P.
				keep = append(keep, r)
				continue
			}
			if !ok || !o.grows() {
				return nil, false
			}
			sgn := g.sign(c)
			switch {
			case sgn == 0:
				return nil, false
			case r.Op == symbolic.EQ || sgn < 0:
				continue pieces // eventually false
			}
		}
		o, c, zero, ok := g.exprLead(p.Value)
		if !ok {
			return nil, false
		}
		if zero {
			continue
		}
		out = append(out, leading{ord: o, coef: c, guard: keep})
	}
	return out, true
}

// top returns the highest order among the pieces of pw and the pieces at
// that order. empty is set when pw tends to 0 (no piece survives).
func (g *growth) top(pw symbolic.Piecewise) (o order, at []leading, empty, ok bool) {
	ls, ok := g.pieces(pw)
	if !ok {
		return o, nil, false, false
	}
	if len(ls) == 0 {
		return o, nil, true, true
	}
	o = ls[0].ord
	for _, l := range ls[1:] {
		if l.ord.cmp(o) > 0 {
			o = l.ord
		}
	}
	for _, l := range ls {
		if l.ord == o {
			at = append(at, l)
		}
	}
	return o, at, false, true
}

// collapse returns the leading coefficient of a value whose top-order pieces
// are ls: their sum when none carries a guard, or their common coefficient
// when the guards are cases on P and rank that partition the ranks (exactly
// one holds for every rank, checked for P up to partitionCheckP). ok is
// false otherwise: the leading term then differs by rank and there is no
// single limit.
func collapse(ls []leading) (symbolic.Expr, bool) {
	var sum symbolic.Expr
	guarded := false
	for _, l := range ls {
		sum = sum.Add(l.coef)
		guarded = guarded || len(l.guard) > 0
	}
	if !guarded {
		return sum, true
	}
	for _, l := range ls[1:] {
		if !l.coef.Equal(ls[0].coef) {
			return sum, false
		}
	}
	if !partition(ls) {
		return sum, false
	}
	return ls[0].coef, true
}

// partitionCheckP bounds the values of P for which partition checks its
// cases.
const partitionCheckP = 16

// partition reports whether exactly one of the guards of ls holds at every
// rank for P = 1..partitionCheckP. Guards must be on P and rank only.
func partition(ls []leading) bool {
	for _, l := range ls {
		for _, r := range l.guard {
			if sized(r.E) {
				return false
			}
		}
	}
	env := map[string]symbolic.Rat{}
	for np := int64(1); np <= partitionCheckP; np++ {
		env[cost.Size] = symbolic.RatInt(np)
		for rk := int64(0); rk < np; rk++ {
			env[cost.Rank] = symbolic.RatInt(rk)
			holding := 0
			for _, l := range ls {
				ok, err := symbolic.NewAssumptions(l.guard...).Holds(env)
				if err != nil {
					return false
				}
				if ok {
					holding++
				}
			}
			if holding != 1 {
				return false
			}
		}
	}
	return true
}

// ratio is the limit of num/den as the sizes grow.
type ratio struct {
	// Num and Den are the leading coefficients; the limit is Num/Den (0 when
	// num is of lower order, in which case Num is 0).
	Num, Den symbolic.Expr
}

// Value returns the limit as an expression.
func (r ratio) Value() symbolic.Expr { return r.Num.Div(r.Den) }

// String prints the limit in the shorter of its canonical form ("1/(P + 1)")
// and one fraction ("(P - 1)/(2*P + 3)" rather than the canonical sum
// "P/(2*P + 3) - 1/(2*P + 3)").
func (r ratio) String() string {
	if _, ok := r.Den.Const(); ok || r.Num.IsZero() {
		return r.Value().String()
	}
	paren := func(e symbolic.Expr) string {
		if e.NumTerms() > 1 {
			return "(" + e.String() + ")"
		}
		return e.String()
	}
	v, f := r.Value().String(), paren(r.Num)+"/"+paren(r.Den)
	if len(f) < len(v) {
		return f
	}
	return v
}

// Const returns the limit when it is a number.
func (r ratio) Const() (float64, bool) {
	v, ok := r.Value().Const()
	return v.Float64(), ok
}

// limit returns the limit of num/den as the sizes grow. ok is false when the
// limit is not known exactly: a leading term guarded by a condition on rank
// or P, or a denominator tending to 0.
func (g *growth) limit(num, den symbolic.Piecewise) (ratio, bool) {
	od, ds, dempty, ok := g.top(den)
	if !ok || dempty {
		return ratio{}, false
	}
	dc, ok := collapse(ds)
	if !ok || dc.IsZero() {
		return ratio{}, false
	}
	on, ns, nempty, ok := g.top(num)
	if !ok {
		return ratio{}, false
	}
	if nempty || on.cmp(od) < 0 {
		return ratio{Num: symbolic.Int(0), Den: dc}, true
	}
	if on.cmp(od) > 0 {
		return ratio{}, false
	}
	nc, ok := collapse(ns)
	if !ok {
		return ratio{}, false
	}
	return ratio{Num: nc, Den: dc}, true
}

// sameOrder reports whether num grows as fast as den on some rank: whether
// the part num of den matters as the problem grows. known is false when the
// orders cannot be compared.
func (g *growth) sameOrder(num, den symbolic.Piecewise) (same, known bool) {
	od, _, dempty, ok := g.top(den)
	if !ok {
		return false, false
	}
	on, _, nempty, ok := g.top(num)
	if !ok {
		return false, false
	}
	if nempty {
		return false, true
	}
	if dempty {
		return true, true
	}
	return on.cmp(od) >= 0, true
}

// rankFreeLead reports whether the leading term of pw as the sizes grow is
// the same on every rank: no coefficient mentions rank, and guards on rank
// are cases that partition the ranks with equal coefficients. known is false
// when the leading term cannot be found.
func (g *growth) rankFreeLead(pw symbolic.Piecewise) (free, known bool) {
	_, ls, empty, ok := g.top(pw)
	if !ok {
		return false, false
	}
	if empty {
		return true, true
	}
	guarded := false
	for _, l := range ls {
		if l.coef.Has(cost.Rank) {
			return false, true
		}
		for _, r := range l.guard {
			guarded = guarded || r.E.Has(cost.Rank)
		}
	}
	if !guarded {
		return true, true
	}
	_, ok = collapse(ls)
	return ok, true
}

// newRat returns x as the exact rational of its shortest decimal form
// (0.1 is 1/10, not the binary double nearest it).
func newRat(x float64) *big.Rat {
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
	if !ok {
		r = new(big.Rat).SetFloat64(x)
	}
	return r
}

// atLeast reports whether the limit is provably at least x (above x when
// strict), the denominator being provably positive.
func (r ratio) atLeast(a *symbolic.Assumptions, x float64, strict bool) bool {
	if a == nil {
		a = symbolic.NewAssumptions()
	}
	op := ">="
	if strict {
		op = ">"
	}
	q := symbolic.Const(symbolic.RatBig(newRat(x)))
	return a.Prove(symbolic.Rel(r.Den, ">", symbolic.Int(0))) == symbolic.True &&
		a.Prove(symbolic.Rel(r.Num.Sub(q.Mul(r.Den)), op, symbolic.Int(0))) == symbolic.True
}
