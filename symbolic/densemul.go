package symbolic

import (
	"math/bits"
	"slices"
	"sync"
)

// Dense multiplication. When the exponent box of the product is small, every
// product monomial has a slot in a dense array: with atom k ranging over
// [loA_k, hiA_k] in e and [loB_k, hiB_k] in f, the product's exponent lies in
// [loA_k+loB_k, hiA_k+hiB_k], and with mixed-radix strides (earliest atom most
// significant) the slot of x*y is ia[x] + ib[y], one addition per term pair.
// The slot alone determines the monomial, so the terms are then read out in
// canonical order (higher total degree first, then lexicographically) by
// walking, for each degree, the exponent vectors of that degree inside the box
// from the largest down: no comparisons, no sorting, and sequential writes.
const maxDenseSlots = 1 << 16

// maxDenseAtoms bounds the atoms of a dense product (the exponent vectors are
// fixed-size arrays).
const maxDenseAtoms = 8

type expVec [maxDenseAtoms]int32

// mulScratch holds a dense product's working arrays, none of which the
// product keeps. They are reused from product to product, so that a product
// allocates little more than its terms and their factors; in a loop of
// products that also means fewer collections.
type mulScratch struct {
	va, vb []expVec
	ia, ib []int32
	ne, nf []int64
	ai     []int64
	occ    []uint64
	found  []int32
}

var mulScratchPool = sync.Pool{New: func() any { return new(mulScratch) }}

// zeroed returns s resized to n zero elements, reusing its array if it can.
func zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func denseMul(e, f Expr) ([]term, bool) {
	var atomsBuf [maxDenseAtoms]*atom
	atoms := atomsBuf[:0]
	for _, x := range [2]Expr{e, f} {
		for _, t := range x.t {
			for _, fa := range t.m {
				if !slices.Contains(atoms, fa.a) {
					if len(atoms) == maxDenseAtoms {
						return nil, false
					}
					atoms = append(atoms, fa.a)
				}
			}
		}
	}
	slices.SortFunc(atoms, cmpAtom)
	n := len(atoms)
	sc := mulScratchPool.Get().(*mulScratch)
	defer mulScratchPool.Put(sc)
	vectors := func(out []expVec, x Expr) []expVec {
		out = zeroed(out, len(x.t))
		for i, t := range x.t {
			for _, fa := range t.m {
				out[i][slices.Index(atoms, fa.a)] = fa.e
			}
		}
		return out
	}
	sc.va, sc.vb = vectors(sc.va, e), vectors(sc.vb, f)
	va, vb := sc.va, sc.vb
	var loA, hiA, loB, hiB expVec
	bounds := func(vs []expVec, lo, hi *expVec) {
		*lo, *hi = vs[0], vs[0]
		for _, v := range vs[1:] {
			for k := range n {
				lo[k], hi[k] = min(lo[k], v[k]), max(hi[k], v[k])
			}
		}
	}
	bounds(va, &loA, &hiA)
	bounds(vb, &loB, &hiB)
	var b expBox
	b.n = n
	slots := 1
	for k := n - 1; k >= 0; k-- {
		b.stride[k] = slots
		b.lo[k], b.hi[k] = loA[k]+loB[k], hiA[k]+hiB[k]
		width := int(b.hi[k]-b.lo[k]) + 1
		if width > maxDenseSlots || slots*width > maxDenseSlots || slots*width > max(4*len(e.t)*len(f.t), 4096) {
			return nil, false
		}
		slots *= width
	}
	index := func(out []int32, vs []expVec, lo *expVec) []int32 {
		out = zeroed(out, len(vs))
		for i, v := range vs {
			s := 0
			for k := range n {
				s += int(v[k]-lo[k]) * b.stride[k]
			}
			out[i] = int32(s)
		}
		return out
	}
	sc.ia, sc.ib = index(sc.ia, va, &loA), index(sc.ib, vb, &loB)
	ia, ib := sc.ia, sc.ib
	// Exactly one of ai (int64 sums over the denominator den) and acc (exact
	// sums) is set.
	ai, den, ok := sc.accumulateInts(e, f, ia, ib, slots)
	var acc []Rat
	if !ok {
		ai = nil
		acc = accumulateRats(e, f, ia, ib, slots)
	}
	sc.occ = zeroed(sc.occ, (slots+63)/64)
	occ := sc.occ
	if ai != nil {
		for s, x := range ai {
			if x != 0 {
				occ[uint(s)/64] |= 1 << (uint(s) % 64)
			}
		}
	} else {
		for s := range acc {
			if !acc[s].IsZero() {
				occ[uint(s)/64] |= 1 << (uint(s) % 64)
			}
		}
	}
	found, nfactors := b.walk(sc.found[:0], occ)
	sc.found = found
	ts := make([]term, len(found))
	backing := make([]factor, nfactors)
	// The fields are stored one by one: assigning a whole term would copy it
	// with a bulk write barrier while a collection runs.
	next := 0
	for i, s := range found {
		t := &ts[i]
		switch {
		case ai == nil:
			t.c = acc[s]
		case den == 1:
			t.c.n, t.c.d = ai[s], 1
		default:
			t.c = RatFrac(ai[s], den)
		}
		start := next
		r := uint32(s)
		for k := range n {
			st := uint32(b.stride[k])
			q := r / st
			r -= q * st
			if ek := b.lo[k] + int32(q); ek != 0 {
				backing[next] = factor{atoms[k], ek}
				next++
			}
		}
		t.m = backing[start:next:next]
	}
	return ts, true
}

