package cost

import (
	"slices"
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval"
)

// Counting at a point. When P is a number and the rank is not, a domain's
// conditions on the rank alone (the process's row of a grid, whether it has
// a northern neighbour) partition the ranks into the few classes that take
// the same branches. They are found by evaluating the conditions at every
// rank 0..P-1; each class's domain, with those conditions decided, has no
// disjunctions left over the rank and is counted on its own (a number, or a
// closed form in the rank where the bounds still depend on it). Where even
// that is beyond the counting engine, each rank of the class is counted with
// the rank a number, which is always exact. The pieces are guarded by the
// conditions that tell the class from the others.

// maxRankClasses bounds the classes a domain is split into before each rank
// is counted on its own.
const maxRankClasses = 64

// rankwise reports whether counts are split by rank classes: at a point with
// P a number and the rank free.
func (an *analysis) rankwise() bool { return an.np > 0 }

// countByRank counts set (whose only free symbol besides its variables may
// be the rank) by rank classes. weight, when not nil, is summed instead of
// counting points.
func (an *analysis) countByRank(set *counting.Set, weight *symbolic.Expr) (symbolic.Piecewise, error) {
	dec := newRankDecider(set.Cond)
	if len(dec.rels) == 0 {
		if !mentionsSym(set, weight, symeval.Rank) {
			return an.countCases(set, weight)
		}
		if an.boxEachRank(set, weight) {
			// A small nest whose offsets move with the rank (rows
			// numbered from rank*n): its points each rank, faster
			// than a closed form in the rank.
			if pw, err := an.countEachRank(set, weight, allRanks(an.np), nil); err == nil {
				return pw, nil
			}
		}
		pw, err := an.countCases(set, weight)
		if err == nil {
			return pw, nil
		}
		return an.countEachRank(set, weight, allRanks(an.np), nil)
	}
	part, err := an.rankPartition(dec)
	if err != nil {
		return symbolic.Piecewise{}, err
	}
	if len(part.classes) > maxRankClasses {
		return an.countManyClasses(set, weight, dec, part.classes)
	}
	var out symbolic.Piecewise
	for _, c := range part.classes {
		cs, empty := classSet(set, weight, dec, c)
		if empty {
			continue
		}
		pw, err := an.countCases(&cs, weight)
		if err != nil {
			// Rank by rank: always exact.
			pw, err = an.countEachRank(set, weight, c.ranks, nil)
			if err != nil {
				return symbolic.Piecewise{}, err
			}
			out = out.Add(pw)
			continue
		}
		for _, g := range an.classGuardsOf(part, c) {
			out = out.Add(guardAll(pw, g))
		}
	}
	return out, nil
}

// A rankPartition is the ranks 0..P-1 split into classes by the truth of
// some conditions on the rank alone. Whole programs test the same few
// conditions (a process's place in its grid, its neighbours) around most
// of their loop nests, so a partition, and the guards that tell its
// classes apart, are worked out once per set of conditions (rankParts).
type rankPartition struct {
	rels    []counting.Rel
	tables  [][]bool
	classes []*rankClass
	guards  map[*rankClass][][]symbolic.Relation
}

// rankPartition returns the partition of the ranks by dec's conditions.
func (an *analysis) rankPartition(dec *rankDecider) (*rankPartition, error) {
	key := strings.Join(dec.keys, "\x00")
	if p, ok := an.rankParts[key]; ok {
		return p, nil
	}
	// The truth of each condition at each rank.
	part := &rankPartition{rels: dec.rels, tables: make([][]bool, len(dec.rels)), guards: map[*rankClass][][]symbolic.Relation{}}
	for i, r := range dec.rels {
		t, err := an.rankTable(r)
		if err != nil {
			return nil, err
		}
		part.tables[i] = t
	}
	byKey := map[string]*rankClass{}
	kb := make([]byte, len(part.tables))
	for r := int64(0); r < an.np; r++ {
		for i, t := range part.tables {
			kb[i] = '0'
			if t[r] {
				kb[i] = '1'
			}
		}
		c := byKey[string(kb)]
		if c == nil {
			c = &rankClass{key: string(kb)}
			for _, t := range part.tables {
				c.truth = append(c.truth, t[r])
			}
			byKey[c.key] = c
			part.classes = append(part.classes, c)
		}
		c.ranks = append(c.ranks, r)
	}
	if an.rankParts == nil {
		an.rankParts = map[string]*rankPartition{}
	}
	an.rankParts[key] = part
	return part, nil
}

