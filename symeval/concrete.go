package symeval

import (
	"fmt"
	"math/big"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval/concrete"
)

// Concrete runs of set-up code. A routine that builds the program's data
// (a random sparse matrix's rows, the keys a sort buckets) from values the
// evaluation knows computes numbers only a run gives: its symbolic
// evaluation asks for them (MK3001). At a point, where P and every input
// are numbers, the call is run instead, rank by rank, by the concrete
// machine (package concrete): the program's own code with the values the
// evaluation holds, its counts per call path becoming the occurrences of
// the routine's nodes, and what it stored becoming the values after the
// call (integer arrays as tables, elemTable). A call is run so only where
// its symbolic evaluation left values of the data unknown (after that,
// every call of the routine is run first), where no loop evaluated
// symbolically is around it, on every rank, and where the machine runs all
// it reaches (no MPI, no input, nothing it does not know in a control
// decision) within its step budget; otherwise the symbolic evaluation
// stands.

const (
	// concreteSteps bounds the steps of one rank's run of a call, and
	// totalConcreteSteps those of all the runs of an evaluation (a sweep
	// over process counts evaluates once per count).
	concreteSteps      = 20_000_000
	totalConcreteSteps = 24_000_000
	// maxConcreteRanks bounds the process counts at which calls are run.
	maxConcreteRanks = 64
)

// concState is the evaluation's concrete machine and what it learnt of
// the routines.
type concState struct {
	m *concrete.Machine
	// refused says why a routine is not run (its symbolic evaluation
	// stands); preferred marks those whose calls are run first.
	refused   map[*apt.Routine]string
	preferred map[*apt.Routine]bool
	// spent counts the steps of the runs so far.
	spent int64
}

// affords reports whether the ranks after rk, each taking about the steps
// rank rk's run took, fit in what the evaluation has left: a call the
// budget cannot finish for every rank is given up after its first rank's
// run, not at the last.
func (cs *concState) affords(rk, np int64) bool {
	return cs.m.Steps()*(np-rk-1) <= totalConcreteSteps-cs.spent
}

// budget sets the machine's step limit for the next run from what the
// evaluation has left; false when nothing is left.
func (cs *concState) budget() bool {
	left := totalConcreteSteps - cs.spent
	cs.m.MaxSteps = min(concreteSteps, left)
	return left > 0
}

func (ev *evaluator) concState() *concState {
	if ev.conc == nil {
		m := concrete.New(ev.prog)
		m.MaxSteps = concreteSteps
		m.Routine = func(_ *apt.Routine, name string) *apt.Routine { return ev.routineNamed(name) }
		ev.conc = &concState{m: m, refused: map[*apt.Routine]string{}, preferred: map[*apt.Routine]bool{}}
	}
	return ev.conc
}

// concreteCall evaluates the CALL c of r (occurrence o) by running it
// where it can (above); it reports whether it evaluated the call.
func (ev *evaluator) concreteCall(c *apt.Call, r *apt.Routine, o *Occ) bool {
	np, ok := ev.values[Size]
	if !ok || np < 1 || np > maxConcreteRanks || ev.probing > 0 || ev.inert > 0 || o == nil || r.Elemental ||
		len(ev.cur.vars) > 0 || ev.cur.dead || ev.err != nil || ev.concTrial > 0 {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "concrete %s: not at a point with no loop around (P=%d probing=%d inert=%d vars=%v)\n",
				c.Span.Start(), np, ev.probing, ev.inert, ev.cur.vars)
		}
		return false
	}
	if _, fixed := ev.values[Rank]; fixed {
		return false
	}
	cs := ev.concState()
	if cs.refused[r] != "" {
		return false
	}
	if ok, why := cs.m.Runnable(r); !ok {
		cs.refused[r] = why.Error()
		if debugRuns {
			fmt.Fprintf(os.Stderr, "concrete %s: %s is not run: %v\n", c.Span.Start(), r.Name, why)
		}
		return false
	}
	// The ranks the path holds on: all, or those a test on the rank
	// selects (rank 0 reading or drawing what it then sends).
	ranks, ok := ev.pathRanks(np)
	if ok && len(ranks) == 0 {
		// No rank takes the path (rank 1's test that its neighbour is
		// not rank 1, on rank 1's path): the call runs nowhere, and a
		// walk of it would only ask for values no run reads.
		if debugRuns {
			fmt.Fprintf(os.Stderr, "concrete %s: no rank takes the path\n", c.Span.Start())
		}
		return true
	}
	if !ok || len(ranks) == 0 {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "concrete %s: the ranks of the path are not known\n", c.Span.Start())
		}
		return false
	}
	// (Only this evaluation's: whether the symbolic evaluation of a call
	// stands depends on the process count, and an evaluation at one count
	// must not depend on which others a sweep holds.)
	if cs.preferred[r] {
		return ev.runConcrete(c, r, o, np, ranks)
	}
	// The symbolic evaluation first: a call it evaluates with no new
	// value of the data stays as it is.
	snap := ev.snapshot(o)
	before := len(ev.res.Params)
	// (No run inside the trial: the call is run whole if it needs one.)
	ev.concTrial++
	ev.callRoutine(r, c.Args, o, nil)
	ev.concTrial--
	if ev.err != nil || len(ev.res.Params) == before && !ev.leftUnknown(snap.env, ev.untrackedArgs(c.Args)) {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "concrete %s: the symbolic evaluation of %s stands\n", c.Span.Start(), r.Name)
		}
		return true
	}
	snap.restore(ev, o)
	if ev.runConcrete(c, r, o, np, ranks) {
		cs.preferred[r] = true
		return true
	}
	ev.callRoutine(r, c.Args, o, nil)
	return true
}

