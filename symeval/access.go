package symeval

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// The memory traffic of a loop nest (issue 47).
//
// An innermost loop moves data the way its array references walk memory:
// each reference's address changes by a fixed number of bytes per
// iteration (its stride, from the subscripts and the declared extents), or
// by an amount read from memory (a gather or scatter through an index
// array). References to one array whose addresses differ by a constant
// (a(i-1), a(i), a(i+1); u(i,j-1), u(i,j+1)) are one stream: the first
// brings the data from wherever it lives, the others find it in the
// cache that holds what the loop touched in between (the layer
// conditions of the ECM model: Stengel, Treibig, Hager, Wellein, "Quantifying
// performance bottlenecks of stencil computations using the
// Execution-Cache-Memory model", ICS 2015). A reference whose address no
// enclosing loop of the nest changes is reused on every iteration of that
// loop, from the cache holding one iteration's data; otherwise its data
// comes from the level the nest's footprint fits in, as every call of the
// nest sweeps its arrays again. The level and the time per byte or access
// depend on the machine and the point: Access holds what the program says,
// the cost model prices it.

// AccessKind says how a stream of an innermost loop walks memory.
type AccessKind uint8

// The kinds of access.
const (
	// Contiguous: the address moves by one element per iteration.
	Contiguous AccessKind = iota + 1
	// Strided: the address moves by a fixed stride of more than one
	// element per iteration (Stride), or by an amount the evaluation
	// cannot tell that is at least an extent of the array.
	Strided
	// Indirect: the address is read from memory (a subscript holds an
	// array element): a gather or a scatter.
	Indirect
)

var accessKindNames = [...]string{Contiguous: "contiguous", Strided: "strided", Indirect: "indirect"}

// String returns the kind's name.
func (k AccessKind) String() string {
	if int(k) < len(accessKindNames) && accessKindNames[k] != "" {
		return accessKindNames[k]
	}
	return "AccessKind(" + strconv.Itoa(int(k)) + ")"
}

// Access is one stream of an innermost loop: the references to one array
// whose addresses move together, as the loop runs them once per iteration.
type Access struct {
	// Array is the array's name as written; Pos the first reference.
	Array string
	Pos   apt.Pos
	Kind  AccessKind
	// Elem is the size of one element in bytes.
	Elem int64
	// Stride is the distance in bytes the address moves per iteration
	// (its absolute value), valid when StrideKnown; an Indirect access
	// has none.
	Stride      symbolic.Expr
	StrideKnown bool
	// Store is set when the loop writes the array through the stream.
	Store bool
	// Reuse is the data the nest touches between two uses of the
	// stream's elements, in bytes: where the access finds them. Nil means
	// the nest's footprint (no reuse within one run of the nest; the data
	// comes back from wherever the whole nest's data fits).
	Reuse *symbolic.Expr
	// LineReuse is, for a Strided access, the data touched between two
	// uses of the same cache line by an enclosing loop whose iterations
	// step through the line (a transposition's columns): the level holding
	// it serves the line's other elements. Nil when no enclosing loop of
	// the nest does.
	LineReuse *symbolic.Expr
	// Refs is the number of references folded into the stream.
	Refs int
	// Move is set on the streams of a loop that only copies consecutive
	// elements of one array to another's (blockMove): compilers put the C
	// library's block move in its place, whose time is its bytes' and not
	// its statements'.
	Move bool
	// Fresh is, where the loop's stores are the first writes of the array
	// the run makes (firsttouch.go), the array's bytes, whose pages the
	// loop's first run maps; nil otherwise.
	Fresh *symbolic.Expr
}

// accessRef is one array element reference of an innermost loop's body.
type accessRef struct {
	x     *apt.Index
	store bool
	lin   symbolic.Expr // the byte offset of the element, in loop symbols and invariants
	base  apt.BaseType  // the element's type
	// shape: 0 affine, 1 indirect, 2 irregular (a product of loop
	// variables, an integer division, a function).
	shape int
	elem  int64
}

// Shapes of a subscript.
const (
	shapeAffine = iota
	shapeIndirect
	shapeIrregular
)

