package symbolic

import (
	"math/big"
	"strings"
)

// end is an interval endpoint: a rational, or an infinity (inf = -1 or +1).
type end struct {
	v   Rat
	inf int8
}

func (x end) isFinite() bool { return x.inf == 0 }

// ival is a closed interval [lo, hi] over the extended rationals.
type ival struct {
	lo, hi end
}

// finite view used by the prover: lo.finite reports a finite lower end.
type endView struct {
	v      Rat
	finite bool
}

type ivalView struct{ lo, hi endView }

var whole = ival{lo: end{inf: -1}, hi: end{inf: 1}}

func point(r Rat) ival { return ival{lo: end{v: r}, hi: end{v: r}} }

func (iv ival) view() ivalView {
	return ivalView{lo: endView{v: iv.lo.v, finite: iv.lo.isFinite()}, hi: endView{v: iv.hi.v, finite: iv.hi.isFinite()}}
}

func addEnd(x, y end) end {
	if x.inf != 0 {
		return x
	}
	if y.inf != 0 {
		return y
	}
	return end{v: x.v.Add(y.v)}
}

func (a ival) add(b ival) ival {
	return ival{lo: addEnd(a.lo, b.lo), hi: addEnd(a.hi, b.hi)}
}

// mulEnd multiplies endpoints with 0 * inf = 0: at a closed interval's finite
// end 0 the product is exactly 0.
func mulEnd(x, y end) end {
	sx, sy := x.sign(), y.sign()
	if sx == 0 || sy == 0 {
		return end{}
	}
	if x.inf != 0 || y.inf != 0 {
		return end{inf: int8(sx * sy)}
	}
	return end{v: x.v.Mul(y.v)}
}

func (x end) sign() int {
	if x.inf != 0 {
		return int(x.inf)
	}
	return x.v.Sign()
}

func cmpEnd(x, y end) int {
	if x.inf != 0 || y.inf != 0 {
		switch {
		case x.inf < y.inf:
			return -1
		case x.inf > y.inf:
			return 1
		}
		if x.inf != 0 {
			return 0
		}
		// one of them is finite and the other is not: handled above
	}
	return x.v.Cmp(y.v)
}

func (a ival) mul(b ival) ival {
	ps := [4]end{mulEnd(a.lo, b.lo), mulEnd(a.lo, b.hi), mulEnd(a.hi, b.lo), mulEnd(a.hi, b.hi)}
	lo, hi := ps[0], ps[0]
	for _, p := range ps[1:] {
		if cmpEnd(p, lo) < 0 {
			lo = p
		}
		if cmpEnd(p, hi) > 0 {
			hi = p
		}
	}
	return ival{lo: lo, hi: hi}
}

// inv returns 1/a when 0 is not in a.
func (a ival) inv() (ival, bool) {
	// Both ends strictly on one side of 0 (an empty interval, from contradictory
	// bounds, may have a zero end and is left alone).
	if a.lo.sign() > 0 && a.hi.sign() > 0 || a.lo.sign() < 0 && a.hi.sign() < 0 {
		f := func(x end) end {
			if x.inf != 0 {
				return end{}
			}
			return end{v: x.v.Inv()}
		}
		return ival{lo: f(a.hi), hi: f(a.lo)}, true
	}
	return whole, false
}

func (a ival) pow(k int) ival {
	if k < 0 {
		b, ok := a.inv()
		if !ok {
			return whole
		}
		return b.pow(-k)
	}
	if k == 0 {
		return point(RatInt(1))
	}
	if k%2 == 0 && a.lo.sign() < 0 && a.hi.sign() > 0 {
		m := a.hi
		if cmpEnd(neg(a.lo), m) > 0 {
			m = neg(a.lo)
		}
		return ival{lo: end{}, hi: powEnd(m, k)}
	}
	x, y := powEnd(a.lo, k), powEnd(a.hi, k)
	if cmpEnd(x, y) > 0 {
		x, y = y, x
	}
	return ival{lo: x, hi: y}
}

func neg(x end) end {
	if x.inf != 0 {
		return end{inf: -x.inf}
	}
	return end{v: x.v.Neg()}
}

func powEnd(x end, k int) end {
	if x.inf != 0 {
		if k%2 == 0 {
			return end{inf: 1}
		}
		return x
	}
	return end{v: x.v.PowInt(k)}
}

// monotone applies a non-decreasing function to both ends.
func (a ival) monotone(f func(Rat) Rat) ival {
	g := func(x end) end {
		if x.inf != 0 {
			return x
		}
		return end{v: f(x.v)}
	}
	return ival{lo: g(a.lo), hi: g(a.hi)}
}

