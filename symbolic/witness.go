package symbolic

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Witnesses: integer points that satisfy a set of relations, found by a
// cheap randomized construction and checked exactly. A goal that is negative
// at a witness cannot be proved non-negative, so the prover need not try.
//
// This changes no answer of a sound prover, only how long a failed attempt
// takes: the prover's "unknown" comes from exhausting its search, and most of
// the counting engine's questions whose answer is "unknown" (is floor(k*n/p)
// >= n?) or "false" are refuted by a point such as n = 3, p = 2, k = 1 in a
// few microseconds, where the search takes hundreds.

// useWitnesses is false only in the test that checks the witnesses change
// no answer.
var useWitnesses = true

// witnessSet holds points over vars, each satisfying every relation exactly.
type witnessSet struct {
	vars []string
	pts  [][]int64
	// evals is how many evaluations of relations its construction's scans
	// made (at most witnessEvals).
	evals int
}

// maxWitnesses bounds the points kept per relation set; witnessAttempts the
// constructions tried.
const (
	maxWitnesses    = 8
	witnessAttempts = 24
	witnessMisses   = 6 // attempts that fail in a row before giving up
)

// scanSteps are the offsets tried each way from a pick for a relation that is
// not linear in the symbol: 0..11, then doubling to 2^20.
var scanSteps = func() []int64 {
	var out []int64
	for d := range int64(12) {
		out = append(out, d)
	}
	for d := int64(16); d <= 1<<20; d *= 2 {
		out = append(out, d)
	}
	return out
}()

var witnessMemo struct {
	sync.Mutex
	m map[string]*witnessSet
}

// witnessGen counts ForgetProofs calls: an Assumptions' own witnessCache
// from an earlier generation is not used, so that a forgotten set is built
// again wherever it is asked for.
var witnessGen atomic.Uint64

type witnessCache struct {
	gen uint64
	w   *witnessSet
}

// witnesses returns points satisfying a's relations, from the process-wide
// memo (emptied with ForgetProofs) or freshly built. Assumptions cloned from
// others and then given more relations (a counting cell's context: the
// caller's assumptions plus the cell's bounds) extend the witnesses of the
// relations they were cloned with, which assigns only the new symbols (new
// relations on the old symbols alone keep the old points that satisfy them);
// a search of their own follows only when that finds nothing. The set is a
// function of the relations and the clone point, which the memo key holds,
// so answers stay the same from run to run.
func (a *Assumptions) witnesses() *witnessSet {
	gen := witnessGen.Load()
	if c := a.wit.Load(); c != nil && c.gen == gen {
		return c.w
	}
	w := a.lookupOrBuildWitnesses()
	a.wit.Store(&witnessCache{gen: gen, w: w})
	return w
}

func (a *Assumptions) lookupOrBuildWitnesses() *witnessSet {
	n := a.nclone
	if n >= len(a.rels) {
		n = 0
	}
	key := a.key() + "^" + strconv.Itoa(n)
	if w, ok := lookupWitnesses(key); ok {
		return w
	}
	var w *witnessSet
	if n == 0 {
		w = findWitnesses(a.rels)
	} else {
		base := (&Assumptions{rels: a.rels[:n:n]}).witnesses()
		w = extendWitnesses(base, a.rels, n)
		if len(w.pts) == 0 {
			w = findWitnesses(a.rels)
		}
	}
	witnessMemo.Lock()
	if witnessMemo.m == nil || len(witnessMemo.m) >= proofMemoMax {
		witnessMemo.m = make(map[string]*witnessSet)
	}
	witnessMemo.m[key] = w
	witnessMemo.Unlock()
	return w
}

func lookupWitnesses(key string) (*witnessSet, bool) {
	witnessMemo.Lock()
	defer witnessMemo.Unlock()
	w, ok := witnessMemo.m[key]
	return w, ok
}

// witnessRel is a relation compiled over the set's vars.
type witnessRel struct {
	f    *Func // compiled on first use for an affine relation (see fn)
	e    Expr
	vars []string
	op   RelOp
	uses []int    // indices of the vars it mentions
	per  []relVar // parallel to uses
	// affine: every term is a constant or a constant times a symbol, and the
	// relation scaled by a positive integer is ic0 + sum(ilin*x) over its
	// vars; ranges and checks then need no evaluation at all. Most relations
	// a counting problem gives (n >= 1, 1 <= k <= p, i <= j) are of this form.
	affine bool
	ic0    int64
}

