package symeval

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// procNull is MPI_PROC_NULL as the frontend's mpif.h and module mpi define
// it (Open MPI's value); a transfer to it moves nothing.
const procNull = -2

// comm evaluates an MPI call: the size and rank define P and rank, transfers
// get their sizes and peers, received buffers become unknown.
func (ev *evaluator) comm(c *apt.Comm, parent *Occ) {
	o := ev.newOcc(c, parent)
	pos := c.Span.Start()
	switch c.Op {
	case apt.MPICommSize:
		ev.res.Parallel = true
		ev.assignOut(c.Result, ev.communicator(c.Comm).size)
		return
	case apt.MPICommRank:
		ev.res.Parallel = true
		ev.assignOut(c.Result, ev.communicator(c.Comm).rank)
		return
	case apt.MPIAbort:
		ev.stop(pos, true)
		return
	case apt.MPIInit:
		// MPI_INIT_THREAD (required, provided[, ierror]), C's after
		// argc and argv: Open MPI provides the level asked for.
		at := 0
		if ev.prog.FromIR {
			at = 2
		}
		if len(c.Args) >= at+2 {
			ev.assignOut(c.Args[at+1], ev.value(c.Args[at]))
		}
		if !ev.prog.FromIR && len(c.Args) == 1 {
			ev.mpiSuccess(c.Args[0], nil) // MPI_INIT(ierror)
		}
	case apt.MPIProbe, apt.MPIIprobe:
		ev.probe(c, pos)
		return
	}
	if c.Op.Completes() {
		ev.matchPending() // the receives it completes have their values
		ev.complete(c, pos)
	}
	p2p := !c.Op.IsCollective()
	if c.Send != nil && sends(c.Op) {
		o.Sends = ev.transfers(c.Send, p2p, pos, c.Comm, c.Op)
	}
	if c.Recv != nil {
		o.Recvs = ev.transfers(c.Recv, p2p, pos, c.Comm, c.Op)
	}
	if p2p {
		ev.notePeers(o, c)
	}
	// A gatherv's receive, a scatterv's send: a count per process, the
	// root's alone. The block of the calling process there is what its
	// own other side gives, as MPI's matching rule requires (recvcounts(i)
	// at the root carries what process i sends).
	switch vSide, _ := c.RootedBlock(); {
	case vSide == nil:
	case vSide == c.Recv:
		o.Recvs = slices.Clone(o.Sends)
	default:
		o.Sends = slices.Clone(o.Recvs)
	}
	// An allreduce of a value every process knows: its reduction
	// (reduce.go), taken before the receive makes the buffer unknown.
	var reduced Value
	reducedOK := false
	if (c.Op == apt.MPIScan || c.Op == apt.MPIExscan) && c.Send != nil && c.Recv != nil {
		if _, scalar := ev.bufferKey(c.Recv.Buffer); scalar {
			reduced, reducedOK = ev.scanOf(c, ev.value(c.Send.Buffer), ev.value(c.Recv.Buffer), c.Op == apt.MPIExscan)
		}
	}
	if c.Op == apt.MPIAllreduce && c.Send != nil && c.Recv != nil {
		if _, scalar := ev.bufferKey(c.Recv.Buffer); scalar {
			src := c.Send.Buffer
			if nm, ok := src.(*apt.Name); ok && nm.Name == "mpi_in_place" {
				src = c.Recv.Buffer
			}
			if _, sendScalar := ev.bufferKey(src); sendScalar {
				reduced, reducedOK = ev.reductionOf(c, ev.value(src))
			}
		}
	}
	if p2p && c.Send != nil && sends(c.Op) {
		ev.keepSend(c)
	}
	gathered := false // a collective whose values collected gave
	// The receive buffer before the call: a gather or a reduction to a
	// root leaves the other ranks' as it was (tablecomm.go).
	var before Value
	if c.Recv != nil && (c.Op == apt.MPIGather || c.Op == apt.MPIReduce) {
		if k, _ := ev.bufferKey(c.Recv.Buffer); k != "" {
			before, _ = ev.env.lookup(k)
		}
	}
	if c.Recv != nil {
		// What a message brings where the evaluation knows the sender's
		// value (p2p.go, scatter.go); otherwise the buffer is unknown.
		var vs []Value
		ok, posted := false, false
		switch {
		case c.Op == apt.MPIIrecv:
			posted = ev.postRecv(c, pos)
		case p2p:
			ev.matchPending() // posted before it, they match first
		}
		if p2p && !posted {
			vs, ok = ev.receiveSent(c)
		}
		switch {
		case posted:
		case ok && len(vs) == 1:
			ev.assignReceived(c.Recv.Buffer, vs[0])
		case ok:
			ok = ev.receiveElements(c.Recv.Buffer, vs)
			if !ok {
				ev.received(c.Recv.Buffer, pos)
			}
		case !p2p && ev.collected(c, pos):
			gathered = true
		default:
			ev.received(c.Recv.Buffer, pos)
		}
		for _, x := range ev.commonSpan(c.Recv) {
			ev.received(x, pos)
		}
	}
	if reducedOK {
		if key, _ := ev.bufferKey(c.Recv.Buffer); key != "" {
			ev.assignKey(key, reduced)
		}
	} else if c.Op == apt.MPIAllreduce || c.Op == apt.MPIAlltoall || c.Op == apt.MPIAlltoallv || !gathered && (c.Op == apt.MPIAllgather || c.Op == apt.MPIScatter || c.Op == apt.MPIGather || c.Op == apt.MPIReduce) {
		// Arrays of numbers every rank knows (tablecomm.go).
		ev.arrayCollective(c, before)
	}
	if c.Op == apt.MPIBcast && c.Send != nil {
		ev.broadcast(c, c.Send.Buffer, pos)
		for _, x := range ev.commonSpan(c.Send) {
			ev.broadcast(c, x, pos)
		}
	}
	if c.Op.IsCollective() {
		ev.colls++
	}
	ev.activate(c)
}

