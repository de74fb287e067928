package symeval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Row pointers. Sparse codes store a matrix by rows: row j's entries are
// a(ptr(j)) .. a(ptr(j+1)-1), and ptr is filled from the data (compressed
// sparse rows). The inner loop of a sweep over the rows,
//
//	do j = lo, hi
//	   do k = ptr(j), ptr(j+1) - 1
//
// runs ptr(j+1) - ptr(j) times for row j, a number only the data fixes, so
// no closed form counts it row by row. Summed over the rows the lengths
// telescope: the inner body runs ptr(hi+1) - ptr(lo) times in all, whatever
// the rows hold, because the row pointers do not decrease. That sum is one
// value of the data (the number of entries the rows hold) and becomes one
// parameter, so the counts stay exact given it: the inner loop's body gets a
// domain of its own, the loops outside the row loop and 1..span, instead of
// the row variable and an element per row.
//
// The sum is exact only for a body that no row-dependent control reaches: no
// loop, branch or call of the program's own routines inside the inner loop,
// the inner loop directly in the row loop's body (under no branch of it),
// the row loop of unit step with the pointer array unchanged by it.

// loopFrame is what an enclosing DO loop being evaluated symbolically
// leaves for the loops inside it.
type loopFrame struct {
	loop *apt.Loop
	v    string // its domain variable
	lo   Value  // its first value
	hi   Value  // its last value
	unit bool   // its step is 1
	// rowVar is, for a counted DO WHILE, its counter, which holds the
	// row: rowOff + v (the DO variable holds v itself).
	rowVar string
	rowOff Value
	outer  *domainState // the domain around the loop
	entry  *domainState // its body's domain at the start of an iteration
	mod    []string     // the storage keys its body changes
	pre    *env         // the values before the loop
}

// rowSpan is the telescoped inner loop of a sweep over rows: its body's
// domain and the parameter counting its iterations in all.
type rowSpan struct {
	body  *domainState
	param *Param
	row   string // the row loop's domain variable
}

// telescope recognises l as the inner loop of a sweep over row pointers
// (see above) and returns the domain its body runs in. The row's first
// entry is ptr(j), or a variable carrying ptr(j) from the previous row: the
// in-place compaction of assembled rows (sum duplicates, then move row j's
// pointer) reads jprev = ptr(j+1) before it writes ptr(j+1), so its rows
// are the pointers' values before the sweep.
func (ev *evaluator) telescope(l *apt.Loop) *rowSpan {
	fr := ev.frame()
	if l.Var == "" || l.Step != nil || len(fr.loopFrames) == 0 || len(fr.loopFrames) != len(fr.loops) {
		return nil
	}
	rf := fr.loopFrames[len(fr.loopFrames)-1]
	if rf == nil || !rf.unit || fr.running() != nil || rf.loop != fr.loops[len(fr.loops)-1] {
		return nil
	}
	// Directly in the row loop's body: no branch of it in between.
	cur, ent := ev.cur, rf.entry
	if cur.dead || len(cur.vars) != len(ent.vars) || len(cur.conds) != len(ent.conds) || !symbolic.Equal(cur.factor, ent.factor) {
		return nil
	}
	if rf.rowVar != "" {
		// Rows a counted DO WHILE runs over: their bounds from a table
		// only.
		if ev.readsTable(l, rf) && ev.straightLine(l.Body) {
			return ev.tableSweep(l, rf)
		}
		return nil
	}
	if rs := ev.summedSpan(l, rf); rs != nil {
		return rs // lengths stored with their sum (rowsums.go)
	}
	if ev.readsTable(l, rf) && ev.straightLine(l.Body) {
		if rs := ev.tableSweep(l, rf); rs != nil {
			return rs // bounds from a concrete run's table (tables.go)
		}
	}
	up, ok := l.Upper.(*apt.Binary)
	if !ok || up.Op != apt.OpSub {
		return nil
	}
	hiIx, ok := up.X.(*apt.Index)
	if c, isConst := up.Y.(*apt.Const); !ok || !isConst || c.Text != "1" || hiIx.Base != nil || len(hiIx.Subs) != 1 {
		return nil
	}
	if !ev.straightLine(l.Body) {
		return nil
	}
	key, offHi, okHi := ev.arrayRef(hiIx)
	if !okHi {
		return nil
	}
	o2, ok := offHi.Single()
	if !ok {
		return nil
	}
	// Consecutive rows: the offset moves by one with the row variable.
	if rest := o2.Sub(symbolic.Sym(rf.v)); !o2.Has(rf.v) || rest.Has(rf.v) {
		return nil
	}
	o1 := o2.Sub(symbolic.Int(1))
	var st *arrayState
	switch lo := l.Lower.(type) {
	case *apt.Index:
		// do k = ptr(j), ptr(j+1) - 1, the pointers unchanged by the sweep.
		if lo.Name != hiIx.Name || lo.Base != nil || len(lo.Subs) != 1 {
			return nil
		}
		k1, offLo, okLo := ev.arrayRef(lo)
		if e, single := offLo.Single(); !okLo || k1 != key || !single || !symbolic.Equal(e, o1) || slices.Contains(rf.mod, key) {
			return nil
		}
		st = ev.arrayOf(key, ev.declOf(lo))
	case *apt.Name:
		// do k = jprev, ptr(j+1) - 1 with jprev = ptr(j+1) at the end of
		// the row and ptr(first) before the sweep.
		st = ev.carried(rf, lo.Name, hiIx, key, o1)
		if st == nil {
			return nil
		}
	default:
		return nil
	}
	if ev.elementKnown(st, o1) {
		return nil // the evaluation knows the pointers: no need
	}
	// The rows' pointers from and to, for one parameter per range of
	// rows: bounds that differ by rank (a block of rows whose size the
	// ranks do not share) give a range per alternative, and the span,
	// the data's count for the rank's own rows, is still one value.
	from, ok1 := boundKeys(rf.lo, o1, rf.v)
	to, ok2 := boundKeys(rf.hi, o2, rf.v)
	if !ok1 || !ok2 {
		return nil
	}
	name := hiIx.Name
	body := rf.outer.clone()
	body.pending = nil
	body.inexact = cur.inexact
	t := ev.loopVarName(l.Var)
	body.vars = append(body.vars, t)
	mk := fmt.Sprintf("%s|%p|%s|%s", key, st, from, to)
	p, seen := ev.spans[mk]
	if !seen {
		p = ev.newParam(name+"_span", FromUnresolved, l.Span.Start(),
			fmt.Sprintf("how many entries the rows %s = %s..%s hold together on a rank (%s(%s+1) - %s(%s), from the data)",
				rf.loop.Var, ev.src(rf.loop.Lower), ev.src(rf.loop.Upper), name, rf.loop.Var, name, rf.loop.Var), false)
		zero := symbolic.Int(0)
		p.Lo = &zero
		if hi, ok := ev.subscriptExtent(l.Body, l.Var); ok {
			// Every entry indexes an array of that many elements: the
			// rows hold no more (a conforming program), and the midpoint
			// stands where the value moves the work too little to ask.
			mid := symbolic.FloorDiv(hi, symbolic.Int(2))
			p.Hi, p.Default = &hi, &mid
			p.What += fmt.Sprintf(", at most %s", hi)
		}
		ev.spans[mk] = p
	}
	ev.res.Assumed = appendAssumption(ev.res.Assumed, Assumption{Pos: l.Span.Start(),
		What: fmt.Sprintf("the loop at %s runs over the entries of row %s: taking %s as row pointers (not decreasing), "+
			"its iterations over all rows are the parameter %s", l.Span.Start(), rf.loop.Var, name, p.Name)})
	body.conds = append(body.conds,
		counting.Rel{R: symbolic.Rel(symbolic.Sym(t), ">=", symbolic.Int(1))},
		counting.Rel{R: symbolic.Rel(symbolic.Sym(t), "<=", p.expr())})
	return &rowSpan{body: body, param: p, row: rf.v}
}

