package aptrun

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/readpos"
)

// Config says what to run and with which values.
type Config struct {
	// Entry is the routine to start from; "" is the PROGRAM unit, or the
	// only subroutine or function when there is no PROGRAM.
	Entry string
	// P is what MPI_COMM_SIZE returns and Rank what MPI_COMM_RANK returns.
	P, Rank int64
	// Params are the parameter values by lower-case variable name. A
	// variable named here, or named by a `!mk$ param` annotation of a
	// routine that sees it, holds its parameter value from the start and
	// ignores every assignment. Values read at run time (READ, and
	// v = command_argument_count()) also come from here.
	Params map[string]int64
	// MaxSteps aborts the run with an error after this many steps: node
	// executions (calls included), loop iterations and implied-DO iterations
	// (0 means 50 million).
	MaxSteps int64
	// Observer, when set, sees the run in program order: the statement
	// blocks it executes, the routines and loops it enters and leaves, and
	// every MPI call with its evaluated peers, tags, sizes and requests
	// (package trace builds predicted event traces from it). With an
	// observer, isend and irecv store a request handle of their own in
	// their request argument, so that waits name what they complete.
	Observer Observer
	// NoInputFiles runs the program in a directory without its input
	// files: an OPEN with STATUS='OLD' finds no file and sets its IOSTAT=
	// variable to 2 (gfortran's "no such file"), so that a program that
	// reads an optional input deck takes its defaults, unless the run has
	// made the file itself (files.go). Without it (and by default) OPEN
	// does nothing and IOSTAT= is left as it was.
	NoInputFiles bool
	// Env is the program's environment: GET_ENVIRONMENT_VARIABLE finds
	// the variables it sets and every other unset (nil: all).
	Env map[string]string
	// Args are the program's command-line arguments, when given
	// (environ.go); nil leaves COMMAND_ARGUMENT_COUNT to Params.
	Args []string
	// Dir is the directory the program runs in: a list-directed READ of
	// a file there takes the file's values (readfile.go), symeval's
	// Options.Dir. Empty: values read come from Params.
	Dir string
	// Stdin names the file in Dir standard input comes from (symeval's
	// Options.Stdin): READ(*) and READ(5) read it. Empty: none.
	Stdin string
}

// Observer watches a run (Config.Observer).
type Observer interface {
	Block(b *apt.Block)
	Enter(n apt.Node) // a routine called or a loop started
	Exit(n apt.Node)
	Comm(c *apt.Comm, call *CommCall)
}

// CommCall is one MPI call as executed: the send side's peer (ProcNull
// when none or MPI_PROC_NULL), tag and bytes, the receive side's, the root
// of a rooted collective (-1 when none), the request an isend or irecv
// returned and the requests a wait completes.
type CommCall struct {
	Peer, Tag   int64
	Bytes       int64
	RPeer, RTag int64
	RBytes      int64
	Root        int64
	Request     int64
	Requests    []int64
}

// Values a CommCall uses for peers that are not ranks; they are the
// frontend's predefined MPI_PROC_NULL and MPI_ANY_SOURCE.
const (
	ProcNull  = -2
	AnySource = -1
)

// Counts are the execution counts of one run, keyed by node ID.
type Counts struct {
	// Exec counts the executions of every node: a Routine per call, a Loop
	// each time the DO statement is reached, an If each time it is reached, a
	// Branch each time it is taken, the other nodes each time they run.
	Exec map[string]int64
	// Iter counts the executions of each Loop's body (its iterations).
	Iter map[string]int64
	// Msgs counts the messages this rank sends at each Comm node: one per
	// point-to-point send whose peer is not MPI_PROC_NULL (send side of
	// sendrecv included), one per collective call. Every executed Comm node
	// has an entry, possibly zero.
	Msgs map[string]int64
	// Bytes counts the bytes this rank sends at each Comm node: the send
	// side's count times its datatype size (0 to MPI_PROC_NULL, 0 for a
	// datatype of unknown size). A count given as an array (the v-variants)
	// contributes the sum of its first P elements.
	Bytes map[string]int64
	// Aborted is set when the run ended at an MPI_ABORT.
	Aborted bool
}

const (
	defaultMaxSteps = 50_000_000
	maxCallDepth    = 2000
)

// errStop ends the run normally (STOP, MPI_ABORT).
var errStop = errors.New("stop")

type engine struct {
	prog     *apt.Program
	cfg      Config
	counts   *Counts
	steps    int64
	maxSteps int64
	stack    []*frame
	procNull int64

	statics    map[*apt.Var]*cell
	commons    map[string]*commonBlock
	home       map[*apt.Var]*apt.Routine
	commonAt   map[*apt.Var]commonSlot
	commonVars map[slotKey][]*apt.Var
	annots     map[string][]annot
	// procSizes names the variables that give the extent of an HPF
	// PROCESSORS arrangement: they hold Config.P.
	procSizes  map[string]bool
	typeHome   map[*apt.DerivedType]*apt.Routine
	resolved   map[resolveKey]*apt.Var
	routines   map[resolveKey]*apt.Routine
	consts     map[*apt.Const]value
	creating   map[*apt.Var]bool
	defaulting map[*apt.Var]bool
	pseudo     map[*apt.Routine]*frame
	depthObj   int
	scopes     map[*apt.Routine]map[string]*apt.Var
	commonOK   map[*apt.Var]bool
	stopped    bool
	nextReq    int64 // the last request handle given out (with an observer)
	// units holds where each unit connected to a named file is, and
	// firstRead the variable that first read each datum of those files
	// (internal/readpos): a datum read again takes that variable's
	// parameter.
	units map[int64]readpos.Unit
	// newUnits counts the OPENs that chose their unit (NEWUNIT=).
	newUnits int64
	// inputs caches the records of the files read in Config.Dir (nil:
	// absent).
	inputs    map[string][]string
	firstRead map[string]string
	// made holds whether each file the run has opened by name exists
	// (files.go).
	made map[string]bool
	// world carries messages between the ranks of a RunWorld (nil in
	// Run); posted holds its irecvs by request handle and collSeq counts
	// its collective calls.
	world   *world
	posted  map[int64]*pending
	collSeq int64
}

// Run executes one rank of prog and returns how often each node ran. STOP
// and MPI_ABORT end the run normally. On error the counts so far are
// returned with it.
func Run(prog *apt.Program, cfg Config) (counts *Counts, err error) {
	if prog == nil {
		return nil, errors.New("aptrun: nil program")
	}
	return run(prog, cfg, nil)
}

