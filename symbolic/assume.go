package symbolic

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Truth is the answer of the compare oracle.
type Truth int8

const (
	Unknown Truth = iota + 1 // neither proven nor refuted
	True                     // holds at every point allowed by the assumptions
	False                    // fails at every point allowed by the assumptions
)

func (t Truth) String() string {
	switch t {
	case True:
		return "true"
	case False:
		return "false"
	}
	return "unknown"
}

// Assumptions are facts about symbols: integer lower and upper bounds and
// relations between symbols (N >= P, 0 <= me <= P-1). The compare oracle Prove
// answers only what follows from them; it answers Unknown rather than guess.
//
// The zero value has no assumptions. Methods that add assumptions must not be
// called concurrently with others; Prove and Simplify may run concurrently.
type Assumptions struct {
	rels   []Relation
	budget int // proof steps for one question; 0 means proofBudget
	// cache holds the bounds read from rels, computed on first use and
	// dropped when a relation is added; each proof copies it with a fresh
	// interval memo, so concurrent proofs share it read-only.
	cache atomic.Pointer[bounds]
	// text is the relations' key (see Relation.writeKey), the key of the
	// proof memo; computed on first use and dropped when a relation is added.
	text atomic.Pointer[keyText]
	// nclone is the number of leading relations a Clone copied: their
	// witnesses are extended to the relations added since (see witness.go).
	// prefix, when set, is their key, known when the original's was.
	nclone int
	prefix *string
	// wit holds the witnesses of rels once looked up, saving the memo key;
	// dropped when a relation is added, and stale after ForgetProofs.
	wit atomic.Pointer[witnessCache]
}

// proofMemo remembers the answers of recent questions, process-wide: the
// counting engine and the cost stage ask the same questions under the same
// relations many times (sibling loops, repeated contexts), and one proof costs
// far more than printing its key. Answers depend only on the relations, the
// question and the budget, so a remembered answer is the answer.
var proofMemo struct {
	sync.Mutex
	m map[string]Truth
}

// proofMemoMax bounds the memo; it is emptied when full.
const proofMemoMax = 1 << 16

// ForgetProofs empties the process-wide memo of answered questions, so that
// a benchmark measures proofs rather than look-ups.
func ForgetProofs() {
	proofMemo.Lock()
	proofMemo.m = nil
	proofMemo.Unlock()
	witnessMemo.Lock()
	witnessMemo.m = nil
	witnessGen.Add(1)
	witnessMemo.Unlock()
}

func (a *Assumptions) key() string {
	k, _ := a.keys()
	return k
}

// keys returns the key of a's relations and the key of the first nclone of
// them (empty when a was not cloned or has no more relations than then).
func (a *Assumptions) keys() (full, cloned string) {
	if t := a.text.Load(); t != nil {
		return t.full, t.cloned
	}
	var b strings.Builder
	b.Grow(48 * len(a.rels))
	t := &keyText{}
	from := 0
	if a.prefix != nil && a.nclone > 0 && a.nclone <= len(a.rels) {
		// The relations a was cloned from have their key already.
		b.WriteString(*a.prefix)
		from = a.nclone
	}
	for i := from; i < len(a.rels); i++ {
		if i == a.nclone && i > 0 {
			t.cloned = b.String()
		}
		a.rels[i].writeKey(&b)
		b.WriteByte(';')
	}
	t.full = b.String()
	a.text.Store(t)
	return t.full, t.cloned
}

type keyText struct{ full, cloned string }

// WriteKey writes r's Key to b, without making a string of its own.
func (r Relation) WriteKey(b *strings.Builder) { r.writeKey(b) }

// writeKey writes a string that identifies r among relations of canonical
// expressions: cheaper than printing it, and unambiguous.
func (r Relation) writeKey(b keyWriter) {
	b.WriteByte(byte('0' + r.Op))
	r.E.writeKey(b)
}

// baseBounds returns a private copy of the bounds of a's relations.
func (a *Assumptions) baseBounds() *bounds {
	b := a.cache.Load()
	if b == nil {
		b = collectBounds(a.rels)
		b.memo = nil
		a.cache.Store(b)
	}
	return &bounds{lower: b.lower, upper: b.upper, eq: b.eq}
}

// NewAssumptions returns assumptions holding the given relations.
func NewAssumptions(rels ...Relation) *Assumptions {
	a := &Assumptions{}
	a.Assume(rels...)
	return a
}

// Clone returns an independent copy of a.
func (a *Assumptions) Clone() *Assumptions {
	if a == nil {
		return &Assumptions{}
	}
	b := &Assumptions{rels: slices.Clone(a.rels), budget: a.budget, nclone: len(a.rels)}
	if t := a.text.Load(); t != nil {
		b.prefix = &t.full
	}
	return b
}

// rebudget returns a with budget as its proof budget: the same relations,
// sharing what was computed from them (their bounds, key and witnesses).
func (a *Assumptions) rebudget(budget int) *Assumptions {
	if a == nil {
		return &Assumptions{budget: budget}
	}
	b := &Assumptions{rels: slices.Clone(a.rels), budget: budget, nclone: a.nclone, prefix: a.prefix}
	b.cache.Store(a.cache.Load())
	b.text.Store(a.text.Load())
	b.wit.Store(a.wit.Load())
	return b
}