// A buffer is what its storage holds, not what its dummy declares: a scalar
// passed to an array dummy (sequence association, bcast_int(n, 1, ...)
// calling MPI_BCAST(value, size, ...) with value(size)) is a one-element
// buffer whose element is the scalar. bufferKey returns the storage key of
// a buffer, and whether a scalar is stored there (or, never assigned, the
// variable stored there is declared one).
func (ev *evaluator) bufferKey(b apt.Expr) (key string, scalar bool) {
	switch x := b.(type) {
	case *apt.Name:
		if ev.cPointers() && ev.isPointerVar(x) {
			// A C pointer (v.data(), p + k): the elements it points to,
			// never the pointer itself.
			if k, _, ok := ev.derefArray(pointedElement(x)); ok {
				return k, false
			}
			k, ok := ev.refKey(x)
			if !ok {
				return "", false
			}
			return k, false
		}
		k, ok := ev.refKey(x)
		if !ok {
			return "", false
		}
		if v, had := ev.env.lookup(k); had {
			return k, v.arr == nil && v.Fields == nil
		}
		d := ev.declOfKey(k)
		if d == nil {
			d = ev.prog.Resolve(ev.frame().routine, x.Name)
		}
		return k, d == nil || !d.IsArray()
	case *apt.Index:
		k, _ := ev.arrayKey(x)
		return k, false
	}
	return "", false
}

// declOfKey returns the declaration of the variable a storage key holds
// where the call stack shows it: a local of a routine on the stack, or a
// member of a COMMON block the current routine declares.
func (ev *evaluator) declOfKey(key string) *apt.Var {
	d, _ := ev.ownerOfKey(key)
	return d
}

// received makes what a receive (or the result of a reduction) writes
// unknown: the scalar at the buffer's storage, or the array's elements.
func (ev *evaluator) received(b apt.Expr, pos apt.Pos) {
	if nm, ok := b.(*apt.Name); ok && ev.cPointers() && ev.isPointerVar(nm) {
		if _, _, ok := ev.derefArray(pointedElement(nm)); !ok {
			// A C pointer whose target the evaluation cannot name (&v[p]
			// in a loop walked symbolically): what it may point to is
			// unknown, never the value from before the receive.
			ev.clobberPointees(nm)
			return
		}
	}
	key, scalar := ev.bufferKey(b)
	switch {
	case key == "":
	case scalar:
		name := ev.bufferName(b, key)
		ev.assignKey(key, unknownValue(name, "the value of "+name+" received at "+pos.String(), true))
	default:
		ev.clobber(key)
	}
}

