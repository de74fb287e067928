package concrete

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/runenv"
)

// node compiles one node of a statement list.
func (c *compiler) node(n apt.Node) func(a *act) ctl {
	k := c.count(n)
	saved := c.site
	c.site = n
	defer func() { c.site = saved }()
	pos := n.Base().Span.Start()
	counted := func(f func(a *act) ctl) func(a *act) ctl {
		return func(a *act) ctl {
			a.ctx.counts[k]++
			a.m.tick(pos)
			return f(a)
		}
	}
	switch n := n.(type) {
	case *apt.Block:
		return counted(c.block(n))
	case *apt.Loop:
		return counted(c.loop(n, k))
	case *apt.If:
		return counted(c.ifNode(n))
	case *apt.Call:
		call := c.call(n, n.Callee, n.Args, pos)
		return counted(func(a *act) ctl { call(a).release(); return ctl{} })
	case *apt.Goto:
		return counted(c.gotoNode(n))
	case *apt.Return:
		if n.Value != nil {
			stop(pos, "alternate RETURN")
		}
		return counted(func(*act) ctl { return ctl{k: ctlReturn} })
	case *apt.Exit:
		return counted(func(*act) ctl { return ctl{k: ctlExit, label: n.Construct} })
	case *apt.Cycle:
		return counted(func(*act) ctl { return ctl{k: ctlCycle, label: n.Construct} })
	case *apt.Continue, *apt.Region:
		return counted(func(*act) ctl { return ctl{} })
	case *apt.IO:
		if n.Kind != apt.IOWrite && n.Kind != apt.IOPrint {
			stop(pos, "%s statement", n.Kind)
		}
		for _, it := range n.Items {
			if callsFunction(c.m, c.rt.r, it) {
				stop(pos, "output of a function's result")
			}
		}
		return counted(func(*act) ctl { return ctl{} })
	case *apt.Stop:
		// A run that reaches a STOP (an error check that fails) is not
		// one the caller takes.
		return counted(func(*act) ctl { stop(pos, "STOP"); return ctl{} })
	case *apt.Comm:
		if n.Op != apt.MPIAbort {
			// A routine that communicates is the evaluation's: its
			// messages are not the run's to make.
			stop(pos, "MPI call %s", n.Op)
		}
		// An error check's abort: the run stops only where it is met.
		return counted(func(*act) ctl { stop(pos, "MPI_ABORT"); return ctl{} })
	}
	stop(pos, "statement %T", n)
	return nil
}

// callsFunction reports whether e references one of the program's
// functions.
func callsFunction(m *Machine, r *apt.Routine, e apt.Expr) bool {
	found := false
	apt.InspectExpr(e, func(x apt.Expr) bool {
		if f, ok := x.(*apt.FuncCall); ok && !f.Intrinsic && m.Routine(r, f.Name) != nil {
			found = true
		}
		return !found
	})
	return found
}

// block compiles a block's assignments.
func (c *compiler) block(b *apt.Block) func(a *act) ctl {
	saved := c.site
	c.site = b
	defer func() { c.site = saved }()
	fns := make([]func(a *act), len(b.Stmts))
	for i, s := range b.Stmts {
		if s.Kind != apt.StmtAssign || s.Mask != nil {
			stop(s.Span.Start(), "%s statement", s.Kind)
		}
		fns[i] = c.assign(s)
	}
	return func(a *act) ctl {
		for _, f := range fns {
			f(a)
		}
		return ctl{}
	}
}

