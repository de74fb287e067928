package symeval

import (
	"fmt"
	"os"
	"slices"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// maxAlts bounds the alternatives a value may hold; a value with more becomes
// unknown (a chain of conditional assignments doubling each time would
// otherwise grow without bound).
const maxAlts = 16

// maxRankAlts bounds the alternatives of a value per rank at a point (P a
// number, every guard a condition on the rank alone): such a value is a
// table of the ranks' values, exact, and operations on it go rank by rank
// (tabulateByRank), not by combinations of alternatives. Real programs
// make them from a process's coordinates: the sizes of the cells a process
// owns in a multi-partition, and the faces it sends, summed over them.
const maxRankAlts = 64

// fits reports whether out may be a value: at most maxAlts alternatives
// with small guards, or at a point a value per rank of at most
// maxRankAlts.
func (ev *evaluator) fits(out []Alt) bool {
	if len(out) <= maxAlts {
		return guardsSmall(out)
	}
	if pieceTable(out) {
		return true
	}
	if _, ok := ev.values[Size]; !ok || len(out) > maxRankAlts {
		return false
	}
	return rankGuards(Value{Alts: out}) && guardsSmall(out)
}

// Alt is one alternative of a value: E where Guard holds (nil Guard: always).
type Alt struct {
	Guard counting.Formula
	E     symbolic.Expr
}

// Value is what the evaluation knows of a variable at a point of the walk:
// alternatives whose guards partition the current domain, or unknown. A
// derived-type value keeps its components in Fields instead.
type Value struct {
	Alts []Alt
	// unknown values carry an identity, so that every use of one value maps
	// to one parameter, and what the user would call it.
	unk *unknown
	// Fields holds the components of a derived-type value.
	Fields map[string]Value
	// comm is set for an MPI communicator handle the program made.
	comm *communicator
	// dtype names the predefined MPI datatype a handle holds
	// (dp_type = MPI_DOUBLE_PRECISION), for message sizes.
	dtype string
	// dbytes is the size in bytes of a derived datatype the program made
	// (datatype.go), nil where it is not known.
	dbytes *Value
	// str is a character value known to be the constant *str (a class
	// letter the program sets from its sizes and tests later).
	str *string
	// arr is what the evaluation knows of an INTEGER or LOGICAL array's
	// elements (see array.go).
	arr *arrayState
	// deck marks a value computed from the program's defaults for values
	// of an input deck (deck.go): a check it fails is the defaults', not
	// the run's.
	deck bool
}

// unknown is a value the evaluation cannot derive.
type unknown struct {
	hint  string // variable name to base a parameter name on
	what  string // the value in the user's terms
	param *Param // created on first use where a closed form is needed
	real  bool
	// undef marks a variable never assigned on some path.
	undef bool
	// varying marks a value a loop changes from one iteration to the next:
	// one parameter cannot stand for it.
	varying bool
	// probed marks an array element a recurrence probe read at its
	// symbolic index: its parameter, if it becomes one, is no constant.
	probed bool
	// lo and hi bound the value where the evaluation knows bounds (a
	// counter a loop changes by at most one step per iteration).
	lo, hi *symbolic.Expr // set by setRange
	// cmdline marks a C program's argc, or a value computed from the text
	// of its argv, where the arguments are not given (Options.Args).
	cmdline bool
	// argNum is k for the text of command-line argument k where the
	// arguments are not given (GET_COMMAND_ARGUMENT(k, text)): a number
	// read from it is the run's, one value, as C's atoi(argv[k]) is.
	argNum int64
	// elem is the element an unknown was read from, where one offset
	// selects it (rowsums.go).
	elem *elemRef
	// texts are the texts a character variable holds under conditions,
	// the first whose guard holds (nil: always): a setting read on the
	// root only, which a broadcast then gives every rank (textAtRoot).
	texts []guardedText
}

// guardedText is a text and the condition under which it is the value.
type guardedText struct {
	guard counting.Formula
	text  string
}

// textChoice is IF (cond) a ELSE b of two texts (or text choices), nil
// where either is neither.
func textChoice(cond counting.Formula, a, b Value) []guardedText {
	alts := func(v Value) []guardedText {
		switch {
		case v.str != nil:
			return []guardedText{{text: *v.str}}
		case v.unk != nil:
			return v.unk.texts
		}
		return nil
	}
	x, y := alts(a), alts(b)
	if x == nil || y == nil || len(x)+len(y) > maxAlts {
		return nil
	}
	var out []guardedText
	for _, t := range x {
		out = append(out, guardedText{guard: and(cond, t.guard), text: t.text})
	}
	return append(out, y...)
}

// Known returns the value of e.
func Known(e symbolic.Expr) Value { return Value{Alts: []Alt{{E: e}}} }

func unknownValue(hint, what string, real bool) Value {
	return Value{unk: &unknown{hint: hint, what: what, real: real}}
}

// IsKnown reports whether v has alternatives.
func (v Value) IsKnown() bool { return len(v.Alts) > 0 }

// Single returns the expression of a value with one unguarded alternative.
func (v Value) Single() (symbolic.Expr, bool) {
	if len(v.Alts) == 1 && v.Alts[0].Guard == nil {
		return v.Alts[0].E, true
	}
	return symbolic.Expr{}, false
}

// lift2 applies op to every pair of alternatives of a and b. An unknown
// operand makes the result unknown.
func lift2(a, b Value, op func(x, y symbolic.Expr) (symbolic.Expr, bool)) (Value, bool) {
	out, ok := lift2Alts(a, b, op)
	if !ok {
		return Value{}, false
	}
	return Value{Alts: out, deck: a.deck || b.deck}, fitsValue(out)
}

// lift2 is the package function lift2 where a point may tell more: where
// the combinations are too many, those that select the same ranks with
// equal values are one (rankAlts), their guards by the ranks they hold at,
// and the few that remain are the value (a ratio of a subdomain's sides,
// each chosen per rank, on a grid of 8 by 8 processes).
func (ev *evaluator) lift2(a, b Value, op func(x, y symbolic.Expr) (symbolic.Expr, bool)) (Value, bool) {
	opN := func(xs []symbolic.Expr) (symbolic.Expr, bool) { return op(xs[0], xs[1]) }
	if n := len(a.Alts) * len(b.Alts); n > maxTabulateCombos || n > maxAlts && guardsSize(a)+guardsSize(b) > maxGuardSize {
		// Values per rank: combining their alternatives pair by pair
		// (each pair's guards, runs of ranks, tested for contradiction)
		// costs more than going rank by rank.
		if v, ok := ev.regroupByRank([]Value{a, b}, opN); ok {
			return v, true
		}
	}
	if v, ok := lift2(a, b, op); ok {
		return v, true
	}
	return ev.regroupByRank([]Value{a, b}, opN)
}

// guardsSize is the size of v's guards together.
func guardsSize(v Value) int {
	n := 0
	for _, a := range v.Alts {
		if a.Guard != nil {
			n += formulaSize(a.Guard)
		}
	}
	return n
}

// maxTabulateCombos is the number of combinations of alternatives beyond
// which an operation on values per rank goes rank by rank at once.
const maxTabulateCombos = 64

// regroupByRank is the value of op on vs where the combinations of their
// alternatives are too many, or their guards too large (the tests that
// chose each process's cells, SP at P=64), at a point where every guard of vs is a
// condition on the rank alone: op is applied rank by rank
// (tabulateByRank), and the ranks with equal results are one alternative
// (rankAltsOn). ok is false where that leaves more than the value may
// hold (fits), or regrouping cannot help.
func (ev *evaluator) regroupByRank(vs []Value, op func([]symbolic.Expr) (symbolic.Expr, bool)) (Value, bool) {
	if _, ok := ev.values[Size]; !ok {
		return Value{}, false
	}
	for _, v := range vs {
		if !v.IsKnown() || !rankGuards(v) {
			return Value{}, false
		}
	}
	n, size := 1, 0
	for _, v := range vs {
		n *= len(v.Alts)
		size += guardsSize(v)
	}
	if n <= maxTabulateCombos && size <= maxGuardSize {
		// Few enough combinations to join, each guard its own or its
		// ranks' (rankAlts).
		if out, ok := liftNAlts(vs, op); ok && len(out) > 1 {
			if out = ev.rankAlts(out); len(out) <= maxAlts {
				return Value{Alts: out, deck: anyDeck(vs)}, guardsSmall(out)
			}
		}
	}
	out, ok := ev.tabulateByRank(vs, op)
	if !ok {
		return Value{}, false
	}
	return Value{Alts: out, deck: anyDeck(vs)}, ev.fits(out)
}

// altsByRank returns, for each rank 0..np-1, the index of the alternative
// of v (every guard a condition on the rank alone) that holds there, -1
// where none does (a rank outside the current domain).
func (ev *evaluator) altsByRank(v Value, np int64) ([]int32, bool) {
	idx := make([]int32, np)
	for r := range idx {
		idx[r] = -1
	}
	for j, a := range v.Alts {
		if a.Guard == nil {
			for r := range idx {
				if idx[r] < 0 {
					idx[r] = int32(j)
				}
			}
			continue
		}
		set, ok := ev.rankSet(a.Guard, np)
		if !ok {
			return nil, false
		}
		for r, h := range set {
			if h && idx[r] < 0 {
				idx[r] = int32(j)
			}
		}
	}
	return idx, true
}

// tabulateByRank applies op rank by rank to vs, values whose guards are
// conditions on the rank alone, at a point: op once for each combination
// of alternatives some rank takes (at most P of them, where all the
// combinations may be thousands: two values of 64 rank classes each), the
// ranks then grouped by result. A rank some value has no alternative at
// is outside the current domain and takes no part.
func (ev *evaluator) tabulateByRank(vs []Value, op func([]symbolic.Expr) (symbolic.Expr, bool)) ([]Alt, bool) {
	np, ok := ev.values[Size]
	if _, fixed := ev.values[Rank]; !ok || fixed || np < 1 || np > maxTabulatedP {
		return nil, false
	}
	at := make([][]int32, len(vs))
	for i, v := range vs {
		if at[i], ok = ev.altsByRank(v, np); !ok {
			return nil, false
		}
	}
	groups := newRankGroups(np)
	byCombo := map[string]*rankGroup{}
	key := make([]byte, 0, 4*len(vs))
	for r := int64(0); r < np; r++ {
		key = key[:0]
		inDomain := true
		for i := range vs {
			j := at[i][r]
			if j < 0 {
				inDomain = false
				break
			}
			key = append(key, byte(j), byte(j>>8), byte(j>>16), byte(j>>24))
		}
		if !inDomain {
			continue
		}
		g, seen := byCombo[string(key)]
		if !seen {
			args := make([]symbolic.Expr, len(vs))
			for i, v := range vs {
				args[i] = v.Alts[at[i][r]].E
			}
			e, ok := op(args)
			if !ok {
				return nil, false
			}
			if g = groups.of(e); len(groups.list) > maxCombos {
				return nil, false
			}
			byCombo[string(key)] = g
		}
		g.ranks[r] = true
	}
	return groups.alts(ev)
}

// rankGroups collects, rank by rank, the value each rank of a point
// takes, grouped by value.
type rankGroups struct {
	np     int64
	list   []*rankGroup
	byExpr map[string]*rankGroup
}

// rankGroup is one value and the ranks that take it.
type rankGroup struct {
	e     symbolic.Expr
	ranks []bool
}

func newRankGroups(np int64) *rankGroups {
	return &rankGroups{np: np, byExpr: map[string]*rankGroup{}}
}

// of returns the group of value e, made empty the first time.
func (gs *rankGroups) of(e symbolic.Expr) *rankGroup {
	g := gs.byExpr[e.Key()]
	if g == nil {
		g = &rankGroup{e: e, ranks: make([]bool, gs.np)}
		gs.byExpr[e.Key()] = g
		gs.list = append(gs.list, g)
	}
	return g
}

// alts is the value the groups make: one alternative per value, guarded by
// its ranks (rankAltsOn: as few closed forms in the rank as give them,
// where the values are many); false where no rank took a value.
func (gs *rankGroups) alts(ev *evaluator) ([]Alt, bool) {
	if len(gs.list) == 0 {
		return nil, false
	}
	alts := make([]Alt, len(gs.list))
	sets := make([][]bool, len(gs.list))
	for i, g := range gs.list {
		alts[i], sets[i] = Alt{Guard: rankRanges(g.ranks), E: g.e}, g.ranks
	}
	return ev.rankAltsOn(alts, sets, gs.np), true
}

// rankGuards reports whether every guard of v's alternatives is a
// condition on the rank alone.
func rankGuards(v Value) bool {
	for _, a := range v.Alts {
		if a.Guard != nil && !onlyRank(a.Guard) {
			return false
		}
	}
	return true
}

// lift2Alts applies op to every combination of alternatives of a and b
// whose guards may hold together, the equal values merged.
func lift2Alts(a, b Value, op func(x, y symbolic.Expr) (symbolic.Expr, bool)) ([]Alt, bool) {
	if !a.IsKnown() || !b.IsKnown() {
		return nil, false
	}
	if len(a.Alts)*len(b.Alts) > maxAlts || len(a.Alts)+len(b.Alts) > 2 && (isTable(a) || isTable(b)) {
		// Tables of one variable: stretch by stretch.
		if out, ok := liftPieces([]Value{a, b}, func(xs []symbolic.Expr) (symbolic.Expr, bool) { return op(xs[0], xs[1]) }); ok {
			return out, true
		}
	}
	if len(a.Alts)*len(b.Alts) > maxCombos {
		return nil, false
	}
	var out []Alt
	// Each guard is read for contradictions once, not once per pair.
	var ga, gb []guardConj
	if len(a.Alts) > 1 || len(b.Alts) > 1 {
		ga, gb = guardConjs(a.Alts), guardConjs(b.Alts)
	}
	for i, x := range a.Alts {
		for j, y := range b.Alts {
			e, ok := op(x.E, y.E)
			if !ok {
				return nil, false
			}
			var g counting.Formula
			if ga != nil {
				g = simplifyGuard(andPair(ga[i], gb[j]))
			} else {
				g = and(x.Guard, y.Guard)
			}
			if isFalse(g) {
				continue
			}
			out = append(out, Alt{Guard: g, E: e})
		}
	}
	return mergeAlts(out), true
}

// maxCombos bounds the combinations of alternatives an operation tries;
// those whose guards contradict each other (k == 2 with k == 3) are
// dropped before maxAlts applies to the rest.
const maxCombos = 1024

// liftN applies op to every combination of alternatives of vs.
func liftN(vs []Value, op func([]symbolic.Expr) (symbolic.Expr, bool)) (Value, bool) {
	out, ok := liftNAlts(vs, op)
	if !ok {
		return Value{}, false
	}
	return Value{Alts: out, deck: anyDeck(vs)}, fitsValue(out)
}

// liftN is the package function liftN where a point may tell more, as
// lift2 is: an intrinsic of values chosen per rank (the larger of a rank's
// rows and columns, each a block size that differs by rank) regroups the
// combinations of their alternatives by the ranks they hold at.
func (ev *evaluator) liftN(vs []Value, op func([]symbolic.Expr) (symbolic.Expr, bool)) (Value, bool) {
	if v, ok := liftN(vs, op); ok {
		return v, true
	}
	return ev.regroupByRank(vs, op)
}

func anyDeck(vs []Value) bool {
	for _, v := range vs {
		if v.deck {
			return true
		}
	}
	return false
}

// liftNAlts applies op to every combination of alternatives of vs whose
// guards may hold together, the equal values merged.
func liftNAlts(vs []Value, op func([]symbolic.Expr) (symbolic.Expr, bool)) ([]Alt, bool) {
	n, tables := 1, false
	for _, v := range vs {
		if !v.IsKnown() {
			return nil, false
		}
		n = min(n*len(v.Alts), maxCombos+1)
		tables = tables || isTable(v)
	}
	if n > maxAlts || tables {
		// Tables of one variable: stretch by stretch.
		if out, ok := liftPieces(vs, op); ok {
			return out, true
		}
		if n > maxCombos {
			return nil, false
		}
	}
	var out []Alt
	idx := make([]int, len(vs))
	for {
		args := make([]symbolic.Expr, len(vs))
		var guards []counting.Formula
		for i, v := range vs {
			args[i] = v.Alts[idx[i]].E
			guards = append(guards, v.Alts[idx[i]].Guard)
		}
		if g := simplifyGuard(and(guards...)); !isFalse(g) {
			e, ok := op(args)
			if !ok {
				return nil, false
			}
			out = append(out, Alt{Guard: g, E: e})
		}
		i := 0
		for ; i < len(vs); i++ {
			idx[i]++
			if idx[i] < len(vs[i].Alts) {
				break
			}
			idx[i] = 0
		}
		if i == len(vs) {
			break
		}
	}
	return mergeAlts(out), true
}

// mergeAlts joins alternatives with equal expressions, so that a value that
// is the same on every path is one unguarded alternative again.
func mergeAlts(alts []Alt) []Alt {
	if len(alts) <= 1 {
		return alts
	}
	var out []Alt
	for _, a := range alts {
		merged := false
		for i := range out {
			if symbolic.Equal(out[i].E, a.E) {
				if out[i].Guard == nil || a.Guard == nil {
					out[i].Guard = nil
				} else {
					out[i].Guard = simplifyGuard(or(out[i].Guard, a.Guard))
				}
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, a)
		}
	}
	// Alternatives partition the domain: when they all merged into one, its
	// guard is the whole domain.
	if len(out) == 1 {
		out[0].Guard = nil
	}
	return out
}

// choose is the value "a where cond holds, b elsewhere".
func (ev *evaluator) choose(cond counting.Formula, a, b Value) Value {
	if a.Fields != nil || b.Fields != nil {
		if a.Fields == nil || b.Fields == nil {
			return unknownValue("", "a derived-type value assigned on some paths only", false)
		}
		out := Value{Fields: map[string]Value{}}
		for k, av := range a.Fields {
			out.Fields[k] = ev.choose(cond, av, b.Fields[k])
		}
		for k, bv := range b.Fields {
			if _, ok := a.Fields[k]; !ok {
				out.Fields[k] = ev.choose(cond, Value{unk: &unknown{hint: k, what: "component " + k}}, bv)
			}
		}
		return out
	}
	if sameValue(a, b) {
		return a
	}
	if a.arr != nil && b.arr != nil {
		if st, ok := ev.chooseTables(cond, a.arr, b.arr); ok {
			return Value{arr: st}
		}
		if st, ok := chooseArrays(cond, a.arr, b.arr); ok {
			return Value{arr: st}
		}
		return Value{arr: &arrayState{clobbered: true}}
	}
	if !a.IsKnown() || !b.IsKnown() || len(a.Alts)+len(b.Alts) > maxAlts && !ev.rankRegroups(cond, a, b) && !piecesChoice(cond, a, b) {
		v := unknownValue("", "a value assigned under a condition", false)
		v.unk.texts = textChoice(cond, a, b)
		return v
	}
	var out []Alt
	for _, x := range a.Alts {
		out = append(out, Alt{Guard: simplifyGuard(and(cond, x.Guard)), E: x.E})
	}
	nc := not(cond)
	for _, x := range b.Alts {
		out = append(out, Alt{Guard: simplifyGuard(and(nc, x.Guard)), E: x.E})
	}
	if live := slices.DeleteFunc(slices.Clone(out), func(x Alt) bool { return isFalse(x.Guard) }); len(live) > 0 {
		out = live
	}
	out = ev.rankAlts(mergeAlts(out))
	if len(out) > maxAlts && pieceTable(out) {
		return Value{Alts: out, deck: a.deck || b.deck}
	}
	if len(out) > maxAlts {
		// A value per rank (rankRegroups): rank by rank, a's where cond
		// holds and b's elsewhere.
		if byRank, ok := ev.chooseByRank(cond, a, b); ok && ev.fits(byRank) {
			return Value{Alts: byRank, deck: a.deck || b.deck}
		}
		return unknownValue("", "a value assigned under conditions too many to follow", false)
	}
	if !guardsSmall(out) && debugRuns {
		for _, a := range out {
			fmt.Fprintf(os.Stderr, "choose: too big: %s (%d) where %v\n", a.E, formulaSize(a.Guard), a.Guard)
		}
	}
	if !guardsSmall(out) {
		return unknownValue("", "a value assigned under conditions too many to follow", false)
	}
	return Value{Alts: out, deck: a.deck || b.deck}
}

// chooseByRank is choose for values per rank at a point (rankRegroups):
// at each rank, the alternative of a that holds there where cond holds,
// else b's; the ranks with equal values are one alternative.
func (ev *evaluator) chooseByRank(cond counting.Formula, a, b Value) ([]Alt, bool) {
	np := ev.values[Size]
	if _, fixed := ev.values[Rank]; fixed || np < 1 || np > maxTabulatedP {
		return nil, false
	}
	in, ok := ev.rankSet(cond, np)
	if !ok {
		return nil, false
	}
	ia, ok1 := ev.altsByRank(a, np)
	ib, ok2 := ev.altsByRank(b, np)
	if !ok1 || !ok2 {
		return nil, false
	}
	groups := newRankGroups(np)
	for r := range np {
		var e symbolic.Expr
		switch {
		case in[r] && ia[r] >= 0:
			e = a.Alts[ia[r]].E
		case !in[r] && ib[r] >= 0:
			e = b.Alts[ib[r]].E
		default:
			continue // outside the current domain
		}
		groups.of(e).ranks[r] = true
	}
	return groups.alts(ev)
}

// rankRegroups reports whether choose may join more than maxAlts
// alternatives because rankAlts will regroup them: at a point, where the
// condition and every guard select ranks and nothing else.
func (ev *evaluator) rankRegroups(cond counting.Formula, a, b Value) bool {
	if _, ok := ev.values[Size]; !ok || len(a.Alts)+len(b.Alts) > maxCombos {
		return false
	}
	return cond != nil && onlyRank(cond) && rankGuards(a) && rankGuards(b)
}

func sameValue(a, b Value) bool {
	if a.unk != nil || b.unk != nil {
		return a.unk == b.unk
	}
	if a.comm != nil || b.comm != nil {
		return a.comm == b.comm
	}
	if a.arr != nil || b.arr != nil {
		return a.arr != nil && b.arr != nil && sameArray(a.arr, b.arr)
	}
	if a.dtype != "" || b.dtype != "" {
		return a.dtype == b.dtype
	}
	if a.dbytes != nil || b.dbytes != nil {
		return a.dbytes != nil && b.dbytes != nil && sameValue(*a.dbytes, *b.dbytes)
	}
	if a.str != nil || b.str != nil {
		return a.str != nil && b.str != nil && *a.str == *b.str
	}
	if a.Fields != nil || b.Fields != nil {
		// A record of values (an array's bounds, shape.go): the same
		// fields with the same values.
		if len(a.Fields) != len(b.Fields) || len(a.Alts)+len(b.Alts) > 0 {
			return false
		}
		for k, av := range a.Fields {
			bv, ok := b.Fields[k]
			if !ok || !sameValue(av, bv) {
				return false
			}
		}
		return true
	}
	if len(a.Alts) != len(b.Alts) {
		return false
	}
	for i := range a.Alts {
		if !symbolic.Equal(a.Alts[i].E, b.Alts[i].E) || !sameFormula(a.Alts[i].Guard, b.Alts[i].Guard) {
			return false
		}
	}
	return true
}

// sameFormula reports whether a and b are the same formula: the same
// structure over equal relations.
func sameFormula(a, b counting.Formula) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch x := a.(type) {
	case counting.Rel:
		y, ok := b.(counting.Rel)
		return ok && x.R.Op == y.R.Op && symbolic.Equal(x.R.E, y.R.E)
	case counting.And:
		y, ok := b.(counting.And)
		return ok && sameList(x, y)
	case counting.Or:
		y, ok := b.(counting.Or)
		return ok && sameList(x, y)
	case counting.Not:
		y, ok := b.(counting.Not)
		return ok && sameFormula(x.F, y.F)
	}
	return false
}

func sameList(a, b []counting.Formula) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameFormula(a[i], b[i]) {
			return false
		}
	}
	return true
}

// live returns the parameter u stands for, nil where none was made or a
// failed run's restore took it back (forgetParams).
func (u *unknown) live() *Param {
	if u.param != nil && u.param.dropped {
		u.param = nil
	}
	return u.param
}

// setRange bounds u by lo..hi; a range naming parameters is listed, so that
// a failed run's restore can forget one naming the parameters it took
// back.
func (ev *evaluator) setRange(u *unknown, lo, hi symbolic.Expr) {
	u.lo, u.hi = &lo, &hi
	if len(lo.Symbols()) > 0 || len(hi.Symbols()) > 0 {
		ev.ranged = append(ev.ranged, u)
	}
}
