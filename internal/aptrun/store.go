package aptrun

import (
	"fmt"
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
)

// cell is one storage location: a scalar variable, an array element, a
// derived-type component, or (arr set) an array variable.
// Limits that keep absurd parameter values from exhausting memory.
const (
	maxElems     = 1 << 24 // elements of one section or whole-array operation
	maxArraySize = 1 << 50 // declared elements of one (sparse) array
	maxCharLen   = 1 << 20 // length of a character variable
)

type cell struct {
	typ  apt.Type
	clen int64            // character length, -1 when not fixed
	dt   *apt.DerivedType // the derived type of an object cell
	v    value
	arr  *array // non-nil for an array variable (allocated or not)
	// fixed marks a parameter: assignments to it are ignored.
	fixed bool
}

// object is a derived-type scalar: one cell per component.
type object struct {
	dt     *apt.DerivedType
	fields map[string]*cell
}

// array is an array variable's descriptor: bounds over shared element
// storage. Dummy arguments and COMMON views share the storage of the actual
// (sequence association: off is where the dummy's first element lives).
type array struct {
	alloc bool
	lo    []int64
	ext   []int64 // extents; the last is -1 for an assumed-size dummy
	st    *storage
	off   int64
	elem  apt.Type
	clen  int64
	dt    *apt.DerivedType
	// deferred is set for allocatable and pointer arrays, which assignment
	// of an array of another size reallocates.
	deferred bool
	// dummy relaxes the bounds check of the last dimension (old code declares
	// dummies a(1) and indexes past it); the storage bound is still checked.
	dummy bool
}

// storage holds array elements by linear offset; untouched elements have no
// cell and read as zero.
type storage struct {
	m    map[int64]*cell
	size int64 // -1 when unknown
}

func newStorage(size int64) *storage { return &storage{m: map[int64]*cell{}, size: size} }

// size returns the number of elements, or -1 for an assumed-size array.
func (a *array) size() int64 {
	n := int64(1)
	for _, x := range a.ext {
		if x < 0 {
			return -1
		}
		n *= x
	}
	return n
}

// linear returns the offset of the element with subscripts idx.
func (a *array) linear(idx []int64) (int64, error) {
	if len(idx) != len(a.lo) {
		return 0, fmt.Errorf("%d subscripts for an array of rank %d", len(idx), len(a.lo))
	}
	lin, stride := int64(0), int64(1)
	last := len(idx) - 1
	for d, x := range idx {
		i := x - a.lo[d]
		check := d < last || !a.dummy
		if check && (i < 0 || (a.ext[d] >= 0 && i >= a.ext[d])) {
			return 0, fmt.Errorf("subscript %d is %d, outside the bounds %d:%d", d+1, x, a.lo[d], a.lo[d]+a.ext[d]-1)
		}
		lin += i * stride
		if d < last {
			if a.ext[d] < 0 {
				return 0, fmt.Errorf("dimension %d has no extent", d+1)
			}
			stride *= a.ext[d]
		}
	}
	if a.st.size >= 0 && (a.off+lin < 0 || a.off+lin >= a.st.size) {
		return 0, fmt.Errorf("subscripts %v are outside the array's storage", idx)
	}
	return lin, nil
}

// frame is one routine activation.
type frame struct {
	r      *apt.Routine
	vars   map[*apt.Var]*cell
	names  map[string]*cell // names no declaration covers
	host   *frame           // the host instance of an internal procedure
	absent map[string]bool  // optional dummies without an actual
	cache  map[string]*cell // names resolved so far
	// entry is set for the routine Run starts from: its dummies have no
	// actuals and may be parameters.
	entry bool
}

func newFrame(r *apt.Routine) *frame {
	return &frame{r: r, vars: map[*apt.Var]*cell{}, names: map[string]*cell{},
		absent: map[string]bool{}, cache: map[string]*cell{}}
}

type resolveKey struct {
	r    *apt.Routine
	name string
}

type slotKey struct {
	block string
	pos   int
}

type commonSlot struct {
	slotKey
	n int // members of the block in the declaring scope
}