// relVar is what a witnessRel knows of one of its vars x.
type relVar struct {
	// linear: the relation is coef*x + (terms without x), so one evaluation
	// at x = 0 gives its range in x where three would have to show it is
	// linear.
	linear bool
	coef   Rat
	ilin   int64 // affine relations: x's integer coefficient
}

// newWitnessRel compiles r over vars.
func newWitnessRel(r Relation, vars []string) (*witnessRel, bool) {
	x := &witnessRel{e: r.E, vars: vars, op: r.Op}
	affine := true
	for _, t := range r.E.t {
		if len(t.m) > 1 || len(t.m) == 1 && (t.m[0].e != 1 || t.m[0].a.kind != kSym) {
			affine = false
		}
	}
	var sb [8]string
	syms := r.E.appendSymbols(sb[:0])
	x.uses = make([]int, len(syms))
	x.per = make([]relVar, len(syms))
	for j, s := range syms {
		x.uses[j], _ = slices.BinarySearch(vars, s)
		x.per[j].coef, _, x.per[j].linear = r.E.linearIn(s)
	}
	var nb [8]int64
	var num []int64
	if affine {
		num, _, affine = scaledInts(nb[:0], len(r.E.t), func(i int) Rat { return r.E.t[i].c })
	}
	if !affine {
		// Compiled now: a relation that cannot be evaluated exactly (log2)
		// gives no witnesses.
		if x.fn() == nil || !x.f.rational {
			return nil, false
		}
		return x, true
	}
	for i, t := range r.E.t {
		if len(t.m) == 0 {
			x.ic0 = num[i]
			continue
		}
		j, _ := slices.BinarySearch(syms, t.m[0].a.name)
		x.per[j].ilin = num[i]
	}
	x.affine = true
	return x, true
}

// fn returns the relation compiled (nil if it cannot be).
func (r *witnessRel) fn() *Func {
	if r.f == nil {
		r.f, _ = r.e.Compile(r.vars)
	}
	return r.f
}

// affineRest returns ic0 + sum(ilin[j]*pt[uses[j]]) over the uses other than
// skip (-1: none); ok is false on overflow.
func (r *witnessRel) affineRest(pt []int64, skip int) (int64, bool) {
	sum := r.ic0
	for j, u := range r.uses {
		if j == skip {
			continue
		}
		p, ok := mul64(r.per[j].ilin, pt[u])
		if !ok {
			return 0, false
		}
		if sum, ok = add64(sum, p); !ok {
			return 0, false
		}
	}
	return sum, true
}

func (r *witnessRel) holds(pt []int64) (bool, bool) {
	sign, done := 0, false
	if r.affine {
		var v int64
		v, done = r.affineRest(pt, -1)
		sign = cmp.Compare(v, 0)
	}
	if !done {
		v, ok := r.fn().valueInt(pt)
		if !ok {
			return false, false
		}
		sign = v.Sign()
	}
	switch r.op {
	case EQ:
		return sign == 0, true
	case GT:
		return sign > 0, true
	}
	return sign >= 0, true
}

// add64 returns a+b and whether it did not overflow.
func add64(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0)
}

// findWitnesses builds up to maxWitnesses distinct points satisfying rels.
// Symbols are assigned one at a time; a relation whose other symbols all
// have values is, in the remaining one, either linear (its three values at
// 0, 1, 2 lie on a line), which bounds the symbol's range, or checked on up
// to witnessScan candidate values. Values near the ends of a range are
// favoured: they are where goals change sign. The construction is seeded
// by the relations, so answers are the same from run to run.
func findWitnesses(rels []Relation) *witnessSet {
	w, wr, rng, ok := compileWitnessRels(rels, 0)
	if !ok {
		return w
	}
	order := witnessOrder(make([]bool, len(w.vars)), wr)
	misses, evals := 0, witnessEvals
	for range witnessAttempts {
		if len(w.pts) == maxWitnesses || misses == witnessMisses || evals <= 0 {
			break
		}
		pt, ok := buildWitness(len(w.vars), order, wr, rng, len(w.pts) == 0 && misses == 0, &evals)
		if !ok {
			misses++
			continue
		}
		misses = 0
		w.add(pt)
	}
	w.evals = witnessEvals - evals
	return w
}

