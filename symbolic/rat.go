package symbolic

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// Rat is an exact rational number. Small values live in two machine words; a value
// that no longer fits moves to a *big.Rat, so arithmetic never overflows or rounds.
// The zero value is 0. Rats are immutable: operations return new values.
type Rat struct {
	// Small form (b == nil): the value is n/d with d > 0 and gcd(|n|, d) == 1.
	// d == 0 stands for 1 so that the zero value is the number 0.
	n, d int64
	b    *big.Rat // big form; never mutated after creation
}

// RatInt returns the integer n as a Rat.
func RatInt(n int64) Rat { return Rat{n: n, d: 1} }

// RatFrac returns n/d. It panics if d is zero.
func RatFrac(n, d int64) Rat {
	if d == 0 {
		panic("symbolic: RatFrac with zero denominator")
	}
	if d < 0 {
		if n == math.MinInt64 || d == math.MinInt64 {
			return ratFromBig(new(big.Rat).SetFrac(big.NewInt(n), big.NewInt(d)))
		}
		n, d = -n, -d
	}
	g := gcd64(abs64(n), uint64(d))
	if g > 1 {
		n /= int64(g)
		d /= int64(g)
	}
	return Rat{n: n, d: d}
}

// RatBig returns the value of r as a Rat. r is copied.
func RatBig(r *big.Rat) Rat { return ratFromBig(new(big.Rat).Set(r)) }

// ratFromBig takes ownership of r and returns the small form when it fits.
func ratFromBig(r *big.Rat) Rat {
	if r.Num().IsInt64() && r.Denom().IsInt64() {
		n, d := r.Num().Int64(), r.Denom().Int64()
		if n != math.MinInt64 {
			return Rat{n: n, d: d}
		}
	}
	return Rat{b: r}
}

func (r Rat) den() int64 {
	if r.d == 0 {
		return 1
	}
	return r.d
}

// Big returns r as a new *big.Rat.
func (r Rat) Big() *big.Rat {
	if r.b != nil {
		return new(big.Rat).Set(r.b)
	}
	return new(big.Rat).SetFrac64(r.n, r.den())
}

// bigView returns r as a *big.Rat that the caller must not modify.
func (r Rat) bigView() *big.Rat {
	if r.b != nil {
		return r.b
	}
	return new(big.Rat).SetFrac64(r.n, r.den())
}

// Sign returns -1, 0 or +1.
func (r Rat) Sign() int {
	if r.b != nil {
		return r.b.Sign()
	}
	switch {
	case r.n < 0:
		return -1
	case r.n > 0:
		return 1
	}
	return 0
}

// IsZero reports whether r == 0.
func (r Rat) IsZero() bool { return r.b == nil && r.n == 0 || r.b != nil && r.b.Sign() == 0 }

// IsInt reports whether r is an integer.
func (r Rat) IsInt() bool {
	if r.b != nil {
		return r.b.IsInt()
	}
	return r.den() == 1
}

// IsOne reports whether r == 1.
func (r Rat) IsOne() bool { return r.b == nil && r.n == 1 && r.den() == 1 }

// Int64 returns r as an int64 and whether r is an integer that fits.
func (r Rat) Int64() (int64, bool) {
	if r.b != nil {
		if r.b.IsInt() && r.b.Num().IsInt64() {
			return r.b.Num().Int64(), true
		}
		return 0, false
	}
	return r.n, r.den() == 1
}

// Num and Den return the numerator and the (positive) denominator of r.
func (r Rat) Num() *big.Int {
	if r.b != nil {
		return new(big.Int).Set(r.b.Num())
	}
	return big.NewInt(r.n)
}

// Den returns the positive denominator of r.
func (r Rat) Den() *big.Int {
	if r.b != nil {
		return new(big.Int).Set(r.b.Denom())
	}
	return big.NewInt(r.den())
}

// Float64 returns the nearest float64 to r.
func (r Rat) Float64() float64 {
	if r.b != nil {
		f, _ := r.b.Float64()
		return f
	}
	if d := r.den(); d == 1 {
		return float64(r.n)
	} else if abs64(r.n) < 1<<53 && d < 1<<53 {
		return float64(r.n) / float64(d) // both exact, one rounding
	}
	f, _ := r.bigView().Float64()
	return f
}

// Cmp compares r and s: -1 if r < s, 0 if equal, +1 if r > s.
func (r Rat) Cmp(s Rat) int {
	if r.b == nil && s.b == nil {
		rd, sd := r.den(), s.den()
		if rd == 1 && sd == 1 {
			switch {
			case r.n < s.n:
				return -1
			case r.n > s.n:
				return 1
			}
			return 0
		}
		// Compare r.n*sd with s.n*rd in 128 bits.
		return cmp128(mul128(r.n, sd), mul128(s.n, rd))
	}
	return r.bigView().Cmp(s.bigView())
}

// Equal reports whether r == s.
func (r Rat) Equal(s Rat) bool {
	if r.b == nil && s.b == nil {
		return r.n == s.n && r.den() == s.den()
	}
	return r.Cmp(s) == 0
}

// Neg returns -r.
func (r Rat) Neg() Rat {
	if r.b == nil && r.n != math.MinInt64 {
		return Rat{n: -r.n, d: r.d}
	}
	return ratFromBig(new(big.Rat).Neg(r.bigView()))
}

// Abs returns |r|.
func (r Rat) Abs() Rat {
	if r.Sign() < 0 {
		return r.Neg()
	}
	return r
}

