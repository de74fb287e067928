package symeval

import (
	"fmt"
	"os"
	"slices"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// Counters whose step depends on the iteration. A loop that adds to x an
// amount c(v) of its own variable v, known as a closed form, leaves
//
//	x = x0 + sum over the iterations v of c(v).
//
// The common case is a count kept under a condition: cnt = cnt + 1 where
// the neighbour (i + d, j + e) lies inside the grid, so that c(d) is 1
// where the test holds and 0 where it does not (the length of a stencil's
// row at a boundary), or an inner loop's such count summed by the loop
// around it. The sum is the counting package's exact sum over the
// iterations, one per alternative of c under its guard (SCALA's counting,
// seed 001 §4, applied to a value instead of to work); it is a closed form
// in what the loop's bounds and c mention (the outer loops' variables, the
// sizes, the rank), never an estimate: where counting refuses, the value
// stays unknown.

// sumVar is the iteration number w = (v - lo)/step the sum runs over.
const sumVar = "sum#w"

// sumOverIterations is x0 plus the sum of c over the trips iterations of a
// loop whose variable is lo + step*w in iteration w (0-based); c's
// alternatives mention iter for the variable. A bound with alternatives
// (a size read or defaulted) gives a sum under each. ok is false where
// counting refuses or the alternatives are too many.
func (ev *evaluator) sumOverIterations(x0, c Value, iter string, lo Value, step int64, trips Value) (Value, bool) {
	if !x0.IsKnown() || !c.IsKnown() || !lo.IsKnown() || !trips.IsKnown() || step == 0 {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "step sum: lo %v trips %v x0 %v\n", lo.Alts, trips.Alts, x0.Alts)
		}
		return Value{}, false
	}
	var out []Alt
	for _, la := range lo.Alts {
		for _, ta := range trips.Alts {
			g := and(la.Guard, ta.Guard)
			if isFalse(g) {
				continue
			}
			sum, ok := ev.splitStepSum(c, iter, la.E, step, ta.E, g)
			if !ok {
				return Value{}, false
			}
			v, ok := liftN([]Value{x0, sum}, func(a []symbolic.Expr) (symbolic.Expr, bool) { return a[0].Add(a[1]), true })
			if !ok {
				if debugRuns {
					fmt.Fprintf(os.Stderr, "step sum: x0 %d and sum %d alternatives\n", len(x0.Alts), len(sum.Alts))
				}
				return Value{}, false
			}
			out = appendGuarded(out, g, v)
		}
	}
	out = mergeAlts(out)
	if len(out) == 0 || len(out) > maxAlts {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "step sum: %d alternatives: %v\n", len(out), out)
		}
		return Value{}, false
	}
	return Value{Alts: out}, true
}

// maxSplitAtoms bounds the tests a step sum is split on.
const maxSplitAtoms = 3

// splitStepSum is stepSum taken case by case over the tests in c's guards
// that do not depend on the iteration (nargs >= 2 where a size has a
// default: IF (nargs >= 2) read m, else m = 64): under each assignment of
// truth to them the guards are simpler, where counting them together
// would split every case on each test again.
func (ev *evaluator) splitStepSum(c Value, iter string, lo symbolic.Expr, step int64, t symbolic.Expr, g counting.Formula) (Value, bool) {
	// The tests that select between cases: conjuncts of a disjunct
	// (IF (nargs >= 2) ... ELSE ... makes each guard an OR of the two
	// cases), a test and its negation one atom.
	var atoms []counting.Rel
	seen := map[string]bool{}
	var collect func(f counting.Formula, inOr bool)
	collect = func(f counting.Formula, inOr bool) {
		switch x := f.(type) {
		case counting.Rel:
			k, _ := atomKey(x.R)
			if inOr && !x.R.E.Has(iter) && !seen[k] {
				seen[k] = true
				atoms = append(atoms, x)
			}
		case counting.And:
			for _, y := range x {
				collect(y, inOr)
			}
		case counting.Or:
			for _, y := range x {
				collect(y, true)
			}
		case counting.Not:
			collect(x.F, inOr)
		}
	}
	for _, a := range c.Alts {
		collect(a.Guard, false)
	}
	if len(atoms) == 0 || len(atoms) > maxSplitAtoms {
		return ev.stepSum(c, iter, lo, step, t, g)
	}
	var out []Alt
	for mask := 0; mask < 1<<len(atoms); mask++ {
		truths := map[string]bool{}
		var caseG []counting.Formula
		for i, r := range atoms {
			holds := mask&(1<<i) != 0
			k, pos := atomKey(r.R)
			truths[k] = holds == pos
			if holds {
				caseG = append(caseG, r)
			} else {
				caseG = append(caseG, not(r))
			}
		}
		cg := and(append(caseG, g)...)
		if isFalse(cg) {
			continue
		}
		var alts []Alt
		for _, a := range c.Alts {
			if f := assignAtoms(a.Guard, truths); !isFalse(f) {
				alts = append(alts, Alt{Guard: f, E: a.E})
			}
		}
		if len(alts) == 0 {
			continue
		}
		sum, ok := ev.stepSum(Value{Alts: alts}, iter, lo, step, t, cg)
		if !ok {
			return Value{}, false
		}
		out = appendGuarded(out, and(caseG...), sum)
	}
	out = mergeAlts(out)
	return Value{Alts: out}, len(out) > 0 && len(out) <= maxAlts
}