// nestLoop is a loop of a nest with its domain symbol and trip count.
type nestLoop struct {
	l     *apt.Loop
	sym   string
	step  symbolic.Expr
	trips *symbolic.Expr // nil when not a closed form in invariants
}

// loopSymPrefix marks the symbols that stand for DO variables in an
// access's offset: they never reach a report.
const loopSymPrefix = "@"

// nestAccesses computes the streams of every innermost loop of the nest l
// in the current context.
func (ev *evaluator) nestAccesses(l *apt.Loop) map[*apt.Loop][]Access {
	mod := map[string]bool{}
	for _, k := range ev.modified([]apt.Node{l}) {
		mod[k] = true
	}
	out := map[*apt.Loop][]Access{}
	ev.walkNest(l, nil, &nestInfo{mod: mod, defs: nestDefs(l), counters: nestCounters(l)}, out)
	return out
}

// nestCounters returns the scalars every assignment of the nest l steps
// by the same integer constant (v = v + c, v = c + v, v = v - c), with the
// loops around each step.
func nestCounters(l *apt.Loop) map[string]*counter {
	out := map[string]*counter{}
	bad := map[string]bool{}
	var walk func(ns []apt.Node, loops []*apt.Loop)
	walk = func(ns []apt.Node, loops []*apt.Loop) {
		for _, n := range ns {
			apt.Inspect(n, func(m apt.Node) bool {
				switch x := m.(type) {
				case *apt.Loop:
					if x.Var != "" {
						bad[x.Var] = true
					}
					walk(x.Body, append(slices.Clip(loops), x))
					return false
				case *apt.Block:
					for _, st := range x.Stmts {
						t, ok := st.Target.(*apt.Name)
						if !ok || t.Array {
							continue
						}
						c, ok := counterStep(t.Name, st)
						if !ok || out[t.Name] != nil && !out[t.Name].step.Equal(c) {
							bad[t.Name] = true
							continue
						}
						if out[t.Name] == nil {
							out[t.Name] = &counter{step: c, loops: map[*apt.Loop]bool{}}
						}
						for _, lp := range loops {
							out[t.Name].loops[lp] = true
						}
					}
				case *apt.Call, *apt.Comm:
					return false
				}
				return true
			})
		}
	}
	walk([]apt.Node{l}, nil)
	for k := range bad {
		delete(out, k)
	}
	return out
}

// counterStep returns c when st is v = v + c, v = c + v or v = v - c with c an
// integer constant.
func counterStep(v string, st *apt.Stmt) (symbolic.Rat, bool) {
	b, ok := st.Value.(*apt.Binary)
	if st.Kind != apt.StmtAssign || !ok || b.Op != apt.OpAdd && b.Op != apt.OpSub {
		return symbolic.Rat{}, false
	}
	isV := func(e apt.Expr) bool { n, ok := e.(*apt.Name); return ok && n.Name == v }
	konst := func(e apt.Expr) (symbolic.Rat, bool) {
		c, ok := e.(*apt.Const)
		if !ok || c.Kind != apt.ConstInt {
			return symbolic.Rat{}, false
		}
		n, err := strconv.ParseInt(c.Text, 10, 64)
		return symbolic.RatInt(n), err == nil
	}
	switch {
	case isV(b.X):
		c, ok := konst(b.Y)
		if b.Op == apt.OpSub {
			c = c.Neg()
		}
		return c, ok
	case isV(b.Y) && b.Op == apt.OpAdd:
		return konst(b.X)
	}
	return symbolic.Rat{}, false
}

// bodyDefs returns the scalars the body of the innermost loop l assigns
// once, in a statement outside any branch, with the value assigned
// (i = colidx(k) before x(i)): the references after it read that value.
func bodyDefs(l *apt.Loop) map[string]apt.Expr {
	count := map[string]int{}
	defs := map[string]apt.Expr{}
	for _, n := range l.Body {
		plain := true
		if _, ok := n.(*apt.Block); !ok {
			plain = false
		}
		apt.Inspect(n, func(m apt.Node) bool {
			b, ok := m.(*apt.Block)
			if !ok {
				return true
			}
			for _, st := range b.Stmts {
				if t, ok := st.Target.(*apt.Name); ok && !t.Array {
					count[t.Name]++
					if plain && st.Kind == apt.StmtAssign && st.Value != nil {
						defs[t.Name] = st.Value
					}
				}
			}
			return true
		})
	}
	for k := range defs {
		if count[k] != 1 {
			delete(defs, k)
		}
	}
	return defs
}

