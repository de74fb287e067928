package symbolic

import (
	"math/big"
	"slices"
)

// Tidy returns pw rewritten for a reader, equal to it wherever a holds. It
// applies Simplify, then, per piece and between pieces, only rewrites that
// are identities under the piece's guard and a:
//
//   - a guard relation floor(x) >= c (c an integer expression) becomes x >= c
//     cleared of x's denominator when that is no longer (Unfloor), and
//     e > 0 with e integer-valued becomes e - 1 >= 0, so that complements
//     can be recognised;
//   - a guard relation that follows from the piece's other relations and a
//     is dropped (trunc(n/P) >= 0 beside trunc(n/P) >= 1);
//   - the value is simplified under its own guard (floor, trunc, min and max
//     terms the guard fixes are replaced, see Assumptions.Simplify);
//   - two pieces whose guards are G and c, and G and not c, for integer e in
//     c: e >= 0, become one piece under G: the same value when the values
//     agree, else b + λ*max(e + μ, 0) when the values differ by λ*(e + μ),
//     μ ∈ {0, 1} (then (e + μ)*[e >= 0] = max(e + μ, 0) at every integer e),
//     written max(b + λ(e + μ), b) or, for λ < 0, min(b + λ(e + μ), b).
//
// Every rewrite is exact; the property tests check the result against the
// original at random points.
func (pw Piecewise) Tidy(a *Assumptions) Piecewise { return pw.tidy(a, true) }

// TidySimplified is Tidy for a form already simplified under a (by
// SimplifyWithin, as the cost model's are): it skips that pass, which on
// such forms changes nothing and was most of Tidy's time (NPB SP's annotate
// spent 1.5 of its 1.9 s of tidying there), and leaves forms of more than
// tidySimplifiedMaxPieces pieces as they are.
func (pw Piecewise) TidySimplified(a *Assumptions) Piecewise { return pw.tidy(a, false) }

func (pw Piecewise) tidy(a *Assumptions, simplify bool) Piecewise {
	if a == nil {
		a = NewAssumptions()
	}
	most := tidyMaxPieces
	if !simplify {
		most = tidySimplifiedMaxPieces
	}
	if len(pw.Pieces) > most || pw.Size() > tidyMaxSize {
		// Forms this large are read by tools, not people; the proofs below
		// would cost seconds each.
		return pw
	}
	if simplify {
		pw = pw.SimplifyWithin(a, proofBudget)
	}
	b := &Assumptions{rels: a.Relations(), budget: proofBudget}
	pieces := make([]Piece, 0, len(pw.Pieces))
	for _, p := range pw.Pieces {
		g := b.tidyGuard(p.Value, p.Guard, true)
		v := p.Value
		if len(g) > 0 {
			v = b.with(g).Simplify(v)
		}
		pieces = append(pieces, Piece{Guard: g, Value: v})
	}
	for changed := true; changed; {
		changed = false
		pieces = Piecewise{Pieces: pieces}.Merge().Pieces
	pairs:
		for i := range pieces {
			for j := i + 1; j < len(pieces); j++ {
				m, ok := b.mergeComplement(pieces[i], pieces[j])
				if !ok {
					m, ok = mergeInterval(pieces[i], pieces[j])
				}
				if ok {
					// The merged guard may now follow from the assumptions
					// (rank == 0 beside rank >= 1 is rank >= 0).
					m.Guard = b.tidyGuard(m.Value, m.Guard, false)
					pieces[i] = m
					pieces = slices.Delete(pieces, j, j+1)
					changed = true
					break pairs
				}
			}
		}
	}
	slices.SortStableFunc(pieces, func(x, y Piece) int { return len(x.Guard) - len(y.Guard) })
	return Piecewise{Pieces: pieces}
}

// tidyMaxPieces and tidyMaxSize bound the forms Tidy rewrites;
// tidySimplifiedMaxPieces bounds TidySimplified's, which annotate runs on
// every node of a program: on NPB SP, forms of 9 to 24 pieces took 0.3 s
// of proofs and none lost a piece, and annotate stays within its 1 s.
const (
	tidyMaxPieces           = 48
	tidySimplifiedMaxPieces = 8
	tidyMaxSize             = 20000
)

