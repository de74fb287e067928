package symeval

import (
	"fmt"
	"os"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Nonblocking receives. An MPI_IRECV's buffer holds the message once the
// wait or test that completes it returns (MPI 3.1 §3.7.2), and the send it
// matches is often written after it: irecv from the left, isend to the
// right, waitall. So a receive posted at a point is kept pending, with
// the ranks that post it and where its buffer lives, and matched with the
// sends kept at the next completion call, the pending receives in the
// order they were posted (MPI's order between two ranks); a blocking
// receive first matches the pending ones. A receive not matched there is
// unknown, as a receive whose send the evaluation has not met.

// pendingRecv is a nonblocking receive posted and not yet matched.
type pendingRecv struct {
	spec recvSpec
	pos  apt.Pos
	// slots are where the buffer's elements live (one for a scalar);
	// none where its values are not carried.
	slots []recvSlot
}

// recvSlot is one element of a pending receive's buffer: a scalar at key,
// or the element at offset off of the array at key, with the value it
// held when the receive was posted.
type recvSlot struct {
	key    string
	scalar bool
	off    Value
	decl   *apt.Var
	ix     *apt.Index
	t      apt.Type
	old    Value
	name   string
}

// current is what a slot holds now: the ranks that did not post the
// receive keep it (other pending receives, of a loop run rank by rank,
// may have stored theirs since this one was posted).
func (ev *evaluator) current(s recvSlot) Value {
	if s.scalar {
		if v, ok := ev.env.lookup(s.key); ok {
			return v
		}
		return s.old
	}
	return ev.loadAt(s.key, s.off, true, s.decl, s.ix, s.name, s.t)
}

// postRecv keeps an irecv pending, and reports whether it did: not where
// the evaluation does not match receives here, or where the buffer's
// place depends on a loop variable the walk holds symbolically (it would
// not be the same place at the completion).
func (ev *evaluator) postRecv(c *apt.Comm, pos apt.Pos) bool {
	if len(ev.cur.vars) > 0 {
		return false
	}
	sp, ok := ev.recvSpecOf(c)
	if !ok || ev.mail.full {
		return false
	}
	p := pendingRecv{spec: sp, pos: pos}
	if sp.want {
		p.slots, sp.want = ev.recvSlots(c.Recv.Buffer, sp.n)
		p.spec.want = sp.want
	}
	if !sp.want {
		// The values are not carried: the buffer is unknown, and the
		// receive still takes its send when matched.
		ev.received(c.Recv.Buffer, pos)
	}
	ev.mail.pending = append(ev.mail.pending, p)
	return true
}

// recvSlots are the places of the n elements a receive buffer holds.
func (ev *evaluator) recvSlots(b apt.Expr, n int64) ([]recvSlot, bool) {
	if key, scalar := ev.bufferKey(b); scalar && key != "" {
		if n != 1 {
			return nil, false
		}
		return []recvSlot{{key: key, scalar: true, old: ev.value(b), name: ev.bufferName(b, key)}}, true
	}
	refs, ok := ev.elementRefs(b, n)
	if !ok {
		return nil, false
	}
	out := make([]recvSlot, len(refs))
	for i, ix := range refs {
		key, off, ok := ev.arrayRef(ix)
		if !ok || key == "" {
			return nil, false
		}
		out[i] = recvSlot{key: key, off: off, decl: ev.declOf(ix), ix: ix, t: ix.Type, old: ev.value(ix), name: ix.Name}
	}
	return out, true
}

// matchPending matches the pending receives, in the order they were
// posted: each takes its sends and gets their values, or, where a rank's
// send is not kept, is unknown.
func (ev *evaluator) matchPending() {
	m := ev.mail
	if m == nil {
		return
	}
	for i := range m.pending {
		if m.matched[i] {
			continue
		}
		m.matched[i] = true
		m.mlog = append(m.mlog, i)
		p := &m.pending[i]
		vs, ok, found, _ := ev.matchRecv(p.spec, true)
		if debugRuns {
			fmt.Fprintf(os.Stderr, "matchPending %s: %v ok=%v found=%v\n", p.pos, vs, ok, found)
		}
		if !found {
			ev.matchRecv(p.spec, false) // poisons what it does not find
		}
		for k, s := range p.slots {
			v := unknownValue(s.name, "the value of "+s.name+" received at "+p.pos.String(), true)
			if ok && found {
				v = ev.withOthers(vs[k], ev.current(s), p.spec.ranks, s.name)
			}
			ev.storeSlot(s, v)
		}
	}
}

// withOthers is v on ranks and old on the other ranks of the point.
func (ev *evaluator) withOthers(v, old Value, ranks []int64, name string) Value {
	np := ev.values[Size]
	if _, fixed := ev.values[Rank]; fixed || int64(len(ranks)) == np {
		return v
	}
	if !old.IsKnown() {
		return unknownValue(name, "the value of "+name+" received on some ranks", true)
	}
	others := make([]bool, np)
	for r := range others {
		others[r] = true
	}
	for _, r := range ranks {
		others[r] = false
	}
	rest := rankRanges(others)
	in := make([]bool, np)
	for _, r := range ranks {
		in[r] = true
	}
	mine := rankRanges(in)
	var alts []Alt
	for _, a := range v.Alts {
		// (A value the receiving ranks share may have no guard.)
		alts = append(alts, Alt{Guard: simplifyGuard(and(a.Guard, mine)), E: a.E})
	}
	for _, a := range old.Alts {
		alts = append(alts, Alt{Guard: simplifyGuard(and(a.Guard, rest)), E: a.E})
	}
	if !ev.fits(alts) {
		return unknownValue(name, "the value of "+name+" received on some ranks", true)
	}
	return Value{Alts: alts}
}

// storeSlot stores v at a pending receive's element.
func (ev *evaluator) storeSlot(s recvSlot, v Value) {
	if s.scalar {
		ev.assignKey(s.key, v)
		return
	}
	ev.storeAt(s.key, s.off, true, s.decl, s.t, v)
}
