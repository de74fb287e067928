package symeval

import (
	"fmt"
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
	"os"
)

// maxAlts bounds the alternatives a value may hold; a value with more becomes
// unknown (a chain of conditional assignments doubling each time would
// otherwise grow without bound).
const maxAlts = 16

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
	// lo and hi bound the value where the evaluation knows bounds (a
	// counter a loop changes by at most one step per iteration).
	lo, hi *symbolic.Expr
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
	return Value{Alts: out, deck: a.deck || b.deck}, len(out) <= maxAlts && guardsSmall(out)
}

// lift2 is the package function lift2 where a point may tell more: where
// the combinations are too many, those that select the same ranks with
// equal values are one (rankAlts), their guards by the ranks they hold at,
// and the few that remain are the value (a ratio of a subdomain's sides,
// each chosen per rank, on a grid of 8 by 8 processes).
func (ev *evaluator) lift2(a, b Value, op func(x, y symbolic.Expr) (symbolic.Expr, bool)) (Value, bool) {
	if v, ok := lift2(a, b, op); ok {
		return v, true
	}
	return ev.regroupByRank([]Value{a, b}, func() ([]Alt, bool) { return lift2Alts(a, b, op) })
}

// regroupByRank is the value of an operation on vs whose combinations of
// alternatives (combos) are too many, where the evaluation is at a point
// and every guard of vs is a condition on the rank alone: the combinations
// that select the same ranks with equal values are one (rankAlts). ok is
// false where that leaves too many still, or regrouping cannot help.
func (ev *evaluator) regroupByRank(vs []Value, combos func() ([]Alt, bool)) (Value, bool) {
	if _, ok := ev.values[Size]; !ok {
		return Value{}, false
	}
	n := 1
	for _, v := range vs {
		if !rankGuards(v) {
			return Value{}, false
		}
		n *= len(v.Alts)
	}
	if n <= maxAlts {
		return Value{}, false // not too many combinations: regrouping cannot help
	}
	out, ok := combos()
	if !ok || len(out) <= 1 {
		return Value{}, false
	}
	out = ev.rankAlts(out)
	return Value{Alts: out, deck: anyDeck(vs)}, len(out) <= maxAlts && guardsSmall(out)
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
	if len(a.Alts)*len(b.Alts) > maxCombos {
		return nil, false
	}
	var out []Alt
	for _, x := range a.Alts {
		for _, y := range b.Alts {
			e, ok := op(x.E, y.E)
			if !ok {
				return nil, false
			}
			g := and(x.Guard, y.Guard)
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
	return Value{Alts: out, deck: anyDeck(vs)}, len(out) <= maxAlts && guardsSmall(out)
}

// liftN is the package function liftN where a point may tell more, as
// lift2 is: an intrinsic of values chosen per rank (the larger of a rank's
// rows and columns, each a block size that differs by rank) regroups the
// combinations of their alternatives by the ranks they hold at.
func (ev *evaluator) liftN(vs []Value, op func([]symbolic.Expr) (symbolic.Expr, bool)) (Value, bool) {
	if v, ok := liftN(vs, op); ok {
		return v, true
	}
	return ev.regroupByRank(vs, func() ([]Alt, bool) { return liftNAlts(vs, op) })
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
	n := 1
	for _, v := range vs {
		if !v.IsKnown() {
			return nil, false
		}
		n *= len(v.Alts)
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
		if g := and(guards...); !isFalse(g) {
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
					out[i].Guard = or(out[i].Guard, a.Guard)
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
		if st, ok := chooseArrays(cond, a.arr, b.arr); ok {
			return Value{arr: st}
		}
		return Value{arr: &arrayState{clobbered: true}}
	}
	if !a.IsKnown() || !b.IsKnown() || len(a.Alts)+len(b.Alts) > maxAlts && !ev.rankRegroups(cond, a, b) {
		return unknownValue("", "a value assigned under a condition", false)
	}
	var out []Alt
	for _, x := range a.Alts {
		out = append(out, Alt{Guard: and(cond, x.Guard), E: x.E})
	}
	nc := not(cond)
	for _, x := range b.Alts {
		out = append(out, Alt{Guard: and(nc, x.Guard), E: x.E})
	}
	out = ev.rankAlts(mergeAlts(out))
	if len(out) > maxAlts {
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
		return a.arr == b.arr
	}
	if a.dtype != "" || b.dtype != "" {
		return a.dtype == b.dtype
	}
	if a.str != nil || b.str != nil {
		return a.str != nil && b.str != nil && *a.str == *b.str
	}
	if len(a.Alts) != len(b.Alts) || a.Fields != nil || b.Fields != nil {
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
