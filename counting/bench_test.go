package counting

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mkvet/mkvet/symbolic"
)

// benchFamily is the benchmark family: loop nests 2 to 4 deep with BLOCK and
// CYCLIC distributions of one index over p processors, k the processor id.
var benchFamily = []struct{ name, set string }{
	{"d2_rect_block", "[n, p, k] -> { [i, j] : 1 <= i <= n and 1 <= j <= n and floor(n*(k-1)/p) + 1 <= j <= floor(n*k/p) }"},
	{"d2_tri_block", "[n, p, k] -> { [i, j] : 1 <= i <= n and 1 <= j <= i and floor(n*(k-1)/p) + 1 <= i <= floor(n*k/p) }"},
	{"d2_rect_cyclic", "[n, p, k] -> { [i, j] : 1 <= i <= n and 1 <= j <= n and mod(i - 1, p) = k - 1 }"},
	{"d2_hpf_block", "[n, p, k] -> { [i, j] : 1 <= i <= n and 1 <= j <= n and (k-1)*ceil(n/p) + 1 <= i <= min(k*ceil(n/p), n) }"},
	{"d3_rect_block", "[n, m, p, k] -> { [i, j, l] : 1 <= i <= m and 1 <= j <= n and 1 <= l <= n and floor(n*(k-1)/p) + 1 <= j <= floor(n*k/p) }"},
	{"d3_rect_cyclic", "[n, m, p, k] -> { [i, j, l] : 1 <= i <= m and 1 <= j <= n and 1 <= l <= n and mod(l - 1, p) = k - 1 }"},
	{"d3_tri_block", "[n, p, k] -> { [i, j, l] : 1 <= i <= n and i <= j <= n and 1 <= l <= j and floor(n*(k-1)/p) + 1 <= i <= floor(n*k/p) }"},
	{"d4_rect_block", "[n, m, p, k] -> { [t, i, j, l] : 1 <= t <= m and 1 <= i <= n and 1 <= j <= n and 1 <= l <= n and floor(n*(k-1)/p) + 1 <= i <= floor(n*k/p) }"},
	{"d4_rect_cyclic", "[n, m, p, k] -> { [t, i, j, l] : 1 <= t <= m and 1 <= i <= n and 1 <= j <= n and 1 <= l <= n and mod(i - 1, p) = k - 1 }"},
	{"d2_fahringer", fahringerSet},
}

func benchAssumptions() *symbolic.Assumptions {
	a := symbolic.NewAssumptions()
	if err := a.AssumeText("n >= 1, m >= 1, n1 >= 1, n2 >= 1, p >= 1, 1 <= k <= p"); err != nil {
		panic(err)
	}
	return a
}

// BenchmarkCount counts each set of the family.
func BenchmarkCount(b *testing.B) {
	a := benchAssumptions()
	for _, tc := range benchFamily {
		set, err := ParseSet(tc.set)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			var pw symbolic.Piecewise
			for b.Loop() {
				symbolic.ForgetProofs() // cold: every proof done again
				if pw, err = Count(set, a); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(pw.Pieces)), "pieces")
		})
	}
}

// BenchmarkEvalCount evaluates a counted closed form at one point.
func BenchmarkEvalCount(b *testing.B) {
	a := benchAssumptions()
	for _, tc := range benchFamily {
		set, _ := ParseSet(tc.set)
		pw, err := Count(set, a)
		if err != nil {
			b.Fatal(err)
		}
		f, err := pw.Compile(set.Params)
		if err != nil {
			b.Fatal(err)
		}
		pt := make([]int64, len(set.Params))
		for i, p := range set.Params {
			pt[i] = map[string]int64{"n": 1000, "m": 10, "n1": 100, "n2": 200, "p": 16, "k": 3}[p]
		}
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := f.EvalInt(pt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBenchFamilySummary logs median and worst count times of the family in
// one run (a ratio-free report; the benchmarks give the figures).
func TestBenchFamilySummary(t *testing.T) {
	if testing.Short() {
		t.Skip("timing summary")
	}
	a := benchAssumptions()
	var ds []time.Duration
	for _, tc := range benchFamily {
		set, _ := ParseSet(tc.set)
		symbolic.ForgetProofs() // each count cold
		start := time.Now()
		if _, err := Count(set, a); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		ds = append(ds, time.Since(start))
	}
	slices.Sort(ds)
	t.Log(fmt.Sprintf("family of %d: median %v, worst %v", len(ds), ds[len(ds)/2], ds[len(ds)-1]))
}