// classGuardsOf returns classGuards for class c of part, found once.
func (an *analysis) classGuardsOf(part *rankPartition, c *rankClass) [][]symbolic.Relation {
	if g, ok := part.guards[c]; ok {
		return g
	}
	g := an.classGuards(part.rels, part.tables, c.truth, c.ranks)
	part.guards[c] = g
	return g
}

// classSet is set on the ranks of class c: its conditions on the rank
// alone decided by their truth there, and the rank no longer among its
// parameters where nothing else mentions it. empty reports a class on
// which the domain has no point.
func classSet(set *counting.Set, weight *symbolic.Expr, dec *rankDecider, c *rankClass) (cs counting.Set, empty bool) {
	cond := dec.decide(c.truth)
	if isFalse(cond) {
		return counting.Set{}, true
	}
	cs = *set
	cs.Cond = cond
	if isTrue(cond) {
		cs.Cond = nil
	}
	if !mentionsSym(&cs, weight, symeval.Rank) {
		cs.Params = slices.DeleteFunc(slices.Clone(cs.Params), func(s string) bool { return s == symeval.Rank })
	}
	return cs, false
}

// A rankClass is a set of ranks on which every condition on the rank alone
// has the same truth.
type rankClass struct {
	key   string
	ranks []int64
	truth []bool
}

// countManyClasses counts set when its conditions on the rank split the
// ranks into more classes than are worth a guard each: the result is one
// piece per run of ranks, as countEachRank gives, but a class whose domain,
// with its rank conditions decided, no longer mentions the rank is counted
// once for all its ranks (a 3-D process grid at P = 1024 has hundreds of
// ranks per class of its faces and edges).
func (an *analysis) countManyClasses(set *counting.Set, weight *symbolic.Expr, dec *rankDecider, classes []*rankClass) (symbolic.Piecewise, error) {
	type counted struct {
		pw    symbolic.Piecewise
		empty bool
		ok    bool // pw is the count at every rank of the class
	}
	of := make([]*counted, an.np)
	for _, c := range classes {
		k := &counted{}
		cs, empty := classSet(set, weight, dec, c)
		switch {
		case empty:
			k.empty, k.ok = true, true
		case !mentionsSym(&cs, weight, symeval.Rank):
			if pw, err := an.countCases(&cs, weight); err == nil {
				k.pw, k.ok = pw, true
			}
		}
		for _, r := range c.ranks {
			of[r] = k
		}
	}
	return an.rankPieces(set.Params, allRanks(an.np), func(rk int64) (symbolic.Piecewise, bool, error) {
		if k := of[rk]; k.ok {
			return k.pw, k.empty, nil
		}
		return an.countAtRank(set, weight, rk)
	})
}

// countEachRank counts set with the rank fixed to each of ranks, and returns
// the counts as pieces guarded by rank == r (consecutive ranks with equal
// counts share one piece lo <= rank <= hi). A count at one rank that comes
// in several pieces (the cases of a disjunction, counted one by one) is
// their sum where nothing else is free, and keeps its pieces, each guarded
// by rank == r, where other parameters are.
func (an *analysis) countEachRank(set *counting.Set, weight *symbolic.Expr, ranks []int64, _ []bool) (symbolic.Piecewise, error) {
	return an.rankPieces(set.Params, ranks, func(rk int64) (symbolic.Piecewise, bool, error) {
		return an.countAtRank(set, weight, rk)
	})
}