// atomKey identifies a test up to negation: e >= 0 and -e - 1 >= 0 (its
// negation over the integers) have one key; pos is false for the form
// that is the negation.
func atomKey(r symbolic.Relation) (key string, pos bool) {
	k := r.Key()
	if r.Op != symbolic.GE {
		return k, true
	}
	n := symbolic.Relation{E: r.E.Neg().Sub(symbolic.Int(1)), Op: symbolic.GE}.Key()
	if n < k {
		return n, false
	}
	return k, true
}

// assignAtoms is f with each test truths names (by atomKey) replaced by
// its truth.
func assignAtoms(f counting.Formula, truths map[string]bool) counting.Formula {
	switch x := f.(type) {
	case counting.Rel:
		k, pos := atomKey(x.R)
		if t, ok := truths[k]; ok {
			return truth(t == pos)
		}
		return x
	case counting.And:
		var parts []counting.Formula
		for _, y := range x {
			parts = append(parts, assignAtoms(y, truths))
		}
		return and(parts...)
	case counting.Or:
		var parts []counting.Formula
		for _, y := range x {
			if z := assignAtoms(y, truths); !isFalse(z) {
				parts = append(parts, z)
			}
		}
		return or(parts...)
	case counting.Not:
		y := assignAtoms(x.F, truths)
		switch {
		case isTrue(y):
			return formulaFalse
		case isFalse(y):
			return nil
		}
		return not(y)
	}
	return f
}

// stepSum is the sum of c over t iterations from lo by step, exact.
func (ev *evaluator) stepSum(c Value, iter string, lo symbolic.Expr, step int64, t symbolic.Expr, g counting.Formula) (Value, bool) {
	facts := ev.stepFacts(g)
	at := lo.Add(symbolic.Sym(sumVar).Mul(symbolic.Int(step)))
	cw, ok := substValue(c, map[string]symbolic.Expr{iter: at})
	if !ok {
		return Value{}, false
	}
	var total symbolic.Piecewise
	for _, a := range cw.Alts {
		if a.E.IsZero() {
			continue
		}
		cond := and(counting.Rel{R: symbolic.Rel(symbolic.Sym(sumVar), ">=", symbolic.Int(0))},
			counting.Rel{R: symbolic.Rel(symbolic.Sym(sumVar), "<=", t.Sub(symbolic.Int(1)))}, a.Guard)
		vars := []string{sumVar}
		params := formulaSymbolsBut(cond, vars, nil)
		for _, s := range a.E.Symbols() {
			if s != sumVar {
				params = append(params, s)
			}
		}
		slices.Sort(params)
		params = slices.Compact(params)
		pw, err := counting.Sum(&counting.Set{Params: params, Vars: vars, Cond: cond}, a.E, facts, counting.Options{})
		if err != nil {
			if debugRuns {
				fmt.Fprintf(os.Stderr, "step sum: %v over %v\n", err, cond)
			}
			return Value{}, false
		}
		total = total.Add(pw)
	}
	sum, ok := piecewiseValue(total.Merge(), facts)
	if !ok && debugRuns {
		fmt.Fprintf(os.Stderr, "step sum: %d pieces\n", len(total.Pieces))
	}
	return sum, ok
}

