package symbolic

import (
	"math/rand/v2"
	"slices"
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

// TestWitnessSearchBounded: a set of relations with no integer point fails
// every scan of every attempt; its construction stops at witnessEvals
// evaluations, built afresh or extended from a base set, while a feasible
// set of the same shape still gets its points. The relations are those of
// a count under an else-if ladder on a code made of parities (10*(a mod 2)
// + 2*(b mod 2) + (c mod 2) takes 0..3 and 10..13, never 8). Unbounded,
// the infeasible ones take over 3,000 evaluations; the bound is written
// here rather than read from witnessEvals, so that raising the constant
// fails the test.
func TestWitnessSearchBounded(t *testing.T) {
	const bound = 2048
	a, b, c, n, m := Sym("a"), Sym("b"), Sym("c"), Sym("n"), Sym("m")
	parity := func(x Expr) Expr { return x.Sub(Int(2).Mul(Floor(x.Scale(RatFrac(1, 2))))) }
	code := Int(10).Mul(parity(a)).Add(Int(2).Mul(parity(b))).Add(parity(c))
	box := []Relation{Rel(n, ">=", Int(1)), Rel(n, "<=", Int(40)), Rel(m, ">=", Int(1)), Rel(m, "<=", Int(40))}
	loop := []Relation{Rel(a, ">=", Int(0)), Rel(a, "<=", n), Rel(b, ">=", Int(0)), Rel(b, "<=", m),
		Rel(c, ">=", Int(0)), Rel(c, "<=", n.Add(m))}
	for _, tc := range []struct {
		want     int64
		feasible bool
	}{{8, false}, {7, false}, {11, true}, {3, true}} {
		rels := append(append(append([]Relation{}, box...), loop...), Rel(code, "==", Int(tc.want)))
		w := findWitnesses(rels)
		if got := len(w.pts) > 0; got != tc.feasible {
			t.Errorf("code %d: points found %v, want %v", tc.want, got, tc.feasible)
		}
		checkWitnesses(t, w, rels)
		if w.evals > bound {
			t.Errorf("code %d: %d evaluations, want at most %d", tc.want, w.evals, bound)
		}
		// As a count asks: the parameters' assumptions cloned, a cell's
		// loops and guard added (extended from the parameters' points,
		// then built afresh when none extends).
		ca := NewAssumptions(box...).Clone()
		ca.Assume(append(append([]Relation{}, loop...), Rel(code, "==", Int(tc.want)))...)
		ForgetProofs()
		x := ca.witnesses()
		if got := len(x.pts) > 0; got != tc.feasible {
			t.Errorf("code %d in a cell: points found %v, want %v", tc.want, got, tc.feasible)
		}
		checkWitnesses(t, x, ca.rels)
		if x.evals > bound {
			t.Errorf("code %d in a cell: %d evaluations, want at most %d", tc.want, x.evals, bound)
		}
		t.Logf("code %d: %d points in %d evaluations, in a cell %d points in %d", tc.want, len(w.pts), w.evals, len(x.pts), x.evals)
	}
}

// TestForwardOrderAgainstScan: the forward order kept by counters is the
// order the plain scan (every relation for every var at every step) gives,
// on random sets of relations over random vars, some assigned already.
func TestForwardOrderAgainstScan(t *testing.T) {
	scan := func(assigned []bool, wr []*witnessRel) []int {
		n := len(assigned)
		var order []int
		for range n - countTrue(assigned) {
			best, bestDone, bestOcc := -1, -1, -1
			for v := range n {
				if assigned[v] {
					continue
				}
				done, occ := 0, 0
				for _, r := range wr {
					if !slices.Contains(r.uses, v) {
						continue
					}
					occ++
					complete := true
					for _, u := range r.uses {
						if u != v && !assigned[u] {
							complete = false
						}
					}
					if complete {
						done++
					}
				}
				if done > bestDone || done == bestDone && occ > bestOcc {
					best, bestDone, bestOcc = v, done, occ
				}
			}
			assigned[best] = true
			order = append(order, best)
		}
		return order
	}
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 2000 {
		n := 1 + r.IntN(12)
		var wr []*witnessRel
		for range r.IntN(15) {
			var uses []int
			for range 1 + r.IntN(4) {
				if u := r.IntN(n); !slices.Contains(uses, u) {
					uses = append(uses, u)
				}
			}
			wr = append(wr, &witnessRel{uses: uses})
		}
		assigned := make([]bool, n)
		for v := range assigned {
			assigned[v] = r.IntN(4) == 0
		}
		a, b := slices.Clone(assigned), slices.Clone(assigned)
		if got, want := forwardOrder(a, wr), scan(b, wr); !slices.Equal(got, want) || !slices.Equal(a, b) {
			t.Fatalf("case %d: forward order %v, the scan's %v", i, got, want)
		}
	}
}