// assign compiles target = value for a scalar variable or an element.
func (c *compiler) assign(s *apt.Stmt) func(a *act) {
	pos := s.Span.Start()
	var i int
	var off func(a *act) int64
	switch t := s.Target.(type) {
	case *apt.Name:
		v := c.m.prog.Resolve(c.rt.r, t.Name)
		if v != nil && v.Param != nil {
			stop(pos, "assignment to the constant %s", t.Name)
		}
		if v != nil && c.structPointer(v) {
			// bp = &blocks[i]: the frontend wrote bp->f as blocks.f[i]
			// already (the structures' fields are arrays of their own),
			// so the pointer is only an address, read nowhere the run
			// follows (a read through it stops). The routine's own:
			// after the run the evaluation forgets where it pointed
			// (concreteLoop), and a callee's dies with it.
			if c.rt.r.Scope.Lookup(t.Name) != v || v.Save || v.InCommon || len(v.Init) > 0 {
				stop(pos, "the run does not repoint the global pointer %s", t.Name)
			}
			if c.rt.repointed == nil {
				c.rt.repointed = map[string]apt.Pos{}
			}
			if _, seen := c.rt.repointed[t.Name]; !seen {
				c.rt.repointed[t.Name] = pos
			}
			return func(*act) {}
		}
		i = c.rt.slotOf(c.m, t.Name, pos)
		if f, ok := c.repoint(s, i); ok {
			return f
		}
		if sl := c.rt.slots[i]; sl.v.Type.Base == apt.TypeCharacter {
			return setsText(pos, sl.name)
		}
		if len(c.rt.slots[i].lo) > 0 {
			return c.fill(s, i)
		}
		off = func(a *act) int64 { return a.view(i, pos).off }
	case *apt.Index:
		i, off = c.offset(t)
		if f, ok := c.pointerStore(s, i, off); ok {
			return f
		}
	case *apt.Component:
		if s.Kind != apt.StmtAssign {
			stop(pos, "assignment to %s", apt.FormatExpr(s.Target))
		}
		if j, ok := c.derefField(t); ok {
			i = j
		} else {
			path, root, ok := fieldPath(t)
			if !ok {
				stop(pos, "assignment to %s", apt.FormatExpr(s.Target))
			}
			i = c.rt.fieldSlot(c.m, t, path, root)
		}
		off = func(a *act) int64 { return a.view(i, pos).off }
	case *apt.FuncCall:
		if t.Intrinsic || t.Type.Base != apt.TypeUnknown || apt.TypeOf(s.Value).Base != apt.TypeReal {
			stop(pos, "assignment to %s", apt.FormatExpr(s.Target))
		}
		// A store of floating-point data through a reference the
		// frontend could not resolve (C's bp->array[v][i][j][k] of a
		// double ****, an unknown of unknown type): the program's data,
		// whose stores the evaluation drops too; the value's calls
		// still run.
		f := c.realExpr(s.Value)
		return func(a *act) { f(a) }
	default:
		stop(pos, "assignment to %s", apt.FormatExpr(s.Target))
	}
	sl := c.rt.slots[i]
	if sl.v.Type.Base == apt.TypeCharacter {
		return setsText(pos, sl.name)
	}
	if sl.real {
		f := c.realExpr(s.Value)
		return func(a *act) {
			o := off(a)
			v, ok := f(a)
			st := a.vars[i].s
			st.F[o], st.Known[o], st.Written = round(v, st.Single), ok, true
		}
	}
	var f ival
	if sl.v.Type.Base == apt.TypeLogical {
		f = c.intExpr(s.Value)
		g := f
		f = func(a *act) (int64, bool) { v, ok := g(a); return b2i(v != 0), ok }
	} else {
		f = c.intExpr(s.Value)
	}
	return func(a *act) {
		o := off(a)
		v, ok := f(a)
		st := a.vars[i].s
		st.I[o], st.Known[o], st.Written = v, ok, true
	}
}

// structPointer reports whether v is a C pointer to structures (in the C
// frontend's APT, an array of derived type declared without an extent).
func (c *compiler) structPointer(v *apt.Var) bool {
	return c.m.prog.Notation() != apt.Fortran && v.Type.Base == apt.TypeDerived && len(v.Dims) == 1 &&
		(v.Dims[0].Hi == nil || isStar(v.Dims[0].Hi))
}

// setsText compiles an assignment to text: the evaluation may read the
// text after the run, which cannot hand it over, so a run that gets there
// stops (one that does not, an error message on a path not taken, goes on).
func setsText(pos apt.Pos, name string) func(a *act) {
	return func(*act) { stop(pos, "the run sets the text %s, which it does not follow", name) }
}

