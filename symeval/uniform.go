package symeval

import (
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Reductions of an array that holds one value in every element. A set-up
// fills an array whole (do_grp = 1, a flag per group) and then reduces it
// (COUNT(do_task > 0) for the number of tasks): where the array's extent
// is a closed form (its size was read from input the user did not give,
// or given with -D) or past the elements a reduction lists one by one,
// arrayReduction cannot list the elements, but it need not: n elements of
// value v count n where v is nonzero and none where it is zero, sum to
// n*v, and any of them is the maximum, the first the location.

// uniformReduction is reduction name of arg (a whole one-dimensional
// array, or an array compared with a scalar) under the scalar mask (nil:
// none), where every element of the array holds one value; ok is false
// otherwise.
func (ev *evaluator) uniformReduction(name string, arg, mask apt.Expr) (Value, bool) {
	ref, form := arg, func(x apt.Expr) apt.Expr { return x }
	if b, ok := arg.(*apt.Binary); ok && b.Op.IsRelational() {
		switch {
		case ev.scalarExpr(b.Y):
			ref = b.X
			form = func(x apt.Expr) apt.Expr { return &apt.Binary{Pos: b.Pos, Op: b.Op, X: x, Y: b.Y} }
		case ev.scalarExpr(b.X):
			ref = b.Y
			form = func(x apt.Expr) apt.Expr { return &apt.Binary{Pos: b.Pos, Op: b.Op, X: b.X, Y: x} }
		default:
			return Value{}, false
		}
	}
	nm, ok := ref.(*apt.Name)
	if !ok {
		return Value{}, false
	}
	decl := ev.prog.Resolve(ev.frame().routine, nm.Name)
	if decl == nil || len(decl.Dims) != 1 || !tracked(decl.Type) {
		return Value{}, false
	}
	bs, ok := ev.arrayBounds(nm.Name, decl)
	if !ok || len(bs) != 1 {
		return Value{}, false
	}
	lo, ok1 := valueInt(bs[0].lo)
	n, ok2 := bs[0].ext.Single()
	if !ok1 || !ok2 {
		return Value{}, false
	}
	first := &apt.Index{Pos: nm.Pos, Name: nm.Name, Type: decl.Type,
		Subs: []apt.Expr{&apt.Const{Pos: nm.Pos, Kind: apt.ConstInt, Text: strconv.FormatInt(lo, 10), Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}}}
	key, _, ok := ev.indexRef(first)
	if !ok || key == "" {
		return Value{}, false
	}
	// One value everywhere: a whole-array assignment of a scalar, and no
	// store since (assignWhole).
	st := ev.arrayOf(key, decl)
	if st == nil || st.clobbered || st.tab != nil || len(st.stores) > 0 || len(st.sums) > 0 || st.base == nil || !st.base.IsKnown() {
		return Value{}, false
	}
	v := ev.closedInt(ev.value(form(first)), nm.Pos)
	if !v.IsKnown() {
		return Value{}, false
	}
	// The result per alternative of the value (a comparison with a
	// closed form is one per outcome) and of the mask.
	masks := []Alt{{E: symbolic.Int(1)}}
	if mask != nil {
		m := ev.closedInt(ev.value(mask), mask.At())
		if !m.IsKnown() {
			return Value{}, false
		}
		masks = m.Alts
	}
	cnt, counted := n.Int64()
	var out []Alt
	for _, a := range v.Alts {
		for _, m := range masks {
			r, ok := uniformResult(name, a.E, m.E, n, counted && cnt >= 1)
			if !ok {
				return Value{}, false
			}
			out = append(out, Alt{Guard: and(a.Guard, m.Guard), E: r})
		}
	}
	return Value{Alts: out}, true
}

// uniformResult is reduction name of n elements of value e under the
// scalar mask m (nonzero: every element; zero: none); nonEmpty says n is
// known to be at least 1.
func uniformResult(name string, e, m, n symbolic.Expr, nonEmpty bool) (symbolic.Expr, bool) {
	mc, ok := m.Const()
	if !ok {
		return symbolic.Expr{}, false
	}
	items := n
	if mc.IsZero() {
		items, nonEmpty = symbolic.Int(0), false
	}
	// An extent is never below 0 (arrayBounds): min(n, 1) is 1 where
	// there are elements.
	some := symbolic.Min(items, symbolic.Int(1))
	switch name {
	case "sum":
		return items.Mul(e), true
	case "count", "any", "all":
		c, ok := e.Const()
		if !ok {
			return symbolic.Expr{}, false
		}
		switch {
		case name == "count" && c.IsZero():
			return symbolic.Int(0), true
		case name == "count":
			return items, true
		case name == "any" && c.IsZero():
			return symbolic.Int(0), true
		case name == "any":
			return some, true
		case c.IsZero(): // ALL of none is true
			return symbolic.Int(1).Sub(some), true
		}
		return symbolic.Int(1), true
	case "maxval", "minval", "maxloc", "minloc":
		// Of no elements the value is the type's extreme and the
		// location 0: only where there are elements.
		if !nonEmpty {
			return symbolic.Expr{}, false
		}
		if name == "maxloc" || name == "minloc" {
			return symbolic.Int(1), true
		}
		return e, true
	}
	return symbolic.Expr{}, false
}
