package symeval

import (
	"slices"
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// maxSectionElems bounds the elements of an array section an assignment
// stores one by one (a table of a few entries set column by column).
const maxSectionElems = 64

// assignSection evaluates an assignment to a section of an array whose
// bounds are numbers (corner_sch(:, 1) = (/ 1, 1 /), a(2:4) = 0, or the
// whole of ibuf = [nx, ny]) as the
// assignments of its elements, in array element order: each takes the
// constructor's element in that order, or the one scalar value. The right
// side is evaluated whole before any element is stored, as Fortran's
// array assignment does. It reports whether it did; a section it does not
// evaluate is left to storeElement, which makes the array unknown.
func (ev *evaluator) assignSection(s *apt.Stmt) bool {
	if ev.assignImpliedDo(s) {
		return true
	}
	ix, ok := s.Target.(*apt.Index)
	whole := func(pos apt.Pos, name string, base apt.Expr, t apt.Type) {
		// A whole array given a constructor (ibuf = [nx, ny, nz]), an
		// expression of arrays (left = theirs, done = left == 0) or a
		// mask (WHERE) is its section of every element.
		if _, cons := s.Value.(*apt.ArrayCons); cons || !ev.scalarExpr(s.Value) || s.Mask != nil || ev.where != nil {
			if decl := ev.storedDecl(&apt.Index{Name: name, Base: base}); decl != nil && decl.IsArray() {
				ix, ok = &apt.Index{Pos: pos, Name: name, Base: base, Type: t}, true
				for range decl.Dims {
					ix.Subs = append(ix.Subs, &apt.Section{Pos: pos})
				}
			}
		}
	}
	switch t := s.Target.(type) {
	case *apt.Name:
		if t.Array {
			whole(t.Pos, t.Name, nil, t.Type)
		}
	case *apt.Component:
		if t.Array {
			whole(t.At(), t.Field, t.Base, t.Type)
		}
	}
	if ok && !tracked(ix.Type) {
		// A small REAL table (rbuf = [dt, t_end], packed for a
		// broadcast) keeps its elements as INTEGER arrays do.
		_, ok = ev.realTable(ix)
	}
	if !ok || ix.Substring ||
		!slices.ContainsFunc(ix.Subs, func(e apt.Expr) bool { _, sec := e.(*apt.Section); return sec }) {
		return false
	}
	decl := ev.storedDecl(ix)
	if decl == nil || !decl.IsArray() || len(decl.Dims) != len(ix.Subs) {
		return false
	}
	if ix.Base != nil && len(ix.Subs) != 1 {
		return false // a component's elements: one dimension (arrayRefs)
	}
	subs, total, ok := ev.sectionSubs(ix, decl, maxSectionElems)
	if !ok {
		return false
	}
	var vals []Value
	if cons, ok := s.Value.(*apt.ArrayCons); ok {
		// Its elements in order, an implied DO's for each value of its
		// variable (owner = [(mod(i - 1, np), i = 1, n)]).
		if vals, ok = ev.consValues(cons.Elems, nil); !ok || len(vals) != total {
			return false
		}
	} else if src, ok := s.Value.(*apt.Index); ok && len(src.Subs) == 1 && len(subs) == 1 && isSection(src.Subs[0]) {
		// One section copied into another (a(1:n) = b(1:n), a C memcpy of
		// n elements): element k of the source goes to element k of the
		// target, every value read before any is stored (memmove).
		sec := src.Subs[0].(*apt.Section)
		if sec.Lo == nil || sec.Stride != nil {
			return false
		}
		lo, ok := valueInt(ev.value(sec.Lo))
		if !ok {
			return false
		}
		for k := range subs[0] {
			el := &apt.Index{Pos: src.Pos, Name: src.Name, Base: src.Base, Deref: src.Deref, Type: src.Type,
				Subs: []apt.Expr{&apt.Const{Pos: src.Pos, Kind: apt.ConstInt, Text: strconv.FormatInt(lo+int64(k), 10),
					Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}}}
			vals = append(vals, ev.value(el))
		}
	} else if !ev.scalarExpr(s.Value) {
		// An elemental expression of conformable arrays: element k of
		// each array operand, the scalars as they are (Fortran 2018
		// 10.1.4, 10.2.1.3), every value read before any is stored.
		for k := range total {
			e, ok := ev.elementOfExpr(s.Value, k, total)
			if !ok {
				return false
			}
			vals = append(vals, ev.value(e))
		}
	} else {
		v := ev.value(s.Value)
		for range total {
			vals = append(vals, v)
		}
	}
	els := sectionElements(ix, subs, total)
	var masks []elemMask
	if s.Mask != nil || ev.where != nil {
		// WHERE: element k is stored where its control mask holds
		// (whereNode's and the statement's own, every mask element
		// evaluated before any store), and keeps its value elsewhere.
		var ok bool
		if masks, ok = ev.stmtMasks(s.Mask, total); !ok {
			return false
		}
	}
	olds := make([]Value, len(masks))
	for k, m := range masks {
		if m.ok && !m.dec {
			olds[k] = ev.oldElement(els[k], decl)
		}
	}
	for i, el := range els {
		switch {
		case masks == nil || masks[i].dec && masks[i].t:
			ev.assign(el, vals[i])
		case masks[i].dec:
			// The mask is false here: the element keeps its value.
		case masks[i].ok && (olds[i].IsKnown() || olds[i].unk != nil && olds[i].unk.undef):
			ev.assign(el, ev.chooseUndef(masks[i].c, vals[i], olds[i]))
		default:
			ev.assign(el, Value{}) // a mask the evaluation cannot analyse
		}
	}
	return true
}

// sectionSubs returns the subscripts each dimension of the section ix of
// the array decl takes, and how many elements it has: where every bound
// is a number and there are at most limit.
func (ev *evaluator) sectionSubs(ix *apt.Index, decl *apt.Var, limit int) ([][]int64, int, bool) {
	var bs []bound
	if ix.Base == nil {
		bs, _ = ev.arrayBounds(ix.Name, decl)
	} else {
		bs, _ = ev.componentBounds(&apt.Component{Base: ix.Base, Field: ix.Name, Type: ix.Type, Array: true})
	}
	num := func(e apt.Expr, or Value) (int64, bool) {
		v := or
		if e != nil {
			v = ev.value(e)
		}
		x, ok := v.Single()
		if !ok {
			return 0, false
		}
		return x.Int64()
	}
	subs := make([][]int64, len(ix.Subs))
	total := 1
	for d, sub := range ix.Subs {
		sec, isSec := sub.(*apt.Section)
		if !isSec {
			k, ok := num(sub, Value{})
			if !ok {
				return nil, 0, false
			}
			subs[d] = []int64{k}
			continue
		}
		loV, hiV, ok := ev.sectionLimits(sec, decl, bs, d)
		if !ok {
			return nil, 0, false
		}
		lo, ok1 := num(nil, loV)
		hi, ok2 := num(nil, hiV)
		step := int64(1)
		ok3 := true
		if sec.Stride != nil {
			step, ok3 = num(sec.Stride, Value{})
		}
		if !ok1 || !ok2 || !ok3 || step == 0 {
			return nil, 0, false
		}
		for k := lo; step > 0 && k <= hi || step < 0 && k >= hi; k += step {
			subs[d] = append(subs[d], k)
			if len(subs[d]) > limit {
				return nil, 0, false
			}
		}
		total *= len(subs[d])
		if total > limit {
			return nil, 0, false
		}
	}
	return subs, total, true
}

// sectionElements are the element references of the section ix whose
// subscripts are subs, in array element order (the first subscript
// varies fastest).
func sectionElements(ix *apt.Index, subs [][]int64, total int) []*apt.Index {
	out := make([]*apt.Index, 0, total)
	at := make([]int, len(subs))
	for range total {
		el := &apt.Index{Pos: ix.Pos, Name: ix.Name, Base: ix.Base, Type: ix.Type}
		for d, k := range at {
			el.Subs = append(el.Subs, &apt.Const{Pos: ix.Pos, Kind: apt.ConstInt, Text: strconv.FormatInt(subs[d][k], 10),
				Type: apt.Type{Base: apt.TypeInteger, Kind: 4}})
		}
		out = append(out, el)
		for d := range at {
			if at[d]++; at[d] < len(subs[d]) {
				break
			}
			at[d] = 0
		}
	}
	return out
}

// elementOfExpr is element k of an elemental expression whose array
// operands (whole one-dimensional arrays and sections of them) have total
// elements: each operand replaced by its element k.
func (ev *evaluator) elementOfExpr(e apt.Expr, k, total int) (apt.Expr, bool) {
	if ev.scalarExpr(e) {
		return e, true
	}
	switch x := e.(type) {
	case *apt.Name, *apt.Index, *apt.Component:
		refs, ok := ev.arrayRefs(x)
		if !ok || len(refs) != total {
			return nil, false
		}
		return refs[k], true
	case *apt.ArrayCons:
		// A constructor of scalars ([1, -1] in coords + [1, -1]): its
		// k-th.
		if len(x.Elems) != total || !ev.scalarExpr(x.Elems[k]) {
			return nil, false
		}
		if _, nested := x.Elems[k].(*apt.ImpliedDo); nested {
			return nil, false
		}
		return x.Elems[k], true
	case *apt.Unary:
		y, ok := ev.elementOfExpr(x.X, k, total)
		if !ok {
			return nil, false
		}
		u := *x
		u.X = y
		return &u, true
	case *apt.Binary:
		a, ok1 := ev.elementOfExpr(x.X, k, total)
		b, ok2 := ev.elementOfExpr(x.Y, k, total)
		if !ok1 || !ok2 {
			return nil, false
		}
		bin := *x
		bin.X, bin.Y = a, b
		return &bin, true
	case *apt.FuncCall:
		if !x.Intrinsic || !elementalIntrinsic(x.Name) {
			return nil, false
		}
		f := *x
		f.Args = make([]apt.Expr, len(x.Args))
		for i, a := range x.Args {
			y, ok := ev.elementOfExpr(a, k, total)
			if !ok {
				return nil, false
			}
			f.Args[i] = y
		}
		return &f, true
	}
	return nil, false
}

// elementalIntrinsic reports whether the intrinsic name applies element
// by element to array arguments.
func elementalIntrinsic(name string) bool {
	switch name {
	case "abs", "min", "max", "mod", "modulo", "int", "nint", "real", "dble", "sign", "merge",
		"iand", "ior", "ieor", "not", "ishft", "btest", "ceiling", "floor", "sqrt", "exp", "log":
		return true
	}
	return false
}

func isSection(e apt.Expr) bool {
	_, ok := e.(*apt.Section)
	return ok
}

// scalarExpr reports whether e names no array as a whole, section or
// constructor, and calls no function whose result is an array: its value
// is one value, not one per element.
func (ev *evaluator) scalarExpr(e apt.Expr) bool {
	scalar := true
	apt.InspectExpr(e, func(x apt.Expr) bool {
		switch y := x.(type) {
		case *apt.Name:
			scalar = scalar && !y.Array
		case *apt.Component:
			scalar = scalar && !y.Array
		case *apt.Section, *apt.ArrayCons, *apt.ImpliedDo:
			scalar = false
		case *apt.FuncCall:
			switch {
			case y.Intrinsic:
				// Elemental intrinsics of scalars are scalars; these
				// make arrays of them.
				scalar = scalar && y.Name != "spread" && y.Name != "reshape" && y.Name != "transfer"
			default:
				rs := ev.callees(y.Name)
				if len(rs) != 1 {
					scalar = false
				} else if res := rs[0].Scope.Lookup(rs[0].Result); res == nil || res.IsArray() {
					scalar = false
				}
			}
		}
		return scalar
	})
	return scalar
}

// hasSection reports whether a subscript of ix is a section.
func hasSection(ix *apt.Index) bool {
	return slices.ContainsFunc(ix.Subs, isSection)
}

// assignImpliedDo evaluates a whole one-dimensional array given a
// constructor that is one implied DO of unit step, owner = [(mod(i - 1,
// np), i = 1, n)], as one range store: element k holds the item at the
// k-th value of the DO variable, a closed form in the offset, for any
// number of elements (a symbolic n too). It reports whether it did.
func (ev *evaluator) assignImpliedDo(s *apt.Stmt) bool {
	nm, ok := s.Target.(*apt.Name)
	cons, isCons := s.Value.(*apt.ArrayCons)
	if !ok || !nm.Array || !isCons || len(cons.Elems) != 1 || s.Mask != nil || ev.where != nil || !tracked(nm.Type) {
		return false
	}
	ido, ok := cons.Elems[0].(*apt.ImpliedDo)
	if !ok || len(ido.Items) != 1 || ido.Step != nil && apt.FormatExpr(ido.Step) != "1" || !ev.scalarExpr(ido.Items[0]) {
		return false
	}
	if _, nested := ido.Items[0].(*apt.ImpliedDo); nested {
		return false
	}
	decl := ev.storedDecl(&apt.Index{Name: nm.Name})
	if decl == nil || len(decl.Dims) != 1 {
		return false
	}
	bs, _ := ev.arrayBounds(nm.Name, decl)
	lb, ok1 := valueInt(bs[0].lo)
	lo, ok2 := ev.value(ido.Lo).Single()
	hi, ok3 := ev.value(ido.Hi).Single()
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	first := &apt.Const{Pos: nm.Pos, Kind: apt.ConstInt, Text: strconv.FormatInt(lb, 10), Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
	key, off, ok := ev.indexRef(&apt.Index{Pos: nm.Pos, Name: nm.Name, Type: nm.Type, Subs: []apt.Expr{first}})
	from, single := off.Single()
	if !ok || !single {
		return false
	}
	// The item at DO variable lo + (offset - first).
	k := ev.key(ido.Var)
	old, had := ev.env.lookup(k)
	ev.env.set(k, Known(lo.Add(symbolic.Sym(offSym)).Sub(from)))
	v := ev.value(ido.Items[0])
	if had {
		ev.env.set(k, old)
	} else {
		ev.env.del(k)
	}
	if !v.IsKnown() || mentions(v, ev.cur.vars) {
		return false
	}
	st := ev.arrayOf(key, decl)
	last := from.Add(hi.Sub(lo))
	out := &arrayState{clobbered: st.clobbered, base: st.base, tab: st.tab, stores: slices.Clip(st.stores)}
	out.stores = append(out.stores, &arrayStore{off: from, upTo: &last, val: v})
	if len(out.stores) > maxArrayStores {
		return false
	}
	ev.env.set(key, Value{arr: out})
	return true
}
