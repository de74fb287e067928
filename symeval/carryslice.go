package symeval

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Carried slices. A loop whose iterations hand a value on to the next one
// that its control reads (a shift register of the lengths of the last few
// diagonals of a wavefront, whose sum bounds the loop over the lines of the
// current diagonal) has no closed form the symbolic evaluation can find,
// and running the loop repeats all of its work once per iteration. The
// values themselves take few statements: carrySliceOf finds them, so that a
// run of those statements alone (carried.go) gives the values each
// iteration starts with, while the body is evaluated once, symbolically.
//
// Two backward passes over the body, each a liveness analysis over the
// structured statements (an assignment to a whole variable kills it, one to
// an element does not; a loop is iterated to a fixed point; an IF joins its
// arms), repeated over the iterations of the loop until nothing changes:
//
//   - from the body's control (loop bounds, branch conditions that do not
//     test REAL or COMPLEX data, message sizes, peers and roots, the
//     arguments of calls): the INTEGER and LOGICAL variables the body
//     changes and reads, at the start of an iteration, before setting them
//     are the carried values;
//   - from the carried values at the end of an iteration: the statements
//     that compute them, with the loops and IFs around those, are the
//     slice; the others are not run.
//
// A slice that would run a statement the evaluation cannot run in part (a
// jump, a call that may change its variables other than through its
// arguments, a receive or READ into them, a statement the frontend did not
// model) is not taken.

// A carrySlice is what a slice run of a loop's body runs, and the values it
// is for.
type carrySlice struct {
	skip    map[any]bool // the statements, calls and constructs not run
	carried []string     // storage keys of the carried values, sorted
	size    int          // the nodes one iteration of the slice visits
}

// sliceWalk is the state of the backward passes.
type sliceWalk struct {
	ev      *evaluator
	control bool                // the first pass: seeds at the body's control
	kept    map[any]bool        // statements and constructs the slice runs
	types   map[string]apt.Type // the type of each variable the body assigns
	bad     bool
}

// carrySliceOf returns the carried slice of l in the current frame, nil
// where l carries no such value or the slice cannot be run in part.
func (ev *evaluator) carrySliceOf(l *apt.Loop) *carrySlice {
	m := ev.carryMemo[l]
	if m == nil {
		m = &carryMemo{names: loopNames(l)}
		if ev.carryMemo == nil {
			ev.carryMemo = map[*apt.Loop]*carryMemo{}
		}
		ev.carryMemo[l] = m
	}
	sig := ev.storageSig(m.names)
	if m.done && m.sig == sig {
		if m.slice == nil {
			return nil
		}
		sl := *m.slice
		sl.carried = nil
		for _, n := range m.carried {
			sl.carried = append(sl.carried, ev.key(n))
		}
		return &sl
	}
	sl := ev.carrySliceNew(l)
	m.done, m.sig, m.slice, m.carried = true, sig, sl, nil
	if sl != nil {
		for _, k := range sl.carried {
			name, ok := m.nameOf(ev, k)
			if !ok {
				m.done = false // a value no name of the loop's holds: not kept
				break
			}
			m.carried = append(m.carried, name)
		}
	}
	return sl
}

// A carryMemo is a loop's carried slice as an activation of its routine
// found it, for the next activations whose variables share storage as
// that one's did (the slice follows storage, and what is stored where is
// the same for every activation that shares it alike).
type carryMemo struct {
	names   []string // the variables the loop mentions, sorted
	done    bool
	sig     string      // storageSig of names where the slice was found
	slice   *carrySlice // nil: none
	carried []string    // a name of each carried value, in slice.carried's order
}

// nameOf returns a name of the loop's that is stored at key.
func (m *carryMemo) nameOf(ev *evaluator, key string) (string, bool) {
	for _, n := range m.names {
		if ev.key(n) == key {
			return n, true
		}
	}
	return "", false
}

// loopNames returns the names l mentions, sorted.
func loopNames(l *apt.Loop) []string {
	seen := map[string]int{}
	countNames(l.Lower, seen)
	countNames(l.Upper, seen)
	countNames(l.Step, seen)
	for k, v := range nodeReads(l.Body) {
		seen[k] += v
	}
	apt.Inspect(l, func(y apt.Node) bool {
		if b, ok := y.(*apt.Block); ok {
			for _, s := range b.Stmts {
				if n := rootName(s.Target); n != "" {
					seen[n]++
				}
			}
		}
		if x, ok := y.(*apt.Loop); ok && x.Var != "" {
			seen[x.Var]++
		}
		return true
	})
	delete(seen, "*")
	return slices.Sorted(maps.Keys(seen))
}