// concRank is one rank's run of a call: its counts and the storage it
// reached, by key.
type concRank struct {
	ctx    *concrete.Context
	stores map[string]*concStore
}

// concStore is a storage a run reached: its store, and whether it is the
// evaluation's array or scalar.
type concStore struct {
	s     *concrete.Store
	array bool
	decl  *apt.Var
}

// runConcrete runs the call rank by rank on ranks (the path's) and,
// where every rank's run completes, takes its results; it reports
// whether it did, the state as it found it where not.
func (ev *evaluator) runConcrete(c *apt.Call, r *apt.Routine, o *Occ, np int64, ranks []int64) (done bool) {
	cs := ev.concState()
	snap := ev.snapshot(o)
	defer func() {
		if !done {
			snap.restore(ev, o)
		}
	}()
	runs := make([]*concRank, np)
	for _, rk := range ranks {
		imp := &importer{ev: ev, rank: rk, np: np, stores: map[string]*concStore{}}
		args, ok := imp.args(r, c.Args)
		if !ok {
			if debugRuns {
				fmt.Fprintf(os.Stderr, "concrete %s: rank %d: %s\n", c.Span.Start(), rk, imp.why)
			}
			cs.refused[r] = imp.why
			return false
		}
		if !cs.budget() {
			cs.refused[r] = "the evaluation's runs took their budget"
			return false
		}
		cs.m.Globals = imp.global
		cs.m.Pointee, cs.m.Address, cs.m.At = imp.reach, imp.address, imp.storageAt
		ctx, err := cs.m.Call(r, args)
		cs.m.Globals, cs.m.Pointee, cs.m.Address, cs.m.At = nil, nil, nil, nil
		cs.spent += cs.m.Steps()
		if err != nil || imp.why != "" {
			if debugRuns {
				fmt.Fprintf(os.Stderr, "concrete %s: rank %d: %v %s\n", c.Span.Start(), rk, err, imp.why)
			}
			if err != nil {
				cs.refused[r] = err.Error()
			} else {
				cs.refused[r] = imp.why
			}
			return false
		}
		if debugRuns {
			fmt.Fprintf(os.Stderr, "concrete %s: rank %d ran %s in %d steps\n", c.Span.Start(), rk, r.Name, cs.m.Steps())
		}
		if !cs.affords(rk, np) {
			cs.refused[r] = "the evaluation's runs would pass their budget"
			return false
		}
		runs[rk] = &concRank{ctx: ctx, stores: imp.stores}
	}
	if !ev.concOccs(r, o, runs) {
		return false
	}
	ev.concExport(runs, np)
	return true
}

// importer hands the evaluation's values at one rank to a run.
type importer struct {
	ev     *evaluator
	rank   int64
	np     int64
	stores map[string]*concStore
	why    string
	// addrs caches address's answers: a store's storage address and
	// element bytes.
	addrs map[*concrete.Store][2]int64
}