// Assume adds relations.
func (a *Assumptions) Assume(rels ...Relation) {
	for _, r := range rels {
		if slices.ContainsFunc(a.rels, func(o Relation) bool { return o.Op == r.Op && Equal(o.E, r.E) }) {
			continue
		}
		a.rels = append(a.rels, r)
		a.cache.Store(nil)
		a.text.Store(nil)
		a.wit.Store(nil)
	}
}

// AssumeText parses relations ("N >= P", "0 <= me <= P-1") and adds them.
func (a *Assumptions) AssumeText(s string) error {
	rels, err := ParseRelations(s)
	if err != nil {
		return err
	}
	a.Assume(rels...)
	return nil
}

// Range assumes lo <= name <= hi.
func (a *Assumptions) Range(name string, lo, hi Expr) {
	x := Sym(name)
	a.Assume(Rel(x, ">=", lo), Rel(x, "<=", hi))
}

// Relations returns the assumed relations.
func (a *Assumptions) Relations() []Relation {
	if a == nil {
		return nil
	}
	return slices.Clone(a.rels)
}

// Holds reports whether every assumption holds at the point env (used by tests
// and by callers that enumerate points).
//
// A relation that cannot be evaluated (a division by zero) matters only when
// no other relation is false: a conjunction is false as soon as one part is.
func (a *Assumptions) Holds(env map[string]Rat) (bool, error) {
	if a == nil {
		return true, nil
	}
	var firstErr error
	for _, r := range a.rels {
		v, err := r.E.Eval(env)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if !r.Holds(v) {
			return false, nil
		}
	}
	if firstErr != nil {
		return false, firstErr
	}
	return true, nil
}

func (a *Assumptions) String() string {
	if a == nil || len(a.rels) == 0 {
		return "(none)"
	}
	parts := make([]string, len(a.rels))
	for i, r := range a.rels {
		parts[i] = r.String()
	}
	return strings.Join(parts, ", ")
}

// Prove decides r under the assumptions: True if it holds everywhere they allow,
// False if it fails everywhere, Unknown otherwise or when no proof was found.
func (a *Assumptions) Prove(r Relation) Truth { return a.ProveWithin(r, a.budgetOr()) }

// budgetOr returns a's proof budget, or the default.
func (a *Assumptions) budgetOr() int {
	if a != nil && a.budget > 0 {
		return a.budget
	}
	return proofBudget
}

// ProveWithin is Prove with a bound on the proof steps tried; a small budget
// answers fast and says Unknown more often, never wrongly.
func (a *Assumptions) ProveWithin(r Relation, budget int) Truth {
	if a == nil {
		a = &Assumptions{}
	}
	if _, ok := r.E.Const(); ok {
		return a.proveWithin(r, budget)
	}
	// The key is the relations' key, then the question: built in one
	// buffer, the question being its tail.
	full, cloned := a.keys()
	var b strings.Builder
	b.Grow(len(full) + 96)
	b.WriteString(full)
	b.WriteByte('|')
	r.writeKey(&b)
	b.WriteByte('|')
	var nb [20]byte
	b.Write(strconv.AppendInt(nb[:0], int64(budget), 10))
	key := b.String()
	question := key[len(full)+1:]
	proofMemo.Lock()
	t, ok := proofMemo.m[key]
	if !ok && cloned != "" {
		// What the relations a was cloned with decided holds with more
		// relations too: true everywhere they allow is true on fewer points,
		// and false everywhere is false there (or there are none).
		if t, ok = proofMemo.m[cloned+"|"+question]; ok && t == Unknown {
			ok = false
		}
	}
	proofMemo.Unlock()
	if ok {
		return t
	}
	t = a.proveWithin(r, budget)
	proofMemo.Lock()
	if proofMemo.m == nil || len(proofMemo.m) >= proofMemoMax {
		proofMemo.m = make(map[string]Truth)
	}
	proofMemo.m[key] = t
	proofMemo.Unlock()
	return t
}

func (a *Assumptions) proveWithin(r Relation, budget int) Truth {
	// An assumption restated is answered before any witness is built.
	switch {
	case r.Op == GE && a.byAssumption(r.E),
		r.Op == GT && r.E.isIntegerValued() && a.byAssumption(r.E.Sub(Int(1))):
		return True
	}
	// A relation on remainders is decided by enumerating them (residue.go).
	if t, ok := a.ByResidues(r); ok {
		return t
	}
	// What the witnesses rule out is not tried (see witness.go): a sound
	// proof of e >= 0 cannot exist where e < 0 at a point the relations
	// allow.
	w := a.witnessSigns(r.E)
	switch r.Op {
	case EQ:
		if r.E.IsZero() || !w.neg && !w.pos && a.nonneg(r.E, budget) && a.nonneg(r.E.Neg(), budget) {
			return True
		}
		if w.canPositive() && a.positive(r.E, budget) || w.canNegative() && a.positive(r.E.Neg(), budget) {
			return False
		}
		if c, ok := r.E.Const(); ok && !c.IsZero() {
			return False
		}
		return Unknown
	case GT:
		if w.canPositive() && a.positive(r.E, budget) {
			return True
		}
		if !w.pos && a.nonneg(r.E.Neg(), budget) {
			return False
		}
		return Unknown
	}
	if !w.neg && a.nonneg(r.E, budget) {
		return True
	}
	if w.canNegative() && a.positive(r.E.Neg(), budget) {
		return False
	}
	return Unknown
}

// witnessSigns are the signs an expression takes at the witnesses.
type witnessSigns struct{ neg, zero, pos bool }