// run runs one rank, in a world of ranks when w is set.
func run(prog *apt.Program, cfg Config, w *world) (counts *Counts, err error) {
	e := newEngine(prog, cfg)
	e.world, e.posted = w, map[int64]*pending{}
	defer func() {
		if r := recover(); r != nil {
			counts, err = e.counts, fmt.Errorf("aptrun: internal error: %v", r)
		}
	}()
	entry, err := e.entry()
	if err != nil {
		return nil, err
	}
	_, err = e.callRoutine(nil, entry, nil, entry.Span.Start())
	if e.stopped || errors.Is(err, errStop) {
		err = nil
	}
	return e.counts, err
}

func newEngine(prog *apt.Program, cfg Config) *engine {
	e := &engine{
		prog: prog, cfg: cfg, maxSteps: cfg.MaxSteps, procNull: -2,
		counts: &Counts{Exec: map[string]int64{}, Iter: map[string]int64{},
			Msgs: map[string]int64{}, Bytes: map[string]int64{}},
		statics: map[*apt.Var]*cell{}, commons: map[string]*commonBlock{},
		home: map[*apt.Var]*apt.Routine{}, commonAt: map[*apt.Var]commonSlot{},
		commonVars: map[slotKey][]*apt.Var{}, annots: map[string][]annot{}, procSizes: procSizes(prog),
		typeHome: map[*apt.DerivedType]*apt.Routine{}, resolved: map[resolveKey]*apt.Var{},
		routines: map[resolveKey]*apt.Routine{}, consts: map[*apt.Const]value{},
		scopes: map[*apt.Routine]map[string]*apt.Var{}, commonOK: map[*apt.Var]bool{},
		creating: map[*apt.Var]bool{}, defaulting: map[*apt.Var]bool{}, pseudo: map[*apt.Routine]*frame{},
		units: map[int64]readpos.Unit{}, firstRead: map[string]string{}, made: map[string]bool{},
	}
	if e.maxSteps <= 0 {
		e.maxSteps = defaultMaxSteps
	}
	if cfg.Stdin != "" {
		e.units[5] = readpos.Opened(cfg.Stdin)
	}
	var visit func(r *apt.Routine)
	visit = func(r *apt.Routine) {
		for _, c := range r.Contains {
			visit(c)
		}
		if r.Scope == nil {
			return
		}
		idx := map[string]*apt.Var{}
		for _, v := range r.Scope.Vars {
			e.home[v] = r
			idx[v.Name] = v
		}
		e.scopes[r] = idx
		for _, blk := range r.Scope.Commons {
			for pos, name := range blk.Vars {
				if v := idx[name]; v != nil {
					s := commonSlot{slotKey{blk.Name, pos}, len(blk.Vars)}
					e.commonAt[v] = s
					e.commonVars[s.slotKey] = append(e.commonVars[s.slotKey], v)
				}
			}
		}
		for _, dt := range r.Scope.Types {
			e.typeHome[dt] = r
		}
	}
	var annotate func(r *apt.Routine)
	annotate = func(r *apt.Routine) {
		for _, p := range r.Params {
			e.annots[p.Name] = append(e.annots[p.Name], annot{r, p})
		}
		for _, c := range r.Contains {
			annotate(c)
		}
	}
	for _, r := range prog.Routines {
		visit(r)
		annotate(r)
	}
	// MPI_PROC_NULL as the frontend predefines it (Open MPI's -2 otherwise).
	if m := prog.Routine("mpi"); m != nil && m.Kind == apt.KindModule {
		if v := e.lookup(m, "mpi_proc_null"); v != nil && v.Param != nil {
			if x, err := e.evalInt(e.ctxFrame(m), v.Param); err == nil {
				e.procNull = x
			}
		}
	}
	return e
}

func (e *engine) entry() (*apt.Routine, error) {
	if e.cfg.Entry != "" {
		r := e.prog.Routine(e.cfg.Entry)
		if r == nil || r.Kind == apt.KindModule || r.Kind == apt.KindBlockData {
			return nil, fmt.Errorf("aptrun: no routine %q to run", e.cfg.Entry)
		}
		return r, nil
	}
	var progs, others []*apt.Routine
	for _, r := range e.prog.Routines {
		switch r.Kind {
		case apt.KindProgram:
			progs = append(progs, r)
		case apt.KindSubroutine, apt.KindFunction:
			others = append(others, r)
		}
	}
	switch {
	case len(progs) == 1:
		return progs[0], nil
	case len(progs) > 1:
		return nil, fmt.Errorf("aptrun: %d PROGRAM units; set Config.Entry", len(progs))
	case len(others) == 1:
		return others[0], nil
	}
	return nil, errors.New("aptrun: no PROGRAM unit and not exactly one routine; set Config.Entry")
}

// tick counts one step against MaxSteps.
func (e *engine) tick(pos apt.Pos) error {
	e.steps++
	if e.steps > e.maxSteps {
		return fmt.Errorf("%s: aborted after %d steps (Config.MaxSteps)", pos, e.maxSteps)
	}
	return nil
}

// ctl is how a statement list ends: normally, or by EXIT, CYCLE, GO TO or
// RETURN leaving it.
type ctlKind uint8

const (
	ctlNone ctlKind = iota
	ctlExit
	ctlCycle
	ctlGoto
	ctlReturn
)

type ctl struct {
	k    ctlKind
	name string // construct name (EXIT, CYCLE) or label (GO TO)
	pos  apt.Pos
}

