package symeval

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// summary is what a routine may assign that its callers can see: formal
// arguments by position and variables with global storage (COMMON, module,
// host) by key.
type summary struct {
	formals map[int]bool
	// fields are, for a formal argument of a C program the routine
	// stores into through it (this->_M_impl._M_finish), the paths of the
	// components it stores: the actual's components of those keys
	// change, which the actual's own key does not name.
	fields  map[int][]string
	globals map[string]bool
	// shapes are the formal arguments whose allocation it may change
	// (DEALLOCATE, ALLOCATE): for each, the paths to the arrays, "" for
	// the argument itself, "%f" for its component f.
	shapes map[int][]string
	// reachAny says a routine outside the program it calls is given the
	// address of storage the routine's callers cannot name (a local
	// structure's pointer field, std::map's node holder): what any
	// structure its actuals give by address reaches may change.
	reachAny bool
}

// modified returns the storage keys of the scalar variables nodes may assign,
// as seen from the current frame, sorted.
func (ev *evaluator) modified(nodes []apt.Node) []string {
	set := map[string]bool{}
	ev.collectAssigned(nodes, set)
	return slices.Sorted(func(yield func(string) bool) {
		for k := range set {
			if !yield(k) {
				return
			}
		}
	})
}

// ioSets names the control items of I/O statements that give variables
// values (Fortran 2008 9.11, 9.10.2).
var ioSets = map[string]bool{
	"iostat": true, "iomsg": true, "exist": true, "opened": true, "number": true, "named": true,
	"size": true, "nextrec": true, "newunit": true, "recl": true,
}

// assignedKey names a list of nodes for the memo of collectAssigned: a
// single node by itself, a longer list by where it lies in memory (a
// statement list of the APT, or a part of one, lies where the APT keeps
// it; a list built anew, with a node replaced, lies elsewhere).
type assignedKey struct {
	node  apt.Node
	first *apt.Node
	n     int
}

// collectAssigned adds to set the storage keys nodes may assign
// (collectAssigned1). In a Fortran program the keys of a list of nodes
// do not change within a call (its aliases and the routines' summaries
// are fixed), and a loop run iteration by iteration asks for those of
// the loops inside it on every trip: the frame keeps them, unless an
// IF's arms were decided by the current values or a store of a constant
// is left out (skipStore). In C, a
// component's key follows the pointer's value at the time.
func (ev *evaluator) collectAssigned(nodes []apt.Node, set map[string]bool) {
	if len(nodes) == 0 {
		return
	}
	if ev.prog.Notation() != apt.Fortran || ev.constStore != nil {
		ev.collectAssigned1(nodes, set)
		if ev.cPointers() {
			ev.assignedSlots(set) // pointers assigned hold other addresses
			if ev.summarizing == 0 {
				// (A summary keeps the marks for its callers' actuals.)
				ev.expandReachMarks(set)
			}
		}
		return
	}
	fr := ev.frame()
	mk := assignedKey{node: nodes[0], n: 1}
	if len(nodes) > 1 {
		mk = assignedKey{first: &nodes[0], n: len(nodes)}
	}
	keys, ok := fr.assigned[mk]
	if !ok {
		sub := map[string]bool{}
		decided := ev.armsDecided
		ev.collectAssigned1(nodes, sub)
		keys = make([]string, 0, len(sub))
		for k := range sub {
			keys = append(keys, k)
		}
		// Arms decided by the current values (decidedArms) may be
		// decided otherwise later: such a list is not kept.
		if ev.armsDecided == decided {
			if fr.assigned == nil {
				fr.assigned = map[assignedKey][]string{}
			}
			fr.assigned[mk] = keys
		}
	}
	for _, k := range keys {
		set[k] = true
	}
}

