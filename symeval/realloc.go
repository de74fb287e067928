package symeval

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// autoAllocTarget returns the whole allocatable array an assignment
// allocates with its value's shape (cnt = block_counts(n, np), b = a), nil
// for any other assignment: an intrinsic assignment to an allocatable
// array gives it the shape of the expression (Fortran 2018 10.2.1.3).
func (ev *evaluator) autoAllocTarget(s *apt.Stmt) *apt.Name {
	nm, ok := s.Target.(*apt.Name)
	if !ok || !nm.Array || s.Mask != nil || ev.where != nil || ev.prog.FromIR || ev.paramName(nm.Name) != "" {
		return nil
	}
	d := ev.prog.Resolve(ev.frame().routine, nm.Name)
	if d == nil || !d.IsArray() || !d.Allocatable {
		return nil
	}
	switch x := s.Value.(type) {
	case *apt.FuncCall:
		if x.Intrinsic || len(ev.callees(x.Name)) == 0 {
			return nil
		}
	case *apt.Name:
		if !x.Array {
			return nil
		}
	case *apt.ArrayCons:
		// ids = [(i, i = 1, n)], list = [list, x]: the constructor's
		// length (consLength).
	default:
		return nil
	}
	return nm
}

// consLength is the number of elements of a constructor's elements: one
// per scalar, a whole array's size, a nested constructor's length, an
// implied DO's trips times its items' (items of scalars only, whose count
// its variable does not change).
func (ev *evaluator) consLength(elems []apt.Expr) (Value, bool) {
	total := Known(symbolic.Int(0))
	for _, e := range elems {
		var n Value
		switch x := e.(type) {
		case *apt.ArrayCons:
			m, ok := ev.consLength(x.Elems)
			if !ok {
				return Value{}, false
			}
			n = m
		case *apt.ImpliedDo:
			for _, it := range x.Items {
				if !ev.scalarExpr(it) {
					return Value{}, false
				}
			}
			lo, hi := ev.closedInt(ev.value(x.Lo), x.Pos), ev.closedInt(ev.value(x.Hi), x.Pos)
			step := int64(1)
			if x.Step != nil {
				c, ok := valueInt(ev.value(x.Step))
				if !ok || c == 0 {
					return Value{}, false
				}
				step = c
			}
			items := symbolic.Int(int64(len(x.Items)))
			t, ok := lift2(lo, hi, func(a, b symbolic.Expr) (symbolic.Expr, bool) {
				c := symbolic.Int(step)
				return symbolic.Max(symbolic.FloorDiv(b.Sub(a).Add(c), c), symbolic.Int(0)).Mul(items), true
			})
			if !ok || !t.IsKnown() {
				return Value{}, false
			}
			n = t
		default:
			if ev.scalarExpr(e) {
				n = Known(symbolic.Int(1))
				break
			}
			bs, ok := ev.valueBounds(e)
			if !ok || len(bs) == 0 {
				return Value{}, false
			}
			n = Known(symbolic.Int(1))
			for _, b := range bs {
				if n, ok = lift2(n, b.ext, func(a, c symbolic.Expr) (symbolic.Expr, bool) { return a.Mul(c), true }); !ok || !n.IsKnown() {
					return Value{}, false
				}
			}
		}
		var ok bool
		if total, ok = lift2(total, n, func(a, c symbolic.Expr) (symbolic.Expr, bool) { return a.Add(c), true }); !ok || !total.IsKnown() {
			return Value{}, false
		}
	}
	return total, true
}

