package symbolic

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// randomPoly returns a polynomial of exactly n terms in the symbols syms with
// exponents 0..maxExp and coefficients in -9..9 (deterministic for a seed).
func randomPoly(r *rand.Rand, n int, syms []string, maxExp int) Expr {
	var e Expr
	for e.NumTerms() < n {
		t := Int(int64(r.IntN(19) - 9))
		for _, s := range syms {
			t = t.Mul(Sym(s).Pow(r.IntN(maxExp + 1)))
		}
		e = e.Add(t)
	}
	return e
}

// BenchmarkMul multiplies two 50-term polynomials in 3 symbols (goal: <= 50 µs).
func BenchmarkMul(b *testing.B) {
	for _, n := range []int{10, 50, 200} {
		r := rand.New(rand.NewPCG(7, 7))
		x := randomPoly(r, n, []string{"N", "P", "K"}, 6)
		y := randomPoly(r, n, []string{"N", "P", "K"}, 6)
		b.Run(itoa(int64(n))+"x"+itoa(int64(n)), func(b *testing.B) {
			var p Expr
			for b.Loop() {
				p = x.Mul(y)
			}
			b.ReportMetric(float64(p.NumTerms()), "terms")
		})
	}
}

// BenchmarkSubstExpand substitutes N = M+1, P = 2*Q into a 20-term polynomial
// and expands.
func BenchmarkSubstExpand(b *testing.B) {
	r := rand.New(rand.NewPCG(8, 8))
	x := randomPoly(r, 20, []string{"N", "P", "K"}, 4)
	s := map[string]Expr{"N": MustParse("M + 1"), "P": MustParse("2*Q")}
	for b.Loop() {
		if _, err := x.Subst(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEval evaluates a 20-term expression exactly at one point (goal:
// <= 0.5 µs per point with the small-integer fast path).
func BenchmarkEval(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 9))
	// Cost expressions have low degree per symbol; at N = 1000 every term fits
	// in int64, so the fast path applies.
	poly := randomPoly(r, 20, []string{"N", "P", "K"}, 2).Scale(RatFrac(1, 6))
	withFloor := randomPoly(r, 18, []string{"N", "P", "K"}, 3).Add(MustParse("floor(N/P) + 3*min(N, K)"))
	vars := []string{"K", "N", "P"}
	for _, tc := range []struct {
		name string
		e    Expr
	}{{"polynomial", poly}, {"floor_min", withFloor}} {
		f, err := tc.e.Compile(vars)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name+"/int", func(b *testing.B) {
			pt := []int64{7, 1000, 16}
			for b.Loop() {
				if _, err := f.EvalInt(pt); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/rat", func(b *testing.B) {
			pt := []Rat{RatInt(7), RatFrac(1001, 2), RatInt(16)}
			for b.Loop() {
				if _, err := f.Eval(pt); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/float", func(b *testing.B) {
			pt := []float64{7, 1000, 16}
			for b.Loop() {
				f.EvalFloat(pt)
			}
		})
		// Expr.Eval at a map of values, as the roofline and the matching
		// of messages call it rank by rank: the compiled form is kept.
		b.Run(tc.name+"/expr", func(b *testing.B) {
			env := map[string]Rat{"K": RatInt(7), "N": RatFrac(1001, 2), "P": RatInt(16)}
			for b.Loop() {
				if _, err := tc.e.Eval(env); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/compile+rat", func(b *testing.B) {
			pt := []Rat{RatInt(7), RatFrac(1001, 2), RatInt(16)}
			for b.Loop() {
				g, err := tc.e.Compile(vars)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := g.Eval(pt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParse parses a typical cost expression.
func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		if _, err := Parse("N*N/P + 2*log2(P)*(ts + 8*tc) + floor((N + P - 1)/P)*min(N, 64)"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWitnesses builds the witness points of a counting problem's
// parameter assumptions and of one cell (the parameters plus a BLOCK
// distribution's bounds on a loop index), as a cold count does.
func BenchmarkWitnesses(b *testing.B) {
	for _, tc := range []struct{ name, rels string }{
		{"params", "n >= 1, m >= 1, n1 >= 1, n2 >= 1, p >= 1, 1 <= k <= p"},
		{"block_cell", "n >= 1, p >= 1, 1 <= k <= p, 1 <= j <= n, floor(n*(k-1)/p) + 1 <= j <= floor(n*k/p)"},
	} {
		a := NewAssumptions()
		if err := a.AssumeText(tc.rels); err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			var w *witnessSet
			for b.Loop() {
				w = findWitnesses(a.rels)
			}
			b.ReportMetric(float64(len(w.pts)), "points")
		})
	}
}

// BenchmarkForwardOrder orders the vars of relations over many parameters
// (a program whose counts rest on data: a parameter per value read), each
// relation over a few of them. The order grows with vars times vars plus
// the relations' uses; the plain scan grew with vars times vars times
// relations (TestForwardOrderAgainstScan checks they agree).
func BenchmarkForwardOrder(b *testing.B) {
	for _, n := range []int{100, 1000, 4000} {
		r := rand.New(rand.NewPCG(3, uint64(n)))
		wr := make([]*witnessRel, n)
		for i := range wr {
			wr[i] = &witnessRel{uses: []int{i, r.IntN(n), r.IntN(n)}}
			if wr[i].uses[1] == i || wr[i].uses[2] == wr[i].uses[1] || wr[i].uses[2] == i {
				wr[i].uses = wr[i].uses[:1]
			}
		}
		b.Run(fmt.Sprintf("vars=%d", n), func(b *testing.B) {
			for b.Loop() {
				forwardOrder(make([]bool, n), wr)
			}
		})
	}
}