// at is v's number at the importer's rank.
func (imp *importer) at(v Value) (symbolic.Rat, bool) {
	if !v.IsKnown() {
		return symbolic.Rat{}, false
	}
	j := 0
	if len(v.Alts) > 1 || v.Alts[0].Guard != nil {
		idx, ok := imp.ev.altsByRank(v, imp.np)
		if !ok || idx[imp.rank] < 0 {
			return symbolic.Rat{}, false
		}
		j = int(idx[imp.rank])
	}
	r, err := v.Alts[j].E.Eval(map[string]symbolic.Rat{Rank: symbolic.RatInt(imp.rank), Size: symbolic.RatInt(imp.np)})
	return r, err == nil
}

// set puts the number x into element i of s.
func set(s *concrete.Store, i int64, x symbolic.Rat) {
	if n, ok := x.Int64(); ok && x.IsInt() {
		s.SetInt(i, n)
		return
	}
	s.SetReal(i, x.Float64())
}

// newStore makes the store of a variable of declaration d.
func newStore(key string, n int64, d *apt.Var) *concrete.Store {
	s := concrete.NewStore(key, n, d.Type.Base == apt.TypeReal || d.Type.Base == apt.TypeComplex)
	s.Single = d.Type.Base == apt.TypeReal && d.Type.Kind == 4
	return s
}

// scalar is the store of the scalar at key.
func (imp *importer) scalar(key string, d *apt.Var) *concrete.Store {
	if cs, ok := imp.stores[key]; ok {
		return cs.s
	}
	s := newStore(key, 1, d)
	imp.stores[key] = &concStore{s: s, decl: d}
	v, has := imp.ev.env.lookup(key)
	if !has {
		if init := imp.ev.slotInit(key, d); len(init.Init) == 1 {
			v = imp.ev.value(init.Init[0])
		} else if z, ok := imp.ev.zeroOf(key); ok {
			v = z
		}
	}
	if x, ok := imp.at(v); ok {
		set(s, 0, x)
	}
	return s
}

// array is the store of the n elements of the array at key, with the
// elements the evaluation knows at the rank.
func (imp *importer) array(key string, d *apt.Var, n int64) *concrete.Store {
	if cs, ok := imp.stores[key]; ok {
		if cs.s.Len() < n {
			imp.why = "an array reached with two sizes"
			return nil
		}
		return cs.s
	}
	if n < 0 || n > 1<<26 {
		imp.why = fmt.Sprintf("array %s of %d elements", d.Name, n)
		return nil
	}
	s := newStore(key, n, d)
	imp.stores[key] = &concStore{s: s, array: true, decl: d}
	v, has := imp.ev.env.lookup(key)
	if !has || v.arr == nil || !tracked(d.Type) {
		return s // undefined, or real data the evaluation does not follow
	}
	if !imp.fill(s, v.arr, n) {
		return nil
	}
	return s
}

// fill puts into s the first n elements of st the evaluation knows at the
// importer's rank; false (imp.why says why) where a store's place or
// condition is not a number there.
func (imp *importer) fill(s *concrete.Store, st *arrayState, n int64) bool {
	if st.tab != nil {
		row, known := st.tab.row(imp.rank)
		for i := int64(0); i < n && i < int64(len(row)); i++ {
			if known[i] {
				s.SetInt(i, row[i])
			}
		}
	} else if st.base != nil && !st.clobbered {
		if x, ok := imp.at(*st.base); ok {
			for i := range n {
				set(s, i, x)
			}
		}
	}
	env := map[string]symbolic.Rat{Rank: symbolic.RatInt(imp.rank), Size: symbolic.RatInt(imp.np)}
	for _, a := range st.stores {
		if a.guard != nil {
			in, ok := imp.ev.rankSet(a.guard, imp.np)
			if !ok {
				imp.why = "a store under a condition the run cannot decide"
				return false
			}
			if !in[imp.rank] {
				continue
			}
		}
		lo, err := a.off.Eval(env)
		if err != nil || !lo.IsInt() {
			imp.why = "a store to an offset the run does not know"
			return false
		}
		from, _ := lo.Int64()
		to := from
		if a.upTo != nil {
			hi, err := a.upTo.Eval(env)
			if err != nil || !hi.IsInt() {
				imp.why = "a store to a range the run does not know"
				return false
			}
			to, _ = hi.Int64()
		}
		// One value over the whole range (a buffer cleared to zero) is
		// evaluated once.
		same := !mentions(a.val, []string{offSym})
		var x symbolic.Rat
		var ok bool
		if same {
			x, ok = imp.at(a.val)
		}
		for i := max(from, 0); i <= to && i < n; i++ {
			if !same {
				x, ok = imp.at(atOffset(a.val, symbolic.Int(i)))
			}
			s.Known[i] = false
			if ok {
				set(s, i, x)
			}
		}
	}
	return true
}

