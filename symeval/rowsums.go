package symeval

import (
	"fmt"
	"os"
	"slices"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Row lengths counted as the rows are built. A sparse code that stores a
// matrix by rows often counts each row's entries while it builds the row,
//
//	do iz ... do iy ... do ix                (one row per iteration)
//	   nnzrow = 0
//	   do sz ... do sy ... do sx             (its neighbours)
//	      if (inside) nnzrow = nnzrow + 1
//	   nnz_in_row(row(ix, iy, iz)) = nnzrow
//
// and later sweeps the rows, do i / do j = 1, nnz_in_row(i). A row's
// length has a case for every boundary it touches (27 in 3D), too many to
// keep element by element, but the sweep needs only their sum, and the
// sum of the lengths stored is the number of times the increments ran in
// the nest: a count of the nest's iteration space, which the counting
// package gives exactly (seed 001 §4). The nest leaves the array that sum
// over the range of rows it stored (a rowSum); a sweep over exactly those
// rows runs its inner loop that many times in all (summedSpan), as a
// sweep over row pointers does (rows.go).
//
// It holds where each iteration of the storing loop stores one element,
// the rows of the nest fill a range once each (an offset affine in the
// loops' variables with each loop's coefficient the extent of the loops
// inside it), the counter starts at 0 in the storing loop's body before
// the store and otherwise only grows by constants, and the nest's
// domains rest on no frequency of a test on data.

// maxRowSumCells bounds the case-split cells of one count of a nest's
// increments: one that needs more is given up (the lengths stay unknown).
const maxRowSumCells = 500

// inRun reports whether a loop around the walk is being run trip by trip.
func (ev *evaluator) inRun() bool {
	for _, f := range ev.frames {
		for _, r := range f.runs {
			if r != nil {
				return true
			}
		}
	}
	return false
}

// rowSum is the sum of the elements lo..hi (offsets) of an array.
type rowSum struct {
	lo    symbolic.Expr
	hi    Value
	total Value
}

// elemRef is the element an unknown value was read from.
type elemRef struct {
	key string
	st  *arrayState
	off symbolic.Expr
}

// rowSums returns the state a symbolic loop l (its occurrence o) leaves
// in the array at key, whose elements it stored out of the evaluation's
// sight: unknown, with the sum of the range it stored where the stores
// are row lengths counted as above. ok is false otherwise.
func (ev *evaluator) rowSums(l *apt.Loop, lf *loopFrame, o *Occ, key string) (*arrayState, bool) {
	fail := func(why string) (*arrayState, bool) {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "row sums %s %s: %s\n", l.Span.Start(), key, why)
		}
		return nil, false
	}
	if o == nil || o.Body == nil || o.Dom == nil || lf == nil || !lf.unit || ev.inRun() {
		// Inside a run the nest is evaluated once per trip of the loop
		// run around it: its counts would be taken again and again.
		return nil, false
	}
	if !ev.storesCounter(l) {
		return nil, false
	}
	store, path, ok := ev.soleStore(l, o, key)
	if !ok {
		return fail("no sole store of a row")
	}
	x, ok := store.Value.(*apt.Name)
	if !ok {
		return fail("the value stored is not a variable")
	}
	// path: the loops from l to the one whose body holds the store.
	inner := path[len(path)-1]
	c0, incs, ok := ev.counterSteps(inner.Body, store, x.Name)
	if !ok || len(incs) == 0 || c0 != 0 {
		return fail("not a counter reset in the row and only incremented")
	}
	if ev.assignsOutside(l, inner, x.Name) {
		return fail("the counter is assigned outside the row")
	}
	off, ok := ev.storeOffs[store.Target.(*apt.Index)].Single()
	if !ok {
		return fail("the store's offset is not one closed form")
	}
	// The nest's variables, outermost first: those of the store's block
	// beyond the loop's own domain.
	sb := findOcc(o, func(n apt.Node) bool { b, ok := n.(*apt.Block); return ok && slices.Contains(b.Stmts, store) })
	if sb == nil || sb.Dom == nil || len(sb.Dom.Vars) != len(o.Dom.Vars)+len(path) {
		return fail("the store's block is not in the nest's domain")
	}
	vars := sb.Dom.Vars[len(o.Dom.Vars):]
	// Rows filled once each: the innermost variable with coefficient 1,
	// each outer one with the product of the inner extents; the outermost
	// (l's) runs over its bounds, which may differ by rank.
	first, stride := off, symbolic.Int(1)
	for i := len(vars) - 1; i >= 0; i-- {
		v := vars[i]
		a, _, ok := off.Linear(v)
		if !ok || !symbolic.Equal(a, stride) {
			return fail("coefficient")
		}
		var lo, hi symbolic.Expr
		if i == 0 {
			if lo, ok = lf.lo.Single(); !ok {
				return fail("first row")
			}
		} else if lo, hi, ok = domainRange(sb.Dom.Cond, v); !ok || mentionsExpr(lo, vars) || mentionsExpr(hi, vars) {
			return fail("inner range")
		}
		if first, ok = substExpr(first, v, lo); !ok {
			return fail("first")
		}
		if i > 0 {
			stride = stride.Mul(hi.Sub(lo).Add(symbolic.Int(1)))
		}
	}
	if mentionsExpr(first, vars) {
		return fail("first")
	}
	lo0, _ := lf.lo.Single()
	last, ok := liftN([]Value{lf.hi}, func(h []symbolic.Expr) (symbolic.Expr, bool) {
		return first.Add(stride.Mul(h[0].Sub(lo0).Add(symbolic.Int(1)))).Sub(symbolic.Int(1)), true
	})
	if !ok {
		return fail("last")
	}
	facts := ev.stepFacts(nil)
	var total symbolic.Piecewise
	counted := 0
	for _, inc := range incs {
		occs := findOccs(o, func(n apt.Node) bool { b, ok := n.(*apt.Block); return ok && slices.Contains(b.Stmts, inc.s) })
		counted += len(occs) // one never reached adds nothing
		for _, io := range occs {
			d := io.Dom
			// A factor is a frequency of a test on data (model/cost scales
			// by it): such a count is not the run's.
			if d == nil || io.Inexact || len(d.Vars) < len(o.Dom.Vars)+len(path) || d.Factor.NumTerms() > 0 && !symbolic.Equal(d.Factor, symbolic.Int(1)) {
				return fail("an increment's domain is approximate or under a frequency")
			}
			set := d.Set()
			set.Vars = slices.Clone(d.Vars[len(o.Dom.Vars):])
			set.Params = slices.DeleteFunc(set.Params, func(p string) bool { return slices.Contains(set.Vars, p) })
			for _, v := range o.Dom.Vars {
				if !slices.Contains(set.Params, v) {
					set.Params = append(set.Params, v)
				}
			}
			pw, err := counting.Sum(set, symbolic.Int(1), facts, counting.Options{MaxCells: maxRowSumCells})
			if err != nil {
				if debugRuns {
					fmt.Fprintf(os.Stderr, "row sums %s: %v\n", l.Span.Start(), err)
				}
				return fail("counting refused")
			}
			total = total.Add(pw.Scale(symbolic.Int(inc.c)))
		}
	}
	if counted == 0 {
		return fail("no increment reached")
	}
	total = total.Merge().Tidy(facts)
	tv, ok := piecewiseValue(total, facts)
	if !ok {
		return fail(fmt.Sprintf("%d pieces: %s", len(total.Pieces), total))
	}
	if debugRuns {
		fmt.Fprintf(os.Stderr, "row sums %s: %s %s..%v = %v\n", l.Span.Start(), key, first, last.Alts, tv.Alts)
	}
	sum := rowSum{lo: first, hi: last, total: tv}
	if pv, ok := lf.pre.lookup(key); ok && pv.arr != nil && len(pv.arr.sums) == 1 && len(pv.arr.stores) == 0 {
		// The rows just before these, summed by the same nest on an
		// earlier trip of a loop run around it (a plane at a time).
		ps := pv.arr.sums[0]
		if h, ok := ps.hi.Single(); ok && symbolic.Equal(h.Add(symbolic.Int(1)), first) {
			if t, ok := liftN([]Value{ps.total, tv}, func(a []symbolic.Expr) (symbolic.Expr, bool) { return a[0].Add(a[1]), true }); ok {
				sum = rowSum{lo: ps.lo, hi: last, total: t}
			}
		}
	}
	return &arrayState{clobbered: true, sums: []rowSum{sum}}, true
}

