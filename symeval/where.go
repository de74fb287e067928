package symeval

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
)

// whereState is the control mask of a WHERE construct being walked, one
// formula per element in array element order (nil: the element is
// selected everywhere); ok[k] is false where an element's mask is not
// analysable.
type whereState struct {
	f  []counting.Formula
	ok []bool
}

// elemMask is whether one element of a masked assignment is stored: its
// control mask c, decided (dec, to t) where the state decides it; ok is
// false where the mask is not analysable.
type elemMask struct {
	c          counting.Formula
	ok, dec, t bool
}

// whereNode walks a WHERE construct as Fortran 2018 10.2.3.2 executes
// it: the first mask is evaluated before any assignment and selects the
// elements of its branch; each masked ELSEWHERE's mask is evaluated when
// reached, over the elements no mask before selected (the pending control
// mask), and a plain ELSEWHERE takes what is left. Every branch's
// assignments run, each on the elements its control mask selects, so no
// branch is a choice taken with a frequency. A nested construct's masks
// are within the outer one's. Where the masks cannot be split element by
// element, the arrays the construct assigns become unknown.
func (ev *evaluator) whereNode(n *apt.If, parent *Occ) {
	o := ev.newOcc(n, parent)
	if !ev.whereFollowed(n) {
		// Only the program's data is assigned (REAL arrays the
		// evaluation does not follow): no mask to split.
		ev.dataWhere++
		defer func() { ev.dataWhere-- }()
		for _, b := range n.Branches {
			ev.walk(b.Body, ev.newOcc(b, o))
		}
		return
	}
	outer := ev.where
	defer func() { ev.where = outer }()
	var pending *whereState // the elements no mask before selected
	for _, b := range n.Branches {
		var control *whereState
		switch {
		case b.Cond == nil && pending == nil:
			control = outer
		case b.Cond == nil:
			control = pending
		default:
			m, ok := ev.maskElements(b.Cond, outer, pending)
			if ok {
				control = &whereState{}
				next := &whereState{}
				for k := range m.f {
					control.f = append(control.f, and(m.base[k], m.f[k]))
					next.f = append(next.f, and(m.base[k], not(m.f[k])))
					control.ok = append(control.ok, m.ok[k])
					next.ok = append(next.ok, m.ok[k])
				}
				pending = next
			} else {
				control, pending = unanalysable(), unanalysable()
			}
		}
		ev.where = control
		ev.walk(b.Body, ev.newOcc(b, o))
	}
}

// whereFollowed reports whether a WHERE construct assigns an array whose
// elements the evaluation follows (INTEGER, LOGICAL, a small REAL table),
// the only ones its masks matter to.
func (ev *evaluator) whereFollowed(n *apt.If) bool {
	found := false
	apt.Inspect(n, func(x apt.Node) bool {
		b, ok := x.(*apt.Block)
		if !ok || found {
			return !found
		}
		for _, st := range b.Stmts {
			var t apt.Type
			switch tg := st.Target.(type) {
			case *apt.Name:
				t = tg.Type
				if t.Base == apt.TypeReal && ev.paramName(tg.Name) == "" && ev.realTableKey(ev.key(tg.Name)) {
					found = true
				}
			case *apt.Component:
				t = tg.Type
			case *apt.Index:
				t = tg.Type
				if _, small := ev.realTable(tg); small {
					found = true
				}
			}
			found = found || tracked(t)
		}
		return !found
	})
	return found
}

// unanalysable is a control mask the evaluation cannot split: no
// elements, so that every assignment under it makes its array unknown.
func unanalysable() *whereState { return &whereState{} }

// maskedElements is a mask evaluated element by element over the
// elements base selects.
type maskedElements struct {
	f, base []counting.Formula
	ok      []bool
}