// callRoutine runs routine r called from caller (nil for the entry) with the
// actual arguments args, returning a function's result.
func (e *engine) callRoutine(caller *frame, r *apt.Routine, args []apt.Expr, pos apt.Pos) (value, error) {
	if len(e.stack) >= maxCallDepth {
		return value{}, fmt.Errorf("%s: calls nested more than %d deep", pos, maxCallDepth)
	}
	if caller != nil && r.Kind != apt.KindSubroutine && r.Kind != apt.KindFunction {
		return value{}, fmt.Errorf("%s: %s is a %s, not a procedure", pos, r.Name, r.Kind)
	}
	e.counts.Exec[r.ID]++
	if err := e.tick(pos); err != nil {
		return value{}, err
	}
	if o := e.cfg.Observer; o != nil {
		o.Enter(r)
		defer o.Exit(r)
	}
	nf := newFrame(r)
	nf.entry = caller == nil
	if h := e.prog.Host(r); h != nil && h.Kind != apt.KindModule {
		nf.host = e.ctxFrame(h)
	}
	if err := e.bind(caller, nf, args, pos); err != nil {
		return value{}, err
	}
	e.stack = append(e.stack, nf)
	defer func() { e.stack = e.stack[:len(e.stack)-1] }()
	// Local variables come into existence on entry (automatic arrays take
	// their bounds now).
	for _, v := range e.scopeVars(r) {
		if v.External || v.Intrinsic || v.Predefined != "" || (v.Dummy && nf.vars[v] != nil) {
			continue
		}
		if _, err := e.varCell(nf, v, v.Pos); err != nil {
			return value{}, err
		}
	}
	c, err := e.execList(nf, r.Body)
	if err != nil {
		return value{}, err
	}
	switch c.k {
	case ctlGoto:
		return value{}, fmt.Errorf("%s: GO TO %s: no statement with that label in this or an enclosing statement list of %s", c.pos, c.name, r.Name)
	case ctlExit, ctlCycle:
		return value{}, fmt.Errorf("%s: EXIT or CYCLE %s outside a matching loop", c.pos, c.name)
	}
	if r.Kind != apt.KindFunction {
		return value{}, nil
	}
	rv := e.lookup(r, resultName(r))
	if rv == nil {
		return value{}, fmt.Errorf("%s: function %s has no result variable", r.Span.Start(), r.Name)
	}
	rc, err := e.varCell(nf, rv, pos)
	if err != nil {
		return value{}, err
	}
	if rc.arr != nil {
		return e.load(loc{arr: rc.arr, owner: rc}, pos)
	}
	return rc.v, nil
}

// arrayHandle is an actual argument associated with an array dummy: element
// storage starting at off, with the actual's shape when it has one.
type arrayHandle struct {
	st   *storage
	off  int64
	ext  []int64 // nil for an array element actual (sequence association)
	clen int64
	dt   *apt.DerivedType
	typ  apt.Type
}

// bind associates the actual arguments with r's dummies: variables (scalars,
// arrays, array elements, sections) by reference, expressions by value.
func (e *engine) bind(caller *frame, nf *frame, args []apt.Expr, pos apt.Pos) error {
	r := nf.r
	actuals := make([]apt.Expr, len(r.Formals))
	next := 0
	for _, a := range args {
		if kw, ok := a.(*apt.Keyword); ok {
			i := slices.Index(r.Formals, kw.Name)
			if i < 0 {
				return fmt.Errorf("%s: %s has no dummy argument %s", kw.Pos, r.Name, kw.Name)
			}
			actuals[i] = kw.Value
			continue
		}
		if next >= len(r.Formals) {
			return fmt.Errorf("%s: too many arguments for %s", pos, r.Name)
		}
		actuals[next] = a
		next++
	}
	type pending struct {
		v *apt.Var
		h arrayHandle
	}
	var arrays []pending
	for i, name := range r.Formals {
		a := actuals[i]
		v := e.lookup(r, name)
		if name == "*" || v == nil {
			continue
		}
		if a == nil {
			nf.absent[name] = true
			continue
		}
		if _, ok := a.(*apt.Star); ok {
			return fmt.Errorf("%s: alternate returns are not supported", a.At())
		}
		if len(v.Dims) == 0 {
			c, err := e.scalarActual(caller, a, v)
			if err != nil {
				return err
			}
			nf.vars[v] = c
			continue
		}
		if v.Allocatable || v.Pointer {
			l, err := e.locate(caller, a)
			if err != nil {
				return err
			}
			if l.owner == nil {
				return fmt.Errorf("%s: allocatable dummy %s needs a whole array", a.At(), name)
			}
			nf.vars[v] = l.owner
			continue
		}
		h, err := e.arrayActual(caller, a, v)
		if err != nil {
			return err
		}
		arrays = append(arrays, pending{v, h})
	}
	// Array dummies take their bounds in the callee, where the scalar
	// dummies they depend on are bound.
	for _, p := range arrays {
		v, h := p.v, p.h
		var lo, ext []int64
		for d, dim := range v.Dims {
			l := int64(1)
			if dim.Lo != nil {
				x, err := e.evalInt(nf, dim.Lo)
				if err != nil {
					return err
				}
				l = x
			}
			x := int64(-1)
			switch hi := dim.Hi.(type) {
			case *apt.Star:
			case nil:
				if h.ext == nil || d >= len(h.ext) {
					return fmt.Errorf("%s: assumed-shape dummy %s associated with an array element or an array of another rank", pos, v.Name)
				}
				x = h.ext[d]
			default:
				u, err := e.evalInt(nf, hi)
				if err != nil {
					return err
				}
				x = max(u-l+1, 0)
			}
			lo, ext = append(lo, l), append(ext, x)
		}
		clen := h.clen
		if v.Type.Base == apt.TypeCharacter {
			if _, star := v.Type.Len.(*apt.Star); !star && v.Type.Len != nil {
				n, err := e.evalInt(nf, v.Type.Len)
				if err != nil {
					return err
				}
				clen = n
			}
		}
		elem := v.Type
		if h.dt != nil {
			elem = h.typ
		}
		c := &cell{typ: v.Type, clen: clen, dt: h.dt, arr: &array{alloc: true, lo: lo, ext: ext,
			st: h.st, off: h.off, elem: elem, clen: clen, dt: h.dt, dummy: true}}
		nf.vars[v] = c
	}
	// Names resolved while evaluating bounds may have seen array dummies
	// before they were bound.
	if len(arrays) > 0 {
		clear(nf.cache)
	}
	return nil
}

// scalarActual returns the cell a scalar dummy is associated with.
func (e *engine) scalarActual(caller *frame, a apt.Expr, v *apt.Var) (*cell, error) {
	switch x := a.(type) {
	case *apt.Name:
		// A procedure actual: an EXTERNAL name, or a module or internal
		// procedure (which the frontend may also have typed implicitly).
		if p := e.findRoutine(caller.r, x.Name); p != nil {
			w := e.resolve(caller.r, x.Name)
			if w == nil || w.External || w.Implicit && len(w.Dims) == 0 && e.prog.Host(p) != nil {
				return &cell{typ: apt.Type{Base: apt.TypeUnknown}, clen: -1, v: value{k: kProc, proc: p}}, nil
			}
		}
		l, err := e.locate(caller, x)
		if err != nil {
			return nil, err
		}
		if l.c != nil {
			return l.c, nil
		}
		// An array passed to a scalar dummy: its first element.
		if !l.arr.alloc {
			return nil, fmt.Errorf("%s: unallocated array %s passed as an argument", x.Pos, x.Name)
		}
		return e.elemCell(l.arr, 0)
	case *apt.Index, *apt.Component:
		l, err := e.locate(caller, x)
		if err != nil {
			return nil, err
		}
		if l.c != nil && !l.sub {
			return l.c, nil
		}
	}
	val, err := e.eval(caller, a)
	if err != nil {
		return nil, err
	}
	if val.isArr() {
		return nil, fmt.Errorf("%s: array %s passed to scalar dummy %s", a.At(), exprString(a), v.Name)
	}
	c := &cell{typ: v.Type, clen: -1}
	if val.k == kObj {
		c.dt, c.v = val.obj.dt, val
		return c, nil
	}
	out, err := convert(val, v.Type, -1)
	if err != nil {
		c.typ, out = apt.Type{Base: apt.TypeUnknown}, val
	}
	c.v = out
	return c, nil
}