// witnessSigns returns the signs e takes at the witnesses of a's relations
// (none known for a constant, for nil assumptions, or with witnesses off).
func (a *Assumptions) witnessSigns(e Expr) witnessSigns {
	var w witnessSigns
	if _, isConst := e.Const(); !isConst && a != nil && useWitnesses {
		w.neg, w.zero, w.pos = a.witnesses().signs(e)
	}
	return w
}

func (w witnessSigns) canPositive() bool { return !w.neg && !w.zero }
func (w witnessSigns) canNegative() bool { return !w.pos && !w.zero }

// ProveGE decides e >= 0.
func (a *Assumptions) ProveGE(e Expr) Truth { return a.Prove(Relation{E: e, Op: GE}) }

// Compare decides how x and y compare: -1 if x < y, 0 if x == y, +1 if x > y
// everywhere the assumptions allow; ok is false when that is not proven.
func (a *Assumptions) Compare(x, y Expr) (c int, ok bool) {
	d := x.Sub(y)
	if d.IsZero() {
		return 0, true
	}
	w := a.witnessSigns(d)
	switch {
	case w.canPositive() && a.positive(d, a.budgetOr()):
		return 1, true
	case w.canNegative() && a.positive(d.Neg(), a.budgetOr()):
		return -1, true
	}
	return 0, false
}

// nonneg proves e >= 0 within budget proof steps.
func (a *Assumptions) nonneg(e Expr, budget int) bool {
	if a.byAssumption(e) {
		return true
	}
	// Symbols the relations pin to a constant (1 >= k >= 1) are replaced
	// first, so that the rewrites below see the simpler form: with k = 1,
	// floor(k/p - 1/p) - ceil(k/p - n/p) + 1 is 1 + floor((n - 1)/p).
	if pinned := a.baseBounds().constants(); len(pinned) > 0 {
		if f, err := e.Subst(pinned); err == nil {
			if c, ok := f.Const(); ok {
				return c.Sign() >= 0
			}
			e = f
		}
	}
	// floor(x) + r >= 0 with r an integer is x + r >= 0, and
	// -floor(x) + r >= 0 is x < r + 1: exact rewrites that keep the
	// information the floor's interval bounds lose (floor(n/P) >= 1 from
	// n >= P), and spare the search a stand-in symbol. They are tried first;
	// the goal as written is the fallback.
	if x, c, r, ok := floorForm(e); ok {
		if c > 0 && newProof(a, budget).prove(x.Add(r), false, 0) ||
			c < 0 && newProof(a, budget).prove(r.Add(Int(1)).Sub(x), true, 0) {
			return true
		}
		return newProof(a, budget).prove(e, false, 0)
	}
	if newProof(a, budget).prove(e, false, 0) {
		return true
	}
	// e = q/D with D a product of positive atoms: e >= 0 iff q >= 0. Interval
	// bounds lose the link between numerator and denominator ((k-1)/m with
	// k >= 1 and m = floor(n/P) >= 1), clearing D keeps it.
	if d, ok := a.positiveDenominator(e, budget); ok {
		return newProof(a, budget).prove(e.Mul(d), false, 0)
	}
	return false
}

// byAssumption reports whether e is an assumption plus a non-negative
// constant: the bounds cannot see this when the assumption is not a bound on
// one symbol (P*floor(n/P) >= n).
func (a *Assumptions) byAssumption(e Expr) bool { return restated(a.rels, e) }

// restated reports whether e is one of rels plus a non-negative constant.
func restated(rels []Relation, e Expr) bool {
	for _, r := range rels {
		if c, ok := constDiff(e, r.E, false); ok && c.Sign() >= 0 {
			return true
		}
		if r.Op == EQ {
			if c, ok := constDiff(e, r.E, true); ok && c.Sign() >= 0 {
				return true
			}
		}
	}
	return false
}

// constDiff returns e - f (e + f when plus) when that is a constant, without
// building it: the non-constant terms, which canonical order puts before the
// constant, must cancel pairwise.
func constDiff(e, f Expr, plus bool) (Rat, bool) {
	et, ec := splitConst(e)
	ft, fc := splitConst(f)
	if len(et) != len(ft) {
		return Rat{}, false
	}
	for i := range et {
		x, y := et[i], ft[i]
		c := y.c
		if plus {
			c = c.Neg()
		}
		if !monoEqual(x.m, y.m) || x.c.Cmp(c) != 0 {
			return Rat{}, false
		}
	}
	if plus {
		return ec.Add(fc), true
	}
	return ec.Sub(fc), true
}

// splitConst returns e's non-constant terms and its constant term.
func splitConst(e Expr) ([]term, Rat) {
	if n := len(e.t); n > 0 && len(e.t[n-1].m) == 0 {
		return e.t[:n-1], e.t[n-1].c
	}
	return e.t, Rat{}
}

// positiveDenominator returns the product of the non-constant atoms e holds
// to negative powers, when each is proven positive.
func (a *Assumptions) positiveDenominator(e Expr, budget int) (Expr, bool) {
	seen := map[*atom]int32{}
	for _, t := range e.t {
		for _, f := range t.m {
			if f.e < 0 && -f.e > seen[f.a] {
				seen[f.a] = -f.e
			}
		}
	}
	if len(seen) == 0 {
		return Expr{}, false
	}
	den := Int(1)
	for at, k := range seen {
		ae := atomExpr(at)
		if !newProof(a, budget/2).prove(ae, true, 0) && !(ae.isIntegerValued() && newProof(a, budget/2).prove(ae.Sub(Int(1)), false, 0)) {
			if x, c, r, ok := floorForm(ae.Sub(Int(1))); !ok || c < 0 || !newProof(a, budget/2).prove(x.Add(r), false, 0) {
				return Expr{}, false
			}
		}
		den = den.Mul(ae.Pow(int(k)))
	}
	return den, true
}

