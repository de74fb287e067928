package concrete

import (
	"slices"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// routine is a compiled routine: its slots and its body.
type routine struct {
	r      *apt.Routine
	slots  []*slot
	byName map[string]int
	nodes  []apt.Node // by node number
	num    map[apt.Node]int
	// stmts are the array statements, by number (Context.Elems).
	stmts   []*apt.Stmt
	stmtNum map[*apt.Stmt]int
	body    func(a *act) ctl
	// result is the slot of a function's result.
	result int
	// allGlobal marks a fragment (RunIn): every variable is the caller's.
	allGlobal bool
	// nInts and nReals count the local scalars held in an activation's
	// own stores (slot.local); free holds activations to reuse.
	nInts, nReals int
	free          []*act
	// ptrRoots are the variables through which pointee slots reach
	// their elements, and repointed the structure pointers the code
	// assigns (checkPointees), each at its first place.
	ptrRoots, repointed map[string]apt.Pos
}

type slotKind int

const (
	slotLocal slotKind = iota + 1
	slotFormal
	slotGlobal
)

// slot is a variable a routine names.
type slot struct {
	name   string
	v      *apt.Var
	kind   slotKind
	formal int
	real   bool
	single bool
	// dims are the declared bounds, compiled: lo and hi of each; hi nil
	// for an assumed size.
	lo, hi []ival
	// shaped marks an ALLOCATABLE array or an assumed-shape dummy: its
	// bounds are its binding's (Ref.Lo, Ref.Ext), the lower ones its own
	// declared ones where an assumed-shape dummy declares them (lo).
	shaped bool
	// local is a local scalar's place in its activation's store of
	// integers or reals (-1: a store of its own).
	local int
	// ptr is, for a pointee slot, the pointer expression Pointee binds.
	ptr apt.Expr
}

// view is a slot's storage in one activation: the store, the offset of
// its first element, and for an array its lower bounds and strides.
type view struct {
	s      *Store
	off    int64
	lo     []int64
	stride []int64
	n      int64 // elements the array spans (-1: to the end of the store)
	shaped bool
	// rowMajor says the last subscript varies fastest (Machine.dim).
	rowMajor bool
	// blo and bext are the binding's bounds (Ref.Lo, Ref.Ext), for a
	// slot whose shape is its binding's.
	blo, bext []int64
}

// act is one activation of a routine.
type act struct {
	m    *Machine
	rt   *routine
	ctx  *Context
	vars []view
	// ints and reals hold the local scalars.
	ints, reals *Store
}

type ctlKind int

const (
	ctlNone ctlKind = iota
	ctlGoto
	ctlExit
	ctlCycle
	ctlReturn
)

// ctl is how a statement left: on to the next, or a transfer.
type ctl struct {
	k     ctlKind
	label string // GO TO target, or EXIT/CYCLE construct name
}

type (
	ival func(a *act) (int64, bool)
	fval func(a *act) (float64, bool)
)

// compile returns r compiled; it stops (panics with Stopped) at the first
// construct the machine does not run, in r or a routine it calls.
func (m *Machine) compile(r *apt.Routine) *routine {
	if rt, ok := m.code[r]; ok {
		if rt == nil {
			stop(r.Span.Start(), "%s cannot be run", r.Name)
		}
		return rt
	}
	rt := &routine{r: r, byName: map[string]int{}, num: map[apt.Node]int{}, stmtNum: map[*apt.Stmt]int{}, result: -1}
	m.code[r] = rt
	ok := false
	defer func() {
		if !ok {
			m.code[r] = nil
		}
	}()
	if r.Kind == apt.KindModule {
		stop(r.Span.Start(), "%s is a module", r.Name)
	}
	if h := m.prog.Host(r); h != nil && h.Kind != apt.KindModule {
		stop(r.Span.Start(), "%s is an internal procedure", r.Name)
	}
	apt.Inspect(&apt.Loop{Body: r.Body}, func(n apt.Node) bool {
		if _, isWrap := n.(*apt.Loop); isWrap && n.Base().ID == "" {
			return true
		}
		rt.num[n] = len(rt.nodes)
		rt.nodes = append(rt.nodes, n)
		return true
	})
	if r.Kind == apt.KindFunction {
		res := r.Result
		if res == "" {
			res = r.Name
		}
		rt.result = rt.slotOf(m, res, r.Span.Start())
	}
	c := &compiler{m: m, rt: rt}
	rt.body = c.list(r.Body)
	rt.checkPointees()
	ok = true
	return rt
}

// slotOf returns the slot of name in rt, made on first use.
func (rt *routine) slotOf(m *Machine, name string, pos apt.Pos) int {
	if i, ok := rt.byName[name]; ok {
		return i
	}
	v := m.prog.Resolve(rt.r, name)
	if v == nil && strings.Contains(name, "%") {
		stop(pos, "%s is a component the run does not follow", name)
	}
	if v == nil {
		stop(pos, "%s is not declared", name)
	}
	if v.Param != nil {
		stop(pos, "%s is a named constant", name) // compiled as its value
	}
	switch v.Type.Base {
	case apt.TypeInteger, apt.TypeLogical, apt.TypeReal:
	case apt.TypeComplex, apt.TypeCharacter:
		// Values the run does not follow (opaque): complex data, and
		// text, which the run may read as unknown but not set.
	default:
		stop(pos, "%s is of a type the run does not follow", name)
	}
	if v.Pointer || v.Allocatable && len(v.Dims) == 0 || v.Procedure || v.Dist != nil {
		stop(pos, "%s is a pointer, allocatable scalar or procedure", name)
	}
	sl := &slot{name: name, v: v, real: realStored(v.Type), single: v.Type.Base == apt.TypeReal && v.Type.Kind == 4, local: -1}
	switch {
	case rt.allGlobal:
		sl.kind = slotGlobal
	case slices.Contains(rt.r.Formals, name) && rt.r.Scope.Lookup(name) == v:
		sl.kind, sl.formal = slotFormal, slices.Index(rt.r.Formals, name)
	case rt.r.Scope.Lookup(name) == v && !v.InCommon && !v.Save && len(v.Init) == 0 && !v.Data:
		sl.kind = slotLocal
	default:
		sl.kind = slotGlobal
	}
	if sl.kind == slotLocal && len(v.Dims) == 0 && !sl.single {
		if sl.real {
			sl.local, rt.nReals = rt.nReals, rt.nReals+1
		} else {
			sl.local, rt.nInts = rt.nInts, rt.nInts+1
		}
	}
	i := len(rt.slots)
	rt.byName[name] = i
	rt.slots = append(rt.slots, sl)
	if len(v.Dims) > 0 {
		c := &compiler{m: m, rt: rt}
		for _, d := range v.Dims {
			sl.shaped = sl.shaped || d.Deferred || d.Hi == nil && !isStar(d.Hi)
		}
		if sl.shaped {
			if sl.kind == slotLocal && v.Allocatable {
				stop(pos, "%s is allocated by the run", name)
			}
			for _, d := range v.Dims {
				var lo ival
				if d.Lo != nil && !d.Deferred {
					lo = c.intExpr(d.Lo)
				}
				sl.lo, sl.hi = append(sl.lo, lo), append(sl.hi, nil)
			}
			return i
		}
		for k, d := range v.Dims {
			lo := ival(func(*act) (int64, bool) { return 1, true })
			if d.Lo != nil {
				lo = c.intExpr(d.Lo)
			}
			var hi ival
			if _, star := d.Hi.(*apt.Star); !star {
				if d.Hi == nil {
					stop(pos, "%s has an assumed shape", name)
				}
				hi = c.intExpr(d.Hi)
			} else if k != m.slowest(len(v.Dims)) {
				stop(pos, "%s: * not in the dimension that varies slowest", name)
			}
			sl.lo, sl.hi = append(sl.lo, lo), append(sl.hi, hi)
		}
	}
	return i
}

// view returns slot i's storage in a, bound on first use.
func (a *act) view(i int, pos apt.Pos) *view {
	vw := &a.vars[i]
	if vw.shaped {
		return vw
	}
	sl := a.rt.slots[i]
	if sl.shaped {
		return a.shapedView(i, pos)
	}
	// The shape first: a local's size comes from it.
	n := int64(1)
	if len(sl.lo) > 0 {
		vw.lo = make([]int64, len(sl.lo))
		vw.stride = make([]int64, len(sl.lo))
		vw.rowMajor = a.m.rowMajor()
		for j := range sl.lo {
			k := a.m.dim(j, len(sl.lo))
			lo, ok := sl.lo[k](a)
			if !ok {
				stop(pos, "the bounds of %s are not known", sl.name)
			}
			vw.lo[k], vw.stride[k] = lo, n
			if sl.hi[k] == nil {
				n = -1
				break
			}
			hi, ok := sl.hi[k](a)
			if !ok {
				stop(pos, "the bounds of %s are not known", sl.name)
			}
			n *= max(hi-lo+1, 0)
		}
	}
	switch {
	case vw.s != nil:
	case sl.local >= 0:
		vw.s, vw.off = a.ints, int64(sl.local)
		if sl.real {
			vw.s = a.reals
		}
	case sl.kind == slotLocal:
		if n < 0 || n > maxLocal {
			stop(pos, "local %s has no size the run can hold", sl.name)
		}
		vw.s = NewStore("", n, sl.real)
		vw.s.Single = sl.single
	case sl.kind == slotGlobal:
		g := a.m.global(a.rt, sl, pos)
		vw.s, vw.off = g.S, g.Off
	default:
		stop(pos, "the dummy %s has no actual argument", sl.name)
	}
	if n < 0 {
		n = vw.s.Len() - vw.off
	}
	if vw.off < 0 || vw.off+n > vw.s.Len() {
		stop(pos, "%s spans more elements than its storage holds", sl.name)
	}
	vw.n, vw.shaped = n, true
	return vw
}

// shapedView is view for a slot whose bounds are its binding's: an
// ALLOCATABLE array (the evaluation gives its allocation's bounds) or an
// assumed-shape dummy (its actual's extents, its own lower bounds, 1
// unless it declares others).
func (a *act) shapedView(i int, pos apt.Pos) *view {
	vw := &a.vars[i]
	sl := a.rt.slots[i]
	if vw.s == nil && sl.kind == slotGlobal {
		g := a.m.global(a.rt, sl, pos)
		vw.s, vw.off, vw.blo, vw.bext = g.S, g.Off, g.Lo, g.Ext
	}
	if vw.s == nil || len(vw.bext) != len(sl.lo) {
		stop(pos, "the bounds of %s are not known", sl.name)
	}
	vw.lo = make([]int64, len(sl.lo))
	vw.stride = make([]int64, len(sl.lo))
	vw.rowMajor = a.m.rowMajor()
	n := int64(1)
	for j := range sl.lo {
		k := a.m.dim(j, len(sl.lo))
		lo := int64(1)
		switch {
		case sl.lo[k] != nil:
			l, ok := sl.lo[k](a)
			if !ok {
				stop(pos, "the bounds of %s are not known", sl.name)
			}
			lo = l
		case sl.v.Allocatable && len(vw.blo) == len(sl.lo):
			lo = vw.blo[k]
		}
		vw.lo[k], vw.stride[k] = lo, n
		n *= max(vw.bext[k], 0)
	}
	if vw.off < 0 || vw.off+n > vw.s.Len() {
		stop(pos, "%s spans more elements than its storage holds", sl.name)
	}
	vw.n, vw.shaped = n, true
	return vw
}

// shape is the bounds of a view, for a dummy that takes its shape from
// its actual: each dimension's lower bound and extent.
func (vw *view) shape() (lo, ext []int64) {
	if len(vw.stride) == 0 {
		return nil, nil
	}
	ext = make([]int64, len(vw.stride))
	for k := range vw.stride {
		// The next slower dimension's stride over this one's: the
		// extent; the slowest's is the elements over its stride.
		next := k + 1
		if vw.rowMajor {
			next = k - 1
		}
		if next >= 0 && next < len(vw.stride) {
			ext[k] = vw.stride[next] / max(vw.stride[k], 1)
		} else {
			ext[k] = vw.n / max(vw.stride[k], 1)
		}
	}
	return vw.lo, ext
}

// dim is the dimension of an array of nd dimensions that is j-th from the
// fastest varying: Fortran's arrays are column-major (the first subscript
// the fastest), C's row-major (the last), as the evaluation lays them out
// (symeval's arrayRef), so that a store the run hands back holds each
// element at the offset the evaluation reads it at.
func (m *Machine) dim(j, nd int) int {
	if m.rowMajor() {
		return nd - 1 - j
	}
	return j
}

// rowMajor says the program's arrays are C's (or Go's): the last
// subscript varies fastest.
func (m *Machine) rowMajor() bool { return m.prog.Notation() != apt.Fortran }

// slowest is the dimension that varies slowest in an array of nd
// dimensions: the only one whose extent may be unknown (a C array of
// unknown first extent, a Fortran assumed-size array's last).
func (m *Machine) slowest(nd int) int { return m.dim(nd-1, nd) }

func isStar(e apt.Expr) bool {
	_, ok := e.(*apt.Star)
	return ok
}

// realStored reports whether values of type t are held as float64: REAL,
// and COMPLEX, whose values the run leaves unknown.
func realStored(t apt.Type) bool {
	return t.Base == apt.TypeReal || t.Base == apt.TypeComplex
}

// opaque reports whether the run leaves values of type t unknown.
func opaque(t apt.Type) bool {
	return t.Base == apt.TypeComplex || t.Base == apt.TypeCharacter
}

// maxLocal bounds the elements of a local array.
const maxLocal = 1 << 24

// compiler compiles one routine's statements and expressions.
type compiler struct {
	m  *Machine
	rt *routine
	// site is the node whose expressions are being compiled: the call
	// site of the functions they reference.
	site apt.Node
}

// count returns n's node number in the routine.
func (c *compiler) count(n apt.Node) int {
	i, ok := c.rt.num[n]
	if !ok {
		stop(n.Base().Span.Start(), "node %s is not numbered", n.Base().ID)
	}
	return i
}

// stmtNum numbers an array statement.
func (c *compiler) stmtNum(s *apt.Stmt) int {
	if k, ok := c.rt.stmtNum[s]; ok {
		return k
	}
	k := len(c.rt.stmts)
	c.rt.stmtNum[s] = k
	c.rt.stmts = append(c.rt.stmts, s)
	return k
}

// list compiles a statement list: GO TOs to its labels are resolved here,
// others passed out.
func (c *compiler) list(nodes []apt.Node) func(a *act) ctl {
	fns := make([]func(a *act) ctl, len(nodes))
	labels := map[string]int{}
	for i, n := range nodes {
		fns[i] = c.node(n)
		if l := n.Base().Label; l != "" {
			if _, dup := labels[l]; !dup {
				labels[l] = i
			}
		}
	}
	return func(a *act) ctl {
		for i := 0; i < len(fns); {
			r := fns[i](a)
			switch r.k {
			case ctlNone:
				i++
			case ctlGoto:
				j, ok := labels[r.label]
				if !ok {
					return r
				}
				i = j
			default:
				return r
			}
		}
		return ctl{}
	}
}

// fieldPath returns the name the run gives a scalar component of a
// structure variable, at any depth (par%n, c%grid%nx: its path of
// components), and the variable's name; false for a component of an
// array element, of a pointer's target (C's p->f), or a whole array.
func fieldPath(c *apt.Component) (path, root string, ok bool) {
	if c.Array || c.Deref {
		return "", "", false
	}
	switch b := c.Base.(type) {
	case *apt.Name:
		return b.Name + "%" + c.Field, b.Name, true
	case *apt.Component:
		p, r, ok := fieldPath(b)
		return p + "%" + c.Field, r, ok
	}
	return "", "", false
}

// fieldSlot returns the slot of the scalar component c (fieldPath's path
// and root): a variable of its own, of the component's type, stored
// where its structure is (the routine's own, or where the evaluation
// keeps it: Globals, as path). A component of a dummy stops the run.
func (rt *routine) fieldSlot(m *Machine, c *apt.Component, path, root string) int {
	if i, ok := rt.byName[path]; ok {
		return i
	}
	pos := c.Pos
	rv := m.prog.Resolve(rt.r, root)
	if rv == nil || rv.Param != nil || rv.Pointer || rv.Allocatable || len(rv.Dims) > 0 {
		stop(pos, "%s is not a structure the run follows", root)
	}
	switch c.Type.Base {
	case apt.TypeInteger, apt.TypeLogical, apt.TypeReal, apt.TypeComplex, apt.TypeCharacter:
	default:
		stop(pos, "%s is of a type the run does not follow", path)
	}
	v := &apt.Var{Name: path, Type: c.Type}
	sl := &slot{name: path, v: v, real: realStored(v.Type), single: single(v.Type), local: -1}
	switch {
	case rt.allGlobal:
		sl.kind = slotGlobal
	case slices.Contains(rt.r.Formals, root):
		stop(pos, "%s is a component of the dummy %s", path, root)
	case rt.r.Scope.Lookup(root) == rv && !rv.InCommon && !rv.Save && len(rv.Init) == 0 && !rv.Data:
		sl.kind = slotLocal
		if !sl.single {
			if sl.real {
				sl.local, rt.nReals = rt.nReals, rt.nReals+1
			} else {
				sl.local, rt.nInts = rt.nInts, rt.nInts+1
			}
		}
	default:
		sl.kind = slotGlobal
	}
	i := len(rt.slots)
	rt.byName[path] = i
	rt.slots = append(rt.slots, sl)
	return i
}
