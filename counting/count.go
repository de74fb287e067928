package counting

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mkvet/mkvet/symbolic"
)

// ErrTooComplex is returned when a count would need more case splits than the
// limits allow; the count is not attempted rather than run for minutes.
var ErrTooComplex = errors.New("too complex to count exactly")

// ErrNotExact is returned for constraint forms the engine cannot count
// exactly (products of variables, floors with other coefficients, logarithms
// of variables); the message names the constraint.
var ErrNotExact = errors.New("cannot count exactly")

// Options bound the work of one count.
type Options struct {
	// MaxCells bounds the case-split cells processed (default 5000).
	MaxCells int
	// MaxResidues bounds the residue classes of a split by a constant modulus
	// (default 64).
	MaxResidues int
	// Budget, when not nil, is a number of case-split cells shared by many
	// counts (a whole program's): each count spends its cells from it, and
	// a count that finds it spent fails with ErrTooComplex. It bounds the
	// work of an analysis deterministically, where MaxCells bounds one
	// count.
	Budget *int
}

func (o Options) withDefaults() Options {
	if o.MaxCells == 0 {
		o.MaxCells = 5000
	}
	if o.MaxResidues == 0 {
		o.MaxResidues = 64
	}
	return o
}

// Count returns the number of integer points of s as a piecewise
// quasi-polynomial in its parameters: exact wherever the parameters satisfy a
// (which may be nil).
func Count(s *Set, a *symbolic.Assumptions) (symbolic.Piecewise, error) {
	return Sum(s, symbolic.Int(1), a, Options{})
}

// Sum returns the sum of the polynomial weight w (in the variables and
// parameters) over the integer points of s, exactly, as a piecewise
// quasi-polynomial in the parameters.
//
// The method is iterated summation from the innermost variable out (Pugh,
// PLDI'94; Fahringer 1998): the innermost variable's bounds are read from the
// constraints, the sum over it is taken in closed form with Faulhaber's
// polynomials, sum_{v=L}^{U} v^k = S_k(U) - S_k(L-1), once per choice of
// active lower and upper bound (the choices are disjoint cases, each guarded,
// with U >= L so that empty ranges count nothing). Floors, mods and strides of
// a variable become new variables first: floor((v + b)/m) with v + b = m*q + r,
// 0 <= r <= m-1, which makes CYCLIC, BLOCK-CYCLIC and strided loops affine.
func Sum(s *Set, w symbolic.Expr, a *symbolic.Assumptions, opt Options) (symbolic.Piecewise, error) {
	if err := s.check(); err != nil {
		return symbolic.Piecewise{}, err
	}
	for _, x := range w.Symbols() {
		if !slices.Contains(s.Params, x) && !slices.Contains(s.Vars, x) {
			return symbolic.Piecewise{}, fmt.Errorf("weight %s: undeclared symbol %s", w, x)
		}
	}
	s, w, empty, err := pinConstants(s, w)
	if err != nil {
		return symbolic.Piecewise{}, err
	}
	if empty {
		return symbolic.Piecewise{}, nil
	}
	conjs, err := disjoint(s.Cond)
	if err != nil {
		return symbolic.Piecewise{}, err
	}
	if a == nil {
		a = symbolic.NewAssumptions()
	}
	en := &engine{opt: opt.withDefaults(), base: symbolic.NewAssumptions(a.Relations()...).WithBudget(pruneBudget)}
	for _, conj := range conjs {
		if err := en.run(cell{vars: slices.Clone(s.Vars), rels: conj, weight: w}); err != nil {
			return symbolic.Piecewise{}, err
		}
	}
	return symbolic.Piecewise{Pieces: en.pieces}.SimplifyWithin(a, pruneBudget), nil
}

// pruneBudget bounds the prover's work when pruning cases and guards. Pruning
// only makes results smaller; a case it cannot refute is kept, with its guard,
// and still counts exactly.
const pruneBudget = 40

// cell is one case under elimination: the points of vars satisfying rels,
// each weighing weight.
type cell struct {
	vars   []string
	rels   []symbolic.Relation
	weight symbolic.Expr
}

type engine struct {
	opt    Options
	base   *symbolic.Assumptions // the caller's assumptions, with the prune budget
	cells  int
	fresh  int
	pieces []symbolic.Piece
}