// nestInfo is what every loop of a nest shares: the storage its body
// changes, and the scalars it assigns once, unconditionally, with their
// values (an offset computed from the loop variables before an inner
// loop, i11 = i*lk + 1), which the subscripts stand for.
type nestInfo struct {
	mod  map[string]bool
	defs map[string]apt.Expr
	// counters are the scalars the nest only steps by a constant
	// (nza = nza + 1, perhaps under a branch): their step, and the loops
	// whose bodies step them.
	counters map[string]*counter
}

// counter is a scalar a nest steps by a constant.
type counter struct {
	step  symbolic.Rat
	loops map[*apt.Loop]bool
}

// nestDefs returns the scalars the nest l assigns exactly once, in a
// statement of a loop body outside any branch, with the value assigned.
func nestDefs(l *apt.Loop) map[string]apt.Expr {
	count := map[string]int{}
	defs := map[string]apt.Expr{}
	var walk func(ns []apt.Node, plain bool)
	walk = func(ns []apt.Node, plain bool) {
		for _, n := range ns {
			switch x := n.(type) {
			case *apt.Block:
				for _, st := range x.Stmts {
					t, ok := st.Target.(*apt.Name)
					if !ok || t.Array {
						continue
					}
					count[t.Name]++
					if plain && st.Kind == apt.StmtAssign && st.Value != nil {
						defs[t.Name] = st.Value
					}
				}
			case *apt.Loop:
				if x.Var != "" {
					count[x.Var] += 2 // a DO variable is its own symbol
				}
				walk(x.Body, true)
			case *apt.If:
				for _, b := range x.Branches {
					walk(b.Body, false)
				}
			}
		}
	}
	walk([]apt.Node{l}, true)
	for k := range defs {
		if count[k] != 1 {
			delete(defs, k)
		}
	}
	return defs
}

// walkNest descends the loops of a nest (not into calls), carrying the
// enclosing loops, and computes the accesses of each innermost one.
func (ev *evaluator) walkNest(l *apt.Loop, outer []nestLoop, info *nestInfo, out map[*apt.Loop][]Access) {
	nl := nestLoop{l: l, sym: loopSymPrefix + l.Var}
	loops := append(slices.Clip(outer), nl)
	c := &affineCtx{ev: ev, loops: loops, info: info}
	if l.Var != "" && l.Iterations == nil && l.While == nil {
		nl.step = symbolic.Int(1)
		step := shapeAffine
		if l.Step != nil {
			nl.step, step = c.expr(l.Step)
		}
		lo, s1 := c.expr(l.Lower)
		hi, s2 := c.expr(l.Upper)
		if max(step, s1, s2) == shapeAffine && !c.varies(nl.step) && !c.varies(lo) && !c.varies(hi) {
			if k, ok := nl.step.Const(); ok && !k.IsZero() {
				t := hi.Sub(lo).Scale(k.Inv()).Add(symbolic.Int(1))
				nl.trips = &t
			}
		}
	} else {
		nl.sym = ""
	}
	loops[len(loops)-1] = nl
	inner := false
	for _, n := range l.Body {
		apt.Inspect(n, func(m apt.Node) bool {
			switch x := m.(type) {
			case *apt.Loop:
				inner = true
				ev.walkNest(x, loops, info, out)
				return false
			case *apt.Call, *apt.Comm:
				return false
			}
			return true
		})
	}
	if !inner {
		out[l] = ev.innerAccesses(l, loops, info)
	}
}

// affineCtx turns subscripts into symbolic offsets: DO variables of the
// nest as symbols of their own, values the nest does not change as the
// evaluation knows them.
type affineCtx struct {
	ev    *evaluator
	loops []nestLoop
	info  *nestInfo
	// local holds the scalars the innermost loop's body assigns once
	// (bodyDefs), nil for a loop's bounds.
	local map[string]apt.Expr
	// subst holds the scalars being substituted, against cycles.
	subst map[string]bool
}

