package aptrun

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// loc is what a designator denotes: a scalar location, a whole array or an
// array section.
type loc struct {
	c *cell // scalar location (arr == nil)
	// earr and eoff locate c when it is an array element (for sequence
	// association of an element actual with an array dummy).
	earr *array
	eoff int64

	arr   *array  // array reference when non-nil
	offs  []int64 // element offsets of a section (nil for a whole array)
	shape []int64 // shape of a section
	owner *cell   // the array variable of a whole-array reference

	sub      bool // substring c(slo:shi)
	slo, shi int64
}

// locate evaluates a designator (variable, array element or section,
// component, substring).
func (e *engine) locate(fr *frame, x apt.Expr) (loc, error) {
	switch x := x.(type) {
	case *apt.Name:
		c, err := e.cellOf(fr, x.Name, x.Pos)
		if err != nil {
			return loc{}, err
		}
		if c.arr != nil {
			return loc{arr: c.arr, owner: c}, nil
		}
		return loc{c: c}, nil
	case *apt.Index:
		var c *cell
		if x.Base != nil {
			obj, err := e.objectAt(fr, x.Base)
			if err != nil {
				return loc{}, err
			}
			if c = obj.fields[x.Name]; c == nil {
				return loc{}, fmt.Errorf("%s: type %s has no component %s", x.Pos, obj.dt.Name, x.Name)
			}
		} else {
			var err error
			if c, err = e.cellOf(fr, x.Name, x.Pos); err != nil {
				return loc{}, err
			}
		}
		if c.arr == nil {
			if sec, ok := singleSection(x.Subs); ok && c.v.k == kChar {
				return e.substring(fr, c, sec, x.Pos)
			}
			return loc{}, fmt.Errorf("%s: %s is not an array", x.Pos, x.Name)
		}
		if !c.arr.alloc {
			return loc{}, fmt.Errorf("%s: array %s is not allocated", x.Pos, x.Name)
		}
		offs, shape, elem, err := e.section(fr, c.arr, x.Subs, x.Pos)
		if err != nil {
			return loc{}, fmt.Errorf("%s: %s: %w", x.Pos, x.Name, err)
		}
		if elem {
			ec, err := e.elemCell(c.arr, offs[0])
			if err != nil {
				return loc{}, err
			}
			return loc{c: ec, earr: c.arr, eoff: offs[0]}, nil
		}
		return loc{arr: c.arr, offs: offs, shape: shape}, nil
	case *apt.Component:
		obj, err := e.objectAt(fr, x.Base)
		if err != nil {
			return loc{}, err
		}
		f := obj.fields[x.Field]
		if f == nil {
			return loc{}, fmt.Errorf("%s: type %s has no component %s", x.Pos, obj.dt.Name, x.Field)
		}
		if f.arr != nil {
			return loc{arr: f.arr, owner: f}, nil
		}
		return loc{c: f}, nil
	case *apt.FuncCall:
		if v := e.resolve(fr.r, x.Name); v != nil && len(v.Dims) > 0 {
			return e.locate(fr, &apt.Index{Pos: x.Pos, Name: x.Name, Subs: x.Args, Type: x.Type})
		}
	}
	return loc{}, fmt.Errorf("%s: %s is not a variable", x.At(), apt.FormatExpr(x))
}

func singleSection(subs []apt.Expr) (*apt.Section, bool) {
	if len(subs) != 1 {
		return nil, false
	}
	s, ok := subs[0].(*apt.Section)
	return s, ok
}

func (e *engine) substring(fr *frame, c *cell, s *apt.Section, pos apt.Pos) (loc, error) {
	n := int64(len(c.v.s))
	if c.clen >= 0 {
		n = c.clen
	}
	lo, hi := int64(1), n
	var err error
	if s.Lo != nil {
		if lo, err = e.evalInt(fr, s.Lo); err != nil {
			return loc{}, err
		}
	}
	if s.Hi != nil {
		if hi, err = e.evalInt(fr, s.Hi); err != nil {
			return loc{}, err
		}
	}
	if lo <= hi && (lo < 1 || hi > n) {
		return loc{}, fmt.Errorf("%s: substring %d:%d out of 1:%d", pos, lo, hi, n)
	}
	return loc{c: c, sub: true, slo: lo, shi: hi}, nil
}