// countAtRank counts set with the rank fixed to rk. empty reports a
// domain that is empty at rk.
func (an *analysis) countAtRank(set *counting.Set, weight *symbolic.Expr, rk int64) (pw symbolic.Piecewise, empty bool, err error) {
	cs, w, empty, err := fixSymbol(set, weight, symeval.Rank, rk)
	if err != nil || empty {
		return symbolic.Piecewise{}, empty, err
	}
	if len(cs.Params) == 0 {
		// Every symbol but the loop variables fixed: the count is a
		// number, which counting the set as it is (enumerating it where
		// the engine has no closed form) gives without simplifying each
		// case of its guards under the assumptions first. Only here, rank
		// by rank, where no simplified case is shared between counts:
		// done for every set without parameters (countCases), it made
		// CloverLeaf's sweep a third slower.
		if pw, err := an.countSet(&cs, w); err == nil {
			return pw, false, nil
		}
	}
	pw, err = an.countCases(&cs, w)
	return pw, false, err
}

// boxEachRank reports whether set, with the rank its only parameter, is
// one countAtRank counts point by point at every rank (counting.SumBox):
// a few ranks, and at rank 0 a small box whose variables are tied.
func (an *analysis) boxEachRank(set *counting.Set, weight *symbolic.Expr) bool {
	if an.np < 1 || an.np > boxRanks || len(set.Vars) < boxVars || !onlyParam(set.Params, symeval.Rank) {
		return false
	}
	cs, _, empty, err := fixSymbol(set, weight, symeval.Rank, 0)
	return err == nil && !empty && counting.Boxable(&cs, boxPoints)
}

// boxRanks is the most ranks boxEachRank counts point by point.
const boxRanks = 16

// fixSymbol is set (and weight) with the variable or parameter name fixed
// to c (counting.Fix). empty reports a slice with no point.
func fixSymbol(set *counting.Set, weight *symbolic.Expr, name string, c int64) (cs counting.Set, w *symbolic.Expr, empty bool, err error) {
	we := symbolic.Int(1)
	if weight != nil {
		we = *weight
	}
	fs, we, empty, err := counting.Fix(set, we, map[string]symbolic.Expr{name: symbolic.Int(c)})
	if err != nil || empty {
		return counting.Set{}, nil, empty, err
	}
	if weight != nil {
		w = &we
	}
	return *fs, w, false, nil
}

// rankPieces builds the pieces of a count known rank by rank: at(rk) is the
// count at rank rk (empty: nothing at rk). ranks are sorted; consecutive
// ranks with equal numbers share one piece lo <= rank <= hi, and a count
// that stays a closed form in the other parameters (params, besides the
// rank) keeps its pieces, each guarded by rank == rk.
func (an *analysis) rankPieces(params []string, ranks []int64, at func(rk int64) (symbolic.Piecewise, bool, error)) (symbolic.Piecewise, error) {
	others := slices.ContainsFunc(params, func(p string) bool { return p != symeval.Rank })
	var out symbolic.Piecewise
	var runStart, runEnd int64 = -1, -1
	var runVal symbolic.Expr
	r := symbolic.Sym(symeval.Rank)
	flush := func() {
		if runStart < 0 || runVal.IsZero() {
			return
		}
		var g []symbolic.Relation
		if runStart == runEnd {
			g = []symbolic.Relation{symbolic.Rel(r, "==", symbolic.Int(runStart))}
		} else {
			g = []symbolic.Relation{symbolic.Rel(r, ">=", symbolic.Int(runStart)), symbolic.Rel(r, "<=", symbolic.Int(runEnd))}
		}
		out.Pieces = append(out.Pieces, symbolic.Piece{Guard: g, Value: runVal})
	}
	for _, rk := range ranks {
		pw, empty, err := at(rk)
		if err != nil {
			return symbolic.Piecewise{}, err
		}
		var val symbolic.Expr
		if !empty {
			v, ok := pw.Single()
			if !ok && !others {
				// Every symbol is fixed: the pieces whose guards hold
				// add up to a number (an inner loop's cases over an
				// outer loop's variable, summed away, leave several).
				if c, err := pw.Eval(nil); err == nil {
					v, ok = symbolic.Const(c), true
				}
			}
			if !ok {
				// A closed form in the other parameters, at this rank.
				flush()
				runStart = -1
				out = out.Add(guardAll(pw, []symbolic.Relation{symbolic.Rel(r, "==", symbolic.Int(rk))}))
				continue
			}
			val = v
		}
		if runStart >= 0 && rk == runEnd+1 && symbolic.Equal(val, runVal) {
			runEnd = rk
			continue
		}
		flush()
		runStart, runEnd, runVal = rk, rk, val
	}
	flush()
	return out, nil
}