// storesCounter reports, once per loop, whether its body stores into an
// element a variable it increments somewhere (a cheap test of the text
// before rowSums looks at any array).
func (ev *evaluator) storesCounter(l *apt.Loop) bool {
	if v, ok := ev.counterStores[l]; ok {
		return v
	}
	incremented := map[string]bool{}
	var stored []string
	apt.Inspect(&apt.Loop{Body: l.Body}, func(n apt.Node) bool {
		if b, ok := n.(*apt.Block); ok {
			for _, s := range b.Stmts {
				switch t := s.Target.(type) {
				case *apt.Name:
					if _, ok := stepOf(s.Value, t.Name); ok {
						incremented[t.Name] = true
					}
				case *apt.Index:
					if x, ok := s.Value.(*apt.Name); ok {
						stored = append(stored, x.Name)
					}
				}
			}
		}
		return true
	})
	found := slices.ContainsFunc(stored, func(x string) bool { return incremented[x] })
	if ev.counterStores != nil {
		ev.counterStores[l] = found
	}
	return found
}

// storeScan is what soleStore reads of a loop's body, for every array it
// stores to: taken once per evaluation of the loop (its occurrence), for
// all the arrays its end looks at.
type storeScan struct {
	l     *apt.Loop
	o     *Occ
	calls bool // the body calls a routine of the program
	by    map[string]*scannedStore
}

