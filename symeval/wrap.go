package symeval

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Wrapping counters. A loop that deals its iterations out in chunks or
// round robin counts with a variable that it steps by one and sets back
// when it reaches a bound, often moving a second counter on at the same
// time (or steps with x = mod(x + c, m), whose value at iteration k is
// modulo(x0 + c*k, m)):
//
//	ic = ic + 1
//	IF (ic == ichunk) THEN
//	  ic = 0
//	  ich = ich + 1
//	END IF
//
// With x0 the counter before the loop, r what it is set back to and c the
// bound (r <= x0 < c, period m = c - r), at the start of iteration k it
// holds r + modulo(x0 - r + k, m), and each companion w0 + t*floor((x0 - r
// + k)/m): the branch on the bound is then a condition on the iteration,
// which counting counts exactly, and no run of the loop is needed for the
// values (SNAP ran such a loop over the cells of every row of its grid, for
// every energy group).

// wrapCounter is a variable of a wrapping counter: the counter itself (step
// zero) or a companion stepped by step each time the counter wraps.
type wrapCounter struct {
	counter string        // the counter's storage key
	reset   symbolic.Expr // r
	period  symbolic.Expr // m = c - r
	step    Value         // a companion's step; unknown for the counter itself
	isReset bool          // the counter itself
	// modStep is set for x = mod(x + c, m) (round robin over m): c, with
	// period m and reset 0; below is set where x0 < m is known, else the
	// first iteration has x0 itself.
	modStep *symbolic.Expr
	below   bool
}

// wrapCounters finds the wrapping counters of l's body and their
// companions, by storage key, where the values before the loop (in pre)
// are known to satisfy r <= x0 < c.
func (ev *evaluator) wrapCounters(l *apt.Loop, mod []string, pre *env) map[string]*wrapCounter {
	modSet := keySet(mod)
	counts := ev.assignCounts(l.Body)
	var out map[string]*wrapCounter
	incremented := map[string]bool{} // counters stepped by one so far, at the top level
	for _, n := range l.Body {
		switch x := n.(type) {
		case *apt.Block:
			for _, s := range x.Stmts {
				if nm, ok := s.Target.(*apt.Name); ok && s.Kind == apt.StmtAssign && ev.paramName(nm.Name) == "" {
					k := ev.key(nm.Name)
					if counts[k] == 2 && modSet[k] && isStepByOne(s.Value, nm.Name) {
						incremented[k] = true
					}
					if counts[k] == 1 && modSet[k] && !ev.setByCalls(l.Body, k) {
						if w, ok := ev.roundRobin(s.Value, nm.Name, k, modSet, pre); ok {
							if out == nil {
								out = map[string]*wrapCounter{}
							}
							out[k] = w
						}
					}
				}
			}
		case *apt.If:
			k, r, c, comps, ok := ev.wrapTest(x, incremented, counts, modSet)
			if !ok || ev.setByCalls(l.Body, k) {
				continue
			}
			x0, ok := pre.get(k).Single()
			if !ok || !ev.provedHere(symbolic.Relation{E: x0.Sub(r), Op: symbolic.GE}) ||
				!ev.provedHere(symbolic.Relation{E: c.Sub(x0), Op: symbolic.GT}) {
				continue
			}
			if out == nil {
				out = map[string]*wrapCounter{}
			}
			out[k] = &wrapCounter{counter: k, reset: r, period: c.Sub(r), isReset: true}
			for w, t := range comps {
				if !ev.setByCalls(l.Body, w) {
					out[w] = &wrapCounter{counter: k, reset: r, period: c.Sub(r), step: t}
				}
			}
		}
	}
	return out
}

// roundRobin reads x = mod(x + c, m) (or MODULO), c and m invariant, with
// c >= 0, m > 0 and x0 >= 0 known: at the start of iteration k, x is
// modulo(x0 + c*k, m) (from the second iteration on where x0 may be m or
// more).
func (ev *evaluator) roundRobin(e apt.Expr, name, key string, mod map[string]bool, pre *env) (*wrapCounter, bool) {
	f, ok := e.(*apt.FuncCall)
	if !ok || !f.Intrinsic || (f.Name != "mod" && f.Name != "modulo") || len(f.Args) != 2 || ev.exprMentions(f.Args[1], mod) {
		return nil, false
	}
	inc, sign, ok := invariantStep(f.Args[0], name)
	if !ok || sign < 0 || ev.exprMentions(inc, mod) {
		return nil, false
	}
	c, ok1 := ev.value(inc).Single()
	m, ok2 := ev.value(f.Args[1]).Single()
	x0, ok3 := pre.get(key).Single()
	if !ok1 || !ok2 || !ok3 || !ev.provedHere(symbolic.Relation{E: c, Op: symbolic.GE}) ||
		!ev.provedHere(symbolic.Relation{E: m, Op: symbolic.GT}) || !ev.provedHere(symbolic.Relation{E: x0, Op: symbolic.GE}) {
		return nil, false
	}
	below := ev.provedHere(symbolic.Relation{E: m.Sub(x0), Op: symbolic.GT})
	return &wrapCounter{counter: key, reset: symbolic.Int(0), period: m, isReset: true, modStep: &c, below: below}, true
}

