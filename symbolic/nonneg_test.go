package symbolic

import (
	"math/rand/v2"
	"testing"
)

func allNonNeg(string) bool { return true }

// TestSurelyNonNegativeSound checks SurelyNonNegative against exact
// evaluation: on 20,000 random expressions (floor, trunc, mod, min, max,
// abs over N, P, k), every one it calls non-negative is >= 0 at every
// point of N, P, k in 0..7 where it is defined. It must also show some.
func TestSurelyNonNegativeSound(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	shown := 0
	for i := range 20000 {
		e := build(genTree(r, 5))
		if !SurelyNonNegative(e, allNonNeg) {
			continue
		}
		shown++
		f, err := e.Compile(treeSyms)
		if err != nil {
			t.Fatal(err)
		}
		for n := range int64(8) {
			for p := range int64(8) {
				for k := range int64(8) {
					v, err := f.EvalInt([]int64{n, p, k})
					if err != nil {
						continue // undefined there (a zero divisor)
					}
					if v.Sign() < 0 {
						t.Fatalf("case %d: %s called non-negative, but is %s at N=%d, P=%d, k=%d", i, e, v, n, p, k)
					}
				}
			}
		}
	}
	if shown < 1000 {
		t.Fatalf("only %d of 20000 shown non-negative: the test exercises too little", shown)
	}
}

// TestNonNegDivisionAgreesWithFortran checks IDivNonNeg and ModNonNeg
// against Fortran's truncating IDiv and Mod at points
// where the symbols are non-negative, and that a remainder of a remainder
// stays one remainder.
func TestNonNegDivisionAgreesWithFortran(t *testing.T) {
	k, p := Sym("k"), Sym("P")
	nonneg := func(s string) bool { return s == "k" || s == "P" }
	// A coordinate stepped round a ring of 4, three times.
	c := ModNonNeg(k, Int(4), nonneg)
	ct := Mod(k, Int(4))
	for range 3 {
		c = ModNonNeg(c.Add(Int(1)), Int(4), nonneg)
		ct = Mod(ct.Add(Int(1)), Int(4))
	}
	if want := Modulo(k.Add(Int(3)), Int(4)); !Equal(c, want) {
		t.Errorf("mod(mod(mod(mod(k,4)+1,4)+1,4)+1,4) = %s, want %s", c, want)
	}
	cases := []struct{ got, want Expr }{
		{c, ct},
		{IDivNonNeg(k.Sub(Int(3)).Add(p), p, nonneg), IDiv(k.Sub(Int(3)).Add(p), p)}, // not shown: stays trunc
		{IDivNonNeg(k.Mul(p).Add(Int(5)), Int(3), nonneg), IDiv(k.Mul(p).Add(Int(5)), Int(3))},
		{ModNonNeg(k.Add(p), p, nonneg), Mod(k.Add(p), p)},
	}
	for i, tc := range cases {
		for kv := range int64(20) {
			for pv := int64(1); pv < 20; pv++ {
				env := map[string]Rat{"k": RatInt(kv), "P": RatInt(pv)}
				g, err1 := tc.got.Eval(env)
				w, err2 := tc.want.Eval(env)
				if (err1 == nil) != (err2 == nil) || (err1 == nil && g.Cmp(w) != 0) {
					t.Fatalf("case %d: %s = %v (%v) at k=%d, P=%d; Fortran's %s = %v (%v)", i, tc.got, g, err1, kv, pv, tc.want, w, err2)
				}
			}
		}
	}
	if SurelyNonNegative(k.Sub(Int(1)), nonneg) || SurelyNonNegative(Floor(k.Div(Int(2))).Sub(k), nonneg) ||
		SurelyNonNegative(Mod(Sym("n"), Int(4)), nonneg) {
		t.Error("SurelyNonNegative shows what does not hold (or rests on a symbol not known non-negative)")
	}
}
