package symbolic

import (
	"math/rand/v2"
	"testing"
)

// TestOpposedPairsAgainstEnumeration draws pairs of relations whose sides
// share a non-constant part up to a factor (with floors, as process-grid
// coordinates have), and checks every refutation against enumeration: no
// integer point of a box may satisfy a pair said to contradict. The pairs that
// enumeration finds empty, though each relation alone is not, must mostly
// be refuted, or the check is useless.
func TestOpposedPairsAgainstEnumeration(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	x, y := Sym("x"), Sym("y")
	parts := []Expr{
		x,
		x.Add(y.Scale(RatInt(2))),
		Floor(x.Div(Int(2))).Sub(Floor(x.Div(Int(4))).Scale(RatInt(2))), // modulo(floor(x/2), 2)
		x.Sub(Floor(y.Div(Int(3))).Scale(RatInt(3))),
	}
	ops := []string{">=", ">", "<=", "<", "=="}
	refuted, empty := 0, 0
	for i := range 1500 {
		part := parts[r.IntN(len(parts))]
		c1, c2 := RatInt(int64(1+r.IntN(6))), RatInt(int64(1+r.IntN(6)))
		if r.IntN(2) == 0 {
			c2 = c2.Neg()
		}
		r1 := Rel(part.Scale(c1), ops[r.IntN(len(ops))], Int(int64(r.IntN(21)-10)))
		r2 := Rel(part.Scale(c2), ops[r.IntN(len(ops))], Int(int64(r.IntN(21)-10)))
		got := opposedPairContradicts(nil, []Relation{r1, r2})
		sat, sat1, sat2 := false, false, false
		for xv := int64(-12); xv <= 12; xv++ {
			for yv := int64(-12); yv <= 12; yv++ {
				env := map[string]Rat{"x": RatInt(xv), "y": RatInt(yv)}
				h1, h2 := holds(t, r1, env), holds(t, r2, env)
				sat, sat1, sat2 = sat || h1 && h2, sat1 || h1, sat2 || h2
			}
		}
		if got && sat {
			t.Fatalf("case %d: %s and %s said to contradict, but a point satisfies both", i, r1, r2)
		}
		if !sat && sat1 && sat2 { // empty as a pair, not by one relation alone
			empty++
			if got {
				refuted++
			}
		}
	}
	if empty == 0 || refuted*10 < empty*9 {
		t.Fatalf("refuted %d of the %d empty pairs", refuted, empty)
	}
	t.Logf("refuted %d of %d empty pairs", refuted, empty)
}

func holds(t *testing.T, r Relation, env map[string]Rat) bool {
	v, err := r.E.Eval(env)
	if err != nil {
		t.Fatal(err)
	}
	switch r.Op {
	case GE:
		return v.Sign() >= 0
	case GT:
		return v.Sign() > 0
	}
	return v.Sign() == 0
}

// TestFeasibleDropsOpposedCase checks the case elimination leaves behind is
// dropped from a piecewise result while a satisfiable one stays.
func TestFeasibleDropsOpposedCase(t *testing.T) {
	rank := Sym("rank")
	m := Floor(rank.Div(Int(2))).Sub(Floor(rank.Div(Int(4))).Scale(RatInt(2)))
	a := NewAssumptions(Rel(rank, ">=", Int(0)))
	pw := Piecewise{Pieces: []Piece{
		{Guard: []Relation{Rel(m.Scale(RatInt(6)), ">=", Int(4)), Rel(m.Scale(RatInt(6)), "<=", Int(2))}, Value: Int(3)},
		{Guard: []Relation{Rel(m.Scale(RatInt(6)), ">=", Int(4))}, Value: Int(5)},
	}}
	got := pw.SimplifyWithin(a, 40)
	if len(got.Pieces) != 1 || !Equal(got.Pieces[0].Value, Int(5)) {
		t.Fatalf("got %v", got)
	}
}