// isStepByOne reports whether e is name + 1 (or 1 + name).
func isStepByOne(e apt.Expr, name string) bool {
	b, ok := e.(*apt.Binary)
	if !ok || b.Op != apt.OpAdd {
		return false
	}
	one := func(x apt.Expr) bool {
		c, ok := x.(*apt.Const)
		return ok && c.Kind == apt.ConstInt && c.Text == "1"
	}
	is := func(x apt.Expr) bool {
		nm, ok := x.(*apt.Name)
		return ok && nm.Name == name
	}
	return is(b.X) && one(b.Y) || one(b.X) && is(b.Y)
}

// wrapTest reads IF (x == c) THEN x = r ... END IF, x a counter stepped by
// one before it: the counter's key, r and c (invariant closed forms), and
// the companions the branch steps (w = w + t, t invariant, w assigned
// there only).
func (ev *evaluator) wrapTest(f *apt.If, incremented map[string]bool, counts map[string]int, mod map[string]bool) (key string, r, c symbolic.Expr, comps map[string]Value, ok bool) {
	no := func() (string, symbolic.Expr, symbolic.Expr, map[string]Value, bool) {
		return "", symbolic.Expr{}, symbolic.Expr{}, nil, false
	}
	if len(f.Branches) != 1 || f.Branches[0].Cond == nil {
		return no()
	}
	br := f.Branches[0]
	cond, isBin := br.Cond.(*apt.Binary)
	if !isBin || (cond.Op != apt.OpEq && cond.Op != apt.OpGe) {
		return no()
	}
	nm, isName := cond.X.(*apt.Name)
	if !isName || !incremented[ev.key(nm.Name)] || ev.exprMentions(cond.Y, mod) {
		return no()
	}
	key = ev.key(nm.Name)
	c, isKnown := ev.value(cond.Y).Single()
	if !isKnown {
		return no()
	}
	reset := false
	comps = map[string]Value{}
	for _, n := range br.Body {
		b, isBlock := n.(*apt.Block)
		if !isBlock {
			// A loop or call in the branch might set what the pattern
			// reads: only straight-line branches.
			return no()
		}
		for _, s := range b.Stmts {
			t, isName := s.Target.(*apt.Name)
			if s.Kind != apt.StmtAssign || !isName {
				continue
			}
			k := ev.key(t.Name)
			switch {
			case k == key:
				v, ok := ev.value(s.Value).Single()
				if !ok || ev.exprMentions(s.Value, mod) {
					return no()
				}
				r, reset = v, true
			case counts[k] == 1 && mod[k]:
				inc, sign, ok := invariantStep(s.Value, t.Name)
				if !ok || ev.exprMentions(inc, mod) {
					continue
				}
				if e, ok := ev.value(inc).Single(); ok {
					comps[k] = Known(e.Scale(symbolic.RatInt(sign)))
				}
			}
		}
	}
	return key, r, c, comps, reset
}

// invariantStep reads name + inc, inc + name or name - inc: inc and its
// sign.
func invariantStep(e apt.Expr, name string) (apt.Expr, int64, bool) {
	b, ok := e.(*apt.Binary)
	if !ok || (b.Op != apt.OpAdd && b.Op != apt.OpSub) {
		return nil, 0, false
	}
	if x, ok := b.X.(*apt.Name); ok && x.Name == name {
		if b.Op == apt.OpSub {
			return b.Y, -1, true
		}
		return b.Y, 1, true
	}
	if y, ok := b.Y.(*apt.Name); ok && y.Name == name && b.Op == apt.OpAdd {
		return b.X, 1, true
	}
	return nil, 0, false
}

// at is the variable's value after k iterations (k = the iteration number
// at the start of an iteration, or the trip count after the loop), from
// the values before the loop in pre.
func (w *wrapCounter) at(k string, pre *env, iters Value) (Value, bool) {
	x0 := pre.get(w.counter)
	r, m := w.reset, w.period
	if w.modStep != nil {
		c := *w.modStep
		v, ok := liftN([]Value{x0, iters}, func(a []symbolic.Expr) (symbolic.Expr, bool) {
			return symbolic.Modulo(a[0].Add(c.Mul(a[1])), m), true
		})
		if !ok || w.below {
			return v, ok
		}
		// From x0 >= m the first step brings x below m: x0 before it.
		k, single := iters.Single()
		e, single2 := v.Single()
		first, single3 := x0.Single()
		if !single || !single2 || !single3 {
			return Value{}, false
		}
		return Value{Alts: []Alt{
			{Guard: rel(k, "==", symbolic.Int(0)), E: first},
			{Guard: rel(k, ">=", symbolic.Int(1)), E: e},
		}}, true
	}
	if w.isReset {
		return liftN([]Value{x0, iters}, func(a []symbolic.Expr) (symbolic.Expr, bool) {
			return r.Add(symbolic.Modulo(a[0].Sub(r).Add(a[1]), m)), true
		})
	}
	return liftN([]Value{pre.get(k), x0, iters, w.step}, func(a []symbolic.Expr) (symbolic.Expr, bool) {
		return a[0].Add(a[3].Mul(symbolic.FloorDiv(a[1].Sub(r).Add(a[2]), m))), true
	})
}