// args binds the actual arguments of a call of r.
func (imp *importer) args(r *apt.Routine, args []apt.Expr) ([]*concrete.Ref, bool) {
	args = actualsByFormal(r, args)
	refs := make([]*concrete.Ref, len(r.Formals))
	for i, f := range r.Formals {
		if i >= len(args) || args[i] == nil {
			continue
		}
		d := r.Scope.Lookup(f)
		if d == nil {
			imp.why = "an undeclared dummy"
			return nil, false
		}
		ref := imp.actual(args[i], d)
		if ref == nil {
			if imp.why == "" {
				imp.why = "the actual argument " + apt.FormatExpr(args[i])
			}
			return nil, false
		}
		refs[i] = ref
	}
	return refs, true
}

// actual is the binding of one actual argument to dummy d.
func (imp *importer) actual(x apt.Expr, d *apt.Var) *concrete.Ref {
	ev := imp.ev
	switch x := x.(type) {
	case *apt.Name:
		decl := ev.prog.Resolve(ev.frame().routine, x.Name)
		if decl == nil || decl.Param != nil {
			break
		}
		if decl.Pointer || decl.Allocatable && !decl.IsArray() || decl.Type.Base == apt.TypeDerived {
			imp.why = "a pointer, allocatable scalar or derived-type argument"
			return nil
		}
		if ref, ok := imp.pointer(x.Name, decl); ok {
			return ref
		}
		key := ev.key(x.Name)
		if decl.IsArray() && needsShape(decl.Dims) {
			return imp.shaped(key, decl, func() []bound {
				bs, _ := ev.arrayBounds(x.Name, decl)
				return bs
			})
		}
		if decl.IsArray() {
			s := imp.frameArray(key, x.Name, decl)
			if s == nil {
				return nil
			}
			return &concrete.Ref{S: s}
		}
		return &concrete.Ref{S: imp.scalar(key, decl)}
	case *apt.Index:
		decl := ev.declOf(x)
		if decl == nil || !decl.IsArray() || decl.Pointer || hasSection(x) {
			imp.why = "an element of an array the run does not hold"
			return nil
		}
		key, off, ok := ev.indexRef(x)
		if !ok || key == "" {
			imp.why = "the element " + apt.FormatExpr(x)
			return nil
		}
		o, ok := imp.at(off)
		oi, isInt := o.Int64()
		if !ok || !isInt {
			imp.why = "the offset of " + apt.FormatExpr(x)
			return nil
		}
		s := imp.frameArray(key, x.Name, decl)
		if s == nil {
			return nil
		}
		return &concrete.Ref{S: s, Off: oi}
	}
	if d.IsArray() {
		imp.why = "an expression passed to the array " + d.Name
		return nil
	}
	s := newStore("", 1, d)
	if v, ok := imp.at(ev.value(x)); ok {
		set(s, 0, v)
	}
	return &concrete.Ref{S: s}
}

// global is the machine's Globals: the storage of a COMMON, module, SAVE
// or initialised variable v that routine r names.
func (imp *importer) global(r *apt.Routine, name string, v *apt.Var) *concrete.Ref {
	if root, path, isField := strings.Cut(name, "%"); isField {
		// A scalar component of a structure (the machine's fieldSlot):
		// stored under the structure's key and the path, as refKey
		// keys it.
		rv := imp.ev.prog.Resolve(r, root)
		if rv == nil {
			imp.why = "the storage of " + name
			return nil
		}
		key, ok := imp.ev.staticKey(r, rv, root)
		if !ok {
			imp.why = "the storage of " + name
			return nil
		}
		if !v.IsArray() {
			return whole(imp.scalar(key+"%"+path, v))
		}
		if ref, ok := imp.heapField(r, root, path, v); ok {
			return ref
		}
		// A field of an array of C structures, which the C frontend
		// declares as an array of its own (blocks%level, no extent):
		// as many elements as the structures, times the field's own
		// where it is an array (blocks%cen(n, k)).
		n, ok := imp.fixedElems(r, rv)
		per, ok2 := imp.fieldElems(r, v)
		if !ok || !ok2 || len(rv.Dims) != 1 {
			imp.why = "the extent of " + name
			return nil
		}
		return whole(imp.array(key+"%"+path, v, n*per))
	}
	key, ok := imp.ev.staticKey(r, v, name)
	if !ok {
		imp.why = "the storage of " + name
		return nil
	}
	if !v.IsArray() {
		return whole(imp.scalar(key, v))
	}
	if ref, ok := imp.pointer(name, v); ok {
		return ref
	}
	if needsShape(v.Dims) {
		return imp.shaped(key, v, func() []bound {
			sh, ok := imp.ev.shapeAt(key, len(v.Dims))
			if !ok {
				return nil
			}
			return sh
		})
	}
	n, ok := imp.fixedElems(r, v)
	if !ok {
		imp.why = "the bounds of " + name
		return nil
	}
	return whole(imp.array(key, v, n))
}