// repoint compiles an assignment to a C pointer p (in the C frontend's
// APT, an array declared without an extent, p(0:*)): p = q makes p reach
// q's elements, p = &a[k] (written p = a(k)) those from a[k] on, p =
// &s.f the field, as the program's pointer does. Any other value (NULL, a pointer an array
// holds, one a function returns) stops the run: it does not follow
// addresses. Only a pointer of the routine's own (a local, a dummy: C
// passes pointers by value) is repointed; another routine may hold a
// global one bound already, so that stops the run too.
func (c *compiler) repoint(s *apt.Stmt, i int) (func(a *act), bool) {
	sl := c.rt.slots[i]
	if c.m.prog.Notation() == apt.Fortran || len(sl.lo) != 1 || sl.hi[0] != nil {
		return nil, false
	}
	pos := s.Span.Start()
	own := c.rt.r.Scope.Lookup(sl.name) == sl.v && !sl.v.Save && !sl.v.InCommon && len(sl.v.Init) == 0
	if !own {
		stop(pos, "the run does not repoint the global pointer %s", sl.name)
	}
	same := func(v *apt.Var) bool { return v.Type.Base == sl.v.Type.Base && v.Type.Kind == sl.v.Type.Kind }
	lo := sl.lo[0]
	bind := func(a *act, st *Store, off, n int64) {
		l, ok := lo(a)
		if !ok {
			stop(pos, "the bounds of %s are not known", sl.name)
		}
		// p(lo) is the first element it reaches.
		a.vars[i] = view{s: st, off: off, lo: []int64{l}, stride: []int64{1}, n: n, shaped: true}
	}
	switch q := s.Value.(type) {
	case *apt.Name:
		j := c.rt.slotOf(c.m, q.Name, pos)
		if sq := c.rt.slots[j]; len(sq.lo) != 1 || !same(sq.v) {
			stop(pos, "%s points at elements of another kind", sl.name)
		}
		return func(a *act) {
			from := a.view(j, pos)
			bind(a, from.s, from.off, from.n)
		}, true
	case *apt.Index:
		if s.Load {
			// p = rows[i]: the address an array of pointers holds.
			addr := c.intExpr(q)
			return func(a *act) {
				x, ok := addr(a)
				var r *Ref
				if ok && a.m.At != nil {
					r = a.m.At(x, sl.v.Type)
				}
				if r == nil || r.S == nil || r.S.Real != sl.real {
					stop(pos, "the run does not know where %s points", sl.name)
				}
				bind(a, r.S, r.Off, r.S.Len()-r.Off)
			}, true
		}
		j, off := c.address(q)
		if !same(c.rt.slots[j].v) {
			stop(pos, "%s points at elements of another kind", sl.name)
		}
		return func(a *act) {
			o := off(a)
			st := a.vars[j].s
			bind(a, st, o, st.Len()-o)
		}, true
	case *apt.Component:
		// p = &s.f: p reaches the one element the field is.
		path, root, ok := fieldPath(q)
		if !ok || s.Load {
			break
		}
		j := c.rt.fieldSlot(c.m, q, path, root)
		if !same(c.rt.slots[j].v) {
			stop(pos, "%s points at elements of another kind", sl.name)
		}
		return func(a *act) {
			from := a.view(j, pos)
			bind(a, from.s, from.off, 1)
		}, true
	}
	stop(pos, "the run does not follow the address %s is given", sl.name)
	return nil, false
}

// fill compiles a = x for a whole array a and a scalar x (an array
// expression stops the compilation where it names an array); the
// elements it sets are counted under the statement.
func (c *compiler) fill(s *apt.Stmt, i int) func(a *act) {
	pos := s.Span.Start()
	x := c.expr(s.Value)
	k := c.stmtNum(s)
	return func(a *act) {
		vw := a.view(i, pos)
		st := vw.s
		a.ctx.elems[k] += vw.n
		a.m.steps += vw.n / 8
		if st.Real {
			v, ok := x.asReal()(a)
			v = round(v, st.Single)
			for o := vw.off; o < vw.off+vw.n; o++ {
				st.F[o], st.Known[o] = v, ok
			}
		} else {
			v, ok := x.asInt()(a)
			if c.rt.slots[i].v.Type.Base == apt.TypeLogical {
				v = b2i(v != 0)
			}
			for o := vw.off; o < vw.off+vw.n; o++ {
				st.I[o], st.Known[o] = v, ok
			}
		}
		st.Written = true
	}
}

