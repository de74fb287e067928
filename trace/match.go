package trace

import (
	"fmt"
	"sort"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Message is one point-to-point message of a trace: the send side of event
// SendIdx of rank Src matched with the receive side of event RecvIdx of rank
// Dst (MK's matching of send and receive events, seed 000 Fig. 2 step 1).
type Message struct {
	Src, Dst         int32
	SendIdx, RecvIdx int32
	Tag              int32
	Bytes            int64
}

// Graph is a trace's happened-before structure (PerWiz's DAG, seed 003
// §2.2): besides each rank's program order, the messages, which wait
// completes each nonblocking call, and the instances of each collective.
// Per-rank slices are indexed by event.
type Graph struct {
	T    *Trace
	Msgs []Message
	// SendMsg and RecvMsg give the message of an event's send and receive
	// sides (-1: none).
	SendMsg, RecvMsg [][]int32
	// WaitOf gives the event index of the wait that completes an isend or
	// irecv (-1: none recorded, such as one completed by MPI_Waitany).
	WaitOf [][]int32
	// Coll gives the collective instance of a collective event (-1: none);
	// Colls lists each instance's members as (rank, event) pairs.
	Coll  [][]int32
	Colls [][][2]int32
	// Notes say what could not be matched.
	Notes []string
}

// Match builds the happened-before graph of t. MPI's ordering rule decides
// the matching: messages from one rank to another with one tag are received
// in the order they were sent (non-overtaking), so the k-th send from s to
// d with tag m matches the k-th receive on d from s with tag m. Receives
// whose source stayed a wildcard (no status recorded) take the earliest
// unmatched send to their rank, and the graph says so. Collectives of one
// group match by their order on each member.
func Match(t *Trace) (*Graph, error) {
	g := &Graph{T: t}
	n := len(t.Ranks)
	g.SendMsg = make([][]int32, n)
	g.RecvMsg = make([][]int32, n)
	g.WaitOf = make([][]int32, n)
	g.Coll = make([][]int32, n)
	type key struct{ src, dst, tag int32 }
	sends := map[key][]int32{} // message indices in send order
	recvs := map[key][][2]int32{}
	var wild [][2]int32
	for r := range t.Ranks {
		ev := t.Ranks[r].Events
		sm, rm, wo, co := make([]int32, len(ev)), make([]int32, len(ev)), make([]int32, len(ev)), make([]int32, len(ev))
		for i := range ev {
			sm[i], rm[i], wo[i], co[i] = -1, -1, -1, -1
		}
		g.SendMsg[r], g.RecvMsg[r], g.WaitOf[r], g.Coll[r] = sm, rm, wo, co
		for i := range ev {
			e := &ev[i]
			if e.Kind != Comm || e.Op.IsCollective() {
				continue
			}
			if e.isSend() {
				k := key{int32(r), e.Peer, e.Tag}
				m := int32(len(g.Msgs))
				g.Msgs = append(g.Msgs, Message{Src: int32(r), Dst: e.Peer, SendIdx: int32(i), RecvIdx: -1, Tag: e.Tag, Bytes: e.Bytes})
				sm[i] = m
				sends[k] = append(sends[k], m)
			}
			if e.isRecv() {
				if e.RPeer == AnySource || e.RTag == AnyTag {
					wild = append(wild, [2]int32{int32(r), int32(i)})
					continue
				}
				k := key{e.RPeer, int32(r), e.RTag}
				recvs[k] = append(recvs[k], [2]int32{int32(r), int32(i)})
			}
		}
	}
	unmatched := 0
	for k, rs := range recvs {
		ss := sends[k]
		for j, rv := range rs {
			if j >= len(ss) {
				unmatched += len(rs) - j
				break
			}
			m := ss[j]
			g.Msgs[m].RecvIdx = rv[1]
			g.RecvMsg[rv[0]][rv[1]] = m
		}
	}
	if len(wild) > 0 {
		// Wildcards take the earliest unmatched send to their rank
		// (and tag), in the order the receives were posted.
		sort.Slice(wild, func(a, b int) bool {
			ea := &t.Ranks[wild[a][0]].Events[wild[a][1]]
			eb := &t.Ranks[wild[b][0]].Events[wild[b][1]]
			return ea.Begin < eb.Begin
		})
		free := map[int32][]int32{}
		for m := range g.Msgs {
			if g.Msgs[m].RecvIdx < 0 {
				free[g.Msgs[m].Dst] = append(free[g.Msgs[m].Dst], int32(m))
			}
		}
		for d := range free {
			l := free[d]
			sort.Slice(l, func(a, b int) bool {
				ma, mb := g.Msgs[l[a]], g.Msgs[l[b]]
				return t.Ranks[ma.Src].Events[ma.SendIdx].Begin < t.Ranks[mb.Src].Events[mb.SendIdx].Begin
			})
		}
		for _, w := range wild {
			e := &t.Ranks[w[0]].Events[w[1]]
			l := free[w[0]]
			found := -1
			for j, m := range l {
				if (e.RPeer == AnySource || g.Msgs[m].Src == e.RPeer) && (e.RTag == AnyTag || g.Msgs[m].Tag == e.RTag) {
					found = j
					break
				}
			}
			if found < 0 {
				unmatched++
				continue
			}
			m := l[found]
			free[w[0]] = append(l[:found:found], l[found+1:]...)
			g.Msgs[m].RecvIdx = w[1]
			g.RecvMsg[w[0]][w[1]] = m
		}
		g.Notes = append(g.Notes, fmt.Sprintf("%d wildcard receives without a recorded status matched by arrival order", len(wild)))
	}
	if unmatched > 0 {
		g.Notes = append(g.Notes, fmt.Sprintf("%d receives match no send", unmatched))
	}
	lost := 0
	for _, m := range g.Msgs {
		if m.RecvIdx < 0 {
			lost++
		}
	}
	if lost > 0 {
		g.Notes = append(g.Notes, fmt.Sprintf("%d sends match no receive", lost))
	}
	// Requests: a wait completes the latest isend or irecv that returned
	// its handle (handles are reused once completed).
	waitless := 0
	for r := range t.Ranks {
		rk := &t.Ranks[r]
		open := map[int64]int32{}
		for i := range rk.Events {
			e := &rk.Events[i]
			if e.Kind != Comm {
				continue
			}
			if !e.Op.IsBlocking() {
				if _, dup := open[e.Req]; dup {
					waitless++
				}
				open[e.Req] = int32(i)
			}
			for _, h := range rk.Reqs[e.ReqLo : e.ReqLo+e.NReq] {
				if j, ok := open[h]; ok {
					g.WaitOf[r][j] = int32(i)
					delete(open, h)
				}
			}
		}
		waitless += len(open)
	}
	if waitless > 0 {
		g.Notes = append(g.Notes, fmt.Sprintf("%d nonblocking calls without a recorded wait (MPI_Waitany, MPI_Test)", waitless))
	}
	// Collectives: the k-th collective on a group on each member.
	type ck struct {
		group int32
		seq   int32
	}
	inst := map[ck]int32{}
	for r := range t.Ranks {
		seq := map[int32]int32{}
		for i := range t.Ranks[r].Events {
			e := &t.Ranks[r].Events[i]
			if e.Kind != Comm || !e.Op.IsCollective() {
				continue
			}
			k := ck{e.Group, seq[e.Group]}
			seq[e.Group]++
			id, ok := inst[k]
			if !ok {
				id = int32(len(g.Colls))
				inst[k] = id
				g.Colls = append(g.Colls, nil)
			}
			g.Colls[id] = append(g.Colls[id], [2]int32{int32(r), int32(i)})
			g.Coll[r][i] = id
		}
	}
	bad := 0
	for _, c := range g.Colls {
		first := &t.Ranks[c[0][0]].Events[c[0][1]]
		for _, m := range c[1:] {
			if t.Ranks[m[0]].Events[m[1]].Op != first.Op {
				bad++
				break
			}
		}
	}
	if bad > 0 {
		g.Notes = append(g.Notes, fmt.Sprintf("%d collective instances mix operations (collectives on different communicators of one group)", bad))
	}
	return g, nil
}

// rooted reports whether op flows from or to one root.
func rooted(op apt.CommOp) (fromRoot, toRoot bool) {
	switch op {
	case apt.MPIBcast, apt.MPIScatter, apt.MPIScatterv:
		return true, false
	case apt.MPIReduce, apt.MPIGather, apt.MPIGatherv:
		return false, true
	}
	return false, false
}
