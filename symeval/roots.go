package symeval

import (
	"math"
	"math/big"

	"github.com/mkvet/mkvet/symbolic"
)

// Roots of constants: a process grid's side from cbrt(P) or P**(1.0/3.0),
// a block's from pow(n, 0.5). Real arithmetic is taken exactly (see the
// intrinsics): a root that is rational is that rational, which a program
// rounding with a small added constant (int(x + 0.5)) turns into the
// integer the run computes; an irrational root is the nearest float64, as
// the run's libm gives it within an ulp.

func init() {
	intrinsics["cbrt"] = intrinsic{1, func(a []symbolic.Expr) (symbolic.Expr, bool) {
		return constRoot(a[0], 1, 3)
	}}
}

// constRoot is x^(p/q) for a constant x and q >= 1; false where x is not
// a constant, or the power is not a real number.
func constRoot(x symbolic.Expr, p, q int64) (symbolic.Expr, bool) {
	c, ok := x.Const()
	if ok && q > 64 {
		// A double exponent written as a fraction (1.0/3.0, folded by
		// the compiler to the nearest double): the fraction.
		e := float64(p) / float64(q)
		for d := int64(2); d <= 12; d++ {
			if n := math.Round(e * float64(d)); float64(n)/float64(d) == e {
				p, q = int64(n), d
				break
			}
		}
	}
	if !ok || q < 1 {
		return symbolic.Expr{}, false
	}
	if q > 64 || p < -64 || p > 64 {
		return floatConst(math.Pow(c.Float64(), float64(p)/float64(q)))
	}
	if c.Sign() == 0 {
		if p <= 0 {
			return symbolic.Expr{}, false
		}
		return symbolic.Int(0), true
	}
	neg := c.Sign() < 0
	if neg && q%2 == 0 {
		return symbolic.Expr{}, false // an even root of a negative number
	}
	r := new(big.Rat).Abs(c.Big())
	num, okN := intRoot(r.Num(), q)
	den, okD := intRoot(r.Denom(), q)
	if okN && okD {
		root := symbolic.Const(symbolic.RatBig(new(big.Rat).SetFrac(num, den)))
		if neg {
			root = root.Neg()
		}
		if p < 0 {
			return symbolic.Int(1).Div(root).Pow(int(-p)), true
		}
		return root.Pow(int(p)), true
	}
	f, _ := r.Float64()
	v := math.Pow(f, float64(p)/float64(q))
	if q == 3 && p == 1 {
		v = math.Cbrt(f)
	}
	if neg {
		v = -v
	}
	return floatConst(v)
}

// floatConst is the exact value of the float v, false for an infinity or
// a NaN.
func floatConst(v float64) (symbolic.Expr, bool) {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return symbolic.Expr{}, false
	}
	return symbolic.Const(symbolic.RatBig(new(big.Rat).SetFloat64(v))), true
}

// intRoot is the q-th root of n >= 0 when n is a q-th power.
func intRoot(n *big.Int, q int64) (*big.Int, bool) {
	if n.Sign() == 0 || q == 1 {
		return new(big.Int).Set(n), true
	}
	// Bisection on [0, 2^(bits/q + 1)]: the numbers are small (a process
	// count, a mesh size).
	lo, hi := big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), uint(n.BitLen())/uint(q)+1)
	e := big.NewInt(q)
	for lo.Cmp(hi) < 0 {
		mid := new(big.Int).Add(lo, hi)
		mid.Rsh(mid, 1)
		m := new(big.Int).Exp(mid, e, nil)
		switch m.Cmp(n) {
		case 0:
			return mid, true
		case -1:
			lo = mid.Add(mid, big.NewInt(1))
		default:
			hi = mid
		}
	}
	return nil, false
}