// floorForm splits e as c*floor(x) + r with c = ±1 and r integer-valued and
// free of that floor.
func floorForm(e Expr) (x Expr, c int, r Expr, ok bool) {
	var fa *atom
	for _, t := range e.t {
		for _, f := range t.m {
			if f.a.kind == kFloor {
				if fa != nil && fa != f.a {
					return Expr{}, 0, Expr{}, false
				}
				fa = f.a
				if len(t.m) != 1 || f.e != 1 {
					return Expr{}, 0, Expr{}, false
				}
				if cv, isInt := t.c.Int64(); !isInt || (cv != 1 && cv != -1) || !t.c.IsInt() {
					return Expr{}, 0, Expr{}, false
				} else {
					c = int(cv)
				}
			}
		}
	}
	if fa == nil {
		return Expr{}, 0, Expr{}, false
	}
	r = e.Sub(atomExpr(fa).Scale(RatInt(int64(c))))
	if !r.isIntegerValued() {
		return Expr{}, 0, Expr{}, false
	}
	return fa.args[0], c, r, true
}

// positive proves e > 0 (for integer-valued e, e >= 1).
func (a *Assumptions) positive(e Expr, budget int) bool {
	if e.isIntegerValued() {
		return a.nonneg(e.Sub(Int(1)), budget)
	}
	return newProof(a, budget).prove(e, true, 0)
}

// proof is one attempt to prove a sign, with the relations in force (which grow
// along case splits) and a work budget.
type proof struct {
	rels   []Relation
	budget *int
	fresh  int
	// base are the bounds of the assumptions the proof started from; they
	// serve while no case split has added a relation (nbase of them).
	base  *Assumptions
	nbase int
}

// bounds returns the bounds of p.rels, from the assumptions' cache when the
// relations are still theirs.
func (p *proof) bounds() *bounds {
	if p.base != nil && len(p.rels) == p.nbase {
		return p.base.baseBounds()
	}
	return collectBounds(p.rels)
}

const proofBudget = 400

func newProof(a *Assumptions, budget int) *proof {
	b := budget
	p := &proof{budget: &b}
	if a != nil {
		p.rels = slices.Clone(a.rels)
		p.base, p.nbase = a, len(a.rels)
	}
	return p
}

func (p *proof) with(r ...Relation) *proof {
	q := *p
	q.rels = append(slices.Clip(p.rels), r...)
	return &q
}

func (p *proof) spend() bool {
	if *p.budget <= 0 {
		return false
	}
	*p.budget--
	return true
}

const maxSplitDepth = 4

// prove shows e >= 0 (strict: e > 0) at every point satisfying p.rels.
// Case splits on min, max and trunc atoms add the condition of each case to the
// relations; both cases must succeed.
func (p *proof) prove(e Expr, strict bool, depth int) bool {
	if !p.spend() {
		return false
	}
	if c, ok := e.Const(); ok {
		return c.Sign() > 0 || !strict && c.Sign() == 0
	}
	// Case splits substitute arguments into powers of the atom; large powers
	// would expand without end, so they are not split.
	// A case split's condition is often the goal itself (n - k*F >= 0 in
	// the case max(-k*F, -n) = -k*F), which bounds, seeing no linear
	// relation in it, do not use.
	if !strict && restated(p.rels, e) || strict && e.isIntegerValued() && restated(p.rels, e.Sub(Int(1))) {
		return true
	}
	// A factor common to every term whose sign its interval shows is taken
	// out: (1 - k)*F with F = floor(-n/P) <= 0 leaves k - 1 >= 0, where
	// bounds on the product k*F are not known.
	if f, rest, ok := commonFactor(e); ok {
		iv := p.bounds().interval(f)
		switch {
		case iv.lo.finite && (iv.lo.v.Sign() > 0 || !strict && iv.lo.v.Sign() == 0):
			if p.prove(rest, strict, depth) {
				return true
			}
		case iv.hi.finite && (iv.hi.v.Sign() < 0 || !strict && iv.hi.v.Sign() == 0):
			if p.prove(rest.Neg(), strict, depth) {
				return true
			}
		}
	}
	if a := splitAtom(e); a != nil && depth < maxSplitDepth && maxExp(e) <= maxShiftDegree {
		for _, c := range splitCases(a) {
			// The case is vacuous when its condition contradicts the relations.
			q := p.with(c.conds...)
			v := replaceAtom(e, a, c.value)
			if !q.prove(v, strict, depth+1) && !q.infeasible(c.conds) {
				return false
			}
		}
		return true
	}
	return p.proveFlat(e, strict)
}

// commonFactor splits e, a sum of two or more terms, as f*rest, f a power of
// an atom every term holds to a positive power.
func commonFactor(e Expr) (f, rest Expr, ok bool) {
	if len(e.t) < 2 {
		return Expr{}, Expr{}, false
	}
	for _, fa := range e.t[0].m {
		if fa.e <= 0 || fa.a.kind == kConst || fa.a.kind == kSqrt || fa.a.kind == kRecip {
			continue
		}
		k := fa.e
		for _, t := range e.t[1:] {
			i := slices.IndexFunc(t.m, func(g factor) bool { return g.a == fa.a })
			if i < 0 || t.m[i].e <= 0 {
				k = 0
				break
			}
			k = min(k, t.m[i].e)
		}
		if k > 0 {
			f = atomExpr(fa.a).Pow(int(k))
			return f, e.Mul(atomExpr(fa.a).Pow(-int(k))), true
		}
	}
	return Expr{}, Expr{}, false
}