type scannedStore struct {
	s    *apt.Stmt
	path []*apt.Loop
	bad  bool
}

// soleStore finds the one statement of l's body that stores to the array
// at key, reached from l through DO loops only (once per iteration of the
// innermost), and those loops, l first. ok is false where another
// statement stores to it, a call could, or the store is under a branch.
func (ev *evaluator) soleStore(l *apt.Loop, o *Occ, key string) (*apt.Stmt, []*apt.Loop, bool) {
	sc := ev.lastScan
	if sc == nil || sc.l != l || sc.o != o {
		sc = ev.scanStores(l)
		sc.o = o
		ev.lastScan = sc
	}
	st := sc.by[key]
	if st == nil || st.bad || sc.calls {
		return nil, nil, false
	}
	return st.s, st.path, true
}

// scanStores reads the stores of l's body (soleStore).
func (ev *evaluator) scanStores(l *apt.Loop) *storeScan {
	sc := &storeScan{l: l, by: map[string]*scannedStore{}}
	var visit func(nodes []apt.Node, loops []*apt.Loop, direct bool)
	visit = func(nodes []apt.Node, loops []*apt.Loop, direct bool) {
		for _, n := range nodes {
			switch x := n.(type) {
			case *apt.Block:
				for _, s := range x.Stmts {
					if ev.callsRoutine(s.Value) {
						sc.calls = true
					}
					ix, ok := s.Target.(*apt.Index)
					if !ok {
						continue
					}
					k, _, _ := ev.arrayRef(ix)
					if k == "" {
						continue
					}
					if prev := sc.by[k]; prev != nil {
						prev.bad = true
						continue
					}
					sc.by[k] = &scannedStore{s: s, path: slices.Clone(loops), bad: !direct || s.Kind != apt.StmtAssign}
				}
			case *apt.Loop:
				visit(x.Body, append(loops, x), direct && x.Var != "" && x.Step == nil)
			case *apt.If:
				for _, b := range x.Branches {
					visit(b.Body, loops, false)
				}
			case *apt.Call:
				sc.calls = true
			default:
				mod := map[string]bool{}
				ev.collectAssigned([]apt.Node{n}, mod)
				for k := range mod {
					if st := sc.by[k]; st != nil {
						st.bad = true
					} else {
						sc.by[k] = &scannedStore{bad: true}
					}
				}
			}
		}
	}
	visit(l.Body, []*apt.Loop{l}, true)
	return sc
}

