package symbolic

import "slices"

// Dense multiplication. When the exponent box of the product is small, every
// product monomial has a slot in a dense array: with atom k ranging over
// [loA_k, hiA_k] in e and [loB_k, hiB_k] in f, the product's exponent lies in
// [loA_k+loB_k, hiA_k+hiB_k], and with mixed-radix strides (earliest atom most
// significant) the slot of x*y is ia[x] + ib[y], one addition per term pair.
// Reading the slots from the top gives lexicographic order; a counting sort by
// total degree then gives the canonical graded order with no comparisons.
const maxDenseSlots = 1 << 16

// maxDenseAtoms bounds the atoms of a dense product (the exponent vectors are
// fixed-size arrays).
const maxDenseAtoms = 8

type expVec [maxDenseAtoms]int32

func denseMul(e, f Expr) ([]term, bool) {
	var atoms []*atom
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
	vectors := func(x Expr) []expVec {
		out := make([]expVec, len(x.t))
		for i, t := range x.t {
			for _, fa := range t.m {
				out[i][slices.Index(atoms, fa.a)] = fa.e
			}
		}
		return out
	}
	va, vb := vectors(e), vectors(f)
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
	var stride [maxDenseAtoms]int
	slots := 1
	for k := n - 1; k >= 0; k-- {
		stride[k] = slots
		width := int(hiA[k]+hiB[k]-loA[k]-loB[k]) + 1
		if width > maxDenseSlots || slots*width > maxDenseSlots || slots*width > max(4*len(e.t)*len(f.t), 4096) {
			return nil, false
		}
		slots *= width
	}
	index := func(vs []expVec, lo *expVec) []int32 {
		out := make([]int32, len(vs))
		for i, v := range vs {
			s := 0
			for k := range n {
				s += int(v[k]-lo[k]) * stride[k]
			}
			out[i] = int32(s)
		}
		return out
	}
	ia, ib := index(va, &loA), index(vb, &loB)
	// pair[s] is a term pair i*len(f)+j whose product lands in slot s; every
	// such pair has the same monomial, so the last one written will do.
	pair := make([]int32, slots)
	// Exactly one of ai (int64 sums over the denominator den) and acc (exact
	// sums) is set.
	ai, den, ok := accumulateInts(e, f, ia, ib, pair, slots)
	var acc []Rat
	if !ok {
		ai = nil
		acc = accumulateRats(e, f, ia, ib, pair, slots)
	}
	coef := func(s int) Rat {
		switch {
		case ai == nil:
			return acc[s]
		case den == 1:
			return Rat{n: ai[s], d: 1}
		}
		return RatFrac(ai[s], den)
	}
	// Occupied slots from the top, with their total degrees.
	var degLo, degHi int32
	for k := range n {
		degLo += loA[k] + loB[k]
		degHi += hiA[k] + hiB[k]
	}
	nf := len(f.t)
	// Degrees in contiguous arrays: the terms themselves are 56 bytes apart.
	ed := make([]int32, len(e.t))
	for i, t := range e.t {
		ed[i] = t.deg
	}
	fd := make([]int32, nf)
	for j, t := range f.t {
		fd[j] = t.deg
	}
	type slotDeg struct{ s, d int32 }
	var found []slotDeg
	counts := make([]int, degHi-degLo+2)
	nfactors := 0
	for s := slots - 1; s >= 0; s-- {
		if ai != nil && ai[s] == 0 || ai == nil && acc[s].IsZero() {
			continue
		}
		p := pair[s]
		i, j := int(p)/nf, int(p)%nf
		d := ed[i] + fd[j]
		counts[degHi-d+1]++
		for k := range n {
			if va[i][k]+vb[j][k] != 0 {
				nfactors++
			}
		}
		found = append(found, slotDeg{int32(s), d})
	}
	for b := 1; b < len(counts); b++ {
		counts[b] += counts[b-1]
	}
	ts := make([]term, len(found))
	backing := make([]factor, 0, nfactors)
	for _, sd := range found {
		s, d := int(sd.s), sd.d
		p := pair[s]
		i, j := int(p)/nf, int(p)%nf
		at := counts[degHi-d]
		counts[degHi-d]++
		start := len(backing)
		for k := range n {
			if ek := va[i][k] + vb[j][k]; ek != 0 {
				backing = append(backing, factor{a: atoms[k], e: ek})
			}
		}
		ts[at] = term{c: coef(s), m: backing[start:len(backing):len(backing)], deg: d}
	}
	return ts, true
}

// accumulateInts sums the coefficient products into dense slots in int64: the
// coefficients are scaled to integers over common denominators (den), and the
// sums hold no pointers, so no GC write barriers. ok is false on overflow.
func accumulateInts(e, f Expr, ia, ib, pair []int32, slots int) (a []int64, den int64, ok bool) {
	ne, de, ok := scaledInts(e)
	if !ok {
		return nil, 0, false
	}
	nf, df, ok := scaledInts(f)
	if !ok {
		return nil, 0, false
	}
	if den, ok = mul64(de, df); !ok {
		return nil, 0, false
	}
	a = make([]int64, slots)
	for i, x := range ne {
		base := ia[i]
		row := int32(i * len(nf))
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
			pair[s] = row + int32(j)
		}
	}
	return a, den, true
}

// accumulateRats sums the coefficient products into dense slots exactly.
// A slot left at zero, never written or cancelled, holds no term.
func accumulateRats(e, f Expr, ia, ib, pair []int32, slots int) []Rat {
	acc := make([]Rat, slots)
	for i, x := range e.t {
		base := ia[i]
		for j, y := range f.t {
			s := base + ib[j]
			acc[s] = acc[s].Add(x.c.Mul(y.c))
			pair[s] = int32(i*len(f.t) + j)
		}
	}
	return acc
}

// scaledInts returns the coefficients of e times the lcm d of their
// denominators, as int64s, when everything fits.
func scaledInts(e Expr) (num []int64, d int64, ok bool) {
	d = 1
	for _, t := range e.t {
		if t.c.b != nil {
			return nil, 0, false
		}
		if td := t.c.den(); td != 1 {
			g := int64(gcd64(uint64(d), uint64(td)))
			if d, ok = mul64(d, td/g); !ok {
				return nil, 0, false
			}
		}
	}
	num = make([]int64, len(e.t))
	for i, t := range e.t {
		n, ok := mul64(t.c.n, d/t.c.den())
		if !ok {
			return nil, 0, false
		}
		num[i] = n
	}
	return num, d, true
}