// reallocate gives the allocatable nm the shape of the value e it was
// assigned: a function's result has its extents and lower bounds of 1;
// a whole array its bounds (LBOUND of a whole array is its own). Where
// the shape is not known, the array's is not either.
func (ev *evaluator) reallocate(nm *apt.Name, e apt.Expr) {
	key := ev.key(nm.Name)
	var bs []bound
	switch x := e.(type) {
	case *apt.FuncCall:
		for _, b := range ev.resultShape {
			bs = append(bs, bound{lo: Known(symbolic.Int(1)), ext: b.ext})
		}
	case *apt.Name:
		bs, _ = ev.valueBounds(x)
		if v, ok := ev.env.lookup(ev.key(x.Name)); ok && v.arr != nil && tracked(nm.Type) && x.Type.Base == nm.Type.Base {
			// Its elements too, which the assignment's value (an
			// array's, not one value) did not carry.
			ev.assignWhole(key, nm.Type, v)
		}
	case *apt.ArrayCons:
		if n, ok := ev.consLength(x.Elems); ok {
			bs = []bound{{lo: Known(symbolic.Int(1)), ext: n}}
		}
		if tracked(nm.Type) {
			// Its elements where each is a number, else unknown.
			st := &arrayState{clobbered: true}
			if vals, ok := ev.consValues(x.Elems, nil); ok {
				st.clobbered = false
				for i, v := range vals {
					st.stores = append(st.stores, &arrayStore{off: symbolic.Int(int64(i)), val: v})
				}
			}
			ev.env.set(key, Value{arr: st})
		}
	}
	ev.resultShape = nil
	d := ev.prog.Resolve(ev.frame().routine, nm.Name)
	if d == nil || len(bs) != len(d.Dims) {
		ev.env.set(shapeKey(key), Value{}) // no shape: every dimension unknown
		ev.env.set(allocStatusKey(key), Known(symbolic.Int(1)))
		return
	}
	if old, ok := ev.shapeAt(key, len(bs)); ok && ev.allocatedNow(key) && sameExtents(old, bs) {
		// Allocated with the value's shape already: not reallocated,
		// its bounds stay.
		return
	}
	ev.setShape(key, bs)
	ev.env.set(allocStatusKey(key), Known(symbolic.Int(1)))
}

// allocatedNow reports whether the allocatable stored at key is known to
// be allocated here.
func (ev *evaluator) allocatedNow(key string) bool {
	v, ok := ev.env.lookup(allocStatusKey(key))
	if !ok {
		return false
	}
	e, single := v.Single()
	return single && symbolic.Equal(e, symbolic.Int(1))
}

// sameExtents reports whether two shapes have extents known to be equal.
func sameExtents(a, b []bound) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		x, ok1 := a[k].ext.Single()
		y, ok2 := b[k].ext.Single()
		if !ok1 || !ok2 || !symbolic.Equal(x, y) {
			return false
		}
	}
	return true
}

// pointArray evaluates the association of an array pointer (p =>
// tab(:, 2), q => w, NULLIFY(p)): the pointer takes its target's bounds (a
// section's with lower bounds 1, a whole array's own), so that SIZE,
// LBOUND and UBOUND of it and the statements over it are counted. Its
// elements are its target's, which the evaluation does not follow through
// the pointer: they are unknown.
func (ev *evaluator) pointArray(s *apt.Stmt) {
	if ev.prog.FromIR {
		return
	}
	if s.Kind == apt.StmtNullify {
		for _, a := range s.Args {
			if nm, ok := a.(*apt.Name); ok && nm.Array && ev.paramName(nm.Name) == "" {
				ev.env.del(shapeKey(ev.key(nm.Name)))
				ev.clobber(ev.key(nm.Name))
			}
		}
		return
	}
	nm, ok := s.Target.(*apt.Name)
	if !ok || !nm.Array || ev.paramName(nm.Name) != "" {
		return
	}
	key := ev.key(nm.Name)
	ev.clobber(key)
	bs, _ := ev.valueBounds(s.Value)
	d := ev.prog.Resolve(ev.frame().routine, nm.Name)
	if d == nil || len(bs) != len(d.Dims) {
		ev.env.del(shapeKey(key))
		return
	}
	ev.setShape(key, bs)
}
