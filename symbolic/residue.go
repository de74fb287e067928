package symbolic

import (
	"slices"
	"strings"
)

// Residues: relations that depend on their symbols only through remainders.
//
// A program that tests a parity or a position in a cycle writes
// 10*mod(x, 2) + 2*mod(y, 2) + mod(z, 2) == 8, and the algebra keeps it as
// 10*x - 20*floor(x/2) + ... - 8 == 0. Its symbols cancel: x = D*q + r
// (0 <= r < D) leaves only terms of r, so the relation holds or fails with
// the remainders alone, whatever the quotients. The bounds the prover
// reasons with see floor(x/2) between (x-1)/2 and x/2 and find nothing
// wrong with 10*mod(x, 2) == 8 (mod(x, 2) = 4/5 between its bounds);
// enumerating the remainders (a handful each) decides it. An else-if
// ladder on such a code makes most of its cases contradictory this way
// (an AMR code's tests of a face's parities), and each would otherwise
// cost the counting engine hundreds of cells.

// maxResidueCombos bounds the remainders enumerated for one question.
const maxResidueCombos = 1024

// residueSym is what a residue relation knows of one of its symbols: the
// remainders it ranges over (lo..lo+len(val)-1) and the relation's value,
// scaled to integers, that each contributes.
type residueSym struct {
	name   string
	lo     int64
	val    []int64
	period int64
	trunc  bool // the remainder of a truncation (takes the symbol's sign)
}

// residueRel is a relation whose value is c0 plus one table entry per
// symbol, scaled to integers.
type residueRel struct {
	op   RelOp
	c0   int64
	syms []residueSym // sorted by name
}

// holds reports whether the relation holds at the remainders at (by the
// place of each symbol in names).
func (r *residueRel) holds(at map[string]int64) bool {
	v := r.c0
	for _, s := range r.syms {
		v += s.val[at[s.name]-s.lo]
	}
	switch r.op {
	case EQ:
		return v == 0
	case GT:
		return v > 0
	}
	return v >= 0
}

// residueTerm is one symbol's part of a relation as it is read: its own
// coefficient and its floors (of x/d + k/d) or truncations (of x/d).
type residueTerm struct {
	own    Rat
	floors []residueFloor
	trunc  bool
}

type residueFloor struct {
	c    Rat
	d, k int64
}

// HasFloor reports whether a term of e is a floor or a truncation (to a
// power one): the only expressions residueOf reads.
func (e Expr) HasFloor() bool {
	return slices.ContainsFunc(e.t, func(t term) bool {
		return len(t.m) == 1 && t.m[0].e == 1 && (t.m[0].a.kind == kFloor || t.m[0].a.kind == kTrunc)
	})
}

// residueOf reads r as a residue relation; ok is false unless every term is
// a constant, an integer symbol, or a floor or truncation of one symbol
// divided by a constant, and every symbol cancels from the relation when
// written as quotient and remainder.
func residueOf(r Relation, rng func(string) symRange, plain bool) (*residueRel, bool) {
	if !plain && !r.E.HasFloor() || !r.E.isIntegerValued() {
		return nil, false
	}
	parts := map[string]*residueTerm{}
	part := func(name string) *residueTerm {
		p := parts[name]
		if p == nil {
			p = &residueTerm{}
			parts[name] = p
		}
		return p
	}
	var c0 Rat
	scale := int64(1)
	for _, t := range r.E.t {
		scale = lcm64(scale, t.c.den())
		if scale <= 0 || scale > 1<<20 {
			return nil, false
		}
		if len(t.m) == 0 {
			c0 = t.c
			continue
		}
		if len(t.m) != 1 || t.m[0].e != 1 {
			return nil, false
		}
		a := t.m[0].a
		switch a.kind {
		case kSym:
			if a.real {
				return nil, false
			}
			p := part(a.name)
			p.own = p.own.Add(t.c)
		case kFloor, kTrunc:
			name, d, k, ok := overConstant(a.args[0])
			if !ok || a.kind == kTrunc && k != 0 {
				return nil, false
			}
			p := part(name)
			if len(p.floors) > 0 && p.trunc != (a.kind == kTrunc) {
				return nil, false
			}
			p.trunc = a.kind == kTrunc
			p.floors = append(p.floors, residueFloor{c: t.c, d: d, k: k})
		default:
			return nil, false
		}
	}
	out := &residueRel{op: r.Op}
	c, ok := c0.Mul(RatInt(scale)).Int64()
	if !ok {
		return nil, false
	}
	out.c0 = c
	for name, p := range parts {
		s, ok := p.table(name, scale, rng)
		if !ok {
			return nil, false
		}
		out.syms = append(out.syms, s)
	}
	slices.SortFunc(out.syms, func(a, b residueSym) int { return strings.Compare(a.name, b.name) })
	return out, true
}

