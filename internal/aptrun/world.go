package aptrun

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/mkvet/mkvet/frontend/apt"
)

// world carries the contents of messages between the ranks of one
// RunWorld: point-to-point messages queue by (source, destination) in the
// order sent, and the k-th collective call of every rank meets the k-th of
// the others. Sends are buffered (they never block), so a program that
// would deadlock only on synchronous sends runs here.
type world struct {
	p    int64
	mu   sync.Mutex
	cond *sync.Cond
	mail map[[2]int64][]message
	coll []*collective
	// live counts the ranks still running and waiting those that found
	// nothing to do since the last change: when every live rank waits,
	// the program is deadlocked.
	live, waiting int
	err           error
	aborted       bool
	// at says where each waiting rank waits, for the deadlock's message.
	at map[int64]string
}

type message struct {
	tag  int64
	vals []value
	pos  apt.Pos
}

// collective is one collective call as the ranks reach it: each deposits
// its send side; the call completes when all have.
type collective struct {
	op      apt.CommOp
	root    int64
	reduce  string
	pos     apt.Pos
	in      [][]value   // each rank's send side
	parts   [][][]value // scatter, all-to-all: each rank's part for each rank
	arrived int64
}

var errDeadlock = errors.New("deadlock")

// RunWorld runs every rank 0..cfg.P-1 of prog at once, each as Run would
// with Config.Rank set to it, and moves the contents of messages between
// them (cfg.Rank and cfg.Observer must be unset): what a send, broadcast,
// scatter, gather or reduction delivers is what the receiving rank's
// buffer holds after it, so values one rank reads or computes reach the
// others as in the program's run. It returns each rank's counts. An error
// on any rank, a deadlock (every running rank waiting for a message or a
// collective no other rank will provide) or collective calls that do not
// match (other operations, roots or reduction operations at the same
// position in the ranks' sequences) end the run with an error naming the
// position.
//
// The messages carried: send, ssend, bsend, rsend, isend and issend
// (buffered: a send completes at once, its contents copied when it is
// called), recv and irecv (completed by the wait, waitall or waitany that
// names the request), sendrecv and sendrecv_replace; MPI_ANY_SOURCE takes
// the lowest rank with a matching message, MPI_ANY_TAG any tag. Status
// arguments are not set. Collectives: barrier, bcast, reduce and allreduce
// (sum, prod, max, min, land, lor; MPI_IN_PLACE), gather, allgather,
// scatter, alltoall and their v-variants. Every communicator is taken as
// MPI_COMM_WORLD: programs that split communicators are not carried
// faithfully. MPI_ABORT on one rank ends the others at their next
// blocking call.
func RunWorld(prog *apt.Program, cfg Config) ([]*Counts, error) {
	if prog == nil {
		return nil, errors.New("aptrun: nil program")
	}
	if cfg.P < 1 {
		return nil, fmt.Errorf("aptrun: RunWorld needs P >= 1, not %d", cfg.P)
	}
	if cfg.Rank != 0 || cfg.Observer != nil {
		return nil, errors.New("aptrun: RunWorld runs every rank and takes no Rank or Observer")
	}
	w := &world{p: cfg.P, mail: map[[2]int64][]message{}, live: int(cfg.P), at: map[int64]string{}}
	w.cond = sync.NewCond(&w.mu)
	counts := make([]*Counts, cfg.P)
	errs := make([]error, cfg.P)
	var wg sync.WaitGroup
	for r := range cfg.P {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := cfg
			c.Rank = r
			counts[r], errs[r] = run(prog, c, w)
			w.mu.Lock()
			w.live--
			if errs[r] != nil && !errors.Is(errs[r], errDeadlock) && w.err == nil {
				w.err = fmt.Errorf("rank %d: %w", r, errs[r])
			}
			w.changed()
			w.mu.Unlock()
		}()
	}
	wg.Wait()
	if w.err != nil {
		return counts, w.err
	}
	return counts, nil
}

// changed wakes every waiting rank to look again; w.mu is held.
func (w *world) changed() {
	w.waiting = 0
	w.cond.Broadcast()
}

// await blocks rank until ready holds (w.mu held), or the run fails;
// where says what it waits for.
func (w *world) await(rank int64, where string, ready func() bool) error {
	defer delete(w.at, rank)
	for !ready() {
		if w.err != nil {
			return w.err
		}
		if w.aborted {
			return errStop
		}
		w.at[rank] = where
		w.waiting++
		if w.waiting >= w.live {
			var ranks []string
			for _, r := range slices.Sorted(maps.Keys(w.at)) {
				ranks = append(ranks, fmt.Sprintf("rank %d %s", r, w.at[r]))
			}
			w.err = fmt.Errorf("%w: %s", errDeadlock, strings.Join(ranks, "; "))
			w.cond.Broadcast()
			return w.err
		}
		w.cond.Wait()
	}
	return nil
}