// heapField is the binding of the field array root%path (declared v by
// the C frontend) where root is a pointer into a heap array of structures
// (blocks = malloc(n * sizeof *blocks)): the object's array for the
// field, of as many elements as the allocation made, from the element
// root (as routine r names it: a global, or the frame's own) points to.
// False where root is no such pointer; the reason is set where it is one
// whose extent is not known.
func (imp *importer) heapField(r *apt.Routine, root, path string, v *apt.Var) (*concrete.Ref, bool) {
	ev := imp.ev
	if !v.IsArray() {
		return nil, false
	}
	per, ok := imp.fieldElems(r, v)
	if !ok {
		return nil, false
	}
	d := ev.prog.Resolve(r, root)
	if d == nil || d.Type.Base != apt.TypeDerived || d.Type.Kind <= 0 || d.Param != nil {
		return nil, false
	}
	key := ev.key(root)
	if r != ev.frame().routine {
		k, ok := ev.staticKey(r, d, root)
		if !ok {
			return nil, false
		}
		key = k
	}
	addr, ok := ev.env.lookup(key)
	if !ok {
		return nil, false
	}
	obj, el, ok := ev.heapAt(addr, int64(d.Type.Kind))
	if !ok || !obj.elems {
		return nil, false
	}
	n, ok1 := imp.at(obj.n)
	k, ok2 := imp.at(el)
	ni, isInt1 := n.Int64()
	ki, isInt2 := k.Int64()
	if !ok1 || !ok2 || !isInt1 || !isInt2 || ki < 0 || ki > ni {
		imp.why = "the extent of " + root + "%" + path
		return nil, true
	}
	s := imp.array(obj.key+"%"+path, v, ni*per)
	if s == nil {
		return nil, true
	}
	return &concrete.Ref{S: s, Off: ki * per}, true
}

// fieldElems is the number of elements one structure holds of the field
// array v of an array of C structures, which the C frontend declares with
// the structures as its first dimension (blocks%cen(0:*, 0:2)), the
// field's own after it (row-major: the structures' index varies slowest):
// the product of those extents, constants.
func (imp *importer) fieldElems(r *apt.Routine, v *apt.Var) (int64, bool) {
	if len(v.Dims) == 0 {
		return 0, false
	}
	return imp.fixedElems(r, &apt.Var{Dims: v.Dims[1:]})
}

// fixedElems is the number of elements of the array v that routine r
// declares with constant bounds.
func (imp *importer) fixedElems(r *apt.Routine, v *apt.Var) (int64, bool) {
	n := int64(1)
	for _, d := range v.Dims {
		lo, hi := int64(1), int64(0)
		var ok bool
		if d.Lo != nil {
			if lo, ok = imp.ev.prog.IntConstant(r, d.Lo); !ok {
				return 0, false
			}
		}
		if hi, ok = imp.ev.prog.IntConstant(r, d.Hi); !ok {
			return 0, false
		}
		n *= max(hi-lo+1, 0)
	}
	return n, true
}