// Add returns r + s.
func (r Rat) Add(s Rat) Rat {
	if r.b == nil && s.b == nil {
		if v, ok := addSmall(r.n, r.den(), s.n, s.den()); ok {
			return v
		}
	}
	return ratFromBig(new(big.Rat).Add(r.bigView(), s.bigView()))
}

// addSmall adds a/b + c/d in int64 (Knuth 4.5.1: with g = gcd(b, d) the sum is
// (a*(d/g) + c*(b/g)) / (b*(d/g)), and only gcd(numerator, g) can cancel).
func addSmall(a, b, c, d int64) (Rat, bool) {
	if b == 1 && d == 1 {
		if v := a + c; (v^a)&(v^c) >= 0 {
			return Rat{n: v, d: 1}, true
		}
		return Rat{}, false
	}
	g := int64(gcd64(uint64(b), uint64(d)))
	x, ok1 := mul64(a, d/g)
	y, ok2 := mul64(c, b/g)
	den, ok3 := mul64(b, d/g)
	if !ok1 || !ok2 || !ok3 {
		return Rat{}, false
	}
	num := x + y
	if (num^x)&(num^y) < 0 || num == math.MinInt64 {
		return Rat{}, false
	}
	if t := int64(gcd64(abs64(num), uint64(g))); t > 1 {
		num /= t
		den /= t
	}
	if num == 0 {
		return Rat{n: 0, d: 1}, true
	}
	return Rat{n: num, d: den}, true
}

// Sub returns r - s.
func (r Rat) Sub(s Rat) Rat { return r.Add(s.Neg()) }

// Mul returns r * s.
func (r Rat) Mul(s Rat) Rat {
	if r.b == nil && s.b == nil {
		rd, sd := r.den(), s.den()
		if rd == 1 && sd == 1 {
			if p, ok := mul64(r.n, s.n); ok {
				return Rat{n: p, d: 1}
			}
		} else {
			// Cross-cancel first, so the products are already in lowest terms.
			a, b, c, d := r.n, rd, s.n, sd
			if g := int64(gcd64(abs64(a), uint64(d))); g > 1 {
				a, d = a/g, d/g
			}
			if g := int64(gcd64(abs64(c), uint64(b))); g > 1 {
				c, b = c/g, b/g
			}
			n, ok1 := mul64(a, c)
			den, ok2 := mul64(b, d)
			if ok1 && ok2 && n != math.MinInt64 {
				return Rat{n: n, d: den}
			}
		}
	}
	return ratFromBig(new(big.Rat).Mul(r.bigView(), s.bigView()))
}

// Inv returns 1/r. It panics if r is zero.
func (r Rat) Inv() Rat {
	if r.IsZero() {
		panic("symbolic: division by zero")
	}
	if r.b == nil {
		return RatFrac(r.den(), r.n)
	}
	return ratFromBig(new(big.Rat).Inv(r.b))
}

// Quo returns r / s. It panics if s is zero.
func (r Rat) Quo(s Rat) Rat { return r.Mul(s.Inv()) }

// Floor returns the largest integer not above r.
func (r Rat) Floor() Rat {
	if r.b == nil {
		d := r.den()
		if d == 1 {
			return r
		}
		q := r.n / d
		if r.n < 0 {
			q-- // r is not an integer, so truncation went up
		}
		return RatInt(q)
	}
	q := new(big.Int)
	m := new(big.Int)
	q.DivMod(r.b.Num(), r.b.Denom(), m) // Euclidean: m >= 0, so q is the floor for d > 0
	return ratFromBig(new(big.Rat).SetInt(q))
}

// Trunc returns r rounded toward zero.
func (r Rat) Trunc() Rat {
	if r.Sign() < 0 {
		return r.Neg().Floor().Neg()
	}
	return r.Floor()
}

// PowInt returns r**k for any integer k (r must be non-zero when k < 0).
func (r Rat) PowInt(k int) Rat {
	if k < 0 {
		return r.Inv().PowInt(-k)
	}
	res := RatInt(1)
	base := r
	for k > 0 {
		if k&1 == 1 {
			res = res.Mul(base)
		}
		k >>= 1
		if k > 0 {
			base = base.Mul(base)
		}
	}
	return res
}

// String formats r as "n" or "n/d".
func (r Rat) String() string {
	if r.b != nil {
		return r.b.RatString()
	}
	if d := r.den(); d != 1 {
		return strconv.FormatInt(r.n, 10) + "/" + strconv.FormatInt(d, 10)
	}
	return strconv.FormatInt(r.n, 10)
}

func abs64(x int64) uint64 {
	if x < 0 {
		return uint64(-x) // MinInt64 maps to 1<<63, which is right as uint64
	}
	return uint64(x)
}

func gcd64(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// mul64 returns a*b and whether it did not overflow.
func mul64(a, b int64) (int64, bool) {
	if a == int64(int32(a)) && b == int64(int32(b)) {
		return a * b, true // |a*b| <= 2^62
	}
	hi, lo := bits.Mul64(abs64(a), abs64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if (a < 0) != (b < 0) {
		return -int64(lo), true
	}
	return int64(lo), true
}

type i128 struct {
	neg    bool
	hi, lo uint64
}

func mul128(a, b int64) i128 {
	hi, lo := bits.Mul64(abs64(a), abs64(b))
	return i128{neg: (a < 0) != (b < 0) && (hi|lo) != 0, hi: hi, lo: lo}
}

func cmp128(x, y i128) int {
	if x.neg != y.neg {
		if x.neg {
			return -1
		}
		return 1
	}
	c := 0
	switch {
	case x.hi != y.hi:
		c = cmpU(x.hi, y.hi)
	default:
		c = cmpU(x.lo, y.lo)
	}
	if x.neg {
		return -c
	}
	return c
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