// overConstant reads x as s/d + k/d for a symbol s, a positive integer d up
// to 64 and an integer k (floor(s/d + b) is floor((s + floor(b*d))/d) for
// an integer s).
func overConstant(x Expr) (name string, d, k int64, ok bool) {
	var coef Rat
	var b Rat
	for _, t := range x.t {
		switch {
		case len(t.m) == 0:
			b = t.c
		case len(t.m) == 1 && t.m[0].e == 1 && t.m[0].a.kind == kSym && !t.m[0].a.real && name == "":
			name, coef = t.m[0].a.name, t.c
		default:
			return "", 0, 0, false
		}
	}
	if name == "" || coef.Sign() <= 0 {
		return "", 0, 0, false
	}
	inv := coef.Inv()
	d, ok = inv.Int64()
	if !ok || !inv.IsInt() || d < 1 || d > 64 {
		return "", 0, 0, false
	}
	k, ok = b.Mul(RatInt(d)).Floor().Int64()
	return name, d, k, ok
}

// table returns the values the symbol's part takes at each remainder, scaled
// by scale; ok is false unless the quotient cancels (the symbol's part
// depends on its remainder alone). rng is what the assumptions bound the
// symbol to: its sign bounds a truncation's remainder to one side of zero,
// and a symbol without floors that they bound to a few values (a loop
// index from 0 to 1) is read by its value (period 0).
func (p *residueTerm) table(name string, scale int64, rng func(string) symRange) (residueSym, bool) {
	if len(p.floors) == 0 {
		r := rng(name)
		if !r.hasLo || !r.hasHi || r.hi < r.lo || r.hi-r.lo >= maxValueRange {
			return residueSym{}, false
		}
		s := residueSym{name: name, lo: r.lo}
		for v := r.lo; v <= r.hi; v++ {
			x := p.own.Mul(RatInt(v * scale))
			n, ok := x.Int64()
			if !ok || !x.IsInt() {
				return residueSym{}, false
			}
			s.val = append(s.val, n)
		}
		return s, true
	}
	period := int64(1)
	for _, f := range p.floors {
		period = lcm64(period, f.d)
	}
	if p.trunc && len(p.floors) > 1 || period > 64 {
		return residueSym{}, false
	}
	// The quotient's coefficient: x = period*q + r adds own*period*q and,
	// for each floor, c*(period/d)*q.
	q := p.own.Mul(RatInt(period))
	for _, f := range p.floors {
		q = q.Add(f.c.Mul(RatInt(period / f.d)))
	}
	if !q.IsZero() {
		return residueSym{}, false
	}
	s := residueSym{name: name, period: period, trunc: p.trunc}
	lo, hi := int64(0), period-1
	if p.trunc {
		// x - d*trunc(x/d) takes the sign of x.
		r := rng(name)
		switch {
		case r.hasLo && r.lo >= 0:
		case r.hasHi && r.hi <= 0:
			lo, hi = -(period - 1), 0
		default:
			lo = -(period - 1)
		}
	}
	s.lo = lo
	for r := lo; r <= hi; r++ {
		v := p.own.Mul(RatInt(r))
		for _, f := range p.floors {
			var part int64
			if p.trunc {
				part = 0 // x = d*trunc(x/d) + r: trunc's part is the quotient's, which cancels
			} else {
				part, _ = floorDivMod(r+f.k, f.d)
			}
			v = v.Add(f.c.Mul(RatInt(part)))
		}
		n, ok := v.Mul(RatInt(scale)).Int64()
		if !ok || !v.Mul(RatInt(scale)).IsInt() {
			return residueSym{}, false
		}
		s.val = append(s.val, n)
	}
	return s, true
}