// shaped is the binding of an ALLOCATABLE array or an assumed-shape dummy
// (declared d, stored at key): its elements and the bounds the state holds
// for it (bounds), numbers at the rank.
func (imp *importer) shaped(key string, d *apt.Var, bounds func() []bound) *concrete.Ref {
	bs := bounds()
	if len(bs) != len(d.Dims) {
		imp.why = "the bounds of " + d.Name
		return nil
	}
	ref := &concrete.Ref{Lo: make([]int64, len(bs)), Ext: make([]int64, len(bs))}
	n := int64(1)
	for k, b := range bs {
		lo, ok1 := imp.at(b.lo)
		ext, ok2 := imp.at(b.ext)
		l, isInt1 := lo.Int64()
		e, isInt2 := ext.Int64()
		if !ok1 || !ok2 || !isInt1 || !isInt2 {
			imp.why = "the bounds of " + d.Name
			return nil
		}
		ref.Lo[k], ref.Ext[k] = l, max(e, 0)
		n *= max(e, 0)
	}
	if ref.S = imp.array(key, d, n); ref.S == nil {
		return nil
	}
	return ref
}

// whole is the reference to a store from its first element; nil for none.
func whole(s *concrete.Store) *concrete.Ref {
	if s == nil {
		return nil
	}
	return &concrete.Ref{S: s}
}

// staticKey is the storage key of a variable of static storage v that
// routine r names, as storageKey gives it in r's frames: a COMMON member
// by its block and place, any other by its declaration.
func (ev *evaluator) staticKey(r *apt.Routine, v *apt.Var, name string) (string, bool) {
	if v.InCommon {
		for _, c := range r.Scope.Commons {
			if c.Name == v.Common {
				if i := slices.Index(c.Vars, name); i >= 0 {
					k := "/" + c.Name + "/#" + strconv.Itoa(i)
					ev.noteStatic(k, v, true)
					return k, true
				}
			}
		}
		return "", false
	}
	if v.Dummy {
		return "", false
	}
	k := fmt.Sprintf("g%p.%s", v, name)
	if _, seen := ev.statics[k]; !seen {
		ev.noteStatic(k, v, ev.prog.Static(r, name))
	}
	return k, true
}

