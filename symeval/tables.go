package symeval

import (
	"fmt"
	"slices"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Tables. A concrete run (concrete.go) leaves the integer arrays it wrote
// as tables of numbers, a row per rank: an element at an offset that is a
// number on each rank reads as its value there (tableAt), and a loop over
// rows whose inner loop's bounds read the table sums the inner trip
// counts row by row, at once (tableSweep), instead of being run for each
// row.

// elemTable is the elements of an integer array a concrete run left: a row
// per rank, or one row every rank shares.
type elemTable struct {
	rows  [][]int64
	known [][]bool
}

// share keeps one row where every rank's is the same.
func (t *elemTable) share() {
	for r := 1; r < len(t.rows); r++ {
		if !slices.Equal(t.rows[r], t.rows[0]) || !slices.Equal(t.known[r], t.known[0]) {
			return
		}
	}
	t.rows, t.known = t.rows[:1], t.known[:1]
}

// row is rank r's row.
func (t *elemTable) row(r int64) ([]int64, []bool) {
	if len(t.rows) == 1 {
		return t.rows[0], t.known[0]
	}
	if r < 0 || r >= int64(len(t.rows)) {
		return nil, nil
	}
	return t.rows[r], t.known[r]
}

// tableAt is the element at offset o of a table: a number on each rank
// of the path where o is a number on each, one alternative per value.
func (ev *evaluator) tableAt(t *elemTable, o symbolic.Expr) ([]Alt, bool) {
	np, ok := ev.values[Size]
	if !ok {
		return nil, false
	}
	ranks := []int64{}
	if r, fixed := ev.values[Rank]; fixed {
		ranks = append(ranks, r)
	} else if len(t.rows) == 1 && !o.Has(Rank) {
		ranks = append(ranks, 0)
	} else if on, ok := ev.pathRanks(np); ok && len(on) > 0 {
		// The ranks the path holds on (the root, after a reduction
		// to it): the others' rows are not read here.
		ranks = on
	} else {
		for r := range np {
			ranks = append(ranks, r)
		}
	}
	groups := newRankGroups(np)
	for _, r := range ranks {
		x, err := o.Eval(map[string]symbolic.Rat{Rank: symbolic.RatInt(r), Size: symbolic.RatInt(np)})
		if err != nil || !x.IsInt() {
			return nil, false
		}
		i, _ := x.Int64()
		row, known := t.row(r)
		if i < 0 || i >= int64(len(row)) || !known[i] {
			return nil, false
		}
		if len(ranks) == 1 {
			return []Alt{{E: symbolic.Int(row[i])}}, true
		}
		groups.of(symbolic.Int(row[i])).ranks[r] = true
	}
	return groups.alts(ev)
}

// tableArray reports whether ix is an element of an array a concrete run
// left as a table with nothing stored since: a loop that reads it by its
// variable is evaluated for all its iterations at once (a sweep over row
// pointers telescopes, tableSpan), not run for the elements' values.
func (ev *evaluator) tableArray(ix *apt.Index) bool {
	key, ok := "", false
	if ix.Base != nil {
		// A structure's pointer field's elements (A->nnz_in_row[i]).
		p, isPtr := ev.fieldPointed(ix)
		key, ok = p.key(), isPtr && len(ix.Subs) == 1
	} else {
		key, ok = ev.arrayKey(ix)
	}
	if !ok {
		return false
	}
	v, has := ev.env.lookup(key)
	return has && v.arr != nil && v.arr.tab != nil && len(v.arr.stores) == 0
}

// tableSweep is telescope's answer for an inner loop l whose bounds read
// a table by the row loop's variable in any other way (do k = 1,
// counts(b); do k = first(j), last(j)): its body runs, on each rank, the
// sum over the rows of the inner trip counts, each computed from the
// table (rowBound), in the domain around the rows. Nil where the bounds
// read no table, or read anything but tables, named constants, the row
// variable and values known at the point.
func (ev *evaluator) tableSweep(l *apt.Loop, rf *loopFrame) *rowSpan {
	np, ok := ev.values[Size]
	if !ok || np > maxConcreteRanks || !ev.readsTable(l, rf) {
		return nil
	}
	lower, upper := ev.sweepBounds(l, rf)
	step := int64(1)
	if l.Step != nil {
		c, ok := ev.prog.IntConstant(ev.frame().routine, l.Step)
		if !ok || c == 0 {
			return nil
		}
		step = c
	}
	// The same sweep of the same tables sums to the same (a solver's
	// product, met on every iteration of the loop around it).
	memo := fmt.Sprintf("%p|%v|%v", l, rf.lo.Alts, rf.hi.Alts)
	for _, e := range []apt.Expr{lower, upper} {
		apt.InspectExpr(e, func(x apt.Expr) bool {
			switch x := x.(type) {
			case *apt.Name:
				memo += fmt.Sprintf("|%s=%v", x.Name, ev.env.get(ev.key(x.Name)).Alts)
			case *apt.Index:
				if k, ok := ev.arrayKey(x); ok {
					memo += fmt.Sprintf("|%s@%p", x.Name, ev.env.get(k).arr)
				}
			}
			return true
		})
	}
	if alts, seen := ev.sweeps[memo]; seen {
		if alts == nil {
			return nil
		}
		return ev.sweepSpan(l, rf, alts)
	}
	ev.sweeps[memo] = nil
	groups := newRankGroups(np)
	for r := range np {
		imp := &importer{ev: ev, rank: r, np: np}
		lo, ok1 := imp.at(rf.lo)
		hi, ok2 := imp.at(rf.hi)
		a, isA := lo.Int64()
		b, isB := hi.Int64()
		if !ok1 || !ok2 || !isA || !isB || b-a > maxSweepRows {
			return nil
		}
		row, off := rf.loop.Var, int64(0)
		if rf.rowVar != "" {
			o, ok := imp.at(rf.rowOff)
			oi, isInt := o.Int64()
			if !ok || !isInt || !o.IsInt() {
				return nil
			}
			row, off = rf.rowVar, oi
		}
		total := int64(0)
		for j := a; j <= b; j++ {
			x, ok1 := ev.rowBound(lower, row, j+off, r, np)
			y, ok2 := ev.rowBound(upper, row, j+off, r, np)
			if !ok1 || !ok2 {
				return nil
			}
			total += max((y-x+step)/step, 0)
		}
		groups.of(symbolic.Int(total)).ranks[r] = true
	}
	alts, ok := groups.alts(ev)
	if !ok {
		return nil
	}
	ev.sweeps[memo] = alts
	return ev.sweepSpan(l, rf, alts)
}

// sweepSpan is the domain of the body of l, the inner loop of a sweep over
// rows whose trips add up to total (by rank): the domain around the rows
// with a variable from 1 to total.
func (ev *evaluator) sweepSpan(l *apt.Loop, rf *loopFrame, total []Alt) *rowSpan {
	alts := total
	body := rf.outer.clone()
	body.pending = nil
	body.inexact = ev.cur.inexact
	t := ev.loopVarName(l.Var)
	body.vars = append(body.vars, t)
	var cases []counting.Formula
	for _, a := range alts {
		cases = append(cases, and(a.Guard, counting.Rel{R: symbolic.Rel(symbolic.Sym(t), "<=", a.E)}))
	}
	body.conds = append(body.conds, counting.Rel{R: symbolic.Rel(symbolic.Sym(t), ">=", symbolic.Int(1))}, or(cases...))
	return &rowSpan{body: body, row: rf.v}
}

// maxSweepRows bounds the rows tableSweep sums over, on each rank.
const maxSweepRows = 1 << 20

// readsTable reports whether l's bounds read an element of a table.
func (ev *evaluator) readsTable(l *apt.Loop, rf *loopFrame) bool {
	found := false
	lo, hi := ev.sweepBounds(l, rf)
	for _, e := range []apt.Expr{lo, hi} {
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if ix, ok := x.(*apt.Index); ok && ev.tableArray(ix) {
				found = true
			}
			return !found
		})
	}
	return found
}

