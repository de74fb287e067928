package symeval

import (
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
	if len(f.Args) == 0 || len(f.Args) > 2 {
		return Value{}, false
	}
	located := f.Name == "minloc" || f.Name == "maxloc"
	if len(f.Args) == 2 {
		d := f.Args[1]
		if k, ok := d.(*apt.Keyword); ok {
			if k.Name != "dim" {
				return Value{}, false
			}
			d = k.Value
		}
		if c, ok := d.(*apt.Const); !ok || c.Text != "1" {
			return Value{}, false
		}
	} else if located {
		return Value{}, false // an array of one element: not a scalar
	}
	elems, ok := ev.arrayElements(f.Args[0])
	if !ok || len(elems) == 0 && located {
		return Value{}, false
	}
	consts := make([]symbolic.Rat, len(elems))
	allConst := true
	for i, e := range elems {
		c, ok := e.Const()
		consts[i] = c
		allConst = allConst && ok
	}
	switch f.Name {
	case "sum":
		s := symbolic.Int(0)
		for _, e := range elems {
			s = s.Add(e)
		}
		return Known(s), true
	case "product":
		p := symbolic.Int(1)
		for _, e := range elems {
			p = p.Mul(e)
		}
		return Known(p), true
	}
	if !allConst {
		return Value{}, false
	}
	switch f.Name {
	case "count", "any", "all":
		n := int64(0)
		for _, c := range consts {
			if !c.IsZero() {
				n++
			}
		}
		switch f.Name {
		case "any":
			return Known(symbolic.Int(b2i(n > 0))), true
		case "all":
			return Known(symbolic.Int(b2i(n == int64(len(consts))))), true
		}
		return Known(symbolic.Int(n)), true
	}
	if len(consts) == 0 {
		return Value{}, false // MAXVAL of nothing is the most negative number
	}
	best := 0
	for i, c := range consts {
		less := c.Cmp(consts[best]) < 0
		if f.Name == "maxval" || f.Name == "maxloc" {
			less = c.Cmp(consts[best]) > 0
		}
		if less {
			best = i // the first of equal ones stays
		}
	}
	if located {
		return Known(symbolic.Int(int64(best + 1))), true
	}
	return Known(symbolic.Const(consts[best])), true
}

// arrayElements is the value of each element of a one-dimensional array,
// a section of one, or a mask comparing one with a scalar, in order.
func (ev *evaluator) arrayElements(e apt.Expr) ([]symbolic.Expr, bool) {
	if b, ok := e.(*apt.Binary); ok && b.Op.IsRelational() {
		if xs, ok := ev.arrayRefs(b.X); ok && !isArrayRef(ev, b.Y) {
			return ev.elementwise(xs, func(x apt.Expr) apt.Expr { return &apt.Binary{Pos: b.Pos, Op: b.Op, X: x, Y: b.Y} })
		}
		if ys, ok := ev.arrayRefs(b.Y); ok && !isArrayRef(ev, b.X) {
			return ev.elementwise(ys, func(y apt.Expr) apt.Expr { return &apt.Binary{Pos: b.Pos, Op: b.Op, X: b.X, Y: y} })
		}
		return nil, false
	}
	refs, ok := ev.arrayRefs(e)
	if !ok {
		return nil, false
	}
	return ev.elementwise(refs, func(x apt.Expr) apt.Expr { return x })
}

// elementwise evaluates form(ref) for each element reference.
func (ev *evaluator) elementwise(refs []apt.Expr, form func(apt.Expr) apt.Expr) ([]symbolic.Expr, bool) {
	out := make([]symbolic.Expr, 0, len(refs))
	for _, r := range refs {
		v, ok := ev.closedInt(ev.value(form(r)), r.At()).Single()
		if !ok {
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
	switch x := e.(type) {
	case *apt.Name:
		name = x.Name
	case *apt.Index:
		if x.Base != nil || len(x.Subs) != 1 {
			return nil, false
		}
		s, ok := x.Subs[0].(*apt.Section)
		if !ok {
			return nil, false
		}
		name, sec = x.Name, s
	default:
		return nil, false
	}
	decl := ev.prog.Resolve(ev.frame().routine, name)
	if decl == nil || len(decl.Dims) != 1 || decl.Param != nil {
		return nil, false
	}
	bs, ok := ev.arrayBounds(name, decl)
	if !ok || len(bs) != 1 {
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
		out = append(out, &apt.Index{Pos: e.At(), Name: name, Type: t,
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