// rankTable evaluates a condition on the rank at every rank 0..P-1.
func (an *analysis) rankTable(r counting.Rel) ([]bool, error) {
	key := r.R.Key()
	if t, ok := an.rankTables[key]; ok {
		return t, nil
	}
	t, err := RankTruth(r.R, an.np)
	if err != nil {
		return nil, err
	}
	an.rankTables[key] = t
	return t, nil
}

// RankTruth is the truth of a relation on the rank at each rank 0..np-1 of
// a point with np processes (P, where r mentions it, is np). It fails
// where r mentions another symbol or cannot be evaluated at some rank.
func RankTruth(r symbolic.Relation, np int64) ([]bool, error) {
	return counting.Tabulate(counting.Rel{R: r}, Rank, np, map[string]int64{Size: np})
}

// classGuards returns guards that hold at exactly the ranks of a class: a
// conjunction of the class's literals, reduced greedily to those needed to
// tell it from the other ranks. A literal that is a false equation (e /= 0)
// is not one relation; the guard is then split into e > 0 and e < 0.
func (an *analysis) classGuards(rels []counting.Rel, tables [][]bool, truth []bool, ranks []int64) [][]symbolic.Relation {
	// By bit sets of ranks: agree[i] holds the ranks where literal i has
	// the class's truth, in the ranks of the class.
	words := (an.np + 63) / 64
	in := make([]uint64, words)
	for _, r := range ranks {
		in[r/64] |= 1 << (r % 64)
	}
	agree := make([][]uint64, len(rels))
	for i, t := range tables {
		a := make([]uint64, words)
		for rk, h := range t {
			if h == truth[i] {
				a[rk/64] |= 1 << (rk % 64)
			}
		}
		agree[i] = a
	}
	keep := make([]bool, len(rels))
	for i := range keep {
		keep[i] = true
	}
	all := make([]uint64, words)
	matches := func() bool {
		for w := range all {
			all[w] = ^uint64(0)
		}
		if r := an.np % 64; r != 0 {
			all[words-1] = 1<<r - 1
		}
		for i, k := range keep {
			if k {
				for w := range all {
					all[w] &= agree[i][w]
				}
			}
		}
		return slices.Equal(all, in)
	}
	for i := range keep {
		keep[i] = false
		if !matches() {
			keep[i] = true
		}
	}
	ranges := rankRangeGuards(ranks)
	guards := [][]symbolic.Relation{nil}
	for i, k := range keep {
		if !k {
			continue
		}
		r := rels[i].R
		if truth[i] {
			for j := range guards {
				guards[j] = append(guards[j], r)
			}
			continue
		}
		switch r.Op {
		case symbolic.GE:
			// not (e >= 0): -e > 0.
			for j := range guards {
				guards[j] = append(guards[j], symbolic.Rel(r.E, "<", symbolic.Int(0)))
			}
		case symbolic.GT:
			for j := range guards {
				guards[j] = append(guards[j], symbolic.Rel(r.E, "<=", symbolic.Int(0)))
			}
		default:
			if 2*len(guards) > len(ranges) {
				// Splitting every false equation doubles the guards
				// (a class that is every rank but a few): the class's
				// runs of consecutive ranks are fewer.
				return ranges
			}
			var split [][]symbolic.Relation
			for _, g := range guards {
				split = append(split,
					append(slices.Clone(g), symbolic.Rel(r.E, ">", symbolic.Int(0))),
					append(slices.Clone(g), symbolic.Rel(r.E, "<", symbolic.Int(0))))
			}
			guards = split
		}
	}
	// Drop halves no rank of the class satisfies.
	out := guards[:0]
	for _, g := range guards {
		if an.someRank(g, ranks) {
			out = append(out, g)
		}
	}
	return out
}