// objectAt evaluates a designator that must denote a derived-type scalar.
func (e *engine) objectAt(fr *frame, x apt.Expr) (*object, error) {
	l, err := e.locate(fr, x)
	if err != nil {
		return nil, err
	}
	if l.c == nil || l.sub {
		return nil, fmt.Errorf("%s: components of arrays of derived type (%s) are not supported", x.At(), apt.FormatExpr(x))
	}
	if l.c.v.k != kObj || l.c.v.obj == nil {
		return nil, fmt.Errorf("%s: %s is not a derived-type object", x.At(), apt.FormatExpr(x))
	}
	return l.c.v.obj, nil
}

// section evaluates the subscripts of an array reference: the offsets of the
// selected elements in array element order, the section's shape, and whether
// all subscripts were scalars (a single element).
func (e *engine) section(fr *frame, a *array, subs []apt.Expr, pos apt.Pos) ([]int64, []int64, bool, error) {
	if len(subs) != len(a.lo) {
		return nil, nil, false, fmt.Errorf("%d subscripts for an array of rank %d", len(subs), len(a.lo))
	}
	lists := make([][]int64, len(subs)) // index lists of section dimensions
	idx := make([]int64, len(subs))     // scalar subscripts
	var shape []int64
	elem := true
	for d, s := range subs {
		switch s := s.(type) {
		case *apt.Section:
			elem = false
			lo, hi, st := a.lo[d], a.lo[d]+a.ext[d]-1, int64(1)
			var err error
			if s.Lo != nil {
				if lo, err = e.evalInt(fr, s.Lo); err != nil {
					return nil, nil, false, err
				}
			}
			if s.Hi != nil {
				if hi, err = e.evalInt(fr, s.Hi); err != nil {
					return nil, nil, false, err
				}
			} else if a.ext[d] < 0 {
				return nil, nil, false, fmt.Errorf("section without an upper bound in an assumed-size dimension")
			}
			if s.Stride != nil {
				if st, err = e.evalInt(fr, s.Stride); err != nil {
					return nil, nil, false, err
				}
				if st == 0 {
					return nil, nil, false, fmt.Errorf("section stride is zero")
				}
			}
			cnt := max(0, (hi-lo+st)/st)
			if cnt > maxElems {
				return nil, nil, false, fmt.Errorf("section of %d elements in dimension %d (more than %d)", cnt, d+1, maxElems)
			}
			if cnt > 0 && a.ext[d] >= 0 && !(a.dummy && d == len(subs)-1) {
				last := lo + (cnt-1)*st
				if lo < a.lo[d] || lo > a.lo[d]+a.ext[d]-1 || last < a.lo[d] || last > a.lo[d]+a.ext[d]-1 {
					return nil, nil, false, fmt.Errorf("section %d:%d:%d outside the bounds %d:%d of dimension %d",
						lo, hi, st, a.lo[d], a.lo[d]+a.ext[d]-1, d+1)
				}
			}
			l := make([]int64, cnt)
			for i := range l {
				l[i] = lo + int64(i)*st
			}
			lists[d] = l
			shape = append(shape, int64(len(l)))
		default:
			v, err := e.eval(fr, s)
			if err != nil {
				return nil, nil, false, err
			}
			if v.isArr() {
				elem = false
				l := make([]int64, len(v.arr.elems))
				for i, x := range v.arr.elems {
					n, ok := asInt(x)
					if !ok {
						return nil, nil, false, fmt.Errorf("vector subscript of type %s", x.k)
					}
					l[i] = n
				}
				lists[d] = l
				shape = append(shape, int64(len(l)))
				continue
			}
			n, ok := asInt(v)
			if !ok || v.k == kLog {
				return nil, nil, false, fmt.Errorf("subscript of type %s", v.k)
			}
			idx[d] = n
		}
	}
	if elem {
		// The common case, a single element: no lists to build.
		lin, err := a.linear(idx)
		if err != nil {
			return nil, nil, false, err
		}
		return []int64{lin}, nil, true, nil
	}
	for d := range lists {
		if lists[d] == nil {
			lists[d] = []int64{idx[d]}
		}
	}
	total := 1
	for _, l := range lists {
		total *= len(l)
		if total > maxElems {
			return nil, nil, false, fmt.Errorf("section of more than %d elements", maxElems)
		}
	}
	offs := make([]int64, 0, total)
	counters := make([]int, len(lists))
	for range total {
		for d := range lists {
			idx[d] = lists[d][counters[d]]
		}
		lin, err := a.linear(idx)
		if err != nil {
			return nil, nil, false, err
		}
		offs = append(offs, lin)
		for d := range counters {
			counters[d]++
			if counters[d] < len(lists[d]) {
				break
			}
			counters[d] = 0
		}
	}
	return offs, shape, elem, nil
}