// infeasible reports whether the relations with conds added cannot all hold,
// shown by proving the negation of one cond from the others.
func (p *proof) infeasible(conds []Relation) bool {
	for _, c := range conds {
		if c.Op == EQ {
			continue
		}
		// c: E >= 0. Infeasible if -E > 0 follows from the relations before the split.
		q := &proof{rels: slices.DeleteFunc(slices.Clone(p.rels), func(r Relation) bool {
			return r.Op == c.Op && Equal(r.E, c.E)
		}), budget: p.budget}
		neg := c.E.Neg()
		if neg.isIntegerValued() {
			if q.proveFlat(neg.Sub(Int(1)), false) {
				return true
			}
		} else if q.proveFlat(neg, c.Op == GE) {
			return true
		}
	}
	return false
}

// splitAtom returns a min, max or trunc atom of e (outermost first), or nil.
func splitAtom(e Expr) *atom {
	for _, t := range e.t {
		for _, f := range t.m {
			switch f.a.kind {
			case kMin, kMax, kTrunc:
				return f.a
			}
		}
	}
	return nil
}

type splitCase struct {
	conds []Relation
	value Expr
}

// splitCases lists the cases of a: min(x1..xn) = xi where xi <= xj for all j;
// trunc(x) = floor(x) where x >= 0 and -floor(-x) where x <= 0.
func splitCases(a *atom) []splitCase {
	switch a.kind {
	case kTrunc:
		x := a.args[0]
		return []splitCase{
			{conds: []Relation{{E: x, Op: GE}}, value: Floor(x)},
			{conds: []Relation{{E: x.Neg(), Op: GE}}, value: Floor(x.Neg()).Neg()},
		}
	}
	var out []splitCase
	for i, xi := range a.args {
		var conds []Relation
		for j, xj := range a.args {
			if i == j {
				continue
			}
			if a.kind == kMin {
				conds = append(conds, Relation{E: xj.Sub(xi), Op: GE})
			} else {
				conds = append(conds, Relation{E: xi.Sub(xj), Op: GE})
			}
		}
		out = append(out, splitCase{conds: conds, value: xi})
	}
	return out
}

// replaceAtom substitutes v for every occurrence of the atom a in e (at the top
// level of terms; atoms nested in arguments are left alone).
func replaceAtom(e Expr, a *atom, v Expr) Expr {
	return mustSubstTerms(e, func(b *atom) (Expr, bool) { return v, b == a })
}

// mustSubstTerms is substTerms for replacements that cannot make a divisor
// zero (the caller knows it; a zero divisor is a bug and panics).
func mustSubstTerms(e Expr, value func(*atom) (Expr, bool)) Expr {
	v, err := e.substTerms(func(a *atom) (Expr, bool, error) {
		v, ok := value(a)
		return v, ok, nil
	})
	if err != nil {
		panic("symbolic: " + err.Error())
	}
	return v
}

// proveFlat proves e >= 0 (strict: > 0) once min, max and trunc are split away:
// other atoms become fresh symbols bounded by what is known of them, then
// intervals and bound substitution are tried.
func (p *proof) proveFlat(e Expr, strict bool) bool {
	// Symbols pinned to one constant are replaced first, so that floor(-N/4) at
	// N = 0 folds to 0 instead of becoming a loosely bounded unknown.
	base := p.bounds()
	if pinned := base.constants(); len(pinned) > 0 {
		var err error
		if e, err = e.Subst(pinned); err != nil {
			return false
		}
		if c, ok := e.Const(); ok {
			return c.Sign() > 0 || !strict && c.Sign() == 0
		}
	}
	e, rels, ok := p.abstract(e, base)
	if !ok {
		return false
	}
	bs := base
	if len(rels) > len(p.rels) {
		bs = collectBounds(rels) // the abstraction added bounds for its stand-ins
	}
	if iv := bs.interval(e); iv.lo.finite && (iv.lo.v.Sign() > 0 || !strict && iv.lo.v.Sign() == 0) {
		return true
	}
	s := &shifter{bounds: bs, budget: p.budget}
	return s.run(e, strict, map[string]bool{}, 0)
}

