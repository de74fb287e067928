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
// ResiduesContradict.
type Literal struct {
	R   Relation
	Neg bool
}

// ResiduesContradict reports whether no remainders satisfy every clause
// (a clause holds when one of its literals does) of those whose relations
// are all relations on remainders, under a's bounds on the signs of the
// symbols. The clauses left out are not required, so a contradiction
// among the others is one of them all: the counting stage drops a
// domain's case whose tests of a code's parities (an else-if ladder on
// it, each test false above the taken one) leave it no value.
func (a *Assumptions) ResiduesContradict(clauses [][]Literal) bool {
	e := a.residueEnum()
	e.plain = true
	var cs []residueClause
	for _, c := range clauses {
		if rc, ok := e.clause(c); ok {
			cs = append(cs, rc)
		}
	}
	sat, _ := e.run(cs, nil)
	return !sat
}

// ResidueCases splits the remainders of the clauses made only of
// relations on remainders (read[i] for clause i) into the combinations
// that satisfy them all: each case is the relations that fix one
// combination (x - 2*floor(x/2) == 1, ...; a symbol bound to a few values
// without floors, x == 3), and the cases partition the points that satisfy
// those clauses, which they then decide. ok is false when fewer than
// minRead of the clauses read test values (Tests) or more than maxCases
// combinations satisfy them. The counting stage counts each case apart
// where the clauses, tests of a code's parities each split in two by the
// counting engine, would multiply its cells.
func (a *Assumptions) ResidueCases(clauses [][]Literal, minRead, maxCases int) (cases [][]Relation, read []bool, ok bool) {
	e := a.residueEnum()
	e.plain = true
	var cs []residueClause
	read = make([]bool, len(clauses))
	n := 0
	for i, c := range clauses {
		if rc, ok := e.clause(c); ok {
			cs = append(cs, rc)
			read[i] = true
			if Tests(c) {
				n++
			}
		}
	}
	if n < minRead {
		return nil, nil, false
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
		return nil, nil, false
	}
	return cases, read, true
}

// Tests reports whether a clause tests values rather than bounds them: a
// remainder, an equation, a relation that must fail or a choice among
// several. The bounds of a loop index alone are no reason to split.
func Tests(c []Literal) bool {
	return len(c) > 1 || slices.ContainsFunc(c, func(l Literal) bool { return l.Neg || l.R.Op == EQ || l.R.E.HasFloor() })
}

// ByResidues is byResidues for callers outside the prover.
func (a *Assumptions) ByResidues(r Relation) (Truth, bool) { return a.byResidues(r) }

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
	lo    map[string]int64
	width map[string]int64
	sym   map[string]residueSym // how each symbol was read
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
	return &residueEnum{rng: rng, lo: map[string]int64{}, width: map[string]int64{}, sym: map[string]residueSym{}}
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
// remainders or reads a symbol with another range than before.
func (e *residueEnum) clause(c []Literal) (residueClause, bool) {
	var out residueClause
	for _, l := range c {
		r, ok := residueOf(l.R, e.rng, e.plain)
		if !ok {
			return residueClause{}, false
		}
		for _, s := range r.syms {
			if lo, ok := e.lo[s.name]; ok && (lo != s.lo || e.width[s.name] != int64(len(s.val))) {
				return residueClause{}, false
			}
		}
		for _, s := range r.syms {
			if _, ok := e.sym[s.name]; ok && (e.sym[s.name].trunc != s.trunc || e.sym[s.name].period != s.period) {
				return residueClause{}, false
			}
		}
		for _, s := range r.syms {
			e.lo[s.name], e.width[s.name], e.sym[s.name] = s.lo, int64(len(s.val)), s
		}
		out.rels = append(out.rels, r)
		out.neg = append(out.neg, l.Neg)
	}
	return out, len(out.rels) > 0
}

// run enumerates the remainders of the clauses' symbols: sat reports
// whether some satisfy every clause, and, of those, whether goal held at
// some (sawTrue) and failed at some (sawFalse). ok is false when there are
// more than maxResidueCombos.
func (e *residueEnum) run(cs []residueClause, goal *residueRel) (sat bool, seen [2]bool) {
	sat, seen, _ = e.visit(cs, goal, nil)
	return sat, seen
}

// visit is run that also calls each with the remainders of every
// satisfying combination (goal nil), until each returns false; complete
// is false when it stopped early or the combinations were too many.
func (e *residueEnum) visit(cs []residueClause, goal *residueRel, each func(at map[string]int64) bool) (sat bool, seen [2]bool, complete bool) {
	names := make([]string, 0, len(e.lo))
	combos := int64(1)
	for n, w := range e.width {
		names = append(names, n)
		if combos *= w; combos > maxResidueCombos {
			return true, [2]bool{true, true}, false
		}
	}
	slices.Sort(names)
	at := make(map[string]int64, len(names))
	for _, n := range names {
		at[n] = e.lo[n]
	}
	for range combos {
		if !slices.ContainsFunc(cs, func(c residueClause) bool { return !c.holds(at) }) {
			sat = true
			switch {
			case each != nil:
				if !each(at) {
					return true, seen, false
				}
			case goal == nil:
				return true, seen, true
			default:
				seen[boolIndex(goal.holds(at))] = true
				if seen[0] && seen[1] {
					return true, seen, false
				}
			}
		}
		// The next remainders, the last name fastest.
		for i := len(names) - 1; i >= 0; i-- {
			n := names[i]
			if at[n]++; at[n] < e.lo[n]+e.width[n] {
				break
			}
			at[n] = e.lo[n]
		}
	}
	return sat, seen, true
}

// byResidues decides r from the remainders of its symbols where r is a
// relation on remainders: False when no remainders satisfy r and the
// assumptions on remainders (a contradiction among the assumptions
// included, where every answer holds vacuously), True when every
// remainders satisfying the assumptions satisfy r. ok is false when it
// cannot tell.
func (a *Assumptions) byResidues(r Relation) (Truth, bool) {
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
	_, seen := e.run(cs, goal.rels[0])
	switch {
	case !seen[1]:
		return False, true
	case !seen[0]:
		return True, true
	}
	return Unknown, false
}
