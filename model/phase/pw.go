package phase

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// Piecewise arithmetic beyond symbolic.Piecewise's sum and scaling. A
// Piecewise is a sum of guarded terms whose guards may overlap (counting
// produces such sums), so a maximum or a quotient of two of them needs
// their disjoint form first: the regions where each combination of guards
// holds and the others do not.

// maxRegions bounds the regions a disjoint form may have, so that a closed
// form with many overlapping pieces fails instead of growing without end.
const maxRegions = 256

var errTooManyRegions = errors.New("phase: closed form has too many overlapping cases")

// region is one piece of a disjoint form.
type region struct {
	guard []symbolic.Relation
	value symbolic.Expr
}

// negate returns the relations whose disjunction is the negation of r:
// not(e >= 0) is -e > 0, not(e > 0) is -e >= 0, not(e == 0) is e > 0 or
// -e > 0.
func negate(r symbolic.Relation) []symbolic.Relation {
	switch r.Op {
	case symbolic.GE:
		return []symbolic.Relation{{E: r.E.Neg(), Op: symbolic.GT}}
	case symbolic.GT:
		return []symbolic.Relation{{E: r.E.Neg(), Op: symbolic.GE}}
	}
	return []symbolic.Relation{{E: r.E, Op: symbolic.GT}, {E: r.E.Neg(), Op: symbolic.GT}}
}

// disjoint returns pw as regions with pairwise disjoint guards whose union
// is everywhere (a region may have value 0): for every subset S of the
// guarded pieces, the region where exactly the pieces of S hold has the sum
// of their values. Regions provably empty under a are dropped.
func disjoint(pw symbolic.Piecewise, a *prover) ([]region, error) {
	base := symbolic.Expr{}
	var guarded []symbolic.Piece
	for _, p := range pw.Pieces {
		if len(p.Guard) == 0 {
			base = base.Add(p.Value)
			continue
		}
		merged := false
		for i := range guarded {
			if sameGuard(guarded[i].Guard, p.Guard) {
				guarded[i].Value = guarded[i].Value.Add(p.Value)
				merged = true
				break
			}
		}
		if !merged {
			guarded = append(guarded, p)
		}
	}
	regions := []region{{value: base}}
	for _, p := range guarded {
		var next []region
		for _, r := range regions {
			// The piece holds: its guard joins the region's.
			in := region{guard: append(append([]symbolic.Relation(nil), r.guard...), p.Guard...), value: r.value.Add(p.Value)}
			if !empty(in.guard, a) {
				next = append(next, in)
			}
			// It does not: one of its relations fails (the first failing
			// one, so that the cases are disjoint).
			for i, rel := range p.Guard {
				for _, neg := range negate(rel) {
					g := append(append([]symbolic.Relation(nil), r.guard...), p.Guard[:i]...)
					g = append(g, neg)
					if !empty(g, a) {
						next = append(next, region{guard: g, value: r.value})
					}
				}
			}
		}
		if len(next) > max(maxRegions, int(a.np)+1) {
			if os.Getenv("MKVET_DEBUG_PW") != "" {
				fmt.Fprintf(os.Stderr, "disjoint: %d pieces np=%d\n", len(pw.Pieces), a.np)
				for _, p := range pw.Pieces[:min(6, len(pw.Pieces))] {
					fmt.Fprintf(os.Stderr, "   %v if %v\n", p.Value, p.Guard)
				}
			}
			return nil, errTooManyRegions
		}
		regions = next
	}
	return regions, nil
}

func sameGuard(a, b []symbolic.Relation) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Op != b[i].Op || !a[i].E.Equal(b[i].E) {
			return false
		}
	}
	return true
}

// empty reports whether the conjunction g is provably false.
func empty(g []symbolic.Relation, pv *prover) bool {
	if len(g) == 0 {
		return false
	}
	var b strings.Builder
	for _, r := range g {
		r.WriteKey(&b) // a key, not the printed form: this runs per pair of calls at every sample
		b.WriteByte(';')
	}
	k := b.String()
	if e, ok := pv.empty[k]; ok {
		return e
	}
	if e, ok := pv.rankEmpty(g); ok {
		pv.empty[k] = e
		return e
	}
	pw := symbolic.Piecewise{Pieces: []symbolic.Piece{{Guard: g, Value: symbolic.Int(1)}}}
	e := len(pw.SimplifyWithin(pv.a, proofBudget).Pieces) == 0
	pv.empty[k] = e
	return e
}

// rankEmpty decides a conjunction of relations on the rank alone at a
// point, by trying every rank 0..P-1; ok is false when it is not one.
func (pv *prover) rankEmpty(g []symbolic.Relation) (empty, ok bool) {
	if pv.np <= 0 {
		return false, false
	}
	for _, r := range g {
		for _, s := range r.E.Symbols() {
			if s != cost.Rank && s != cost.Size {
				return false, false
			}
		}
	}
	// Each relation's truth at every rank is tabulated once: guards recur
	// across the regions of many products, and at P = 1024 evaluating them
	// afresh dominated the phase analysis.
	ts := make([][]bool, len(g))
	for i, r := range g {
		t, ok := pv.rankTable(r)
		if !ok {
			return false, false
		}
		ts[i] = t
	}
next:
	for rk := int64(0); rk < pv.np; rk++ {
		for _, t := range ts {
			if !t[rk] {
				continue next
			}
		}
		return false, true
	}
	return true, true
}