// compileWitnessRels returns an empty set over the symbols of rels, the
// relations from rels[from] on compiled over them, and the generator all the
// relations seed; ok is false when a compiled relation cannot be evaluated
// exactly or is a false constant.
func compileWitnessRels(rels []Relation, from int) (w *witnessSet, wr []*witnessRel, rng *rand.Rand, ok bool) {
	w = &witnessSet{}
	for _, r := range rels {
		w.vars = r.E.appendSymbols(w.vars)
	}
	for _, r := range rels[from:] {
		x, ok := newWitnessRel(r, w.vars)
		if !ok {
			return w, nil, nil, false
		}
		wr = append(wr, x)
	}
	zero := make([]int64, len(w.vars))
	for _, x := range wr {
		if len(x.uses) == 0 {
			if ok, _ := x.holds(zero); !ok {
				return w, nil, nil, false // a constant relation that fails: no points at all
			}
		}
	}
	h := uint64(len(rels))
	var key strings.Builder
	for _, r := range rels {
		r.writeKey(&key)
	}
	for _, c := range key.String() {
		h = h*1099511628211 + uint64(c)
	}
	return w, wr, rand.New(rand.NewPCG(h, 0x6d6b766574)), true
}

// add appends pt unless it is already there.
func (w *witnessSet) add(pt []int64) {
	if !slices.ContainsFunc(w.pts, func(q []int64) bool { return slices.Equal(q, pt) }) {
		w.pts = append(w.pts, pt)
	}
}

// extendWitnesses builds points of rels from the points of base, the set of
// rels[:n]: each base point keeps its values and only the symbols base does
// not mention are assigned (a loop's index, given the parameters). Only the
// relations after n are evaluated: the first n hold at the base points and
// mention none of the new symbols. A base point that a new relation on its
// symbols excludes gives nothing.
func extendWitnesses(base *witnessSet, rels []Relation, n int) *witnessSet {
	w, wr, rng, ok := compileWitnessRels(rels, n)
	if !ok {
		return w
	}
	// Where base's symbols sit among w's, and the relations on them alone,
	// which a base point must pass before anything is assigned.
	at := make([]int, len(base.vars))
	old := make([]bool, len(w.vars))
	for j, name := range base.vars {
		at[j], _ = slices.BinarySearch(w.vars, name)
		old[at[j]] = true
	}
	var oldRels []*witnessRel
	for _, r := range wr {
		if !slices.ContainsFunc(r.uses, func(u int) bool { return !old[u] }) {
			oldRels = append(oldRels, r)
		}
	}
	order := witnessOrder(slices.Clone(old), wr)
	evals := witnessEvals
	for _, bp := range base.pts {
		if evals <= 0 {
			break
		}
		pt := make([]int64, len(w.vars))
		for j, i := range at {
			pt[i] = bp[j]
		}
		if !holdsAll(oldRels, pt) {
			continue
		}
		for range 2 {
			b := &witnessBuilder{pt: pt, assigned: slices.Clone(old), order: order, wr: wr, rng: rng, budget: witnessBudget, evals: &evals}
			if b.assign(0) && holdsAll(wr, pt) {
				w.add(slices.Clone(pt))
				break
			}
		}
	}
	w.evals = witnessEvals - evals
	return w
}

// holdsAll reports whether every relation holds at pt.
func holdsAll(wr []*witnessRel, pt []int64) bool {
	for _, r := range wr {
		if ok, _ := r.holds(pt); !ok {
			return false
		}
	}
	return true
}

// forwardOrder orders the vars not yet assigned so that relations complete
// early: next is the var that completes the most relations, then the one
// that occurs most. It marks them all assigned.
func forwardOrder(assigned []bool, wr []*witnessRel) []int {
	// Counted once and kept as vars are assigned: a set of relations over
	// thousands of parameters (a program whose counts rest on data) made
	// the scan of every relation for every var, at every step, cubic.
	n := len(assigned)
	rels := make([][]int, n) // the relations each var is in
	open := make([]int, len(wr))
	done := make([]int, n) // relations whose only unassigned var is v
	for i, r := range wr {
		for _, u := range r.uses {
			if !slices.Contains(rels[u], i) {
				rels[u] = append(rels[u], i)
				if !assigned[u] {
					open[i]++
				}
			}
		}
	}
	last := func(i int) int {
		for _, u := range wr[i].uses {
			if !assigned[u] {
				return u
			}
		}
		return -1
	}
	for i := range wr {
		if open[i] == 1 {
			done[last(i)]++
		}
	}
	var order []int
	for range n - countTrue(assigned) {
		best := -1
		for v := range n {
			if !assigned[v] && (best < 0 || done[v] > done[best] || done[v] == done[best] && len(rels[v]) > len(rels[best])) {
				best = v
			}
		}
		assigned[best] = true
		order = append(order, best)
		for _, i := range rels[best] {
			if open[i]--; open[i] == 1 {
				done[last(i)]++
			}
		}
	}
	return order
}