// collectAssigned1 adds to set the storage keys of the variables nodes
// may assign, through the routines they call.
func (ev *evaluator) collectAssigned1(nodes []apt.Node, set map[string]bool) {
	addName := func(name string) {
		if ev.paramName(name) == "" {
			set[ev.key(name)] = true
		}
	}
	addExpr := func(e apt.Expr) {
		switch t := e.(type) {
		case *apt.Name:
			addName(t.Name)
		case *apt.Component:
			if k, ok := ev.refKey(t); ok {
				set[k] = true
			} else if k, ok := ev.partKey(t); ok {
				// A component of an element of an array of derived
				// type: the field's array (fieldRef).
				set[k] = true
			}
		case *apt.Index:
			if k, ok := ev.arrayKey(t); ok {
				set[k] = true
			}
			if k, ok := ev.derefScalar(t); ok {
				set[k] = true
			}
			if t.Base != nil {
				// p->f[k] through a pointer field holding a known
				// address stores into that storage (fieldPointee).
				if p, ok := ev.fieldPointed(t); ok {
					set[p.key()] = true
				}
			}
		}
	}
	calls := func(e apt.Expr) {
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if f, ok := x.(*apt.FuncCall); ok && !f.Intrinsic {
				for _, r := range ev.callees(f.Name) {
					ev.applySummary(r, f.Args, set)
				}
			}
			return true
		})
	}
	for _, n := range nodes {
		apt.Inspect(n, func(n apt.Node) bool {
			switch x := n.(type) {
			case *apt.Block:
				for _, s := range x.Stmts {
					switch {
					case s.Kind == apt.StmtAssign:
						if !ev.skipStore(s) {
							addExpr(s.Target)
							ev.pointerSlot(s.Target, set)
							if nm := ev.autoAllocTarget(s); nm != nil {
								// Allocated on assignment: its shape too.
								set[shapeKey(ev.key(nm.Name))] = true
								set[allocStatusKey(ev.key(nm.Name))] = true
							}
						}
						calls(s.Value)
					case s.Kind == apt.StmtPointerAssign || s.Kind == apt.StmtNullify:
						ev.elemPointerKeys(s, set)
						for _, t := range append([]apt.Expr{s.Target}, s.Args...) {
							if nm, ok := t.(*apt.Name); ok && nm.Array && ev.paramName(nm.Name) == "" {
								// An array pointer associated anew: its
								// bounds and what its elements are.
								set[ev.key(nm.Name)] = true
								set[shapeKey(ev.key(nm.Name))] = true
							}
							if nm, ok := t.(*apt.Name); ok && ev.procVar(ev.frame().routine, nm.Name) != nil {
								addName(nm.Name) // the routine a procedure pointer holds
							}
							if c, ok := t.(*apt.Component); ok {
								if k, ok := ev.procComponent(c); ok {
									set[k] = true // a procedure pointer component's
								}
							}
						}
					case (s.Kind == apt.StmtAllocate || s.Kind == apt.StmtDeallocate) && !s.Heap:
						ev.allocated(s, set)
						for _, a := range s.Args {
							if ix, ok := a.(*apt.Index); ok && ix.Base == nil {
								ev.pointerSlot(&apt.Name{Name: ix.Name, Type: ix.Type, Array: true}, set)
							}
						}
					}
				}
			case *apt.Loop:
				if x.Var != "" {
					addName(x.Var)
				}
			case *apt.IO:
				for _, r := range x.Reads {
					addName(r)
				}
				for _, c := range x.Control {
					// IOSTAT=, EXIST=, OPENED=, ...: set by the statement
					// (FILE=, UNIT= and the like are read, not set, but
					// a name among them marks no more than a change).
					if kw, ok := c.(*apt.Keyword); ok && ioSets[kw.Name] {
						addExpr(kw.Value)
					}
				}
				if x.Kind == apt.IOOpen || x.Kind == apt.IOClose {
					set[connSomeKey] = true // the units connected
				}
			case *apt.Comm:
				if x.Result != nil {
					addExpr(x.Result)
				}
				if x.Recv != nil && x.Recv.Buffer != nil {
					addExpr(x.Recv.Buffer)
				}
				if x.Op == apt.MPIBcast && x.Send != nil {
					addExpr(x.Send.Buffer)
				}
			case *apt.Call:
				if rs := ev.callees(x.Callee); len(rs) > 0 {
					for _, r := range rs {
						ev.applySummary(r, x.Args, set)
					}
				} else {
					for _, a := range x.Args {
						addExpr(a)
					}
					for _, k := range ev.reachRoots(x.Callee, x.Args) {
						set[k+reachMark] = true
					}
				}
			case *apt.If:
				if arms, ok := ev.decidedArms(x, nodes); ok {
					ev.armsDecided++
					// Arms decided by values nothing here changes (a
					// kernel chosen by an input flag): only those taken
					// assign.
					for _, b := range arms {
						if b.Cond != nil {
							calls(b.Cond)
						}
						ev.collectAssigned(b.Body, set)
					}
					return false
				}
				for _, b := range x.Branches {
					if b.Cond != nil {
						calls(b.Cond)
					}
				}
			}
			return true
		})
	}
}

