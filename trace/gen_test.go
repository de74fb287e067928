package trace

import (
	"math/rand/v2"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/symbolic"
)

// skeleton builds a random deadlock-free run of p ranks as a trace
// skeleton (events with the computation before them, no durations): steps
// of ring shifts (sendrecv, isend/irecv/waitall, or blocking sends ordered
// by parity), pipelines (receive, compute, send), collectives (allreduce,
// barrier, bcast and reduce from a random root), and region marks around
// steps. Message sizes straddle the synchronous threshold of testParams.
func skeleton(rng *rand.Rand, p, steps int) *Trace {
	t := &Trace{Source: "predicted", P: p, Groups: [][]int32{nil}}
	node := func(name string) int32 {
		for i, n := range t.Nodes {
			if n == name {
				return int32(i)
			}
		}
		t.Nodes = append(t.Nodes, name)
		return int32(len(t.Nodes) - 1)
	}
	t.Ranks = make([]Rank, p)
	at := make([]int64, p) // time so far (no durations: begin = end)
	req := make([]int64, p)
	push := func(r int, e Event, gap int64, reqs ...int64) {
		at[r] += gap
		e.Begin, e.End = at[r], at[r]
		if e.Kind == Comm && e.Root == 0 && !e.Op.IsCollective() {
			e.Root = -1
		}
		if len(reqs) > 0 {
			e.ReqLo, e.NReq = int32(len(t.Ranks[r].Reqs)), int32(len(reqs))
			t.Ranks[r].Reqs = append(t.Ranks[r].Reqs, reqs...)
		}
		t.Ranks[r].Events = append(t.Ranks[r].Events, e)
	}
	comp := func() int64 { return int64(rng.IntN(20000)) }
	size := func() int64 {
		if rng.IntN(4) == 0 {
			return 70000 + int64(rng.IntN(100000)) // synchronous
		}
		return int64(rng.IntN(5000))
	}
	send := func(node int32, op apt.CommOp, to int, tag int32, b int64) Event {
		return Event{Kind: Comm, Op: op, Node: node, Peer: int32(to), Tag: tag, Bytes: b, RPeer: NoPeer, Root: -1}
	}
	recv := func(node int32, op apt.CommOp, from int, tag int32, b int64) Event {
		return Event{Kind: Comm, Op: op, Node: node, Peer: NoPeer, RPeer: int32(from), RTag: tag, RBytes: b, Root: -1}
	}
	for s := 0; s < steps; s++ {
		region := rng.IntN(3) == 0
		rn := node("r/L" + string(rune('A'+s%5)))
		if region {
			for r := 0; r < p; r++ {
				push(r, Event{Kind: Enter, Node: rn, Peer: NoPeer, RPeer: NoPeer, Root: -1}, comp())
			}
		}
		b := size()
		tag := int32(rng.IntN(3))
		switch k := rng.IntN(6); {
		case k == 0 && p > 1: // sendrecv ring
			n := node("ring/sendrecv")
			for r := 0; r < p; r++ {
				e := send(n, apt.MPISendrecv, (r+1)%p, tag, b)
				e.RPeer, e.RTag, e.RBytes = int32((r+p-1)%p), tag, b
				push(r, e, comp())
			}
		case k == 1 && p > 1: // isend/irecv/waitall ring
			ni, ns, nw := node("ring/irecv"), node("ring/isend"), node("ring/waitall")
			for r := 0; r < p; r++ {
				req[r] += 2
				e := recv(ni, apt.MPIIrecv, (r+p-1)%p, tag, b)
				e.Req = req[r]
				push(r, e, comp())
				e = send(ns, apt.MPIIsend, (r+1)%p, tag, b)
				e.Req = req[r] + 1
				push(r, e, comp())
				push(r, Event{Kind: Comm, Op: apt.MPIWaitall, Node: nw, Peer: NoPeer, RPeer: NoPeer, Root: -1}, comp(), req[r], req[r]+1)
			}
		case k == 2 && p > 1: // blocking shift ordered by parity (even ranks send first)
			nsd, nrv := node("shift/send"), node("shift/recv")
			for r := 0; r < p; r++ {
				to, from := r+1, r-1
				sendE := func() {
					if to < p {
						push(r, send(nsd, apt.MPISend, to, tag, b), comp())
					}
				}
				recvE := func() {
					if from >= 0 {
						push(r, recv(nrv, apt.MPIRecv, from, tag, b), comp())
					}
				}
				if r%2 == 0 {
					sendE()
					recvE()
				} else {
					recvE()
					sendE()
				}
			}
		case k == 3 && p > 1: // pipeline
			nrv, nsd := node("pipe/recv"), node("pipe/send")
			for r := 0; r < p; r++ {
				if r > 0 {
					push(r, recv(nrv, apt.MPIRecv, r-1, tag, b%5000), comp())
				}
				if r < p-1 {
					push(r, send(nsd, apt.MPISend, r+1, tag, b%5000), comp())
				}
			}
		default: // collective
			ops := []apt.CommOp{apt.MPIAllreduce, apt.MPIBarrier, apt.MPIBcast, apt.MPIReduce}
			op := ops[rng.IntN(len(ops))]
			n := node("coll/" + op.String())
			root := int32(-1)
			if op == apt.MPIBcast || op == apt.MPIReduce {
				root = int32(rng.IntN(p))
			}
			for r := 0; r < p; r++ {
				push(r, Event{Kind: Comm, Op: op, Node: n, Peer: NoPeer, RPeer: NoPeer, Bytes: b % 4096, Root: root}, comp())
			}
		}
		if region {
			for r := 0; r < p; r++ {
				push(r, Event{Kind: Exit, Node: rn, Peer: NoPeer, RPeer: NoPeer, Root: -1}, comp())
			}
		}
	}
	for r := range t.Ranks {
		t.Ranks[r].Finish = at[r] + comp()
	}
	return t
}

// testParams are LogGPS parameters with a synchronous threshold of 64 KiB.
func testParams() Params {
	us := func(x int64, d int64) symbolic.Rat { return symbolic.RatFrac(x, d*1000000) }
	g := model.LogGPS{L: us(9, 1), O: us(2, 1), G: us(1, 1000), S: symbolic.RatInt(65536)}
	return Params{Name: "test", L: 9e-6, O: 2e-6, G: 1e-9, S: 65536, Net: g}
}