// witnessOrder orders the vars not yet assigned and marks them assigned.
//
// A relation is settled by the last of its vars to be assigned. When it is
// linear in that var, its range follows directly; otherwise the builder must
// scan candidate values, which costs tens of evaluations and can miss. The
// forward order is kept when it settles every relation by a var it is linear
// in (the points, and so the answers, stay what they were). Otherwise the
// order is built from the back: the var placed last is one in which every
// relation still open is linear (a loop index, given the parameters), and
// the relations it settles are closed. Among several such vars, the one in
// the most open relations goes last; when there is none, the one with the
// fewest non-linear relations.
func witnessOrder(assigned []bool, wr []*witnessRel) []int {
	before := slices.Clone(assigned)
	if order := forwardOrder(assigned, wr); settlesLinearly(order, wr) {
		return order
	}
	copy(assigned, before)
	open := make([]bool, len(wr))
	for i, r := range wr {
		open[i] = slices.ContainsFunc(r.uses, func(u int) bool { return !assigned[u] })
	}
	var order []int
	for range len(assigned) - countTrue(assigned) {
		best, bestBad, bestOcc := -1, 0, 0
		for v := range assigned {
			if assigned[v] {
				continue
			}
			bad, occ := 0, 0
			for i, r := range wr {
				j := slices.Index(r.uses, v)
				if !open[i] || j < 0 {
					continue
				}
				occ++
				if !r.affine && !r.per[j].linear {
					bad++
				}
			}
			if best < 0 || bad < bestBad || bad == bestBad && occ > bestOcc {
				best, bestBad, bestOcc = v, bad, occ
			}
		}
		assigned[best] = true
		order = append(order, best)
		for i, r := range wr {
			if slices.Contains(r.uses, best) {
				open[i] = false
			}
		}
	}
	slices.Reverse(order)
	return order
}

// settlesLinearly reports whether every relation with a var in order is
// linear in the last of its vars to be assigned in that order.
func settlesLinearly(order []int, wr []*witnessRel) bool {
	for _, r := range wr {
		if r.affine {
			continue
		}
		last, at := -1, -1
		for j, u := range r.uses {
			if k := slices.Index(order, u); k > at {
				last, at = j, k
			}
		}
		if last >= 0 && !r.per[last].linear {
			return false
		}
	}
	return true
}

