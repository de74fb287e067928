package symeval

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// maxInitElems bounds the elements an initialiser is expanded to: tables
// of settings and process grids are a few; a larger one stays unknown.
const maxInitElems = 4096

// initState is the state an array's initialiser (or a named constant
// array's value) gives it before any statement runs: DATA values in array element order (r*c standing for r
// copies of c), a declaration's scalar given to every element (Fortran
// 2018 8.2: `logical :: periods(2) = .false.`), a constructor's elements in
// order, flattened and with implied DOs expanded, or RESHAPE of one (its
// source is already in array element order). An initialiser it cannot
// expand leaves the elements unknown, never placed at the wrong offsets.
func (ev *evaluator) initState(d *apt.Var) *arrayState {
	st := &arrayState{}
	if d.Param != nil && d.IsArray() && len(d.Init) == 0 {
		// A named constant array (integer, parameter :: offs(2, 4) =
		// reshape(...)): its value, as an initialiser's.
		c := *d
		c.Init, c.Data = []apt.Expr{d.Param}, false
		d = &c
	}
	if len(d.Init) == 0 {
		return st
	}
	var vals []Value
	ok := true
	if d.Data {
		for _, e := range d.Init {
			if b, rep := e.(*apt.Binary); rep && b.Op == apt.OpMul {
				r, known := valueInt(ev.value(b.X))
				if !known || r < 0 || int64(len(vals))+r > maxInitElems {
					ok = false
					break
				}
				v := ev.value(b.Y)
				for range r {
					vals = append(vals, v)
				}
				continue
			}
			vals = append(vals, ev.value(e))
		}
	} else if len(d.Init) == 1 {
		e := d.Init[0]
		if f, isCall := e.(*apt.FuncCall); isCall && f.Name == "reshape" && len(f.Args) >= 2 && len(f.Args) <= 3 {
			// RESHAPE(source, shape) with no PAD or ORDER: the source's
			// elements in order.
			if _, kw := f.Args[len(f.Args)-1].(*apt.Keyword); len(f.Args) == 2 && !kw {
				e = f.Args[0]
			}
		}
		if cons, isCons := e.(*apt.ArrayCons); isCons {
			vals, ok = ev.consValues(cons.Elems, nil)
		} else if ev.scalarExpr(e) {
			v := ev.value(e)
			st.base = &v
			return st
		} else {
			ok = false
		}
	} else {
		ok = false
	}
	if !ok {
		st.clobbered = true
		return st
	}
	for i, v := range vals {
		st.stores = append(st.stores, &arrayStore{off: symbolic.Int(int64(i)), val: v})
	}
	return st
}

// consValues appends the values of a constructor's elements to vals: a
// nested constructor's in order, an implied DO's for each value of its
// variable (which is the constructor's own, so the program's variable of
// that name is left as it was). It reports false for an element that is an
// array or a loop whose bounds are not known numbers.
func (ev *evaluator) consValues(elems []apt.Expr, vals []Value) ([]Value, bool) {
	for _, e := range elems {
		if len(vals) > maxInitElems {
			return nil, false
		}
		switch x := e.(type) {
		case *apt.ArrayCons:
			var ok bool
			if vals, ok = ev.consValues(x.Elems, vals); !ok {
				return nil, false
			}
		case *apt.ImpliedDo:
			lo, ok1 := valueInt(ev.value(x.Lo))
			hi, ok2 := valueInt(ev.value(x.Hi))
			step, ok3 := int64(1), true
			if x.Step != nil {
				step, ok3 = valueInt(ev.value(x.Step))
			}
			if !ok1 || !ok2 || !ok3 || step == 0 || (hi-lo)/step+1 > maxInitElems {
				return nil, false
			}
			k := ev.key(x.Var)
			old, had := ev.env.lookup(k)
			for i := lo; step > 0 && i <= hi || step < 0 && i >= hi; i += step {
				ev.env.set(k, Known(symbolic.Int(i)))
				if vals, ok1 = ev.consValues(x.Items, vals); !ok1 {
					break
				}
			}
			if had {
				ev.env.set(k, old)
			} else {
				ev.env.del(k)
			}
			if !ok1 {
				return nil, false
			}
		default:
			if !ev.scalarExpr(e) {
				return nil, false
			}
			vals = append(vals, ev.value(e))
		}
	}
	return vals, true
}
