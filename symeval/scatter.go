package symeval

import (
	"strconv"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Values through the collectives that move one element per process: a
// scatter gives each rank the root's element at its rank's offset, an
// allgather (and a gather, at its root) gives every rank each rank's value
// at that rank's offset, an alltoall gives rank r rank p's element r at
// offset p, and a reduce gives the root the reduction (reduce.go) while
// the others keep what their buffer held.

// collected carries the values of a scatter, allgather or reduce of one
// element per process into the receive buffer; it reports whether it did
// (the buffer is then assigned, not made unknown).
func (ev *evaluator) collected(c *apt.Comm, pos apt.Pos) bool {
	if c.Send == nil || c.Recv == nil {
		return false
	}
	switch c.Op {
	case apt.MPIScatter:
		return ev.scattered(c)
	case apt.MPIAllgather:
		return ev.allgathered(c)
	case apt.MPIReduce:
		return ev.reducedAtRoot(c, pos)
	case apt.MPIAlltoall:
		return ev.alltoalled(c)
	case apt.MPIGather:
		// The root's buffer gets each rank's value at that rank's
		// offset, as an allgather's does; the others' is undefined
		// (MPI 3.1 §5.5) where the program never assigned it, and
		// takes the same values (reading it would be an error).
		if !ev.neverAssigned(c.Recv.Buffer) {
			return false
		}
		return ev.allgathered(c)
	}
	return false
}

// everyRankOne is P where a collective moving one element each way over
// MPI_COMM_WORLD's ranks is evaluated for every rank at once, at a point
// of at most limit processes (not run rank by rank: one rank's buffer is
// not every rank's).
func (ev *evaluator) everyRankOne(c *apt.Comm, limit int64) (int64, bool) {
	np, ok := ev.values[Size]
	if !ok || np > limit || !ev.oneEach(c.Send) || !ev.oneEach(c.Recv) {
		return 0, false
	}
	if _, fixed := ev.values[Rank]; fixed {
		return 0, false
	}
	if cm := ev.communicator(c.Comm); cm.rank.Alts == nil || !symbolic.Equal(cm.rank.Alts[0].E, symbolic.Sym(Rank)) {
		return 0, false
	}
	return np, true
}

// alltoalled: at a point, rank r's receive buffer gets at offset p the
// element at offset r of rank p's send buffer (one element each): the
// counts an MPI_ALLTOALLV then moves.
func (ev *evaluator) alltoalled(c *apt.Comm) bool {
	np, ok := ev.everyRankOne(c, maxTabulatedP)
	if !ok {
		return false
	}
	skey, sbase, ok1 := ev.bufferStart(c.Send.Buffer)
	rkey, rbase, ok2 := ev.bufferStart(c.Recv.Buffer)
	sb, ok3 := sbase.Int64()
	rb, ok4 := rbase.Int64()
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return false
	}
	sv, ok := ev.env.lookup(skey)
	if !ok || sv.arr == nil {
		return false
	}
	// got[p][r]: what rank p sends rank r.
	got := make([][]symbolic.Expr, np)
	for p := range np {
		st, ok := substArray(sv.arr, map[string]symbolic.Expr{Rank: symbolic.Int(p)})
		if !ok {
			return false
		}
		got[p] = make([]symbolic.Expr, np)
		for r := range np {
			alts, ok := ev.readOffset(st, symbolic.Int(sb+r))
			if !ok || len(alts) != 1 || alts[0].Guard != nil || alts[0].E.Has(Rank) {
				return false
			}
			got[p][r] = alts[0].E
		}
	}
	decl, t := ev.bufferDecl(c.Recv.Buffer)
	if !tracked(t) {
		return false
	}
	for p := range np {
		alts := make([]Alt, np)
		sets := make([][]bool, np)
		for r := range np {
			alts[r] = Alt{Guard: counting.Rel{R: symbolic.Rel(symbolic.Sym(Rank), "==", symbolic.Int(r))}, E: got[p][r]}
			sets[r] = make([]bool, np)
			sets[r][r] = true
		}
		v := Value{Alts: ev.rankAltsOn(alts, sets, np)}
		if !ev.fits(v.Alts) {
			return false
		}
		ev.storeAt(rkey, Known(symbolic.Int(rb+p)), true, decl, t, v)
	}
	return true
}

// meanBlock is the mean of the P elements of a counts array (an
// alltoallv's), where its elements are known.
func (ev *evaluator) meanBlock(counts, comm apt.Expr) []side {
	size, ok := ev.communicator(comm).size.Single()
	np, ok2 := size.Int64()
	if !ok || !ok2 || np < 1 || np > maxTabulatedP {
		return []side{{}}
	}
	refs, ok := ev.sequenceRefs(counts, np)
	if !ok {
		return []side{{}}
	}
	vals := make([]Value, len(refs))
	for i, r := range refs {
		if vals[i] = ev.value(r); !vals[i].IsKnown() {
			return []side{{}}
		}
	}
	v, ok := ev.combine(vals, func(es []symbolic.Expr) (symbolic.Expr, bool) {
		sum := symbolic.Int(0)
		for _, e := range es {
			sum = sum.Add(e)
		}
		return sum.Div(symbolic.Int(np)), true
	})
	if !ok {
		return []side{{}}
	}
	return ev.sidesOf(v)
}

