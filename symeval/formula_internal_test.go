package symeval

import (
	"math/rand/v2"
	"testing"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// randomFormulas draws formulas over x and y whose relations bound x, y,
// x*y or x + 2*y, nested in conjunctions, disjunctions and negations
// depth deep, many of them sharing relations (the guards IF chains leave).
type randomFormulas struct {
	rng  *rand.Rand
	rels []counting.Formula
}

func newRandomFormulas(seed uint64) *randomFormulas {
	g := &randomFormulas{rng: rand.New(rand.NewPCG(seed, 5))}
	x, y := symbolic.Sym("x"), symbolic.Sym("y")
	parts := []symbolic.Expr{x, y, x.Mul(y), x.Add(y.Mul(symbolic.Int(2))), x.Mul(y).Scale(symbolic.RatInt(-2))}
	for range 12 {
		e := parts[g.rng.IntN(len(parts))].Add(symbolic.Int(int64(g.rng.IntN(7) - 3)))
		g.rels = append(g.rels, counting.Rel{R: symbolic.Rel(e, []string{">=", ">", "=="}[g.rng.IntN(3)], symbolic.Int(0))})
	}
	return g
}

func (g *randomFormulas) formula(depth int) counting.Formula {
	if depth == 0 || g.rng.IntN(3) == 0 {
		r := g.rels[g.rng.IntN(len(g.rels))]
		if g.rng.IntN(3) == 0 {
			return counting.Not{F: r}
		}
		return r
	}
	n := 1 + g.rng.IntN(3)
	fs := make([]counting.Formula, n)
	for i := range fs {
		fs[i] = g.formula(depth - 1)
	}
	switch g.rng.IntN(3) {
	case 0:
		return counting.Or(fs)
	case 1:
		return counting.Not{F: counting.And(fs)}
	}
	return counting.And(fs)
}

// holdsAt evaluates f at every point of the box -6..6 squared.
func holdsAt(t *testing.T, f counting.Formula) []bool {
	t.Helper()
	if f == nil {
		f = formulaTrue
	}
	c, err := counting.CompileFormula(f, []string{"x", "y"})
	if err != nil {
		t.Fatal(err)
	}
	var out []bool
	for x := int64(-6); x <= 6; x++ {
		for y := int64(-6); y <= 6; y++ {
			h, err := c.Holds([]int64{x, y})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, h)
		}
	}
	return out
}

// TestOrKeepsMeaning: or, which takes common conjuncts out of its
// disjuncts and drops a conjunct whose negation is another disjunct,
// gives a formula true exactly where the plain disjunction is, on random
// formulas.
func TestOrKeepsMeaning(t *testing.T) {
	g := newRandomFormulas(11)
	simplified := 0
	for i := range 3000 {
		n := 2 + g.rng.IntN(3)
		fs := make([]counting.Formula, n)
		for j := range fs {
			fs[j] = g.formula(2)
			if j > 0 && g.rng.IntN(2) == 0 {
				// A disjunct sharing conjuncts with, or negating part
				// of, the first: what factor and absorb read.
				share := counting.And{fs[0], g.formula(1)}
				if g.rng.IntN(2) == 0 {
					share = counting.And{not(fs[0]), g.formula(1)}
				}
				fs[j] = share
			}
		}
		got := or(fs...)
		want := counting.Or(fs)
		if counting.FormulaKey(got) != counting.FormulaKey(want) {
			simplified++
		}
		gh, wh := holdsAt(t, got), holdsAt(t, want)
		for k := range gh {
			if gh[k] != wh[k] {
				t.Fatalf("#%d: or(%v) = %v differs at point %d", i, want, got, k)
			}
		}
	}
	if simplified == 0 {
		t.Error("or rewrote none of the disjunctions")
	}
}

// TestContradictsProducts: relations on one product or sum of symbols
// (x*y == 1 with not (x*y == 1), x*y >= 3 with -2*x*y >= 0) are bounds on
// one unknown: a conjunction contradicts calls false has no point.
func TestContradictsProducts(t *testing.T) {
	g := newRandomFormulas(29)
	found := 0
	for range 6000 {
		n := 2 + g.rng.IntN(3)
		a := make(counting.And, n)
		for i := range a {
			a[i] = g.formula(0)
		}
		if !contradicts(a) {
			continue
		}
		found++
		for k, h := range holdsAt(t, a) {
			if h {
				t.Fatalf("contradicts(%v) = true, but it holds at point %d", a, k)
			}
		}
	}
	if found == 0 {
		t.Error("contradicts found no contradiction")
	}
	xy := symbolic.Sym("x").Mul(symbolic.Sym("y"))
	eq := counting.Rel{R: symbolic.Rel(xy, "==", symbolic.Int(1))}
	if !contradicts(counting.And{eq, counting.Not{F: eq}}) {
		t.Error("x*y == 1 and not (x*y == 1) is not found false")
	}
}