// storageSig describes how names share storage in the current frame: for
// each, the first name stored with it, and the storage itself where it is
// the same in every activation (COMMON, a module).
func (ev *evaluator) storageSig(names []string) string {
	first := map[string]int{}
	var b strings.Builder
	prefix := ev.frame().id + "."
	for i, n := range names {
		k := ev.key(n)
		j, ok := first[k]
		if !ok {
			first[k], j = i, i
		}
		b.WriteString(strconv.Itoa(j))
		if !strings.HasPrefix(k, prefix) && (strings.HasPrefix(k, "/") || strings.HasPrefix(k, "g")) {
			b.WriteString(k)
		} else if !strings.HasPrefix(k, prefix) {
			b.WriteString("^") // a caller's variable, by reference
		}
		b.WriteByte(',')
	}
	return b.String()
}

// assignedAnyArm returns the storage keys nodes may assign, in every arm
// of their IFs (modified takes only the arms the current values decide,
// which another activation may decide otherwise).
func (ev *evaluator) assignedAnyArm(nodes []apt.Node) map[string]bool {
	set := map[string]bool{}
	calls := func(e apt.Expr) {
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if f, ok := x.(*apt.FuncCall); ok && !f.Intrinsic {
				if r := ev.routineNamed(f.Name); r != nil {
					ev.applySummary(r, f.Args, set)
				}
			}
			return true
		})
	}
	for _, n := range nodes {
		apt.Inspect(n, func(y apt.Node) bool {
			switch x := y.(type) {
			case *apt.Block, *apt.Call, *apt.Comm, *apt.IO:
				ev.collectAssigned([]apt.Node{x}, set)
				return false
			case *apt.Loop:
				if x.Var != "" && ev.paramName(x.Var) == "" {
					set[ev.key(x.Var)] = true
				}
				calls(x.Lower)
				calls(x.Upper)
				calls(x.Step)
				calls(x.While)
			case *apt.Branch:
				calls(x.Cond)
			case *apt.If:
				calls(x.Selector)
			}
			return true
		})
	}
	return set
}

// carrySliceNew is carrySliceOf without the memo.
func (ev *evaluator) carrySliceNew(l *apt.Loop) *carrySlice {
	mod := ev.assignedAnyArm(l.Body)
	if l.Var != "" {
		delete(mod, ev.key(l.Var))
	}
	w := &sliceWalk{ev: ev, types: map[string]apt.Type{}}
	w.noteTypes(l.Body)
	// Pass 1: what the body's control needs at the start of an iteration.
	w.control = true
	end := map[string]bool{}
	var start map[string]bool
	for range maxSlicePasses {
		start = w.back(l.Body, maps.Clone(end))
		next := carriedOf(start, mod)
		if maps.Equal(next, end) {
			break
		}
		end = next
	}
	var carried []string
	for k := range carriedOf(start, mod) {
		if t, ok := w.types[k]; ok && tracked(t) {
			carried = append(carried, k)
		}
	}
	if w.bad || len(carried) == 0 {
		return nil
	}
	slices.Sort(carried)
	// Pass 2: what computes them.
	w.control = false
	want := keySet(carried)
	end = maps.Clone(want)
	settled := false
	for range maxSlicePasses {
		w.kept = map[any]bool{}
		start = w.back(l.Body, maps.Clone(end))
		next := carriedOf(start, mod)
		maps.Copy(next, want)
		if maps.Equal(next, end) {
			settled = true
			break
		}
		end = next
	}
	if w.bad || !settled || !w.jumpsOutside(l.Body, true) {
		return nil
	}
	sl := &carrySlice{skip: map[any]bool{}, carried: carried}
	w.collectSkips(l.Body, sl)
	if len(sl.skip) == 0 || w.testsDataIn(l.Body) {
		// The whole body, which a run did not afford, or values that
		// rest on tests of data: no run of the slice gives them.
		return nil
	}
	return sl
}

// testsDataIn reports whether an IF the slice runs tests data.
func (w *sliceWalk) testsDataIn(nodes []apt.Node) bool {
	found := false
	for _, n := range nodes {
		apt.Inspect(n, func(y apt.Node) bool {
			if f, ok := y.(*apt.If); ok && w.kept[f] {
				found = found || testsData(f.Selector)
				for _, b := range f.Branches {
					found = found || testsData(b.Cond)
				}
			}
			return !found
		})
	}
	return found
}

// maxSlicePasses bounds the passes over the iterations of a loop: each
// pass adds variables, so few are needed; a slice that has not settled
// then is not taken.
const maxSlicePasses = 8