// varies reports whether e mentions a DO variable of the nest.
func (c *affineCtx) varies(e symbolic.Expr) bool {
	for _, s := range e.Symbols() {
		if strings.HasPrefix(s, loopSymPrefix) {
			return true
		}
	}
	return false
}

// expr returns e as a symbolic expression and its shape.
func (c *affineCtx) expr(e apt.Expr) (symbolic.Expr, int) {
	switch x := e.(type) {
	case *apt.Const:
		v := c.ev.value(x)
		if s, ok := v.Single(); ok {
			if r, isConst := s.Const(); isConst && r.IsInt() {
				return s, shapeAffine
			}
		}
		return symbolic.Expr{}, shapeIrregular
	case *apt.Name:
		for i := len(c.loops) - 1; i >= 0; i-- {
			if c.loops[i].l.Var == x.Name && c.loops[i].sym != "" {
				return symbolic.Sym(c.loops[i].sym), shapeAffine
			}
		}
		if c.info.mod[c.ev.key(x.Name)] {
			def, ok := c.local[x.Name]
			if !ok {
				def, ok = c.info.defs[x.Name]
			}
			if !ok {
				if ctr := c.info.counters[x.Name]; ctr != nil {
					// A counter: it moves by its step at most once per
					// iteration of the loops that step it.
					v := symbolic.Sym("?" + x.Name)
					if me := c.loops[len(c.loops)-1]; me.sym != "" && ctr.loops[me.l] {
						v = v.Add(symbolic.Sym(me.sym).Scale(ctr.step))
					}
					return v, shapeAffine
				}
			}
			if !ok || c.subst[x.Name] {
				return symbolic.Expr{}, shapeIrregular
			}
			if c.subst == nil {
				c.subst = map[string]bool{}
			}
			c.subst[x.Name] = true
			v, sh := c.expr(def)
			delete(c.subst, x.Name)
			return v, sh
		}
		if s, ok := c.ev.closedSize(c.ev.value(x), x.Pos).Single(); ok && s.IsIntegerValued() {
			return s, shapeAffine
		}
		// An invariant the evaluation has no value for: a symbol of its
		// own, which differences cancel.
		return symbolic.Sym("?" + x.Name), shapeAffine
	case *apt.Unary:
		v, sh := c.expr(x.X)
		switch x.Op {
		case apt.OpNeg:
			return v.Neg(), sh
		case apt.OpPlus:
			return v, sh
		}
	case *apt.Binary:
		a, sa := c.expr(x.X)
		b, sb := c.expr(x.Y)
		sh := max(sa, sb)
		if sh != shapeAffine {
			return symbolic.Expr{}, sh
		}
		switch x.Op {
		case apt.OpAdd:
			return a.Add(b), sh
		case apt.OpSub:
			return a.Sub(b), sh
		case apt.OpMul:
			if c.varies(a) && c.varies(b) {
				return symbolic.Expr{}, shapeIrregular
			}
			return a.Mul(b), sh
		}
	case *apt.Index:
		if x.Base == nil && c.ev.prog.Resolve(c.ev.frame().routine, x.Name) == nil {
			break // a function reference
		}
		return symbolic.Expr{}, shapeIndirect
	case *apt.Component:
		return symbolic.Expr{}, shapeIndirect
	}
	return symbolic.Expr{}, shapeIrregular
}