type commonBlock struct {
	n     int
	cells []*cell
}

type annot struct {
	r *apt.Routine
	p *apt.Param
}

func resultName(r *apt.Routine) string {
	if r.Result != "" {
		return r.Result
	}
	return r.Name
}

// resolve returns the declaration name refers to in routine r (cached).
func (e *engine) resolve(r *apt.Routine, name string) *apt.Var {
	k := resolveKey{r, name}
	if v, ok := e.resolved[k]; ok {
		return v
	}
	v := e.resolveVar(r, name)
	e.resolved[k] = v
	return v
}

// lookup returns the variable named name declared in r's own scope. The
// engine keeps its own index rather than calling apt.Scope.Lookup, which
// builds its index lazily, so that concurrent runs only read the program.
func (e *engine) lookup(r *apt.Routine, name string) *apt.Var {
	return e.scopes[r][name]
}

func (e *engine) scopeVars(r *apt.Routine) []*apt.Var {
	if r == nil || r.Scope == nil {
		return nil
	}
	return r.Scope.Vars
}

// resolveVar follows apt.Program.Resolve: the routine's own scope, the
// modules it uses (honouring ONLY and renames), then its host, recursively.
func (e *engine) resolveVar(r *apt.Routine, name string) *apt.Var {
	for r != nil {
		if v := e.lookup(r, name); v != nil {
			return v
		}
		if r.Scope != nil {
			if v := e.resolveUses(r.Scope, name, map[string]bool{}); v != nil {
				return v
			}
		}
		r = e.prog.Host(r)
	}
	return nil
}

func (e *engine) resolveUses(s *apt.Scope, name string, visiting map[string]bool) *apt.Var {
	for _, u := range s.Uses {
		m := e.prog.Routine(u.Module)
		if m == nil || m.Kind != apt.KindModule || visiting[u.Module] {
			continue
		}
		local := name
		if orig, ok := u.Renames[name]; ok {
			local = orig
		}
		if len(u.Only) > 0 && !slices.Contains(u.Only, name) {
			continue
		}
		visiting[u.Module] = true
		if v := e.lookup(m, local); v != nil {
			return v
		}
		if m.Scope != nil {
			if v := e.resolveUses(m.Scope, local, visiting); v != nil {
				return v
			}
		}
	}
	return nil
}

// ctxFrame returns the active frame of r, or a frame standing for it when r
// is not active (modules, BLOCK DATA, type definitions).
func (e *engine) ctxFrame(r *apt.Routine) *frame {
	for i := len(e.stack) - 1; i >= 0; i-- {
		if e.stack[i].r == r {
			return e.stack[i]
		}
	}
	if f := e.pseudo[r]; f != nil {
		return f
	}
	f := newFrame(r)
	if h := e.prog.Host(r); h != nil && h.Kind != apt.KindModule {
		f.host = e.ctxFrame(h)
	}
	e.pseudo[r] = f
	return f
}

// persistent reports whether a routine's variable keeps its value between
// calls (SAVE, initialised, constants, and everything in a main program,
// module or BLOCK DATA).
func persistent(v *apt.Var, home *apt.Routine) bool {
	if v.Dummy {
		return false
	}
	switch home.Kind {
	case apt.KindProgram, apt.KindModule, apt.KindBlockData:
		return true
	}
	return v.Save || len(v.Init) > 0 || v.Param != nil
}

// cellOf returns the storage name denotes in frame fr.
func (e *engine) cellOf(fr *frame, name string, pos apt.Pos) (*cell, error) {
	// A name denotes the same storage for the whole activation.
	if c := fr.cache[name]; c != nil {
		return c, nil
	}
	v := e.resolve(fr.r, name)
	if v == nil {
		for f := fr; f != nil; f = f.host {
			if c := f.names[name]; c != nil {
				return c, nil
			}
		}
		t := apt.Type{Base: apt.TypeReal, Kind: 4}
		if name != "" && name[0] >= 'i' && name[0] <= 'n' {
			t = apt.Type{Base: apt.TypeInteger, Kind: 4}
		}
		c := &cell{typ: t, clen: -1, v: zeroOf(t, -1)}
		fr.names[name] = c
		return c, nil
	}
	c, err := e.varCell(fr, v, pos)
	if err != nil {
		return nil, err
	}
	fr.cache[name] = c
	return c, nil
}

