package symbolic

import (
	"math/rand/v2"
	"testing"
)

// TestWitnessesChangeNoAnswer: on 10,000 random questions the prover answers
// the same with and without witness refutation, every witness satisfies its
// relations (checked by evaluating each relation at it), and witnesses are
// found for most relation sets that enumeration shows feasible.
func TestWitnessesChangeNoAnswer(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	const cases = 10000
	feasible, found, refuted := 0, 0, 0
	for i := range cases {
		a, boxes := genAssumptions(r)
		e := genSignExpr(r, boxes, 3)
		rel := Relation{E: e, Op: []RelOp{GE, GT, EQ}[r.IntN(3)]}
		ForgetProofs()
		useWitnesses = false
		want := a.proveWithin(rel, proofBudget)
		useWitnesses = true
		got := a.proveWithin(rel, proofBudget)
		if got != want {
			t.Fatalf("case %d: under %s, %s is %s with witnesses, %s without", i, a, relString(rel), got, want)
		}
		w := findWitnesses(a.rels)
		for _, pt := range w.pts {
			env := map[string]Rat{}
			for k, v := range w.vars {
				env[v] = RatInt(pt[k])
			}
			for _, x := range a.rels {
				v, err := x.E.Eval(env)
				if err != nil || !x.Holds(v) {
					t.Fatalf("case %d: witness %v of %s violates %s", i, env, a, relString(x))
				}
			}
		}
		if n, p, z := w.signs(e); n || p || z {
			refuted++
		}
		// Feasible within the enumeration window?
		ok := false
		for x := boxes["a"].lo; x <= boxes["a"].hi && !ok; x++ {
			for y := boxes["b"].lo; y <= boxes["b"].hi && !ok; y++ {
				for z := boxes["c"].lo; z <= boxes["c"].hi && !ok; z++ {
					env := map[string]Rat{"a": RatInt(x), "b": RatInt(y), "c": RatInt(z)}
					all := true
					for _, x := range a.rels {
						if v, err := x.E.Eval(env); err != nil || !x.Holds(v) {
							all = false
							break
						}
					}
					ok = all
				}
			}
		}
		if ok {
			feasible++
			if len(w.pts) > 0 {
				found++
			}
		}
	}
	t.Logf("%d cases: %d feasible, witnesses found for %d; %d goals evaluated at witnesses", cases, feasible, found, refuted)
	if found < feasible*9/10 {
		t.Errorf("witnesses found for %d of %d feasible relation sets, want >= 90%%", found, feasible)
	}
}