// decidedArms returns the arms of f that can be taken, when the conditions
// before them are decided by the current values: constants (an input
// deck's flags, PARAMETERs) that no statement of scope changes. It reports
// false when some condition is not so decided.
func (ev *evaluator) decidedArms(f *apt.If, scope []apt.Node) ([]*apt.Branch, bool) {
	if f.Selector != nil || ev.frames == nil || len(ev.frames) == 0 {
		return nil, false
	}
	var out []*apt.Branch
	for _, b := range f.Branches {
		if b.Cond == nil {
			return append(out, b), true // ELSE: reached
		}
		t, dec := ev.decideInvariant(b.Cond, scope)
		if !dec {
			return nil, false
		}
		if t {
			return append(out, b), true
		}
	}
	return out, true
}

// decideInvariant decides the condition e from the operands of its .AND.,
// .OR. and .NOT. that scope leaves invariant (invariantIn): where one
// settles an .AND. or .OR. alone (decideLogical), the other may be
// anything, a flag the loop sets included.
func (ev *evaluator) decideInvariant(e apt.Expr, scope []apt.Node) (bool, bool) {
	switch x := e.(type) {
	case *apt.Binary:
		if x.Op == apt.OpAnd || x.Op == apt.OpOr {
			l, dl := ev.decideInvariant(x.X, scope)
			r, dr := ev.decideInvariant(x.Y, scope)
			return decideLogical(x.Op, l, dl, r, dr)
		}
	case *apt.Unary:
		if x.Op == apt.OpNot {
			t, dec := ev.decideInvariant(x.X, scope)
			return !t, dec
		}
	}
	if !ev.invariantIn(e, scope) {
		return false, false
	}
	c, ok := ev.cond(e)
	if !ok {
		return false, false
	}
	return decide(c)
}

// invariantIn reports whether e is a test of LOGICAL scalars (flags, such
// as which kernels to use) that no statement of scope assigns, passes to a
// routine or reads into, and whose values are known: deciding it then
// evaluates nothing else (no parameter is made, no function runs).
func (ev *evaluator) invariantIn(e apt.Expr, scope []apt.Node) bool {
	names := map[string]bool{}
	ok := true
	apt.InspectExpr(e, func(x apt.Expr) bool {
		switch y := x.(type) {
		case *apt.Name:
			if y.Array || y.Type.Base != apt.TypeLogical {
				ok = false
				return false
			}
			if _, known := ev.load(y.Name).Single(); !known {
				ok = false
			}
			names[y.Name] = true
		case *apt.Component:
			nm, isName := y.Base.(*apt.Name)
			if !isName || y.Array || y.Type.Base != apt.TypeLogical {
				ok = false
				return false
			}
			if k, kok := ev.refKey(y); !kok {
				ok = false
			} else if _, known := ev.env.get(k).Single(); !known {
				ok = false
			}
			names[nm.Name] = true
			return false
		case *apt.Unary, *apt.Const:
		case *apt.Binary:
			switch y.Op {
			case apt.OpAnd, apt.OpOr, apt.OpNot, apt.OpEqv, apt.OpNeqv:
			default:
				ok = false
			}
		default:
			ok = false
		}
		return ok
	})
	if !ok {
		return false
	}
	touched := false
	base := func(x apt.Expr) {
		for x != nil && !touched {
			switch y := x.(type) {
			case *apt.Name:
				touched = names[y.Name]
				return
			case *apt.Index:
				if names[y.Name] {
					touched = true
					return
				}
				x = y.Base
			case *apt.Component:
				x = y.Base
			default:
				return
			}
		}
	}
	for _, n := range scope {
		apt.Inspect(n, func(m apt.Node) bool {
			switch y := m.(type) {
			case *apt.Block:
				for _, st := range y.Stmts {
					base(st.Target)
				}
			case *apt.Call:
				for _, a := range y.Args {
					base(a)
				}
			case *apt.IO:
				for _, r := range y.Reads {
					touched = touched || names[r]
				}
			case *apt.Loop:
				touched = touched || names[y.Var]
			case *apt.Comm:
				if y.Recv != nil {
					base(y.Recv.Buffer)
				}
				base(y.Result)
			}
			return !touched
		})
	}
	return !touched
}