// varCell returns the storage of declaration v seen from frame fr, creating
// it on first use.
func (e *engine) varCell(fr *frame, v *apt.Var, pos apt.Pos) (*cell, error) {
	if slot, ok := e.commonAt[v]; ok {
		return e.commonCell(fr, v, slot, pos)
	}
	home := e.home[v]
	if home == nil {
		home = fr.r
	}
	if persistent(v, home) {
		if c := e.statics[v]; c != nil {
			return c, nil
		}
		c, err := e.createVar(v, e.ctxFrame(home), home, false, pos)
		if err != nil {
			return nil, err
		}
		e.statics[v] = c
		return c, nil
	}
	f := fr
	for f != nil && f.r != home {
		f = f.host
	}
	if f == nil {
		f = e.ctxFrame(home)
	}
	if c := f.vars[v]; c != nil {
		return c, nil
	}
	c, err := e.createVar(v, f, home, f.entry && f.absent[v.Name], pos)
	if err != nil {
		return nil, err
	}
	f.vars[v] = c
	return c, nil
}

// commonCell returns the shared storage of a COMMON member. Members are
// associated by position within the block; blocks declared with different
// numbers of members, or a member declared with different shapes, are not
// supported.
func (e *engine) commonCell(fr *frame, v *apt.Var, slot commonSlot, pos apt.Pos) (*cell, error) {
	blk := e.commons[slot.block]
	if blk == nil {
		blk = &commonBlock{n: slot.n, cells: make([]*cell, slot.n)}
		e.commons[slot.block] = blk
	}
	if blk.n != slot.n {
		return nil, fmt.Errorf("%s: COMMON /%s/ is declared with %d members here and %d elsewhere (storage association across different layouts is not supported)",
			pos, slot.block, slot.n, blk.n)
	}
	home := e.home[v]
	if c := blk.cells[slot.pos]; c != nil {
		if e.commonOK[v] {
			return c, nil
		}
		if (c.arr != nil) != (len(v.Dims) > 0) {
			return nil, fmt.Errorf("%s: COMMON /%s/ member %s is an array in one scope and a scalar in another (not supported)", pos, slot.block, v.Name)
		}
		if c.arr != nil {
			lo, ext, err := e.evalDims(e.ctxFrame(home), v, pos)
			if err != nil {
				return nil, err
			}
			if !slices.Equal(lo, c.arr.lo) || !slices.Equal(ext, c.arr.ext) {
				return nil, fmt.Errorf("%s: COMMON /%s/ member %s is declared with different bounds in different scopes (not supported)", pos, slot.block, v.Name)
			}
		}
		e.commonOK[v] = true
		return c, nil
	}
	// The member is a parameter when any scope's declaration of it is one.
	var pv int64
	isParam := false
	for _, d := range e.commonVars[slot.slotKey] {
		x, ok, err := e.paramOf(d, e.home[d], false)
		if err != nil {
			return nil, err
		}
		if ok {
			pv, isParam = x, true
			break
		}
	}
	c, err := e.newCell(v, e.ctxFrame(home), home, pos)
	if err != nil {
		return nil, err
	}
	blk.cells[slot.pos] = c
	e.commonOK[v] = true
	if isParam {
		if err := e.setParam(c, v, pv, pos); err != nil {
			return nil, err
		}
		return c, nil
	}
	// DATA for the member may come from any scope (BLOCK DATA usually).
	for _, d := range e.commonVars[slot.slotKey] {
		if len(d.Init) > 0 {
			if err := e.initCell(c, d, e.ctxFrame(e.home[d]), pos); err != nil {
				return nil, err
			}
			break
		}
	}
	return c, nil
}