// broadcast gives every rank the root's value of the buffer: unchanged
// when the value does not depend on the rank, the value at the root's rank
// when it does and the root is known.
func (ev *evaluator) broadcast(c *apt.Comm, b apt.Expr, pos apt.Pos) {
	root := c.Root
	key, scalar := ev.bufferKey(b)
	if key == "" {
		return
	}
	first := b == c.Send.Buffer // the buffer a matching call's is matched with
	outside := ev.rootOutside(root)
	if outside && first {
		// The root runs another path (its read and its broadcast on one,
		// the others' broadcast on another): the value is what the root
		// sent by the matching call there, where the evaluation met it.
		if v, ok := ev.rootBcastAt(c); ok && (v.arr == nil) == scalar {
			if scalar {
				ev.assignKey(key, v)
			} else {
				ev.env.set(key, v)
			}
			return
		}
	}
	if scalar && apt.TypeOf(b).Base == apt.TypeDerived {
		// A structure sent whole (MPI_Bcast(&p, sizeof p, MPI_BYTE, ...)
		// of C's struct of settings): its components are kept at their
		// own keys (assignKey), each the root's.
		ev.broadcastParts(key, ev.bufferName(b, key), root, outside, pos)
		return
	}
	if scalar {
		var v Value
		if nm, ok := b.(*apt.Name); ok {
			ev.bufferLoad++
			v = ev.load(nm.Name) // an initialiser, on first use
			ev.bufferLoad--
		}
		if outside {
			// What this path holds is not what the root sends.
			name := ev.bufferName(b, key)
			real := apt.TypeOf(b).Base != apt.TypeInteger
			ev.assignKey(key, unknownValue(name, "the value of "+name+" broadcast at "+pos.String(), real))
			return
		}
		if at, ok := ev.rootsValue(v, root); ok {
			if !rankFree(v) {
				ev.assignKey(key, at)
			}
			if first {
				ev.keepRootBcast(c, at)
			}
			return
		}
		name := ev.bufferName(b, key)
		ev.assignKey(key, unknownValue(name, "the value of "+name+" broadcast at "+pos.String(), true))
		return
	}
	if v, ok := ev.env.lookup(key); ok && v.arr != nil {
		if st, ok := ev.arrayAtRoot(v.arr, root); ok && !outside {
			ev.env.set(key, Value{arr: st})
			if first {
				ev.keepRootBcast(c, Value{arr: st})
			}
		} else {
			ev.clobber(key)
		}
	}
}

// broadcastParts gives every rank the root's value of each component of
// the structure at key the run has stored (a component is kept at
// key%field, nested ones further): one that does not depend on the rank
// as it is, one that does at the root's rank, one the evaluation cannot
// place (or any, on a path the root does not run) unknown.
func (ev *evaluator) broadcastParts(key, name string, root apt.Expr, outside bool, pos apt.Pos) {
	for _, k := range ev.env.withPrefix(key + "%") {
		what := name + strings.TrimPrefix(k, key)
		v := ev.env.get(k)
		unknown := func() Value {
			return unknownValue(what, "the value of "+what+" broadcast at "+pos.String(), true)
		}
		switch {
		case v.arr != nil:
			if st, ok := ev.arrayAtRoot(v.arr, root); ok && !outside {
				ev.env.set(k, Value{arr: st})
			} else {
				ev.clobber(k)
			}
		case outside:
			ev.assignKey(k, unknown())
		case rankFree(v):
		default:
			at, ok := ev.rootsValue(v, root)
			if !ok {
				at = unknown()
			}
			ev.assignKey(k, at)
		}
	}
}

// rankFree reports whether v is the same on every rank: known without the
// rank in it, or a text.
func rankFree(v Value) bool {
	return v.IsKnown() && !mentions(v, []string{Rank}) || v.str != nil
}

// rootsValue is v as the root holds it: v where it is the same on every
// rank, its value at the root's rank where that is decided (a number, or a
// text chosen by conditions on the rank); false otherwise.
func (ev *evaluator) rootsValue(v Value, root apt.Expr) (Value, bool) {
	if rankFree(v) {
		return v, true
	}
	at, ok := ev.atRoot(v, root)
	if !ok && v.unk != nil && len(v.unk.texts) > 0 {
		at, ok = ev.textAtRoot(v.unk.texts, root)
	}
	return at, ok
}

// rootOutside reports whether the current path's conditions exclude the
// root's rank: the root does not run this path.
func (ev *evaluator) rootOutside(root apt.Expr) bool {
	if len(ev.cur.conds) == 0 {
		return false
	}
	t, decided := ev.decideAtRoot(and(ev.cur.conds...), root)
	return decided && !t
}

