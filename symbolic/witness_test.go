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
	var tally witnessTally
	refuted := 0
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
		tally.add(t, w, a.rels, boxes)
		if n, p, z := w.signs(e); n || p || z {
			refuted++
		}
	}
	t.Logf("%d cases: %d feasible, witnesses found for %d; %d goals evaluated at witnesses", cases, tally.feasible, tally.found, refuted)
	tally.check(t)
}

// witnessTally counts the relation sets enumeration shows feasible and those
// of them with witnesses, checking every witness on the way.
type witnessTally struct{ feasible, found int }

func (c *witnessTally) add(t *testing.T, w *witnessSet, rels []Relation, boxes map[string]box) {
	t.Helper()
	checkWitnesses(t, w, rels)
	if feasibleIn(rels, boxes) {
		c.feasible++
		if len(w.pts) > 0 {
			c.found++
		}
	}
}

// check fails the test unless witnesses were found for 90% of the feasible
// sets.
func (c *witnessTally) check(t *testing.T) {
	t.Helper()
	if c.found < c.feasible*9/10 {
		t.Errorf("witnesses found for %d of %d feasible relation sets, want >= 90%%", c.found, c.feasible)
	}
}

// TestExtendedWitnesses: assumptions cloned and given more relations extend
// the witnesses of the relations they were cloned with; every extended point
// satisfies all the relations, and points are found for most feasible sets.
func TestExtendedWitnesses(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	const cases = 5000
	var tally witnessTally
	extended := 0
	for range cases {
		full, boxes := genAssumptions(r)
		n := 1 + r.IntN(len(full.rels))
		a := NewAssumptions(full.rels[:n]...).Clone()
		a.Assume(full.rels[n:]...)
		ForgetProofs()
		w := a.witnesses()
		tally.add(t, w, a.rels, boxes)
		if n < len(a.rels) && len(extendWitnesses(findWitnesses(a.rels[:n]), a.rels, n).pts) > 0 {
			extended++
		}
	}
	t.Logf("%d cases: %d feasible, witnesses found for %d, %d by extension", cases, tally.feasible, tally.found, extended)
	tally.check(t)
	if extended < tally.feasible/2 {
		t.Errorf("extension found points for %d sets of %d feasible, want >= half", extended, tally.feasible)
	}
}

// checkWitnesses fails the test unless every point of w satisfies every
// relation of rels, evaluated exactly.
func checkWitnesses(t *testing.T, w *witnessSet, rels []Relation) {
	t.Helper()
	for _, pt := range w.pts {
		env := map[string]Rat{}
		for k, v := range w.vars {
			env[v] = RatInt(pt[k])
		}
		for _, x := range rels {
			v, err := x.E.Eval(env)
			if err != nil || !x.Holds(v) {
				t.Fatalf("witness %v violates %s", env, relString(x))
			}
		}
	}
}

// feasibleIn reports whether some point of the boxes of a, b and c satisfies
// rels (the enumeration window of genAssumptions).
func feasibleIn(rels []Relation, boxes map[string]box) bool {
	for x := boxes["a"].lo; x <= boxes["a"].hi; x++ {
		for y := boxes["b"].lo; y <= boxes["b"].hi; y++ {
			for z := boxes["c"].lo; z <= boxes["c"].hi; z++ {
				env := map[string]Rat{"a": RatInt(x), "b": RatInt(y), "c": RatInt(z)}
				all := true
				for _, x := range rels {
					if v, err := x.E.Eval(env); err != nil || !x.Holds(v) {
						all = false
						break
					}
				}
				if all {
					return true
				}
			}
		}
	}
	return false
}

// TestWitnessEvalAgrees checks the int64 evaluation at witness points
// against the exact compiled path (itself checked against big.Rat trees in
// property_test.go): the same points with a value, the same values there.
// The expressions mix the sets' symbols with symbols the sets do not
// constrain (N, P, k), which take small values including 0 as divisors.
func TestWitnessEvalAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	fast, total, undefined := 0, 0, 0
	for range 3000 {
		a, boxes := genAssumptions(r)
		w := findWitnesses(a.rels)
		if len(w.pts) == 0 {
			continue
		}
		for range 4 {
			var e Expr
			if r.IntN(2) == 0 {
				e = genSignExpr(r, boxes, 3)
			} else {
				e = build(genTree(r, 4))
			}
			total++
			var q qvec
			var bad [maxWitnesses]bool
			if !w.evalQ(e, &q, &bad) {
				continue
			}
			fast++
			vals, ok := w.evalExact(e)
			if vals == nil {
				t.Fatalf("%s: int64 path gave values where the exact path gives none", e)
			}
			for i := range w.pts {
				if ok[i] == bad[i] {
					t.Fatalf("%s at %v: defined %v, int64 path says %v", e, w.pts[i], ok[i], !bad[i])
				}
				if !ok[i] {
					undefined++
					continue
				}
				if got := RatFrac(q[i].n, q[i].d); got.Cmp(vals[i]) != 0 {
					t.Fatalf("%s at %v (vars %v): int64 path %s, exact %s", e, w.pts[i], w.vars, got, vals[i])
				}
			}
		}
	}
	t.Logf("%d expressions, %d on the int64 path, %d points without a value", total, fast, undefined)
	if fast < total*3/4 || undefined == 0 {
		t.Errorf("int64 path took %d of %d expressions with %d undefined points; the test lost its reach", fast, total, undefined)
	}
}