// rowIncrement is an increment x = x + c.
type rowIncrement struct {
	s *apt.Stmt
	c int64
}

// counterSteps checks body, the body of the loop whose iterations store x:
// x is set to a constant c0 at its top level before the store and
// otherwise assigned only by increments x = x + c (c a constant) before
// the store, at any depth; it returns c0 and the increments.
func (ev *evaluator) counterSteps(body []apt.Node, store *apt.Stmt, x string) (int64, []rowIncrement, bool) {
	var c0 int64
	initSeen, storeSeen, ok := false, false, true
	var incs []rowIncrement
	var nested func(nodes []apt.Node)
	nested = func(nodes []apt.Node) {
		apt.Inspect(&apt.Loop{Body: nodes}, func(n apt.Node) bool {
			b, isB := n.(*apt.Block)
			if !isB {
				if c, isCall := n.(*apt.Call); isCall && len(ev.callees(c.Callee)) > 0 {
					ok = false
				}
				return true
			}
			for _, s := range b.Stmts {
				if nm, isN := s.Target.(*apt.Name); isN && nm.Name == x {
					c, step := stepOf(s.Value, x)
					if !step || c == 0 || !initSeen || storeSeen {
						ok = false
					}
					incs = append(incs, rowIncrement{s, c})
				}
			}
			return true
		})
	}
	for _, n := range body {
		b, isB := n.(*apt.Block)
		if !isB {
			nested([]apt.Node{n})
			continue
		}
		for _, s := range b.Stmts {
			if s == store {
				storeSeen = true
				continue
			}
			nm, isN := s.Target.(*apt.Name)
			if !isN || nm.Name != x {
				continue
			}
			if c, isConst := ev.value(s.Value).Single(); !initSeen && isConst && !storeSeen {
				if k, isInt := c.Int64(); isInt {
					c0, initSeen = k, true
					continue
				}
			}
			ok = false
		}
	}
	return c0, incs, ok && initSeen && storeSeen
}