// abstract replaces every non-symbol atom at the top level of e by a fresh symbol
// and returns the relations that bound it: floor(x) by x - 1 + 1/q <= F <= x (q
// the denominator of x when x is integer-valued times 1/q); log2, sqrt and
// reciprocals by their intervals.
func (p *proof) abstract(e Expr, bs *bounds) (Expr, []Relation, bool) {
	rels := slices.Clone(p.rels)
	subst := map[*atom]Expr{}
	for _, t := range e.t {
		for _, f := range t.m {
			a := f.a
			if a.kind == kSym || subst[a].t != nil {
				continue
			}
			p.fresh++
			name := "\x00" + strconv.Itoa(p.fresh) // cannot clash with a user symbol
			fs := Sym(name)
			if a.kind != kFloor {
				fs = RealSym(name)
			}
			subst[a] = fs
			switch a.kind {
			case kFloor:
				x := a.args[0]
				rels = append(rels, Relation{E: x.Sub(fs), Op: GE})
				// floor(x) >= 0 exactly when x >= 0; the interval bound
				// x - 1 < floor(x) loses that.
				if len(x.Symbols()) > 0 {
					// The sub-proof's stand-ins must not reuse this one's names.
					q := &proof{rels: p.rels, budget: p.budget, fresh: p.fresh}
					if q.prove(x, false, maxSplitDepth-1) {
						rels = append(rels, Relation{E: fs, Op: GE})
					}
					p.fresh = q.fresh
				}
				if d, ok := integerScale(x, bs); ok {
					// D*x is an integer and D >= 1, so floor(x) >= x - 1 + 1/D.
					rels = append(rels, Relation{E: fs.Sub(x).Add(Int(1)).Sub(Int(1).Div(d)), Op: GE})
					if _, isConst := d.Const(); !isConst {
						// The same bounds times D, free of division, which
						// bound substitution can use: P*floor(N/P) <= N.
						rels = append(rels, Relation{E: x.Sub(fs).Mul(d), Op: GE},
							Relation{E: fs.Sub(x).Add(Int(1)).Mul(d).Sub(Int(1)), Op: GE})
					}
				} else {
					rels = append(rels, Relation{E: fs.Sub(x).Add(Int(1)), Op: GT})
				}
			case kConst: // ln 2 is in (0.69, 0.7)
				rels = append(rels, Relation{E: fs.Sub(Frac(69, 100)), Op: GE}, Relation{E: Frac(7, 10).Sub(fs), Op: GE})
			default:
				iv := bs.atomInterval(a)
				if iv.lo.finite {
					rels = append(rels, Relation{E: fs.Sub(Const(iv.lo.v)), Op: GE})
				}
				if iv.hi.finite {
					rels = append(rels, Relation{E: Const(iv.hi.v).Sub(fs), Op: GE})
				}
			}
		}
	}
	if len(subst) == 0 {
		return e, rels, true
	}
	// The assumptions that mention an abstracted atom say the same of its
	// stand-in (P*floor(n/P) == n bounds P*F).
	for i := range p.rels {
		if r, ok := substAtoms(rels[i].E, subst); ok {
			rels = append(rels, Relation{E: r, Op: rels[i].Op})
		}
	}
	r, _ := substAtoms(e, subst)
	return r, rels, true
}

// substAtoms replaces the atoms of subst at the top level of e's terms; ok
// reports whether any was there.
func substAtoms(e Expr, subst map[*atom]Expr) (Expr, bool) {
	found := false
	r := mustSubstTerms(e, func(a *atom) (Expr, bool) {
		v, ok := subst[a]
		found = found || ok
		return v, ok
	})
	return r, found
}

// integerScale returns a monomial D >= 1 (an integer times integer symbols
// with lower bounds >= 1) such that D*x is integer-valued, when there is one.
func integerScale(x Expr, bs *bounds) (Expr, bool) {
	q := RatInt(1)
	for _, t := range x.t {
		d := t.c.Den()
		if !d.IsInt64() {
			return Expr{}, false
		}
		q = ratLCM(q, RatInt(d.Int64()))
	}
	m := shiftMono(x)
	for _, f := range m {
		if f.a.kind != kSym || !f.a.integer {
			return Expr{}, false
		}
		if iv := bs.atomIval(f.a, 0); !iv.lo.isFinite() || iv.lo.v.Cmp(RatInt(1)) < 0 {
			return Expr{}, false
		}
	}
	d := Const(q).Mul(monoExpr(m))
	if !x.Mul(d).isIntegerValued() {
		return Expr{}, false
	}
	return d, true
}

func ratLCM(a, b Rat) Rat {
	g := ratGCD(a, b)
	return a.Mul(b).Quo(g)
}

// bounds are the lower and upper bounds of each symbol read from relations that
// are linear in it with a constant coefficient.
type bounds struct {
	lower, upper map[string][]Expr
	eq           map[string]Expr
	memo         []symMemo // symbol intervals, computed once per proof
}

// symMemo is a symbol's interval in a bounds' memo: a proof meets a handful
// of symbols, which a slice searched by atom finds faster than a map.
type symMemo struct {
	a  *atom
	iv ival
}

func (b *bounds) memoized(a *atom) (ival, bool) {
	for i := range b.memo {
		if b.memo[i].a == a {
			return b.memo[i].iv, true
		}
	}
	return ival{}, false
}

func (b *bounds) memoize(a *atom, iv ival) {
	for i := range b.memo {
		if b.memo[i].a == a {
			b.memo[i].iv = iv
			return
		}
	}
	b.memo = append(b.memo, symMemo{a, iv})
}

func collectBounds(rels []Relation) *bounds {
	b := &bounds{lower: map[string][]Expr{}, upper: map[string][]Expr{}, eq: map[string]Expr{}}
	// Relations that divide by symbols (-N/P >= 0) are read as bounds after
	// multiplying by the divisor, when the other relations show it positive.
	var plain, divided []Relation
	for _, r := range rels {
		if len(shiftMono(r.E)) > 0 {
			divided = append(divided, r)
		} else {
			plain = append(plain, r)
		}
	}
	b.add(plain)
	b.add(divided) // floor(N/P) <= N/P bounds the floor's stand-in as written
	for _, r := range divided {
		d := monoExpr(shiftMono(r.E))
		if iv := b.interval(d); iv.lo.finite && iv.lo.v.Sign() > 0 {
			b.add([]Relation{{E: r.E.Mul(d), Op: r.Op}})
		}
	}
	return b
}