// innerAccesses groups the array references of the innermost loop l into
// streams and finds where each finds its data.
func (ev *evaluator) innerAccesses(l *apt.Loop, loops []nestLoop, info *nestInfo) []Access {
	me := loops[len(loops)-1]
	if me.sym == "" {
		return nil
	}
	c := &affineCtx{ev: ev, loops: loops, info: info, local: bodyDefs(l)}
	rowMajor := ev.prog.FromIR
	var refs []accessRef
	add := func(x *apt.Index, store bool) {
		for _, s := range x.Subs {
			if _, ok := s.(*apt.Section); ok {
				return // an array section: an array statement of its own
			}
		}
		r := accessRef{x: x, store: store}
		var dims []apt.Dim
		if x.Base == nil {
			d := ev.prog.Resolve(ev.frame().routine, x.Name)
			if d == nil || !d.IsArray() {
				return // a function reference
			}
			dims = d.Dims
			r.base = d.Type.Base
			if b, ok := ev.elemBytes(d.Type); ok {
				r.elem = b
			}
		} else {
			r.base = x.Type.Base
		}
		if r.elem == 0 {
			b, ok := ev.elemBytes(x.Type)
			if !ok {
				return
			}
			r.elem = b
		}
		r.lin, r.shape = c.offset(x.Subs, dims, r.elem, rowMajor)
		refs = append(refs, r)
	}
	collectRefs(l.Body, add)
	// The streams: references to one array whose offsets differ by an
	// invariant amount.
	type group struct {
		refs []accessRef
	}
	var groups []*group
	for _, r := range refs {
		joined := false
		for _, g := range groups {
			f := g.refs[0]
			if f.x.Name != r.x.Name || (f.x.Base == nil) != (r.x.Base == nil) || f.elem != r.elem || f.shape != r.shape {
				continue
			}
			// Affine references an invariant distance apart; others
			// written alike (x(i) = x(i) + a(k) reads and writes one
			// element).
			if f.shape == shapeAffine && !c.varies(r.lin.Sub(f.lin)) ||
				f.shape != shapeAffine && canonicalSubs(f.x.Subs, "") == canonicalSubs(r.x.Subs, "") {
				g.refs = append(g.refs, r)
				joined = true
				break
			}
		}
		if !joined {
			groups = append(groups, &group{refs: []accessRef{r}})
		}
	}
	// bytes is what one iteration of l moves, for the reuse distances: a
	// line for a strided or indirect stream, the stride for one that
	// moves by less than a line.
	line := symbolic.Int(lineBytes)
	bytes := symbolic.Int(0)
	type stream struct {
		a Access
		g *group
	}
	var streams []stream
	for _, g := range groups {
		f := g.refs[0]
		a := Access{Array: f.x.Name, Pos: f.x.Pos, Elem: f.elem, Refs: len(g.refs)}
		for _, r := range g.refs {
			a.Store = a.Store || r.store
		}
		switch {
		case f.shape == shapeIndirect:
			a.Kind = Indirect
			if n, ok := ev.arrayBytes(f.x); ok {
				a.Reuse = &n
			}
			bytes = bytes.Add(line)
		case f.shape == shapeIrregular:
			a.Kind = Strided
			bytes = bytes.Add(line)
		default:
			d, _ := f.lin.Diff(me.sym)
			stride := d.Mul(me.step)
			if c.varies(stride) {
				a.Kind = Strided
				bytes = bytes.Add(line)
				break
			}
			if stride.IsZero() {
				continue // invariant in the loop: a register or L1
			}
			if v, ok := stride.Const(); ok && v.Sign() < 0 {
				stride = stride.Neg()
			} else if lead, ok := stride.Lead().Const(); ok && lead.Sign() < 0 {
				stride = stride.Neg() // an extent walked backwards
			}
			a.Stride, a.StrideKnown = stride, true
			v, isConst := stride.Const()
			switch {
			case isConst && v.Cmp(symbolic.RatInt(f.elem)) <= 0:
				a.Kind = Contiguous
				bytes = bytes.Add(stride)
			case isConst && v.Cmp(symbolic.RatInt(lineBytes)) < 0:
				a.Kind = Strided
				bytes = bytes.Add(stride)
			default:
				a.Kind = Strided
				bytes = bytes.Add(line)
			}
		}
		streams = append(streams, stream{a, g})
	}
	var out []Access
	for _, st := range streams {
		a, f := st.a, st.g.refs[0]
		if a.Kind != Indirect && f.shape == shapeAffine {
			// Temporal reuse: the innermost enclosing loop whose
			// variable does not move the stream reuses it on each of its
			// iterations; a strided stream's lines are reused by the
			// innermost one that moves it by less than a line.
			per := bytes // the data of one iteration of loops[j]
			for j := len(loops) - 2; j >= 0; j-- {
				if loops[j+1].trips == nil || loops[j].sym == "" {
					break
				}
				per = per.Mul(*loops[j+1].trips)
				dj, _ := f.lin.Diff(loops[j].sym)
				if dj.IsZero() {
					d := per
					a.Reuse = &d
					break
				}
				if a.Kind == Strided && a.LineReuse == nil {
					if v, ok := dj.Mul(loops[j].step).Const(); ok && v.Abs().Cmp(symbolic.RatInt(lineBytes)) < 0 {
						d := per
						a.LineReuse = &d
					}
				}
			}
		}
		if len(st.g.refs) > 1 && a.StrideKnown && a.Reuse == nil {
			// The other references of the stream find the data the
			// first brought, in the cache holding what the loop touched
			// in between: streams of their own at that distance.
			a.Refs, a.Store = 1, f.store
			for _, r := range st.g.refs[1:] {
				off := r.lin.Sub(f.lin)
				its, ok := iterationsApart(off, a.Stride)
				if !ok || off.IsZero() {
					a.Refs++ // the same element, or no distance: with the first
					a.Store = a.Store || r.store
					continue
				}
				d := its.Mul(bytes)
				out = append(out, Access{Array: a.Array, Pos: r.x.Pos, Kind: a.Kind, Elem: a.Elem, Stride: a.Stride,
					StrideKnown: true, Store: r.store, Reuse: &d, Refs: 1})
			}
		}
		out = append(out, a)
	}
	if !rowMajor && blockMove(l, refs, out) {
		for i := range out {
			out[i].Move = true
		}
	}
	return out
}