// rowBound is the integer value of a loop bound e at row j (the row
// loop's variable row) on rank r: constants, the row, scalars the
// evaluation knows at the point, elements of tables, and integer
// arithmetic and intrinsics on them; false for anything else.
func (ev *evaluator) rowBound(e apt.Expr, row string, j, r, np int64) (int64, bool) {
	switch e := e.(type) {
	case *apt.Const:
		if e.Kind != apt.ConstInt {
			return 0, false
		}
		return ev.prog.IntConstant(ev.frame().routine, e)
	case *apt.Name:
		if e.Name == row {
			return j, true
		}
		d := ev.prog.Resolve(ev.frame().routine, e.Name)
		if d == nil || d.IsArray() || d.Type.Base != apt.TypeInteger {
			return 0, false
		}
		if d.Param != nil {
			return ev.prog.IntConstant(ev.frame().routine, e)
		}
		v, has := ev.env.lookup(ev.key(e.Name))
		if !has {
			return 0, false
		}
		imp := &importer{ev: ev, rank: r, np: np}
		x, ok := imp.at(v)
		i, isInt := x.Int64()
		return i, ok && isInt && x.IsInt()
	case *apt.Index:
		if !ev.tableArray(e) || len(e.Subs) == 0 {
			return 0, false
		}
		if p, ok := ev.fieldPointed(e); ok {
			x, ok := ev.rowBound(e.Subs[0], row, j, r, np)
			if !ok {
				return 0, false
			}
			return tableElem(ev.env.get(p.key()).arr, r, x+p.off)
		}
		key, _ := ev.arrayKey(e)
		st := ev.env.get(key).arr
		d := ev.declOf(e)
		if d == nil || len(d.Dims) != len(e.Subs) {
			return 0, false
		}
		// The offset from the declared bounds, in the order the
		// evaluation lays the array out (arrayRef).
		off, stride := int64(0), int64(1)
		for n, k := range ev.dimOrder(len(e.Subs)) {
			x, ok := ev.rowBound(e.Subs[k], row, j, r, np)
			if !ok {
				return 0, false
			}
			lo := int64(1)
			if d.Dims[k].Lo != nil {
				if lo, ok = ev.rowBound(d.Dims[k].Lo, row, j, r, np); !ok {
					return 0, false
				}
			}
			off += (x - lo) * stride
			if n < len(e.Subs)-1 {
				hi, ok := ev.rowBound(d.Dims[k].Hi, row, j, r, np)
				if !ok {
					return 0, false
				}
				stride *= hi - lo + 1
			}
		}
		return tableElem(st, r, off)
	case *apt.Unary:
		x, ok := ev.rowBound(e.X, row, j, r, np)
		switch e.Op {
		case apt.OpNeg:
			return -x, ok
		case apt.OpPlus:
			return x, ok
		}
	case *apt.Binary:
		x, ok1 := ev.rowBound(e.X, row, j, r, np)
		y, ok2 := ev.rowBound(e.Y, row, j, r, np)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Op {
		case apt.OpAdd:
			return x + y, true
		case apt.OpSub:
			return x - y, true
		case apt.OpMul:
			return x * y, true
		case apt.OpDiv:
			if y == 0 {
				return 0, false
			}
			return x / y, true
		}
	case *apt.FuncCall:
		// An integer intrinsic (MIN, MAX, ABS, MOD, MODULO, ...) of
		// such values, as the evaluation computes it (intrinsics).
		fn, ok := intrinsics[e.Name]
		if !e.Intrinsic || !ok || len(e.Args) < fn.min || e.Type.Base != apt.TypeInteger {
			return 0, false
		}
		args := make([]symbolic.Expr, len(e.Args))
		for k, a := range e.Args {
			x, ok := ev.rowBound(a, row, j, r, np)
			if !ok {
				return 0, false
			}
			args[k] = symbolic.Int(x)
		}
		if v, ok := fn.f(args); ok {
			return v.Int64()
		}
	}
	return 0, false
}