// wholeOffsets lists the offsets of every element of a.
func wholeOffsets(a *array) ([]int64, error) {
	n := a.size()
	if n < 0 {
		return nil, fmt.Errorf("whole-array reference to an assumed-size array")
	}
	if n > maxElems {
		return nil, fmt.Errorf("whole-array operation on %d elements (more than %d)", n, maxElems)
	}
	offs := make([]int64, n)
	for i := range offs {
		offs[i] = int64(i)
	}
	return offs, nil
}

// load reads the value a designator denotes.
func (e *engine) load(l loc, pos apt.Pos) (value, error) {
	if l.c != nil {
		if l.sub {
			s := fitLen(l.c.v.s, max(l.c.clen, int64(len(l.c.v.s))))
			if l.slo > l.shi {
				return charV(""), nil
			}
			return charV(s[l.slo-1 : l.shi]), nil
		}
		return l.c.v, nil
	}
	a := l.arr
	if !a.alloc {
		return value{}, fmt.Errorf("%s: reference to an unallocated array", pos)
	}
	offs, shape := l.offs, l.shape
	if l.owner != nil {
		var err error
		if offs, err = wholeOffsets(a); err != nil {
			return value{}, fmt.Errorf("%s: %v", pos, err)
		}
		shape = slices.Clone(a.ext)
	}
	elems := make([]value, len(offs))
	for i, off := range offs {
		v, err := e.elemValue(a, off)
		if err != nil {
			return value{}, err
		}
		elems[i] = v
	}
	return arrayV(shape, elems), nil
}

// assign stores val into what a designator denotes.
func (e *engine) assignLoc(l loc, val value, pos apt.Pos) error {
	if l.c != nil {
		if l.sub {
			if l.c.fixed {
				return nil
			}
			if val.k != kChar {
				return fmt.Errorf("%s: %s value assigned to a substring", pos, val.k)
			}
			if l.slo > l.shi {
				return nil
			}
			s := fitLen(l.c.v.s, max(l.c.clen, int64(len(l.c.v.s))))
			part := fitLen(val.s, l.shi-l.slo+1)
			return e.store(l.c, charV(s[:l.slo-1]+part+s[l.shi:]), pos)
		}
		return e.store(l.c, val, pos)
	}
	if l.owner != nil {
		a := l.arr
		if a.alloc && a.deferred && val.isArr() && int64(len(val.arr.elems)) != a.size() {
			// Fortran 2003 reallocation on assignment of an allocatable.
			a.alloc = false
		}
		return e.fill(l.owner, val, pos)
	}
	return e.storeArray(l.arr, l.offs, val, pos)
}