// bufferDecl is the declaration and element type of a receive buffer.
func (ev *evaluator) bufferDecl(b apt.Expr) (*apt.Var, apt.Type) {
	t := apt.Type{Base: apt.TypeInteger}
	if ix, isIx := b.(*apt.Index); isIx {
		return ev.declOf(ix), ix.Type
	}
	if nm, isName := b.(*apt.Name); isName {
		if decl := ev.prog.Resolve(ev.frame().routine, nm.Name); decl != nil {
			return decl, decl.Type
		}
	}
	return nil, t
}

// oneEach reports whether a side of a collective moves one element per
// process.
func (ev *evaluator) oneEach(m *apt.Msg) bool {
	n, ok := ev.constCount(m.Count)
	return ok && n == 1
}

// scattered: rank r receives the root's send buffer element at offset
// r (one element each).
func (ev *evaluator) scattered(c *apt.Comm) bool {
	if !ev.oneEach(c.Send) || !ev.oneEach(c.Recv) || c.Root == nil {
		return false
	}
	key, base, ok := ev.bufferStart(c.Send.Buffer)
	if !ok {
		return false
	}
	v, ok := ev.env.lookup(key)
	if !ok || v.arr == nil {
		return false
	}
	st, ok := ev.arrayAtRoot(v.arr, c.Root)
	if !ok {
		return false
	}
	alts, ok := ev.readOffset(st, base.Add(ev.world().rank.Alts[0].E))
	if !ok || len(alts) == 0 {
		return false
	}
	ev.assignReceived(c.Recv.Buffer, ev.pruneRanks(Value{Alts: mergeAlts(alts)}))
	return true
}

// allgathered: every rank's receive buffer gets rank i's value at offset
// i, at a point.
func (ev *evaluator) allgathered(c *apt.Comm) bool {
	np, ok := ev.everyRankOne(c, maxArrayStores)
	if !ok {
		return false
	}
	send := ev.value(c.Send.Buffer)
	if !send.IsKnown() {
		return false
	}
	key, base, ok := ev.bufferStart(c.Recv.Buffer)
	if !ok {
		return false
	}
	b, ok := base.Int64()
	if !ok {
		return false
	}
	vals := make([]symbolic.Expr, np)
	for r := range np {
		at, ok := ev.atRoot(send, &apt.Const{Kind: apt.ConstInt, Text: strconv.FormatInt(r, 10), Type: apt.Type{Base: apt.TypeInteger}})
		if !ok {
			return false
		}
		if vals[r], ok = at.Single(); !ok {
			return false
		}
	}
	decl, t := ev.bufferDecl(c.Recv.Buffer)
	if !tracked(t) {
		return false
	}
	for r, e := range vals {
		ev.storeAt(key, Known(symbolic.Int(b+int64(r))), true, decl, t, Known(e))
	}
	return true
}

// reducedAtRoot: the root's receive buffer gets the reduction of known
// values; the others keep theirs (or, never assigned, take it too: their
// buffer is undefined, and reading it would be an error).
func (ev *evaluator) reducedAtRoot(c *apt.Comm, pos apt.Pos) bool {
	if c.Root == nil {
		return false
	}
	if _, scalar := ev.bufferKey(c.Recv.Buffer); !scalar {
		return false
	}
	src := c.Send.Buffer
	if _, sendScalar := ev.bufferKey(src); !sendScalar {
		return false
	}
	red, ok := ev.reductionOf(c, ev.value(src))
	if !ok {
		return false
	}
	root, ok := ev.value(c.Root).Single()
	if !ok || root.Has(Rank) {
		return false
	}
	old := ev.value(c.Recv.Buffer)
	switch {
	case old.unk != nil && old.unk.undef:
	case old.IsKnown():
		isRoot := counting.Rel{R: symbolic.Rel(ev.world().rank.Alts[0].E, "==", root)}
		var alts []Alt
		for _, a := range red.Alts {
			alts = append(alts, Alt{Guard: and(isRoot, a.Guard), E: a.E})
		}
		for _, a := range old.Alts {
			alts = append(alts, Alt{Guard: and(not(isRoot), a.Guard), E: a.E})
		}
		red = ev.pruneRanks(Value{Alts: mergeAlts(alts)})
		if !ev.fits(red.Alts) {
			return false
		}
	default:
		return false
	}
	ev.assignReceived(c.Recv.Buffer, red)
	return true
}

// bufferStart returns the storage key of an array buffer and the offset
// of its first element: 0 for the whole array, the element's offset for
// an element (a number or closed form the same on every rank).
func (ev *evaluator) bufferStart(b apt.Expr) (string, symbolic.Expr, bool) {
	switch x := b.(type) {
	case *apt.Name:
		key, scalar := ev.bufferKey(x)
		return key, symbolic.Int(0), key != "" && !scalar
	case *apt.Index:
		key, off, ok := ev.arrayRef(x)
		if !ok || key == "" {
			return "", symbolic.Expr{}, false
		}
		e, single := off.Single()
		if !single || e.Has(Rank) {
			return "", symbolic.Expr{}, false
		}
		return key, e, true
	}
	return "", symbolic.Expr{}, false
}

// assignReceived sets a receive buffer of one element to v.
func (ev *evaluator) assignReceived(b apt.Expr, v Value) {
	if key, scalar := ev.bufferKey(b); scalar && key != "" {
		ev.assignKey(key, v)
		return
	}
	ev.assign(b, v)
}

// receiveElements stores the values a message of several elements brings
// into the buffer's elements (elementRefs), and reports whether it could.
func (ev *evaluator) receiveElements(b apt.Expr, vs []Value) bool {
	refs, ok := ev.elementRefs(b, int64(len(vs)))
	if !ok {
		return false
	}
	for k, ix := range refs {
		ev.assign(ix, vs[k])
	}
	return true
}