// blockMove reports whether the Fortran innermost loop l only copies: its
// body a block of assignments, each of one array element to another of the
// same type, no array both written and read, with no arithmetic, and its
// streams all consecutive elements. Compilers replace such a loop by calls
// of the C library's block move (GCC's loop distribution from -O2), which
// moves whole lines with the widest loads and stores the processor has;
// Fortran's distinct arrays do not overlap, which is what lets them. Not
// for C and C++: two pointers may address one array, and neither gcc nor
// clang replaces the loop then; nor for a copy within one array (gfortran
// keeps buff(i,4) = buff(i,3) a loop).
func blockMove(l *apt.Loop, refs []accessRef, streams []Access) bool {
	if len(l.Body) != 1 || len(streams) < 2 {
		return false
	}
	b, ok := l.Body[0].(*apt.Block)
	if !ok || len(b.Stmts) == 0 || len(refs) != 2*len(b.Stmts) {
		return false
	}
	for _, s := range b.Stmts {
		_, target := s.Target.(*apt.Index)
		_, value := s.Value.(*apt.Index)
		o := s.Ops
		if s.Kind != apt.StmtAssign || !target || !value || s.Mask != nil || o.Vector || o.Loads != 1 || o.Stores != 1 ||
			o.Adds+o.Muls+o.Divs+o.Pows+o.Negs+o.Cmps+o.Logic != 0 || len(o.Intrinsics)+len(o.Calls) != 0 {
			return false
		}
	}
	written := map[string]bool{}
	for _, r := range refs {
		if r.shape != shapeAffine || r.elem != refs[0].elem || r.base != refs[0].base || r.x.Base != nil {
			return false
		}
		if r.store {
			written[r.x.Name] = true
		}
	}
	for _, r := range refs {
		if !r.store && written[r.x.Name] {
			return false
		}
	}
	elem := symbolic.Int(refs[0].elem)
	for _, a := range streams {
		if a.Kind != Contiguous || !a.StrideKnown || !a.Stride.Sub(elem).IsZero() {
			return false
		}
	}
	return true
}

// lineBytes is the cache line the reuse distances count with: 64 bytes
// (model.DefaultLine); the machine's own line prices the accesses.
const lineBytes = 64