// bufferName names the variable stored at a buffer's key: the actual's
// name where the buffer is a dummy bound to a COMMON member.
func (ev *evaluator) bufferName(b apt.Expr, key string) string {
	if n := ev.nameOfKey(key); n != "" && !isDigits(n) {
		return n
	}
	if nm, ok := b.(*apt.Name); ok {
		return nm.Name
	}
	return apt.FormatExpr(b)
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func sends(op apt.CommOp) bool {
	switch op {
	case apt.MPIRecv, apt.MPIIrecv:
		return false
	}
	return true
}

// notePeers marks the messages of a point-to-point call whose peer the
// evaluation does not know (a rank read at run time) as approximate: they
// are counted as going to a process, and none would were the peer
// MPI_PROC_NULL.
func (ev *evaluator) notePeers(o *Occ, c *apt.Comm) {
	if o.Inexact {
		return // approximate already, for the reason it gives
	}
	for _, ts := range [][]Transfer{o.Sends, o.Recvs} {
		for _, t := range ts {
			if t.Bytes == nil {
				return // (the message size is unknown: the model says so)
			}
		}
	}
	for _, side := range []struct {
		m  *apt.Msg
		ts []Transfer
	}{{c.Send, o.Sends}, {c.Recv, o.Recvs}} {
		if side.m == nil || side.m.Peer == nil {
			continue
		}
		for _, t := range side.ts {
			if t.Peer == nil || ev.unsetSymbols(*t.Peer) {
				o.Inexact, o.Note = true, "the peer "+ev.src(side.m.Peer)+" is not known statically: its messages are counted as sent to a process (none would be, were it MPI_PROC_NULL)"
				return
			}
		}
	}
}

// unsetSymbols reports whether e rests on a value the run reads that was
// not given (a scanf without -stdin, an argument not in -args).
func (ev *evaluator) unsetSymbols(e symbolic.Expr) bool {
	for _, sym := range e.Symbols() {
		if sym == Rank || sym == Size {
			continue
		}
		p := ev.params[sym]
		if p == nil {
			continue // a loop's index, a probe's symbol
		}
		// (Only values the run reads: one the evaluation could not
		// derive is often a rank the program tests before it sends,
		// if (south >= 0), which the count already takes into account.)
		switch p.Origin {
		case FromRead, FromArguments, FromCommandLine:
			if p.Value == nil {
				return true
			}
		}
	}
	return false
}

// transfers expands one side of a call over the alternatives of its count and
// peer, dropping those to MPI_PROC_NULL. The receive side of an allgatherv
// has a count per process: its transfer is the calling process's own
// block, the element at its rank in comm, as an allgather's is the one
// count every process gives (gatherv's and scatterv's counts are the
// root's alone: their size stays unknown). An alltoallv's block is the
// mean of its counts, as an alltoall's is its one count per process.
func (ev *evaluator) transfers(m *apt.Msg, p2p bool, pos apt.Pos, comm apt.Expr, op apt.CommOp) []Transfer {
	counts := ev.sides(m.Count, pos)
	if m.Displs != nil {
		counts = []side{{}}
		switch op {
		case apt.MPIAllgatherv:
			counts = ev.ownBlock(m.Count, comm, pos)
		case apt.MPIAlltoallv:
			counts = ev.meanBlock(m.Count, comm)
		}
	}
	size := ev.typeSize(m)
	peers := []side{{}}
	if p2p && m.Peer != nil {
		peers = ev.sides(m.Peer, pos)
	}
	var out []Transfer
	for _, ca := range counts {
		for _, pa := range peers {
			if pa.e != nil {
				if n, ok := pa.e.Int64(); ok && n == procNull {
					continue
				}
			}
			t := Transfer{Guard: and(ca.guard, pa.guard), Peer: pa.e}
			if ca.e != nil && ca.e.IsZero() {
				// No elements (MPI_IN_PLACE's send side, an empty
				// block): no bytes, whatever the type.
				zero := symbolic.Int(0)
				t.Bytes = &zero
				out = append(out, t)
				continue
			}
			if ca.e == nil || len(size.Alts) == 0 {
				out = append(out, t)
				continue
			}
			// A derived type's size may differ by rank (a column of
			// the rows a rank owns): one transfer per alternative.
			for _, sa := range size.Alts {
				ts := t
				ts.Guard = and(t.Guard, sa.Guard)
				b := ca.e.Mul(sa.E)
				ts.Bytes = &b
				out = append(out, ts)
			}
		}
	}
	return out
}

// ownBlock is the element of a counts array (a v-variant's recvcounts or
// sendcounts) at the calling process's rank in comm.
func (ev *evaluator) ownBlock(counts, comm apt.Expr, pos apt.Pos) []side {
	first, ok := ev.element(counts, 0)
	if !ok {
		return []side{{}}
	}
	key, off, ok := ev.arrayRef(first)
	if !ok || key == "" {
		return []side{{}}
	}
	at, ok := ev.lift2(off, ev.communicator(comm).rank, func(x, y symbolic.Expr) (symbolic.Expr, bool) { return x.Add(y), true })
	if !ok {
		return []side{{}}
	}
	v := ev.loadAt(key, at, true, ev.declOf(first), first, first.Name, first.Type)
	if !v.IsKnown() {
		return []side{{}}
	}
	return ev.sidesOf(ev.closedInt(v, pos))
}

// side is one alternative of a count or peer; e is nil when unknown.
type side struct {
	guard counting.Formula
	e     *symbolic.Expr
}

func (ev *evaluator) sides(x apt.Expr, pos apt.Pos) []side {
	if x == nil {
		return []side{{}}
	}
	return ev.sidesOf(ev.closedInt(ev.value(x), pos))
}

func (ev *evaluator) sidesOf(v Value) []side {
	if !v.IsKnown() {
		return []side{{}}
	}
	out := make([]side, len(v.Alts))
	for i, a := range v.Alts {
		e := a.E
		out[i] = side{guard: a.Guard, e: &e}
	}
	return out
}

// atRoot returns v as the root process holds it: its alternatives with the
// rank replaced by the root's. Guards that become constants are decided, so
// that a value rank 0 read and the others never assigned is the value read.
func (ev *evaluator) atRoot(v Value, root apt.Expr) (Value, bool) {
	if !v.IsKnown() || root == nil {
		return Value{}, false
	}
	rv, ok := ev.value(root).Single()
	if !ok || rv.Has(Rank) {
		return Value{}, false
	}
	sub := map[string]symbolic.Expr{Rank: rv}
	var out []Alt
	for _, a := range v.Alts {
		e, err := a.E.Subst(sub)
		if err != nil {
			return Value{}, false
		}
		g, err := substFormula(a.Guard, sub)
		if err != nil {
			return Value{}, false
		}
		if isFalse(g) {
			continue
		}
		if isTrue(g) {
			g = nil
		}
		out = append(out, Alt{Guard: g, E: e})
	}
	if len(out) == 0 {
		return Value{}, false
	}
	return Value{Alts: mergeAlts(out)}, true
}

// communicator is what the evaluation knows of an MPI communicator: its
// size and the calling process's rank in it.
type communicator struct {
	size, rank Value
	// cart is the grid of a communicator MPI_CART_CREATE made (cart.go).
	cart *cartesian
	// notNull is set where the calling process is known to belong to the
	// communicator: it is then no MPI_COMM_NULL (commRelation).
	notNull bool
}

// commRelation decides a comparison of a communicator with a handle the
// program names by its value (comm == MPI_COMM_NULL): a communicator the
// calling process belongs to is none of the predefined handles' values
// but its own. false where it cannot tell.
func commRelation(a, b Value, op apt.Op) (counting.Formula, bool) {
	if op != apt.OpEq && op != apt.OpNe {
		return nil, false
	}
	if a.comm == nil {
		a, b = b, a
	}
	if a.comm == nil || !a.comm.notNull || b.comm != nil {
		return nil, false
	}
	if _, ok := b.Single(); !ok {
		return nil, false
	}
	return truth(op == apt.OpNe), true
}

// world is MPI_COMM_WORLD: P processes, the caller being rank; their values
// at the point when the evaluation has them.
func (ev *evaluator) world() *communicator {
	size, rank := symbolic.Sym(Size), symbolic.Sym(Rank)
	if v, ok := ev.values[Size]; ok {
		size = symbolic.Int(v)
	}
	if v, ok := ev.values[Rank]; ok {
		rank = symbolic.Int(v)
	}
	return &communicator{size: Known(size), rank: Known(rank), notNull: true}
}

// communicator returns what a communicator argument stands for: the world
// (also when absent), MPI_COMM_SELF, or one the program made with
// MPI_COMM_DUP or MPI_COMM_SPLIT. Any other communicator's size and rank are
// unknown.
func (ev *evaluator) communicator(e apt.Expr) *communicator {
	if e == nil {
		return ev.world()
	}
	v := ev.value(e)
	if v.comm != nil {
		return v.comm
	}
	if c, ok := v.Single(); ok {
		if n, ok := c.Int64(); ok {
			switch n {
			case mpiCommWorld:
				return ev.world()
			case mpiCommSelf:
				return &communicator{size: Known(symbolic.Int(1)), rank: Known(symbolic.Int(0)), notNull: true}
			}
		}
	}
	key, what := apt.FormatExpr(e), ev.src(e)
	return &communicator{
		size: unknownValue("size_"+key, "the size of the communicator "+what, false),
		rank: unknownValue("rank_"+key, "the rank in the communicator "+what, false),
	}
}

// The handles of the frontend's mpif.h (Open MPI's values).
const (
	mpiCommWorld = 0
	mpiCommSelf  = 1
)

// mpiRoutine evaluates the MPI routines that reach the evaluation as plain
// calls because they move no data: MPI_COMM_DUP and MPI_COMM_SPLIT make
// communicators whose sizes and ranks later MPI_COMM_SIZE and MPI_COMM_RANK
// calls read. It reports whether c was one.
func (ev *evaluator) mpiRoutine(c *apt.Call) bool {
	arg := func(i int) apt.Expr {
		if i < len(c.Args) {
			if kw, ok := c.Args[i].(*apt.Keyword); ok {
				return kw.Value
			}
			return c.Args[i]
		}
		return nil
	}
	if ev.cartRoutine(c, arg) || ev.packRoutine(c, arg) {
		return true
	}
	var made *communicator
	var out apt.Expr
	if o, ok := ev.typeRoutine(c, arg); ok {
		ev.mpiSuccess(arg(len(c.Args)-1), o)
		return true
	}
	switch c.Callee {
	case "mpi_request_free":
		// The request is MPI_REQUEST_NULL after it (the operation goes on).
		if r := arg(0); r != nil {
			ev.assign(ev.oneRequest(r), requestNull())
		}
		ev.mpiSuccess(arg(len(c.Args)-1), arg(0))
		return true
	case "mpi_get_count", "mpi_get_elements":
		ev.getCount(arg(0), arg(1), arg(2))
		ev.mpiSuccess(arg(len(c.Args)-1), arg(2))
		return true
	case "mpi_comm_dup":
		made, out = ev.communicator(arg(0)), arg(1)
	case "mpi_comm_split":
		made, out = ev.split(ev.communicator(arg(0)), arg(1), arg(2)), arg(3)
	default:
		return false
	}
	if out != nil {
		ev.assign(out, Value{comm: made})
	}
	ev.mpiSuccess(arg(len(c.Args)-1), out)
	return true
}

// mpiSuccess sets the error code a Fortran MPI call returns in its last
// argument, when passed: MPI_SUCCESS. C's bindings return it instead: their
// last argument is an output (MPI_Get_count's count).
func (ev *evaluator) mpiSuccess(last, out apt.Expr) {
	if ev.prog.FromIR {
		return
	}
	if last != nil && last != out {
		if nm, ok := last.(*apt.Name); ok {
			ev.store(nm.Name, Known(symbolic.Int(0)))
		}
	}
}

// split returns the communicator MPI_COMM_SPLIT(parent, color, key) gives
// the calling process: the processes of parent with its color, ordered by
// (key, rank in parent). It is derived where the parent's size is a number
// (an evaluation at a point) and color and key are closed forms of the rank:
// the sizes are counted process by process, and the new rank is the closed
// form among rank, mod(rank, k) and rank/k (k a group size or count) that
// equals the ordering at every process. Otherwise size and rank are
// unknown values.
func (ev *evaluator) split(parent *communicator, colorArg, keyArg apt.Expr) *communicator {
	unknownComm := func() *communicator {
		return &communicator{
			size: unknownValue("size_split", "the size of a communicator made by MPI_COMM_SPLIT", false),
			rank: unknownValue("rank_split", "the rank in a communicator made by MPI_COMM_SPLIT", false),
		}
	}
	ps, ok := parent.size.Single()
	if !ok {
		return unknownComm()
	}
	np, ok := ps.Int64()
	if !ok || np < 1 || np > maxSplitProcs {
		return unknownComm()
	}
	prank, ok := parent.rank.Single()
	if !ok || !(symbolic.Equal(prank, symbolic.Sym(Rank)) || isConst(prank)) {
		return unknownComm()
	}
	color, key := ev.value(colorArg), ev.value(keyArg)
	colors, ok1 := tabulate(color, np)
	keys, ok2 := tabulate(key, np)
	if !ok1 || !ok2 {
		return unknownComm()
	}
	type member struct{ key, r int64 }
	groups := map[int64][]member{}
	for r := int64(0); r < np; r++ {
		if colors[r] == mpiUndefined {
			continue
		}
		groups[colors[r]] = append(groups[colors[r]], member{keys[r], r})
	}
	newRank := make([]int64, np)
	sizeOf := make([]int64, np)
	for _, g := range groups {
		slices.SortFunc(g, func(a, b member) int {
			if a.key != b.key {
				return cmp.Compare(a.key, b.key)
			}
			return cmp.Compare(a.r, b.r)
		})
		for i, m := range g {
			newRank[m.r], sizeOf[m.r] = int64(i), int64(len(g))
		}
	}
	if c, isc := prank.Int64(); isc {
		// One process: its figures are numbers.
		if c < 0 || c >= np || colors[c] == mpiUndefined {
			return unknownComm()
		}
		return &communicator{size: Known(symbolic.Int(sizeOf[c])), rank: Known(symbolic.Int(newRank[c])), notNull: true}
	}
	if slices.Contains(colors, mpiUndefined) {
		return unknownComm()
	}
	out := &communicator{notNull: true} // every process has a color
	// The size: one number, or one per color.
	if same(sizeOf) {
		out.size = Known(symbolic.Int(sizeOf[0]))
	} else if len(groups) <= maxAlts {
		var alts []Alt
		for c, g := range groups {
			f, ok := relation(color, Known(symbolic.Int(c)), apt.OpEq)
			if !ok {
				return unknownComm()
			}
			alts = append(alts, Alt{Guard: f, E: symbolic.Int(int64(len(g)))})
		}
		slices.SortFunc(alts, func(a, b Alt) int { return cmp.Compare(a.Guard.String(), b.Guard.String()) })
		out.size = Value{Alts: mergeAlts(alts)}
	} else {
		return unknownComm()
	}
	// The rank: a closed form checked at every process.
	r := symbolic.Sym(Rank)
	cands := []symbolic.Expr{r}
	for _, k := range []int64{int64(len(groups)), sizeOf[0]} {
		if k > 1 {
			cands = append(cands, symbolic.Mod(r, symbolic.Int(k)), symbolic.IDiv(r, symbolic.Int(k)))
		}
	}
	for _, cand := range cands {
		f, err := cand.Compile([]string{Rank})
		if err != nil {
			continue
		}
		ok := true
		for p := int64(0); p < np && ok; p++ {
			v, err := f.EvalInt([]int64{p})
			n, isInt := v.Int64()
			ok = err == nil && isInt && n == newRank[p]
		}
		if ok {
			out.rank = Known(cand)
			return out
		}
	}
	out.rank = unknownValue("rank_split", "the rank in a communicator made by MPI_COMM_SPLIT", false)
	return out
}

// maxSplitProcs bounds the processes split tabulates.
const maxSplitProcs = 1 << 16

// mpiUndefined is MPI_UNDEFINED in the frontend's mpif.h.
const mpiUndefined = -32766

func same(xs []int64) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}

