package whatif_test

import (
	"fmt"

	"github.com/mkvet/mkvet/model/whatif"
	"github.com/mkvet/mkvet/symbolic"
)

// Pacheco's parallel trapezoidal rule on an nCUBE 2 (seed 004 §11.6):
// T(n, p) = 22.3 µs * n/p + 175 µs * log2(p).
func ExampleTable() {
	m := whatif.Model{Size: "p", Terms: []whatif.Term{
		{Name: "compute", Kind: whatif.Compute, T: symbolic.PiecewiseOf(symbolic.MustParse("n/p*ta"))},
		{Name: "reduce", Kind: whatif.Comm, T: symbolic.PiecewiseOf(symbolic.MustParse("log2(p)*k2"))},
	}}
	ps, _ := whatif.ParseSweep("1..32")
	rows, err := whatif.Table(m, map[string]float64{"n": 1024, "ta": 22.3e-6, "k2": 175e-6}, ps)
	if err != nil {
		panic(err)
	}
	fmt.Println("p   time (s)   speedup  efficiency  comm  dominant")
	for _, r := range rows {
		fmt.Printf("%-3d %-10g %-8.1f %-11.2f %-5.2f %s\n", r.P, r.Time, r.Speedup, r.Efficiency, r.CommShare, r.Dominant)
	}
	// Output:
	// p   time (s)   speedup  efficiency  comm  dominant
	// 1   0.0228352  1.0      1.00        0.00  compute
	// 2   0.0115926  2.0      0.98        0.02  compute
	// 4   0.0060588  3.8      0.94        0.06  compute
	// 8   0.0033794  6.8      0.84        0.16  compute
	// 16  0.0021272  10.7     0.67        0.33  compute
	// 32  0.0015886  14.4     0.45        0.55  reduce
}

// MK's optimal grain size (seed 000 §5.4) for a pipeline that sends K
// pivots per message: the fill grows with K, the remaining blocks N/K
// shrink.
func ExampleGrain() {
	m := whatif.Model{Size: "P", Terms: []whatif.Term{
		{Name: "fill", Kind: whatif.Comm, T: symbolic.PiecewiseOf(symbolic.MustParse("(P-1)*(ts + K*tc)"))},
		{Name: "remain", Kind: whatif.Compute, T: symbolic.PiecewiseOf(symbolic.MustParse("N/K*(o + K*w)"))},
	}}
	env := map[string]float64{"P": 32, "N": 1024, "ts": 100e-6, "tc": 2e-6, "o": 50e-6, "w": 1e-6}
	k, t, d, err := whatif.Grain(m, "K", 1, 256, env)
	if err != nil {
		panic(err)
	}
	fmt.Printf("dT/dK = %v\nK = %d, T = %.6g s\n", d, k, t)
	// Output:
	// dT/dK = P*tc - tc - N*o/K^2
	// K = 29, T = 0.00768752 s
}

// MK's constant-time curve (seed 000 §5.5): how large a problem fits in one
// second as P grows.
func ExampleConstantTime() {
	m := whatif.Model{Size: "P", Terms: []whatif.Term{
		{Name: "compute", Kind: whatif.Compute, T: symbolic.PiecewiseOf(symbolic.MustParse("N^2/P*tc"))},
		{Name: "reduce", Kind: whatif.Comm, T: symbolic.PiecewiseOf(symbolic.MustParse("log2(P)*ts"))},
	}}
	ps := []int64{1, 4, 16, 64}
	ns, err := whatif.ConstantTime(m, "N", 1, ps, map[string]float64{"tc": 1e-8, "ts": 0.01})
	if err != nil {
		panic(err)
	}
	for i, p := range ps {
		fmt.Printf("P = %-2d N = %.0f\n", p, ns[i])
	}
	// Output:
	// P = 1  N = 10000
	// P = 4  N = 19799
	// P = 16 N = 39192
	// P = 64 N = 77563
}