// worldComm moves the data of an MPI call between ranks (RunWorld): it
// runs after comm's counting and sets the receive buffers.
func (e *engine) worldComm(fr *frame, n *apt.Comm) error {
	pos := n.Span.Start()
	w := e.world
	switch n.Op {
	case apt.MPIInit, apt.MPIFinalize, apt.MPICommRank, apt.MPICommSize:
		return nil
	case apt.MPIAbort:
		w.mu.Lock()
		w.aborted = true
		w.changed()
		w.mu.Unlock()
		return nil
	}
	if isSend(n.Op) {
		if err := e.send(fr, n, pos); err != nil {
			return err
		}
	}
	switch n.Op {
	case apt.MPIRecv, apt.MPISendrecv, apt.MPISendrecvReplace:
		r, err := e.recvOf(fr, n, pos)
		if err != nil {
			return err
		}
		return e.receive(r)
	case apt.MPIIrecv, apt.MPIIsend, apt.MPIIssend:
		return e.request(fr, n, pos)
	case apt.MPIWait, apt.MPIWaitall, apt.MPIWaitany:
		return e.wait(fr, n, pos)
	}
	if n.Op.IsCollective() {
		if err := e.collective(fr, n, pos); err != nil || !n.Immediate {
			return err
		}
		return e.request(fr, n, pos) // MPI_Iallreduce's request
	}
	return nil
}

// pending is a receive posted and not yet completed.
type pending struct {
	cells    []*cell
	src, tag int64
	pos      apt.Pos
}

// send queues the send side's contents for its peer.
func (e *engine) send(fr *frame, n *apt.Comm, pos apt.Pos) error {
	peer, err := e.evalInt(fr, n.Send.Peer)
	if err != nil {
		return err
	}
	if peer == e.procNull {
		return nil
	}
	if peer < 0 || peer >= e.world.p {
		return fmt.Errorf("%s: mpi_%s to rank %d of %d", pos, n.Op, peer, e.world.p)
	}
	tag, err := e.evalInt(fr, n.Send.Tag)
	if err != nil {
		return err
	}
	vals, err := e.sendValues(fr, n.Send, pos)
	if err != nil {
		return err
	}
	w := e.world
	w.mu.Lock()
	defer w.mu.Unlock()
	k := [2]int64{e.cfg.Rank, peer}
	w.mail[k] = append(w.mail[k], message{tag: tag, vals: vals, pos: pos})
	w.changed()
	return nil
}

// recvOf evaluates a receive side: its buffer's cells, source and tag.
func (e *engine) recvOf(fr *frame, n *apt.Comm, pos apt.Pos) (*pending, error) {
	m := n.Recv
	src, err := e.evalInt(fr, m.Peer)
	if err != nil {
		return nil, err
	}
	tag, err := e.evalInt(fr, m.Tag)
	if err != nil {
		return nil, err
	}
	if src != e.procNull && src != AnySource && (src < 0 || src >= e.world.p) {
		return nil, fmt.Errorf("%s: mpi_%s from rank %d of %d", pos, n.Op, src, e.world.p)
	}
	cnt, err := e.evalInt(fr, m.Count)
	if err != nil {
		return nil, err
	}
	cells, err := e.bufferCells(fr, m.Buffer, cnt, pos)
	if err != nil {
		return nil, err
	}
	return &pending{cells: cells, src: src, tag: tag, pos: pos}, nil
}

// receive waits for the first message that matches r and stores it.
func (e *engine) receive(r *pending) error {
	if r.src == e.procNull {
		return nil
	}
	w := e.world
	w.mu.Lock()
	var got message
	err := w.await(e.cfg.Rank, fmt.Sprintf("receives from %d with tag %d at %s", r.src, r.tag, r.pos), func() bool {
		for s := range w.p {
			if r.src != AnySource && s != r.src {
				continue
			}
			k := [2]int64{s, e.cfg.Rank}
			for i, m := range w.mail[k] {
				if r.tag == -1 || m.tag == r.tag {
					got = m
					w.mail[k] = append(w.mail[k][:i:i], w.mail[k][i+1:]...)
					return true
				}
			}
		}
		return false
	})
	w.mu.Unlock()
	if err != nil {
		return err
	}
	if len(got.vals) > len(r.cells) {
		return fmt.Errorf("%s: a message of %d elements (sent at %s) into a buffer of %d", r.pos, len(got.vals), got.pos, len(r.cells))
	}
	return e.storeCells(r.cells, got.vals, r.pos)
}