// interval returns an interval containing every value of e under the bounds.
func (b *bounds) interval(e Expr) ivalView { return b.ival(e, 0).view() }

func (b *bounds) atomInterval(a *atom) ivalView { return b.atomIval(a, 0).view() }

const maxIntervalDepth = 4

func (b *bounds) ival(e Expr, depth int) ival {
	sum := point(Rat{})
	for _, t := range e.t {
		p := point(t.c)
		for _, f := range t.m {
			p = p.mul(b.atomIval(f.a, depth).pow(int(f.e)))
		}
		sum = sum.add(p)
	}
	return sum
}

func (b *bounds) atomIval(a *atom, depth int) ival {
	if depth > maxIntervalDepth {
		return whole
	}
	switch a.kind {
	case kSym:
		if iv, ok := b.memoized(a); ok {
			return iv
		}
		iv := b.symIval(a, depth)
		b.memoize(a, iv)
		return iv
	case kConst:
		return ival{lo: end{v: RatFrac(69, 100)}, hi: end{v: RatFrac(7, 10)}}
	case kRecip:
		return b.ival(a.args[0], depth+1)
	}
	x := b.ival(a.args[0], depth+1)
	switch a.kind {
	case kFloor:
		return x.monotone(Rat.Floor)
	case kTrunc:
		return x.monotone(Rat.Trunc)
	case kMin, kMax:
		iv := x
		for _, arg := range a.args[1:] {
			y := b.ival(arg, depth+1)
			if a.kind == kMin {
				if cmpEnd(y.lo, iv.lo) < 0 {
					iv.lo = y.lo
				}
				if cmpEnd(y.hi, iv.hi) < 0 {
					iv.hi = y.hi
				}
			} else {
				if cmpEnd(y.lo, iv.lo) > 0 {
					iv.lo = y.lo
				}
				if cmpEnd(y.hi, iv.hi) > 0 {
					iv.hi = y.hi
				}
			}
		}
		return iv
	case kLog2:
		if x.lo.sign() <= 0 {
			return whole
		}
		return x.monotone(func(r Rat) Rat { return RatInt(int64(floorLog2(r))) }).widenHi(1)
	case kSqrt:
		if x.lo.sign() < 0 {
			return ival{lo: end{}, hi: whole.hi}
		}
		return x.monotone(floorSqrt).widenHi(1)
	}
	return whole
}

// symIval bounds a symbol by its constant and symbolic bounds. A symbol met
// again while its own interval is being computed (cyclic bounds) counts as
// unbounded there, which is sound.
func (b *bounds) symIval(a *atom, depth int) ival {
	if strings.HasPrefix(a.name, "\x01") {
		return ival{hi: end{inf: 1}} // a shifter's x' >= 0 (see shifter)
	}
	b.memoize(a, whole) // in progress
	if v, ok := b.eq[a.name]; ok {
		return b.ival(v, depth+1)
	}
	iv := whole
	for _, lo := range b.lower[a.name] {
		if l := b.ival(lo, depth+1).lo; cmpEnd(l, iv.lo) > 0 {
			iv.lo = l
		}
	}
	for _, hi := range b.upper[a.name] {
		if h := b.ival(hi, depth+1).hi; cmpEnd(h, iv.hi) < 0 {
			iv.hi = h
		}
	}
	if a.integer {
		if iv.lo.isFinite() && !iv.lo.v.IsInt() {
			iv.lo.v = iv.lo.v.Floor().Add(RatInt(1))
		}
		if iv.hi.isFinite() {
			iv.hi.v = iv.hi.v.Floor()
		}
	}
	return iv
}

// widenHi adds d to a finite upper end (floor-based ends bound from below only).
func (a ival) widenHi(d int64) ival {
	if a.hi.isFinite() {
		a.hi.v = a.hi.v.Add(RatInt(d))
	}
	return a
}

// floorLog2 returns floor(log2(r)) for r > 0.
func floorLog2(r Rat) int {
	n, d := r.Num(), r.Den()
	k := n.BitLen() - d.BitLen()
	// 2^k <= n/d < 2^(k+1) or off by one; adjust exactly.
	for {
		lo := RatInt(2).PowInt(k)
		if lo.Cmp(r) > 0 {
			k--
			continue
		}
		if RatInt(2).PowInt(k+1).Cmp(r) <= 0 {
			k++
			continue
		}
		return k
	}
}

// floorSqrt returns floor(sqrt(r)) for r >= 0.
func floorSqrt(r Rat) Rat {
	f := r.Floor()
	n := f.Num()
	return ratFromBig(new(big.Rat).SetInt(new(big.Int).Sqrt(n)))
}