// applySummary adds what a call of r with args may assign.
func (ev *evaluator) applySummary(r *apt.Routine, args []apt.Expr, set map[string]bool) {
	s := ev.summarize(r)
	for i, paths := range s.shapes {
		if i < len(args) {
			if k, ok := ev.refKey(args[i]); ok {
				for _, p := range paths {
					set[shapeKey(k+p)] = true
				}
			} else if ix, isIx := args[i].(*apt.Index); isIx {
				// An element whose components the routine allocates:
				// their bounds, kept per element (elemshape.go).
				for _, p := range paths {
					if f, ok := strings.CutPrefix(p, "%"); ok && !strings.Contains(f, "%") {
						ev.elemShapeKeys(ix, f, set)
					}
				}
			}
		}
	}
	for i := range s.formals {
		if i < len(args) {
			if k, ok := ev.refKey(args[i]); ok {
				set[k] = true
				for _, p := range s.fields[i] {
					set[k+p] = true
				}
			} else if ix, isIx := args[i].(*apt.Index); isIx {
				// An element passed by reference: the routine may assign
				// it, or the array from it on.
				if k, ok := ev.arrayKey(ix); ok {
					set[k] = true
				}
			} else if c, isComp := args[i].(*apt.Component); isComp {
				// A component of an element (fieldRef).
				if k, ok := ev.partKey(c); ok {
					set[k] = true
				}
			}
		}
	}
	for k := range s.globals {
		set[k] = true
	}
	if s.reachAny {
		for _, k := range ev.reachRoots("", args) {
			set[k+reachMark] = true
		}
	}
}

// summarize computes (once) what r may assign that is visible to callers.
func (ev *evaluator) summarize(r *apt.Routine) *summary {
	if s, ok := ev.summary[r]; ok {
		return s
	}
	s := &summary{formals: map[int]bool{}, globals: map[string]bool{}, shapes: map[int][]string{}}
	ev.summary[r] = s // a recursive call sees the partial summary
	ev.nframe++
	fr := &frame{routine: r, id: "s" + strconv.Itoa(ev.nframe), alias: map[string]string{}}
	for i, f := range r.Formals {
		fr.alias[f] = "#formal" + strconv.Itoa(i)
	}
	ev.frames = append(ev.frames, fr)
	set := map[string]bool{}
	ev.summarizing++
	ev.collectAssigned(r.Body, set)
	ev.summarizing--
	ev.frames = ev.frames[:len(ev.frames)-1]
	for k := range set {
		switch {
		case strings.HasPrefix(k, "#formal"):
			rest := strings.TrimPrefix(k, "#formal")
			arg, shaped := strings.CutSuffix(rest, shapeKey(""))
			num, path := arg, ""
			if j := strings.IndexByte(arg, '%'); j >= 0 {
				num, path = arg[:j], arg[j:]
			}
			if i, err := strconv.Atoi(num); err == nil && shaped {
				s.shapes[i] = append(s.shapes[i], path)
			} else if err == nil {
				s.formals[i] = true
				if path != "" && ev.cPointers() {
					if s.fields == nil {
						s.fields = map[int][]string{}
					}
					s.fields[i] = append(s.fields[i], path)
				}
			}
		case strings.HasPrefix(k, fr.id+"."):
			// a local
			s.reachAny = s.reachAny || strings.Contains(k, reachMark)
		default:
			s.globals[k] = true
		}
	}
	return s
}

