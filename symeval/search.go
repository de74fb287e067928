package symeval

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Searches. A DO loop that sets a variable only on the iteration where an
// equality in the guard holds (do i = 1, n / if (mytid .eq. tids(i))
// myid = i) sets it at most once per equality: the equality pins the DO
// variable to one value e, free of what the loop changes. After the loop
// the variable holds f(e) where lo <= e <= hi (on the DO's progression)
// and the rest of the guard holds at e, and its value before the loop
// elsewhere. This is a closed form, as a recurrence's is: the loop need
// not run, and its trip count may be a symbol.

// search is what a recurrence probe (probeIncrements) found of a variable
// the loop sets only on pinned iterations: an arm per pinned assignment,
// in terms of x0, the probe's symbol for the value before the iteration.
type search struct {
	x0   string
	arms []searchArm
}

// searchArm is one pinned assignment: on the iteration where the DO
// variable is at, if when holds there, the variable becomes val.
type searchArm struct {
	at   symbolic.Expr
	when counting.Formula
	val  symbolic.Expr
}

// maxSearchArms bounds the pinned assignments of one variable: the value
// after the loop compares each arm's iteration with the others'.
const maxSearchArms = 4

// searchOf reads the value a probe left in a variable (v, with x0 its
// value before the iteration and iter the DO variable's) as a search:
// each disjunct of an alternative's guard either leaves x0, or has a
// conjunct iter == e, or no iteration meets it (facts refute it). banned
// are the symbols that change from one iteration to the next; only iter
// and, with a single arm, x0 may appear in an arm (on the one iteration
// that sets it, the variable still holds its value from before the loop).
func searchOf(v Value, iter, x0 string, banned []string, facts *symbolic.Assumptions) (search, bool) {
	var free []string // what no arm may mention
	for _, s := range banned {
		if s != iter && s != x0 {
			free = append(free, s)
		}
	}
	out := search{x0: x0}
	for _, a := range v.Alts {
		if symbolic.Equal(a.E, symbolic.Sym(x0)) {
			continue // the iterations that leave it
		}
		ds, ok := disjuncts(a.Guard, maxSearchDisjuncts)
		if !ok {
			return search{}, false
		}
		for _, d := range ds {
			if refuted(d, facts) {
				continue
			}
			e, ok := pinned(d, iter)
			if !ok || e.Has(x0) || mentionsExpr(e, free) {
				return search{}, false
			}
			sub := map[string]symbolic.Expr{iter: e}
			val, err := a.E.Subst(sub)
			if err != nil {
				return search{}, false
			}
			when, err := substFormula(d, sub)
			if err != nil {
				return search{}, false
			}
			arm := Value{Alts: []Alt{{Guard: when, E: val}}}
			if mentions(arm, free) || mentions(arm, []string{iter}) {
				return search{}, false
			}
			out.arms = append(out.arms, searchArm{at: e, when: when, val: val})
		}
	}
	if len(out.arms) == 0 || len(out.arms) > maxSearchArms {
		return search{}, false
	}
	if len(out.arms) > 1 {
		for _, a := range out.arms {
			if a.val.Has(x0) || formulaMentions(a.when, x0) {
				return search{}, false
			}
		}
	}
	return out, true
}

// maxSearchDisjuncts bounds the disjuncts searchOf reads a guard as.
const maxSearchDisjuncts = 16

// disjuncts returns f as a disjunction of conjunctions (negations of
// conjunctions and relations kept whole), at most limit of them.
func disjuncts(f counting.Formula, limit int) ([]counting.Formula, bool) {
	switch g := f.(type) {
	case nil:
		return []counting.Formula{nil}, true
	case counting.Or:
		var out []counting.Formula
		for _, x := range g {
			ds, ok := disjuncts(x, limit)
			if !ok || len(out)+len(ds) > limit {
				return nil, false
			}
			out = append(out, ds...)
		}
		return out, true
	case counting.And:
		out := []counting.Formula{nil}
		for _, x := range g {
			ds, ok := disjuncts(x, limit)
			if !ok || len(out)*len(ds) > limit {
				return nil, false
			}
			var next []counting.Formula
			for _, a := range out {
				for _, b := range ds {
					if c := and(a, b); !isFalse(c) {
						next = append(next, c)
					}
				}
			}
			out = next
		}
		return out, true
	case counting.Not:
		switch h := g.F.(type) {
		case counting.Or: // not (a or b) = not a and not b
			var conj counting.And
			for _, x := range h {
				conj = append(conj, not(x))
			}
			return disjuncts(conj, limit)
		case counting.Not:
			return disjuncts(h.F, limit)
		}
	}
	return []counting.Formula{f}, true
}