// readsTableData reports whether l reads an array a concrete run or a
// collective of known numbers left as a table (tables.go): values only
// a run of the loop follows further.
func (ev *evaluator) readsTableData(l *apt.Loop) bool {
	for name := range nodeReads([]apt.Node{l}) {
		if ev.holdsTable(name) {
			return true
		}
	}
	// A structure's pointer field (A.col[k], A->col[k]): the storage
	// the field points into, which no name of the loop's is.
	found := false
	eachReadExpr([]apt.Node{l}, func(e apt.Expr) {
		if !found {
			found = ev.fieldTableIn(e)
		}
	}, func() {})
	return found
}

// fieldTableIn reports whether e reads an element through a structure's
// pointer field whose storage is held as a table.
func (ev *evaluator) fieldTableIn(e apt.Expr) bool {
	found := false
	apt.InspectExpr(e, func(x apt.Expr) bool {
		if ix, ok := x.(*apt.Index); ok && ix.Base != nil && ev.indexHoldsTable(ix) {
			found = true
		}
		return !found
	})
	return found
}

// indexHoldsTable reports whether the array the element reference ix
// reaches is held as a table: a named array's (holdsTable), or the
// storage a structure's pointer field points into.
func (ev *evaluator) indexHoldsTable(ix *apt.Index) bool {
	if ix.Base == nil {
		return ev.holdsTable(ix.Name)
	}
	if len(ix.Subs) != 1 {
		return false
	}
	p, ok := ev.fieldPointed(ix)
	if !ok {
		return false
	}
	v, ok := ev.env.lookup(p.key())
	return ok && v.arr != nil && v.arr.tab != nil
}

