package symbolic

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// randomPoint returns values for treeSyms, non-zero so that symbol divisors
// are defined.
func randomPoint(r *rand.Rand) (map[string]*big.Rat, map[string]Rat) {
	bigEnv := map[string]*big.Rat{}
	env := map[string]Rat{}
	for _, s := range treeSyms {
		v := int64(1 + r.IntN(9))
		if r.IntN(3) == 0 {
			v = -v
		}
		bigEnv[s] = big.NewRat(v, 1)
		env[s] = RatInt(v)
	}
	return bigEnv, env
}

// TestCanonicalTwoWays builds 10,000 random expressions (depth <= 6, with floor,
// ceil, trunc, mod, modulo, min, max, abs) directly and from a rewritten tree
// that is equal by identities, printed as text and parsed. Both must be the same
// canonical expression, and its exact value must match the big.Rat evaluation of
// the original tree at 5 random integer points.
func TestCanonicalTwoWays(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	const cases = 10000
	points := 0
	for i := range cases {
		tree := genTree(r, 6)
		a := build(tree)
		src := text(r, rewrite(r, tree))
		b, err := Parse(src)
		if err != nil {
			t.Fatalf("case %d: Parse(%s): %v", i, src, err)
		}
		if !Equal(a, b) {
			t.Fatalf("case %d: two constructions differ:\n direct   %s\n rewritten %s\n from %s", i, a, b, src)
		}
		f, err := a.Compile(treeSyms)
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			bigEnv, env := randomPoint(r)
			want := evalTree(tree, bigEnv)
			got, err := a.Eval(env)
			if err != nil {
				t.Fatalf("case %d: %s at %v: %v", i, a, env, err)
			}
			if got.Big().Cmp(want) != 0 {
				t.Fatalf("case %d: %s at %v = %s, tree gives %s\n tree %s", i, a, env, got, want.RatString(), text(r, tree))
			}
			vals := []int64{}
			for _, s := range treeSyms {
				n, _ := env[s].Int64()
				vals = append(vals, n)
			}
			gi, err := f.EvalInt(vals)
			if err != nil || !gi.Equal(got) {
				t.Fatalf("case %d: EvalInt = %v, %v; Eval = %s", i, gi, err, got)
			}
			fv := f.EvalFloat([]float64{float64(vals[0]), float64(vals[1]), float64(vals[2])})
			if wf, _ := want.Float64(); !closeRel(fv, wf, 1e-9) {
				t.Fatalf("case %d: EvalFloat = %g, want %g for %s", i, fv, wf, a)
			}
			points++
		}
	}
	t.Logf("%d expressions, %d points", cases, points)
}

func closeRel(a, b, tol float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	m := max(abs64f(a), abs64f(b), 1)
	return d <= tol*m
}

func abs64f(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestRoundTrip: parse(print(e)) == e in all three syntaxes.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for i := range 5000 {
		e := build(genTree(r, 6))
		if r.IntN(4) == 0 {
			e = e.Add(Log2(build(genTree(r, 3))).Mul(Sqrt(build(genTree(r, 3)))))
		}
		for _, syn := range []Syntax{Math, Fortran, Go} {
			s := e.Format(syn)
			back, err := Parse(s)
			if err != nil {
				t.Fatalf("case %d: Parse(%s) (syntax %d): %v", i, s, syn, err)
			}
			if !Equal(back, e) {
				t.Fatalf("case %d: syntax %d round trip:\n e    %s\n text %s\n back %s", i, syn, e, s, back)
			}
		}
	}
}