// add reads bounds from relations that are linear in a symbol with a constant
// coefficient.
func (b *bounds) add(rels []Relation) {
	for _, r := range rels {
		// A symbol the relation is linear in with a constant coefficient has
		// a term c*x of its own.
		for _, t := range r.E.t {
			if len(t.m) != 1 || t.m[0].a.kind != kSym || t.m[0].e != 1 {
				continue
			}
			x := t.m[0].a.name
			c, rest, ok := r.E.linearIn(x)
			if !ok {
				continue
			}
			// c*x + rest op 0  =>  x op' -rest/c
			bound := rest.Neg().Scale(c.Inv())
			if r.Op == GT && isIntSym(x) && bound.isIntegerValued() {
				// c*x + rest > 0 with integers: x > b means x >= b + 1.
				if c.Sign() > 0 {
					bound = bound.Add(Int(1))
				} else {
					bound = bound.Sub(Int(1))
				}
			}
			switch {
			case r.Op == EQ:
				b.eq[x] = bound
			case c.Sign() > 0:
				if isIntSym(x) {
					bound = roundBound(bound, true)
				}
				b.lower[x] = appendUnique(b.lower[x], bound)
			default:
				if isIntSym(x) {
					bound = roundBound(bound, false)
				}
				b.upper[x] = appendUnique(b.upper[x], bound)
			}
		}
	}
}

// constants returns the symbols whose constant lower and upper bounds meet, or
// that an equation fixes to a constant.
func (b *bounds) constants() map[string]Expr {
	out := map[string]Expr{}
	for x, v := range b.eq {
		if _, ok := v.Const(); ok {
			out[x] = v
		}
	}
	for x, los := range b.lower {
		for _, lo := range los {
			l, ok := lo.Const()
			if !ok {
				continue
			}
			for _, hi := range b.upper[x] {
				if h, ok := hi.Const(); ok && h.Equal(l) {
					out[x] = lo
				}
			}
		}
	}
	return out
}

// roundBound tightens a constant bound of an integer symbol: x >= 5/2 is x >= 3.
func roundBound(b Expr, lower bool) Expr {
	if c, ok := b.Const(); ok && !c.IsInt() {
		if lower {
			return Const(c.Floor().Add(RatInt(1)))
		}
		return Const(c.Floor())
	}
	return b
}

func isIntSym(name string) bool {
	a, ok := lookupAtom(string(byte('0'+kSym)) + name)
	return ok && a.integer
}

func appendUnique(xs []Expr, x Expr) []Expr {
	if slices.ContainsFunc(xs, func(y Expr) bool { return Equal(x, y) }) {
		return xs
	}
	return append(xs, x)
}

// shifter proves polynomials non-negative by substituting each symbol from a
// bound: x = L + x' for a lower bound L, x = U - x' for an upper bound U, with
// the new symbol x' >= 0. When every symbol has been replaced so, a polynomial
// whose coefficients are all non-negative is non-negative (positive if its
// constant term is positive). Different bound choices are tried depth first.
type shifter struct {
	bounds *bounds
	budget *int
	n      int
}

const maxShiftTerms = 400

// maxShiftDegree bounds the exponents the shifter expands: (L + x')^k has k+1
// terms per substitution.
const maxShiftDegree = 12

func maxExp(e Expr) int32 {
	var m int32
	for _, t := range e.t {
		for _, f := range t.m {
			m = max(m, f.e, -f.e)
		}
	}
	return m
}

func (s *shifter) run(e Expr, strict bool, done map[string]bool, depth int) bool {
	if *s.budget <= 0 || len(e.t) > maxShiftTerms || depth > 24 || maxExp(e) > maxShiftDegree {
		return false
	}
	*s.budget--
	e, ok := s.clearDenominators(e)
	if !ok {
		return false
	}
	// Once the substitutions so far leave no term that can be negative
	// (n*p + p - k*n with k = p - k' is p + k'*n), intervals finish the
	// proof; replacing every remaining symbol would take a branch each.
	if iv := s.bounds.interval(e); iv.lo.finite && (iv.lo.v.Sign() > 0 || !strict && iv.lo.v.Sign() == 0) {
		return true
	}
	// Pick the next symbol to replace: stand-ins for atoms first, since their
	// bounds are in terms of the other symbols (floor(N/P) <= N/P).
	var x string
	for _, t := range e.t {
		for _, f := range t.m {
			name := f.a.name
			if f.a.kind != kSym || done[name] || strings.HasPrefix(name, "\x01") {
				continue
			}
			if x == "" || strings.HasPrefix(name, "\x00") && !strings.HasPrefix(x, "\x00") {
				x = name
			}
		}
	}
	if x == "" {
		return allNonneg(e, strict)
	}
	mentionsDone := func(b Expr) bool {
		for _, y := range b.Symbols() {
			if done[y] || y == x {
				return true
			}
		}
		return false
	}
	next := maps1(done, x)
	if v, ok := s.bounds.eq[x]; ok && !mentionsDone(v) {
		f, err := e.Subst(map[string]Expr{x: v})
		return err == nil && s.run(f, strict, next, depth+1)
	}
	s.n++
	prime := Sym("\x01" + strconv.Itoa(s.n))
	// replace tries x = at(b) for each bound b free of the symbols done.
	replace := func(bs []Expr, at func(b Expr) Expr) bool {
		for _, b := range bs {
			if mentionsDone(b) {
				continue
			}
			f, err := e.Subst(map[string]Expr{x: at(b)})
			if err == nil && s.run(f, strict, next, depth+1) {
				return true
			}
		}
		return false
	}
	upper := func() bool { return replace(s.bounds.upper[x], func(hi Expr) Expr { return hi.Sub(prime) }) }
	// A symbol whose terms weigh negative (k in n*p + p - k*n) is replaced
	// from above first: the lower bounds' search would only fail, at length,
	// before it got there.
	fromAbove := polarity(e, x) < 0
	if fromAbove && upper() {
		return true
	}
	// An integer symbol with a constant lower bound L: besides x = L + x', try
	// peeling x = L off (x = L, then x = L+1 + x'), which proves n^2 - n >= 0.
	if isIntSym(x) {
		for _, lo := range s.bounds.lower[x] {
			L, ok := lo.Const()
			if !ok {
				continue
			}
			f0, err0 := e.Subst(map[string]Expr{x: lo})
			f1, err1 := e.Subst(map[string]Expr{x: Const(L.Add(RatInt(1))).Add(prime)})
			if err0 == nil && err1 == nil && s.run(f0, strict, next, depth+1) && s.run(f1, strict, next, depth+1) {
				return true
			}
		}
	}
	if replace(s.bounds.lower[x], func(lo Expr) Expr { return lo.Add(prime) }) {
		return true
	}
	if !fromAbove && upper() {
		return true
	}
	// Without a usable bound x ranges over everything; no proof is attempted.
	return false
}

