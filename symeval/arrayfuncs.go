package symeval

import (
	"slices"
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Fortran's array reductions (SUM, PRODUCT, MAXVAL, MINVAL, MAXLOC and
// MINLOC along DIM=1, COUNT, ANY, ALL) of a one-dimensional array, or
// section, whose elements the evaluation knows: a set-up that picks a
// sweep order by MINLOC of the stage counts, or counts the tasks with
// COUNT(do_task > 0), is evaluated as the run evaluates it. A mask is an
// array compared with a scalar. Anything else (MASK=, DIM= of another
// dimension, an unknown element) leaves the result unknown, as before.

// maxReducedElements bounds the elements one reduction goes over.
const maxReducedElements = 4096

// arrayReduction evaluates the intrinsic f where it is one of these; ok
// is false otherwise.
func (ev *evaluator) arrayReduction(f *apt.FuncCall) (Value, bool) {
	switch f.Name {
	case "sum", "product", "maxval", "minval", "minloc", "maxloc", "count", "any", "all":
	default:
		return Value{}, false
	}
	if len(f.Args) == 0 || len(f.Args) > 3 {
		return Value{}, false
	}
	located := f.Name == "minloc" || f.Name == "maxloc"
	// DIM (1 only: the arrays are one-dimensional) and MASK, by keyword
	// or by position: SUM(ARRAY, MASK) takes a logical second argument
	// for the mask, SUM(ARRAY, DIM, MASK) a third (Fortran 2018 16.9).
	var mask apt.Expr
	dimSeen := false
	for i, a := range f.Args[1:] {
		name := ""
		if k, ok := a.(*apt.Keyword); ok {
			name, a = k.Name, k.Value
		} else if f.Name == "count" || f.Name == "any" || f.Name == "all" {
			name = "dim" // COUNT(MASK, DIM): no second mask
		} else if i == 1 || apt.TypeOf(a).Base == apt.TypeLogical {
			name = "mask"
		} else {
			name = "dim"
		}
		switch name {
		case "dim":
			if c, ok := a.(*apt.Const); !ok || c.Text != "1" {
				return Value{}, false
			}
			dimSeen = true
		case "mask":
			mask = a
		default:
			return Value{}, false // KIND=, BACK=
		}
	}
	if located && !dimSeen {
		return Value{}, false // an array of one element: not a scalar
	}
	vals, ok := ev.arrayElements(f.Args[0])
	if !ok && (mask == nil || ev.scalarExpr(mask)) {
		// Too many elements to list, or a number of them that is a
		// closed form: one value in every element still reduces.
		if v, ok := ev.uniformReduction(f.Name, f.Args[0], mask); ok {
			return v, true
		}
	}
	if !ok || len(vals) == 0 && located {
		return Value{}, false
	}
	n := len(vals)
	if mask != nil {
		var ms []Value
		if ev.scalarExpr(mask) {
			ms = slices.Repeat([]Value{ev.value(mask)}, n)
		} else if ms, ok = ev.arrayElements(mask); !ok || len(ms) != n {
			return Value{}, false
		}
		vals = append(vals, ms...)
	}
	// Elements that differ by rank (a process's stage counts from its
	// coordinates) are reduced rank by rank.
	return ev.combine(vals, func(es []symbolic.Expr) (symbolic.Expr, bool) {
		if len(es) == n {
			return reduceElements(f.Name, es)
		}
		// The elements where the mask holds, in order; the position
		// MAXLOC gives is still the array's.
		var kept []symbolic.Expr
		var at []int
		for i, m := range es[n:] {
			c, ok := m.Const()
			if !ok {
				return symbolic.Expr{}, false
			}
			if !c.IsZero() {
				kept = append(kept, es[i])
				at = append(at, i)
			}
		}
		r, ok := reduceElements(f.Name, kept)
		if ok && located {
			k, _ := r.Int64()
			r = symbolic.Int(int64(at[k-1] + 1))
		}
		return r, ok
	})
}

// reduceElements is the reduction name of elements, where it is known:
// SUM and PRODUCT of any, the others of constants.
func reduceElements(name string, elems []symbolic.Expr) (symbolic.Expr, bool) {
	located := name == "minloc" || name == "maxloc"
	consts := make([]symbolic.Rat, len(elems))
	allConst := true
	for i, e := range elems {
		c, ok := e.Const()
		consts[i] = c
		allConst = allConst && ok
	}
	switch name {
	case "sum":
		s := symbolic.Int(0)
		for _, e := range elems {
			s = s.Add(e)
		}
		return s, true
	case "product":
		p := symbolic.Int(1)
		for _, e := range elems {
			p = p.Mul(e)
		}
		return p, true
	}
	if !allConst {
		return symbolic.Expr{}, false
	}
	switch name {
	case "count", "any", "all":
		n := int64(0)
		for _, c := range consts {
			if !c.IsZero() {
				n++
			}
		}
		switch name {
		case "any":
			return symbolic.Int(b2i(n > 0)), true
		case "all":
			return symbolic.Int(b2i(n == int64(len(consts)))), true
		}
		return symbolic.Int(n), true
	}
	if len(consts) == 0 {
		return symbolic.Expr{}, false // MAXVAL of nothing is the most negative number
	}
	best := 0
	for i, c := range consts {
		less := c.Cmp(consts[best]) < 0
		if name == "maxval" || name == "maxloc" {
			less = c.Cmp(consts[best]) > 0
		}
		if less {
			best = i // the first of equal ones stays
		}
	}
	if located {
		return symbolic.Int(int64(best + 1)), true
	}
	return symbolic.Const(consts[best]), true
}

// byRankOf is f of the values vs rank by rank, at a point where each is
// a number on every rank (an expression in the rank, or alternatives
// whose guards are conditions on the rank alone): f sees each rank's
// numbers, and the ranks with equal results are one alternative.
func (ev *evaluator) byRankOf(vs []Value, f func([]symbolic.Expr) (symbolic.Expr, bool)) (Value, bool) {
	np, ok := ev.values[Size]
	if !ok || np < 1 || np > maxTabulatedP {
		return Value{}, false
	}
	if r, fixed := ev.values[Rank]; fixed {
		return ev.atRank(vs, r, np, f)
	}
	ranks, ok := ev.pathRanks(np)
	if !ok || len(ranks) == 0 {
		return Value{}, false
	}
	if len(ranks) == 1 {
		// The path holds at one rank (a loop run rank by rank).
		return ev.atRank(vs, ranks[0], np, f)
	}
	at := make([][]int32, len(vs))
	for i, v := range vs {
		if !v.IsKnown() || !rankGuards(v) {
			return Value{}, false
		}
		if at[i], ok = ev.altsByRank(v, np); !ok {
			return Value{}, false
		}
	}
	groups := newRankGroups(np)
	args := make([]symbolic.Expr, len(vs))
	for _, r := range ranks {
		env := map[string]symbolic.Rat{Rank: symbolic.RatInt(r), Size: symbolic.RatInt(np)}
		inDomain := true
		for i, v := range vs {
			j := at[i][r]
			if j < 0 {
				inDomain = false
				break
			}
			c, err := v.Alts[j].E.Eval(env)
			if err != nil {
				return Value{}, false
			}
			args[i] = symbolic.Const(c)
		}
		if !inDomain {
			continue
		}
		e, ok := f(args)
		if !ok {
			return Value{}, false
		}
		if groups.of(e).ranks[r] = true; len(groups.list) > maxCombos {
			return Value{}, false
		}
	}
	out, ok := groups.alts(ev)
	if !ok || !ev.fits(out) {
		return Value{}, false
	}
	return Value{Alts: out}, true
}

// atRank is f of the values vs at rank r.
func (ev *evaluator) atRank(vs []Value, r, np int64, f func([]symbolic.Expr) (symbolic.Expr, bool)) (Value, bool) {
	env := map[string]symbolic.Rat{Rank: symbolic.RatInt(r), Size: symbolic.RatInt(np)}
	args := make([]symbolic.Expr, len(vs))
	for i, v := range vs {
		if !v.IsKnown() || !rankGuards(v) {
			return Value{}, false
		}
		idx, ok := ev.altsByRank(v, np)
		if !ok || idx[r] < 0 {
			return Value{}, false
		}
		c, err := v.Alts[idx[r]].E.Eval(env)
		if err != nil {
			return Value{}, false
		}
		args[i] = symbolic.Const(c)
	}
	e, ok := f(args)
	if !ok {
		return Value{}, false
	}
	return Known(e), true
}

// combine is f of the values vs: of their expressions where each is one,
// otherwise rank by rank (byRankOf).
func (ev *evaluator) combine(vs []Value, f func([]symbolic.Expr) (symbolic.Expr, bool)) (Value, bool) {
	es := make([]symbolic.Expr, len(vs))
	single := true
	for i, v := range vs {
		var ok bool
		if es[i], ok = v.Single(); !ok {
			single = false
			break
		}
	}
	if single {
		if e, ok := f(es); ok {
			return Known(e), true
		}
	}
	return ev.byRankOf(vs, f)
}

// arrayElements is the value of each element of a one-dimensional array,
// a section of one, or a mask comparing one with a scalar, in order.
func (ev *evaluator) arrayElements(e apt.Expr) ([]Value, bool) {
	if b, ok := e.(*apt.Binary); ok && b.Op.IsRelational() {
		if xs, ok := ev.arrayRefs(b.X); ok && !isArrayRef(ev, b.Y) {
			return ev.elementwise(xs, func(x apt.Expr) apt.Expr { return &apt.Binary{Pos: b.Pos, Op: b.Op, X: x, Y: b.Y} })
		}
		if ys, ok := ev.arrayRefs(b.Y); ok && !isArrayRef(ev, b.X) {
			return ev.elementwise(ys, func(y apt.Expr) apt.Expr { return &apt.Binary{Pos: b.Pos, Op: b.Op, X: b.X, Y: y} })
		}
		// (A comparison of elemental expressions, mod(ids, 4) == 1:
		// element by element below.)
	}
	refs, ok := ev.arrayRefs(e)
	if ok {
		return ev.elementwise(refs, func(x apt.Expr) apt.Expr { return x })
	}
	// An elemental expression of arrays and scalars (owner == me .and.
	// active): element k of each array operand (Fortran 2018 10.1.4).
	total := -1
	apt.InspectExpr(e, func(x apt.Expr) bool {
		if total >= 0 {
			return false
		}
		if rs, ok := ev.arrayRefs(x); ok {
			total = len(rs)
			return false
		}
		return true
	})
	if total < 0 || ev.scalarExpr(e) {
		return nil, false
	}
	els := make([]apt.Expr, total)
	for k := range total {
		x, ok := ev.elementOfExpr(e, k, total)
		if !ok {
			return nil, false
		}
		els[k] = x
	}
	return ev.elementwise(els, func(x apt.Expr) apt.Expr { return x })
}

// elementwise evaluates form(ref) for each element reference.
func (ev *evaluator) elementwise(refs []apt.Expr, form func(apt.Expr) apt.Expr) ([]Value, bool) {
	out := make([]Value, 0, len(refs))
	for _, r := range refs {
		v := ev.closedInt(ev.value(form(r)), r.At())
		if !v.IsKnown() {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// isArrayRef reports whether e names a whole array or a section.
func isArrayRef(ev *evaluator, e apt.Expr) bool {
	_, ok := ev.arrayRefs(e)
	return ok
}

// arrayRefs are the references to the elements of a one-dimensional
// array a name or a section of it designates, where its bounds are known.
func (ev *evaluator) arrayRefs(e apt.Expr) ([]apt.Expr, bool) {
	var name string
	var sec *apt.Section
	var base apt.Expr // the object of an array component
	switch x := e.(type) {
	case *apt.Name:
		name = x.Name
	case *apt.Component:
		if elems, ok := ev.arrayRefs(x.Base); ok && apt.TypeOf(x.Base).Base == apt.TypeDerived {
			// A scalar component of every element of an array of a
			// derived type (sum(pt%nx)): that component of each.
			if f := ev.fieldOfType(apt.TypeOf(x.Base).Derived, x.Field); f != nil && !f.IsArray() {
				out := make([]apt.Expr, len(elems))
				for i, el := range elems {
					out[i] = &apt.Component{Pos: x.Pos, Base: el, Field: x.Field, Type: f.Type}
				}
				return out, true
			}
		}
		// A whole array component of a variable (m%flags).
		if !x.Array {
			return nil, false
		}
		name, base = x.Field, x.Base
	case *apt.Index:
		if len(x.Subs) != 1 {
			return nil, false
		}
		s, ok := x.Subs[0].(*apt.Section)
		if !ok {
			return nil, false
		}
		name, sec, base = x.Name, s, x.Base
	default:
		return nil, false
	}
	var decl *apt.Var
	var bs []bound
	if base == nil {
		decl = ev.prog.Resolve(ev.frame().routine, name)
		if decl == nil || len(decl.Dims) != 1 {
			return nil, false
		}
		var ok bool
		if bs, ok = ev.arrayBounds(name, decl); !ok {
			return nil, false
		}
	} else {
		decl = ev.storedDecl(&apt.Index{Base: base, Name: name})
		if decl == nil || len(decl.Dims) != 1 {
			return nil, false
		}
		var ok bool
		if bs, ok = ev.componentBounds(&apt.Component{Base: base, Field: name, Type: decl.Type, Array: true}); !ok {
			return nil, false
		}
	}
	if len(bs) != 1 {
		return nil, false
	}
	lo, ok1 := valueInt(bs[0].lo)
	ext, ok2 := valueInt(bs[0].ext)
	if !ok1 || !ok2 {
		return nil, false
	}
	first, last, step := lo, lo+ext-1, int64(1)
	if sec != nil {
		var ok bool
		if sec.Lo != nil {
			if first, ok = valueInt(ev.closedInt(ev.value(sec.Lo), sec.Pos)); !ok {
				return nil, false
			}
		}
		if sec.Hi != nil {
			if last, ok = valueInt(ev.closedInt(ev.value(sec.Hi), sec.Pos)); !ok {
				return nil, false
			}
		}
		if sec.Stride != nil {
			if step, ok = valueInt(ev.closedInt(ev.value(sec.Stride), sec.Pos)); !ok || step == 0 {
				return nil, false
			}
		}
	}
	n := (last - first + step) / step
	if n < 0 {
		n = 0
	}
	if n > maxReducedElements {
		return nil, false
	}
	t := decl.Type
	out := make([]apt.Expr, 0, n)
	for k := int64(0); k < n; k++ {
		i := first + k*step
		out = append(out, &apt.Index{Pos: e.At(), Name: name, Base: base, Type: t,
			Subs: []apt.Expr{&apt.Const{Kind: apt.ConstInt, Text: strconv.FormatInt(i, 10), Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}}})
	}
	return out, true
}

// valueInt is the integer a value is, where it is one constant.
func valueInt(v Value) (int64, bool) {
	e, ok := v.Single()
	if !ok {
		return 0, false
	}
	return e.Int64()
}