// boolIndex is 1 for true, 0 for false.
func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// lcm64 is the least common multiple of positive a and b (0 on overflow).
func lcm64(a, b int64) int64 {
	g := int64(gcd64(uint64(a), uint64(b)))
	m := a / g * b
	if m/b != a/g {
		return 0
	}
	return m
}

// Literal is a relation that must hold (or, Neg, must not) in a clause of
// ResidueCases.
type Literal struct {
	R   Relation
	Neg bool
}

// ResidueCases splits the remainders of the clauses made only of
// relations on remainders (read[i] for clause i) into the combinations
// that satisfy them all: each case is the relations that fix one
// combination (x - 2*floor(x/2) == 1, ...; a symbol the assumptions bound
// to a few values, x == 3), and the cases partition the points that satisfy
// those clauses, which they then decide. No case means the clauses read
// contradict each other (and so do all the clauses: the others are only
// more conditions). tests is how many of the clauses read test remainders
// (testsRemainders). ok is false when more than maxCases
// combinations satisfy them, or more than maxResidueCombos are to be tried.
// The counting stage drops a domain's case that has no value (an else-if
// ladder on a code of parities, each test false above the taken one) and
// counts apart each combination where tests of remainders, each split in
// two by the counting engine, would multiply its cells.
func (a *Assumptions) ResidueCases(clauses [][]Literal, maxCases int) (cases [][]Relation, read []bool, tests int, ok bool) {
	e := a.residueEnum()
	e.plain = true
	var cs []residueClause
	read = make([]bool, len(clauses))
	for i, c := range clauses {
		if rc, ok := e.clause(c); ok {
			cs = append(cs, rc)
			read[i] = true
			if testsRemainders(c) {
				tests++
			}
		}
	}
	names := make([]string, 0, len(e.sym))
	for name := range e.sym {
		names = append(names, name)
	}
	slices.Sort(names)
	_, _, complete := e.visit(cs, nil, func(at map[string]int64) bool {
		if len(cases) == maxCases {
			return false
		}
		var c []Relation
		for _, name := range names {
			s := e.sym[name]
			x := Sym(name)
			if s.period == 0 {
				c = append(c, Relation{E: x.Sub(Int(at[name])), Op: EQ})
				continue
			}
			q := Floor(x.Scale(RatFrac(1, s.period)))
			if s.trunc {
				q = Trunc(x.Scale(RatFrac(1, s.period)))
			}
			c = append(c, Relation{E: x.Sub(q.Scale(RatInt(s.period))).Sub(Int(at[name])), Op: EQ})
		}
		cases = append(cases, c)
		return true
	})
	if !complete {
		return nil, nil, 0, false
	}
	return cases, read, tests, true
}

// testsRemainders reports whether a clause tests remainders: one of its
// relations has a floor or truncation (a clause over symbols read by value
// alone, the bounds of a loop index, does not).
func testsRemainders(c []Literal) bool {
	return slices.ContainsFunc(c, func(l Literal) bool { return l.R.E.HasFloor() })
}

// residueClause is a clause of residue relations; neg[i] negates rels[i].
type residueClause struct {
	rels []*residueRel
	neg  []bool
}

func (c residueClause) holds(at map[string]int64) bool {
	for i, r := range c.rels {
		if r.holds(at) != c.neg[i] {
			return true
		}
	}
	return false
}

// residueEnum gathers the symbols of the clauses it reads, each with one
// range of remainders.
type residueEnum struct {
	rng func(string) symRange
	// plain admits relations without floors (over symbols read by value).
	plain bool
	sym   map[string]residueSym // how each symbol was read: its remainders
}

