package symeval

import (
	"slices"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// What a routine outside the program may change. Given the address of a
// structure, a library routine may store into it and into whatever its
// pointers reach (libstdc++'s _Rb_tree_insert_and_rebalance, called by
// the inlined std::map and std::set code, relinks the tree's header and
// nodes): values the evaluation held for them before the call are not
// the run's after it. forgetReached makes unknown the structures a call's
// arguments give by address and the heap objects reachable from them
// through the addresses their fields hold, as far as the evaluation knows
// those addresses (an object no known address leads to is one the call
// cannot be shown to reach either).

// forgetReached forgets, for the call of the external routine name with
// args, the storage of every structure argument and of the heap objects
// it reaches.
func (ev *evaluator) forgetReached(callee, name string, args []apt.Expr, pos apt.Pos) {
	what := "after the call of " + name + " at " + pos.String()
	for _, k := range ev.reachedKeys(callee, args) {
		v, ok := ev.env.lookup(k)
		if !ok {
			continue
		}
		if v.arr != nil {
			ev.clobber(k)
			continue
		}
		hint := k[strings.LastIndexAny(k, "%.&")+1:]
		ev.env.set(k, unknownValue(hint, "the value of "+hint+" "+what, false))
	}
}

// reachMark marks, in a set of keys assigned (collectAssigned), a storage
// an external routine is given the address of: it and all it reaches may
// change (expandReachMarks). A routine's summary carries the mark to its
// callers' actual arguments as it carries any path.
const reachMark = "%*"

// reachedKeys returns, sorted, the storage keys the external routine
// name may change through the structures args give by address.
func (ev *evaluator) reachedKeys(name string, args []apt.Expr) []string {
	return ev.expandReach(ev.reachRoots(name, args))
}

// reachRoots returns the storages args give the external routine name by
// address: a structure's, or the variable holding a pointer to one.
func (ev *evaluator) reachRoots(name string, args []apt.Expr) []string {
	if readOnlyText[name] || !ev.cPointers() || strings.HasPrefix(name, cxxStr) || strings.HasPrefix(name, cxxStrConst) {
		// (std::string's members: cxxstring.go follows what they do.)
		return nil
	}
	var roots []string
	for _, a := range args {
		if kw, ok := a.(*apt.Keyword); ok {
			a = kw.Value
		}
		if apt.TypeOf(a).Base != apt.TypeDerived {
			continue
		}
		switch a.(type) {
		case *apt.Name, *apt.Component:
			if root := rootName(a); root != "" && ev.libraryPointers(ev.frame().routine)[root] {
				continue
			}
			if k, ok := ev.refKey(a); ok {
				roots = append(roots, k)
			}
		}
	}
	return roots
}

// libraryPointers returns the variables of routine r that hold only what
// functions outside the program return (the stream operator<< returns,
// which the next << is given): the library's own storage, which holds no
// address of the program's.
func (ev *evaluator) libraryPointers(r *apt.Routine) map[string]bool {
	if lp, ok := ev.libPtrMemo[r]; ok {
		return lp
	}
	lib, other := map[string]bool{}, map[string]bool{}
	apt.Inspect(&apt.Loop{Body: r.Body}, func(n apt.Node) bool {
		b, ok := n.(*apt.Block)
		if !ok {
			return true
		}
		for _, st := range b.Stmts {
			nm, ok := st.Target.(*apt.Name)
			if !ok || st.Kind != apt.StmtAssign {
				continue
			}
			if f, ok := st.Value.(*apt.FuncCall); ok && !f.Intrinsic && ev.routineNamed(f.Name) == nil {
				lib[nm.Name] = true
			} else {
				other[nm.Name] = true
			}
		}
		return true
	})
	for k := range other {
		delete(lib, k)
	}
	if ev.libPtrMemo == nil {
		ev.libPtrMemo = map[*apt.Routine]map[string]bool{}
	}
	ev.libPtrMemo[r] = lib
	return lib
}

// expandReach returns, sorted, the keys of the storages roots name (a
// pointer variable stands for the heap object its value is the address
// of) and of the heap objects the addresses they hold lead to.
func (ev *evaluator) expandReach(roots []string) []string {
	var out []string
	seen := map[string]bool{}
	for i, r := range roots {
		if v, ok := ev.env.lookup(r); ok {
			if o, ok := ev.objectOf(v); ok {
				roots[i] = o.key
			}
		}
	}
	for len(roots) > 0 {
		s := roots[len(roots)-1]
		roots = roots[:len(roots)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		keys := ev.env.withPrefix(s + "%")
		if _, ok := ev.env.lookup(s); ok {
			keys = append(keys, s)
		}
		for _, k := range keys {
			v, ok := ev.env.lookup(k)
			if !ok || strings.Contains(k, "%\x00") {
				// (A string's text: cxxstring.go's to keep or forget.)
				continue
			}
			out = append(out, k)
			if o, ok := ev.objectOf(v); ok && !seen[o.key] {
				roots = append(roots, o.key)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// expandReachMarks replaces each key of set marked by reachMark with the
// keys it reaches now.
func (ev *evaluator) expandReachMarks(set map[string]bool) {
	var roots []string
	for k := range set {
		if i := strings.Index(k, reachMark); i >= 0 {
			delete(set, k)
			roots = append(roots, k[:i])
		}
	}
	if len(roots) == 0 {
		return
	}
	slices.Sort(roots)
	for _, k := range ev.expandReach(roots) {
		set[k] = true
	}
}