// loop compiles a DO loop: counted (integer bounds, trip count fixed on
// entry, the variable one step past the last after it), DO WHILE, or
// without control.
func (c *compiler) loop(l *apt.Loop, k int) func(a *act) ctl {
	pos := l.Span.Start()
	body := c.list(l.Body)
	// iter runs one iteration; done reports that the loop ends, with
	// the transfer to pass on.
	iter := func(a *act) (bool, ctl) {
		a.ctx.iters[k]++
		a.m.tick(pos)
		r := body(a)
		mine := r.label == "" || r.label == l.Construct
		switch {
		case r.k == ctlNone:
			return false, ctl{}
		case r.k == ctlExit && mine:
			return true, ctl{}
		case r.k == ctlCycle && mine:
			return false, ctl{}
		}
		return true, r
	}
	if l.Var == "" {
		var while func(a *act) bool
		if l.While != nil {
			while = c.cond(l.While)
		}
		return func(a *act) ctl {
			for while == nil || while(a) {
				if done, r := iter(a); done {
					return r
				}
			}
			return ctl{}
		}
	}
	vi := c.rt.slotOf(c.m, l.Var, pos)
	if c.rt.slots[vi].real || len(c.rt.slots[vi].lo) > 0 {
		stop(pos, "DO variable %s is not an integer scalar", l.Var)
	}
	lo, hi := c.intExpr(l.Lower), c.intExpr(l.Upper)
	step := ival(func(*act) (int64, bool) { return 1, true })
	if l.Step != nil {
		step = c.intExpr(l.Step)
	}
	return func(a *act) ctl {
		x, ok1 := lo(a)
		y, ok2 := hi(a)
		s, ok3 := step(a)
		if !ok1 || !ok2 || !ok3 {
			stop(pos, "the bounds of the loop over %s are not known", l.Var)
		}
		if s == 0 {
			stop(pos, "DO step is zero")
		}
		vw := a.view(vi, pos)
		st, o := vw.s, vw.off
		trips := max((y-x+s)/s, 0)
		for t := int64(0); t < trips; t++ {
			st.I[o], st.Known[o], st.Written = x+t*s, true, true
			if done, r := iter(a); done {
				return r
			}
		}
		st.I[o], st.Known[o], st.Written = x+trips*s, true, true
		return ctl{}
	}
}

// ifNode compiles a logical, block or arithmetic IF, a computed GO TO, or
// a SELECT CASE on an integer.
func (c *compiler) ifNode(n *apt.If) func(a *act) ctl {
	pos := n.Span.Start()
	if n.Kind == apt.IfWhere {
		stop(pos, "WHERE construct")
	}
	type arm struct {
		k    int
		test func(a *act) bool // nil: ELSE or DEFAULT
		body func(a *act) ctl
	}
	arms := make([]arm, len(n.Branches))
	var sel ival
	if n.Kind == apt.IfSelect {
		x := c.expr(n.Selector)
		if x.real {
			stop(pos, "SELECT CASE on a real value")
		}
		sel = x.i
	}
	for i, br := range n.Branches {
		arms[i].k = c.count(br)
		arms[i].body = c.list(br.Body)
		switch {
		case n.Kind == apt.IfSelect && len(br.Cases) > 0:
			arms[i].test = c.caseTest(br, sel, pos)
		case br.Cond != nil:
			arms[i].test = c.cond(br.Cond)
		}
	}
	// SELECT CASE takes the DEFAULT arm when no case matches, wherever
	// it stands.
	ordered := arms
	if n.Kind == apt.IfSelect {
		ordered = nil
		var dflt []arm
		for _, a := range arms {
			if a.test == nil {
				dflt = append(dflt, a)
			} else {
				ordered = append(ordered, a)
			}
		}
		ordered = append(ordered, dflt...)
	}
	return func(a *act) ctl {
		for _, ar := range ordered {
			if ar.test == nil || ar.test(a) {
				a.ctx.counts[ar.k]++
				a.m.tick(pos)
				r := ar.body(a)
				if r.k == ctlExit && r.label != "" && r.label == n.Construct {
					return ctl{}
				}
				return r
			}
		}
		return ctl{}
	}
}

// caseTest compiles a CASE's values against the selector.
func (c *compiler) caseTest(br *apt.Branch, sel ival, pos apt.Pos) func(a *act) bool {
	type rng struct {
		lo, hi  ival
		isRange bool
	}
	var rs []rng
	for _, cv := range br.Cases {
		r := rng{isRange: cv.Range}
		if cv.Lo != nil {
			r.lo = c.intExpr(cv.Lo)
		}
		if cv.Hi != nil {
			r.hi = c.intExpr(cv.Hi)
		}
		rs = append(rs, r)
	}
	get := func(a *act, f ival) int64 {
		v, ok := f(a)
		if !ok {
			stop(pos, "a CASE value is not known")
		}
		return v
	}
	return func(a *act) bool {
		s := get(a, sel)
		for _, r := range rs {
			if !r.isRange {
				if s == get(a, r.lo) {
					return true
				}
				continue
			}
			if (r.lo == nil || s >= get(a, r.lo)) && (r.hi == nil || s <= get(a, r.hi)) {
				return true
			}
		}
		return false
	}
}