// concExport takes what the runs stored: each scalar's value rank by rank,
// each integer array's elements as a table, each real array unknown.
func (ev *evaluator) concExport(runs []*concRank, np int64) {
	var keys []string
	seen := map[string]bool{}
	for _, run := range runs {
		if run == nil {
			continue
		}
		for k, cs := range run.stores {
			if cs.s.Written && k != "" && !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		var first *concStore
		for _, run := range runs {
			if run == nil {
				continue
			}
			if cs := run.stores[k]; cs != nil {
				first = cs
				break
			}
		}
		if first.array {
			if first.s.Real {
				ev.clobber(k)
				continue
			}
			tab := &elemTable{}
			for _, run := range runs {
				if run == nil {
					// A rank the path does not hold on keeps what
					// the array held, at the rank: a join with the
					// arm it takes then keeps both (chooseTables).
					row, known := ev.rowAt(k, first, int64(len(tab.rows)), np)
					tab.rows = append(tab.rows, row)
					tab.known = append(tab.known, known)
					continue
				}
				cs := run.stores[k]
				if cs == nil {
					tab = nil
					break
				}
				tab.rows = append(tab.rows, cs.s.I)
				tab.known = append(tab.known, cs.s.Known)
			}
			if tab == nil {
				ev.clobber(k)
				continue
			}
			tab.share()
			ev.env.set(k, Value{arr: &arrayState{clobbered: true, tab: tab}})
			continue
		}
		groups := newRankGroups(np)
		known := true
		for r, run := range runs {
			if run == nil {
				continue
			}
			cs := run.stores[k]
			if cs == nil {
				// The rank's run never reached it (a counter no
				// trip of this rank's stepped): it keeps the value
				// it had, at the rank.
				imp := &importer{ev: ev, rank: int64(r), np: np}
				c, ok := imp.at(ev.env.get(k))
				if !ok {
					known = false
					break
				}
				groups.of(symbolic.Const(c)).ranks[r] = true
				continue
			}
			if !cs.s.Known[0] {
				known = false
				break
			}
			var e symbolic.Expr
			if cs.s.Real {
				e = symbolic.Const(symbolic.RatBig(new(big.Rat).SetFloat64(cs.s.F[0])))
			} else {
				e = symbolic.Int(cs.s.I[0])
			}
			groups.of(e).ranks[r] = true
		}
		alts, ok := groups.alts(ev)
		if !known || !ok {
			ev.env.set(k, unknownValue(first.decl.Name, "the value of "+first.decl.Name+" after a run of the set-up", first.s.Real))
			continue
		}
		ev.env.set(k, Value{Alts: alts})
	}
}

// leftUnknown reports whether the evaluation since base (a call) left
// an integer variable or array unknown that base knew or had not set: a
// value of the data the code after it would ask for. skip are keys of
// real data (untrackedArgs).
func (ev *evaluator) leftUnknown(base *env, skip map[string]bool) bool {
	found := false
	ev.env.changedKeys(base, func(k string) {
		if found || skip[k] {
			return
		}
		v, has := ev.env.lookup(k)
		if !has {
			return
		}
		if d := ev.declOfKey(k); d != nil && (!tracked(d.Type) || d.Type.Base == apt.TypeCharacter) {
			return // real data, text: not what counts rest on
		}
		was, had := base.lookup(k)
		switch {
		case v.arr != nil:
			found = v.arr.clobbered && v.arr.tab == nil && (!had || was.arr == nil || !was.arr.clobbered)
			// Or a store of values it does not know (a loop's range).
			for i := len(v.arr.stores) - 1; i >= 0 && !found; i-- {
				st := v.arr.stores[i]
				if had && was.arr != nil && slices.Contains(was.arr.stores, st) {
					break
				}
				found = !st.val.IsKnown() && st.val.str == nil
			}
		case v.unk != nil && !v.unk.real:
			found = !had || was.unk == nil
		}
	})
	return found
}

// concreteLoop evaluates the DO loop l (occurrence o) by running it, in
// the routine's frame, where a run of the symbolic evaluation would be
// too long (a pass over thousands of keys into buckets): at a point, with
// no loop evaluated symbolically around it, on every rank. It reports
// whether it did, the state as it found it where not.
func (ev *evaluator) concreteLoop(l *apt.Loop, o *Occ) (done bool) {
	np, ok := ev.values[Size]
	if !ok || np < 1 || np > maxConcreteRanks || ev.probing > 0 || ev.inert > 0 || o == nil ||
		len(ev.cur.vars) > 0 || ev.cur.dead || ev.err != nil || ev.concTrial > 0 {
		if debugRuns {
			fmt.Fprintf(os.Stderr, "concrete loop %s: not at a point (probing=%d inert=%d vars=%v conc=%d occ=%v dead=%v err=%v)\n", l.Span.Start(), ev.probing, ev.inert, ev.cur.vars, ev.concTrial, o != nil, ev.cur.dead, ev.err)
		}
		return false
	}
	if _, fixed := ev.values[Rank]; fixed {
		return false
	}
	if ev.running > 0 && !ev.readsTableData(l) && !ev.writesTableData(l) {
		// Inside a loop run trip by trip, a loop run on each trip
		// hands its arrays over each time: only for data no symbolic
		// evaluation follows (a table of keys).
		return false
	}
	// The ranks the path holds on (all of them, or those a test on the
	// rank selects: rank 0 drawing the keys it then broadcasts).
	ranks, ok := ev.pathRanks(np)
	if !ok || len(ranks) == 0 {
		return false
	}
	cs := ev.concState()
	r := ev.frame().routine
	snap := ev.snapshot(o)
	defer func() {
		if !done {
			snap.restore(ev, o)
		}
	}()
	runs := make([]*concRank, np)
	for _, rk := range ranks {
		imp := &importer{ev: ev, rank: rk, np: np, stores: map[string]*concStore{}}
		cs.m.Globals = func(rr *apt.Routine, name string, v *apt.Var) *concrete.Ref {
			if rr != r {
				return imp.global(rr, name, v)
			}
			return imp.frameVar(name, v)
		}
		if !cs.budget() {
			return false
		}
		cs.m.Pointee, cs.m.Address, cs.m.At = imp.reach, imp.address, imp.storageAt
		ctx, err := cs.m.RunIn(r, []apt.Node{l})
		cs.m.Globals, cs.m.Pointee, cs.m.Address, cs.m.At = nil, nil, nil, nil
		cs.spent += cs.m.Steps()
		if err != nil || imp.why != "" {
			if debugRuns {
				fmt.Fprintf(os.Stderr, "concrete loop %s: rank %d: %v %s\n", l.Span.Start(), rk, err, imp.why)
			}
			return false
		}
		if debugRuns {
			fmt.Fprintf(os.Stderr, "concrete loop %s: rank %d ran in %d steps\n", l.Span.Start(), rk, cs.m.Steps())
		}
		if !cs.affords(rk, np) {
			return false
		}
		runs[rk] = &concRank{ctx: ctx, stores: imp.stores}
	}
	ctxs := make([]*concrete.Context, np)
	iters := make([]int64, np)
	for i, run := range runs {
		if run != nil {
			ctxs[i] = run.ctx
			iters[i] = run.ctx.Iter[l]
		}
	}
	base := ev.cur.domain()
	o.Iters = ev.concDomains(base, iters)
	ev.concNodes(r, l.Body, o, ctxs, base, ev.loopDepth)
	for _, s := range ev.concSites(l, ctxs) {
		ev.concCallee(s, o, ctxs, base, ev.loopDepth)
	}
	if ev.err != nil {
		return false
	}
	ev.concExport(runs, np)
	// A pointer the loop points elsewhere (p = q) holds an address the
	// runs do not report.
	for _, k := range ev.modified(l.Body) {
		if strings.HasSuffix(k, addrSuffix) {
			if _, had := ev.env.lookup(k); had {
				ev.env.del(k)
			}
		}
	}
	return true
}

// frameVar is the store of a variable of the current frame (a local, a
// dummy, or what they share), for a loop run in it.
func (imp *importer) frameVar(name string, v *apt.Var) *concrete.Ref {
	ev := imp.ev
	if root, path, isField := strings.Cut(name, "%"); isField {
		if ref, ok := imp.heapField(ev.frame().routine, root, path, v); ok {
			return ref
		}
		if v.IsArray() {
			// A field of a global array of C structures.
			return imp.global(ev.frame().routine, name, v)
		}
		// A scalar component of one of the frame's structures.
		var e apt.Expr = &apt.Name{Name: root}
		for f := range strings.SplitSeq(path, "%") {
			e = &apt.Component{Base: e, Field: f}
		}
		key, ok := ev.refKey(e)
		if !ok {
			imp.why = "the storage of " + name
			return nil
		}
		return whole(imp.scalar(key, v))
	}
	if v.Pointer || v.Allocatable && !v.IsArray() || v.Type.Base == apt.TypeDerived {
		// (Text is read as unknown: the run stops where it sets it.)
		imp.why = "the pointer, allocatable scalar or derived-type variable " + name
		return nil
	}
	if ref, ok := imp.pointer(name, v); ok {
		return ref
	}
	key := ev.key(name)
	if v.IsArray() && needsShape(v.Dims) {
		return imp.shaped(key, v, func() []bound {
			bs, _ := ev.arrayBounds(name, v)
			return bs
		})
	}
	if _, sized := ev.arrayElems(name); v.IsArray() && !sized && ev.cPointers() && unsized(v.Dims) {
		// A C temporary holding an element's address (&a[k]): the run
		// may set it, not read through it.
		s := newStore("", 1, v)
		s.WriteOnly = true
		return whole(s)
	}
	if !v.IsArray() {
		return whole(imp.scalar(key, v))
	}
	return whole(imp.frameArray(key, name, v))
}

// frameArray is the store of the array name of the current frame (key,
// declaration d), of the size the evaluation knows for it at the rank.
func (imp *importer) frameArray(key, name string, d *apt.Var) *concrete.Store {
	n, ok := imp.ev.arrayElems(name)
	if !ok {
		imp.why = "the size of " + name
		return nil
	}
	c, ok := imp.at(Known(n))
	cn, isInt := c.Int64()
	if !ok || !isInt {
		imp.why = "the size of " + name
		return nil
	}
	return imp.array(key, d, cn)
}

// untrackedArgs are the keys of the actual arguments of a call that the
// caller declares of a type the evaluation does not follow (real data):
// the call leaving them unknown is no reason to run it.
func (ev *evaluator) untrackedArgs(args []apt.Expr) map[string]bool {
	skip := map[string]bool{}
	for _, a := range args {
		if kw, ok := a.(*apt.Keyword); ok {
			a = kw.Value
		}
		var name string
		switch x := a.(type) {
		case *apt.Name:
			name = x.Name
		case *apt.Index:
			name = x.Name
		default:
			continue
		}
		if d := ev.prog.Resolve(ev.frame().routine, name); d != nil && !tracked(d.Type) {
			skip[ev.key(name)] = true
		}
	}
	return skip
}
