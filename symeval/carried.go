package symeval

import (
	"fmt"
	"os"
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Carried values from a slice run. A loop of a known trip count that a run
// would make exact but that is not run (its body does the program's work,
// with loops inside, beyond the runs' budgets, or meets values a run
// cannot derive) is evaluated symbolically, its body once for all
// iterations; what that loses is the values one iteration hands on to the
// next. carriedValues runs the loop's carried slice
// (carrySliceOf) alone, iteration by iteration, and keeps the value each
// carried variable holds where each iteration starts. Those values are
// exact, being the run's; they are written as a closed form in the
// iteration: one alternative per run of consecutive iterations over which
// the value is affine in the iteration, guarded by that run's range. The
// body is then walked once with the carried variables holding those
// closed forms, and the loop leaves them as the run does.

// A carriedLoop holds what a slice run gives a loop's symbolic evaluation:
// by storage key, the value at the start of an iteration and after the
// loop.
type carriedLoop struct {
	entry map[string]Value
	final map[string]Value
}

// maxCarriedOffsets bounds the elements of one array a slice run
// tabulates.
const maxCarriedOffsets = 64

// carriedValues runs the carried slice of l, a DO of trips iterations (a
// number) whose variable is lo + step*k in iteration k, and returns the
// carried values as closed forms in index, the iteration number k of the
// symbolic evaluation's domain. It returns nil, with the state as it found
// it, where l has no carried slice, its run exceeds the budgets, or no
// carried value is a number at every iteration.
func (ev *evaluator) carriedValues(l *apt.Loop, o *Occ, lo Value, step, trips int64, index Value) *carriedLoop {
	idx, ok := index.Single()
	if !ok || trips < 1 || trips > maxRunTrips {
		return nil
	}
	sl := ev.carrySliceOf(l)
	if sl == nil {
		return nil
	}
	limit := ev.runLimit()
	cost := trips * int64(max(sl.size, 1))
	if debugRuns {
		fmt.Fprintf(os.Stderr, "carried %s: %v, %d of the body's statements not run, cost %d of %d\n", l.Span.Start(), sl.carried, len(sl.skip), cost, limit)
	}
	if cost > limit || ev.runVisits+cost > ev.totalRuns() || !ev.roomForRun(cost) {
		return nil
	}
	snap := ev.snapshot(o)
	pre := map[string]Value{}
	for _, k := range sl.carried {
		pre[k] = ev.env.get(k)
	}
	savedSkip, savedProbed := ev.probeSkip, ev.probed
	ev.probeSkip = sl.skip
	pop := ev.pushRun(snap.visits, limit, trips)
	seen := make(map[string][]Value, len(sl.carried)) // by key, the value at each iteration's start
	ok = true
	ev.runIterations(l, o, trips, func(k int64) bool {
		ev.runTop().k = k
		if ev.runVisits-snap.visits > limit || ev.runVisits > ev.totalRuns() || !ev.roomForRun(0) ||
			len(ev.res.Params) > snap.params || len(ev.cur.conds) > snap.conds {
			ok = false
			return false
		}
		if l.Var != "" {
			v, _ := lift1(lo, func(a symbolic.Expr) (symbolic.Expr, bool) {
				return a.Add(symbolic.Int(step * k)), true
			})
			ev.store(l.Var, v)
		}
		for _, key := range sl.carried {
			seen[key] = append(seen[key], ev.env.get(key))
		}
		return true
	}, nil)
	pop()
	ok = ok && !ev.cur.dead && len(ev.cur.pending) == 0 && len(ev.res.Params) == snap.params
	final := map[string]Value{}
	for _, key := range sl.carried {
		final[key] = ev.env.get(key)
	}
	ev.probeSkip, ev.probed = savedSkip, savedProbed
	snap.restore(ev, o)
	if !ok {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "carried %s: the slice run failed\n", l.Span.Start())
		}
		return nil
	}
	out := &carriedLoop{entry: map[string]Value{}, final: map[string]Value{}}
	for _, key := range sl.carried {
		vals := seen[key]
		if int64(len(vals)) != trips {
			continue
		}
		var v Value
		if pre[key].arr != nil || final[key].arr != nil {
			v, ok = ev.carriedArray(pre[key], vals, idx)
		} else {
			v, ok = carriedScalar(vals, idx)
		}
		if !ok {
			if debugRuns {
				fmt.Fprintf(os.Stderr, "carried %s: %s has no closed form\n", l.Span.Start(), key)
			}
			continue
		}
		out.entry[key], out.final[key] = v, final[key]
	}
	if len(out.entry) == 0 {
		return nil
	}
	return out
}

