package symeval

import (
	"math/rand/v2"
	"testing"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// TestContradictsAgainstEnumeration: contradicts is sound (a conjunction
// it calls false has no integer point: none in a box around every bound
// it can state), on random conjunctions of bounds and equations on two
// symbols, with disjunctions of them nested two deep; and it is not
// vacuous (it finds most of the contradictions the box has).
func TestContradictsAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	syms := []string{"x", "y"}
	rel := func() counting.Formula {
		s := symbolic.Sym(syms[rng.IntN(2)])
		a := symbolic.Int(int64(rng.IntN(3) + 1))
		if rng.IntN(3) == 0 {
			a = a.Neg()
		}
		c := symbolic.Int(int64(rng.IntN(13) - 6))
		e := a.Mul(s).Add(c)
		ops := []string{">=", ">", "=="}
		var f counting.Formula = counting.Rel{R: symbolic.Rel(e, ops[rng.IntN(3)], symbolic.Int(0))}
		if rng.IntN(4) == 0 {
			f = counting.Not{F: f} // an ELSE arm's guard, of any relation
		}
		return f
	}
	var conj func(depth int) counting.And
	conj = func(depth int) counting.And {
		n := 2 + rng.IntN(4)
		out := make(counting.And, n)
		for i := range out {
			if depth > 0 && rng.IntN(3) == 0 {
				or := make(counting.Or, 1+rng.IntN(3))
				for j := range or {
					if rng.IntN(2) == 0 {
						or[j] = conj(depth - 1)
					} else {
						or[j] = rel()
					}
				}
				out[i] = or
				continue
			}
			out[i] = rel()
		}
		return out
	}
	found, empty := 0, 0
	for range 4000 {
		f := conj(2)
		c, err := counting.CompileFormula(f, syms)
		if err != nil {
			t.Fatal(err)
		}
		some := false
		for x := int64(-30); x <= 30 && !some; x++ {
			for y := int64(-30); y <= 30 && !some; y++ {
				h, err := c.Holds([]int64{x, y})
				if err != nil {
					t.Fatal(err)
				}
				some = h
			}
		}
		got := contradicts(f)
		if got && some {
			t.Fatalf("contradicts(%v) = true, but it has a point", f)
		}
		if !some {
			empty++
			if got {
				found++
			}
		}
	}
	t.Logf("%d of %d empty conjunctions found contradictory", found, empty)
	if found*2 < empty {
		t.Errorf("contradicts found %d of %d empty conjunctions", found, empty)
	}
}

// TestAndPairIsAnd: the pairwise conjunction lift2Alts uses (each guard
// read once) gives the formula and gives, on random guards: nil, single
// relations, conjunctions, disjunctions (empty ones too), some
// contradictory.
func TestAndPairIsAnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 3))
	rel := func() counting.Formula {
		s := symbolic.Sym([]string{"x", "y"}[rng.IntN(2)])
		e := s.Mul(symbolic.Int(int64(rng.IntN(5) - 2))).Add(symbolic.Int(int64(rng.IntN(9) - 4)))
		return counting.Rel{R: symbolic.Rel(e, []string{">=", ">", "=="}[rng.IntN(3)], symbolic.Int(0))}
	}
	guard := func() counting.Formula {
		switch rng.IntN(6) {
		case 0:
			return nil
		case 1:
			return rel()
		case 2:
			return counting.Or{}
		case 3:
			return counting.Or{rel(), counting.And{rel(), rel()}}
		}
		g := make(counting.And, 1+rng.IntN(40))
		for i := range g {
			g[i] = rel()
		}
		return g
	}
	for i := range 20000 {
		alts := []Alt{{Guard: guard()}, {Guard: guard()}}
		gs := guardConjs(alts)
		want := and(alts[0].Guard, alts[1].Guard)
		got := andPair(gs[0], gs[1])
		if counting.FormulaKey(got) != counting.FormulaKey(want) || isFalse(got) != isFalse(want) {
			t.Fatalf("#%d: andPair(%v, %v) = %v, and gives %v", i, alts[0].Guard, alts[1].Guard, got, want)
		}
	}
}