// piecewiseValue is a sum of guarded terms as a value. Pieces whose guards
// exclude one another under facts (the cases counting splits on: which
// bound is active) are the alternatives as they are, 0 where none holds;
// otherwise each piece is its term under its guard and 0 elsewhere, and
// the pieces add. ok is false past the values' limit of alternatives.
func piecewiseValue(pw symbolic.Piecewise, facts *symbolic.Assumptions) (Value, bool) {
	guards := make([]counting.Formula, len(pw.Pieces))
	for i, p := range pw.Pieces {
		var g counting.And
		for _, r := range p.Guard {
			g = append(g, counting.Rel{R: r})
		}
		if len(g) > 0 {
			guards[i] = g
		}
	}
	if disjointPieces(pw, facts) {
		var alts []Alt
		var none []counting.Formula
		for i, p := range pw.Pieces {
			alts = append(alts, Alt{Guard: guards[i], E: p.Value})
			if guards[i] == nil {
				return Value{Alts: alts[len(alts)-1:]}, true // one piece, everywhere
			}
			none = append(none, not(guards[i]))
		}
		alts = append(alts, Alt{Guard: and(none...), E: symbolic.Int(0)})
		alts = mergeAlts(alts)
		return Value{Alts: alts}, len(alts) <= maxAlts
	}
	// Refine a partition piece by piece: each cell splits into where the
	// piece's guard holds (its term added) and where it does not, the
	// cells the facts and the relations taken so far refute dropped.
	type cell struct {
		in  []symbolic.Relation // relations that hold in the cell
		out []counting.Formula  // guards that do not
		val symbolic.Expr
	}
	cells := []cell{{val: symbolic.Int(0)}}
	for _, p := range pw.Pieces {
		var next []cell
		for _, c := range cells {
			a := facts.Clone()
			a.Assume(c.in...)
			inside, always := true, true
			for _, r := range p.Guard {
				switch a.Prove(r) {
				case symbolic.False:
					inside, always = false, false
				case symbolic.Unknown:
					always = false
				}
			}
			if inside {
				next = append(next, cell{in: append(slices.Clip(c.in), p.Guard...), out: c.out, val: c.val.Add(p.Value)})
			}
			if !always {
				d := cell{in: c.in, out: c.out, val: c.val}
				if n, ok := negated(p.Guard[0]); len(p.Guard) == 1 && ok {
					d.in = append(slices.Clip(c.in), n)
				} else {
					d.out = append(slices.Clip(c.out), counting.Not{F: andRels(p.Guard)})
				}
				next = append(next, d)
			}
		}
		cells = next
		if len(cells) > 4*maxAlts {
			return Value{}, false
		}
	}
	var alts []Alt
	for _, c := range cells {
		g := and(append([]counting.Formula{andRels(c.in)}, c.out...)...)
		if !isFalse(g) {
			alts = append(alts, Alt{Guard: g, E: c.val})
		}
	}
	alts = mergeAlts(alts)
	return Value{Alts: alts}, len(alts) > 0 && len(alts) <= maxAlts
}

// andRels is the conjunction of rs (nil for none).
func andRels(rs []symbolic.Relation) counting.Formula {
	var g counting.And
	for _, r := range rs {
		g = append(g, counting.Rel{R: r})
	}
	if len(g) == 0 {
		return nil
	}
	return g
}

// disjointPieces reports whether no two pieces' guards hold together
// under facts: one of them has a relation the other's refutes.
func disjointPieces(pw symbolic.Piecewise, facts *symbolic.Assumptions) bool {
	for i, p := range pw.Pieces {
		for _, q := range pw.Pieces[i+1:] {
			a := facts.Clone()
			a.Assume(p.Guard...)
			refuted := false
			for _, r := range q.Guard {
				if a.Prove(r) == symbolic.False {
					refuted = true
					break
				}
			}
			if !refuted {
				return false
			}
		}
	}
	return true
}

// stepFacts is what holds in the current domain: P >= 1, the rank in
// 0..P-1, the program's and the annotations' assumptions, the top-level
// relations of the domain (the bounds of the loops around: DO i = 2*k, n,
// k inside DO k = 2, n) and of g (for a step sum, the case of the loop's
// bounds being summed).
func (ev *evaluator) stepFacts(g counting.Formula) *symbolic.Assumptions {
	rels := ev.rankFacts()
	if ev.cur != nil {
		for _, f := range ev.cur.conds {
			rels = append(rels, counting.TopRels(f)...)
		}
	}
	rels = append(rels, counting.TopRels(g)...)
	return symbolic.NewAssumptions(rels...)
}

// rankFacts are P >= 1, the rank in 0..P-1 and the program's and the
// annotations' assumptions.
func (ev *evaluator) rankFacts() []symbolic.Relation {
	rels := []symbolic.Relation{
		symbolic.Rel(symbolic.Sym(Size), ">=", symbolic.Int(1)),
		symbolic.Rel(symbolic.Sym(Rank), ">=", symbolic.Int(0)),
		symbolic.Rel(symbolic.Sym(Rank), "<=", symbolic.Sym(Size).Sub(symbolic.Int(1))),
	}
	if ev.res != nil {
		rels = append(rels, ev.res.Assume...)
	}
	return append(rels, ev.annotAssume...)
}