// eval evaluates an expression.
func (e *engine) eval(fr *frame, x apt.Expr) (value, error) {
	switch x := x.(type) {
	case nil:
		return value{}, fmt.Errorf("missing expression")
	case *apt.Const:
		if v, ok := e.consts[x]; ok {
			return v, nil
		}
		v, err := parseConst(x)
		if err != nil {
			return value{}, fmt.Errorf("%s: %v", x.Pos, err)
		}
		e.consts[x] = v
		return v, nil
	case *apt.Name, *apt.Index, *apt.Component:
		l, err := e.locate(fr, x)
		if err != nil {
			return value{}, err
		}
		return e.load(l, x.At())
	case *apt.FuncCall:
		return e.funcCall(fr, x)
	case *apt.Unary:
		v, err := e.eval(fr, x.X)
		if err != nil {
			return value{}, err
		}
		r, err := unary(x.Op, v)
		if err != nil {
			return value{}, fmt.Errorf("%s: %v", x.Pos, err)
		}
		return r, nil
	case *apt.Binary:
		a, err := e.eval(fr, x.X)
		if err != nil {
			return value{}, err
		}
		// .and. and .or. short-circuit on scalars, as compilers do, so that
		// guards such as (i > 0 .and. a(i) > 0) work.
		if a.k == kLog && (x.Op == apt.OpAnd && a.i == 0 || x.Op == apt.OpOr && a.i != 0) {
			return a, nil
		}
		b, err := e.eval(fr, x.Y)
		if err != nil {
			return value{}, err
		}
		r, err := binary(x.Op, a, b)
		if err != nil {
			return value{}, fmt.Errorf("%s: %v", x.Pos, err)
		}
		return r, nil
	case *apt.ArrayCons:
		elems, err := e.consElems(fr, x.Elems)
		if err != nil {
			return value{}, err
		}
		return arrayV([]int64{int64(len(elems))}, elems), nil
	case *apt.Keyword:
		return e.eval(fr, x.Value)
	}
	return value{}, fmt.Errorf("%s: unsupported expression %s", x.At(), apt.FormatExpr(x))
}

// consElems expands the items of an array constructor.
func (e *engine) consElems(fr *frame, items []apt.Expr) ([]value, error) {
	var out []value
	for _, it := range items {
		if id, ok := it.(*apt.ImpliedDo); ok {
			err := e.impliedDo(fr, id, func() error {
				vs, err := e.consElems(fr, id.Items)
				out = append(out, vs...)
				return err
			})
			if err != nil {
				return nil, err
			}
			continue
		}
		v, err := e.eval(fr, it)
		if err != nil {
			return nil, err
		}
		if v.isArr() {
			out = append(out, v.arr.elems...)
		} else {
			out = append(out, v)
		}
	}
	return out, nil
}

// impliedDo runs body for each value of an implied DO's variable, restoring
// the variable afterwards (its scope is the implied DO).
func (e *engine) impliedDo(fr *frame, id *apt.ImpliedDo, body func() error) error {
	c, err := e.cellOf(fr, id.Var, id.Pos)
	if err != nil {
		return err
	}
	if c.arr != nil {
		return fmt.Errorf("%s: implied-DO variable %s is an array", id.Pos, id.Var)
	}
	lo, err := e.evalInt(fr, id.Lo)
	if err != nil {
		return err
	}
	hi, err := e.evalInt(fr, id.Hi)
	if err != nil {
		return err
	}
	st := int64(1)
	if id.Step != nil {
		if st, err = e.evalInt(fr, id.Step); err != nil {
			return err
		}
		if st == 0 {
			return fmt.Errorf("%s: implied-DO step is zero", id.Pos)
		}
	}
	saved := c.v
	defer func() { c.v = saved }()
	for i := lo; (st > 0 && i <= hi) || (st < 0 && i >= hi); i += st {
		if err := e.tick(id.Pos); err != nil {
			return err
		}
		c.v = intV(i)
		if err := body(); err != nil {
			return err
		}
	}
	return nil
}

// evalInt evaluates an integer scalar expression.
func (e *engine) evalInt(fr *frame, x apt.Expr) (int64, error) {
	v, err := e.eval(fr, x)
	if err != nil {
		return 0, err
	}
	n, ok := asInt(v)
	if !ok || v.k == kLog {
		return 0, fmt.Errorf("%s: %s is %s, not an integer", x.At(), apt.FormatExpr(x), v.k)
	}
	return n, nil
}