// iterationsApart is how many iterations of a loop moving the address by
// stride bytes separate two references off bytes apart: |off/stride| when
// that is a closed form, false otherwise.
func iterationsApart(off, stride symbolic.Expr) (symbolic.Expr, bool) {
	if off.IsZero() {
		return symbolic.Int(0), true
	}
	if s, ok := stride.Const(); ok && !s.IsZero() {
		q := off.Scale(s.Inv())
		if v, ok := q.Const(); ok && v.Sign() < 0 {
			q = q.Neg()
		}
		if _, ok := q.Const(); !ok {
			// A symbolic distance (an extent): its sign is that of the
			// extents, taken as positive.
			if lead, ok := q.Lead().Const(); ok && lead.Sign() < 0 {
				q = q.Neg()
			}
		}
		return q, true
	}
	for k := int64(-8); k <= 8; k++ {
		if off.Sub(stride.Scale(symbolic.RatInt(k))).IsZero() {
			return symbolic.Int(max(k, -k)), true
		}
	}
	return symbolic.Expr{}, false
}

// offset is the byte offset of the element subs selects, relative to the
// array's first (Fortran's column-major order; C's row-major when
// rowMajor), with its shape.
func (c *affineCtx) offset(subs []apt.Expr, dims []apt.Dim, elem int64, rowMajor bool) (symbolic.Expr, int) {
	shape := shapeAffine
	es := make([]symbolic.Expr, len(subs))
	for i, s := range subs {
		var sh int
		es[i], sh = c.expr(s)
		shape = max(shape, sh)
	}
	if shape != shapeAffine {
		return symbolic.Expr{}, shape
	}
	order := make([]int, len(subs)) // fastest dimension first
	for i := range order {
		order[i] = i
		if rowMajor {
			order[i] = len(subs) - 1 - i
		}
	}
	lin := symbolic.Int(0)
	mult := symbolic.Int(elem)
	for k, d := range order {
		lin = lin.Add(es[d].Mul(mult))
		if k == len(order)-1 {
			break
		}
		var ext symbolic.Expr
		known := false
		if d < len(dims) {
			ext, known = c.ev.closedExtent(dims[d])
		}
		if !known {
			// An extent the evaluation has no value for: a symbol of its
			// own, so that a stride across it is not a number (taken as a
			// line or more) and offsets along it still cancel.
			ext = symbolic.Sym("?extent" + strconv.Itoa(d))
		}
		mult = mult.Mul(ext)
	}
	return lin, shapeAffine
}

// arrayBytes is the declared size in bytes of the array x refers to, where
// known in this context.
func (ev *evaluator) arrayBytes(x *apt.Index) (symbolic.Expr, bool) {
	if x.Base != nil {
		return symbolic.Expr{}, false
	}
	d := ev.prog.Resolve(ev.frame().routine, x.Name)
	if d == nil {
		return symbolic.Expr{}, false
	}
	size, ok := ev.elemBytes(d.Type)
	if !ok {
		return symbolic.Expr{}, false
	}
	n, ok := ev.arrayElemsClosed(x.Name)
	if !ok {
		return symbolic.Expr{}, false
	}
	return n.Mul(symbolic.Int(size)), true
}

// collectRefs calls f for each array element reference of the statements
// of body (its branches' included; not its calls'), with whether it is
// stored to: an assignment's target is, its subscripts are read.
func collectRefs(body []apt.Node, f func(x *apt.Index, store bool)) {
	loads := func(es ...apt.Expr) {
		for _, e := range es {
			if e == nil {
				continue
			}
			apt.InspectExpr(e, func(x apt.Expr) bool {
				if y, ok := x.(*apt.Index); ok {
					f(y, false)
				}
				return true
			})
		}
	}
	for _, n := range body {
		apt.Inspect(n, func(m apt.Node) bool {
			switch x := m.(type) {
			case *apt.Block:
				for _, s := range x.Stmts {
					if t, ok := s.Target.(*apt.Index); ok {
						f(t, true)
						loads(t.Subs...)
					} else {
						loads(s.Target)
					}
					loads(s.Value, s.Mask)
					loads(s.Args...)
				}
			case *apt.If:
				loads(x.Selector)
				for _, b := range x.Branches {
					loads(b.Cond)
				}
			case *apt.Call, *apt.Comm, *apt.Loop:
				return false
			}
			return true
		})
	}
}