// polarity returns the sum of the coefficients of e's terms that hold the
// symbol x to a positive power.
func polarity(e Expr, x string) int {
	var s Rat
	for _, t := range e.t {
		for _, f := range t.m {
			if f.a.kind == kSym && f.a.name == x && f.e > 0 {
				s = s.Add(t.c)
				break
			}
		}
	}
	return s.Sign()
}

func maps1(m map[string]bool, k string) map[string]bool {
	out := make(map[string]bool, len(m)+1)
	for x := range m {
		out[x] = true
	}
	out[k] = true
	return out
}

// clearDenominators multiplies e by the product of the atoms it divides by when
// that product is provably positive (sign of e unchanged).
func (s *shifter) clearDenominators(e Expr) (Expr, bool) {
	d := shiftMono(e)
	if len(d) == 0 {
		return e, true
	}
	for _, f := range d {
		if f.a.kind != kSym {
			return e, false
		}
		if strings.HasPrefix(f.a.name, "\x01") {
			return e, false // a shifted symbol may be 0
		}
		iv := s.bounds.interval(atomExpr(f.a))
		if !iv.lo.finite || iv.lo.v.Sign() <= 0 {
			return e, false
		}
	}
	return e.Mul(monoExpr(d)), true
}

// allNonneg reports whether every coefficient of e is >= 0 and every atom is a
// shifted (non-negative) symbol; strict also needs a positive constant term.
func allNonneg(e Expr, strict bool) bool {
	hasPosConst := false
	for _, t := range e.t {
		if t.c.Sign() < 0 {
			return false
		}
		for _, f := range t.m {
			if f.a.kind != kSym || !strings.HasPrefix(f.a.name, "\x01") || f.e < 0 {
				return false
			}
		}
		if len(t.m) == 0 {
			hasPosConst = true
		}
	}
	return !strict || hasPosConst
}

// WithBudget returns a copy of a whose questions use at most budget proof
// steps each (see ProveWithin).
func (a *Assumptions) WithBudget(budget int) *Assumptions {
	b := a.Clone()
	b.budget = budget
	return b
}

// Unfloor rewrites a relation c*floor(x) + r >= 0 (c = ±1, r integer-valued
// and free of that floor) into an equivalent relation on x, multiplied through
// by x's denominator when the assumptions prove it positive: floor(x) >= -r
// is x >= -r, and floor(x) <= r is x < r + 1. Counting needs this for
// conditions such as rank >= floor((k-1)/nloc), which are linear in k once
// the floor is gone. ok is false when r is not of that form or the op is EQ.
func (a *Assumptions) Unfloor(rel Relation) (Relation, bool) {
	if rel.Op == EQ {
		return rel, false
	}
	e := rel.E
	if rel.Op == GT {
		if !e.isIntegerValued() {
			return rel, false
		}
		e = e.Sub(Int(1))
	}
	x, c, r, ok := floorForm(e)
	if !ok {
		return rel, false
	}
	var out Relation
	if c > 0 {
		out = Relation{E: x.Add(r), Op: GE}
	} else {
		out = Relation{E: r.Add(Int(1)).Sub(x), Op: GT}
	}
	// Clear the denominator: the product of the atoms x holds to negative
	// powers, each proven positive.
	den := Int(1)
	seen := map[*atom]int32{}
	for _, t := range x.t {
		for _, f := range t.m {
			if f.e < 0 && -f.e > seen[f.a] {
				seen[f.a] = -f.e
			}
		}
	}
	for at, k := range seen {
		ae := atomExpr(at)
		if a.Prove(Relation{E: ae, Op: GT}) != True {
			return rel, false
		}
		den = den.Mul(ae.Pow(int(k)))
	}
	out.E = out.E.Mul(den)
	if out.Op == GT && out.E.isIntegerValued() {
		out = Relation{E: out.E.Sub(Int(1)), Op: GE}
	}
	return out, true
}