// storesOnly reports whether every store the nodes make to the variable at
// key, directly or in the routines they call, writes the integer constant
// c (the value the variable holds): then running them leaves it as it is.
// The flag of a run-once initialisation (`if (first) { ...; first = 0; }`,
// C's static int ks = 0 ... ks = 1) is the case: once set, a loop of calls
// leaves it set, and the branch it guards is decided. It is the analysis
// of what the nodes may assign (collectAssigned), run with those constant
// stores left out: key must then not be assigned at all.
func (ev *evaluator) storesOnly(nodes []apt.Node, key string, c symbolic.Expr) bool {
	v, ok := c.Int64()
	if !ok {
		return false
	}
	savedSummary, savedFilter := ev.summary, ev.constStore
	ev.summary = map[*apt.Routine]*summary{}
	ev.constStore = &constStore{key: key, value: v}
	defer func() { ev.summary, ev.constStore = savedSummary, savedFilter }()
	set := map[string]bool{}
	ev.collectAssigned(nodes, set)
	return !set[key]
}

// variedStores returns the storage keys of the scalars the statements of
// nodes (not the routines they call) assign a value other than one
// integer constant: two constants, or anything not a constant, outside
// any IF (whose arms collectAssigned may leave out, decidedArms).
// storesOnly holds for none of them.
func (ev *evaluator) variedStores(nodes []apt.Node) map[string]bool {
	consts := map[string]int64{}
	out := map[string]bool{}
	for _, n := range nodes {
		apt.Inspect(n, func(m apt.Node) bool {
			if _, isIf := m.(*apt.If); isIf {
				return false
			}
			b, ok := m.(*apt.Block)
			if !ok {
				return true
			}
			for _, s := range b.Stmts {
				nm, ok := s.Target.(*apt.Name)
				if !ok || s.Kind != apt.StmtAssign || ev.paramName(nm.Name) != "" {
					continue
				}
				k := ev.key(nm.Name)
				v, isConst := constInt(s.Value)
				if c, seen := consts[k]; !isConst || seen && c != v {
					out[k] = true
				}
				consts[k] = v
			}
			return true
		})
	}
	return out
}

// constStore is a store collectAssigned leaves out (storesOnly): an
// assignment of value to the variable at key.
type constStore struct {
	key   string
	value int64
}

// skipStore reports whether the assignment s is one storesOnly leaves out.
func (ev *evaluator) skipStore(s *apt.Stmt) bool {
	f := ev.constStore
	if f == nil {
		return false
	}
	nm, ok := s.Target.(*apt.Name)
	if !ok || ev.paramName(nm.Name) != "" || ev.key(nm.Name) != f.key {
		return false
	}
	v, ok := constInt(s.Value)
	return ok && v == f.value
}

// constInt is the value of an integer literal (or its negation), or of a
// logical one in the evaluation's encoding (.FALSE. is 0, .TRUE. 1).
func constInt(e apt.Expr) (int64, bool) {
	switch x := e.(type) {
	case *apt.Const:
		if x.Kind == apt.ConstLogical {
			if v, ok := constValue(x).Single(); ok {
				return v.Int64()
			}
			return 0, false
		}
		if x.Kind != apt.ConstInt {
			return 0, false
		}
		v, err := strconv.ParseInt(strings.SplitN(x.Text, "_", 2)[0], 10, 64)
		return v, err == nil
	case *apt.Unary:
		if x.Op == apt.OpNeg {
			v, ok := constInt(x.X)
			return -v, ok
		}
	}
	return 0, false
}