// tabulate evaluates a value of the rank at every rank 0..np-1; ok is false
// when it is unknown or depends on anything else.
func tabulate(v Value, np int64) ([]int64, bool) {
	if !v.IsKnown() {
		return nil, false
	}
	out := make([]int64, np)
	for r := int64(0); r < np; r++ {
		sub := map[string]symbolic.Expr{Rank: symbolic.Int(r)}
		found := false
		for _, a := range v.Alts {
			g, err := substFormula(a.Guard, sub)
			if err != nil {
				return nil, false
			}
			t, dec := decide(g)
			if !dec {
				return nil, false
			}
			if !t {
				continue
			}
			e, err := a.E.Subst(sub)
			if err != nil {
				return nil, false
			}
			n, ok := e.Int64()
			if !ok {
				return nil, false
			}
			out[r], found = n, true
			break
		}
		if !found {
			return nil, false
		}
	}
	return out, true
}

func isConst(e symbolic.Expr) bool {
	_, ok := e.Int64()
	return ok
}

// typeSize returns the size in bytes of a message's datatype: a predefined
// one named in the call or held in a variable (dp_type =
// MPI_DOUBLE_PRECISION), or a derived one the program made (datatype.go);
// unknown otherwise.
func (ev *evaluator) typeSize(m *apt.Msg) Value {
	if m.TypeSize > 0 {
		return Known(symbolic.Int(int64(m.TypeSize)))
	}
	return ev.typeBytes(m.Datatype)
}