// rankRangeGuards returns one guard per run of consecutive ranks of the
// sorted ranks: lo <= rank <= hi, or rank == r for a run of one.
func rankRangeGuards(ranks []int64) [][]symbolic.Relation {
	r := symbolic.Sym(symeval.Rank)
	var out [][]symbolic.Relation
	for i := 0; i < len(ranks); {
		j := i
		for j+1 < len(ranks) && ranks[j+1] == ranks[j]+1 {
			j++
		}
		if i == j {
			out = append(out, []symbolic.Relation{symbolic.Rel(r, "==", symbolic.Int(ranks[i]))})
		} else {
			out = append(out, []symbolic.Relation{symbolic.Rel(r, ">=", symbolic.Int(ranks[i])), symbolic.Rel(r, "<=", symbolic.Int(ranks[j]))})
		}
		i = j + 1
	}
	return out
}

func (an *analysis) someRank(g []symbolic.Relation, ranks []int64) bool {
	if len(g) == 0 {
		return true
	}
	// Each relation's truth at every rank is tabulated once (rankTable):
	// at P = 1024, evaluating the guards afresh for each class dominated
	// whole-program analyses.
	ts := make([][]bool, len(g))
	for i, r := range g {
		t, err := an.rankTable(counting.Rel{R: r})
		if err != nil {
			return false // the rank alone does not decide it
		}
		ts[i] = t
	}
next:
	for _, rk := range ranks {
		for _, t := range ts {
			if !t[rk] {
				continue next
			}
		}
		return true
	}
	return false
}