// paramOf reports whether declaration v is a parameter and its value.
func (e *engine) paramOf(v *apt.Var, home *apt.Routine, dummyOK bool) (int64, bool, error) {
	if (v.Dummy && !dummyOK) || v.Predefined != "" || v.External {
		return 0, false, nil
	}
	if home != nil && home.Kind == apt.KindFunction && v.Name == resultName(home) {
		return 0, false, nil
	}
	if x, ok := e.cfg.Params[v.Name]; ok {
		return x, true, nil
	}
	if e.procSizes[v.Name] {
		return e.cfg.P, true, nil
	}
	for _, an := range e.annots[v.Name] {
		w := e.resolve(an.r, v.Name)
		if w == nil {
			continue
		}
		same := w == v
		if !same {
			s1, ok1 := e.commonAt[w]
			s2, ok2 := e.commonAt[v]
			same = ok1 && ok2 && s1.slotKey == s2.slotKey
		}
		if !same {
			continue
		}
		if an.p.Value == nil {
			return 0, false, fmt.Errorf("%s: parameter %s has no value in Config.Params and its !mk$ param annotation gives no default", an.p.Pos, v.Name)
		}
		if e.defaulting[v] {
			return 0, false, fmt.Errorf("%s: the default of parameter %s depends on itself", an.p.Pos, v.Name)
		}
		e.defaulting[v] = true
		x, err := e.evalInt(e.ctxFrame(an.r), an.p.Value)
		delete(e.defaulting, v)
		if err != nil {
			return 0, false, err
		}
		return x, true, nil
	}
	return 0, false, nil
}

func (e *engine) setParam(c *cell, v *apt.Var, x int64, pos apt.Pos) error {
	if c.arr != nil {
		return fmt.Errorf("%s: parameter %s is an array", pos, v.Name)
	}
	val, err := convert(intV(x), c.typ, c.clen)
	if err != nil {
		return fmt.Errorf("%s: parameter %s: %v", pos, v.Name, err)
	}
	c.v, c.fixed = val, true
	return nil
}

