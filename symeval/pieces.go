package symeval

import (
	"cmp"
	"slices"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Values in stretches of one variable. A value a loop's iterations hand on
// (carried.go) is a closed form in the iteration number: one alternative
// per stretch of iterations over which it is affine, guarded by that
// stretch's range. Sums and differences of such values (the length of a
// diagonal kept over the last few diagonals, and their total) hold on the
// common refinement of their stretches. Two things keep them exact and
// small where the pairwise combination of alternatives would not:
//
//   - a guard that bounds one variable only (its relations a*x + c op 0 with
//     constant a and c, joined by and, or, not) is the set of integers x it
//     admits, a union of ranges, and is written as those ranges: the
//     conjunctions the combinations leave (1 <= x <= 5 and 1 <= x <= 4 and
//     (x <= 3 or x == 104)) become 1 <= x <= 3, and adjacent stretches with
//     one expression become one (simplifyGuard);
//   - a value whose guards are bounded ranges of one variable is a table
//     of that variable, one closed form per stretch: it may hold up to
//     maxPieceAlts alternatives (pieceTable), since operations on tables
//     refine their stretches, adding to their number rather than
//     multiplying it, and they go stretch by stretch over the common
//     refinement of their ranges (liftPieces) rather than by all pairs of
//     alternatives.
//
// The rank has its own tables (ranks.go), bounded by P; these are for the
// other variables, a loop's iteration number first.

// maxPieceAlts bounds the alternatives of a value tabulated over one
// variable (pieceTable).
const maxPieceAlts = 64

// span is the integers lo..hi; spanInf stands for an unbounded end.
type span struct{ lo, hi int64 }

// spanInf is beyond any bound a guard holds (a relation whose bound does
// not fit is not read as a span).
const spanInf = int64(1) << 62

// spanSet is a union of spans, sorted, disjoint and not adjacent.
type spanSet []span

var allSpans = spanSet{{-spanInf, spanInf}}

func (s spanSet) bounded() bool {
	return len(s) > 0 && s[0].lo > -spanInf && s[len(s)-1].hi < spanInf
}

func (s spanSet) intersect(t spanSet) spanSet {
	var out spanSet
	for i, j := 0, 0; i < len(s) && j < len(t); {
		lo, hi := max(s[i].lo, t[j].lo), min(s[i].hi, t[j].hi)
		if lo <= hi {
			out = append(out, span{lo, hi})
		}
		if s[i].hi < t[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

func (s spanSet) union(t spanSet) spanSet {
	all := append(slices.Clone(s), t...)
	slices.SortFunc(all, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
	var out spanSet
	for _, x := range all {
		if n := len(out); n > 0 && x.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, x.hi)
			continue
		}
		out = append(out, x)
	}
	return out
}

func (s spanSet) complement() spanSet {
	var out spanSet
	lo := -spanInf
	for _, x := range s {
		if x.lo > lo {
			out = append(out, span{lo, x.lo - 1})
		}
		lo = x.hi + 1
	}
	if lo <= spanInf {
		out = append(out, span{lo, spanInf})
	}
	return out
}

// relSpans reads a relation a*x + c op 0 (a, c constants) as the integers
// x it admits.
func relSpans(r symbolic.Relation) (string, spanSet, bool) {
	x, sp, some, ok := relSpan(r)
	switch {
	case !ok:
		return "", nil, false
	case !some:
		return x, spanSet{}, true
	}
	return x, spanSet{sp}, true
}

// relSpan is relSpans of a relation that is not an inequation: one span,
// or none (some false).
func relSpan(r symbolic.Relation) (x string, sp span, some, ok bool) {
	x, a, c, ok := r.E.LinearOne()
	if !ok || a.IsZero() || x == Rank {
		return "", span{}, false, false
	}
	if b := c.Quo(a).Abs(); b.Cmp(symbolic.RatInt(spanInf/2)) > 0 {
		return "", span{}, false, false
	}
	first, last, some := symbolic.IntRange(a, c, r.Op, -spanInf, spanInf)
	return x, span{first, last}, some, true
}

// formulaSpans reads f as the set of integers its one variable x takes
// where f holds, when every relation of f bounds x alone. A formula with no
// relation (true, false) has x "".
func formulaSpans(f counting.Formula) (string, spanSet, bool) {
	switch g := f.(type) {
	case nil:
		return "", allSpans, true
	case counting.Rel:
		return relSpans(g.R)
	case counting.Not:
		x, s, ok := formulaSpans(g.F)
		if !ok {
			return "", nil, false
		}
		return x, s.complement(), true
	case counting.And, counting.Or:
		var fs []counting.Formula
		isAnd := false
		if a, ok := g.(counting.And); ok {
			fs, isAnd = a, true
		} else {
			fs = g.(counting.Or)
		}
		name := ""
		set := spanSet{}
		if isAnd {
			set = allSpans
		}
		for _, h := range fs {
			x, s, ok := formulaSpans(h)
			if !ok || x != "" && name != "" && x != name {
				return "", nil, false
			}
			if x != "" {
				name = x
			}
			if isAnd {
				set = set.intersect(s)
			} else {
				set = set.union(s)
			}
		}
		return name, set, true
	}
	return "", nil, false
}

// spansFormula is the formula of x in s: one range per span, x == v for a
// span of one, or not the range between where s is all but one range (x /=
// 1 rather than x <= 0 or x >= 2).
func spansFormula(x string, s spanSet) counting.Formula {
	if len(s) == 0 {
		return formulaFalse
	}
	if len(s) == 1 && s[0].lo == -spanInf && s[0].hi == spanInf {
		return nil
	}
	if c := s.complement(); len(c) == 1 && len(s) == 2 {
		// The counting splits not of one range as it splits the two
		// ranges around it; not of more would split into each
		// combination.
		return not(rangesFormula(x, c))
	}
	return rangesFormula(x, s)
}

// spansSize is formulaSize(spansFormula(x, s)), without writing it.
func spansSize(s spanSet) int {
	if len(s) == 0 || len(s) == 1 && s[0].lo == -spanInf && s[0].hi == spanInf {
		return 0
	}
	if c := s.complement(); len(c) == 1 && len(s) == 2 {
		s = c
	}
	n := 0
	for _, r := range s {
		if r.lo == r.hi || r.lo == -spanInf || r.hi == spanInf {
			n++
		} else {
			n += 2
		}
	}
	return n
}

// rangesFormula is spansFormula without not.
func rangesFormula(x string, s spanSet) counting.Formula {
	v := symbolic.Sym(x)
	var ds counting.Or
	for _, r := range s {
		var d counting.Formula
		switch {
		case r.lo == r.hi:
			d = rel(v, "==", symbolic.Int(r.lo))
		case r.lo == -spanInf:
			d = rel(v, "<=", symbolic.Int(r.hi))
		case r.hi == spanInf:
			d = rel(v, ">=", symbolic.Int(r.lo))
		default:
			d = counting.And{rel(v, ">=", symbolic.Int(r.lo)), rel(v, "<=", symbolic.Int(r.hi))}
		}
		ds = append(ds, d)
	}
	if len(ds) == 1 {
		return ds[0]
	}
	return ds
}

// simplifyGuard writes the parts of f that bound one variable alone as the
// ranges of that variable they admit (spansFormula), where that is
// smaller: f itself, or in a conjunction the conjuncts on each variable
// together. A guard whose ranges are empty is false.
func simplifyGuard(f counting.Formula) counting.Formula {
	switch g := f.(type) {
	case nil, counting.Rel:
		return f
	case counting.And:
		return simplifyAnd(g)
	}
	if x, s, ok := formulaSpans(f); ok && x != "" {
		if len(s) == 0 {
			return formulaFalse
		}
		if spansSize(s) < formulaSize(f) {
			return spansFormula(x, s)
		}
	}
	return f
}

// simplifyAnd is simplifyGuard of a conjunction: the conjuncts that bound
// one variable alone, by variable, are intersected, where that makes them
// smaller. Most conjunctions have none to join (one bound on each loop
// variable of a domain, or one condition made simple where it was made):
// those are read without building a set.
func simplifyAnd(a counting.And) counting.Formula {
	if len(a) > 64 {
		return a
	}
	var buf [16]string
	vars := buf[:0] // the one variable of each conjunct, "" for none
	work := false
	for i, h := range a {
		x, ok := spanVar(h)
		if !ok {
			x = ""
		}
		vars = append(vars, x)
		if x != "" && !work && slices.Contains(vars[:i], x) {
			work = !simpleRange(a, vars, x)
		}
	}
	if !work {
		return a
	}
	var out counting.And
	done := map[string]bool{}
	changed := false
	for i, h := range a {
		x := vars[i]
		switch {
		case x == "":
			out = append(out, h)
			continue
		case done[x]:
			continue
		}
		done[x] = true
		set, size := allSpans, 0
		var group []counting.Formula
		for j := i; j < len(a); j++ {
			if vars[j] != x {
				continue
			}
			_, s, _ := formulaSpans(a[j])
			set = set.intersect(s)
			size += formulaSize(a[j])
			group = append(group, a[j])
		}
		if len(set) == 0 {
			return formulaFalse
		}
		if spansSize(set) >= size {
			out = append(out, group...)
			continue
		}
		f := spansFormula(x, set)
		changed = true
		switch g := f.(type) {
		case nil:
		case counting.And:
			out = append(out, g...)
		default:
			out = append(out, g)
		}
	}
	if !changed {
		return a
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	return out
}

// simpleRange reports whether the conjuncts of a on x (vars[i] the
// variable of a[i]) are two relations, a lower and an upper bound of a
// range of more than one value: the most common pair, which nothing
// makes smaller.
func simpleRange(a counting.And, vars []string, x string) bool {
	var rs [2]span
	n := 0
	for i, h := range a[:len(vars)] {
		if vars[i] != x {
			continue
		}
		r, isRel := h.(counting.Rel)
		if !isRel || n == 2 || r.R.Op == symbolic.EQ {
			return false
		}
		_, sp, some, ok := relSpan(r.R)
		if !ok || !some {
			return false
		}
		rs[n] = sp
		n++
	}
	lo, hi := rs[0], rs[1]
	if lo.lo == -spanInf {
		lo, hi = hi, lo
	}
	return n == 2 && hi.lo == -spanInf && lo.hi == spanInf && lo.lo < hi.hi
}

// spanVar returns the one variable f bounds, when every relation of f
// bounds it alone (formulaSpans reads f then), without reading the bounds.
func spanVar(f counting.Formula) (string, bool) {
	switch g := f.(type) {
	case counting.Rel:
		x, a, _, ok := g.R.E.LinearOne()
		return x, ok && !a.IsZero() && x != Rank
	case counting.Not:
		return spanVar(g.F)
	case counting.And:
		return spanVars(g)
	case counting.Or:
		return spanVars(g)
	}
	return "", false
}

func spanVars(fs []counting.Formula) (string, bool) {
	x := ""
	for _, h := range fs {
		y, ok := spanVar(h)
		if !ok || x != "" && y != x {
			return "", false
		}
		x = y
	}
	return x, x != ""
}

// pieceVar returns the variable of alts when they are a table of one
// variable x (not the rank): every guard a bounded set of the values of x
// (formulaSpans). A single unguarded alternative is no table. The
// expressions may rest on other variables (the line of a diagonal a search
// through the register finds, l - lens(1) - lens(2) on a stretch of
// diagonals): the alternatives stay one per stretch of x, however many
// operations join them, where alternatives under other conditions
// multiply.
func pieceVar(alts []Alt) (string, bool) {
	x := ""
	for _, a := range alts {
		if a.Guard == nil {
			return "", false
		}
		y, s, ok := formulaSpans(a.Guard)
		if !ok || y == "" || y == Rank || x != "" && y != x || !s.bounded() {
			return "", false
		}
		x = y
	}
	return x, x != ""
}

// isTable reports whether v is a table of one variable of more than one
// alternative (pieceVar).
func isTable(v Value) bool {
	if len(v.Alts) < 2 {
		return false
	}
	_, ok := pieceVar(v.Alts)
	return ok
}

// pieceTable reports whether alts may be a value as a table of one
// variable: at most maxPieceAlts alternatives (pieceVar).
func pieceTable(alts []Alt) bool {
	if len(alts) > maxPieceAlts {
		return false
	}
	_, ok := pieceVar(alts)
	return ok
}

// fitsValue reports whether out may be a value without a point's help: at
// most maxAlts alternatives with small guards, or a table of one variable.
func fitsValue(out []Alt) bool {
	if len(out) <= maxAlts {
		return guardsSmall(out)
	}
	return pieceTable(out)
}

// liftPieces applies op to vs where each is a table of one variable x
// (pieceVar) or has one unguarded alternative: op once per stretch of the
// common refinement of their ranges, the stretches with equal results one
// alternative guarded by their ranges together. ok is false where the
// values are not such tables, or the result is no value (fitsValue).
func liftPieces(vs []Value, op func([]symbolic.Expr) (symbolic.Expr, bool)) ([]Alt, bool) {
	type result struct {
		e   symbolic.Expr
		set spanSet
	}
	var results []*result
	byKey := map[string]*result{}
	x, ok := refinePieces(vs, func(r span, args []symbolic.Expr) bool {
		e, ok := op(args)
		if !ok {
			return false
		}
		res := byKey[e.Key()]
		if res == nil {
			res = &result{e: e}
			byKey[e.Key()] = res
			results = append(results, res)
		}
		res.set = res.set.union(spanSet{r})
		return len(results) <= maxPieceAlts
	})
	if !ok || len(results) == 0 {
		return nil, false
	}
	out := make([]Alt, len(results))
	for i, r := range results {
		out[i] = Alt{Guard: spansFormula(x, r.set), E: r.e}
	}
	if len(out) == 1 {
		out[0].Guard = nil
	}
	return out, fitsValue(out)
}

// relationPieces is relation of a and b, tables of one variable x or
// values of one unguarded alternative: on each stretch of the common
// refinement of their ranges, the relation of their expressions there;
// the stretches with one relation are one disjunct, guarded by their
// ranges together.
func relationPieces(a, b Value, op apt.Op) (counting.Formula, bool) {
	type result struct {
		f   counting.Formula
		set spanSet
	}
	var results []*result
	byKey := map[string]*result{}
	x, ok := refinePieces([]Value{a, b}, func(r span, args []symbolic.Expr) bool {
		var f counting.Formula
		if op == apt.OpNe {
			f = or(rel(args[0], "<", args[1]), rel(args[0], ">", args[1]))
		} else {
			f = rel(args[0], relOps[op], args[1])
		}
		if isFalse(f) {
			return true
		}
		k := counting.FormulaKey(f)
		res := byKey[k]
		if res == nil {
			res = &result{f: f}
			byKey[k] = res
			results = append(results, res)
		}
		res.set = res.set.union(spanSet{r})
		return len(results) <= maxPieceAlts
	})
	if !ok {
		return nil, false
	}
	var out counting.Or
	for _, r := range results {
		out = append(out, and(spansFormula(x, r.set), r.f))
	}
	f := or(out...)
	if f == nil {
		f = formulaTrue
	}
	return f, true
}

// refinePieces calls visit with each stretch of the common refinement of
// the ranges of vs, tables of one variable x (pieceVar) or values of one
// unguarded alternative, in order, with the expression each value has
// there; it returns x, and false where vs are not such tables, none of
// them a table, or visit returned false.
func refinePieces(vs []Value, visit func(span, []symbolic.Expr) bool) (string, bool) {
	x := ""
	// Each table as its stretches, in order, with the alternative each
	// belongs to.
	type stretch struct {
		span
		alt int
	}
	tables := make([][]stretch, len(vs))
	for i, v := range vs {
		if !v.IsKnown() {
			return "", false
		}
		if len(v.Alts) == 1 && v.Alts[0].Guard == nil {
			continue
		}
		y, ok := pieceVar(v.Alts)
		if !ok || x != "" && y != x {
			return "", false
		}
		x = y
		var ss []stretch
		for j, a := range v.Alts {
			_, s, _ := formulaSpans(a.Guard)
			for _, r := range s {
				ss = append(ss, stretch{r, j})
			}
		}
		slices.SortFunc(ss, func(a, b stretch) int { return cmp.Compare(a.lo, b.lo) })
		tables[i] = ss
	}
	if x == "" {
		return "", false
	}
	pos := make([]int, len(vs))
	args := make([]symbolic.Expr, len(vs))
	for lo := -spanInf; ; {
		// The stretch of the refinement that starts at lo: lo is in a
		// stretch of every table, or in a gap of one.
		hi, gap := spanInf, false
		for i, ss := range tables {
			if ss == nil {
				continue
			}
			for pos[i] < len(ss) && ss[pos[i]].hi < lo {
				pos[i]++
			}
			if pos[i] == len(ss) {
				return x, true // beyond one table's last stretch
			}
			s := ss[pos[i]]
			if s.lo > lo {
				gap = true
				hi = min(hi, s.lo-1)
				continue
			}
			hi = min(hi, s.hi)
		}
		if !gap {
			for i, v := range vs {
				if tables[i] == nil {
					args[i] = v.Alts[0].E
				} else {
					args[i] = v.Alts[tables[i][pos[i]].alt].E
				}
			}
			if !visit(span{lo, hi}, args) {
				return "", false
			}
		}
		if hi >= spanInf {
			return x, true
		}
		lo = hi + 1
	}
}

// piecesChoice reports whether choose may join more than maxAlts
// alternatives because they make a table of one variable: cond and the
// guards of a and b bound that variable alone.
func piecesChoice(cond counting.Formula, a, b Value) bool {
	if len(a.Alts)+len(b.Alts) > 2*maxPieceAlts {
		return false
	}
	x, _, ok := formulaSpans(cond)
	if !ok || x == "" {
		return false
	}
	for _, v := range []Value{a, b} {
		if len(v.Alts) == 1 && v.Alts[0].Guard == nil {
			continue
		}
		if y, ok := pieceVar(v.Alts); !ok || y != x {
			return false
		}
	}
	return true
}
