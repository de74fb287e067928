package counting

import (
	"math/rand/v2"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// TestPeriodicAgainstEnumeration: BLOCK-CYCLIC sets that take the window sum
// (periodicSum), with weights, offsets, negative ranges, Fortran's MOD, two
// distributed indices and an unconstrained processor id, equal enumeration
// of the points in a box at random parameter points. The predicates are
// written in Go, apart from the code under test.
func TestPeriodicAgainstEnumeration(t *testing.T) {
	type pt = map[string]int64
	own := func(x, b, p, rho int64) bool { return fmod(fdiv(x, b), p) == rho }
	cases := []struct {
		set, weight, assume string
		vars                []string
		in                  func(pt) bool
		w                   func(pt) int64
		onePiece            bool // tidied to one piece (issue 15's table)
	}{
		{"[n,b,p,k] -> { [i] : 1 <= i <= n and modulo(floor((i-1)/b), p) = k-1 }", "1", "",
			[]string{"i"}, func(x pt) bool { return 1 <= x["i"] && x["i"] <= x["n"] && own(x["i"]-1, x["b"], x["p"], x["k"]-1) },
			nil, true},
		{"[n,b,p,k] -> { [i] : 1 <= i <= n and mod(floor((i-1)/b), p) = k-1 }", "i^2 + 3*i", "",
			[]string{"i"}, func(x pt) bool { return 1 <= x["i"] && x["i"] <= x["n"] && own(x["i"]-1, x["b"], x["p"], x["k"]-1) },
			func(x pt) int64 { return x["i"]*x["i"] + 3*x["i"] }, true},
		{"[n,b,p,k,c] -> { [i] : -n <= i <= n + c and modulo(floor((i + c)/b), p) = k-1 }", "i", "",
			[]string{"i"}, func(x pt) bool {
				return -x["n"] <= x["i"] && x["i"] <= x["n"]+x["c"] && own(x["i"]+x["c"], x["b"], x["p"], x["k"]-1)
			}, func(x pt) int64 { return x["i"] }, false},
		// The processor id unconstrained: ids outside 1..p own nothing.
		{"[n,b,p,k] -> { [i] : 1 <= i <= n and modulo(floor((i-1)/b), p) = k-1 }", "1", "free k",
			[]string{"i"}, func(x pt) bool { return 1 <= x["i"] && x["i"] <= x["n"] && own(x["i"]-1, x["b"], x["p"], x["k"]-1) },
			nil, true},
		// The inner index of a triangular nest, and the outer one.
		{"[n,b,p,k] -> { [j,i] : 1 <= j <= n and 1 <= i <= j and modulo(floor((i-1)/b), p) = k-1 }", "j", "",
			[]string{"j", "i"}, func(x pt) bool {
				return 1 <= x["j"] && x["j"] <= x["n"] && 1 <= x["i"] && x["i"] <= x["j"] && own(x["i"]-1, x["b"], x["p"], x["k"]-1)
			}, func(x pt) int64 { return x["j"] }, true},
		{"[n,b,p,k] -> { [j,i] : 1 <= j <= n and 1 <= i <= j and modulo(floor((i-1)/b), p) = k-1 }", "1", "",
			[]string{"j", "i"}, func(x pt) bool {
				return 1 <= x["j"] && x["j"] <= x["n"] && 1 <= x["i"] && x["i"] <= x["j"] && own(x["i"]-1, x["b"], x["p"], x["k"]-1)
			}, nil, true},
		{"[n,b,p,k] -> { [i,j] : 1 <= i <= n and i <= j <= n and modulo(floor((i-1)/b), p) = k-1 }", "1", "",
			[]string{"i", "j"}, func(x pt) bool {
				return 1 <= x["i"] && x["i"] <= x["n"] && x["i"] <= x["j"] && x["j"] <= x["n"] && own(x["i"]-1, x["b"], x["p"], x["k"]-1)
			}, nil, true},
		// A 2-D BLOCK-CYCLIC distribution on a p x q grid.
		{"[n,m,b,p,k,q,l] -> { [i,j] : 1 <= i <= n and 1 <= j <= m and modulo(floor((i-1)/b), p) = k-1 and modulo(floor((j-1)/b), q) = l-1 }", "i*j", "",
			[]string{"i", "j"}, func(x pt) bool {
				return 1 <= x["i"] && x["i"] <= x["n"] && 1 <= x["j"] && x["j"] <= x["m"] &&
					own(x["i"]-1, x["b"], x["p"], x["k"]-1) && own(x["j"]-1, x["b"], x["q"], x["l"]-1)
			}, func(x pt) int64 { return x["i"] * x["j"] }, true},
		// The offset in an outer variable: the window sums' floors hold j.
		{"[n,b,p,k] -> { [j,i] : 1 <= j <= n and j <= i <= n and modulo(floor((i-j)/b), p) = k-1 }", "1", "",
			[]string{"j", "i"}, func(x pt) bool {
				return 1 <= x["j"] && x["j"] <= x["n"] && x["j"] <= x["i"] && x["i"] <= x["n"] && own(x["i"]-x["j"], x["b"], x["p"], x["k"]-1)
			}, nil, false},
		// A constant block beside a parametric period, a block that is a
		// product.
		{"[n,p,k] -> { [i] : 1 <= i <= n and modulo(floor((i-1)/3), p) = k-1 }", "1", "",
			[]string{"i"}, func(x pt) bool { return 1 <= x["i"] && x["i"] <= x["n"] && own(x["i"]-1, 3, x["p"], x["k"]-1) },
			nil, true},
		{"[n,b,p,k] -> { [i] : 1 <= i <= n and modulo(floor((i-1)/(2*b)), p) = k-1 }", "1", "",
			[]string{"i"}, func(x pt) bool {
				return 1 <= x["i"] && x["i"] <= x["n"] && own(x["i"]-1, 2*x["b"], x["p"], x["k"]-1)
			}, nil, true},
	}
	r := rand.New(rand.NewPCG(16, 16))
	for _, c := range cases {
		set, err := ParseSet(c.set)
		if err != nil {
			t.Fatal(err)
		}
		w, err := symbolic.Parse(c.weight)
		if err != nil {
			t.Fatal(err)
		}
		a := symbolic.NewAssumptions()
		assume := "n >= 1, m >= 1, b >= 1, p >= 1, q >= 1, 1 <= l <= q, c >= 0"
		if c.assume != "free k" {
			assume += ", 1 <= k <= p"
		}
		if err := a.AssumeText(assume); err != nil {
			t.Fatal(err)
		}
		pw, err := Sum(set, w, a, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.set, err)
		}
		tidy := reparse(t, pw.Tidy(a))
		if c.onePiece && len(tidy.Pieces) != 1 {
			t.Errorf("%s: %d pieces, want 1:\n%s", c.set, len(tidy.Pieces), tidy)
		}
		for range 40 {
			x := pt{"n": 1 + r.Int64N(14), "m": 1 + r.Int64N(6), "b": 1 + r.Int64N(4), "p": 1 + r.Int64N(4),
				"q": 1 + r.Int64N(3), "c": r.Int64N(4)}
			x["k"] = 1 + r.Int64N(x["p"])
			if c.assume == "free k" {
				x["k"] = r.Int64N(x["p"]+4) - 2
			}
			x["l"] = 1 + r.Int64N(x["q"])
			var want int64
			var walk func(d int)
			walk = func(d int) {
				if d == len(c.vars) {
					if c.in(x) {
						if c.w == nil {
							want++
						} else {
							want += c.w(x)
						}
					}
					return
				}
				for v := int64(-20); v <= 20; v++ {
					x[c.vars[d]] = v
					walk(d + 1)
				}
				delete(x, c.vars[d])
			}
			walk(0)
			env := map[string]symbolic.Rat{}
			for k, v := range x {
				env[k] = symbolic.RatInt(v)
			}
			for _, f := range []symbolic.Piecewise{pw, tidy} {
				got, err := f.Eval(env)
				if err != nil {
					t.Fatalf("%s at %v: %v", c.set, x, err)
				}
				if !got.Equal(symbolic.RatInt(want)) {
					t.Fatalf("%s, weight %s, at %v: %s, enumeration %d\nclosed form:\n%s", c.set, c.weight, x, got, want, f)
				}
			}
		}
	}
}