func allRanks(np int64) []int64 {
	out := make([]int64, np)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

// guardAll adds g to the guard of every piece of pw.
func guardAll(pw symbolic.Piecewise, g []symbolic.Relation) symbolic.Piecewise {
	if len(g) == 0 {
		return pw
	}
	out := make([]symbolic.Piece, len(pw.Pieces))
	for i, p := range pw.Pieces {
		out[i] = symbolic.Piece{Guard: append(slices.Clone(g), p.Guard...), Value: p.Value}
	}
	return symbolic.Piecewise{Pieces: out}
}

// A rankDecider decides a domain's conditions on the rank alone, given
// their truth on a class of ranks. It reads the formula once: each
// relation's key is found once, not once per class (a 2-D grid of 1024
// processes has hundreds of classes, and keys dominated).
type rankDecider struct {
	rels []counting.Rel // the distinct relations on the rank alone
	keys []string       // their keys
	root decNode
}

// A decNode mirrors a node of the formula: rel is the index of a relation
// on the rank alone, or -1.
type decNode struct {
	f    counting.Formula
	rel  int
	kids []decNode
}

func newRankDecider(f counting.Formula) *rankDecider {
	d := &rankDecider{}
	index := map[string]int{}
	var walk func(counting.Formula) decNode
	walk = func(f counting.Formula) decNode {
		n := decNode{f: f, rel: -1}
		switch g := f.(type) {
		case counting.Rel:
			if s, one := g.R.E.SingleSymbol(); one && s == symeval.Rank {
				k := g.R.Key()
				i, ok := index[k]
				if !ok {
					i = len(d.rels)
					index[k] = i
					d.rels = append(d.rels, g)
					d.keys = append(d.keys, k)
				}
				n.rel = i
			}
		case counting.And:
			for _, x := range g {
				n.kids = append(n.kids, walk(x))
			}
		case counting.Or:
			for _, x := range g {
				n.kids = append(n.kids, walk(x))
			}
		case counting.Not:
			n.kids = []decNode{walk(g.F)}
		}
		return n
	}
	d.root = walk(f)
	return d
}

// decide replaces each relation on the rank alone by its truth (truth[i]
// for relation i) and folds.
func (d *rankDecider) decide(truth []bool) counting.Formula { return d.root.decide(truth) }

func (n *decNode) decide(truth []bool) counting.Formula {
	switch g := n.f.(type) {
	case nil:
		return constant(true)
	case counting.Rel:
		if n.rel >= 0 {
			return constant(truth[n.rel])
		}
		return g
	case counting.And:
		var out counting.And
		for i := range n.kids {
			y := n.kids[i].decide(truth)
			if isFalse(y) {
				return constant(false)
			}
			if isTrue(y) {
				continue
			}
			out = append(out, y)
		}
		if len(out) == 1 {
			return out[0]
		}
		if len(out) == 0 {
			return constant(true)
		}
		return out
	case counting.Or:
		var out counting.Or
		for i := range n.kids {
			y := n.kids[i].decide(truth)
			if isTrue(y) {
				return constant(true)
			}
			if isFalse(y) {
				continue
			}
			out = append(out, y)
		}
		if len(out) == 1 {
			return out[0]
		}
		return out
	case counting.Not:
		y := n.kids[0].decide(truth)
		switch {
		case isTrue(y):
			return constant(false)
		case isFalse(y):
			return constant(true)
		}
		return counting.Not{F: y}
	}
	return n.f
}

// mentionsSym reports whether set's condition or the weight mentions s.
func mentionsSym(set *counting.Set, weight *symbolic.Expr, s string) bool {
	if weight != nil && weight.Has(s) {
		return true
	}
	var walk func(counting.Formula) bool
	walk = func(f counting.Formula) bool {
		switch g := f.(type) {
		case counting.Rel:
			return g.R.E.Has(s)
		case counting.And:
			return slices.ContainsFunc(g, walk)
		case counting.Or:
			return slices.ContainsFunc(g, walk)
		case counting.Not:
			return walk(g.F)
		}
		return false
	}
	return walk(set.Cond)
}

// simplifyAtPoint simplifies a closed form in the rank at a point by
// evaluating its guards at every rank: a piece no rank satisfies is
// dropped, a relation every rank satisfies leaves its guard, and pieces
// with equal guards are added. It is exact and, unlike the prover, costs
// no more than P evaluations per relation.
func (an *analysis) simplifyAtPoint(pw symbolic.Piecewise) symbolic.Piecewise {
	var out []symbolic.Piece
	index := map[string]int{}
	for _, p := range pw.Pieces {
		if p.Value.IsZero() {
			continue
		}
		var guard []symbolic.Relation
		var live []bool
		drop := false
		for _, r := range p.Guard {
			if !onlyRankRel(r) {
				guard = append(guard, r)
				continue
			}
			t, err := an.rankTable(counting.Rel{R: r})
			if err != nil {
				guard = append(guard, r)
				continue
			}
			if live == nil {
				live = make([]bool, an.np)
				for i := range live {
					live[i] = true
				}
			}
			all := true
			for i := range live {
				live[i] = live[i] && t[i]
				all = all && t[i]
			}
			if !all {
				guard = append(guard, r)
			}
		}
		if live != nil && !slices.Contains(live, true) {
			drop = true
		}
		if drop {
			continue
		}
		slices.SortFunc(guard, func(x, y symbolic.Relation) int {
			if c := symbolic.Compare(x.E, y.E); c != 0 {
				return c
			}
			return int(x.Op) - int(y.Op)
		})
		guard = slices.CompactFunc(guard, func(x, y symbolic.Relation) bool { return x.Op == y.Op && symbolic.Equal(x.E, y.E) })
		var kb strings.Builder
		for _, r := range guard {
			kb.WriteString(r.Key())
			kb.WriteByte(';')
		}
		if i, ok := index[kb.String()]; ok {
			out[i].Value = out[i].Value.Add(p.Value)
			continue
		}
		index[kb.String()] = len(out)
		out = append(out, symbolic.Piece{Guard: guard, Value: p.Value})
	}
	res := out[:0]
	for _, p := range out {
		if !p.Value.IsZero() {
			res = append(res, p)
		}
	}
	return an.uniform(symbolic.Piecewise{Pieces: res})
}

// merge adds the pieces of pw with equal guards (symbolic.Piecewise.Merge)
// or, at a point, with guards that hold at the same ranks: closed forms in
// the rank count each class of ranks in their own terms (rank == 0, 0 >=
// trunc(rank/2), 2*trunc(rank/2) >= rank), and the work of a routine sums
// hundreds of them, whose pieces would otherwise pile up case by case. A
// piece no rank takes is dropped. The guard kept is the first piece's.
func (an *analysis) merge(pw symbolic.Piecewise) symbolic.Piecewise {
	if !an.rankwise() || len(pw.Pieces) < 2 {
		return pw.Merge()
	}
	out := make([]symbolic.Piece, 0, len(pw.Pieces))
	index := map[int]int{}
	for _, p := range pw.Pieces {
		if p.Value.IsZero() {
			continue
		}
		key, live := an.guardRanks(p.Guard)
		if !live {
			continue
		}
		if i, ok := index[key]; ok {
			out[i].Value = out[i].Value.Add(p.Value)
			continue
		}
		index[key] = len(out)
		out = append(out, p)
	}
	res := out[:0]
	for _, p := range out {
		if !p.Value.IsZero() {
			res = append(res, p)
		}
	}
	return symbolic.Piecewise{Pieces: res}
}

// guardRanks returns a key for the ranks a guard holds at, with the key of
// its relations on other symbols, and whether any rank satisfies it. Guards
// are shared by the pieces of memoized counts, so the answer is memoized by
// the guard's backing array; the key is a number, one per distinct set of
// ranks and other relations (at P = 1024 the sets are 128 bytes, and
// hashing them for each piece merged dominated merge).
func (an *analysis) guardRanks(g []symbolic.Relation) (key int, live bool) {
	if len(g) == 0 {
		return 0, true
	}
	mk := guardID{&g[0], len(g)}
	if r, ok := an.guardMemo[mk]; ok {
		return r.key, r.live
	}
	var bits []byte
	var other strings.Builder
	for _, r := range g {
		if !onlyRankRel(r) {
			other.WriteString(r.Key())
			other.WriteByte(';')
			continue
		}
		t, err := an.rankTable(counting.Rel{R: r})
		if err != nil {
			other.WriteString(r.Key())
			other.WriteByte(';')
			continue
		}
		if bits == nil {
			bits = make([]byte, (an.np+7)/8)
			for i := range bits {
				bits[i] = 0xff
			}
		}
		for i, h := range t {
			if !h {
				bits[i/8] &^= 1 << (i % 8)
			}
		}
	}
	live = true
	if bits != nil {
		live = false
		for i := int64(0); i < an.np; i++ {
			if bits[i/8]&(1<<(i%8)) != 0 {
				live = true
				break
			}
		}
	}
	text := string(bits) + "|" + other.String()
	if an.guardMemo == nil {
		an.guardMemo = map[guardID]rankKey{}
		an.guardKeys = map[string]int{"": 0}
	}
	key, ok := an.guardKeys[text]
	if !ok {
		key = len(an.guardKeys)
		an.guardKeys[text] = key
	}
	an.guardMemo[mk] = rankKey{key, live}
	return key, live
}

// guardID identifies a guard slice by its backing array and length.
type guardID struct {
	first *symbolic.Relation
	n     int
}

type rankKey struct {
	key  int
	live bool
}

// uniform returns the constant a closed form in the rank takes at every
// rank 0..P-1 as one unguarded piece, and pw itself when the ranks differ
// (or it has other symbols): the cases of rank classes that all count the
// same print as one number.
func (an *analysis) uniform(pw symbolic.Piecewise) symbolic.Piecewise {
	if len(pw.Pieces) < 2 {
		return pw
	}
	for _, p := range pw.Pieces {
		if len(p.Value.Symbols()) > 0 {
			return pw
		}
		for _, g := range p.Guard {
			if !onlyRankRel(g) {
				return pw
			}
		}
	}
	f, err := pw.Compile([]string{symeval.Rank})
	if err != nil {
		return pw
	}
	var first symbolic.Rat
	for rk := int64(0); rk < an.np; rk++ {
		v, err := f.EvalInt([]int64{rk})
		if err != nil {
			return pw
		}
		if rk == 0 {
			first = v
		} else if !v.Equal(first) {
			return pw
		}
	}
	if first.IsZero() {
		return symbolic.Piecewise{}
	}
	return symbolic.PiecewiseOf(symbolic.Const(first))
}

func onlyRankRel(r symbolic.Relation) bool {
	s, ok := r.E.SingleSymbol()
	return ok && s == symeval.Rank
}