// assignsOutside reports whether l's body assigns x outside inner's body.
func (ev *evaluator) assignsOutside(l, inner *apt.Loop, x string) bool {
	if l == inner {
		return false
	}
	found := false
	apt.Inspect(&apt.Loop{Body: l.Body}, func(n apt.Node) bool {
		if n == inner {
			return false
		}
		if b, ok := n.(*apt.Block); ok {
			for _, s := range b.Stmts {
				if nm, ok := s.Target.(*apt.Name); ok && nm.Name == x {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// domainRange reads v's bounds lo <= v <= hi from a domain's top-level
// relations (a DO loop's), one of each.
func domainRange(conds []counting.Formula, v string) (lo, hi symbolic.Expr, ok bool) {
	var los, his []symbolic.Expr
	var visit func(f counting.Formula)
	visit = func(f counting.Formula) {
		switch g := f.(type) {
		case counting.Rel:
			a, rest, isLin := g.R.E.Linear(v)
			if !isLin || g.R.Op != symbolic.GE {
				return
			}
			if c, isC := a.Const(); isC {
				switch {
				case c.Cmp(symbolic.RatInt(1)) == 0: // v + rest >= 0
					los = append(los, rest.Neg())
				case c.Cmp(symbolic.RatInt(-1)) == 0: // rest - v >= 0
					his = append(his, rest)
				}
			}
		case counting.And:
			for _, x := range g {
				visit(x)
			}
		}
	}
	for _, f := range conds {
		visit(f)
	}
	if len(los) != 1 || len(his) != 1 {
		return symbolic.Expr{}, symbolic.Expr{}, false
	}
	return los[0], his[0], true
}

// substExpr is e with v replaced by x.
func substExpr(e symbolic.Expr, v string, x symbolic.Expr) (symbolic.Expr, bool) {
	out, err := e.Subst(map[string]symbolic.Expr{v: x})
	return out, err == nil
}

// findOcc is the last occurrence under o whose node satisfies f.
func findOcc(o *Occ, f func(apt.Node) bool) *Occ {
	occs := findOccs(o, f)
	if len(occs) == 0 {
		return nil
	}
	return occs[len(occs)-1]
}

// findOccs are the occurrences under o whose nodes satisfy f.
func findOccs(o *Occ, f func(apt.Node) bool) []*Occ {
	var out []*Occ
	for _, c := range o.Children {
		if f(c.Node) {
			out = append(out, c)
		}
		out = append(out, findOccs(c, f)...)
	}
	return out
}

// summedSpan is the domain of the inner loop l of a sweep over rows whose
// lengths a nest stored with their sum (rowSums): do j = 0, len - 1 (or
// 1, len) with len the element of the row loop's row, the sweep over
// exactly the rows the sum covers. nil where that does not hold.
func (ev *evaluator) summedSpan(l *apt.Loop, rf *loopFrame) *rowSpan {
	lo, ok := l.Lower.(*apt.Const)
	if !ok || !ev.straightLine(l.Body) {
		return nil
	}
	var n apt.Expr
	switch {
	case lo.Text == "0":
		b, ok := l.Upper.(*apt.Binary)
		if !ok || b.Op != apt.OpSub {
			return nil
		}
		if c, ok := b.Y.(*apt.Const); !ok || c.Text != "1" {
			return nil
		}
		n = b.X
	case lo.Text == "1":
		n = l.Upper
	default:
		return nil
	}
	v := ev.value(n)
	if v.unk == nil || v.unk.elem == nil {
		return nil
	}
	el := v.unk.elem
	a, b, ok := el.off.Linear(rf.v)
	if !ok || !symbolic.Equal(a, symbolic.Int(1)) || b.Has(rf.v) {
		return nil
	}
	rlo, ok := rf.lo.Single()
	if !ok || !rf.unit {
		return nil
	}
	hiB, ok := liftN([]Value{rf.hi}, func(h []symbolic.Expr) (symbolic.Expr, bool) { return h[0].Add(b), true })
	if !ok {
		return nil
	}
	var sum *rowSum
	for i, s := range el.st.sums {
		if symbolic.Equal(s.lo, rlo.Add(b)) && sameValue(s.hi, hiB) {
			sum = &el.st.sums[i]
		}
	}
	if sum == nil {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "summed span %s: rows %s..%v + %s, sums %v\n", l.Span.Start(), rlo, rf.hi.Alts, b, el.st.sums)
		}
		return nil
	}
	body := rf.outer.clone()
	body.pending = nil
	body.inexact = ev.cur.inexact
	t := ev.loopVarName(l.Var)
	body.vars = append(body.vars, t)
	le, ok := relation(Known(symbolic.Sym(t)), sum.total, apt.OpLe)
	if !ok {
		return nil
	}
	body.conds = append(body.conds, counting.Rel{R: symbolic.Rel(symbolic.Sym(t), ">=", symbolic.Int(1))}, le)
	ev.res.Assumed = appendAssumption(ev.res.Assumed, Assumption{Pos: l.Span.Start(),
		What: fmt.Sprintf("the loop at %s runs over the entries of row %s: its iterations over all rows are the sum of the lengths stored", l.Span.Start(), rf.loop.Var)})
	return &rowSpan{body: body, row: rf.v}
}