// arrayActual returns the storage an array dummy is associated with.
func (e *engine) arrayActual(caller *frame, a apt.Expr, v *apt.Var) (arrayHandle, error) {
	switch a.(type) {
	case *apt.Name, *apt.Index, *apt.Component:
		l, err := e.locate(caller, a)
		if err != nil {
			return arrayHandle{}, err
		}
		switch {
		case l.owner != nil:
			arr := l.arr
			if !arr.alloc {
				return arrayHandle{}, fmt.Errorf("%s: unallocated array %s passed as an argument", a.At(), exprString(a))
			}
			return arrayHandle{st: arr.st, off: arr.off, ext: arr.ext, clen: arr.clen, dt: arr.dt, typ: arr.elem}, nil
		case l.arr != nil:
			// A section: a storage of its own holding the section's element
			// cells, so that the callee updates the actual's elements.
			st := newStorage(int64(len(l.offs)))
			for i, off := range l.offs {
				c, err := e.elemCell(l.arr, off)
				if err != nil {
					return arrayHandle{}, err
				}
				st.m[int64(i)] = c
			}
			return arrayHandle{st: st, ext: l.shape, clen: l.arr.clen, dt: l.arr.dt, typ: l.arr.elem}, nil
		case l.earr != nil:
			arr := l.earr
			return arrayHandle{st: arr.st, off: arr.off + l.eoff, clen: arr.clen, dt: arr.dt, typ: arr.elem}, nil
		case !l.sub:
			st := newStorage(1)
			st.m[0] = l.c
			return arrayHandle{st: st, ext: []int64{1}, clen: l.c.clen, dt: l.c.dt, typ: l.c.typ}, nil
		}
	}
	val, err := e.eval(caller, a)
	if err != nil {
		return arrayHandle{}, err
	}
	elems, shape := []value{val}, []int64{1}
	if val.isArr() {
		elems, shape = val.arr.elems, val.arr.shape
	}
	st := newStorage(int64(len(elems)))
	h := arrayHandle{st: st, ext: shape, clen: -1, typ: v.Type}
	for i, x := range elems {
		c := &cell{typ: v.Type, clen: -1}
		if x.k == kObj {
			c.dt, h.dt, h.typ = x.obj.dt, x.obj.dt, apt.Type{Base: apt.TypeDerived, Derived: x.obj.dt.Name}
			c.typ = h.typ
			c.v = x
		} else if out, err := convert(x, v.Type, -1); err == nil {
			c.v = out
		} else {
			c.typ, c.v = apt.Type{Base: apt.TypeUnknown}, x
		}
		st.m[int64(i)] = c
	}
	return h, nil
}

// execList runs a statement list, resolving GO TOs to labels in it.
func (e *engine) execList(fr *frame, nodes []apt.Node) (ctl, error) {
	for i := 0; i < len(nodes); {
		c, err := e.exec(fr, nodes[i])
		if err != nil {
			return ctl{}, err
		}
		switch c.k {
		case ctlNone:
			i++
		case ctlGoto:
			j := slices.IndexFunc(nodes, func(n apt.Node) bool { return n.Base().Label == c.name })
			if j < 0 {
				return c, nil
			}
			i = j
		default:
			return c, nil
		}
	}
	return ctl{}, nil
}

// exec runs one node.
func (e *engine) exec(fr *frame, n apt.Node) (ctl, error) {
	b := n.Base()
	pos := b.Span.Start()
	e.counts.Exec[b.ID]++
	if err := e.tick(pos); err != nil {
		return ctl{}, err
	}
	switch n := n.(type) {
	case *apt.Block:
		if here, err := e.runsHere(fr, n); err != nil || !here {
			if !here {
				e.counts.Exec[b.ID]-- // another processor owns it
			}
			return ctl{}, err
		}
		if o := e.cfg.Observer; o != nil {
			o.Block(n)
		}
		for _, s := range n.Stmts {
			if err := e.stmt(fr, s); err != nil {
				return ctl{}, err
			}
		}
	case *apt.Loop:
		if o := e.cfg.Observer; o != nil {
			o.Enter(n)
			defer o.Exit(n)
		}
		return e.loop(fr, n)
	case *apt.If:
		return e.ifNode(fr, n)
	case *apt.Call:
		return ctl{}, e.call(fr, n)
	case *apt.Comm:
		return ctl{}, e.comm(fr, n)
	case *apt.IO:
		return ctl{}, e.io(fr, n)
	case *apt.Goto:
		return e.gotoNode(fr, n)
	case *apt.Return:
		if n.Value != nil {
			return ctl{}, fmt.Errorf("%s: alternate RETURN is not supported", pos)
		}
		return ctl{k: ctlReturn, pos: pos}, nil
	case *apt.Stop:
		e.stopped = true
		return ctl{}, errStop
	case *apt.Exit:
		return ctl{k: ctlExit, name: n.Construct, pos: pos}, nil
	case *apt.Cycle:
		return ctl{k: ctlCycle, name: n.Construct, pos: pos}, nil
	case *apt.Continue, *apt.Region:
	case *apt.Unknown:
		return ctl{}, fmt.Errorf("%s: statement the frontend did not model: %s (%s)", pos, n.Text, n.Diag.Msg)
	default:
		return ctl{}, fmt.Errorf("%s: unsupported node %T", pos, n)
	}
	return ctl{}, nil
}

