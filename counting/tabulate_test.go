package counting

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// A tabTerm is a relation over x (and P) with its truth computed in plain
// integer arithmetic: the oracle for Tabulate, independent of the symbolic
// evaluator.
type tabTerm struct {
	text  string
	holds func(x, p int64) bool
}

func genTabRel(r *rand.Rand) tabTerm {
	ops := []string{">=", ">", "<=", "<", "=="}
	op := ops[r.IntN(len(ops))]
	cmp := func(v int64) bool {
		switch op {
		case ">=":
			return v >= 0
		case ">":
			return v > 0
		case "<=":
			return v <= 0
		case "<":
			return v < 0
		}
		return v == 0
	}
	a := int64(r.IntN(7) - 3)
	c := int64(r.IntN(41) - 20)
	d := int64(r.IntN(3) + 1) // a divisor of the whole relation: a*x/d + c
	switch r.IntN(4) {
	case 0, 1: // a*x + b*P + c op 0, b in -1..1; some a are 0
		b := int64(r.IntN(3) - 1)
		return tabTerm{fmt.Sprintf("%d*x + %d*P + %d %s 0", a, b, c, op),
			func(x, p int64) bool { return cmp(a*x + b*p + c) }}
	case 2: // (a*x + c)/d op 0: rational coefficients
		return tabTerm{fmt.Sprintf("(%d*x + %d)/%d %s 0", a, c, d, op),
			func(x, p int64) bool {
				// The sign of (a*x+c)/d is the sign of a*x+c (d > 0).
				return cmp(a*x + c)
			}}
	default: // mod(x, k) op m: not linear in x
		k := int64(r.IntN(4) + 2)
		m := int64(r.IntN(int(k)))
		return tabTerm{fmt.Sprintf("mod(x, %d) - %d %s 0", k, m, op),
			func(x, p int64) bool { return cmp(x%k - m) }}
	}
}

// genTabFormula builds a random formula of depth at most d, as a Formula and
// as its oracle.
func genTabFormula(t *testing.T, r *rand.Rand, d int) (Formula, func(x, p int64) bool) {
	if d == 0 || r.IntN(3) == 0 {
		tt := genTabRel(r)
		rels, err := symbolic.ParseRelations(tt.text)
		if err != nil || len(rels) != 1 {
			t.Fatalf("%s: %v", tt.text, err)
		}
		return Rel{R: rels[0]}, tt.holds
	}
	switch r.IntN(3) {
	case 0:
		f, h := genTabFormula(t, r, d-1)
		return Not{F: f}, func(x, p int64) bool { return !h(x, p) }
	case 1:
		var fs And
		var hs []func(x, p int64) bool
		for range r.IntN(3) + 1 {
			f, h := genTabFormula(t, r, d-1)
			fs, hs = append(fs, f), append(hs, h)
		}
		return fs, func(x, p int64) bool {
			for _, h := range hs {
				if !h(x, p) {
					return false
				}
			}
			return true
		}
	default:
		var fs Or
		var hs []func(x, p int64) bool
		for range r.IntN(4) + 1 {
			f, h := genTabFormula(t, r, d-1)
			fs, hs = append(fs, f), append(hs, h)
		}
		return fs, func(x, p int64) bool {
			for _, h := range hs {
				if h(x, p) {
					return true
				}
			}
			return false
		}
	}
}

func TestTabulateAgainstIntegers(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 29))
	for i := range 3000 {
		f, holds := genTabFormula(t, r, 3)
		n := int64(r.IntN(150) + 1)
		got, err := Tabulate(f, "x", n, map[string]int64{"P": n})
		if err != nil {
			t.Fatalf("case %d: %s: %v", i, FormulaKey(f), err)
		}
		for x := range n {
			if got[x] != holds(x, n) {
				t.Fatalf("case %d: %s at x=%d, P=%d: Tabulate says %v", i, FormulaKey(f), x, n, got[x])
			}
		}
	}
}

// A relation with no value at some x gives Holds's answer: the error when
// Holds meets it, the truth when a decided conjunct hides it.
func TestTabulateUndefined(t *testing.T) {
	rel := func(s string) Rel {
		rs, err := symbolic.ParseRelations(s)
		if err != nil {
			t.Fatal(err)
		}
		return Rel{R: rs[0]}
	}
	div := rel("floor(10/(x - 3)) >= 0")
	if _, err := Tabulate(div, "x", 8, nil); err == nil {
		t.Errorf("floor(10/(x-3)) at x = 3 has no value; Tabulate gave none")
	}
	// x <= 2 is false at x = 3, so Holds never evaluates the division there.
	hidden := And{rel("x <= 2"), div}
	got, err := Tabulate(hidden, "x", 8, nil)
	if err != nil {
		t.Fatalf("%s: %v", FormulaKey(hidden), err)
	}
	want, err := holdsEach(hidden, []string{"x"}, []int64{0}, 8)
	if err != nil {
		t.Fatal(err)
	}
	for x := range got {
		if got[x] != want[x] {
			t.Errorf("%s at x=%d: %v, Holds %v", FormulaKey(hidden), x, got[x], want[x])
		}
	}
}

// BenchmarkTabulateRankRanges is a condition of the shape whole programs
// give at P = 1024: a union of one range per run of ranks. Tabulate against
// Holds at each rank, in one run (the ratio is the figure).
func BenchmarkTabulateRankRanges(b *testing.B) {
	const n = 1024
	var f Or
	for lo := int64(0); lo < n; lo += 4 {
		rs, err := symbolic.ParseRelations(fmt.Sprintf("x >= %d and x <= %d", lo, lo+1))
		if err != nil {
			b.Fatal(err)
		}
		f = append(f, And{Rel{R: rs[0]}, Rel{R: rs[1]}})
	}
	b.Run("tabulate", func(b *testing.B) {
		for b.Loop() {
			if _, err := Tabulate(f, "x", n, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("holds", func(b *testing.B) {
		for b.Loop() {
			if _, err := holdsEach(f, []string{"x"}, []int64{0}, n); err != nil {
				b.Fatal(err)
			}
		}
	})
}