// boundKeys is the key of offset o at each alternative of the row
// variable v's bound b; ok is false for an unknown bound.
func boundKeys(b Value, o symbolic.Expr, v string) (string, bool) {
	if !b.IsKnown() {
		return "", false
	}
	var sb strings.Builder
	for i, a := range b.Alts {
		e, err := o.Subst(map[string]symbolic.Expr{v: a.E})
		if err != nil {
			return "", false
		}
		if i > 0 {
			sb.WriteString(";")
		}
		if a.Guard != nil {
			sb.WriteString(counting.FormulaKey(a.Guard))
			sb.WriteString(":")
		}
		sb.WriteString(e.Key())
	}
	return sb.String(), true
}

// subscriptExtent returns the least extent of the one-dimensional arrays
// that body subscripts by the loop variable v alone (a(k), colidx(k)):
// every value v takes is a valid subscript of each.
func (ev *evaluator) subscriptExtent(body []apt.Node, v string) (symbolic.Expr, bool) {
	var exts []symbolic.Expr
	seen := map[string]bool{}
	visit := func(e apt.Expr) {
		apt.InspectExpr(e, func(x apt.Expr) bool {
			ix, ok := x.(*apt.Index)
			if !ok || ix.Base != nil || len(ix.Subs) != 1 || seen[ix.Name] {
				return true
			}
			if n, ok := ix.Subs[0].(*apt.Name); ok && n.Name == v {
				seen[ix.Name] = true
				if d := ev.prog.Resolve(ev.frame().routine, ix.Name); d != nil && len(d.Dims) == 1 {
					if e, ok := ev.arrayElems(ix.Name); ok {
						exts = append(exts, e)
					}
				}
			}
			return true
		})
	}
	apt.Inspect(&apt.Loop{Body: body}, func(n apt.Node) bool {
		if b, ok := n.(*apt.Block); ok {
			for _, st := range b.Stmts {
				for _, e := range append([]apt.Expr{st.Target, st.Value, st.Mask}, st.Args...) {
					visit(e)
				}
			}
		}
		return true
	})
	if len(exts) == 0 {
		return symbolic.Expr{}, false
	}
	return symbolic.Min(exts...), true
}

