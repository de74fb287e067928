package symbolic

import (
	"slices"
	"sort"
)

// mergeInterval merges two pieces of one value whose guards are the same
// but for the range of one integer symbol, where the two ranges meet or
// are next to each other: 600 if rank == 1 beside 600 if rank == 2 is
// 600 if 1 <= rank <= 2. A loop run rank by rank gives a piece per rank, which tidy then
// reads as the ranges the ranks share.
func mergeInterval(p, q Piece) (Piece, bool) {
	if !Equal(p.Value, q.Value) {
		return Piece{}, false
	}
	for _, x := range intervalSymbols(p.Guard) {
		ip, ok1 := intervalOf(p.Guard, x)
		iq, ok2 := intervalOf(q.Guard, x)
		if !ok1 || !ok2 || !sameRelations(ip.rest, iq.rest) || !ip.meets(iq) {
			continue
		}
		return Piece{Guard: append(slices.Clone(ip.rest), ip.union(iq).relations(x)...), Value: p.Value}, true
	}
	return Piece{}, false
}

// interval is the range lo..hi (nil: unbounded) a guard gives a symbol,
// and the guard's other relations.
type interval struct {
	lo, hi *int64
	rest   []Relation
}

// intervalSymbols lists the symbols of g's relations of the form
// ±x + c op 0, c an integer.
func intervalSymbols(g []Relation) []string {
	var out []string
	for _, r := range g {
		if x, _, ok := boundOf(r); ok && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// boundOf reads r as x = -c (EQ), x >= -c or x <= c (GE), for r of the
// form ±x + c op 0 with c an integer; sign is +1 or -1.
func boundOf(r Relation) (x string, sign int, ok bool) {
	if r.Op != EQ && r.Op != GE {
		return "", 0, false
	}
	x, a, b, ok := r.E.LinearOne()
	if !ok || !b.IsInt() {
		return "", 0, false
	}
	switch {
	case a.Cmp(RatInt(1)) == 0:
		return x, 1, true
	case a.Cmp(RatInt(-1)) == 0:
		return x, -1, true
	}
	return "", 0, false
}

// intervalOf is the range g gives x; false where g does not bound x.
func intervalOf(g []Relation, x string) (interval, bool) {
	var iv interval
	bounded := false
	for _, r := range g {
		y, sign, ok := boundOf(r)
		if !ok || y != x {
			iv.rest = append(iv.rest, r)
			continue
		}
		_, _, b, _ := r.E.LinearOne()
		c, ok := b.Int64()
		if !ok {
			return interval{}, false
		}
		bounded = true
		switch {
		case r.Op == EQ:
			v := -c * int64(sign)
			iv.setLo(v)
			iv.setHi(v)
		case sign > 0:
			iv.setLo(-c)
		default:
			iv.setHi(c)
		}
	}
	return iv, bounded
}

func (iv *interval) setLo(v int64) {
	if iv.lo == nil || v > *iv.lo {
		iv.lo = &v
	}
}

func (iv *interval) setHi(v int64) {
	if iv.hi == nil || v < *iv.hi {
		iv.hi = &v
	}
}

// meets reports whether one range ends just before the other begins: a
// piecewise form adds the values of every piece whose guard holds, so
// overlapping pieces do not merge, and ranges with a gap between them
// would take in the gap.
func (iv interval) meets(jv interval) bool {
	next := func(a, b interval) bool { return a.hi != nil && b.lo != nil && *a.hi+1 == *b.lo }
	return next(iv, jv) || next(jv, iv)
}

// union is the range of both (they meet: neither is unbounded on the
// side where the other lies).
func (iv interval) union(jv interval) interval {
	var out interval
	if iv.lo != nil && jv.lo != nil {
		out.setLo(min(*iv.lo, *jv.lo))
	}
	if iv.hi != nil && jv.hi != nil {
		out.setHi(max(*iv.hi, *jv.hi))
	}
	return out
}

// relations writes the range as relations on x.
func (iv interval) relations(x string) []Relation {
	s := Sym(x)
	if iv.lo != nil && iv.hi != nil && *iv.lo == *iv.hi {
		return []Relation{{E: s.Sub(Int(*iv.lo)), Op: EQ}}
	}
	var out []Relation
	if iv.lo != nil {
		out = append(out, Relation{E: s.Sub(Int(*iv.lo)), Op: GE})
	}
	if iv.hi != nil {
		out = append(out, Relation{E: Int(*iv.hi).Sub(s), Op: GE})
	}
	return out
}

// sameRelations reports whether g and h hold the same relations, in any
// order.
func sameRelations(g, h []Relation) bool {
	if len(g) != len(h) {
		return false
	}
	keys := func(rs []Relation) []string {
		out := make([]string, len(rs))
		for i, r := range rs {
			out[i] = r.Key()
		}
		sort.Strings(out)
		return out
	}
	return slices.Equal(keys(g), keys(h))
}