// maskElements evaluates the mask m element by element, within the
// elements of pending (or, for a construct's first mask, outer's). The
// element count is the mask's arrays'; ok is false where it has none the
// evaluation can count or an operand it cannot split.
func (ev *evaluator) maskElements(m apt.Expr, outer, pending *whereState) (maskedElements, bool) {
	within := pending
	if within == nil {
		within = outer
	}
	total, ok := ev.maskCount(m)
	if !ok || within != nil && len(within.f) != total {
		return maskedElements{}, false
	}
	out := maskedElements{}
	for k := range total {
		e, ok := ev.elementOfExpr(m, k, total)
		if !ok {
			return maskedElements{}, false
		}
		c, analysable := ev.cond(e)
		var base counting.Formula
		if within != nil {
			base = within.f[k]
			analysable = analysable && within.ok[k]
		}
		out.f = append(out.f, c)
		out.base = append(out.base, base)
		out.ok = append(out.ok, analysable)
	}
	return out, true
}

// maskCount is the element count of the first array a mask names whose
// elements the evaluation can list (arrayRefs).
func (ev *evaluator) maskCount(m apt.Expr) (int, bool) {
	n := -1
	apt.InspectExpr(m, func(x apt.Expr) bool {
		if n >= 0 {
			return false
		}
		switch x.(type) {
		case *apt.Name, *apt.Index, *apt.Component:
			if refs, ok := ev.arrayRefs(x); ok {
				n = len(refs)
				return false
			}
		}
		return true
	})
	return n, n >= 0
}

// stmtMasks returns whether each of the total elements of a masked
// assignment is stored: the construct's control mask (ev.where) and the
// statement's own mask, evaluated element by element before any store.
// ok is false where the masks cannot be split element by element.
func (ev *evaluator) stmtMasks(mask apt.Expr, total int) ([]elemMask, bool) {
	w := ev.where
	if w != nil && len(w.f) != total {
		return nil, false
	}
	out := make([]elemMask, total)
	for k := range out {
		var c counting.Formula
		ok := true
		if w != nil {
			c, ok = w.f[k], w.ok[k]
		}
		if mask != nil {
			e, split := ev.elementOfExpr(mask, k, total)
			if !split {
				return nil, false
			}
			own, analysable := ev.cond(e)
			c, ok = and(c, own), ok && analysable
		}
		out[k] = elemMask{c: c, ok: ok}
		if ok {
			if c == nil {
				out[k].dec, out[k].t = true, true
			} else {
				out[k].t, out[k].dec = ev.decideHere(c)
			}
		}
	}
	return out, true
}

// oldElement is the value the element el of the array decl holds before
// a masked store, for the elements the mask may leave: unknown where the
// evaluation does not know it, undefined where nothing stored it yet.
func (ev *evaluator) oldElement(el *apt.Index, decl *apt.Var) Value {
	key, off, ok := ev.arrayRef(el)
	o, single := off.Single()
	if key == "" || !ok || !single {
		return Value{}
	}
	st := ev.arrayOf(key, decl)
	if alts, ok := ev.readOffset(st, o); ok {
		return Value{Alts: alts}
	}
	if !st.clobbered && st.base == nil && len(st.stores) == 0 {
		return Value{unk: &unknown{hint: el.Name, what: "an element never assigned", undef: true}}
	}
	return Value{}
}

// maskedUnknown evaluates a masked assignment assignSection could not
// take element by element (bounds that are no numbers, a mask it cannot
// split): the elements the mask selects are not known, so the array's are
// not; storing the value into every element would ignore the mask. It
// reports whether the target was such an array.
func (ev *evaluator) maskedUnknown(s *apt.Stmt) bool {
	ev.evalCalls(s.Value)
	if s.Mask != nil {
		ev.evalCalls(s.Mask)
	}
	switch t := s.Target.(type) {
	case *apt.Name:
		if t.Array && ev.paramName(t.Name) == "" {
			ev.clobber(ev.key(t.Name))
			return true
		}
	case *apt.Component:
		if k, ok := ev.refKey(t); ok && t.Array {
			ev.clobber(k)
			return true
		}
	case *apt.Index:
		if k, ok := ev.arrayKey(t); ok {
			ev.clobber(k)
			return true
		}
	}
	return false
}
