package symeval

import (
	"slices"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// The formulas of domains and guards are built through the helpers below,
// which fold what is decided on the way: a relation between constants is
// true or false, true drops out of a conjunction and false out of a
// disjunction. In an evaluation at a point most conditions on P and the
// problem sizes become constants, so the domains shrink to what depends on
// the rank and the loop variables.

var (
	formulaTrue  counting.Formula = counting.And{}
	formulaFalse counting.Formula = counting.Or{}
)

func isTrue(f counting.Formula) bool {
	a, ok := f.(counting.And)
	return f == nil || ok && len(a) == 0
}

func isFalse(f counting.Formula) bool {
	o, ok := f.(counting.Or)
	return ok && len(o) == 0
}

// rel returns the formula of x op y, op one of >=, >, <=, <, ==, folded when
// the difference is a constant.
func rel(x symbolic.Expr, op string, y symbolic.Expr) counting.Formula {
	r := symbolic.Rel(x, op, y)
	if t, ok := constTruth(r); ok {
		return truth(t)
	}
	return counting.Rel{R: r}
}

// constTruth decides a relation whose expression is a constant.
func constTruth(r symbolic.Relation) (bool, bool) {
	c, ok := r.E.Const()
	if !ok {
		return false, false
	}
	switch r.Op {
	case symbolic.GE:
		return c.Sign() >= 0, true
	case symbolic.GT:
		return c.Sign() > 0, true
	case symbolic.EQ:
		return c.Sign() == 0, true
	}
	return false, false
}

func truth(b bool) counting.Formula {
	if b {
		return formulaTrue
	}
	return formulaFalse
}

func and(fs ...counting.Formula) counting.Formula {
	var out counting.And
	for _, f := range fs {
		var isFalse bool
		if out, isFalse = appendConjuncts(out, f); isFalse {
			return formulaFalse
		}
	}
	return closeAnd(out, nil)
}

// appendConjuncts appends f's conjuncts to out, as and reads them (a
// conjunction's conjuncts, any other formula whole); it reports whether f
// is false (an empty disjunction).
func appendConjuncts(out counting.And, f counting.Formula) (counting.And, bool) {
	switch g := f.(type) {
	case nil:
	case counting.And:
		out = append(out, g...)
	case counting.Or:
		if len(g) == 0 {
			return out, true
		}
		out = append(out, g)
	default:
		out = append(out, g)
	}
	return out, false
}

// closeAnd is the formula of the conjuncts out: nil for none, the one for
// one, false where they contradict each other. items are out's conjItems
// when the caller has them already (nil: closeAnd reads them).
func closeAnd(out counting.And, items []conjItem) counting.Formula {
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	if items == nil && contradicts(out) || items != nil && len(out) <= 32 && contradictsItems(items, 2) {
		return formulaFalse
	}
	return out
}

// guardConj is a guard as and reads it: its conjuncts, whether one is an
// empty disjunction (false), and their items for contradicts.
type guardConj struct {
	conj  counting.And
	false bool
	items []conjItem
}

// guardConjs reads the guards of alts for andPair.
func guardConjs(alts []Alt) []guardConj {
	out := make([]guardConj, len(alts))
	for i, a := range alts {
		out[i].conj, out[i].false = appendConjuncts(nil, a.Guard)
		if !out[i].false {
			out[i].items = conjItems(out[i].conj)
		}
	}
	return out
}

// andPair is and(x, y) of two guards read by guardConjs: the same formula,
// each guard's relations read for contradicts once however many guards
// it is paired with.
func andPair(x, y guardConj) counting.Formula {
	if x.false || y.false {
		return formulaFalse
	}
	n := len(x.conj) + len(y.conj)
	out := append(append(make(counting.And, 0, n), x.conj...), y.conj...)
	var items []conjItem
	if n >= 2 && n <= 32 {
		items = append(append(make([]conjItem, 0, n), x.items...), y.items...)
	}
	return closeAnd(out, items)
}

func or(fs ...counting.Formula) counting.Formula {
	var out counting.Or
	for _, f := range fs {
		if isTrue(f) {
			return formulaTrue
		}
		if g, ok := f.(counting.Or); ok {
			out = append(out, g...)
		} else {
			out = append(out, f)
		}
	}
	if len(out) == 1 {
		return out[0]
	}
	if common, rest, ok := factor(out); ok {
		return and(append(common, or(rest...))...)
	}
	if absorbed, ok := absorb(out); ok {
		return or(absorbed...)
	}
	return out
}

// factor takes the conjuncts every disjunct of ds has out of them: (c and
// a) or (c and b) = c and (a or b). The guards an IF chain leaves, each
// arm setting a value the same condition chose, keep that condition once.
// ok is false when the disjuncts share none.
func factor(ds counting.Or) (common counting.And, rest []counting.Formula, ok bool) {
	if len(ds) < 2 || len(ds) > maxAbsorb {
		return nil, nil, false
	}
	conjs := make([]counting.And, len(ds))
	for i, d := range ds {
		if a, isAnd := d.(counting.And); isAnd {
			conjs[i] = a
		} else {
			conjs[i] = counting.And{d}
		}
	}
	has := func(a counting.And, f counting.Formula) bool {
		return slices.ContainsFunc(a, func(g counting.Formula) bool { return sameFormula(g, f) })
	}
	for _, c := range conjs[0] {
		if has(common, c) {
			continue
		}
		all := true
		for _, a := range conjs[1:] {
			if !has(a, c) {
				all = false
				break
			}
		}
		if all {
			common = append(common, c)
		}
	}
	if len(common) == 0 {
		return nil, nil, false
	}
	for _, a := range conjs {
		var left counting.And
		for _, g := range a {
			if !has(common, g) {
				left = append(left, g)
			}
		}
		rest = append(rest, closeAnd(left, nil))
	}
	return common, rest, true
}

// maxAbsorb bounds the disjuncts absorb compares.
const maxAbsorb = 16

// absorb drops from the conjunctions among the disjuncts ds each conjunct
// whose negation is another disjunct: a or (not a and b) = a or b (the
// guards a chain of ELSE IFs leaves, merged where the arms agree, shrink
// to the arms' conditions). ok is false when none is dropped.
func absorb(ds counting.Or) (counting.Or, bool) {
	if len(ds) < 2 || len(ds) > maxAbsorb {
		return nil, false
	}
	var out counting.Or
	for j, d := range ds {
		conj, isAnd := d.(counting.And)
		if !isAnd {
			continue
		}
		var keep counting.And
		for i, c := range conj {
			nc := not(c)
			if !slices.ContainsFunc(ds, func(e counting.Formula) bool { return sameFormula(e, nc) }) {
				if keep != nil {
					keep = append(keep, c)
				}
				continue
			}
			if keep == nil {
				keep = append(counting.And{}, conj[:i]...)
			}
		}
		if keep == nil {
			continue
		}
		if out == nil {
			out = slices.Clone(ds)
		}
		out[j] = and(keep...)
	}
	return out, out != nil
}

func not(f counting.Formula) counting.Formula {
	switch {
	case isTrue(f):
		return formulaFalse
	case isFalse(f):
		return formulaTrue
	}
	if n, ok := f.(counting.Not); ok {
		return n.F
	}
	return counting.Not{F: f}
}

// decide returns the truth of f when every relation in it is decided by
// constants (after folding), and ok false otherwise.
func decide(f counting.Formula) (bool, bool) {
	switch g := f.(type) {
	case nil:
		return true, true
	case counting.Rel:
		return constTruth(g.R)
	case counting.And:
		all := true
		for _, x := range g {
			t, ok := decide(x)
			if ok && !t {
				return false, true
			}
			all = all && ok
		}
		return true, all
	case counting.Or:
		all := true
		for _, x := range g {
			t, ok := decide(x)
			if ok && t {
				return true, true
			}
			all = all && ok
		}
		return false, all
	case counting.Not:
		t, ok := decide(g.F)
		return !t, ok
	}
	return false, false
}

// substFormula replaces symbols in every relation of f and folds the
// relations that become constant.
func substFormula(f counting.Formula, sub map[string]symbolic.Expr) (counting.Formula, error) {
	switch g := f.(type) {
	case nil:
		return nil, nil
	case counting.Rel:
		e, err := g.R.E.Subst(sub)
		if err != nil {
			return nil, err
		}
		r := symbolic.Relation{E: e, Op: g.R.Op}
		if t, ok := constTruth(r); ok {
			return truth(t), nil
		}
		return counting.Rel{R: r}, nil
	case counting.And:
		out := make([]counting.Formula, len(g))
		for i, x := range g {
			y, err := substFormula(x, sub)
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		if r := and(out...); r != nil {
			return r, nil
		}
		return formulaTrue, nil
	case counting.Or:
		out := make([]counting.Formula, len(g))
		for i, x := range g {
			y, err := substFormula(x, sub)
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		return or(out...), nil
	case counting.Not:
		y, err := substFormula(g.F, sub)
		if err != nil {
			return nil, err
		}
		return not(y), nil
	}
	return f, nil
}

// formulaMentions reports whether f mentions the symbol s.
func formulaMentions(f counting.Formula, s string) bool {
	switch g := f.(type) {
	case counting.Rel:
		return g.R.E.Has(s)
	case counting.And:
		for _, x := range g {
			if formulaMentions(x, s) {
				return true
			}
		}
	case counting.Or:
		for _, x := range g {
			if formulaMentions(x, s) {
				return true
			}
		}
	case counting.Not:
		return formulaMentions(g.F, s)
	}
	return false
}

// contradicts reports whether the conjunction f is false for a reason a
// glance finds: two of its relations bound one symbol x (a*x + c with
// constant a and c) to values no integer meets, such as k == 3 with
// not (k == 3) or with k == 2. Guards of values read from arrays with a
// symbolic subscript carry such equations, and the combinations of two
// such values are mostly impossible.
func contradicts(f counting.Formula) bool {
	a, ok := f.(counting.And)
	if !ok || len(a) < 2 || len(a) > 32 {
		return false
	}
	return contradictsItems(conjItems(a), 2)
}

// conjItem is one conjunct of a formula contradicts reads: a bound on one
// symbol (fact), a disjunction of conjunctions (alts), or another formula,
// which only counts towards the conjunction's length. Each relation is read
// once, however many combinations of disjuncts it is checked in.
type conjItem struct {
	fact *boundFact
	alts [][]conjItem
}

// boundFact is a relation a*x + c op 0 with constant a != 0 and c: x op' v
// with sign the sign of a; neq marks not (a*x + c == 0).
type boundFact struct {
	name string
	v    symbolic.Rat
	sign int
	op   symbolic.RelOp
	neq  bool
}

func conjItems(a counting.And) []conjItem {
	out := make([]conjItem, len(a))
	// The facts in one array: an item stays small, for the copies
	// contradictsItems makes of the items around each disjunction.
	var facts []boundFact
	fact := func(f boundFact) *boundFact {
		if facts == nil {
			facts = make([]boundFact, 0, len(a))
		}
		facts = append(facts, f)
		return &facts[len(facts)-1]
	}
	for i, g := range a {
		switch x := g.(type) {
		case counting.Rel:
			if name, v, sign, ok := singleBound(x.R.E); ok {
				out[i].fact = fact(boundFact{name: name, v: v, sign: sign, op: x.R.Op})
			}
		case counting.Not:
			r, ok := x.F.(counting.Rel)
			switch {
			case !ok:
			case r.R.Op == symbolic.EQ:
				if name, v, _, ok := singleBound(r.R.E); ok {
					out[i].fact = fact(boundFact{name: name, v: v, neq: true})
				}
			default:
				// not (e >= 0) is -e > 0, not (e > 0) is -e >= 0: the
				// ELSE arm's guard beside its IF arm's contradicts it.
				op := symbolic.GT
				if r.R.Op == symbolic.GT {
					op = symbolic.GE
				}
				if name, v, sign, ok := singleBound(r.R.E.Neg()); ok {
					out[i].fact = fact(boundFact{name: name, v: v, sign: sign, op: op})
				}
			}
		case counting.Or:
			if len(x) == 0 || len(x) > 8 {
				continue
			}
			out[i].alts = make([][]conjItem, len(x))
			for j, d := range x {
				if sub, ok := d.(counting.And); ok {
					out[i].alts[j] = conjItems(sub)
				} else {
					out[i].alts[j] = conjItems(counting.And{d})
				}
			}
		}
	}
	return out
}

// singleBound returns x and the value v with e == coef*(x - v), and coef's
// sign, when e is linear in its one symbol x with constant coefficients.
// An e whose non-constant part is one term (a product, npe_i*npe_j, or a
// floor) is read the same way with x that term without its coefficient (a
// name made from its key), where it is integer-valued: relations on one
// product (npe_i*npe_j == 1 with not (npe_i*npe_j == 1), guards that joins
// of IFs on it leave) bound one unknown as a symbol's do. (Sums of several
// terms, loop bounds mostly, are left: naming them costs more than the
// contradictions they give.)
func singleBound(e symbolic.Expr) (string, symbolic.Rat, int, bool) {
	x, av, bv, ok := e.LinearOne()
	if ok {
		if av.IsZero() {
			return "", symbolic.Rat{}, 0, false
		}
		return x, bv.Neg().Quo(av), av.Sign(), true
	}
	rest, c := e.SplitConst()
	if rest.NumTerms() != 1 {
		return "", symbolic.Rat{}, 0, false
	}
	a, ok := rest.Coeff()
	if !ok || a.IsZero() {
		return "", symbolic.Rat{}, 0, false
	}
	u := rest
	if !a.Equal(symbolic.RatInt(1)) {
		u = rest.Scale(symbolic.RatInt(1).Quo(a))
	}
	if !u.IsIntegerValued() {
		return "", symbolic.Rat{}, 0, false
	}
	return "#" + u.Key(), c.Neg().Quo(a), a.Sign(), true
}

// contradictsItems is contradicts on a conjunction's items, looking through
// at most depth levels of disjunctions inside it: a conjunction with a
// disjunction is false when each disjunct, with the rest, is.
func contradictsItems(a []conjItem, depth int) bool {
	if len(a) < 2 || len(a) > 32 {
		return false
	}
	if depth > 0 {
		var conj []conjItem // reused: the call below keeps none of it
		for i, g := range a {
			if g.alts == nil {
				continue
			}
			all := true
			for _, d := range g.alts {
				conj = append(append(append(conj[:0], a[:i]...), a[i+1:]...), d...)
				if !contradictsItems(conj, depth-1) {
					all = false
					break
				}
			}
			if all {
				return true
			}
		}
	}
	// The bounds by symbol: a conjunction mentions few, so a slice on the
	// stack, searched, makes no map.
	type bounds struct {
		name         string
		lo, hi       symbolic.Rat
		hasLo, hasHi bool
		eq           *symbolic.Rat
		neq          []symbolic.Rat
	}
	var store [8]bounds
	bs := store[:0]
	ceil := func(r symbolic.Rat) symbolic.Rat { return r.Neg().Floor().Neg() }
	for i := range a {
		f := a[i].fact
		if f == nil {
			continue
		}
		var b *bounds
		for j := range bs {
			if bs[j].name == f.name {
				b = &bs[j]
				break
			}
		}
		if b == nil {
			bs = append(bs, bounds{name: f.name})
			b = &bs[len(bs)-1]
		}
		switch {
		case f.neq:
			b.neq = append(b.neq, f.v)
		case f.op == symbolic.EQ:
			if b.eq != nil && !b.eq.Equal(f.v) {
				return true
			}
			b.eq = &f.v
		case f.sign > 0:
			// a*x + c >= 0 (> 0) with a > 0: x >= v (x > v).
			lo := ceil(f.v)
			if f.op == symbolic.GT {
				lo = f.v.Floor().Add(symbolic.RatInt(1))
			}
			if !b.hasLo || lo.Cmp(b.lo) > 0 {
				b.lo, b.hasLo = lo, true
			}
		default:
			// With a < 0: x <= v (x < v).
			hi := f.v.Floor()
			if f.op == symbolic.GT {
				hi = ceil(f.v).Sub(symbolic.RatInt(1))
			}
			if !b.hasHi || hi.Cmp(b.hi) < 0 {
				b.hi, b.hasHi = hi, true
			}
		}
	}
	for i := range bs {
		b := &bs[i]
		if b.hasLo && b.hasHi && b.lo.Cmp(b.hi) > 0 {
			return true
		}
		if b.eq != nil {
			if !b.eq.IsInt() || b.hasLo && b.eq.Cmp(b.lo) < 0 || b.hasHi && b.eq.Cmp(b.hi) > 0 {
				return true
			}
			for _, n := range b.neq {
				if n.Equal(*b.eq) {
					return true
				}
			}
		}
	}
	return false
}

// formulaSize is the number of relations in f.
func formulaSize(f counting.Formula) int {
	switch g := f.(type) {
	case counting.Rel:
		return 1
	case counting.And:
		n := 0
		for _, x := range g {
			n += formulaSize(x)
		}
		return n
	case counting.Or:
		n := 0
		for _, x := range g {
			n += formulaSize(x)
		}
		return n
	case counting.Not:
		return formulaSize(g.F)
	}
	return 0
}

// guardsExprSize is the size of the expressions in the alternatives'
// guards together.
func guardsExprSize(alts []Alt) int {
	n := 0
	var walk func(f counting.Formula)
	walk = func(f counting.Formula) {
		switch g := f.(type) {
		case counting.Rel:
			n += g.R.E.Size()
		case counting.And:
			for _, x := range g {
				walk(x)
			}
		case counting.Or:
			for _, x := range g {
				walk(x)
			}
		case counting.Not:
			walk(g.F)
		}
	}
	for _, a := range alts {
		if a.Guard != nil {
			walk(a.Guard)
		}
	}
	return n
}

// onRank is g where rank == r, of np ranks: g itself where there is one
// rank (the domain holds rank = 0 already, and a guard that says so
// again only hides that the value is a number).
func onRank(rank symbolic.Expr, r, np int, g counting.Formula) counting.Formula {
	if np == 1 {
		return g
	}
	return and(rel(rank, "==", symbolic.Int(int64(r))), g)
}

// maxGuardSize bounds the relations of one alternative's guard: a value
// whose cases need more is unknown rather than a formula that grows with
// every operation on it.
const maxGuardSize = 64

// guardsSmall reports whether every alternative's guard is within
// maxGuardSize.
func guardsSmall(alts []Alt) bool {
	for _, a := range alts {
		if a.Guard != nil && formulaSize(a.Guard) > maxGuardSize {
			return false
		}
	}
	return true
}