// refuted reports whether the facts, with the conjunction d's own
// relations, prove one of d's conjuncts false: a relation whose negation
// they prove, or a negated conjunction of relations they prove each of.
func refuted(d counting.Formula, facts *symbolic.Assumptions) bool {
	if facts == nil {
		return false
	}
	conj, _ := appendConjuncts(nil, d)
	var own []symbolic.Relation
	for _, c := range conj {
		if r, ok := c.(counting.Rel); ok {
			own = append(own, r.R)
		}
	}
	var with *symbolic.Assumptions
	// The prover is not monotone (an equality among the assumptions can
	// hide a bound it would use): the facts alone first.
	proved := func(r symbolic.Relation) bool {
		if facts.Prove(r) == symbolic.True {
			return true
		}
		if len(own) == 0 {
			return false
		}
		if with == nil {
			with = facts.Clone()
			with.Assume(own...)
		}
		return with.Prove(r) == symbolic.True
	}
	for _, c := range conj {
		switch x := c.(type) {
		case counting.Rel:
			if n, ok := negated(x.R); ok && proved(n) {
				return true
			}
		case counting.Not:
			inner, _ := appendConjuncts(nil, x.F)
			all := len(inner) > 0
			for _, y := range inner {
				r, ok := y.(counting.Rel)
				if !ok || !proved(r.R) {
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

// negated is the relation that holds where r does not (none for an
// equality, whose negation is two relations).
func negated(r symbolic.Relation) (symbolic.Relation, bool) {
	switch r.Op {
	case symbolic.GE: // not (e >= 0) = -e > 0
		return symbolic.Relation{E: r.E.Neg(), Op: symbolic.GT}, true
	case symbolic.GT: // not (e > 0) = -e >= 0
		return symbolic.Relation{E: r.E.Neg(), Op: symbolic.GE}, true
	}
	return symbolic.Relation{}, false
}

// searchFacts are what every iteration of l that runs satisfies, for
// refuting the guards of a probe's arms no iteration takes: the domain's
// relations, the loop's bounds with its DO variable the probe's symbol
// iter (its domain variable being varValue), and the declared bounds of
// the arrays each iteration reads through subscripts iter + c (a run reads
// within them; the last bound of a dummy array, often written 1 for any
// size, is not one).
func (ev *evaluator) searchFacts(l *apt.Loop, body *domainState, varValue Value, iter string) *symbolic.Assumptions {
	rels := ev.rankFacts()
	var sub map[string]symbolic.Expr
	if e, ok := varValue.Single(); ok {
		if name, ok := e.SymName(); ok {
			sub = map[string]symbolic.Expr{name: symbolic.Sym(iter)}
		}
	}
	for _, f := range body.conds {
		for _, r := range counting.TopRels(f) {
			if sub != nil {
				e, err := r.E.Subst(sub)
				if err != nil {
					continue
				}
				r.E = e
			}
			rels = append(rels, r)
		}
	}
	if l.Var != "" {
		for _, ix := range readsEveryIteration(l.Body) {
			rels = append(rels, ev.boundsOf(ix, l.Var, iter)...)
		}
	}
	return symbolic.NewAssumptions(rels...)
}

// readsEveryIteration returns the array elements the body reads on every
// iteration: in its top-level statements and its IFs' first tests.
func readsEveryIteration(body []apt.Node) []*apt.Index {
	var out []*apt.Index
	collect := func(e apt.Expr) {
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if ix, ok := x.(*apt.Index); ok && ix.Base == nil {
				out = append(out, ix)
			}
			return true
		})
	}
	for _, n := range body {
		switch x := n.(type) {
		case *apt.Block:
			for _, st := range x.Stmts {
				collect(st.Value)
				if ix, ok := st.Target.(*apt.Index); ok {
					for _, sb := range ix.Subs {
						collect(sb)
					}
				}
			}
		case *apt.If:
			if len(x.Branches) > 0 {
				collect(x.Branches[0].Cond)
			}
		}
	}
	return out
}

// boundsOf returns the bounds ix's declaration sets on the subscripts
// that are the DO variable v plus a constant, with v the symbol iter.
func (ev *evaluator) boundsOf(ix *apt.Index, v, iter string) []symbolic.Relation {
	decl := ev.prog.Resolve(ev.frame().routine, ix.Name)
	if decl == nil || len(decl.Dims) != len(ix.Subs) {
		return nil
	}
	var out []symbolic.Relation
	for k, s := range ix.Subs {
		c, ok := offsetOf(&apt.Index{Subs: []apt.Expr{s}}, v)
		if !ok {
			continue
		}
		at := symbolic.Sym(iter).Add(symbolic.Int(c))
		d := decl.Dims[k]
		lo := symbolic.Int(1)
		if d.Lo != nil {
			e, ok := ev.value(d.Lo).Single()
			if !ok || !isConst(e) {
				continue
			}
			lo = e
		}
		out = append(out, symbolic.Rel(at, ">=", lo))
		if d.Hi == nil || decl.Dummy && k == len(decl.Dims)-1 {
			continue
		}
		if _, star := d.Hi.(*apt.Star); star {
			continue
		}
		if hi, ok := ev.value(d.Hi).Single(); ok && isConst(hi) {
			out = append(out, symbolic.Rel(at, "<=", hi))
		}
	}
	return out
}

// pinned returns e where one of the conjuncts of f is the equality
// x - e == 0 (or e - x == 0), e free of x.
func pinned(f counting.Formula, x string) (symbolic.Expr, bool) {
	var conj []counting.Formula
	var flat func(counting.Formula)
	flat = func(g counting.Formula) {
		if a, ok := g.(counting.And); ok {
			for _, h := range a {
				flat(h)
			}
			return
		}
		conj = append(conj, g)
	}
	flat(f)
	for _, c := range conj {
		r, ok := c.(counting.Rel)
		if !ok || r.R.Op != symbolic.EQ {
			continue
		}
		a, b, ok := r.R.E.Linear(x)
		if !ok || b.Has(x) {
			continue
		}
		switch {
		case symbolic.Equal(a, symbolic.Int(1)):
			return b.Neg(), true
		case symbolic.Equal(a, symbolic.Int(-1)):
			return b, true
		}
	}
	return symbolic.Expr{}, false
}

// after is the variable's value after a DO loop from lo to hi by the
// constant step, pv its value before: the arm whose iteration comes last
// among those that run and whose guard holds there, else pv.
func (s search) after(pv, lo, hi Value, step int64) (Value, bool) {
	if !pv.IsKnown() || step == 0 {
		return Value{}, false
	}
	first, last := lo, hi
	opLo, opHi := apt.OpGe, apt.OpLe
	if step < 0 {
		opLo, opHi = apt.OpLe, apt.OpGe
	}
	ins := make([]counting.Formula, len(s.arms))
	for j, a := range s.arms {
		f1, ok1 := relation(Known(a.at), first, opLo)
		f2, ok2 := relation(Known(a.at), last, opHi)
		if !ok1 || !ok2 {
			return Value{}, false
		}
		in := and(a.when, f1, f2)
		if step != 1 && step != -1 {
			// On the progression lo, lo + step, ...
			var onStep []counting.Formula
			for _, x := range lo.Alts {
				d := symbolic.Mod(a.at.Sub(x.E), symbolic.Int(step))
				onStep = append(onStep, and(x.Guard, rel(d, "==", symbolic.Int(0))))
			}
			in = and(in, or(onStep...))
		}
		ins[j] = in
	}
	var alts []Alt
	var none counting.Formula
	for j, a := range s.arms {
		// The latest iteration wins; two arms never hold on one
		// iteration (the probe's alternatives partition it).
		win := ins[j]
		for m, b := range s.arms {
			if m == j {
				continue
			}
			later := rel(a.at, ">", b.at)
			if step < 0 {
				later = rel(a.at, "<", b.at)
			}
			win = and(win, or(not(ins[m]), later))
		}
		alts = append(alts, Alt{Guard: win, E: a.val})
		none = and(none, not(ins[j]))
	}
	alts = append(alts, Alt{Guard: none, E: symbolic.Sym(s.x0)})
	// The value before the loop for x0, alternative by alternative.
	var out []Alt
	for _, p := range pv.Alts {
		w, ok := substValue(Value{Alts: alts}, map[string]symbolic.Expr{s.x0: p.E})
		if !ok {
			continue
		}
		for _, x := range w.Alts {
			if g := and(p.Guard, x.Guard); !isFalse(g) {
				out = append(out, Alt{Guard: g, E: x.E})
			}
		}
	}
	if len(out) == 0 || len(out) > maxAlts {
		return Value{}, false
	}
	return Value{Alts: mergeAlts(out)}, true
}