// TestDiffFiniteDifferences checks d/dx of random polynomials in x and y against
// an oracle computed with big.Rat alone: the difference quotient
// D(h) = (p(x0+h) - p(x0))/h is a polynomial in h of degree deg-1 whose value at
// h = 0 is p'(x0); it is extrapolated exactly from deg sample points.
func TestDiffFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	type mono struct{ i, j int }
	for c := range 2000 {
		coef := map[mono]*big.Rat{}
		var e Expr
		deg := 1
		for range 1 + r.IntN(8) {
			m := mono{r.IntN(6), r.IntN(4)}
			v := big.NewRat(int64(r.IntN(21)-10), int64(1+r.IntN(4)))
			if old, ok := coef[m]; ok {
				v.Add(v, old)
			}
			coef[m] = v
			deg = max(deg, m.i)
		}
		for m, v := range coef {
			e = e.Add(Const(RatBig(v)).Mul(Sym("x").Pow(m.i)).Mul(Sym("y").Pow(m.j)))
		}
		p := func(x, y *big.Rat) *big.Rat {
			s := new(big.Rat)
			for m, v := range coef {
				term := new(big.Rat).Set(v)
				for range m.i {
					term.Mul(term, x)
				}
				for range m.j {
					term.Mul(term, y)
				}
				s.Add(s, term)
			}
			return s
		}
		d, err := e.Diff("x")
		if err != nil {
			t.Fatal(err)
		}
		x0 := big.NewRat(int64(r.IntN(11)-5), int64(1+r.IntN(3)))
		y0 := big.NewRat(int64(r.IntN(11)-5), 1)
		// Samples h = 1..deg of D(h), Lagrange-extrapolated to h = 0.
		hs := make([]*big.Rat, deg)
		ds := make([]*big.Rat, deg)
		for k := range deg {
			h := big.NewRat(int64(k+1), 1)
			hs[k] = h
			num := new(big.Rat).Sub(p(new(big.Rat).Add(x0, h), y0), p(x0, y0))
			ds[k] = num.Quo(num, h)
		}
		want := new(big.Rat)
		for k := range deg {
			l := big.NewRat(1, 1)
			for j := range deg {
				if j != k {
					// (0 - h_j)/(h_k - h_j)
					f := new(big.Rat).Neg(hs[j])
					f.Quo(f, new(big.Rat).Sub(hs[k], hs[j]))
					l.Mul(l, f)
				}
			}
			want.Add(want, l.Mul(l, ds[k]))
		}
		got, err := d.Eval(map[string]Rat{"x": RatBig(x0), "y": RatBig(y0)})
		if err != nil {
			t.Fatal(err)
		}
		if got.Big().Cmp(want) != 0 {
			t.Fatalf("case %d: d/dx %s = %s; at x=%s y=%s got %s, finite differences give %s",
				c, e, d, x0.RatString(), y0.RatString(), got, want.RatString())
		}
	}
}

// TestRatAgainstBig checks the small-integer fast path against math/big on
// random values near the int64 limits and small ones.
func TestRatAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	gen := func() *big.Rat {
		switch r.IntN(4) {
		case 0:
			return big.NewRat(r.Int64N(1<<62)-(1<<61), 1+r.Int64N(1<<40))
		case 1:
			return big.NewRat(int64(r.Uint64()), 1)
		case 2:
			return big.NewRat(r.Int64N(2000)-1000, 1+r.Int64N(50))
		}
		return big.NewRat(int64(r.IntN(7)-3), 1)
	}
	for range 200000 {
		a, b := gen(), gen()
		x, y := RatBig(a), RatBig(b)
		check := func(op string, got Rat, want *big.Rat) {
			if got.Big().Cmp(want) != 0 {
				t.Fatalf("%s %s %s = %s, want %s", a.RatString(), op, b.RatString(), got, want.RatString())
			}
		}
		check("+", x.Add(y), new(big.Rat).Add(a, b))
		check("-", x.Sub(y), new(big.Rat).Sub(a, b))
		check("*", x.Mul(y), new(big.Rat).Mul(a, b))
		if b.Sign() != 0 {
			check("/", x.Quo(y), new(big.Rat).Quo(a, b))
		}
		if got, want := x.Cmp(y), a.Cmp(b); got != want {
			t.Fatalf("Cmp(%s, %s) = %d, want %d", a.RatString(), b.RatString(), got, want)
		}
		check("floor", x.Floor(), ratFloor(a))
		check("trunc", x.Trunc(), ratTrunc(a))
	}
}

// HasAny agrees with a Has per name on random expressions (function
// arguments included), each set a random subset of the symbols and one
// symbol no expression has.
func TestHasAnyAgreesWithHas(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for i := range 2000 {
		e := build(genTree(r, 6))
		set := map[string]bool{"absent": r.IntN(2) == 0}
		want := false
		for _, s := range treeSyms {
			if r.IntN(3) == 0 {
				set[s] = true
				want = want || e.Has(s)
			}
		}
		pw := Piecewise{Pieces: []Piece{{Value: e}}}
		if got := e.HasAny(set); got != want || pw.HasAny(set) != want {
			t.Fatalf("case %d: %s HasAny(%v) = %v (piecewise %v), Has per name gives %v", i, e, set, got, pw.HasAny(set), want)
		}
	}
}
