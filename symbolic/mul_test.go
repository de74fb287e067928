package symbolic

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMulMethodsAgree checks the dense and packed multiplications term for
// term against schoolbook multiplication and sorting, on operands with
// negative exponents, function atoms, fractions and coefficients beyond int64.
func TestMulMethodsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	atoms := []Expr{Sym("K"), Sym("N"), Sym("P"), Sym("me"), MustParse("floor(N/P)"), MustParse("min(N, 64)")}
	hv, _ := new(big.Rat).SetString("123456789012345678901234567890/7")
	huge := RatBig(hv)
	randTerm := func(natoms int) Expr {
		var c Rat
		switch r.IntN(8) {
		case 0:
			c = RatFrac(int64(r.IntN(19)-9), int64(r.IntN(6)+1))
		case 1:
			c = huge
		case 2:
			c = RatInt(1 << 40)
		default:
			c = RatInt(int64(r.IntN(19) - 9))
		}
		x := Const(c)
		for _, a := range atoms[:natoms] {
			if r.IntN(3) > 0 {
				x = x.Mul(a.Pow(r.IntN(8) - 3))
			}
		}
		return x
	}
	var dense, packed int
	for range 3000 {
		natoms := 1 + r.IntN(len(atoms))
		var e, f Expr
		for range 1 + r.IntN(30) {
			e = e.Add(randTerm(natoms))
		}
		for range 1 + r.IntN(30) {
			f = f.Add(randTerm(natoms))
		}
		if e.IsZero() || f.IsZero() {
			continue
		}
		want := Expr{t: schoolMul(e, f)}
		if ts, ok := denseMul(e, f); ok {
			dense++
			if got := (Expr{t: ts}); !got.Equal(want) {
				t.Fatalf("dense (%v)*(%v):\n got %v\nwant %v", e, f, got, want)
			}
		}
		if ts, ok := packedMul(e, f); ok {
			packed++
			if got := (Expr{t: ts}); !got.Equal(want) {
				t.Fatalf("packed (%v)*(%v):\n got %v\nwant %v", e, f, got, want)
			}
		}
	}
	if dense < 1000 || packed < 1000 {
		t.Fatalf("too few cases exercised: dense %d, packed %d", dense, packed)
	}
}

// TestCoeffsCanonical checks Coeffs on random expressions: the coefficients
// recombine to the expression, none mentions the symbol, and each is in
// canonical form (term for term what summing its terms one by one gives),
// which Coeffs relies on the monomial order for instead of sorting; Linear
// agrees with Coeffs.
func TestCoeffsCanonical(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	checked := 0
	for range 3000 {
		e := build(genTree(r, 4))
		for _, x := range treeSyms {
			cs, ok := e.Coeffs(x)
			if !ok {
				continue
			}
			checked++
			a, b, lin := e.Linear(x)
			_, hasSq := cs[2]
			wantLin := true
			for k := range cs {
				wantLin = wantLin && (k == 0 || k == 1)
			}
			if lin != wantLin || lin && (!Equal(a, cs[1]) || !Equal(b, cs[0])) {
				t.Fatalf("%s: Linear(%s) = %s, %s, %v; Coeffs %v (x^2: %v)", e, x, a, b, lin, cs, hasSq)
			}
			var back Expr
			for k, c := range cs {
				if c.Has(x) {
					t.Fatalf("%s: coefficient of %s^%d is %s", e, x, k, c)
				}
				var parts []Expr
				for _, tm := range c.t {
					parts = append(parts, Expr{t: []term{tm}})
				}
				if canon := Sum(parts...); !slices.EqualFunc(canon.t, c.t, func(a, b term) bool {
					return a.c.Cmp(b.c) == 0 && monoEqual(a.m, b.m)
				}) {
					t.Fatalf("%s: coefficient of %s^%d is %v, not canonical (%s)", e, x, k, c.t, canon)
				}
				back = back.Add(c.Mul(Sym(x).Pow(k)))
			}
			if !Equal(back, e) {
				t.Fatalf("%s: coefficients of %s recombine to %s", e, x, back)
			}
		}
	}
	if checked < 3000 {
		t.Fatalf("only %d expressions had coefficients", checked)
	}
}