// carried checks the compaction form of a row sweep: v is assigned only
// ptr(j+1) (the upper bound's element, same subscript) in the row loop's
// body, after the inner loop, with no store to ptr before that assignment
// and every later store to ptr(j+1) itself; before the sweep v held the
// pointer of the first row. It returns the pointers' state before the
// sweep, nil when the form does not hold.
func (ev *evaluator) carried(rf *loopFrame, v string, hiIx *apt.Index, key string, o1 symbolic.Expr) *arrayState {
	sub := apt.FormatExpr(hiIx.Subs[0])
	assigned, readBack := 0, false
	ok := true
	for _, n := range rf.loop.Body {
		switch x := n.(type) {
		case *apt.Loop:
			continue // the inner loops read; straightLine and the caller check them
		case *apt.Block:
			for _, s := range x.Stmts {
				switch t := s.Target.(type) {
				case *apt.Name:
					if t.Name != v {
						continue
					}
					assigned++
					ix, isIx := s.Value.(*apt.Index)
					if !isIx || ix.Name != hiIx.Name || len(ix.Subs) != 1 || apt.FormatExpr(ix.Subs[0]) != sub {
						ok = false
					}
					readBack = true
				case *apt.Index:
					if t.Name != hiIx.Name {
						continue
					}
					// A store to the pointers: only to ptr(j+1), once read.
					if !readBack || len(t.Subs) != 1 || apt.FormatExpr(t.Subs[0]) != sub {
						ok = false
					}
				}
			}
		default:
			// Branches and calls could assign v or the pointers out of
			// sight.
			mod := map[string]bool{}
			ev.collectAssigned([]apt.Node{n}, mod)
			if mod[ev.key(v)] || mod[key] {
				ok = false
			}
		}
	}
	if !ok || assigned != 1 {
		return nil
	}
	pre, had := rf.pre.lookup(key)
	if !had || pre.arr == nil {
		return nil
	}
	// Before the sweep v = ptr(first row): compare the values.
	first, ok1 := rf.lo.Single()
	if !ok1 {
		return nil
	}
	at, err := o1.Subst(map[string]symbolic.Expr{rf.v: first})
	if err != nil {
		return nil
	}
	alts, okRead := ev.readOffset(pre.arr, at)
	vv := rf.pre.get(ev.key(v))
	if okRead && vv.IsKnown() && sameValue(Value{Alts: alts}, vv) {
		return pre.arr
	}
	// Or both unknown: the same element of the same state.
	if u := vv.unk; u != nil && u == ev.unkElems[elemKey(key, pre.arr, at)] {
		return pre.arr
	}
	return nil
}

// elementKnown reports whether the element at offset off of st is known
// wherever the offset is (the evaluation followed the pointers).
func (ev *evaluator) elementKnown(st *arrayState, off symbolic.Expr) bool {
	_, ok := ev.readOffset(st, off)
	return ok
}

// appendAssumption adds a to as unless an assumption at its position is
// there already.
func appendAssumption(as []Assumption, a Assumption) []Assumption {
	for _, b := range as {
		if b.Pos == a.Pos {
			return as
		}
	}
	return append(as, a)
}

// straightLine reports whether body runs the same loop-free code on every
// iteration whatever the rows: blocks, and branches of such code (on the
// data, or on the row: rowDomains then finds those), calling none of the
// program's own routines.
func (ev *evaluator) straightLine(body []apt.Node) bool {
	for _, n := range body {
		switch x := n.(type) {
		case *apt.Block:
			for _, s := range x.Stmts {
				for _, e := range append([]apt.Expr{s.Target, s.Value, s.Mask}, s.Args...) {
					if ev.callsRoutine(e) {
						return false
					}
				}
			}
		case *apt.If:
			if ev.callsRoutine(x.Selector) {
				return false
			}
			for _, b := range x.Branches {
				if ev.callsRoutine(b.Cond) || !ev.straightLine(b.Body) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// callsRoutine reports whether e calls a function of the program.
func (ev *evaluator) callsRoutine(e apt.Expr) bool {
	calls := false
	apt.InspectExpr(e, func(x apt.Expr) bool {
		if f, ok := x.(*apt.FuncCall); ok && ev.routineNamed(f.Name) != nil {
			calls = true
		}
		return !calls
	})
	return calls
}

// rowDomains reports whether a domain below o (the telescoped loop)
// mentions the row variable v, which the telescoped domain no longer has: a
// branch on the row inside the row's entries.
func rowDomains(o *Occ, v string) bool {
	for _, c := range o.Children {
		for _, d := range []*Domain{c.Dom, c.Body} {
			if d == nil {
				continue
			}
			for _, f := range d.Cond {
				if formulaMentions(f, v) {
					return true
				}
			}
		}
		if rowDomains(c, v) {
			return true
		}
	}
	return false
}