// carriedOf returns the keys of live that the loop's body changes.
func carriedOf(live, mod map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range live {
		if mod[k] {
			out[k] = true
		}
	}
	return out
}

// noteTypes records the type of the variable each assignment of nodes
// stores to (the element type of an array).
func (w *sliceWalk) noteTypes(nodes []apt.Node) {
	for _, n := range nodes {
		apt.Inspect(n, func(y apt.Node) bool {
			if b, ok := y.(*apt.Block); ok {
				for _, s := range b.Stmts {
					switch t := s.Target.(type) {
					case *apt.Name:
						w.types[w.ev.key(t.Name)] = t.Type
					case *apt.Index:
						if t.Base == nil {
							w.types[w.ev.key(t.Name)] = t.Type
						}
					}
				}
			}
			return true
		})
	}
}

// reads adds the keys e reads to live; a call of one of the program's
// functions in a statement the slice keeps is not run in part.
func (w *sliceWalk) reads(live map[string]bool, es ...apt.Expr) {
	for _, e := range es {
		for _, k := range w.ev.readKeys(e) {
			if k == "#call" {
				if !w.control {
					w.bad = true
				}
				continue
			}
			live[k] = true
		}
	}
}

// back returns what is live before nodes given what is live after them,
// marking in kept what the slice runs.
func (w *sliceWalk) back(nodes []apt.Node, live map[string]bool) map[string]bool {
	for i := len(nodes) - 1; i >= 0 && !w.bad; i-- {
		live = w.backNode(nodes[i], live)
	}
	return live
}

func (w *sliceWalk) backNode(n apt.Node, live map[string]bool) map[string]bool {
	ev := w.ev
	switch x := n.(type) {
	case *apt.Block:
		for i := len(x.Stmts) - 1; i >= 0; i-- {
			w.backStmt(x.Stmts[i], live)
		}
	case *apt.Loop:
		var v string
		if x.Var != "" {
			v = ev.key(x.Var)
		}
		// The body runs after the loop's start and after itself.
		inEnd := maps.Clone(live)
		var start map[string]bool
		settled := false
		for range maxSlicePasses {
			start = w.back(x.Body, maps.Clone(inEnd))
			next := maps.Clone(live)
			for k := range start {
				if k != v {
					next[k] = true
				}
			}
			if maps.Equal(next, inEnd) {
				settled = true
				break
			}
			inEnd = next
		}
		if !settled && !w.control {
			w.bad = true
		}
		keep := w.control || v != "" && live[v] || w.keptIn(x.Body)
		for k := range start {
			live[k] = true
		}
		if v != "" {
			delete(live, v)
		}
		if keep {
			if !w.control {
				w.kept[x] = true
			}
			w.reads(live, x.Lower, x.Upper, x.Step, x.While, x.Iterations)
		}
	case *apt.If:
		before := map[string]bool{}
		hasElse := false
		kept := false
		for _, b := range x.Branches {
			if b.Cond == nil && len(b.Cases) == 0 {
				hasElse = true
			}
			maps.Copy(before, w.back(b.Body, maps.Clone(live)))
			kept = kept || !w.control && w.keptIn(b.Body)
		}
		if !hasElse {
			maps.Copy(before, live)
		}
		if kept && !w.control {
			w.kept[x] = true
		}
		for _, b := range x.Branches {
			if kept || w.control && !testsData(b.Cond) {
				w.reads(before, b.Cond)
				for _, c := range b.Cases {
					w.reads(before, c.Lo, c.Hi)
				}
			}
		}
		if kept || w.control && !testsData(x.Selector) {
			w.reads(before, x.Selector)
		}
		return before
	case *apt.Call:
		set := map[string]bool{}
		ev.collectAssigned([]apt.Node{x}, set)
		hit := false
		for k := range set {
			hit = hit || live[k]
		}
		switch {
		case w.control:
			// A routine's own control may read its arguments.
			w.reads(live, x.Args...)
		case hit:
			r := ev.routineNamed(x.Callee)
			if r == nil || !ev.localEffects(r) {
				w.bad = true
				break
			}
			w.kept[x] = true
			w.reads(live, x.Args...)
		}
	case *apt.Comm:
		set := map[string]bool{}
		ev.collectAssigned([]apt.Node{x}, set)
		for k := range set {
			if live[k] && !w.control {
				w.bad = true
			}
		}
		if w.control {
			for _, m := range []*apt.Msg{x.Send, x.Recv} {
				if m != nil {
					w.reads(live, m.Count, m.Peer)
				}
			}
			w.reads(live, x.Root, x.Count)
		}
	case *apt.IO:
		for _, r := range x.Reads {
			if live[ev.key(r)] && !w.control {
				w.bad = true
			}
		}
	case *apt.Unknown:
		w.bad = true
	case *apt.Goto:
		if w.control {
			w.reads(live, x.Index)
		}
	}
	return live
}