func (en *engine) run(start cell) error {
	stack := []cell{start}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if en.cells++; en.cells > en.opt.MaxCells {
			return fmt.Errorf("%w: more than %d case-split cells", ErrTooComplex, en.opt.MaxCells)
		}
		if b := en.opt.Budget; b != nil {
			if *b <= 0 {
				return fmt.Errorf("%w: the analysis's budget of case-split cells is spent", ErrTooComplex)
			}
			*b--
		}
		c, ok := clean(c)
		if !ok || c.weight.IsZero() {
			continue
		}
		if size := cellSize(c); size > maxCellTerms {
			return fmt.Errorf("%w: a case reached %d terms (limit %d)", ErrTooComplex, size, maxCellTerms)
		}
		if len(c.vars) == 0 {
			en.pieces = append(en.pieces, symbolic.Piece{Guard: c.rels, Value: c.weight})
			continue
		}
		v := c.vars[len(c.vars)-1]
		var next []cell
		var err error
		// An equation linear in v removes it outright (strides and CYCLIC give
		// r == k - 1); other atoms of v are split first, then v is summed.
		if i := eqWith(c.rels, v); i >= 0 {
			next, err = en.solveEq(c, i, v)
		} else if pd, ok := en.matchPeriodic(c, v); ok {
			if dc, moved := en.deferPeriodic(c, v, pd); moved {
				next = []cell{dc}
			} else {
				next, err = en.periodicSum(c, v, pd)
			}
		} else if at, ok := innermostAtom(c, v); ok {
			next, err = en.splitAtom(c, at, v)
		} else {
			next, err = en.eliminate(c, v)
		}
		if err != nil {
			return err
		}
		stack = append(stack, next...)
	}
	return nil
}

// clean drops relations that are true constants and reports false when one
// is a false constant.
func clean(c cell) (cell, bool) {
	if !slices.ContainsFunc(c.rels, func(r symbolic.Relation) bool { _, ok := r.E.Const(); return ok }) {
		return c, true
	}
	rels := c.rels[:0:0]
	for _, r := range c.rels {
		if v, ok := r.E.Const(); ok {
			if !r.Holds(v) {
				return c, false
			}
			continue
		}
		rels = append(rels, r)
	}
	c.rels = rels
	return c, true
}

// maxCellTerms bounds the terms of one case's weight and relations, which
// keeps memory bounded on sets whose closed form would be enormous.
const maxCellTerms = 12000

func cellSize(c cell) int {
	n := c.weight.NumTerms()
	for _, r := range c.rels {
		n += r.E.NumTerms()
	}
	return n
}

func (en *engine) newVar(base string) string {
	en.fresh++
	return fmt.Sprintf("%s'%d", base, en.fresh)
}

// innermostAtom finds a function atom of the cell that contains v and whose
// own arguments hold no other atom containing v.
func innermostAtom(c cell, v string) (symbolic.Expr, bool) {
	var find func(e symbolic.Expr) (symbolic.Expr, bool)
	find = func(e symbolic.Expr) (symbolic.Expr, bool) {
		for _, at := range e.FuncAtoms() {
			if !at.Has(v) {
				continue
			}
			_, args, _ := at.AsFunc()
			for _, x := range args {
				if inner, ok := find(x); ok {
					return inner, true
				}
			}
			return at, true
		}
		return symbolic.Expr{}, false
	}
	for _, r := range c.rels {
		if at, ok := find(r.E); ok {
			return at, true
		}
	}
	return find(c.weight)
}

// eqWith returns the index of an equation linear in v (v outside any atom).
func eqWith(rels []symbolic.Relation, v string) int {
	for i, r := range rels {
		if r.Op != symbolic.EQ || !r.E.Has(v) {
			continue
		}
		if _, _, ok := r.E.Linear(v); ok {
			return i
		}
	}
	return -1
}

// substCell replaces v by x everywhere in the cell; vars is the new variable list.
func substCell(c cell, vars []string, v string, x symbolic.Expr) (cell, error) {
	s := map[string]symbolic.Expr{v: x}
	out := cell{vars: vars, rels: make([]symbolic.Relation, 0, len(c.rels))}
	for _, r := range c.rels {
		e, err := r.E.Subst(s)
		if err != nil {
			return cell{}, err
		}
		out.rels = append(out.rels, normRel(symbolic.Relation{E: e, Op: r.Op}))
	}
	w, err := c.weight.Subst(s)
	if err != nil {
		return cell{}, err
	}
	out.weight = w
	return out, nil
}