// gotoNode compiles a plain or computed GO TO.
func (c *compiler) gotoNode(n *apt.Goto) func(a *act) ctl {
	pos := n.Span.Start()
	switch n.Kind {
	case apt.GotoPlain:
		if len(n.Targets) != 1 {
			stop(pos, "GO TO without a target")
		}
		t := n.Targets[0]
		return func(*act) ctl { return ctl{k: ctlGoto, label: t} }
	case apt.GotoComputed:
		idx := c.intExpr(n.Index)
		return func(a *act) ctl {
			i, ok := idx(a)
			if !ok {
				stop(pos, "the index of the computed GO TO is not known")
			}
			if i < 1 || i > int64(len(n.Targets)) {
				return ctl{}
			}
			return ctl{k: ctlGoto, label: n.Targets[i-1]}
		}
	}
	stop(pos, "assigned GO TO")
	return nil
}

// call compiles a call of the program's routine name (a CALL statement,
// or a function reference): it binds the actual arguments and runs the
// callee under the context of this site, and returns the activation.
func (c *compiler) call(site apt.Node, name string, args []apt.Expr, pos apt.Pos) func(a *act) *act {
	callee := c.m.Routine(c.rt.r, name)
	if callee == nil {
		stop(pos, "%s is not one of the program's routines", name)
	}
	crt := c.m.compile(callee)
	byName := runenv.Actuals(args, callee.Formals)
	binds := make([]func(a *act) Ref, len(callee.Formals))
	for i, f := range callee.Formals {
		if x, ok := byName[f]; ok && x != nil {
			binds[i] = c.actual(x, callee.Scope.Lookup(f), pos)
		}
	}
	s := Site{Node: site, Callee: callee}
	var ctxOf *Context // the child context of the last caller context
	var last *Context
	// The arguments are read when the callee binds them, before it runs:
	// one slice serves every call from this site, recursive ones too.
	refs := make([]Ref, len(binds))
	argv := make([]*Ref, len(binds))
	return func(a *act) *act {
		if a.ctx != last {
			last, ctxOf = a.ctx, a.ctx.child(s)
		}
		for i, b := range binds {
			argv[i] = nil
			if b != nil {
				refs[i] = b(a)
				argv[i] = &refs[i]
			}
		}
		return a.m.invoke(crt, ctxOf, argv, pos)
	}
}

// actual compiles the binding of an actual argument to dummy d: a
// variable or element by reference, any other expression by value.
func (c *compiler) actual(x apt.Expr, d *apt.Var, pos apt.Pos) func(a *act) Ref {
	if d == nil {
		stop(pos, "a dummy argument is not declared")
	}
	switch x := x.(type) {
	case *apt.Name:
		if v := c.m.prog.Resolve(c.rt.r, x.Name); v != nil && v.Param == nil {
			if c.m.Routine(c.rt.r, x.Name) != nil && len(v.Dims) == 0 && v.Type.Base == apt.TypeUnknown {
				stop(pos, "procedure %s passed as an argument", x.Name)
			}
			i := c.rt.slotOf(c.m, x.Name, pos)
			return func(a *act) Ref {
				vw := a.view(i, pos)
				lo, ext := vw.shape()
				return Ref{S: vw.s, Off: vw.off, Lo: lo, Ext: ext}
			}
		}
	case *apt.Index:
		i, off := c.offset(x)
		return func(a *act) Ref {
			o := off(a)
			return Ref{S: a.vars[i].s, Off: o}
		}
	case *apt.Component:
		// A scalar component by reference: the callee's stores reach it.
		i, ok := c.derefField(x)
		if path, root, isPath := fieldPath(x); isPath {
			i, ok = c.rt.fieldSlot(c.m, x, path, root), true
		}
		if ok && len(d.Dims) == 0 {
			return func(a *act) Ref {
				vw := a.view(i, pos)
				return Ref{S: vw.s, Off: vw.off}
			}
		}
	}
	if len(d.Dims) > 0 {
		stop(pos, "an expression passed to the array %s", d.Name)
	}
	real := d.Type.Base == apt.TypeReal
	if real {
		f := c.realExpr(x)
		return func(a *act) Ref {
			s := NewStore("", 1, true)
			v, ok := f(a)
			s.F[0], s.Known[0] = v, ok
			return Ref{S: s}
		}
	}
	f := c.intExpr(x)
	return func(a *act) Ref {
		s := NewStore("", 1, false)
		v, ok := f(a)
		s.I[0], s.Known[0] = v, ok
		return Ref{S: s}
	}
}
