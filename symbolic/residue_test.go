package symbolic

import (
	"math/rand/v2"
	"testing"
)

// TestResiduesAgainstEnumeration checks the reasoning on remainders
// against every point of a box: x and y in -7..7 (floors and truncations
// of x/d, y/d), z in 0..3 (bounded by the assumptions, read by value). On
// random relations and assumptions, byResidues' False means no point of
// the box satisfies the assumptions and the relation, its True that every
// point satisfying the assumptions satisfies it; ResidueCases' having no
// case means no point satisfies the clauses; its cases hold at exactly one
// each point satisfying the clauses they read, and at none of the others.
func TestResiduesAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 53))
	x, y, z := Sym("x"), Sym("y"), Sym("z")
	bounds := []Relation{Rel(z, ">=", Int(0)), Rel(z, "<=", Int(3))}
	term := func() Expr {
		d := Int(int64(2 + rng.IntN(2)))
		v := []Expr{x, y}[rng.IntN(2)]
		switch rng.IntN(3) {
		case 0:
			return Mod(v, d) // v - d*trunc(v/d)
		case 1:
			return v.Sub(d.Mul(Floor(v.Div(d))))
		}
		return z
	}
	rel := func() Relation {
		e := Int(int64(rng.IntN(7) - 3))
		for range 1 + rng.IntN(3) {
			e = e.Add(term().Scale(RatInt(int64(rng.IntN(11) - 5))))
		}
		return Relation{E: e, Op: []RelOp{GE, GT, EQ}[rng.IntN(3)]}
	}
	holds := func(r Relation, pt map[string]Rat) bool {
		v, err := r.E.Eval(pt)
		if err != nil {
			t.Fatalf("%s at %v: %v", relString(r), pt, err)
		}
		return r.Holds(v)
	}
	var pts []map[string]Rat
	for a := int64(-7); a <= 7; a++ {
		for b := int64(-7); b <= 7; b++ {
			for c := int64(0); c <= 3; c++ {
				pts = append(pts, map[string]Rat{"x": RatInt(a), "y": RatInt(b), "z": RatInt(c)})
			}
		}
	}
	decided, contradicted, split := 0, 0, 0
	for i := range 500 {
		ctx := append([]Relation{}, bounds...)
		for range rng.IntN(3) {
			ctx = append(ctx, rel())
		}
		a := NewAssumptions(ctx...)
		r := rel()
		if got, ok := a.ByResidues(r); ok {
			decided++
			for _, pt := range pts {
				in := true
				for _, c := range ctx {
					in = in && holds(c, pt)
				}
				if !in {
					continue
				}
				if h := holds(r, pt); got == False && h || got == True && !h {
					t.Fatalf("case %d: %s under %v is %s, but at %v it is %v", i, relString(r), ctx, got, pt, h)
				}
			}
		}
		// Clauses: the relation, others negated or in a choice.
		clauses := [][]Literal{{{R: r}}}
		for range 1 + rng.IntN(3) {
			c := []Literal{{R: rel(), Neg: rng.IntN(2) == 0}}
			if rng.IntN(3) == 0 {
				c = append(c, Literal{R: rel()})
			}
			clauses = append(clauses, c)
		}
		b := NewAssumptions(bounds...)
		satisfies := func(c []Literal, pt map[string]Rat) bool {
			for _, l := range c {
				if holds(l.R, pt) != l.Neg {
					return true
				}
			}
			return false
		}
		cases, read, _, ok := b.ResidueCases(clauses, 64)
		if !ok {
			continue
		}
		if len(cases) == 0 {
			contradicted++
			for _, pt := range pts {
				all := true
				for _, c := range clauses {
					all = all && satisfies(c, pt)
				}
				if all {
					t.Fatalf("case %d: clauses %v said contradictory, hold at %v", i, clauses, pt)
				}
			}
		}
		split++
		for _, pt := range pts {
			all := true
			for k, c := range clauses {
				if read[k] {
					all = all && satisfies(c, pt)
				}
			}
			n := 0
			for _, cs := range cases {
				in := true
				for _, c := range cs {
					in = in && holds(c, pt)
				}
				if in {
					n++
				}
			}
			if all && n != 1 || !all && n != 0 {
				t.Fatalf("case %d: at %v the clauses read hold %v and %d cases hold (clauses %v, cases %v)", i, pt, all, n, clauses, cases)
			}
		}
	}
	t.Logf("500 cases: %d relations decided, %d clause sets contradictory, %d split", decided, contradicted, split)
	if decided < 50 || contradicted < 10 || split < 50 {
		t.Errorf("too few cases exercised the reasoning: %d decided, %d contradictory, %d split", decided, contradicted, split)
	}
}