// writesTableData reports whether l stores into an array held as a table
// (clears a table of key counts, adds to its elements), or at places a
// table decides (a[t[i]] = x; p = &a[t[b]], then p[j] = x): a walk of the
// loop for all its iterations at once would lose the table, or store at
// offsets it knows only rank by rank; a run keeps them.
func (ev *evaluator) writesTableData(l *apt.Loop) bool {
	found := false
	apt.Inspect(l, func(n apt.Node) bool {
		if blk, ok := n.(*apt.Block); ok && !found {
			for _, s := range blk.Stmts {
				if ix, ok := s.Target.(*apt.Index); ok {
					found = found || ev.indexHoldsTable(ix) || ev.tableIn(ix.Subs...)
				}
				if ix, ok := s.Value.(*apt.Index); ok && !s.Load && ev.prog.Notation() != apt.Fortran {
					// An address the statement takes (C's p = &a[k]).
					found = found || ev.tableIn(ix.Subs...)
				}
			}
		}
		return !found
	})
	return found
}

// tableIn reports whether one of es reads an element of an array held
// as a table.
func (ev *evaluator) tableIn(es ...apt.Expr) bool {
	found := false
	for _, e := range es {
		if e == nil || found {
			continue
		}
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if ix, ok := x.(*apt.Index); ok && ev.indexHoldsTable(ix) {
				found = true
			}
			return !found
		})
	}
	return found
}

// countsReadTables reports whether the counts of l's body rest on tables:
// a loop bound or a branch condition inside it reads an array held as a
// table (for j < a[i], the elements a run of the program drew), so that
// only a run of l counts it.
func (ev *evaluator) countsReadTables(l *apt.Loop) bool {
	found := false
	apt.Inspect(&apt.Loop{Body: l.Body}, func(n apt.Node) bool {
		switch x := n.(type) {
		case *apt.Loop:
			found = ev.tableIn(x.Lower, x.Upper, x.Step, x.While)
		case *apt.If:
			found = ev.tableIn(x.Selector)
			for _, b := range x.Branches {
				found = found || ev.tableIn(b.Cond)
			}
		}
		return !found
	})
	return found
}