// normRel writes e > 0 as e - 1 >= 0 for integer-valued e.
func normRel(r symbolic.Relation) symbolic.Relation {
	if r.Op == symbolic.GT {
		return gt(r.E)
	}
	return r
}

func replaceCell(c cell, at, x symbolic.Expr) cell {
	out := cell{vars: c.vars, rels: make([]symbolic.Relation, len(c.rels)), weight: c.weight.Replace(at, x)}
	for i, r := range c.rels {
		out.rels[i] = normRel(symbolic.Relation{E: r.E.Replace(at, x), Op: r.Op})
	}
	return out
}

func withRels(c cell, rels ...symbolic.Relation) cell {
	c.rels = append(slices.Clip(c.rels), rels...)
	return c
}

// paramOnly reports whether e mentions no variable of the cell.
func paramOnly(e symbolic.Expr, vars []string) bool {
	for _, v := range vars {
		if e.Has(v) {
			return false
		}
	}
	return true
}

// splitAtom removes one atom containing v:
//
//	min(a1..an), max:  one case per argument being the least (greatest);
//	trunc(x):          x >= 0 gives floor(x), x < 0 gives -floor(-x);
//	floor(x):          see splitFloor.
func (en *engine) splitAtom(c cell, at symbolic.Expr, v string) ([]cell, error) {
	name, args, _ := at.AsFunc()
	switch name {
	case "min", "max":
		var out []cell
		for i, ai := range args {
			out = append(out, withRels(replaceCell(c, at, ai), extremeGuards(args, i, name == "max")...))
		}
		return out, nil
	case "trunc":
		// trunc(x) is floor(x) for x >= 0 and ceil(x) below. A case the
		// cell refutes is left out, like splitSign's: Fortran's MOD of a
		// loop index from 1 (CYCLIC: mod(i-1, p)) has x >= 0 throughout.
		x := args[0]
		nonneg := symbolic.Relation{E: x, Op: symbolic.GE}
		floorCase := func() cell { return replaceCell(c, at, symbolic.Floor(x)) }
		ceilCase := func() cell { return replaceCell(c, at, symbolic.Ceil(x)) }
		switch en.scope(c).Prove(nonneg, false) {
		case symbolic.True:
			return []cell{floorCase()}, nil
		case symbolic.False:
			return []cell{ceilCase()}, nil
		}
		return []cell{withRels(floorCase(), nonneg), withRels(ceilCase(), gt(x.Neg()))}, nil
	case "floor":
		return en.splitFloor(c, at, args[0], v)
	}
	return nil, fmt.Errorf("%w: %s of the variable %s", ErrNotExact, at, v)
}

// splitFloor removes floor(x) with x = alpha*v + beta, v the innermost variable:
//
//   - alpha*m integer-valued for a constant m (alpha = 2/3, s/3): v runs
//     through the residues v = m*q + r, r = 0..m-1, and floor(x) =
//     alpha*m*q + floor(alpha*r + beta) no longer holds v;
//   - alpha = s/m for a sign s and a positive parameter monomial m, with m*beta
//     integer-valued: s*v + m*beta = m*q + r with 0 <= r <= m-1, so floor(x) = q
//     and v = s*(m*q + r - m*beta); q and r replace v, r innermost.
func (en *engine) splitFloor(c cell, at, x symbolic.Expr, v string) ([]cell, error) {
	alpha, beta, ok := x.Linear(v)
	if !ok {
		return nil, fmt.Errorf("%w: %s is not linear in %s", ErrNotExact, at, v)
	}
	base := c.vars[:len(c.vars)-1]
	if m, ok := constDenominator(alpha); ok {
		if m > int64(en.opt.MaxResidues) {
			return nil, fmt.Errorf("%w: %s needs more than %d residue classes of %s", ErrTooComplex, at, en.opt.MaxResidues, v)
		}
		q := en.newVar(v)
		vars := append(slices.Clone(base), q)
		out := make([]cell, 0, m)
		for r := range m {
			nc, err := substCell(c, vars, v, symbolic.Sym(q).Scale(symbolic.RatInt(m)).Add(symbolic.Int(r)))
			if err != nil {
				return nil, err
			}
			out = append(out, nc)
		}
		return out, nil
	}
	if !paramOnly(alpha, c.vars) {
		return nil, fmt.Errorf("%w: %s multiplies %s by another variable", ErrNotExact, at, v)
	}
	m := symbolic.Int(1).Div(alpha)
	sign := 1
	switch en.sign(m, c) {
	case 1:
	case -1:
		sign, m = -1, m.Neg()
	default:
		return nil, fmt.Errorf("%w: the sign of %s in %s is not known; add an assumption such as %s", ErrNotExact, m, at, positiveHint(m))
	}
	if m.NumTerms() != 1 || !m.IsIntegerValued() {
		return nil, fmt.Errorf("%w: %s: divisor %s is not an integer parameter", ErrNotExact, at, m)
	}
	mb := beta.Mul(m)
	if !mb.IsIntegerValued() {
		return nil, fmt.Errorf("%w: %s: offset %s is not an integer", ErrNotExact, at, mb)
	}
	q, r := en.newVar(v), en.newVar(v)
	vars := append(slices.Clone(base), q, r)
	// v = s*(m*q + r - m*beta)
	vx := m.Mul(symbolic.Sym(q)).Add(symbolic.Sym(r)).Sub(mb).Scale(symbolic.RatInt(int64(sign)))
	nc, err := substCell(replaceCell(c, at, symbolic.Sym(q)), vars, v, vx)
	if err != nil {
		return nil, err
	}
	rs := symbolic.Sym(r)
	return []cell{withRels(nc,
		symbolic.Relation{E: rs, Op: symbolic.GE},
		symbolic.Relation{E: m.Sub(symbolic.Int(1)).Sub(rs), Op: symbolic.GE})}, nil
}