// expBox is the exponent box [lo, hi] of a dense product with its mixed-radix
// strides (atom 0 most significant).
type expBox struct {
	n      int
	lo, hi expVec
	stride [maxDenseAtoms]int
}

// walk returns the slots set in occ in canonical monomial order (total degree
// from the highest down, and within a degree lexicographically from the
// largest), and the number of non-zero exponents in their vectors.
func (b *expBox) walk(found []int32, occ []uint64) ([]int32, int) {
	nfactors := 0
	set := func(s int) bool { return occ[uint(s)/64]&(1<<(uint(s)%64)) != 0 }
	n := b.n
	switch n {
	case 0:
		if set(0) {
			found = append(found, 0)
		}
		return found, 0
	case 1:
		for x := b.hi[0]; x >= b.lo[0]; x-- {
			if s := int(x - b.lo[0]); set(s) {
				found = append(found, int32(s))
				if x != 0 {
					nfactors++
				}
			}
		}
		return found, nfactors
	}
	// restLo[k], restHi[k]: the least and greatest sum of exponents k..n-1.
	var restLo, restHi [maxDenseAtoms + 1]int32
	for k := n - 1; k >= 0; k-- {
		restLo[k] = restLo[k+1] + b.lo[k]
		restHi[k] = restHi[k+1] + b.hi[k]
	}
	var v expVec
	var rem [maxDenseAtoms]int32 // rem[k]: the degree left for atoms k..n-1
	var base [maxDenseAtoms]int  // base[k]: the slot offset of atoms 0..k-1
	var nz [maxDenseAtoms]int    // nz[k]: the non-zero exponents among atoms 0..k-1
	// Atoms 0..n-3 are an odometer; atoms n-2 and n-1 are walked by the
	// inner loop, the last exponent being what the degree leaves.
	top := func(k int) int32 { return min(b.hi[k], rem[k]-restLo[k+1]) }
	bottom := func(k int) int32 { return max(b.lo[k], rem[k]-restHi[k+1]) }
	p, q := n-2, n-1
	for d := restHi[0]; d >= restLo[0]; d-- {
		rem[0] = d
		k := 0
		v[0] = top(0)
		for {
			for k < p {
				rem[k+1] = rem[k] - v[k]
				base[k+1] = base[k] + int(v[k]-b.lo[k])*b.stride[k]
				nz[k+1] = nz[k]
				if v[k] != 0 {
					nz[k+1]++
				}
				k++
				v[k] = top(k)
			}
			// k == p: walk x = v[p] down; the last exponent is rem[p] - x.
			for x := top(p); x >= bottom(p); x-- {
				y := rem[p] - x
				s := base[p] + int(x-b.lo[p])*b.stride[p] + int(y-b.lo[q])
				if set(s) {
					found = append(found, int32(s))
					nfactors += nz[p]
					if x != 0 {
						nfactors++
					}
					if y != 0 {
						nfactors++
					}
				}
			}
			// Step the odometer: lower the deepest exponent above p that
			// can go lower.
			k--
			for k >= 0 && v[k] <= bottom(k) {
				k--
			}
			if k < 0 {
				break
			}
			v[k]--
		}
	}
	return found, nfactors
}