// createVar builds the storage of a declaration and gives it its initial
// value: the parameter value, the PARAMETER value or the DATA/initialiser.
func (e *engine) createVar(v *apt.Var, ctx *frame, home *apt.Routine, dummyOK bool, pos apt.Pos) (*cell, error) {
	if e.creating[v] {
		return nil, fmt.Errorf("%s: the declaration of %s depends on itself", v.Pos, v.Name)
	}
	e.creating[v] = true
	defer delete(e.creating, v)
	x, isParam, err := e.paramOf(v, home, dummyOK)
	if err != nil {
		return nil, err
	}
	c, err := e.newCell(v, ctx, home, pos)
	if err != nil {
		return nil, err
	}
	if isParam {
		return c, e.setParam(c, v, x, pos)
	}
	if v.Param != nil {
		val, err := e.eval(ctx, v.Param)
		if err != nil {
			return nil, err
		}
		if err := e.fill(c, val, v.Param.At()); err != nil {
			return nil, err
		}
		c.fixed = true
		return c, nil
	}
	if v.Procedure && v.Pointer {
		// A procedure pointer: its initial target, or none (procptr.go).
		c.v = value{k: kProc}
		if len(v.Init) > 0 {
			r, err := e.procTarget(ctx, v.Init[0])
			if err != nil {
				return nil, err
			}
			c.v.proc = r
		}
		return c, nil
	}
	if len(v.Init) > 0 {
		if err := e.initCell(c, v, ctx, pos); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// newCell builds the zero-valued storage of a declaration: arrays with
// explicit bounds are allocated, allocatable and deferred-shape ones are not.
func (e *engine) newCell(v *apt.Var, ctx *frame, home *apt.Routine, pos apt.Pos) (*cell, error) {
	c := &cell{typ: v.Type, clen: -1}
	if v.Type.Base == apt.TypeCharacter {
		switch l := v.Type.Len.(type) {
		case nil:
			c.clen = 1
		case *apt.Star:
		default:
			n, err := e.evalInt(ctx, l)
			if err != nil {
				return nil, err
			}
			if n > maxCharLen {
				return nil, fmt.Errorf("%s: character length %d of %s is more than %d", v.Pos, n, v.Name, maxCharLen)
			}
			c.clen = max(n, 0)
		}
	}
	if v.Type.Base == apt.TypeDerived {
		c.dt = e.findType(home, v.Type.Derived)
		if c.dt == nil {
			return nil, fmt.Errorf("%s: derived type %s of %s is not defined", v.Pos, v.Type.Derived, v.Name)
		}
	}
	if len(v.Dims) == 0 {
		if c.dt != nil {
			obj, err := e.newObject(c.dt, pos)
			if err != nil {
				return nil, err
			}
			c.v = value{k: kObj, obj: obj}
		} else {
			c.v = zeroOf(c.typ, c.clen)
		}
		return c, nil
	}
	c.arr = &array{elem: c.typ, clen: c.clen, dt: c.dt}
	deferred := v.Allocatable || v.Pointer
	for _, d := range v.Dims {
		deferred = deferred || d.Deferred
	}
	c.arr.deferred = deferred
	if deferred {
		return c, nil
	}
	lo, ext, err := e.evalDims(ctx, v, pos)
	if err != nil {
		return nil, err
	}
	for _, x := range ext {
		if x < 0 {
			return nil, fmt.Errorf("%s: %s is assumed-size but not a dummy argument", v.Pos, v.Name)
		}
	}
	if err := e.allocate(c.arr, lo, ext); err != nil {
		return nil, fmt.Errorf("%s: %s: %v", pos, v.Name, err)
	}
	return c, nil
}

// allocate gives a fresh storage of the given bounds to a. Storage is
// sparse, so only the element count's magnitude is limited.
func (e *engine) allocate(a *array, lo, ext []int64) error {
	n := int64(1)
	for _, x := range ext {
		if x > 0 && n > maxArraySize/x {
			return fmt.Errorf("array of more than %d elements", int64(maxArraySize))
		}
		n *= max(x, 0)
	}
	a.alloc, a.lo, a.ext, a.off, a.dummy = true, lo, ext, 0, false
	a.st = newStorage(a.size())
	return nil
}

// evalDims evaluates a declaration's bounds; an assumed-size last bound gives
// the extent -1.
func (e *engine) evalDims(ctx *frame, v *apt.Var, pos apt.Pos) (lo, ext []int64, err error) {
	for _, d := range v.Dims {
		l := int64(1)
		if d.Lo != nil {
			if l, err = e.evalInt(ctx, d.Lo); err != nil {
				return nil, nil, err
			}
		}
		x := int64(-1)
		switch h := d.Hi.(type) {
		case *apt.Star:
		case nil:
			return nil, nil, fmt.Errorf("%s: %s has a deferred bound here", pos, v.Name)
		default:
			hi, err := e.evalInt(ctx, h)
			if err != nil {
				return nil, nil, err
			}
			x = max(hi-l+1, 0)
		}
		lo, ext = append(lo, l), append(ext, x)
	}
	return lo, ext, nil
}

// newObject builds a derived-type object with its components' default
// initialisation.
func (e *engine) newObject(dt *apt.DerivedType, pos apt.Pos) (*object, error) {
	if e.depthObj > 32 {
		return nil, fmt.Errorf("%s: derived type %s nests too deeply", pos, dt.Name)
	}
	e.depthObj++
	defer func() { e.depthObj-- }()
	home := e.typeHome[dt]
	ctx := e.ctxFrame(home)
	obj := &object{dt: dt, fields: map[string]*cell{}}
	for _, f := range dt.Fields {
		c, err := e.newCell(f, ctx, home, pos)
		if err != nil {
			return nil, err
		}
		if len(f.Init) > 0 && !f.Pointer {
			if err := e.initCell(c, f, ctx, pos); err != nil {
				return nil, err
			}
		}
		obj.fields[f.Name] = c
	}
	return obj, nil
}

// findType returns the derived type named name visible from routine r.
func (e *engine) findType(r *apt.Routine, name string) *apt.DerivedType {
	seen := map[*apt.Routine]bool{}
	var search func(r *apt.Routine) *apt.DerivedType
	search = func(r *apt.Routine) *apt.DerivedType {
		if r == nil || seen[r] {
			return nil
		}
		seen[r] = true
		if r.Scope == nil {
			return search(e.prog.Host(r))
		}
		if dt := r.Scope.LookupType(name); dt != nil {
			return dt
		}
		for _, u := range r.Scope.Uses {
			if m := e.prog.Routine(u.Module); m != nil && m.Kind == apt.KindModule {
				if dt := search(m); dt != nil {
					return dt
				}
			}
		}
		return search(e.prog.Host(r))
	}
	if dt := search(r); dt != nil {
		return dt
	}
	for dt := range e.typeHome {
		if dt.Name == name {
			return dt
		}
	}
	return nil
}

// initCell applies a declaration initialiser or DATA values to c. A scalar
// takes its first value; an array takes a single initialiser expression
// (broadcast or array constructor), or a DATA list with r*c repeat counts
// filled in array element order from the first element.
func (e *engine) initCell(c *cell, v *apt.Var, ctx *frame, pos apt.Pos) error {
	if c.arr == nil {
		val, err := e.eval(ctx, v.Init[0])
		if err != nil {
			return err
		}
		return e.fill(c, val, v.Init[0].At())
	}
	if !c.arr.alloc {
		return nil
	}
	size := c.arr.size()
	if len(v.Init) == 1 {
		if r, _, ok := e.repeat(ctx, v.Init[0]); !ok || r != size {
			val, err := e.eval(ctx, v.Init[0])
			if err != nil {
				return err
			}
			return e.fill(c, val, v.Init[0].At())
		}
	}
	var vals []value
	for _, x := range v.Init {
		n, y, ok := e.repeat(ctx, x)
		if !ok {
			n, y = 1, x
		}
		val, err := e.eval(ctx, y)
		if err != nil {
			return err
		}
		for range n {
			if size >= 0 && int64(len(vals)) >= size {
				break
			}
			vals = append(vals, val)
		}
	}
	if size >= 0 && int64(len(vals)) > size {
		vals = vals[:size]
	}
	for i, val := range vals {
		ec, err := e.elemCell(c.arr, int64(i))
		if err != nil {
			return err
		}
		if err := e.store(ec, val, pos); err != nil {
			return err
		}
	}
	return nil
}

// repeat recognises a DATA repeat r*c with r an integer literal or constant.
func (e *engine) repeat(ctx *frame, x apt.Expr) (int64, apt.Expr, bool) {
	b, ok := x.(*apt.Binary)
	if !ok || b.Op != apt.OpMul {
		return 0, nil, false
	}
	switch b.X.(type) {
	case *apt.Const, *apt.Name:
	default:
		return 0, nil, false
	}
	if !apt.IsInteger(b.X) {
		return 0, nil, false
	}
	r, err := e.evalInt(ctx, b.X)
	if err != nil || r < 0 {
		return 0, nil, false
	}
	return r, b.Y, true
}

// fill stores val into c: a scalar, or every element of an array (a scalar
// value is broadcast, an array value is copied in element order).
func (e *engine) fill(c *cell, val value, pos apt.Pos) error {
	if c.arr == nil {
		return e.store(c, val, pos)
	}
	if !c.arr.alloc {
		if !val.isArr() {
			return fmt.Errorf("%s: assignment to an unallocated array", pos)
		}
		lo := make([]int64, len(val.arr.shape))
		for i := range lo {
			lo[i] = 1
		}
		if err := e.allocate(c.arr, lo, slices.Clone(val.arr.shape)); err != nil {
			return fmt.Errorf("%s: %v", pos, err)
		}
	}
	size := c.arr.size()
	if size < 0 {
		return fmt.Errorf("%s: whole-array assignment to an assumed-size array", pos)
	}
	offs := make([]int64, size)
	for i := range offs {
		offs[i] = int64(i)
	}
	return e.storeArray(c.arr, offs, val, pos)
}

// elemCell returns the cell of the element at offset off (relative to the
// array's first element), creating it.
func (e *engine) elemCell(a *array, off int64) (*cell, error) {
	key := a.off + off
	if c := a.st.m[key]; c != nil {
		return c, nil
	}
	c := &cell{typ: a.elem, clen: a.clen, dt: a.dt}
	if a.dt != nil {
		obj, err := e.newObject(a.dt, apt.Pos{})
		if err != nil {
			return nil, err
		}
		c.v = value{k: kObj, obj: obj}
	} else {
		c.v = zeroOf(a.elem, a.clen)
	}
	a.st.m[key] = c
	return c, nil
}

// elemValue reads the element at offset off without creating it.
func (e *engine) elemValue(a *array, off int64) (value, error) {
	if c := a.st.m[a.off+off]; c != nil {
		return c.v, nil
	}
	if a.dt != nil {
		c, err := e.elemCell(a, off)
		if err != nil {
			return value{}, err
		}
		return c.v, nil
	}
	return zeroOf(a.elem, a.clen), nil
}

// store assigns val to the scalar cell c, converting it to c's type;
// assignments to parameters are ignored.
func (e *engine) store(c *cell, val value, pos apt.Pos) error {
	if c.fixed {
		return nil
	}
	if c.arr != nil {
		return e.fill(c, val, pos)
	}
	if val.isArr() {
		return fmt.Errorf("%s: array value assigned to a scalar", pos)
	}
	if c.typ.Base == apt.TypeDerived {
		if val.k != kObj {
			return fmt.Errorf("%s: %s value assigned to a derived-type variable", pos, val.k)
		}
		if c.v.obj == nil {
			obj, err := e.newObject(val.obj.dt, pos)
			if err != nil {
				return err
			}
			c.v = value{k: kObj, obj: obj}
		}
		return e.copyObject(c.v.obj, val.obj, pos)
	}
	if val.k == kProc {
		c.v = val
		return nil
	}
	out, err := convert(val, c.typ, c.clen)
	if err != nil {
		return fmt.Errorf("%s: %v", pos, err)
	}
	c.v = out
	return nil
}

// copyObject assigns the components of src to dst (intrinsic assignment of a
// derived type: allocatable components are copied deeply).
func (e *engine) copyObject(dst, src *object, pos apt.Pos) error {
	if dst == src {
		return nil
	}
	for name, sf := range src.fields {
		df := dst.fields[name]
		if df == nil {
			df = &cell{typ: sf.typ, clen: sf.clen, dt: sf.dt}
			dst.fields[name] = df
		}
		if sf.arr != nil {
			df.arr = e.cloneArray(sf.arr)
			continue
		}
		if err := e.store(df, sf.v, pos); err != nil {
			return err
		}
	}
	return nil
}

func (e *engine) cloneArray(a *array) *array {
	out := &array{elem: a.elem, clen: a.clen, dt: a.dt, deferred: a.deferred}
	if !a.alloc {
		return out
	}
	out.alloc, out.lo, out.ext = true, slices.Clone(a.lo), slices.Clone(a.ext)
	out.st = newStorage(out.size())
	size := a.size()
	for k, c := range a.st.m {
		off := k - a.off
		if off < 0 || (size >= 0 && off >= size) {
			continue
		}
		nc := &cell{typ: c.typ, clen: c.clen, dt: c.dt, v: c.v}
		if c.v.k == kObj && c.v.obj != nil {
			obj := &object{dt: c.v.obj.dt, fields: map[string]*cell{}}
			_ = e.copyObject(obj, c.v.obj, apt.Pos{})
			nc.v = value{k: kObj, obj: obj}
		}
		out.st.m[off] = nc
	}
	return out
}

// storeArray assigns val to the elements at offsets offs of a.
func (e *engine) storeArray(a *array, offs []int64, val value, pos apt.Pos) error {
	if val.isArr() && len(val.arr.elems) != len(offs) {
		return fmt.Errorf("%s: array assignment of %d elements to %d", pos, len(val.arr.elems), len(offs))
	}
	for i, off := range offs {
		x := val
		if val.isArr() {
			x = val.arr.elems[i]
		}
		c, err := e.elemCell(a, off)
		if err != nil {
			return err
		}
		if err := e.store(c, x, pos); err != nil {
			return err
		}
	}
	return nil
}