// carriedScalar writes the numbers vals (one per iteration) as a closed
// form in the iteration number idx.
func carriedScalar(vals []Value, idx symbolic.Expr) (Value, bool) {
	ns := make([]int64, len(vals))
	for i, v := range vals {
		e, ok := v.Single()
		if !ok {
			return Value{}, false
		}
		n, ok := e.Int64()
		if !ok {
			return Value{}, false
		}
		ns[i] = n
	}
	alts, ok := affinePieces(ns, idx)
	if !ok {
		return Value{}, false
	}
	return Value{Alts: alts}, true
}

// carriedArray writes the states of an array at the start of each
// iteration as one state: the state before the loop with, for each
// element the iterations store to (a constant offset), a store of its
// values as a closed form in idx.
func (ev *evaluator) carriedArray(pre Value, vals []Value, idx symbolic.Expr) (Value, bool) {
	if pre.arr == nil {
		return Value{}, false
	}
	seenOff := map[int64]bool{}
	var offs []int64
	for _, v := range vals {
		st := v.arr
		if st == nil {
			return Value{}, false
		}
		if st == pre.arr {
			continue
		}
		for _, s := range st.stores {
			if slices.Contains(pre.arr.stores, s) {
				continue
			}
			c, isConst := s.off.Int64()
			if !isConst || s.upTo != nil || s.guard != nil {
				return Value{}, false
			}
			if !seenOff[c] {
				seenOff[c] = true
				offs = append(offs, c)
			}
		}
	}
	if len(offs) > maxCarriedOffsets {
		return Value{}, false
	}
	slices.Sort(offs)
	next := &arrayState{clobbered: pre.arr.clobbered, base: pre.arr.base, tab: pre.arr.tab, stores: slices.Clip(pre.arr.stores)}
	for _, c := range offs {
		at := symbolic.Int(c)
		elems := make([]Value, len(vals))
		for i, v := range vals {
			alts, ok := ev.readOffset(v.arr, at)
			if !ok {
				return Value{}, false
			}
			elems[i] = Value{Alts: alts}
		}
		val, ok := carriedScalar(elems, idx)
		if !ok {
			return Value{}, false
		}
		next.stores = append(next.stores, &arrayStore{off: at, val: val})
	}
	return Value{arr: next}, true
}

// affinePieces writes ns, the values at idx = 0, 1, ..., as alternatives:
// each maximal run of consecutive iterations over which the value is
// a + b*idx is one, guarded by its range of idx: a table of idx
// (pieceTable). It fails beyond maxPieceAlts alternatives.
func affinePieces(ns []int64, idx symbolic.Expr) ([]Alt, bool) {
	var alts []Alt
	for i := 0; i < len(ns); {
		j := i + 1
		var d int64
		if j < len(ns) {
			d = ns[j] - ns[i]
			for j < len(ns) && ns[j]-ns[j-1] == d {
				j++
			}
		}
		// ns[i..j-1] = ns[i] + d*(idx - i).
		e := symbolic.Int(ns[i]).Add(symbolic.Int(d).Mul(idx.Sub(symbolic.Int(int64(i)))))
		g := and(rel(idx, ">=", symbolic.Int(int64(i))), rel(idx, "<=", symbolic.Int(int64(j-1))))
		if i == 0 && j == len(ns) {
			g = nil
		}
		alts = append(alts, Alt{Guard: g, E: e})
		if len(alts) > maxPieceAlts {
			return nil, false
		}
		i = j
	}
	return mergeAlts(alts), true
}

// entryOf returns the value key holds where an iteration starts.
func (c *carriedLoop) entryOf(key string) (Value, bool) {
	if c == nil {
		return Value{}, false
	}
	v, ok := c.entry[key]
	return v, ok
}

// leaves reports whether a value among scalars that code after l reads
// has no closed form from c (c nil: none has).
func (c *carriedLoop) leaves(ev *evaluator, l *apt.Loop, scalars []string) bool {
	for _, k := range scalars {
		if _, ok := c.entryOf(k); !ok && ev.readAfter(l, k) {
			return true
		}
	}
	return false
}

// leavesArray reports whether l stores to an array control reads, and
// code after l reads, that c does not carry (the pointers to each rank's
// first and last bucket).
func (c *carriedLoop) leavesArray(ev *evaluator, l *apt.Loop) bool {
	r := ev.frame().routine
	for _, k := range ev.modified(l.Body) {
		if _, ok := c.entryOf(k); ok {
			continue
		}
		d, name := ev.keyDecl(r, k)
		if d != nil && d.IsArray() && tracked(d.Type) && ev.relevant(ev.keyRoutine(r, k), name) && ev.readAfter(l, k) {
			return true
		}
	}
	return false
}

// finalOf returns the value key holds after the loop.
func (c *carriedLoop) finalOf(key string) (Value, bool) {
	if c == nil {
		return Value{}, false
	}
	v, ok := c.final[key]
	return v, ok
}
