package symbolic

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestEvalIntFastPath: at 10,000 random expressions (floors, mods, min, max,
// division by positive symbols) and integer points, the int64 path of
// EvalInt gives exactly the value of the exact Rat path, or defers to it.
func TestEvalIntFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	fast := 0
	for i := range 10000 {
		_, boxes := genAssumptions(r)
		e := genSignExpr(r, boxes, 4)
		f, err := e.Compile(proveSyms)
		if err != nil {
			t.Fatal(err)
		}
		pt := make([]int64, len(proveSyms))
		rv := make([]Rat, len(proveSyms))
		for k, s := range proveSyms {
			b := boxes[s]
			pt[k] = b.lo + r.Int64N(b.hi-b.lo+1)
			rv[k] = RatInt(pt[k])
		}
		want, errWant := f.Eval(rv)
		got, errGot := f.EvalInt(pt)
		if (errWant == nil) != (errGot == nil) || errWant == nil && got.Cmp(want) != 0 {
			t.Fatalf("case %d: %s at %v: EvalInt %s (%v), Eval %s (%v)", i, e, pt, got, errGot, want, errWant)
		}
		if _, _, ok := f.evalQ64(pt, &q64cache{}); ok {
			fast++
		}
	}
	t.Logf("%d of 10000 evaluations took the int64 path", fast)
	if fast < 3000 {
		t.Errorf("only %d evaluations took the int64 path", fast)
	}
}

// TestFloorOfIrrationalConstant checks the floors and truncations of
// symbol-free irrational values (INT(SQRT(DBLE(P)) + 0.001) at a given P,
// LOG(x)/LOG(2) + 1e-5) against 256-bit big.Float arithmetic, which is an
// oracle outside the float64 path under test.
func TestFloorOfIrrationalConstant(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	const prec = 256
	folded := 0
	for i := 0; i < 3000; i++ {
		a := 1 + rng.Int64N(5000)
		num := rng.Int64N(2001) - 1000
		b := big.NewRat(num, 1000)
		var e Expr
		var want *big.Float
		bf := new(big.Float).SetPrec(prec).SetRat(b)
		if i%2 == 0 {
			e = Sqrt(Int(a)).Add(Const(ratFromBig(b)))
			s := new(big.Float).SetPrec(prec).SetInt64(a)
			s.Sqrt(s)
			want = s.Add(s, bf)
		} else {
			// log2(a) = ln(a)/ln(2): bits of the integer part plus the
			// log of the mantissa, computed with big.Float by repeated
			// squaring (Feynman's algorithm is overkill; 256 bits of
			// squaring give far more than the 1e-9 margin needs).
			e = Log2(Int(a)).Add(Const(ratFromBig(b)))
			want = new(big.Float).SetPrec(prec).Add(bigLog2(a, prec), bf)
		}
		fl, _ := new(big.Float).SetPrec(prec).Set(want).Int(nil)
		if want.Sign() < 0 && new(big.Float).SetPrec(prec).SetInt(fl).Cmp(want) != 0 {
			fl.Sub(fl, big.NewInt(1)) // Int truncates; floor goes down
		}
		got := Floor(e)
		if c, ok := got.Const(); ok {
			folded++
			if c.Num().Cmp(fl) != 0 || !c.IsInt() {
				t.Fatalf("floor(%s) = %s, want %s", e, c, fl)
			}
		}
		tr := Trunc(e)
		if c, ok := tr.Const(); ok {
			wt, _ := new(big.Float).SetPrec(prec).Set(want).Int(nil)
			if c.Num().Cmp(wt) != 0 {
				t.Fatalf("trunc(%s) = %s, want %s", e, c, wt)
			}
		}
	}
	if folded < 2500 {
		t.Errorf("only %d of 3000 floors folded", folded)
	}
}

// bigLog2 returns log2(a) to prec bits by the binary digit method: the
// integer part is the bit length, then each squaring of the mantissa in
// [1, 2) yields one more bit.
func bigLog2(a int64, prec uint) *big.Float {
	n := 63 - bits.LeadingZeros64(uint64(a))
	m := new(big.Float).SetPrec(prec).SetInt64(a)
	m.SetMantExp(m, -n) // a / 2^n in [1, 2)
	res := new(big.Float).SetPrec(prec).SetInt64(int64(n))
	bit := new(big.Float).SetPrec(prec).SetFloat64(0.5)
	two := new(big.Float).SetPrec(prec).SetInt64(2)
	for i := 0; i < 80; i++ {
		m.Mul(m, m)
		if m.Cmp(two) >= 0 {
			m.Quo(m, two)
			res.Add(res, bit)
		}
		bit.Quo(bit, two)
	}
	return res
}

// TestValueIntZeroDivisors: at random expressions that divide by sums
// which vanish at some points (floor((a*x + b)/(y - c)), (x - y)^-1 inside
// min and max), valueInt has a value exactly where the exact Rat path has
// one, and the same value (and EvalInt the same error); most points
// without one are answered on the int64 path.
func TestValueIntZeroDivisors(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 29))
	vars := []string{"x", "y", "z"}
	sym := func() Expr { return Sym(vars[r.IntN(len(vars))]) }
	var gen func(depth int) Expr
	gen = func(depth int) Expr {
		if depth == 0 {
			return sym().Scale(RatInt(int64(r.IntN(5) - 2))).Add(Int(int64(r.IntN(7) - 3)))
		}
		a, b := gen(depth-1), gen(depth-1)
		switch r.IntN(6) {
		case 0:
			return Floor(a.Div(sym().Add(Int(int64(r.IntN(5) - 2)))))
		case 5:
			return Floor(a.Div(sym())).Add(b)
		case 1:
			return Min(a, b.Div(Sym("x").Sub(Sym("y"))))
		case 2:
			return Max(a, Floor(b.Div(Int(int64(r.IntN(3)+2)))))
		case 3:
			return a.Mul(b)
		}
		return a.Add(b.Div(sym().Add(Int(int64(r.IntN(3) - 1)))))
	}
	none, fastNone := 0, 0
	for i := range 20000 {
		e := gen(1 + r.IntN(3))
		f, err := e.Compile(vars)
		if err != nil {
			t.Fatal(err)
		}
		pt := make([]int64, len(vars))
		rv := make([]Rat, len(vars))
		for k := range vars {
			pt[k] = int64(r.IntN(7) - 3)
			rv[k] = RatInt(pt[k])
		}
		want, errWant := f.Eval(rv)
		got, ok := f.valueInt(pt)
		if ok != (errWant == nil) || ok && got.Cmp(want) != 0 {
			t.Fatalf("case %d: %s at %v: valueInt %s (%v), Eval %s (%v)", i, e, pt, got, ok, want, errWant)
		}
		// EvalInt still reports the exact path's error.
		if gotE, errE := f.EvalInt(pt); (errE == nil) != (errWant == nil) || errE != nil && errE.Error() != errWant.Error() ||
			errE == nil && gotE.Cmp(want) != 0 {
			t.Fatalf("case %d: %s at %v: EvalInt %s (%v), Eval %s (%v)", i, e, pt, gotE, errE, want, errWant)
		}
		if !ok {
			none++
			var c q64cache
			if _, _, fast := f.evalQ64(pt, &c); !fast && c.zeroDiv {
				fastNone++
			}
		}
	}
	t.Logf("%d points without a value, %d of them answered on the int64 path", none, fastNone)
	if none < 1000 || fastNone < none/2 {
		t.Errorf("%d points without a value, %d answered on the int64 path: the test no longer exercises it", none, fastNone)
	}
}