// loop runs a DO, DO WHILE or DO without control.
func (e *engine) loop(fr *frame, n *apt.Loop) (ctl, error) {
	pos := n.Span.Start()
	// body runs one iteration; done reports that the loop ends, with the
	// control transfer to pass on.
	body := func() (done bool, out ctl, err error) {
		e.counts.Iter[n.ID]++
		if err := e.tick(pos); err != nil {
			return true, ctl{}, err
		}
		c, err := e.execList(fr, n.Body)
		if err != nil {
			return true, ctl{}, err
		}
		mine := c.name == "" || c.name == n.Construct
		switch {
		case c.k == ctlNone:
			return false, ctl{}, nil
		case c.k == ctlExit && mine:
			return true, ctl{}, nil
		case c.k == ctlCycle && mine:
			return false, ctl{}, nil
		}
		return true, c, nil
	}
	if n.Var == "" {
		for {
			if n.While != nil {
				ok, err := e.evalLogical(fr, n.While)
				if err != nil {
					return ctl{}, err
				}
				if !ok {
					return ctl{}, nil
				}
			}
			done, c, err := body()
			if err != nil || done {
				return c, err
			}
		}
	}
	vc, err := e.cellOf(fr, n.Var, pos)
	if err != nil {
		return ctl{}, err
	}
	if vc.arr != nil {
		return ctl{}, fmt.Errorf("%s: DO variable %s is an array", pos, n.Var)
	}
	lo, err := e.eval(fr, n.Lower)
	if err != nil {
		return ctl{}, err
	}
	hi, err := e.eval(fr, n.Upper)
	if err != nil {
		return ctl{}, err
	}
	st := intV(1)
	if n.Step != nil {
		if st, err = e.eval(fr, n.Step); err != nil {
			return ctl{}, err
		}
	}
	if vc.typ.Base == apt.TypeInteger || (vc.typ.Base != apt.TypeReal && lo.k == kInt && hi.k == kInt && st.k == kInt) {
		// The bounds convert to the DO variable's type before the trip count
		// max(0, (hi - lo + step)/step) is computed, once.
		l, ok1 := asInt(lo)
		h, ok2 := asInt(hi)
		s, ok3 := asInt(st)
		if !ok1 || !ok2 || !ok3 || lo.k == kLog || hi.k == kLog || st.k == kLog {
			return ctl{}, fmt.Errorf("%s: DO bounds are not numeric", pos)
		}
		if s == 0 {
			return ctl{}, fmt.Errorf("%s: DO step is zero", pos)
		}
		trip := max((h-l+s)/s, 0)
		for k := int64(0); k < trip; k++ {
			if err := e.store(vc, intV(l+k*s), pos); err != nil {
				return ctl{}, err
			}
			done, c, err := body()
			if err != nil || done {
				return c, err
			}
		}
		return ctl{}, e.store(vc, intV(l+trip*s), pos)
	}
	// A DO with real bounds (deleted from Fortran 95, still accepted).
	l, ok1 := asReal(lo)
	h, ok2 := asReal(hi)
	s, ok3 := asReal(st)
	if !ok1 || !ok2 || !ok3 {
		return ctl{}, fmt.Errorf("%s: DO bounds are not numeric", pos)
	}
	if s == 0 {
		return ctl{}, fmt.Errorf("%s: DO step is zero", pos)
	}
	trip := max(int64((h-l+s)/s), 0)
	for k := int64(0); k < trip; k++ {
		if err := e.store(vc, realV(l+float64(k)*s), pos); err != nil {
			return ctl{}, err
		}
		done, c, err := body()
		if err != nil || done {
			return c, err
		}
	}
	return ctl{}, e.store(vc, realV(l+float64(trip)*s), pos)
}

// ifNode runs a logical, block, arithmetic IF or SELECT CASE.
func (e *engine) ifNode(fr *frame, n *apt.If) (ctl, error) {
	var taken *apt.Branch
	switch n.Kind {
	case apt.IfSelect:
		sel, err := e.eval(fr, n.Selector)
		if err != nil {
			return ctl{}, err
		}
		var dflt *apt.Branch
		for _, br := range n.Branches {
			if br.Cond == nil && len(br.Cases) == 0 {
				dflt = br
				continue
			}
			ok, err := e.caseMatch(fr, sel, br)
			if err != nil {
				return ctl{}, err
			}
			if ok {
				taken = br
				break
			}
		}
		if taken == nil {
			taken = dflt
		}
	case apt.IfArithmetic:
		// The expression is evaluated once; the branches test e<0, e==0, e>0.
		bx, ok := n.Branches[0].Cond.(*apt.Binary)
		if !ok || len(n.Branches) != 3 {
			return ctl{}, fmt.Errorf("%s: malformed arithmetic IF", n.Span.Start())
		}
		x, err := e.eval(fr, bx.X)
		if err != nil {
			return ctl{}, err
		}
		for _, br := range n.Branches {
			b := br.Cond.(*apt.Binary)
			r, err := compare(b.Op, x, intV(0))
			if err != nil {
				return ctl{}, fmt.Errorf("%s: %v", n.Span.Start(), err)
			}
			if r.i != 0 {
				taken = br
				break
			}
		}
	default:
		for _, br := range n.Branches {
			if br.Cond == nil {
				taken = br
				break
			}
			ok, err := e.evalLogical(fr, br.Cond)
			if err != nil {
				return ctl{}, err
			}
			if ok {
				taken = br
				break
			}
		}
	}
	if taken == nil {
		return ctl{}, nil
	}
	e.counts.Exec[taken.ID]++
	if err := e.tick(taken.Span.Start()); err != nil {
		return ctl{}, err
	}
	c, err := e.execList(fr, taken.Body)
	if err != nil {
		return ctl{}, err
	}
	if c.k == ctlExit && c.name != "" && c.name == n.Construct {
		return ctl{}, nil
	}
	return c, nil
}

