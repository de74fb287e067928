package symeval

import (
	"slices"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Arrays a loop rewrites with the values they hold. A solver's iteration
// may store to a flag array on every trip (fields = 0; fields(FIELD_P) =
// 1) and leave it as it was: the loop does not change it, and it need not
// become unknown while the loop runs (the array analogue of storesOnly).
// Whether it does is found by a trial walk of the body, its occurrences
// thrown away as a probe's are: the arrays keep their state before the
// loop, every other variable the body changes is unknown and the loop's
// variable a symbol, so that the walk stands for any iteration; an array
// the walk ends with the same elements (sameArray) is left as it is by
// every iteration, given the others so found are. Those that change are
// clobbered and the walk is repeated for the rest, to a fixed point.
//
// An iteration that leaves the body early must leave the arrays as the end
// of the body does: the jumps allowed are EXIT and CYCLE of this loop that
// form an arm of their own, in an IF at the top level of the body after
// which nothing stores to the arrays (a convergence test at its end).

// maxInvariantWalks bounds the trial walks of one loop's entry.
const maxInvariantWalks = 3

// invariantArrays returns the arrays among mod (the keys of the arrays the
// loop l stores to whose state before it is followed, skip aside) that no
// iteration changes.
func (ev *evaluator) invariantArrays(l *apt.Loop, o *Occ, body *domainState, mod []string, skip map[string]bool) map[string]bool {
	pre := map[string]*arrayState{}
	// The shapes of array pointers the loop points elsewhere: a rotation
	// among arrays of one shape (tmp => uold; uold => unew; unew => tmp)
	// leaves each pointer's shape as it was.
	shapes := map[string]Value{}
	keys := map[string]bool{}
	for _, k := range mod {
		v, ok := ev.env.lookup(k)
		switch {
		case !ok || skip[k]:
			continue
		case v.arr != nil && !v.arr.clobbered && !v.arr.data:
			// (A REAL array filled with one number is the program's
			// data a loop computes, not a flag array it resets: no trial
			// walk for it, uniformdata.go.)
			pre[k] = v.arr
		case strings.HasSuffix(k, shapeKey("")) && v.Fields != nil:
			shapes[k] = v
		default:
			continue
		}
		keys[k] = true
	}
	if len(keys) == 0 || !ev.mayTry() || !ev.leavesAtEnd(l, keys) {
		return nil
	}
	ev.probing++
	defer func() { ev.probing-- }()
	defer func(uses int) { ev.freqUses = uses }(ev.freqUses)
	saved := ev.cur
	defer func() { ev.cur = saved }()
	for range maxInvariantWalks {
		snap := ev.snapshot(o)
		for _, k := range mod {
			if !keys[k] {
				ev.env.set(k, ev.changedBy(k, "the value of %s as the loop changes it", true))
			}
		}
		if l.Var != "" {
			ev.store(l.Var, Known(symbolic.Sym("probe#var")))
		}
		ev.walkIteration(l, body, o)
		changed := false
		for k, st := range pre {
			if end := ev.env.get(k); ev.cur.dead || end.arr == nil || !sameArray(end.arr, st) {
				delete(pre, k)
				delete(keys, k)
				changed = true
			}
		}
		for k, v := range shapes {
			if end, ok := ev.env.lookup(k); ev.cur.dead || !ok || !sameValue(end, v) {
				delete(shapes, k)
				delete(keys, k)
				changed = true
			}
		}
		snap.restore(ev, o)
		if !changed {
			return keys
		}
		if len(keys) == 0 {
			return nil
		}
	}
	return nil
}

// leavesAtEnd reports whether every way out of an iteration of l before
// the end of its body leaves the arrays at keys as the end does: EXIT or
// CYCLE of l alone in an arm, in an IF at the top level of the body that
// stores to none of them, nothing after it storing to them either.
func (ev *evaluator) leavesAtEnd(l *apt.Loop, keys map[string]bool) bool {
	ours := func(construct string) bool { return construct == "" || construct == l.Construct }
	last := -1 // the first top-level node after which nothing may store
	for i, n := range l.Body {
		ok := true
		apt.Inspect(n, func(m apt.Node) bool {
			switch x := m.(type) {
			case *apt.Goto, *apt.Return:
				ok = false
			case *apt.Loop:
				// Its EXIT and CYCLE are its own, unless they name l or a
				// loop around it.
				apt.Inspect(x, func(y apt.Node) bool {
					switch z := y.(type) {
					case *apt.Exit:
						ok = ok && (z.Construct == "" || z.Construct != l.Construct && ev.innerConstruct(x, z.Construct))
					case *apt.Cycle:
						ok = ok && (z.Construct == "" || z.Construct != l.Construct && ev.innerConstruct(x, z.Construct))
					}
					return ok
				})
				return false
			case *apt.Exit, *apt.Cycle:
				construct := ""
				if e, isExit := x.(*apt.Exit); isExit {
					construct = e.Construct
				} else {
					construct = x.(*apt.Cycle).Construct
				}
				f, isIf := n.(*apt.If)
				if !ours(construct) || !isIf || !armOnly(f, m) {
					ok = false
				}
				if last < 0 {
					last = i
				}
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	if last < 0 {
		return true
	}
	set := map[string]bool{}
	ev.collectAssigned(l.Body[last:], set)
	for k := range keys {
		if set[k] {
			return false
		}
	}
	return true
}

// armOnly reports whether the jump j is the whole body of an arm of f.
func armOnly(f *apt.If, j apt.Node) bool {
	return slices.ContainsFunc(f.Branches, func(b *apt.Branch) bool { return len(b.Body) == 1 && b.Body[0] == j })
}

// innerConstruct reports whether the construct name belongs to l or a
// loop inside it.
func (ev *evaluator) innerConstruct(l *apt.Loop, name string) bool {
	found := false
	apt.Inspect(l, func(n apt.Node) bool {
		if x, ok := n.(*apt.Loop); ok && x.Construct == name {
			found = true
		}
		return !found
	})
	return found
}
