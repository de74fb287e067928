package counting

import (
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// fahringerSet is the HPF example of seed 001 §4: A(n2) block-distributed over
// p processors, written by processor k in DO J1 = 1, n1; DO J2 = 1, J1*n1;
// IF (J2 <= n2).
const fahringerSet = "[n1, n2, p, k] -> { [j1, j2] : 1 <= j1 <= n1 and 1 <= j2 <= j1*n1 and j2 <= n2 " +
	"and floor(n2*(k-1)/p) + 1 <= j2 <= floor(n2*k/p) }"

// TestFahringerTable1 reproduces the measured column of seed 001's Table 1
// exactly (SCALA's own estimates were off by 0.25-1.19%), and work(k) for
// every k, computed independently: processor k owns the block
// n2*(k-1)/p + 1 .. n2*k/p and every owned index j2 <= n2 is written once per
// j1 with j1*n1 >= j2.
func TestFahringerTable1(t *testing.T) {
	set, err := ParseSet(fahringerSet)
	if err != nil {
		t.Fatal(err)
	}
	a := symbolic.NewAssumptions()
	if err := a.AssumeText("n1 >= 1, n2 >= 1, p >= 1, 1 <= k <= p"); err != nil {
		t.Fatal(err)
	}
	pw, err := Count(set, a)
	if err != nil {
		t.Fatal(err)
	}
	table := []struct{ n1, n2, total int64 }{
		{100, 100, 10000}, {200, 100, 20000}, {200, 200, 40000}, {400, 200, 80000},
		{400, 400, 160000}, {800, 400, 320000}, {800, 800, 640000},
	}
	const p = 4
	for _, row := range table {
		var total int64
		for k := int64(1); k <= p; k++ {
			v, err := pw.Eval(map[string]symbolic.Rat{"n1": symbolic.RatInt(row.n1), "n2": symbolic.RatInt(row.n2),
				"p": symbolic.RatInt(p), "k": symbolic.RatInt(k)})
			if err != nil {
				t.Fatal(err)
			}
			// work(k): j2 in k's block, each written by j1 = ceil(j2/n1) .. n1.
			var want int64
			for j2 := row.n2*(k-1)/p + 1; j2 <= row.n2*k/p; j2++ {
				want += row.n1 - cdiv(j2, row.n1) + 1
			}
			n, _ := v.Int64()
			if n != want {
				t.Errorf("n1=%d n2=%d p=4: work(%d) = %s, want %d", row.n1, row.n2, k, v, want)
			}
			total += n
		}
		if total != row.total {
			t.Errorf("n1=%d n2=%d p=4: total work %d, Table 1 says %d", row.n1, row.n2, total, row.total)
		}
	}
	// Symbolic in every parameter: small cases where p does not divide n2 and
	// j1*n1 < n2 cuts the inner loop, against enumeration.
	for n1 := int64(1); n1 <= 6; n1++ {
		for n2 := int64(1); n2 <= 14; n2 += 3 {
			for pp := int64(1); pp <= 5; pp++ {
				for k := int64(1); k <= pp; k++ {
					var want int64
					for j1 := int64(1); j1 <= n1; j1++ {
						for j2 := int64(1); j2 <= min(j1*n1, n2); j2++ {
							if fdiv(n2*(k-1), pp)+1 <= j2 && j2 <= fdiv(n2*k, pp) {
								want++
							}
						}
					}
					v, err := pw.Eval(map[string]symbolic.Rat{"n1": symbolic.RatInt(n1), "n2": symbolic.RatInt(n2),
						"p": symbolic.RatInt(pp), "k": symbolic.RatInt(k)})
					if err != nil {
						t.Fatal(err)
					}
					if !v.Equal(symbolic.RatInt(want)) {
						t.Fatalf("n1=%d n2=%d p=%d k=%d: %s, enumeration %d", n1, n2, pp, k, v, want)
					}
				}
			}
		}
	}
}
