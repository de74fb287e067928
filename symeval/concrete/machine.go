package concrete

import (
	"runtime"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Machine runs routines of one program. It compiles each routine once;
// the globals a run reaches are asked of Globals afresh on every Call.
type Machine struct {
	prog *apt.Program
	code map[*apt.Routine]*routine
	// Globals returns the storage of a variable that routine r names and
	// that lives outside its frames (COMMON, module, SAVE and initialised
	// variables), the same Store for the same storage, and the offset of
	// the variable's first element there (a C pointer into another
	// array); nil stops the run.
	Globals func(r *apt.Routine, name string, v *apt.Var) *Ref
	// Pointee returns the storage the pointer expression ptr of routine
	// r reaches when the run starts (C's p->f of a structure's pointer
	// field, a dummy referring to a pointer) and the offset of the
	// element it points at; nil stops the run.
	Pointee func(r *apt.Routine, ptr apt.Expr, elem apt.Type) *Ref
	// Address returns the address a pointer to element off of s holds,
	// as the caller numbers addresses: what a run stores in an array of
	// pointers. False where the caller has no number for it.
	Address func(s *Store, off int64) (int64, bool)
	// At is Address's inverse: the storage at address addr, of elements
	// of type elem, and the element there; nil where the caller has none.
	At func(addr int64, elem apt.Type) *Ref
	// Routine returns the routine a call of name in r runs (nil: not one
	// of the program's, which stops the run).
	Routine func(r *apt.Routine, name string) *apt.Routine
	// MaxSteps bounds the nodes and loop iterations one Call runs.
	MaxSteps int64

	steps   int64
	depth   int
	globals map[globalRef]*Ref
	// frags are the fragments RunIn compiled, by first node.
	frags map[apt.Node]*routine
}

type globalRef struct {
	r    *apt.Routine
	name string
}

// New returns a machine for prog.
func New(prog *apt.Program) *Machine {
	return &Machine{prog: prog, code: map[*apt.Routine]*routine{},
		Routine: func(_ *apt.Routine, name string) *apt.Routine {
			r := prog.Routine(name)
			if r == nil || (r.Kind != apt.KindSubroutine && r.Kind != apt.KindFunction) {
				return nil
			}
			return r
		}}
}

// Runnable reports whether r and every routine it calls compile, and why
// not: the first construct the machine does not run.
func (m *Machine) Runnable(r *apt.Routine) (ok bool, why *Stopped) {
	if err := catch(func() { m.compile(r) }); err != nil {
		return false, err
	}
	return true, nil
}

// catch runs f and returns the Stopped it panics with, if any. A runtime
// error (a case the machine does not guard) stops the run too: the
// caller's symbolic evaluation stands, and the reason says what failed.
func catch(f func()) (s *Stopped) {
	defer func() {
		if x := recover(); x != nil {
			switch e := x.(type) {
			case *Stopped:
				s = e
			case runtime.Error:
				s = &Stopped{Reason: "the concrete machine failed: " + e.Error()}
			default:
				panic(x)
			}
		}
	}()
	f()
	return nil
}

// start begins a run: its steps from zero and its globals asked afresh.
func (m *Machine) start() {
	m.steps, m.depth = 0, 0
	m.globals = map[globalRef]*Ref{}
}

// Call runs r with its dummies bound to args (nil: absent) and returns
// the counts of the run, by call path from r; a run that stops returns
// the reason. Steps bounds the run by MaxSteps afresh.
func (m *Machine) Call(r *apt.Routine, args []*Ref) (*Context, error) {
	m.start()
	ctx := &Context{Routine: r}
	if err := catch(func() {
		rt := m.compile(r)
		m.invoke(rt, ctx, args, r.Span.Start()).release()
		ctx.fold(m.code)
	}); err != nil {
		return nil, err
	}
	return ctx, nil
}

// RunIn runs nodes, statements of routine r (a loop in it), with every
// variable they name taken from Globals, r's own locals and dummies too:
// the caller holds the frame they run in. It returns the counts of the
// run under a context of r (its Calls zero).
func (m *Machine) RunIn(r *apt.Routine, nodes []apt.Node) (*Context, error) {
	m.start()
	ctx := &Context{Routine: r}
	if err := catch(func() {
		rt := m.fragment(r, nodes)
		ctx.counts = make([]int64, len(rt.nodes))
		ctx.iters = make([]int64, len(rt.nodes))
		ctx.elems = make([]int64, len(rt.stmts))
		a := rt.activation(m)
		a.ctx = ctx
		m.depth++
		c := rt.body(a)
		m.depth--
		a.release()
		if c.k != ctlNone {
			stop(r.Span.Start(), "the statements leave by a jump")
		}
		m.foldFragment(ctx, rt)
	}); err != nil {
		return nil, err
	}
	return ctx, nil
}

// fragment compiles nodes of r as a body of their own whose variables are
// all global (RunIn), once.
func (m *Machine) fragment(r *apt.Routine, nodes []apt.Node) *routine {
	if len(nodes) == 0 {
		stop(r.Span.Start(), "no statements")
	}
	if rt, ok := m.frags[nodes[0]]; ok {
		if rt == nil {
			stop(nodes[0].Base().Span.Start(), "the statements cannot be run")
		}
		return rt
	}
	if m.frags == nil {
		m.frags = map[apt.Node]*routine{}
	}
	m.frags[nodes[0]] = nil
	rt := &routine{r: r, byName: map[string]int{}, num: map[apt.Node]int{}, stmtNum: map[*apt.Stmt]int{}, result: -1, allGlobal: true}
	apt.Inspect(&apt.Loop{Body: nodes}, func(n apt.Node) bool {
		if _, isWrap := n.(*apt.Loop); isWrap && n.Base().ID == "" {
			return true
		}
		rt.num[n] = len(rt.nodes)
		rt.nodes = append(rt.nodes, n)
		return true
	})
	c := &compiler{m: m, rt: rt}
	rt.body = c.list(nodes)
	rt.checkPointees()
	m.frags[nodes[0]] = rt
	return rt
}

// foldFragment is fold for a RunIn context, whose routine's code is the
// fragment's.
func (m *Machine) foldFragment(ctx *Context, rt *routine) {
	saved := m.code[ctx.Routine]
	m.code[ctx.Routine] = rt
	ctx.fold(m.code)
	m.code[ctx.Routine] = saved
	if saved == nil {
		delete(m.code, ctx.Routine)
	}
}

// Steps is the number of steps the last Call took.
func (m *Machine) Steps() int64 { return m.steps }

// global returns the storage of a global slot.
func (m *Machine) global(rt *routine, sl *slot, pos apt.Pos) *Ref {
	k := globalRef{rt.r, sl.name}
	if r, ok := m.globals[k]; ok {
		return r
	}
	var r *Ref
	switch {
	case sl.ptr != nil:
		if m.Pointee != nil {
			r = m.Pointee(rt.r, sl.ptr, sl.v.Type)
		}
	case m.Globals != nil:
		r = m.Globals(rt.r, sl.name, sl.v)
	}
	if r == nil || r.S == nil {
		stop(pos, "the storage of %s is not known", sl.name)
	}
	if r.S.Real != sl.real {
		stop(pos, "%s is stored with another type", sl.name)
	}
	m.globals[k] = r
	return r
}

// invoke runs a compiled routine with args bound to its dummies, counting
// under ctx; it returns the activation (for a function's result).
func (m *Machine) invoke(rt *routine, ctx *Context, args []*Ref, pos apt.Pos) *act {
	m.depth++
	if m.depth > maxDepth {
		stop(pos, "calls nested more than %d deep", maxDepth)
	}
	defer func() { m.depth-- }()
	ctx.Calls++
	if ctx.counts == nil {
		ctx.counts = make([]int64, len(rt.nodes))
		ctx.iters = make([]int64, len(rt.nodes))
		ctx.elems = make([]int64, len(rt.stmts))
	}
	a := rt.activation(m)
	a.ctx = ctx
	for i, sl := range rt.slots {
		if sl.kind != slotFormal {
			continue
		}
		if sl.formal < len(args) && args[sl.formal] != nil {
			ref := args[sl.formal]
			if ref.S.Real != sl.real {
				stop(pos, "the actual argument of %s has another type", sl.name)
			}
			a.vars[i] = view{s: ref.S, off: ref.Off, blo: ref.Lo, bext: ref.Ext}
		}
	}
	c := rt.body(a)
	switch c.k {
	case ctlNone, ctlReturn:
	case ctlGoto:
		stop(pos, "GO TO %s leaves %s", c.label, rt.r.Name)
	default:
		stop(pos, "EXIT or CYCLE outside a loop in %s", rt.r.Name)
	}
	return a
}

// activation returns a fresh activation of rt: one it ran before, its
// views unbound and its locals unknown, or a new one.
func (rt *routine) activation(m *Machine) *act {
	if n := len(rt.free); n > 0 {
		a := rt.free[n-1]
		rt.free = rt.free[:n-1]
		clear(a.vars)
		clear(a.ints.Known)
		clear(a.reals.Known)
		return a
	}
	return &act{m: m, rt: rt, vars: make([]view, len(rt.slots)),
		ints: NewStore("", int64(rt.nInts), false), reals: NewStore("", int64(rt.nReals), true)}
}

// release gives a finished activation back for reuse.
func (a *act) release() {
	if len(a.vars) != len(a.rt.slots) {
		return // the routine gained slots since (a recursive compile)
	}
	a.ctx = nil
	a.rt.free = append(a.rt.free, a)
}

// maxDepth bounds the calls nested in a run.
const maxDepth = 200

// tick counts a step against the budget.
func (m *Machine) tick(pos apt.Pos) {
	m.steps++
	if m.MaxSteps > 0 && m.steps > m.MaxSteps {
		stop(pos, "the run takes more than %d steps", m.MaxSteps)
	}
}