// tidyGuard normalises, unfloors and reduces the guard g of value v (see
// Tidy), in a canonical order. When simplified, g comes from a form
// simplified under a (SimplifyWithin): a relation of it as it stands is not
// provable from a alone, which saves the question; a merged guard is not.
func (a *Assumptions) tidyGuard(v Expr, g []Relation, simplified bool) []Relation {
	out := make([]Relation, 0, len(g))
	given := map[string]bool{} // the relations as they came: a alone does not prove them
	for _, r := range g {
		if simplified {
			given[r.Key()] = true
		}
		r = normGE(r)
		if a.onlyNonneg(v, r) {
			continue
		}
		if u, ok := a.Unfloor(r); ok && u.E.Size() <= r.E.Size() {
			r = normGE(u)
		}
		out = append(out, r)
	}
	sortRelations(out)
	out = slices.CompactFunc(out, func(x, y Relation) bool { return x.Op == y.Op && Equal(x.E, y.E) })
	// Drop each relation the others and a imply (unflooring can make one
	// that a alone proves: floor(rank/k) >= 0 is rank >= 0), the longest
	// first, so that what stays is what reads shortest.
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return out[j].E.Size() - out[i].E.Size() })
	dropped := make([]bool, len(out))
	for _, i := range order {
		var rest []Relation
		for j, r := range out {
			if j != i && !dropped[j] {
				rest = append(rest, r)
			}
		}
		// The others can only help a proof through a symbol they share
		// with it; without one, the assumptions alone decide, and their
		// answers are memoized for every guard (a new context per relation
		// was most of the tidying's time on NPB SP).
		ctx := a
		if sharesSymbol(out[i], rest) {
			ctx = a.with(rest)
		} else if given[out[i].Key()] {
			continue // simplified forms keep no relation a proves
		}
		if ctx.Prove(out[i]) == True {
			dropped[i] = true
		}
	}
	kept := out[:0:0]
	for i, r := range out {
		if !dropped[i] {
			kept = append(kept, r)
		}
	}
	return equalities(kept)
}

// equalities writes a pair e >= 0, -e >= 0 of g as e == 0: P >= 4 and
// P <= 4 read as P == 4.
func equalities(g []Relation) []Relation {
	for i := 0; i < len(g); i++ {
		if g[i].Op != GE {
			continue
		}
		for j := i + 1; j < len(g); j++ {
			if g[j].Op == GE && g[i].E.Add(g[j].E).IsZero() {
				g[i] = Relation{E: g[i].E, Op: EQ}
				g = slices.Delete(g, j, j+1)
				break
			}
		}
	}
	return g
}

// sharesSymbol reports whether r mentions a symbol some relation of rs
// mentions.
func sharesSymbol(r Relation, rs []Relation) bool {
	for _, x := range r.E.Symbols() {
		for _, o := range rs {
			if o.E.Has(x) {
				return true
			}
		}
	}
	return false
}

// normGE scales a relation to integer coefficients (by the positive lcm of
// their denominators: rank/4 >= 1 is rank - 4 >= 0) and writes e > 0 with
// integer-valued e as e - 1 >= 0.
func normGE(r Relation) Relation {
	d := RatInt(1)
	for _, t := range r.E.t {
		d = ratLCM(d, RatBig(new(big.Rat).SetInt(t.c.Den())))
	}
	if !d.IsOne() {
		r.E = r.E.Scale(d)
	}
	if r.Op == GT && r.E.isIntegerValued() {
		r = Relation{E: r.E.Sub(Int(1)), Op: GE}
	}
	if r.Op == GE {
		r.E = divideContent(r.E)
	}
	return r
}

// divideContent writes g*f + c >= 0, f integer-valued with integer
// coefficients of gcd 1 and g > 1, as f + floor(c/g) >= 0: the same set,
// since f >= -c/g is f >= ceil(-c/g) for an integer f (6*floor(rank/2)
// <= 0 is floor(rank/2) <= 0).
func divideContent(e Expr) Expr {
	c := RatInt(0)
	for _, t := range e.t {
		if len(t.m) == 0 {
			c = t.c
		}
	}
	f := e.Sub(Const(c))
	if f.IsZero() || !c.IsInt() {
		return e
	}
	g := RatInt(0)
	for _, t := range f.t {
		if !t.c.IsInt() {
			return e
		}
		g = ratGCD(g, t.c.Abs())
	}
	if g.IsZero() || g.IsOne() {
		return e
	}
	f = f.Scale(g.Inv())
	if !f.isIntegerValued() {
		return e
	}
	return f.Add(Const(c.Quo(g).Floor()))
}

// onlyNonneg reports whether the relation e >= 0 of v's guard only keeps v
// from going negative: v = k*e or k*(e + 1) for a constant k > 0, e
// integer-valued and v >= 0 wherever a holds. Where e < 0, v is then 0
// (or e < 0 never happens), so the relation changes nothing ("P - 1 if
// P >= 2" is P - 1 for P >= 1; "floor(P/8) if floor(P/8) >= 1" is
// floor(P/8)).
func (a *Assumptions) onlyNonneg(v Expr, r Relation) bool {
	if r.Op != GE || !r.E.isIntegerValued() {
		return false
	}
	for _, f := range []Expr{r.E.Add(Int(1)), r.E} {
		if k, ok := multipleOf(v, f); ok && k.Sign() > 0 {
			return a.ProveGE(v) == True
		}
	}
	return false
}

func sortRelations(g []Relation) {
	slices.SortFunc(g, func(x, y Relation) int {
		if c := Compare(x.E, y.E); c != 0 {
			return c
		}
		return int(x.Op) - int(y.Op)
	})
}