// accumulateInts sums the coefficient products into dense slots in int64: the
// coefficients are scaled to integers over common denominators (den), and the
// sums hold no pointers, so no GC write barriers. ok is false on overflow.
func (sc *mulScratch) accumulateInts(e, f Expr, ia, ib []int32, slots int) (a []int64, den int64, ok bool) {
	ne, de, ok := scaledInts(sc.ne[:0], len(e.t), func(i int) Rat { return e.t[i].c })
	sc.ne = ne
	if !ok {
		return nil, 0, false
	}
	nf, df, ok := scaledInts(sc.nf[:0], len(f.t), func(i int) Rat { return f.t[i].c })
	sc.nf = nf
	if !ok {
		return nil, 0, false
	}
	if den, ok = mul64(de, df); !ok {
		return nil, 0, false
	}
	sc.ai = zeroed(sc.ai, slots)
	a = sc.ai
	// A slot receives at most one product per term of either operand, so when
	// min(len) * max|x| * max|y| < 2^63 no product or sum can overflow and the
	// checks are left out.
	if bits.Len64(maxAbs(ne))+bits.Len64(maxAbs(nf))+bits.Len(uint(min(len(ne), len(nf)))) < 63 {
		for i, x := range ne {
			row := a[ia[i]:]
			for j, y := range nf {
				row[ib[j]] += x * y
			}
		}
		return a, den, true
	}
	for i, x := range ne {
		base := ia[i]
		for j, y := range nf {
			p, ok := mul64(x, y)
			if !ok {
				return nil, 0, false
			}
			s := base + ib[j]
			v := a[s] + p
			if (v^a[s])&(v^p) < 0 {
				return nil, 0, false
			}
			a[s] = v
		}
	}
	return a, den, true
}

// accumulateRats sums the coefficient products into dense slots exactly.
// A slot left at zero, never written or cancelled, holds no term.
func accumulateRats(e, f Expr, ia, ib []int32, slots int) []Rat {
	acc := make([]Rat, slots)
	for i, x := range e.t {
		base := ia[i]
		for j, y := range f.t {
			s := base + ib[j]
			acc[s] = acc[s].Add(x.c.Mul(y.c))
		}
	}
	return acc
}

// scaledInts appends to dst the n coefficients coef(0..n-1) times the lcm d
// of their denominators, as int64s, when everything fits.
func scaledInts(dst []int64, n int, coef func(int) Rat) (num []int64, d int64, ok bool) {
	d = 1
	for i := range n {
		c := coef(i)
		if c.b != nil {
			return dst, 0, false
		}
		if td := c.den(); td != 1 {
			g := int64(gcd64(uint64(d), uint64(td)))
			if d, ok = mul64(d, td/g); !ok {
				return dst, 0, false
			}
		}
	}
	num = dst
	for i := range n {
		c := coef(i)
		v, ok := mul64(c.n, d/c.den())
		if !ok {
			return dst, 0, false
		}
		num = append(num, v)
	}
	return num, d, true
}

// maxAbs returns the largest magnitude in xs.
func maxAbs(xs []int64) uint64 {
	var m uint64
	for _, x := range xs {
		m = max(m, abs64(x))
	}
	return m
}