// holdsTable reports whether the array name reaches is held as a table:
// its own storage, or for a C pointer the storage it points into.
func (ev *evaluator) holdsTable(name string) bool {
	keys := ev.elementKeys(name)
	v, ok := ev.env.lookup(keys[len(keys)-1])
	return ok && v.arr != nil && v.arr.tab != nil
}

// tableElem is element off of rank r's row of the table st holds.
func tableElem(st *arrayState, r, off int64) (int64, bool) {
	vals, known := st.tab.row(r)
	if off < 0 || off >= int64(len(vals)) || !known[off] {
		return 0, false
	}
	return vals[off], true
}

// sweepBounds are the bounds of l, the inner loop of a sweep over rows
// (the row loop rf's), with each scalar the row's own statements set
// once before it replaced by what they set it to: do j = 0, cur_nnz - 1
// after cur_nnz = A->nnz_in_row[i] reads the table as do j = 0,
// A->nnz_in_row[i] - 1 does, on every row.
func (ev *evaluator) sweepBounds(l *apt.Loop, rf *loopFrame) (lo, hi apt.Expr) {
	defs := ev.rowDefs(rf.loop, l)
	delete(defs, rf.rowVar) // the counter steps once per row
	if len(defs) == 0 {
		return l.Lower, l.Upper
	}
	sub := func(n *apt.Name) apt.Expr {
		if e, ok := defs[n.Name]; ok {
			return e
		}
		return n
	}
	return substNames(l.Lower, sub), substNames(l.Upper, sub)
}

// rowDefs are the local scalars the body of the row loop sets exactly
// once, by a statement of its own before the inner loop (no branch, loop
// or call around it), and passes to no call: each holds, on every row,
// the value of the expression assigned.
func (ev *evaluator) rowDefs(row, inner *apt.Loop) map[string]apt.Expr {
	r := ev.frame().routine
	sets := map[string]int{}
	passed := func(e apt.Expr) {
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if fc, ok := x.(*apt.FuncCall); ok && !fc.Intrinsic {
				for _, a := range fc.Args {
					if nm, ok := a.(*apt.Name); ok {
						sets[nm.Name] += 2
					}
				}
			}
			return true
		})
	}
	apt.Inspect(&apt.Loop{Body: row.Body}, func(n apt.Node) bool {
		switch x := n.(type) {
		case *apt.Block:
			for _, s := range x.Stmts {
				if nm, ok := s.Target.(*apt.Name); ok {
					sets[nm.Name]++
				} else if s.Target != nil {
					passed(s.Target)
				}
				passed(s.Value)
				for _, a := range s.Args {
					if nm, ok := a.(*apt.Name); ok {
						sets[nm.Name] += 2
					}
				}
			}
		case *apt.Loop:
			if x.Var != "" {
				sets[x.Var]++
			}
		case *apt.Call:
			for _, a := range x.Args {
				if nm, ok := a.(*apt.Name); ok {
					sets[nm.Name] += 2
				}
				passed(a)
			}
		}
		return true
	})
	var defs map[string]apt.Expr
	for _, n := range row.Body {
		if n == apt.Node(inner) {
			break
		}
		b, ok := n.(*apt.Block)
		if !ok {
			continue
		}
		for _, s := range b.Stmts {
			nm, ok := s.Target.(*apt.Name)
			if !ok || s.Kind != apt.StmtAssign || s.Load || sets[nm.Name] != 1 {
				continue
			}
			d := ev.prog.Resolve(r, nm.Name)
			if d == nil || d.IsArray() || d.Type.Base != apt.TypeInteger || r.Scope.Lookup(nm.Name) != d || d.Save || d.InCommon || len(d.Init) > 0 {
				continue
			}
			if defs == nil {
				defs = map[string]apt.Expr{}
			}
			defs[nm.Name] = s.Value
		}
	}
	return defs
}