// arrayAtRoot is atRoot for an array's state, store by store: a store
// that does not depend on the rank is every rank's, one that does is the
// root's (its offsets, guard and value at the root's rank). Where that
// cannot be had (the root is not known, or the value is not), the store
// becomes one of an unknown value at the same offsets, so that an element
// only the root knows costs that element and not the array; only a store
// whose offsets depend on the rank, the root unknown, fails.
func (ev *evaluator) arrayAtRoot(st *arrayState, root apt.Expr) (*arrayState, bool) {
	rankFree := func(s *arrayStore) bool {
		return !s.off.Has(Rank) && (s.upTo == nil || !s.upTo.Has(Rank)) && !formulaMentions(s.guard, Rank) && !mentions(s.val, []string{Rank})
	}
	var sub map[string]symbolic.Expr
	if root != nil {
		if rv, ok := ev.value(root).Single(); ok && !rv.Has(Rank) {
			sub = map[string]symbolic.Expr{Rank: rv}
		}
	}
	tab := st.tab
	if tab != nil && len(tab.rows) > 1 {
		// A table of a row per rank: every rank receives the root's.
		tab = nil
		if sub != nil {
			if r, ok := sub[Rank].Int64(); ok {
				if row, known := st.tab.row(r); row != nil {
					tab = &elemTable{rows: [][]int64{row}, known: [][]bool{known}}
				}
			}
		}
		// (Without the root's row, the elements are unknown.)
		st = &arrayState{clobbered: true, base: st.base, stores: st.stores, sums: st.sums, tab: tab}
	}
	if !slices.ContainsFunc(st.stores, func(s *arrayStore) bool { return !rankFree(s) }) {
		return st, true
	}
	out := &arrayState{clobbered: st.clobbered, base: st.base, tab: st.tab}
	for _, s := range st.stores {
		if rankFree(s) {
			out.stores = append(out.stores, s)
			continue
		}
		if sub != nil {
			at, keep, ok := ev.storeAtRoot(s, sub, root)
			if ok {
				if keep {
					out.stores = append(out.stores, at)
				}
				continue
			}
		}
		if s.off.Has(Rank) || s.upTo != nil && s.upTo.Has(Rank) {
			return nil, false
		}
		// Whether the root made the store is not known either: the
		// elements it may have reached are unknown.
		g := s.guard
		if formulaMentions(g, Rank) {
			g = nil
		}
		out.stores = append(out.stores, &arrayStore{off: s.off, upTo: s.upTo, guard: g})
	}
	return out, true
}

// storeAtRoot is one store as the root (rank sub[Rank]) made it; keep is
// false where its guard is false there.
func (ev *evaluator) storeAtRoot(s *arrayStore, sub map[string]symbolic.Expr, root apt.Expr) (at *arrayStore, keep, ok bool) {
	off, err := s.off.Subst(sub)
	if err != nil {
		return nil, false, false
	}
	var upTo *symbolic.Expr
	if s.upTo != nil {
		u, err := s.upTo.Subst(sub)
		if err != nil {
			return nil, false, false
		}
		upTo = &u
	}
	g, err := substFormula(s.guard, sub)
	if err != nil {
		return nil, false, false
	}
	if isFalse(g) {
		return nil, false, true
	}
	if isTrue(g) {
		g = nil
	}
	val := s.val // an unknown value stays unknown, the root's
	if mentions(val, []string{Rank}) {
		if val, ok = ev.atRoot(s.val, root); !ok {
			return nil, false, false
		}
	}
	return &arrayStore{off: off, upTo: upTo, guard: g, val: val}, true, true
}