// constDenominator returns the least constant m > 0 with m*alpha
// integer-valued (integer coefficients, parameters to non-negative powers).
func constDenominator(alpha symbolic.Expr) (int64, bool) {
	m := int64(1)
	for _, t := range alpha.Terms() {
		c, _ := t.Coeff()
		d := c.Den()
		if !d.IsInt64() {
			return 0, false
		}
		dv := d.Int64()
		m = m / gcd(m, dv) * dv
		if m > 1<<20 {
			return 0, false
		}
	}
	if !alpha.Scale(symbolic.RatInt(m)).IsIntegerValued() {
		return 0, false
	}
	return m, true
}

// positiveHint is the assumption that settles the sign of m as users
// state it: px >= 1 for -px (which the program's grid sizes satisfy), not
// -px >= 1.
func positiveHint(m symbolic.Expr) string {
	if c, ok := m.Lead().Coeff(); ok && c.Sign() < 0 {
		m = m.Neg()
	}
	return m.String() + " >= 1"
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// sign returns +1 or -1 when e is provably positive or negative under the
// assumptions and the cell's relations on parameters, else 0.
func (en *engine) sign(e symbolic.Expr, c cell) int {
	if r, ok := e.Const(); ok {
		return r.Sign()
	}
	s := en.scope(c)
	switch {
	case s.Prove(gt(e), true) == symbolic.True:
		return 1
	case s.Prove(gt(e.Neg()), true) == symbolic.True:
		return -1
	}
	return 0
}

// isZero reports whether e is provably 0 in the cell.
func (en *engine) isZero(e symbolic.Expr, c cell) bool {
	if v, ok := e.Const(); ok {
		return v.IsZero()
	}
	return en.scope(c).Prove(symbolic.Relation{E: e, Op: symbolic.EQ}, true) == symbolic.True
}

// scope answers questions in a cell: under the caller's assumptions and the
// cell's relations, the cell's variables being vars.
type scope struct {
	base *symbolic.Assumptions
	rels []symbolic.Relation
	vars []string
	ctx  *symbolic.Assumptions // base and rels, made on first use
	// paramRels: the cell has relations on parameters alone, which the
	// assumptions lack.
	paramRels bool
}

// scope returns the scope of c.
func (en *engine) scope(c cell) *scope {
	s := &scope{base: en.base, rels: c.rels, vars: c.vars}
	for _, r := range c.rels {
		s.paramRels = s.paramRels || paramOnly(r.E, c.vars)
	}
	return s
}

// Prove answers r. A question about parameters alone goes to the caller's
// assumptions first: those answers are shared by every cell (memoized, one
// set of witnesses and bounds), where each cell's relations are a new
// context to build them for, and its variables more symbols for the search
// (n >= i, i >= 1 adds nothing to n >= 1 but choices). What the assumptions
// decide holds in the cell too: true everywhere they allow is true in the
// cell, and false everywhere is false there (or the cell is empty, where no
// answer matters).
//
// When the cell has relations on parameters alone, they are likely what a
// bound or guard question needs (1 >= k pins k), and only questions about a
// coefficient's sign (coefficient true) go to the assumptions first.
func (s *scope) Prove(r symbolic.Relation, coefficient bool) symbolic.Truth {
	if paramOnly(r.E, s.vars) && (coefficient || !s.paramRels) {
		if t := s.base.Prove(r); t != symbolic.Unknown {
			return t
		}
	}
	if s.ctx == nil {
		s.ctx = s.base.Clone()
		s.ctx.Assume(s.rels...)
	}
	return s.ctx.Prove(r)
}

// solveEq removes v through the equation a*v + b == 0: v = -b/a, guarded by the
// divisibility of b by a when -b/a is not integer-valued.
func (en *engine) solveEq(c cell, i int, v string) ([]cell, error) {
	r := c.rels[i]
	a, b, ok := r.E.Linear(v)
	if !ok {
		return nil, fmt.Errorf("%w: %s == 0 is not linear in %s", ErrNotExact, r.E, v)
	}
	if !paramOnly(a, c.vars) {
		return nil, fmt.Errorf("%w: %s == 0 multiplies %s by another variable", ErrNotExact, r.E, v)
	}
	if en.sign(a, c) == 0 {
		return nil, fmt.Errorf("%w: coefficient %s of %s in %s == 0 may be zero; add an assumption such as %s", ErrNotExact, a, v, r.E, positiveHint(a))
	}
	x := b.Neg().Div(a)
	rest := slices.Delete(slices.Clone(c.rels), i, i+1)
	nc, err := substCell(cell{vars: c.vars, rels: rest, weight: c.weight}, slices.Clone(c.vars[:len(c.vars)-1]), v, x)
	if err != nil {
		return nil, err
	}
	if !x.IsIntegerValued() {
		nc = withRels(nc, symbolic.Relation{E: symbolic.Floor(x).Sub(x), Op: symbolic.EQ})
	}
	return []cell{nc}, nil
}

// eliminate sums the weight over the innermost variable v, once per choice of
// active lower and upper bound.
func (en *engine) eliminate(c cell, v string) ([]cell, error) {
	return en.eliminateWith(c, v, -1, func(lo, hi symbolic.Expr) (symbolic.Expr, error) {
		return sumOver(c.weight, v, lo, hi)
	})
}

// eliminateWith is eliminate with the sum over lo <= v <= hi (hi >= lo) taken
// by sum, the relation at skip (if >= 0) left to it: periodicSum's
// congruence, which is not a bound.
func (en *engine) eliminateWith(c cell, v string, skip int, sum func(lo, hi symbolic.Expr) (symbolic.Expr, error)) ([]cell, error) {
	var lowers, uppers []symbolic.Expr
	var others []symbolic.Relation
	for i, r := range c.rels {
		if i == skip {
			continue
		}
		if !r.E.Has(v) {
			others = append(others, r)
			continue
		}
		a, b, ok := r.E.Linear(v)
		if !ok {
			return nil, fmt.Errorf("%w: %s is not linear in %s", ErrNotExact, relString(r), v)
		}
		if paramOnly(a, c.vars) && en.isZero(a, c) {
			others = append(others, symbolic.Relation{E: b, Op: r.Op})
			continue
		}
		if !paramOnly(a, c.vars) {
			return nil, fmt.Errorf("%w: %s multiplies %s by another variable", ErrNotExact, relString(r), v)
		}
		sign := en.sign(a, c)
		if sign == 0 {
			// The coefficient's sign is not known (1 - m is 0 at m = 1): split
			// the cell on it; in the zero case the relation no longer holds v.
			return en.splitSign(c, r, a, b), nil
		}
		switch sign {
		case 1: // a*v + b >= 0: v >= ceil(-b/a); > 0: v >= floor(-b/a) + 1
			if r.Op == symbolic.GT {
				lowers = appendBound(lowers, symbolic.Floor(b.Neg().Div(a)).Add(symbolic.Int(1)))
			} else {
				lowers = appendBound(lowers, symbolic.Ceil(b.Neg().Div(a)))
			}
		case -1: // v <= floor(b/|a|); > 0: v <= ceil(b/|a|) - 1
			if r.Op == symbolic.GT {
				uppers = appendBound(uppers, symbolic.Ceil(b.Div(a.Neg())).Sub(symbolic.Int(1)))
			} else {
				uppers = appendBound(uppers, symbolic.Floor(b.Div(a.Neg())))
			}
		}
	}
	if len(lowers) == 0 || len(uppers) == 0 {
		side := "below"
		if len(lowers) > 0 {
			side = "above"
		}
		return nil, fmt.Errorf("%w: %s is unbounded %s, so the count is infinite", ErrNotExact, v, side)
	}
	lowers = dropDominated(lowers, true)
	uppers = dropDominated(uppers, false)
	vars := slices.Clone(c.vars[:len(c.vars)-1])
	ctx := en.scope(cell{vars: c.vars, rels: others})
	lowers = dropProven(ctx, lowers, true)
	uppers = dropProven(ctx, uppers, false)
	var out []cell
	for i, lo := range lowers {
		for j, hi := range uppers {
			// Nonempty, lo the greatest lower bound, hi the least upper bound.
			guards := []symbolic.Relation{{E: hi.Sub(lo), Op: symbolic.GE}}
			guards = append(guards, extremeGuards(lowers, i, true)...)
			guards = append(guards, extremeGuards(uppers, j, false)...)
			kept, feasible := prune(ctx, guards)
			if !feasible {
				continue
			}
			w, err := sum(lo, hi)
			if err != nil {
				return nil, err
			}
			out = append(out, cell{vars: vars, rels: append(slices.Clone(others), kept...), weight: w})
		}
	}
	return out, nil
}

// splitSign returns the cell in the cases a > 0, a < 0 and a == 0 of the
// coefficient a of r = a*v + b; in the last, r becomes b op 0. Cases that the
// context refutes are left out.
func (en *engine) splitSign(c cell, r symbolic.Relation, a, b symbolic.Expr) []cell {
	ctx := en.scope(c)
	var out []cell
	for _, g := range []symbolic.Relation{gt(a), gt(a.Neg())} {
		if ctx.Prove(g, true) != symbolic.False {
			out = append(out, withRels(c, g))
		}
	}
	zero := symbolic.Relation{E: a, Op: symbolic.EQ}
	if ctx.Prove(zero, true) != symbolic.False {
		rels := make([]symbolic.Relation, 0, len(c.rels)+1)
		for _, x := range c.rels {
			if x.Op == r.Op && x.E.Equal(r.E) {
				x = symbolic.Relation{E: b, Op: r.Op}
			}
			rels = append(rels, x)
		}
		out = append(out, cell{vars: c.vars, rels: append(rels, zero), weight: c.weight})
	}
	return out
}

// dropProven removes bounds that another bound provably dominates in the
// context (for lower bounds: some other is always at least as large).
func dropProven(ctx *scope, bs []symbolic.Expr, lower bool) []symbolic.Expr {
	if len(bs) < 2 {
		return bs
	}
	var out []symbolic.Expr
	for i, b := range bs {
		dominated := false
		for j, o := range bs {
			if i == j {
				continue
			}
			d := o.Sub(b) // lower: o >= b makes b redundant
			if !lower {
				d = d.Neg()
			}
			if ctx.Prove(symbolic.Relation{E: d, Op: symbolic.GE}, false) == symbolic.True {
				// Equal bounds dominate each other: keep the first.
				if j < i || ctx.Prove(symbolic.Relation{E: d.Neg(), Op: symbolic.GE}, false) != symbolic.True {
					dominated = true
					break
				}
			}
		}
		if !dominated {
			out = append(out, b)
		}
	}
	return out
}

// extremeGuards returns the conditions under which xs[i] is the greatest
// (greatest) or least of xs, ties going to the first: the cases for
// i = 0, 1, ... are then disjoint and cover everything.
func extremeGuards(xs []symbolic.Expr, i int, greatest bool) []symbolic.Relation {
	var out []symbolic.Relation
	for k, x := range xs {
		if k == i {
			continue
		}
		d := x.Sub(xs[i]) // least: xs[i] <= x
		if greatest {
			d = d.Neg()
		}
		if k < i {
			out = append(out, gt(d))
		} else {
			out = append(out, symbolic.Relation{E: d, Op: symbolic.GE})
		}
	}
	return out
}

// prune drops guards the context proves and reports false when one is
// refuted.
func prune(ctx *scope, guards []symbolic.Relation) ([]symbolic.Relation, bool) {
	var kept []symbolic.Relation
	for _, g := range guards {
		if v, ok := g.E.Const(); ok {
			if !g.Holds(v) {
				return nil, false
			}
			continue
		}
		switch ctx.Prove(g, false) {
		case symbolic.True:
			continue
		case symbolic.False:
			return nil, false
		}
		kept = append(kept, g)
	}
	return kept, true
}

func appendBound(bs []symbolic.Expr, b symbolic.Expr) []symbolic.Expr {
	if slices.ContainsFunc(bs, func(x symbolic.Expr) bool { return x.Equal(b) }) {
		return bs
	}
	return append(bs, b)
}

// dropDominated removes bounds a constant away from a tighter one.
func dropDominated(bs []symbolic.Expr, lower bool) []symbolic.Expr {
	var out []symbolic.Expr
	for i, b := range bs {
		dominated := false
		for j, o := range bs {
			if i == j {
				continue
			}
			d, ok := o.Sub(b).Const()
			if !ok {
				continue
			}
			// A lower bound o > b makes b redundant (upper: o < b).
			if lower && d.Sign() > 0 || !lower && d.Sign() < 0 || d.IsZero() && j < i {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, b)
		}
	}
	return out
}

func relString(r symbolic.Relation) string {
	op := map[symbolic.RelOp]string{symbolic.GE: ">=", symbolic.GT: ">", symbolic.EQ: "=="}[r.Op]
	return r.E.String() + " " + op + " 0"
}

// sumOver returns sum_{v=lo}^{hi} w for w polynomial in v.
func sumOver(w symbolic.Expr, v string, lo, hi symbolic.Expr) (symbolic.Expr, error) {
	cs, ok := w.Coeffs(v)
	if !ok {
		return symbolic.Expr{}, fmt.Errorf("%w: weight %s is not a polynomial in %s", ErrNotExact, w, v)
	}
	var parts []symbolic.Expr
	for k, a := range cs {
		if k < 0 {
			return symbolic.Expr{}, fmt.Errorf("%w: weight %s divides by %s", ErrNotExact, w, v)
		}
		s, err := faulhaberRange(k, lo, hi)
		if err != nil {
			return symbolic.Expr{}, err
		}
		parts = append(parts, a.Mul(s))
	}
	return symbolic.Sum(parts...), nil
}

// faulhaber caches S_k(n) = sum_{x=1}^{n} x^k as polynomials in faulhaberVar.
var faulhaber []symbolic.Expr

const faulhaberVar = "\x02n"

// maxDegree bounds the degree of a weight in one variable.
const maxDegree = 24

func init() {
	// (n+1)^(k+1) - 1 = sum_{j=0}^{k} C(k+1, j) S_j(n), solved for S_k.
	n := symbolic.Sym(faulhaberVar)
	for k := 0; k <= maxDegree; k++ {
		s := n.Add(symbolic.Int(1)).Pow(k + 1).Sub(symbolic.Int(1))
		binom := symbolic.RatInt(1) // C(k+1, j)
		for j := 0; j < k; j++ {
			s = s.Sub(faulhaber[j].Scale(binom))
			binom = binom.Mul(symbolic.RatInt(int64(k + 1 - j))).Quo(symbolic.RatInt(int64(j + 1)))
		}
		faulhaber = append(faulhaber, s.Scale(symbolic.RatFrac(1, int64(k+1))))
	}
}

// faulhaberRange returns sum_{x=lo}^{hi} x^k = S_k(hi) - S_k(lo - 1), an identity
// of polynomials valid whenever hi >= lo - 1.
func faulhaberRange(k int, lo, hi symbolic.Expr) (symbolic.Expr, error) {
	if k > maxDegree {
		return symbolic.Expr{}, fmt.Errorf("%w: weight of degree %d (limit %d)", ErrTooComplex, k, maxDegree)
	}
	a, err := faulhaber[k].Subst(map[string]symbolic.Expr{faulhaberVar: hi})
	if err != nil {
		return symbolic.Expr{}, err
	}
	b, err := faulhaber[k].Subst(map[string]symbolic.Expr{faulhaberVar: lo.Sub(symbolic.Int(1))})
	if err != nil {
		return symbolic.Expr{}, err
	}
	return a.Sub(b), nil
}
