package symeval

import (
	"cmp"
	"math"
	stdbits "math/bits"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// Deciding conditions on the rank. At a point P is a number, so a condition
// that depends on the rank alone (row = mod(rank, xdim) + 1 > 1, a neighbour
// rank + xdim that must stay below P) is decided by evaluating it at every
// rank 0..P-1: one that holds at no rank is false and one that holds at
// every rank is true. Alternatives of values and arms of IFs that no rank
// reaches are dropped, so chains of conditional assignments (the bounds of
// a subdomain, its neighbours) keep only the cases some process has.

// maxTabulatedP bounds the process counts conditions are tabulated at.
const maxTabulatedP = 1 << 16

// rankDecide decides f when it depends on the rank alone and P is a number.
func (ev *evaluator) rankDecide(f counting.Formula) (truth, ok bool) {
	return ev.rankDecideOn(f, nil)
}

// rankDecideOn decides f over the ranks where every formula of path holds,
// at a point: a test the ranks of a path all pass (or all fail) is decided
// there, although it is not over all ranks. The formulas of path that
// mention other symbols are left out, which only widens the ranks tried.
// A path that no rank takes decides every f false.
func (ev *evaluator) rankDecideOn(f counting.Formula, path []counting.Formula) (truth, ok bool) {
	np, ok := ev.values[Size]
	if !ok || np < 1 || np > maxTabulatedP || f == nil {
		return false, false
	}
	if _, fixed := ev.values[Rank]; fixed {
		return false, false
	}
	var dom counting.And
	for _, c := range path {
		if onlyRank(c) {
			dom = append(dom, c)
		}
	}
	var b strings.Builder
	counting.WriteFormulaKey(&b, f)
	if len(dom) > 0 {
		b.WriteByte(0)
		counting.WriteFormulaKey(&b, dom)
	}
	key := b.String()
	if r, ok := ev.rankMemo[key]; ok {
		return r.truth, r.ok
	}
	truth, ok = ev.tabulateRanks(f, dom, np)
	ev.rankMemo[key] = rankAnswer{truth, ok}
	return truth, ok
}

type rankAnswer struct{ truth, ok bool }

// tabulateRanks evaluates f at every rank 0..np-1 where dom holds.
func (ev *evaluator) tabulateRanks(f counting.Formula, dom counting.And, np int64) (truth, ok bool) {
	if !onlyRank(f) {
		return false, false
	}
	c, err := counting.CompileFormula(f, []string{Rank})
	if err != nil {
		return false, false
	}
	var d *counting.CompiledFormula
	if len(dom) > 0 {
		if d, err = counting.CompileFormula(dom, []string{Rank}); err != nil {
			return false, false
		}
	}
	some, all := false, true
	pt := []int64{0}
	for r := int64(0); r < np; r++ {
		pt[0] = r
		if d != nil {
			in, err := d.Holds(pt)
			if err != nil {
				return false, false
			}
			if !in {
				continue
			}
		}
		h, err := c.Holds(pt)
		if err != nil {
			return false, false
		}
		some = some || h
		all = all && h
		if some && !all {
			return false, false
		}
	}
	if !some {
		return false, true // also when no rank takes the path
	}
	return true, true
}

// onlyRank reports whether f mentions no symbol but the rank.
func onlyRank(f counting.Formula) bool {
	switch g := f.(type) {
	case counting.Rel:
		return g.R.E.OnlySymbol(Rank)
	case counting.And:
		for _, x := range g {
			if !onlyRank(x) {
				return false
			}
		}
		return true
	case counting.Or:
		for _, x := range g {
			if !onlyRank(x) {
				return false
			}
		}
		return true
	case counting.Not:
		return onlyRank(g.F)
	}
	return false
}

// decideHere decides f from constants, or from the ranks at a point.
func (ev *evaluator) decideHere(f counting.Formula) (truth, ok bool) {
	if t, ok := decide(f); ok {
		return t, true
	}
	return ev.rankDecide(f)
}

// decideOnPath is decideHere over the ranks of a path whose conditions are
// path: at a point, the arm of an IF that no rank of the path takes is not
// walked, and one that all of them take is the only one.
func (ev *evaluator) decideOnPath(f counting.Formula, path []counting.Formula) (truth, ok bool) {
	if t, ok := decide(f); ok {
		return t, true
	}
	return ev.rankDecideOn(f, path)
}

// pruneRanks drops the alternatives of v that no rank takes and makes one
// that every rank takes unconditional.
func (ev *evaluator) pruneRanks(v Value) Value {
	if len(v.Alts) < 2 {
		return v
	}
	if _, ok := ev.values[Size]; !ok {
		return v
	}
	out := make([]Alt, 0, len(v.Alts))
	changed := false
	for _, a := range v.Alts {
		if a.Guard == nil {
			out = append(out, a)
			continue
		}
		t, ok := ev.decideHere(a.Guard)
		switch {
		case !ok:
			out = append(out, a)
		case t:
			// The alternatives partition the domain: this one is the
			// value everywhere.
			v.Alts = []Alt{{E: a.E}}
			return v
		default:
			changed = true
		}
	}
	if !changed || len(out) == 0 {
		return v
	}
	v.Alts = mergeAlts(out)
	return v
}

// provedHere reports whether r holds for every P >= 1 and rank in 0..P-1
// in the current domain, under the caller's and the annotations'
// assumptions: a DO step of P is then known to be positive.
func (ev *evaluator) provedHere(r symbolic.Relation) bool {
	return ev.stepFacts(nil).Prove(r) == symbolic.True
}

// rankAlts rewrites, at a point, alternatives whose guards are conditions
// on the rank alone by the sets of ranks they select: alternatives no rank
// takes are dropped, and those with equal values are one alternative whose
// guard is the smallest of theirs that selects their ranks, or a short
// union of rank ranges. A block size chosen by the process's row and
// column through chains of IFs (first row, last column, the remainder's
// ranks) keeps few small guards instead of conjunctions of every test
// made, whichever is smaller. Alternatives with other symbols in their guards are kept as they
// are.
func (ev *evaluator) rankAlts(alts []Alt) []Alt {
	np, ok := ev.values[Size]
	if !ok || np < 1 || np > maxTabulatedP || len(alts) < 2 {
		return alts
	}
	if _, fixed := ev.values[Rank]; fixed {
		return alts
	}
	sets := make([][]bool, len(alts))
	for i, a := range alts {
		if a.Guard == nil || !onlyRank(a.Guard) {
			return alts
		}
		t, ok := ev.rankSet(a.Guard, np)
		if !ok {
			return alts
		}
		sets[i] = t
	}
	return ev.rankAltsOn(alts, sets, np)
}

// rankAltsOn is rankAlts for alternatives that hold at the ranks sets.
func (ev *evaluator) rankAltsOn(alts []Alt, sets [][]bool, np int64) []Alt {
	type group struct {
		e     symbolic.Expr
		ranks []bool
		best  counting.Formula
		size  int
	}
	var groups []*group
	byKey := map[string]*group{}
	for i, a := range alts {
		if !slices.Contains(sets[i], true) {
			continue // no rank takes it
		}
		k := a.E.Key()
		g := byKey[k]
		if g == nil {
			g = &group{e: a.E, ranks: make([]bool, np)}
			byKey[k] = g
			groups = append(groups, g)
		}
		for r, h := range sets[i] {
			g.ranks[r] = g.ranks[r] || h
		}
	}
	if len(groups) == 1 {
		return []Alt{{E: groups[0].e}}
	}
	if len(groups) > runValueAlts {
		// Too many values to keep one by one (a chunk's neighbour, its
		// first cell, chosen by a loop over all the chunks): where every
		// rank's value is a number, fewer closed forms in the rank may
		// give them all.
		if forms, ok := ev.rankForms(alts, sets, np); ok && len(forms) < len(groups) {
			return forms
		}
		if len(groups) > maxAlts {
			// Too many however guarded: the caller gives the value up.
			out := make([]Alt, len(groups))
			for i, g := range groups {
				out[i] = Alt{Guard: rankRanges(g.ranks), E: g.e}
			}
			return out
		}
	}
	out := make([]Alt, 0, len(groups))
	for _, g := range groups {
		// The smallest original guard selecting exactly these ranks.
		for i, a := range alts {
			if slices.Equal(sets[i], g.ranks) {
				if sz := formulaSize(a.Guard); g.best == nil || sz < g.size {
					g.best, g.size = a.Guard, sz
				}
			}
		}
		if rr := rankRanges(g.ranks); g.best == nil || formulaSize(rr) < g.size {
			g.best = rr
		}
		out = append(out, Alt{Guard: g.best, E: g.e})
	}
	return out
}

// rankSet tabulates a condition on the rank alone at ranks 0..np-1.
func (ev *evaluator) rankSet(f counting.Formula, np int64) ([]bool, bool) {
	key := counting.FormulaKey(f)
	if t, ok := ev.rankSets[key]; ok {
		return t, t != nil
	}
	t, err := counting.Tabulate(f, Rank, np, nil)
	if err != nil {
		ev.rankSets[key] = nil
		return nil, false
	}
	ev.rankSets[key] = t
	return t, true
}

// rankRanges is a formula selecting the ranks set in t: a union of ranges
// of consecutive ranks.
func rankRanges(t []bool) counting.Formula {
	r := symbolic.Sym(Rank)
	var parts counting.Or
	for lo := 0; lo < len(t); lo++ {
		if !t[lo] {
			continue
		}
		hi := lo
		for hi+1 < len(t) && t[hi+1] {
			hi++
		}
		if lo == hi {
			parts = append(parts, counting.Rel{R: symbolic.Rel(r, "==", symbolic.Int(int64(lo)))})
		} else {
			parts = append(parts, counting.And{
				counting.Rel{R: symbolic.Rel(r, ">=", symbolic.Int(int64(lo)))},
				counting.Rel{R: symbolic.Rel(r, "<=", symbolic.Int(int64(hi)))}})
		}
		lo = hi
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return parts
}

// Values given rank by rank as closed forms in the rank. A loop over all
// the processes' chunks that picks out the process's own (IF (chunk ==
// rank+1)) leaves one number per rank: its neighbours (rank-1, or none on
// the first column), the first cell of its block (a multiple of the block
// size by its column, mod(rank, columns), or its row, rank/columns). At a
// point every rank's number is known, and rankForms finds few forms
//
//	a*rank + b,  a*mod(rank, k) + b,  a*floor(rank/k) + b   (k divides P)
//
// that give them all, each on the ranks where it does: a form that holds
// at every rank is the value, without a guard. The forms are chosen
// greedily, the one that gives the most ranks still without a form first,
// at most maxAlts of them, each guarded by the runs of consecutive ranks
// it is chosen for.

// rankForm is a closed form in the rank: a*x + b where x is the rank,
// mod(rank, k) (mod) or floor(rank/k) (div).
type rankForm struct {
	kind int // formRank, formMod, formDiv
	k    int64
	a, b int64
}

const (
	formRank = iota
	formMod
	formDiv
)

func (f rankForm) at(r int64) int64 {
	x := r
	switch f.kind {
	case formMod:
		x = r % f.k
	case formDiv:
		x = r / f.k
	}
	return f.a*x + f.b
}

func (f rankForm) expr() symbolic.Expr {
	x := symbolic.Sym(Rank)
	switch f.kind {
	case formMod:
		x = symbolic.Modulo(x, symbolic.Int(f.k))
	case formDiv:
		x = symbolic.FloorDiv(x, symbolic.Int(f.k))
	}
	return x.Mul(symbolic.Int(f.a)).Add(symbolic.Int(f.b))
}

// maxFormCandidates bounds the forms tried at each greedy step.
const maxFormCandidates = 64

// rankForms rewrites alternatives whose guards select the ranks sets
// (over 0..np-1) by closed forms in the rank; false where some rank's
// value is not a number or more than maxAlts forms would be needed.
func (ev *evaluator) rankForms(alts []Alt, sets [][]bool, np int64) ([]Alt, bool) {
	vals := make([]int64, np)
	has := make([]bool, np)
	for i, a := range alts {
		syms := a.E.Symbols()
		if len(syms) > 1 || len(syms) == 1 && syms[0] != Rank {
			return nil, false
		}
		var f *symbolic.Func
		if len(syms) == 1 {
			var err error
			if f, err = a.E.Compile([]string{Rank}); err != nil {
				return nil, false
			}
		}
		for r, h := range sets[i] {
			if !h || has[r] {
				continue
			}
			if f == nil {
				v, ok := a.E.Int64()
				if !ok {
					return nil, false
				}
				vals[r] = v
			} else {
				q, err := f.EvalInt([]int64{int64(r)})
				if err != nil {
					return nil, false
				}
				v, ok := q.Int64()
				if !ok {
					return nil, false
				}
				vals[r] = v
			}
			has[r] = true
		}
	}
	// The same table is often asked for twice in a row (a choice joins
	// a value per rank, then regroups it rank by rank).
	key := formsKey{np: np, sum: tableHash(vals, has)}
	if m, ok := ev.formsMemo[key]; ok && slices.Equal(m.vals, vals) && slices.Equal(m.has, has) {
		return m.out, m.ok
	}
	out, ok := ev.rankFormsOf(vals, has, np)
	if ev.formsMemo == nil || len(ev.formsMemo) > maxFormsMemo {
		ev.formsMemo = map[formsKey]formsEntry{}
	}
	ev.formsMemo[key] = formsEntry{vals: vals, has: has, out: out, ok: ok}
	return out, ok
}

// formsKey and formsEntry memoise rankForms by its table of values.
type formsKey struct {
	np  int64
	sum uint64
}

type formsEntry struct {
	vals []int64
	has  []bool
	out  []Alt
	ok   bool
}

// maxFormsMemo bounds the tables remembered; past it the memo starts
// again.
const maxFormsMemo = 256

// tableHash is an FNV-1a hash of a table of values per rank.
func tableHash(vals []int64, has []bool) uint64 {
	h := uint64(14695981039346656037)
	for r, v := range vals {
		if !has[r] {
			v = math.MinInt64
		}
		for range 8 {
			h = (h ^ uint64(v&0xff)) * 1099511628211
			v >>= 8
		}
	}
	return h
}

// rankFormsOf is rankForms of the values per rank.
func (ev *evaluator) rankFormsOf(vals []int64, has []bool, np int64) ([]Alt, bool) {
	forms := candidateForms(vals, has, np)
	// Each form's ranks as a bit set; the greedy cover counts the ranks
	// still without a form by word.
	words := (np + 63) / 64
	bits := make([][]uint64, len(forms))
	for i, f := range forms {
		b := make([]uint64, words)
		for r := int64(0); r < np; r++ {
			if has[r] && f.at(r) == vals[r] {
				b[r/64] |= 1 << (r % 64)
			}
		}
		bits[i] = b
	}
	open := make([]uint64, words)
	for r := int64(0); r < np; r++ {
		if has[r] {
			open[r/64] |= 1 << (r % 64)
		}
	}
	var out []Alt
	for {
		best, bestN := -1, 0
		for i, b := range bits {
			n := 0
			for w := range b {
				n += stdbits.OnesCount64(b[w] & open[w])
			}
			if n > bestN {
				best, bestN = i, n
			}
		}
		if best < 0 {
			break
		}
		if len(out) == maxAlts {
			return nil, false
		}
		sel := make([]bool, np)
		for r := int64(0); r < np; r++ {
			if bits[best][r/64]&open[r/64]&(1<<(r%64)) != 0 {
				sel[r] = true
			}
		}
		for w := range open {
			open[w] &^= bits[best][w]
		}
		out = append(out, Alt{Guard: rankRanges(sel), E: forms[best].expr()})
	}
	for _, w := range open {
		if w != 0 {
			return nil, false
		}
	}
	if len(out) == 1 {
		out[0].Guard = nil
	}
	return out, guardsSmall(out)
}

// candidateForms proposes the forms the greedy cover chooses from: the
// constants, the lines through consecutive ranks' values, and for each k
// dividing np the forms in mod(rank, k) and floor(rank/k) through the
// first values they are defined by; those giving the most ranks first.
func candidateForms(vals []int64, has []bool, np int64) []rankForm {
	count := map[rankForm]int{}
	for r := int64(0); r < np; r++ {
		if !has[r] {
			continue
		}
		count[rankForm{kind: formRank, a: 0, b: vals[r]}]++
		if r+1 < np && has[r+1] {
			a := vals[r+1] - vals[r]
			count[rankForm{kind: formRank, a: a, b: vals[r] - a*r}]++
		}
	}
	for k := int64(2); k < np; k++ {
		if np%k != 0 {
			continue
		}
		// mod: through the values of ranks 0 and 1 of each block; div:
		// through the first ranks of the blocks 0 and 1 of each column.
		for _, f := range []rankForm{fit(formMod, k, vals, has, 0, 1), fit(formDiv, k, vals, has, 0, k)} {
			if f.kind < 0 {
				continue
			}
			n := 0
			for r := int64(0); r < np; r++ {
				if has[r] && f.at(r) == vals[r] {
					n++
				}
			}
			count[f] = n
		}
	}
	var out []rankForm
	for f := range count {
		out = append(out, f)
	}
	slices.SortFunc(out, func(x, y rankForm) int {
		// The most ranks first; then, deterministically, simpler forms
		// and smaller numbers.
		return cmp.Or(cmp.Compare(count[y], count[x]), cmp.Compare(x.kind, y.kind), cmp.Compare(x.k, y.k),
			cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b))
	})
	if len(out) > maxFormCandidates {
		out = out[:maxFormCandidates]
	}
	return out
}

// fit is the form of kind in mod or floor by k through the values at
// ranks r0 and r1 (kind -1 where either has none).
func fit(kind int, k int64, vals []int64, has []bool, r0, r1 int64) rankForm {
	if r1 >= int64(len(vals)) || !has[r0] || !has[r1] {
		return rankForm{kind: -1}
	}
	return rankForm{kind: kind, k: k, a: vals[r1] - vals[r0], b: vals[r0]}
}