func (e *engine) caseMatch(fr *frame, sel value, br *apt.Branch) (bool, error) {
	cmp := func(op apt.Op, x apt.Expr) (bool, error) {
		v, err := e.eval(fr, x)
		if err != nil {
			return false, err
		}
		r, err := compare(op, sel, v)
		if err != nil {
			return false, fmt.Errorf("%s: %v", x.At(), err)
		}
		return r.i != 0, nil
	}
	for _, cv := range br.Cases {
		if !cv.Range {
			ok, err := cmp(apt.OpEq, cv.Lo)
			if err != nil || ok {
				return ok, err
			}
			continue
		}
		ok := true
		if cv.Lo != nil {
			r, err := cmp(apt.OpGe, cv.Lo)
			if err != nil {
				return false, err
			}
			ok = r
		}
		if ok && cv.Hi != nil {
			r, err := cmp(apt.OpLe, cv.Hi)
			if err != nil {
				return false, err
			}
			ok = r
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

func (e *engine) gotoNode(fr *frame, n *apt.Goto) (ctl, error) {
	pos := n.Span.Start()
	switch n.Kind {
	case apt.GotoComputed:
		i, err := e.evalInt(fr, n.Index)
		if err != nil {
			return ctl{}, err
		}
		if i < 1 || i > int64(len(n.Targets)) {
			return ctl{}, nil // falls through
		}
		return ctl{k: ctlGoto, name: n.Targets[i-1], pos: pos}, nil
	case apt.GotoAssigned:
		i, err := e.evalInt(fr, n.Index)
		if err != nil {
			return ctl{}, err
		}
		return ctl{k: ctlGoto, name: strconv.FormatInt(i, 10), pos: pos}, nil
	}
	if len(n.Targets) != 1 {
		return ctl{}, fmt.Errorf("%s: GO TO without a target", pos)
	}
	return ctl{k: ctlGoto, name: n.Targets[0], pos: pos}, nil
}

// stmt runs one statement of a Block.
func (e *engine) stmt(fr *frame, s *apt.Stmt) error {
	pos := s.Span.Start()
	switch s.Kind {
	case apt.StmtAssign:
		return e.assign(fr, s)
	case apt.StmtAllocate:
		for _, a := range s.Args {
			if err := e.allocStmt(fr, a); err != nil {
				return err
			}
		}
		return nil
	case apt.StmtDeallocate:
		for _, a := range s.Args {
			if k, ok := a.(*apt.Keyword); ok {
				if k.Name == "stat" {
					// The deallocation succeeds, as ALLOCATE's does.
					l, err := e.locate(fr, k.Value)
					if err != nil {
						return err
					}
					if err := e.assignLoc(l, intV(0), k.Pos); err != nil {
						return err
					}
				}
				continue
			}
			l, err := e.locate(fr, a)
			if err != nil {
				return err
			}
			if l.owner != nil {
				l.owner.arr.alloc, l.owner.arr.st = false, nil
			}
		}
		return nil
	case apt.StmtNullify:
		return e.nullifyProcs(fr, s)
	case apt.StmtPointerAssign:
		if ok, err := e.pointProc(fr, s); ok || err != nil {
			return err
		}
	case apt.StmtLabelAssign:
		c, ok := s.Value.(*apt.Const)
		if !ok {
			return fmt.Errorf("%s: malformed ASSIGN", pos)
		}
		l, err := e.locate(fr, s.Target)
		if err != nil {
			return err
		}
		lab, err := strconv.ParseInt(c.Text, 10, 64)
		if err != nil {
			return fmt.Errorf("%s: bad label %q", pos, c.Text)
		}
		return e.assignLoc(l, intV(lab), pos)
	}
	return fmt.Errorf("%s: unsupported statement (%s)", pos, s.Kind)
}

// assign runs an assignment, masked (WHERE, FORALL mask) or not.
func (e *engine) assign(fr *frame, s *apt.Stmt) error {
	pos := s.Span.Start()
	if fc, ok := s.Value.(*apt.FuncCall); ok && len(fc.Args) == 0 && e.cfg.Args == nil &&
		(fc.Name == "command_argument_count" || fc.Name == "iargc") {
		if nm, ok := s.Target.(*apt.Name); ok {
			c, err := e.cellOf(fr, nm.Name, nm.Pos)
			if err != nil {
				return err
			}
			if c.fixed {
				return nil
			}
			x, ok := e.cfg.Params[nm.Name]
			if !ok {
				return fmt.Errorf("%s: %s = %s(): no value for %s in Config.Params", pos, nm.Name, fc.Name, nm.Name)
			}
			return e.store(c, intV(x), pos)
		}
	}
	val, err := e.eval(fr, s.Value)
	if err != nil {
		return err
	}
	var mask value
	if s.Mask != nil {
		if mask, err = e.eval(fr, s.Mask); err != nil {
			return err
		}
		if mask.k == kLog && mask.i == 0 {
			return nil
		}
	}
	l, err := e.locate(fr, s.Target)
	if err != nil {
		return err
	}
	if !mask.isArr() {
		return e.assignLoc(l, val, pos)
	}
	// WHERE (mask) target = value: element by element where mask is true.
	if l.c != nil {
		return fmt.Errorf("%s: WHERE assignment to a scalar", pos)
	}
	offs := l.offs
	if l.owner != nil {
		if !l.arr.alloc {
			return fmt.Errorf("%s: WHERE assignment to an unallocated array", pos)
		}
		if offs, err = wholeOffsets(l.arr); err != nil {
			return fmt.Errorf("%s: %v", pos, err)
		}
	}
	if len(mask.arr.elems) != len(offs) || (val.isArr() && len(val.arr.elems) != len(offs)) {
		return fmt.Errorf("%s: WHERE mask, target and value differ in size", pos)
	}
	for i, off := range offs {
		if m := mask.arr.elems[i]; m.k != kLog || m.i == 0 {
			continue
		}
		x := val
		if val.isArr() {
			x = val.arr.elems[i]
		}
		c, err := e.elemCell(l.arr, off)
		if err != nil {
			return err
		}
		if err := e.store(c, x, pos); err != nil {
			return err
		}
	}
	return nil
}

// allocStmt allocates one ALLOCATE object.
func (e *engine) allocStmt(fr *frame, a apt.Expr) error {
	switch x := a.(type) {
	case *apt.Keyword:
		switch x.Name {
		case "stat":
			l, err := e.locate(fr, x.Value)
			if err != nil {
				return err
			}
			return e.assignLoc(l, intV(0), x.Pos)
		case "errmsg":
			return nil
		}
		return fmt.Errorf("%s: ALLOCATE with %s= is not supported", x.Pos, x.Name)
	case *apt.Name, *apt.Component:
		// An allocatable scalar: its storage always exists.
		return nil
	case *apt.Index:
		var c *cell
		if x.Base != nil {
			obj, err := e.objectAt(fr, x.Base)
			if err != nil {
				return err
			}
			if c = obj.fields[x.Name]; c == nil {
				return fmt.Errorf("%s: type %s has no component %s", x.Pos, obj.dt.Name, x.Name)
			}
		} else {
			var err error
			if c, err = e.cellOf(fr, x.Name, x.Pos); err != nil {
				return err
			}
		}
		if c.arr == nil {
			return fmt.Errorf("%s: ALLOCATE of %s, which is not an array", x.Pos, x.Name)
		}
		if c.arr.alloc {
			return fmt.Errorf("%s: %s is already allocated", x.Pos, x.Name)
		}
		var lo, ext []int64
		for _, s := range x.Subs {
			l, hiX := int64(1), s
			if sec, ok := s.(*apt.Section); ok {
				if sec.Lo != nil {
					v, err := e.evalInt(fr, sec.Lo)
					if err != nil {
						return err
					}
					l = v
				}
				hiX = sec.Hi
			}
			if hiX == nil {
				return fmt.Errorf("%s: ALLOCATE of %s without an upper bound", x.Pos, x.Name)
			}
			h, err := e.evalInt(fr, hiX)
			if err != nil {
				return err
			}
			lo, ext = append(lo, l), append(ext, max(h-l+1, 0))
		}
		if err := e.allocate(c.arr, lo, ext); err != nil {
			return fmt.Errorf("%s: ALLOCATE of %s: %v", x.Pos, x.Name, err)
		}
		return nil
	}
	return fmt.Errorf("%s: unsupported ALLOCATE object %s", a.At(), exprString(a))
}

// call runs a CALL; routines outside the program do nothing.
func (e *engine) call(fr *frame, n *apt.Call) error {
	pos := n.Span.Start()
	if _, through, err := e.callThrough(fr, n.Callee, n.Args, pos); through || err != nil {
		return err
	}
	r := e.findRoutine(fr.r, n.Callee)
	if r == nil {
		_, err := e.process(fr, n)
		return err
	}
	_, err := e.callRoutine(fr, r, n.Args, pos)
	return err
}

// isSend reports whether op is a point-to-point operation that sends.
func isSend(op apt.CommOp) bool {
	switch op {
	case apt.MPISend, apt.MPIIsend, apt.MPISsend, apt.MPIBsend, apt.MPIRsend, apt.MPIIssend,
		apt.MPISendrecv, apt.MPISendrecvReplace:
		return true
	}
	return false
}

// comm runs an MPI call: comm_size and comm_rank set their result, abort
// ends the run, everything else only counts.
func (e *engine) comm(fr *frame, n *apt.Comm) error {
	pos := n.Span.Start()
	e.counts.Msgs[n.ID] += 0
	e.counts.Bytes[n.ID] += 0
	switch n.Op {
	case apt.MPICommSize, apt.MPICommRank:
		if n.Result == nil {
			return fmt.Errorf("%s: mpi_%s without a result argument", pos, n.Op)
		}
		l, err := e.locate(fr, n.Result)
		if err != nil {
			return err
		}
		x := e.cfg.P
		if n.Op == apt.MPICommRank {
			x = e.cfg.Rank
		}
		return e.assignLoc(l, intV(x), pos)
	case apt.MPIAbort:
		if e.world != nil {
			if err := e.worldComm(fr, n); err != nil {
				return err
			}
		}
		e.stopped, e.counts.Aborted = true, true
		return errStop
	}
	if e.cfg.Observer != nil {
		if err := e.observe(fr, n); err != nil {
			return err
		}
	}
	if e.world != nil {
		if err := e.worldComm(fr, n); err != nil {
			return err
		}
	}
	switch {
	case isSend(n.Op):
		if n.Send == nil || n.Send.Peer == nil {
			return fmt.Errorf("%s: mpi_%s without a destination", pos, n.Op)
		}
		peer, err := e.evalInt(fr, n.Send.Peer)
		if err != nil {
			return err
		}
		if peer == e.procNull {
			return nil
		}
	case n.Op.IsCollective():
	default:
		return nil
	}
	e.counts.Msgs[n.ID]++
	if n.Send == nil || n.Send.Count == nil {
		return nil
	}
	cnt, err := e.eval(fr, n.Send.Count)
	if err != nil {
		return err
	}
	var total int64
	if cnt.isArr() {
		for i, x := range cnt.arr.elems {
			if int64(i) >= e.cfg.P {
				break
			}
			k, _ := asInt(x)
			total += k
		}
	} else {
		k, ok := asInt(cnt)
		if !ok {
			return fmt.Errorf("%s: message count %s is %s", pos, exprString(n.Send.Count), cnt.k)
		}
		total = k
	}
	e.counts.Bytes[n.ID] += total * int64(n.Send.TypeSize)
	return nil
}

// io runs an I/O statement: a READ sets its scalar variables from
// Config.Params (parameters keep their value; arrays and derived-type
// io runs an I/O statement: a READ sets its scalar variables from
// Config.Params (parameters keep their value; arrays and derived-type
// objects are left unchanged), unless it reads text the program holds
// (readText), or the value of the variable that first read the same datum
// of a file where an earlier READ read it (internal/readpos); output lists
// are evaluated only when they reference a function of the program.
func (e *engine) io(fr *frame, n *apt.IO) error {
	pos := n.Span.Start()
	if e.cfg.NoInputFiles || e.cfg.Dir != "" {
		if err := e.fileEffects(fr, n); err != nil {
			return err
		}
	}
	if err := e.newUnit(fr, n); err != nil {
		return err
	}
	e.followUnit(fr, n)
	if n.Kind == apt.IORead {
		if done, err := e.readText(fr, n); done || err != nil {
			return err
		}
		if done, err := e.readFile(fr, n); done || err != nil {
			return err
		}
		if done, err := e.readFormatted(fr, n); done || err != nil {
			return err
		}
		if done, err := e.readNamelist(fr, n); done || err != nil {
			return err
		}
		data := e.readData(fr, n)
		for _, name := range n.Reads {
			c, err := e.cellOf(fr, name, pos)
			if err != nil {
				return err
			}
			param := name
			if d, ok := data[name]; ok {
				if first, seen := e.firstRead[d]; seen {
					param = first
				} else {
					e.firstRead[d] = name
				}
			}
			if c.fixed || c.arr != nil || c.typ.Base == apt.TypeDerived {
				continue
			}
			x, ok := e.cfg.Params[param]
			if !ok {
				return fmt.Errorf("%s: READ into %s: no value for %s in Config.Params", pos, name, param)
			}
			if err := e.store(c, intV(x), pos); err != nil {
				return err
			}
		}
		return nil
	}
	for _, it := range n.Items {
		if !e.callsUser(fr, it) {
			continue
		}
		if err := e.outputItem(fr, it); err != nil {
			return err
		}
	}
	return nil
}

// followUnit moves the position of the unit an OPEN, CLOSE, REWIND or
// BACKSPACE names.
func (e *engine) followUnit(fr *frame, n *apt.IO) {
	switch n.Kind {
	case apt.IOOpen, apt.IOClose, apt.IORewind, apt.IOBackspace:
	default:
		return
	}
	unit := n.Unit
	if unit == nil && n.Kind == apt.IOOpen {
		unit = ioKeyword(n, "newunit")
	}
	u, ok := e.unitOf(fr, unit)
	if !ok {
		return
	}
	at, known := e.units[u]
	switch {
	case n.Kind == apt.IOOpen:
		if f, ok := readpos.File(n); ok {
			e.units[u] = readpos.Opened(f)
		} else if f, ok := e.openedName(fr, n); ok {
			e.units[u] = readpos.Opened(f)
		} else {
			delete(e.units, u)
		}
	case n.Kind == apt.IOClose:
		delete(e.units, u)
	case n.Kind == apt.IORewind && known:
		e.units[u] = at.Rewound()
	case n.Kind == apt.IOBackspace && known:
		e.units[u] = at.Backspaced()
	}
}

// newUnit gives the variable of an OPEN's NEWUNIT= a number of its own,
// negative from -10 down as gfortran's.
func (e *engine) newUnit(fr *frame, n *apt.IO) error {
	nu := ioKeyword(n, "newunit")
	if n.Kind != apt.IOOpen || nu == nil || n.Unit != nil {
		return nil
	}
	l, err := e.locate(fr, nu)
	if err != nil {
		return err
	}
	e.newUnits++
	return e.assignLoc(l, intV(-9-e.newUnits), n.Span.Start())
}

func ioKeyword(n *apt.IO, name string) apt.Expr {
	for _, c := range n.Control {
		if k, ok := c.(*apt.Keyword); ok && k.Name == name {
			return k.Value
		}
	}
	return nil
}

// readData returns the datum each leading scalar item of a READ reads, by
// the name of its variable, and moves the unit past the record; nil for a
// unit not connected to a named file.
func (e *engine) readData(fr *frame, n *apt.IO) map[string]string {
	u, ok := e.readUnit(fr, n)
	if !ok {
		return nil
	}
	at, ok := e.units[u]
	if !ok {
		return nil
	}
	e.units[u] = at.Next()
	isArray := func(name string) bool {
		c, err := e.cellOf(fr, name, n.Span.Start())
		return err != nil || c.arr != nil || c.typ.Base == apt.TypeDerived
	}
	out := map[string]string{}
	for i, name := range readpos.Items(n, isArray) {
		out[name] = at.Datum(i)
	}
	return out
}

// unitOf returns the number of an external unit.
// readUnit is the unit a READ reads; * is standard input, unit 5, when
// the run has one.
func (e *engine) readUnit(fr *frame, n *apt.IO) (int64, bool) {
	if _, star := n.Unit.(*apt.Star); star && e.cfg.Stdin != "" {
		return 5, true
	}
	return e.unitOf(fr, n.Unit)
}

func (e *engine) unitOf(fr *frame, x apt.Expr) (int64, bool) {
	if x == nil {
		return 0, false
	}
	if _, star := x.(*apt.Star); star {
		return 0, false
	}
	v, err := e.eval(fr, x)
	if err != nil || v.k == kChar {
		return 0, false
	}
	return asInt(v)
}

func (e *engine) outputItem(fr *frame, it apt.Expr) error {
	if id, ok := it.(*apt.ImpliedDo); ok {
		return e.impliedDo(fr, id, func() error {
			for _, x := range id.Items {
				if err := e.outputItem(fr, x); err != nil {
					return err
				}
			}
			return nil
		})
	}
	_, err := e.eval(fr, it)
	return err
}

// observe evaluates an MPI call's arguments for the observer.
func (e *engine) observe(fr *frame, n *apt.Comm) error {
	switch n.Op {
	case apt.MPIInit, apt.MPIFinalize:
		return nil
	}
	c := &CommCall{Peer: ProcNull, RPeer: ProcNull, Root: -1, Request: -1}
	num := func(x apt.Expr, def int64) (int64, error) {
		if x == nil {
			return def, nil
		}
		return e.evalInt(fr, x)
	}
	size := func(m *apt.Msg) (int64, error) {
		if m == nil || m.Count == nil {
			return 0, nil
		}
		v, err := e.eval(fr, m.Count)
		if err != nil {
			return 0, err
		}
		var k int64
		if v.isArr() {
			for i, x := range v.arr.elems {
				if int64(i) >= e.cfg.P {
					break
				}
				y, _ := asInt(x)
				k += y
			}
		} else {
			k, _ = asInt(v)
		}
		return k * int64(m.TypeSize), nil
	}
	var err error
	coll := n.Op.IsCollective()
	if n.Send != nil && n.Op != apt.MPIRecv && n.Op != apt.MPIIrecv {
		if !coll {
			if c.Peer, err = num(n.Send.Peer, ProcNull); err != nil {
				return err
			}
			if c.Peer == e.procNull {
				c.Peer = ProcNull
			}
			if c.Tag, err = num(n.Send.Tag, 0); err != nil {
				return err
			}
		}
		if c.Bytes, err = size(n.Send); err != nil {
			return err
		}
	}
	if n.Recv != nil {
		if !coll {
			if c.RPeer, err = num(n.Recv.Peer, ProcNull); err != nil {
				return err
			}
			if c.RPeer == e.procNull {
				c.RPeer = ProcNull
			}
			if c.RTag, err = num(n.Recv.Tag, 0); err != nil {
				return err
			}
		}
		if c.RBytes, err = size(n.Recv); err != nil {
			return err
		}
	}
	if coll && n.Root != nil {
		if c.Root, err = e.evalInt(fr, n.Root); err != nil {
			return err
		}
	}
	pos := n.Span.Start()
	op := n.Op
	if n.Immediate {
		op = apt.MPIIsend // a nonblocking collective's request, as a nonblocking send's
	}
	switch op {
	case apt.MPIIsend, apt.MPIIrecv, apt.MPIIssend:
		if n.Request != nil {
			e.nextReq++
			c.Request = e.nextReq
			l, err := e.locate(fr, n.Request)
			if err != nil {
				return err
			}
			if err := e.assignLoc(l, intV(c.Request), pos); err != nil {
				return err
			}
		}
	case apt.MPIWait:
		if n.Request != nil {
			h, err := e.evalInt(fr, n.Request)
			if err != nil {
				return err
			}
			c.Requests = []int64{h}
		}
	case apt.MPIWaitall:
		if n.Request != nil && n.Count != nil {
			k, err := e.evalInt(fr, n.Count)
			if err != nil {
				return err
			}
			v, err := e.eval(fr, n.Request)
			if err != nil {
				return err
			}
			if v.isArr() {
				for i, x := range v.arr.elems {
					if int64(i) >= k {
						break
					}
					h, _ := asInt(x)
					c.Requests = append(c.Requests, h)
				}
			}
		}
	}
	e.cfg.Observer.Comm(n, c)
	return nil
}