// request gives a nonblocking call its handle (the observer's, when there
// is one) and posts the receive of an irecv.
func (e *engine) request(fr *frame, n *apt.Comm, pos apt.Pos) error {
	if e.cfg.Observer == nil {
		e.nextReq++
		if n.Request != nil {
			l, err := e.locate(fr, n.Request)
			if err != nil {
				return err
			}
			if err := e.assignLoc(l, intV(e.nextReq), pos); err != nil {
				return err
			}
		}
	}
	if n.Op != apt.MPIIrecv {
		return nil
	}
	r, err := e.recvOf(fr, n, pos)
	if err != nil {
		return err
	}
	e.posted[e.nextReq] = r
	return nil
}

// wait completes the receives a wait, waitall or waitany names (sends
// completed when they were made).
func (e *engine) wait(fr *frame, n *apt.Comm, pos apt.Pos) error {
	if n.Request == nil {
		return nil
	}
	v, err := e.eval(fr, n.Request)
	if err != nil {
		return err
	}
	var hs []int64
	if v.isArr() {
		k := int64(len(v.arr.elems))
		if n.Count != nil {
			if k, err = e.evalInt(fr, n.Count); err != nil {
				return err
			}
		}
		for i, x := range v.arr.elems {
			if int64(i) >= k {
				break
			}
			h, _ := asInt(x)
			hs = append(hs, h)
		}
	} else {
		h, _ := asInt(v)
		hs = []int64{h}
	}
	for i, h := range hs {
		r := e.posted[h]
		if r == nil {
			continue
		}
		delete(e.posted, h)
		if err := e.receive(r); err != nil {
			return err
		}
		if n.Op == apt.MPIWaitany {
			if n.Result != nil {
				l, err := e.locate(fr, n.Result)
				if err != nil {
					return err
				}
				return e.assignLoc(l, intV(int64(i+1)), pos)
			}
			return nil
		}
	}
	return nil
}

// sendValues reads the values a send side sends.
func (e *engine) sendValues(fr *frame, m *apt.Msg, pos apt.Pos) ([]value, error) {
	cnt, err := e.evalInt(fr, m.Count)
	if err != nil {
		return nil, err
	}
	cells, err := e.bufferCells(fr, m.Buffer, cnt, pos)
	if err != nil {
		return nil, err
	}
	vals := make([]value, len(cells))
	for i, c := range cells {
		vals[i] = c.v
	}
	return vals, nil
}

// bufferCells returns the n cells of a buffer in order: a scalar, an array
// from its first element, a section's elements, or the elements of the
// array an element actual starts (sequence association, as MPI reads it).
func (e *engine) bufferCells(fr *frame, buf apt.Expr, n int64, pos apt.Pos) ([]*cell, error) {
	if buf == nil {
		return nil, fmt.Errorf("%s: an MPI call without its buffer", pos)
	}
	if n <= 0 {
		return nil, nil
	}
	l, err := e.locate(fr, buf)
	if err != nil {
		return nil, err
	}
	if l.sub {
		return nil, fmt.Errorf("%s: a substring as an MPI buffer", pos)
	}
	if l.c != nil && l.earr == nil {
		if n > 1 && l.c.v.k != kChar {
			return nil, fmt.Errorf("%s: %d elements in the scalar %s", pos, n, apt.FormatExpr(buf))
		}
		return []*cell{l.c}, nil
	}
	a, base, offs := l.arr, int64(0), l.offs
	if l.c != nil {
		a, base, offs = l.earr, l.eoff, nil
	}
	if !a.alloc {
		return nil, fmt.Errorf("%s: %s is not allocated", pos, apt.FormatExpr(buf))
	}
	if offs != nil && int64(len(offs)) < n {
		return nil, fmt.Errorf("%s: %d elements in a section of %d", pos, n, len(offs))
	}
	size := a.st.size
	out := make([]*cell, n)
	for i := range n {
		off := base + i
		if offs != nil {
			off = offs[i]
		}
		if size >= 0 && (a.off+off < 0 || a.off+off >= size) {
			return nil, fmt.Errorf("%s: %d elements from %s pass the end of its storage", pos, n, apt.FormatExpr(buf))
		}
		c, err := e.elemCell(a, off)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

func (e *engine) storeCells(cells []*cell, vals []value, pos apt.Pos) error {
	for i, v := range vals {
		if i >= len(cells) {
			return fmt.Errorf("%s: %d values into %d elements", pos, len(vals), len(cells))
		}
		if err := e.store(cells[i], v, pos); err != nil {
			return err
		}
	}
	return nil
}