// mergeComplement merges p and q when their guards are G and e >= 0, and G
// and -e - 1 >= 0 (the integer complement), into one piece under G (see
// Tidy).
func (a *Assumptions) mergeComplement(p, q Piece) (Piece, bool) {
	if Equal(p.Value, q.Value) {
		// e == 0 beside e - 1 >= 0 (or -e - 1 >= 0) is e >= 0 (-e >= 0).
		if g, ok := adjacentAt(p.Guard, q.Guard); ok {
			return Piece{Guard: g, Value: p.Value}, true
		}
		if g, ok := adjacentAt(q.Guard, p.Guard); ok {
			return Piece{Guard: g, Value: p.Value}, true
		}
	}
	ip, ok := complementAt(p.Guard, q.Guard)
	if !ok {
		return Piece{}, false
	}
	g := slices.Delete(slices.Clone(p.Guard), ip, ip+1)
	e := p.Guard[ip].E // p holds where e >= 0, q where e <= -1
	if Equal(p.Value, q.Value) {
		return Piece{Guard: g, Value: p.Value}, true
	}
	d := p.Value.Sub(q.Value)
	for _, mu := range []int64{0, 1} {
		f := e.Add(Int(mu))
		if lambda, ok := multipleOf(d, f); ok {
			// b + λ*max(f, 0) is max(b + λf, b) for λ > 0 and min(b + λf, b)
			// for λ < 0: built so, the min keeps its arguments whole where
			// they share no terms (min(x, n - 1), not n - 1 + min(x - n + 1, 0)).
			v := Max(q.Value.Add(f.Scale(lambda)), q.Value)
			if lambda.Sign() < 0 {
				v = Min(q.Value.Add(f.Scale(lambda)), q.Value)
			}
			if len(g) > 0 {
				v = a.with(g).Simplify(v)
			}
			return Piece{Guard: g, Value: v}, true
		}
	}
	return Piece{}, false
}

// adjacentAt returns the guard G and e >= 0 (or -e >= 0) when g is G and
// e == 0 and h is G and e - 1 >= 0 (or -e - 1 >= 0), e integer-valued.
func adjacentAt(g, h []Relation) ([]Relation, bool) {
	ig, ih, ok := differAt(g, h)
	if !ok {
		return nil, false
	}
	r, s := g[ig], h[ih]
	if r.Op != EQ || s.Op != GE || !r.E.isIntegerValued() {
		return nil, false
	}
	var merged Relation
	switch {
	case s.E.Equal(r.E.Sub(Int(1))):
		merged = Relation{E: r.E, Op: GE}
	case s.E.Equal(r.E.Neg().Sub(Int(1))):
		merged = Relation{E: r.E.Neg(), Op: GE}
	default:
		return nil, false
	}
	out := slices.Clone(g)
	out[ig] = merged
	sortRelations(out)
	return out, true
}

// differAt finds the one position where guards g and h of equal length
// differ, the other relations being equal as sets.
func differAt(g, h []Relation) (int, int, bool) {
	if len(g) != len(h) || len(g) == 0 {
		return 0, 0, false
	}
	used := make([]bool, len(h))
	ig := -1
	for i, r := range g {
		found := false
		for j, s := range h {
			if !used[j] && r.Op == s.Op && Equal(r.E, s.E) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			if ig >= 0 {
				return 0, 0, false
			}
			ig = i
		}
	}
	ih := slices.Index(used, false)
	if ig < 0 || ih < 0 {
		return 0, 0, false
	}
	return ig, ih, true
}

// complementAt finds the one position where guards g and h (sorted, GE
// normalised) differ, with g's relation e >= 0 and h's -e - 1 >= 0 for an
// integer-valued e; the other relations must be equal.
func complementAt(g, h []Relation) (int, bool) {
	ig, ih, ok := differAt(g, h)
	if !ok {
		return 0, false
	}
	r, s := g[ig], h[ih]
	if r.Op != GE || s.Op != GE || !r.E.isIntegerValued() || !r.E.Neg().Sub(Int(1)).Equal(s.E) {
		return 0, false
	}
	return ig, true
}

// multipleOf returns λ with d = λ*f for a constant λ.
func multipleOf(d, f Expr) (Rat, bool) {
	if f.IsZero() || d.IsZero() {
		return Rat{}, false
	}
	lead := f.t[0]
	for _, t := range d.t {
		if sameMonomial(t.m, lead.m) {
			lambda := t.c.Quo(lead.c)
			return lambda, d.Sub(f.Scale(lambda)).IsZero()
		}
	}
	return Rat{}, false
}

func sameMonomial(m, n []factor) bool {
	return slices.EqualFunc(m, n, func(x, y factor) bool { return x.a == y.a && x.e == y.e })
}

// Size is the number of nodes of pw's values and guards (see Expr.Size).
func (pw Piecewise) Size() int {
	n := 0
	for _, p := range pw.Pieces {
		n += p.Value.Size()
		for _, g := range p.Guard {
			n += g.E.Size()
		}
	}
	return n
}