// evalLogical evaluates a logical scalar expression.
func (e *engine) evalLogical(fr *frame, x apt.Expr) (bool, error) {
	v, err := e.eval(fr, x)
	if err != nil {
		return false, err
	}
	if v.k != kLog {
		if v.isArr() {
			return false, fmt.Errorf("%s: array-valued condition %s (WHERE constructs are not supported)", x.At(), apt.FormatExpr(x))
		}
		return false, fmt.Errorf("%s: condition %s is %s, not logical", x.At(), apt.FormatExpr(x), v.k)
	}
	return v.i != 0, nil
}

// funcCall evaluates a function reference.
func (e *engine) funcCall(fr *frame, x *apt.FuncCall) (value, error) {
	if x.Intrinsic {
		return e.intrinsic(fr, x)
	}
	if v := e.resolve(fr.r, x.Name); v != nil {
		if len(v.Dims) > 0 {
			return e.eval(fr, &apt.Index{Pos: x.Pos, Name: x.Name, Subs: x.Args, Type: x.Type})
		}
		if r, through, err := e.callThrough(fr, x.Name, x.Args, x.Pos); through || err != nil {
			return r, err
		}
	}
	if r := e.findRoutine(fr.r, x.Name); r != nil {
		return e.callRoutine(fr, r, x.Args, x.Pos)
	}
	switch x.Name {
	case "command_argument_count", "iargc":
		return e.argumentCount(), nil
	}
	// A function outside the program (a library): it does nothing and
	// returns zero.
	return zeroOf(x.Type, -1), nil
}

// findRoutine returns the subroutine or function name refers to from r:
// r itself, its internal procedures and its host's, module procedures of the
// modules used, then external routines.
func (e *engine) findRoutine(r *apt.Routine, name string) *apt.Routine {
	k := resolveKey{r, name}
	if p, ok := e.routines[k]; ok {
		return p
	}
	callable := func(p *apt.Routine) bool {
		return p.Kind == apt.KindSubroutine || p.Kind == apt.KindFunction
	}
	var found *apt.Routine
	for h := r; h != nil && found == nil; h = e.prog.Host(h) {
		if h.Name == name && callable(h) {
			found = h
			break
		}
		for _, c := range h.Contains {
			if c.Name == name && callable(c) {
				found = c
				break
			}
		}
		if found == nil {
			found = e.moduleProc(h.Scope, name, map[string]bool{})
		}
	}
	if found == nil {
		for _, p := range e.prog.Routines {
			if p.Name == name && callable(p) {
				found = p
				break
			}
		}
	}
	if found == nil {
		// A module procedure reached without a USE the frontend saw.
		if p := e.prog.Routine(name); p != nil && callable(p) {
			if h := e.prog.Host(p); h != nil && h.Kind == apt.KindModule {
				found = p
			}
		}
	}
	e.routines[k] = found
	return found
}

func (e *engine) moduleProc(s *apt.Scope, name string, seen map[string]bool) *apt.Routine {
	if s == nil {
		return nil
	}
	for _, u := range s.Uses {
		m := e.prog.Routine(u.Module)
		if m == nil || m.Kind != apt.KindModule || seen[u.Module] {
			continue
		}
		if len(u.Only) > 0 && !slices.Contains(u.Only, name) {
			continue
		}
		remote := name
		if orig, ok := u.Renames[name]; ok {
			remote = orig
		}
		seen[u.Module] = true
		for _, c := range m.Contains {
			if c.Name == remote {
				return c
			}
		}
		if p := e.moduleProc(m.Scope, remote, seen); p != nil {
			return p
		}
	}
	return nil
}

// callsUser reports whether x references a function of the program.
func (e *engine) callsUser(fr *frame, x apt.Expr) bool {
	found := false
	apt.InspectExpr(x, func(y apt.Expr) bool {
		if fc, ok := y.(*apt.FuncCall); ok && !fc.Intrinsic {
			v := e.resolve(fr.r, fc.Name)
			switch {
			case v != nil && len(v.Dims) > 0: // an array element
			case v != nil && v.Dummy, e.findRoutine(fr.r, fc.Name) != nil:
				found = true
			}
		}
		return !found
	})
	return found
}

// exprString formats an expression for error messages.
func exprString(x apt.Expr) string {
	if x == nil {
		return "<nil>"
	}
	return strings.TrimSpace(apt.FormatExpr(x))
}