// buildWitness makes one attempt at a point.
//
// The first attempt (low) takes every symbol's least value, the corner where
// loop nests start.
func buildWitness(n int, order []int, wr []*witnessRel, rng *rand.Rand, low bool, evals *int) ([]int64, bool) {
	b := &witnessBuilder{pt: make([]int64, n), assigned: make([]bool, n), order: order, wr: wr, rng: rng,
		low: low, budget: witnessBudget, evals: evals}
	if !b.assign(0) || !holdsAll(wr, b.pt) {
		return nil, false
	}
	return b.pt, true
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// witnessTries is how many values a symbol gets before the search backs up
// to the one assigned before it, and witnessBudget bounds the values tried
// in one attempt: a value that leaves no room for the symbols after it (n1
// = 34, where floor(k*n2/p) must hold a multiple of n1 below n1^2) is
// replaced rather than the whole attempt lost.
const (
	witnessTries  = 3
	witnessBudget = 24
)

// witnessEvals bounds the evaluations of relations one witness set's
// construction makes in its scans (every attempt together). A set of
// relations with no integer point (a case of a split whose guards
// contradict each other modulo some period) fails every scan of every
// attempt, tens of thousands of evaluations, and such cases are most of
// the cells of a count over a long else-if ladder; a point that exists is
// found within a few hundred. Past the bound the set keeps the points it
// has, which changes no answer (see the package comment above), only who
// answers: the prover's search.
const witnessEvals = 2048

type witnessBuilder struct {
	pt       []int64
	assigned []bool
	order    []int
	wr       []*witnessRel
	rng      *rand.Rand
	low      bool
	budget   int
	// evals is what is left of the set's witnessEvals, shared by its
	// attempts.
	evals *int
}

// assign gives values to order[i:], backtracking.
func (b *witnessBuilder) assign(i int) bool {
	if i == len(b.order) {
		return true
	}
	const inf = math.MaxInt64
	v := b.order[i]
	lo, hi := int64(-inf), int64(inf)
	var other []*witnessRel
	for _, r := range b.wr {
		if !slices.Contains(r.uses, v) {
			continue
		}
		complete := true
		for _, u := range r.uses {
			if u != v && !b.assigned[u] {
				complete = false
			}
		}
		if !complete {
			continue
		}
		l, h, linear, ok := linearRange(r, b.pt, v)
		if !ok {
			return false
		}
		if !linear {
			other = append(other, r)
			continue
		}
		lo, hi = max(lo, l), min(hi, h)
	}
	if lo > hi {
		return false
	}
	for try := range witnessTries {
		if b.budget <= 0 {
			return false
		}
		b.budget--
		x, ok := pick(lo, hi, b.rng)
		if b.low && try == 0 {
			switch {
			case lo != -inf:
				x, ok = lo, true
			case hi != inf:
				x, ok = min(hi, 0), true
			default:
				x, ok = 0, true
			}
		}
		if !ok {
			return false
		}
		if !b.scan(v, x, lo, hi, other) {
			continue
		}
		b.assigned[v] = true
		if b.assign(i + 1) {
			return true
		}
		b.assigned[v] = false
	}
	return false
}

// scan sets var v to the value nearest the pick x within [lo, hi] at which
// the relations other (not linear in v) hold: the next few values each way,
// then doubling steps, which reach a relation that holds only for large
// values (floor(k*n2/p) >= n1^2 needs n2 large).
func (b *witnessBuilder) scan(v int, x, lo, hi int64, other []*witnessRel) bool {
	b.pt[v] = x
	if len(other) == 0 {
		return true
	}
	for _, d := range scanSteps {
		for _, c := range [2]int64{x + d, x - d - 1} {
			if c < lo || c > hi {
				continue
			}
			b.pt[v] = c
			all := true
			for _, r := range other {
				if *b.evals <= 0 {
					return false
				}
				*b.evals--
				if ok, _ := r.holds(b.pt); !ok {
					all = false
					break
				}
			}
			if all {
				return true
			}
		}
	}
	return false
}

// linearRange returns the integer range of var v, the other vars at their
// values, in which r holds, when r is linear in v: r's coefficient of v is a
// constant, or r's values at v = 0, 1, 2 lie on a line c*x + d (EQ: one
// value, or an empty range). linear is false otherwise. ok is false when r
// cannot hold for any value (a constant that fails).
func linearRange(r *witnessRel, pt []int64, v int) (lo, hi int64, linear, ok bool) {
	j := slices.Index(r.uses, v)
	if r.affine {
		if d, ok := r.affineRest(pt, j); ok && d != math.MinInt64 {
			lo, hi := intRange(r.per[j].ilin, d, r.op)
			return lo, hi, true, true
		}
	}
	var c, d Rat
	if j >= 0 && r.per[j].linear {
		pt[v] = 0
		y, ok := r.fn().valueInt(pt)
		if !ok {
			return 0, 0, false, true
		}
		c, d = r.per[j].coef, y
	} else {
		var ys [3]Rat
		for x := range int64(3) {
			pt[v] = x
			y, ok := r.fn().valueInt(pt)
			if !ok {
				return 0, 0, false, true
			}
			ys[x] = y
		}
		c = ys[1].Sub(ys[0])
		if ys[2].Sub(ys[1]).Cmp(c) != 0 {
			return 0, 0, false, true
		}
		d = ys[0]
	}
	const inf = math.MaxInt64
	if c.Sign() == 0 {
		holds := d.Sign() > 0 || d.Sign() == 0 && r.op != GT
		if r.op == EQ {
			holds = d.Sign() == 0
		}
		return -inf, inf, true, holds
	}
	// c*x + d op 0  <=>  x op' -d/c.
	root := d.Neg().Quo(c)
	fl, okf := root.Floor().Int64()
	if !okf {
		return 0, 0, false, true
	}
	lo, hi = rootRange(c.Sign(), fl, root.IsInt(), r.op)
	return lo, hi, true, true
}

// intRange is the integer range of x where c*x + d op 0, c != 0 and d >
// MinInt64: rootRange with the root -d/c computed in integers.
func intRange(c, d int64, op RelOp) (lo, hi int64) {
	fl, rem := floorDivMod(-d, c)
	return rootRange(cmp.Compare(c, 0), fl, rem == 0, op)
}

// rootRange is the integer range of x where c*x + d op 0, given the sign of
// c (non-zero) and the root -d/c: its floor fl and whether it is an integer.
func rootRange(csign int, fl int64, exact bool, op RelOp) (lo, hi int64) {
	const inf = math.MaxInt64
	switch op {
	case EQ:
		if !exact {
			return 1, 0
		}
		return fl, fl
	case GT:
		if csign > 0 {
			return fl + 1, inf
		}
		if exact {
			return -inf, fl - 1
		}
		return -inf, fl
	}
	if csign > 0 {
		if exact {
			return fl, inf
		}
		return fl + 1, inf
	}
	return -inf, fl
}

// pick chooses a value in [lo, hi], favouring the ends and small offsets
// from them; an unbounded side extends a little past the other end, and a
// symbol bounded on neither side takes a small value.
func pick(lo, hi int64, rng *rand.Rand) (int64, bool) {
	const inf = math.MaxInt64
	small := func() int64 { return [...]int64{0, 0, 1, 1, 2, 3, 4, 5, 7, 10, 16, 33}[rng.IntN(12)] }
	switch {
	case lo == -inf && hi == inf:
		x := small()
		if rng.IntN(4) == 0 {
			x = -x
		}
		return x, true
	case hi == inf:
		if lo > inf/4 {
			return 0, false
		}
		return lo + small(), true
	case lo == -inf:
		if hi < -inf/4 {
			return 0, false
		}
		return hi - small(), true
	}
	span := hi - lo
	if span < 0 || span > inf/4 {
		return 0, false
	}
	switch rng.IntN(4) {
	case 0:
		return lo, true
	case 1:
		return hi, true
	}
	return lo + rng.Int64N(span+1), true
}

// eval returns e's value at each witness and whether it has one there (a
// zero divisor, say, gives none); nil when e cannot be evaluated exactly.
// Symbols of e that no relation mentions are unconstrained and take the
// witness's index mod 5 minus 1.
func (w *witnessSet) eval(e Expr) ([]Rat, []bool) {
	if len(w.pts) == 0 {
		return nil, nil
	}
	var q qvec
	var bad [maxWitnesses]bool
	if w.evalQ(e, &q, &bad) {
		vals, ok := make([]Rat, len(w.pts)), make([]bool, len(w.pts))
		for i := range w.pts {
			if ok[i] = !bad[i]; ok[i] {
				vals[i] = RatFrac(q[i].n, q[i].d)
			}
		}
		return vals, ok
	}
	return w.evalExact(e)
}

// evalExact is eval through a compiled Func and exact rationals.
func (w *witnessSet) evalExact(e Expr) ([]Rat, []bool) {
	vars := w.vars
	var extra []string
	for _, s := range e.Symbols() {
		if !slices.Contains(w.vars, s) {
			extra = append(extra, s)
		}
	}
	if len(extra) > 0 {
		vars = append(slices.Clip(w.vars), extra...)
	}
	f, err := e.Compile(vars)
	if err != nil || !f.rational {
		return nil, nil
	}
	pt := make([]int64, len(vars))
	vals, ok := make([]Rat, len(w.pts)), make([]bool, len(w.pts))
	for i, p := range w.pts {
		copy(pt, p)
		for j := range extra {
			pt[len(p)+j] = int64((i+j)%5) - 1
		}
		vals[i], ok[i] = f.valueInt(pt)
	}
	return vals, ok
}

// values returns e's value at every witness, when it has one at each.
func (w *witnessSet) values(e Expr) ([]Rat, bool) {
	vals, ok := w.eval(e)
	if vals == nil || slices.Contains(ok, false) {
		return nil, false
	}
	return vals, true
}

// signs reports what the witnesses show about e: neg, zero and pos say e
// takes a negative, zero and positive value at some witness.
func (w *witnessSet) signs(e Expr) (neg, zero, pos bool) {
	var q qvec
	var bad [maxWitnesses]bool
	if len(w.pts) > 0 && w.evalQ(e, &q, &bad) {
		for i := range w.pts {
			switch {
			case bad[i]:
			case q[i].n < 0:
				neg = true
			case q[i].n == 0:
				zero = true
			default:
				pos = true
			}
		}
		return
	}
	vals, ok := w.evalExact(e)
	for i, v := range vals {
		if !ok[i] {
			continue
		}
		switch v.Sign() {
		case -1:
			neg = true
		case 0:
			zero = true
		default:
			pos = true
		}
	}
	return
}