func (a *Assumptions) residueEnum() *residueEnum {
	var b *bounds
	rng := func(name string) symRange {
		var r symRange
		if a == nil {
			return r
		}
		if b == nil {
			b = a.baseBounds()
		}
		iv := b.interval(Sym(name))
		if iv.lo.finite {
			r.lo, r.hasLo = iv.lo.v.Neg().Floor().Neg().Int64()
		}
		if iv.hi.finite {
			r.hi, r.hasHi = iv.hi.v.Floor().Int64()
		}
		return r
	}
	return &residueEnum{rng: rng, sym: map[string]residueSym{}}
}

// symRange is the integer range the assumptions bound a symbol to, where
// they bound it by constants.
type symRange struct {
	lo, hi       int64
	hasLo, hasHi bool
}

// maxValueRange bounds the values of a symbol without floors that a
// residue relation enumerates.
const maxValueRange = 16

// clause reads c; ok is false when one of its relations is not on
// remainders or reads a symbol otherwise than before (another range, or
// period, or kind). Only a clause read whole records its symbols.
func (e *residueEnum) clause(c []Literal) (residueClause, bool) {
	var out residueClause
	seen := map[string]residueSym{}
	for _, l := range c {
		r, ok := residueOf(l.R, e.rng, e.plain)
		if !ok {
			return residueClause{}, false
		}
		for _, s := range r.syms {
			before, ok := e.sym[s.name]
			if !ok {
				before, ok = seen[s.name]
			}
			if ok && (before.lo != s.lo || len(before.val) != len(s.val) || before.trunc != s.trunc || before.period != s.period) {
				return residueClause{}, false
			}
			seen[s.name] = s
		}
		out.rels = append(out.rels, r)
		out.neg = append(out.neg, l.Neg)
	}
	for name, s := range seen {
		e.sym[name] = s
	}
	return out, len(out.rels) > 0
}

// visit enumerates the remainders of the clauses' symbols. sat reports
// whether some satisfy every clause; of those, seen[1] whether goal held
// at some and seen[0] whether it failed at some, and each is called with
// every one until it returns false. complete is false when it stopped
// early (goal seen both ways, each false) or the combinations were more
// than maxResidueCombos.
func (e *residueEnum) visit(cs []residueClause, goal *residueRel, each func(at map[string]int64) bool) (sat bool, seen [2]bool, complete bool) {
	names := make([]string, 0, len(e.sym))
	combos := int64(1)
	for n, s := range e.sym {
		names = append(names, n)
		if combos *= int64(len(s.val)); combos > maxResidueCombos {
			return true, [2]bool{true, true}, false
		}
	}
	slices.Sort(names)
	at := make(map[string]int64, len(names))
	for _, n := range names {
		at[n] = e.sym[n].lo
	}
	for range combos {
		if !slices.ContainsFunc(cs, func(c residueClause) bool { return !c.holds(at) }) {
			sat = true
			if each != nil && !each(at) {
				return true, seen, false
			}
			if goal != nil {
				seen[boolIndex(goal.holds(at))] = true
				if seen[0] && seen[1] {
					return true, seen, false
				}
			}
		}
		// The next remainders, the last name fastest.
		for i := len(names) - 1; i >= 0; i-- {
			s := e.sym[names[i]]
			if at[s.name]++; at[s.name] < s.lo+int64(len(s.val)) {
				break
			}
			at[s.name] = s.lo
		}
	}
	return sat, seen, true
}

// ByResidues decides r from the remainders of its symbols where r is a
// relation on remainders (the prover asks first; the counting stage asks of
// a domain's relations on its variables): False when no remainders satisfy r and the
// assumptions on remainders (a contradiction among the assumptions
// included, where every answer holds vacuously), True when every
// remainders satisfying the assumptions satisfy r. ok is false when it
// cannot tell.
func (a *Assumptions) ByResidues(r Relation) (Truth, bool) {
	e := a.residueEnum()
	goal, ok := e.clause([]Literal{{R: r}})
	if !ok {
		return Unknown, false
	}
	var cs []residueClause
	if a != nil {
		for _, x := range a.rels {
			if c, ok := e.clause([]Literal{{R: x}}); ok {
				cs = append(cs, c)
			}
		}
	}
	_, seen, _ := e.visit(cs, goal.rels[0], nil)
	switch {
	case !seen[1]:
		return False, true
	case !seen[0]:
		return True, true
	}
	return Unknown, false
}
