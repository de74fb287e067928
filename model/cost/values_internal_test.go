package cost

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// TestCountByValuesAgainstEnumeration checks the split of a domain on a
// selector variable's values against enumeration: random domains in which
// a variable k of a small constant range is compared with constants inside
// disjunctions (the conditions a routine's branches over a dimension leave),
// k outer or inner, must count, summed over k's slices, exactly the points
// enumeration finds at every value of the parameter n.
func TestCountByValuesAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 3))
	bounds := []string{"n", "2*k", "n - k", "3", "k + n", "floor(n/2)"}
	for trial := 0; trial < 200; trial++ {
		lo := rng.IntN(3)
		hi := lo + rng.IntN(5)
		var alts, nots []string
		for d := rng.IntN(4); d >= 0; d-- {
			c := lo - 1 + rng.IntN(hi-lo+3)
			alts = append(alts, fmt.Sprintf("(%s k == %d and i <= %s)", strings.Join(nots, ""), c, bounds[rng.IntN(len(bounds))]))
			nots = append(nots, fmt.Sprintf("not (k == %d) and ", c))
		}
		alts = append(alts, fmt.Sprintf("(%s i <= %s)", strings.Join(nots, ""), bounds[rng.IntN(len(bounds))]))
		vars := "k, i"
		if rng.IntN(2) == 0 {
			vars = "i, k"
		}
		extra := ""
		if rng.IntN(3) == 0 {
			extra = " and mod(i + k, 2) == 0"
		}
		src := fmt.Sprintf("[n] -> { [%s] : %d <= k <= %d and 1 <= i and i <= 30 and (%s)%s }", vars, lo, hi, strings.Join(alts, " or "), extra)
		set, err := counting.ParseSet(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		an := &analysis{counts: map[string]countResult{}, assume: symbolic.NewAssumptions(symbolic.Rel(symbolic.Sym("n"), ">=", symbolic.Int(0)))}
		pw, ok, err := an.countByValues(set, nil)
		if !ok || err != nil {
			t.Fatalf("%s: not split on k (ok=%v): %v", src, ok, err)
		}
		c, err := counting.CompileFormula(set.Cond, append([]string{"n"}, set.Vars...))
		if err != nil {
			t.Fatal(err)
		}
		for n := int64(0); n <= 9; n++ {
			want := int64(0)
			pt := []int64{n, 0, 0}
			for x := int64(-2); x <= 35; x++ {
				for y := int64(-2); y <= 35; y++ {
					pt[1], pt[2] = x, y
					if h, err := c.Holds(pt); err == nil && h {
						want++
					}
				}
			}
			got, err := pw.Eval(map[string]symbolic.Rat{"n": symbolic.RatInt(n)})
			if err != nil {
				t.Fatalf("%s at n=%d: %v", src, n, err)
			}
			if g, _ := got.Int64(); !got.IsInt() || g != want {
				t.Errorf("%s at n=%d: %s points, enumeration %d\n  count: %s", src, n, got, want, pw)
			}
		}
	}
}

// TestConstantRange checks the range a domain's conjuncts give a variable,
// strict and reversed bounds included.
func TestConstantRange(t *testing.T) {
	for _, c := range []struct {
		src    string
		lo, hi int64
		ok     bool
	}{
		{"{ [k] : 2 <= k <= 4 }", 2, 4, true},
		{"{ [k] : 1 < k and 2*k < 9 }", 2, 4, true},
		{"{ [k] : k == 3 }", 3, 3, true},
		{"{ [k] : 3*k >= 4 and 10 >= 3*k }", 2, 3, true},
		{"{ [k] : k >= 1 }", 0, 0, false},
		{"[n] -> { [k] : 1 <= k <= n }", 0, 0, false},
	} {
		set, err := counting.ParseSet(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		lo, hi, ok := constantRange(set.Cond, "k")
		if ok != c.ok || ok && (lo != c.lo || hi != c.hi) {
			t.Errorf("%s: range %d..%d (ok=%v), want %d..%d (ok=%v)", c.src, lo, hi, ok, c.lo, c.hi, c.ok)
		}
	}
}