// rankTable is r's truth at each rank 0..P-1, P the point's wherever the
// phase composition reintroduced it (a rank singled out as floor(P/2)); ok
// is false when r cannot be evaluated there.
func (pv *prover) rankTable(r symbolic.Relation) ([]bool, bool) {
	k := r.Key()
	if t, ok := pv.tables[k]; ok {
		return t, t != nil
	}
	if pv.tables == nil {
		pv.tables = map[string][]bool{}
	}
	t, err := cost.RankTruth(r, pv.np)
	pv.tables[k] = t // nil where it cannot be evaluated
	return t, err == nil
}

// prover holds the assumptions pw operations decide guards under, with a
// memo of the guards found empty or not (the same conjunctions recur
// across the regions of many products).
type prover struct {
	a     *symbolic.Assumptions
	empty map[string]bool
	// np is P of an analysis at a point (cost.Report.RankwiseP): a guard
	// on the rank alone is then decided by trying every rank, from the
	// truth of each relation at each rank (tables, nil where it cannot be
	// evaluated).
	np     int64
	tables map[string][]bool
}

func newProver(a *symbolic.Assumptions) *prover { return &prover{a: a, empty: map[string]bool{}} }

// proofBudget bounds the prover's steps per question in this package.
const proofBudget = 60

func fromRegions(rs []region, a *prover) symbolic.Piecewise {
	var out symbolic.Piecewise
	for _, r := range rs {
		if r.value.IsZero() {
			continue
		}
		out.Pieces = append(out.Pieces, symbolic.Piece{Guard: r.guard, Value: r.value})
	}
	return out.SimplifyWithin(a.a, proofBudget)
}

// pwMul returns a*b: the products of every pair of pieces under both
// guards (indicator functions multiply).
func pwMul(x, y symbolic.Piecewise, a *prover) symbolic.Piecewise {
	var out symbolic.Piecewise
	for _, p := range x.Pieces {
		for _, q := range y.Pieces {
			g := append(append([]symbolic.Relation(nil), p.Guard...), q.Guard...)
			out.Pieces = append(out.Pieces, symbolic.Piece{Guard: g, Value: p.Value.Mul(q.Value)})
		}
	}
	return out.SimplifyWithin(a.a, proofBudget)
}

// pwMax returns max(x, y) region by region.
func pwMax(x, y symbolic.Piecewise, a *prover) (symbolic.Piecewise, error) {
	return combine(x, y, a, func(u, v symbolic.Expr) symbolic.Expr {
		switch {
		case u.Equal(v):
			return u
		case u.IsZero() && knownNonNeg(v):
			return v
		case v.IsZero() && knownNonNeg(u):
			return u
		}
		return symbolic.Max(u, v)
	})
}

// pwDiv returns x/y region by region, 0 where y is 0.
func pwDiv(x, y symbolic.Piecewise, a *prover) (symbolic.Piecewise, error) {
	return combine(x, y, a, func(u, v symbolic.Expr) symbolic.Expr {
		if v.IsZero() {
			return symbolic.Expr{}
		}
		return u.Div(v)
	})
}

func combine(x, y symbolic.Piecewise, a *prover, f func(u, v symbolic.Expr) symbolic.Expr) (symbolic.Piecewise, error) {
	xs, err := disjoint(x, a)
	if err != nil {
		return symbolic.Piecewise{}, err
	}
	ys, err := disjoint(y, a)
	if err != nil {
		return symbolic.Piecewise{}, err
	}
	var out []region
	for _, p := range xs {
		for _, q := range ys {
			g := append(append([]symbolic.Relation(nil), p.guard...), q.guard...)
			if empty(g, a) {
				continue
			}
			out = append(out, region{guard: g, value: f(p.value, q.value)})
		}
	}
	return fromRegions(out, a), nil
}

// knownNonNeg reports a constant >= 0 (times are; this only keeps max(0, t)
// out of printed forms).
func knownNonNeg(e symbolic.Expr) bool {
	c, ok := e.Const()
	return ok && c.Sign() >= 0
}

// pwSubst substitutes into every value and guard of pw.
func pwSubst(pw symbolic.Piecewise, sub map[string]symbolic.Expr) (symbolic.Piecewise, error) {
	var out symbolic.Piecewise
	for _, p := range pw.Pieces {
		v, err := p.Value.Subst(sub)
		if err != nil {
			return symbolic.Piecewise{}, err
		}
		q := symbolic.Piece{Value: v}
		for _, r := range p.Guard {
			e, err := r.E.Subst(sub)
			if err != nil {
				return symbolic.Piecewise{}, err
			}
			q.Guard = append(q.Guard, symbolic.Relation{E: e, Op: r.Op})
		}
		out.Pieces = append(out.Pieces, q)
	}
	return out, nil
}