// backStmt is back for one statement, updating live in place.
func (w *sliceWalk) backStmt(s *apt.Stmt, live map[string]bool) {
	ev := w.ev
	name := rootName(s.Target)
	if name == "" {
		return
	}
	k := ev.key(name)
	if !live[k] {
		return
	}
	if s.Kind != apt.StmtAssign {
		// An allocation or a pointer's target the slice would need.
		w.bad = true
		return
	}
	if !w.control {
		w.kept[s] = true
		if ix, ok := s.Target.(*apt.Index); ok && ix.Base != nil || !ok && !isName(s.Target) {
			w.bad = true // a component: its storage is the field's
			return
		}
	}
	if _, whole := s.Target.(*apt.Name); whole && s.Mask == nil {
		delete(live, k)
	}
	w.reads(live, s.Value, s.Mask)
	if ix, ok := s.Target.(*apt.Index); ok {
		w.reads(live, ix.Subs...)
		live[k] = true // the other elements keep their values
	}
}

// isName reports whether e is a whole variable.
func isName(e apt.Expr) bool {
	_, ok := e.(*apt.Name)
	return ok
}

// keptIn reports whether the slice runs something of nodes.
func (w *sliceWalk) keptIn(nodes []apt.Node) bool {
	found := false
	for _, n := range nodes {
		apt.Inspect(n, func(y apt.Node) bool {
			if found {
				return false
			}
			if b, ok := y.(*apt.Block); ok {
				for _, s := range b.Stmts {
					found = found || w.kept[s]
				}
				return false
			}
			found = w.kept[y]
			return !found
		})
	}
	return found
}

// testsData reports whether a condition tests REAL or COMPLEX values: the
// program's data, not what its control is computed from.
func testsData(e apt.Expr) bool {
	found := false
	apt.InspectExpr(e, func(x apt.Expr) bool {
		switch x.(type) {
		case *apt.Name, *apt.Index, *apt.Component, *apt.FuncCall:
			switch apt.TypeOf(x).Base {
			case apt.TypeReal, apt.TypeComplex:
				found = true
			}
		}
		return !found
	})
	return found
}

// jumpsOutside reports whether the slice can run without the jumps of
// nodes: the constructs it runs hold none (top is the loop's own body,
// where an EXIT or CYCLE is the loop's), and each one it does not run keeps
// its jumps inside itself (a GO TO to a label of its own, the EXIT of a
// loop of its own; a STOP or RETURN ends the iterations, which the values
// of the ones before do not depend on).
func (w *sliceWalk) jumpsOutside(nodes []apt.Node, top bool) bool {
	for _, n := range nodes {
		switch x := n.(type) {
		case *apt.Goto, *apt.Exit, *apt.Cycle, *apt.Return, *apt.Stop:
			return false
		case *apt.Loop:
			if w.kept[x] {
				if !w.jumpsOutside(x.Body, false) {
					return false
				}
				continue
			}
		case *apt.If:
			if w.kept[x] {
				for _, b := range x.Branches {
					if !w.jumpsOutside(b.Body, top) {
						return false
					}
				}
				continue
			}
		}
		if !selfContained(n) {
			return false
		}
	}
	return true
}

// collectSkips fills sl.skip with what the slice does not run, and sl.size
// with what it does.
func (w *sliceWalk) collectSkips(nodes []apt.Node, sl *carrySlice) {
	for _, n := range nodes {
		switch x := n.(type) {
		case *apt.Block:
			for _, s := range x.Stmts {
				if w.kept[s] {
					sl.size++
				} else {
					sl.skip[s] = true
				}
			}
		case *apt.Loop:
			if !w.kept[x] {
				sl.skip[x] = true
				continue
			}
			sl.size++
			w.collectSkips(x.Body, sl)
		case *apt.If:
			if !w.kept[x] {
				sl.skip[x] = true
				continue
			}
			sl.size++
			for _, b := range x.Branches {
				w.collectSkips(b.Body, sl)
			}
		case *apt.Call:
			if !w.kept[x] {
				sl.skip[x] = true
				continue
			}
			sl.size += 1 + w.ev.bodySize([]apt.Node{x})
		case *apt.Comm, *apt.IO, *apt.Stop, *apt.Return:
			sl.skip[x] = true
		default:
			sl.size++
		}
	}
}
