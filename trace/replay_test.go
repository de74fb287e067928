package trace

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model/phase"
)

// dagTimes is the oracle of the modelled replay: it builds the
// happened-before DAG explicitly (PerWiz §2.2), a begin and an end vertex
// per event, and evaluates each vertex's time as the longest path to it by
// memoised recursion, from LogGPS's rules written out here independently
// of Replayer: a call ends its own cost after the later of its begin and
// what it waits for; a receive waits for its message (the send's call plus
// o + L + m*G), a synchronous send (m > S) for the receive's call plus L, a
// wait for the messages of the calls it completes, a collective for its
// members' calls (only the root for bcast, all for the root of reduce).
func dagTimes(t *Trace, g *Graph, p Params) (begin, end [][]float64, finish []float64) {
	n := len(t.Ranks)
	begin, end = make([][]float64, n), make([][]float64, n)
	done := make([][]int8, n)
	for r := range t.Ranks {
		begin[r] = make([]float64, len(t.Ranks[r].Events))
		end[r] = make([]float64, len(t.Ranks[r].Events))
		done[r] = make([]int8, len(t.Ranks[r].Events))
	}
	// completes[r][w] lists the nonblocking calls wait w completes.
	completes := make([]map[int][]int, n)
	for r := range t.Ranks {
		completes[r] = map[int][]int{}
		for j, w := range g.WaitOf[r] {
			if w >= 0 {
				completes[r][int(w)] = append(completes[r][int(w)], j)
			}
		}
	}
	lat := func(b int64) float64 { return (p.O + p.L + float64(b)*p.G) * 1e9 }
	var beginOf, endOf func(r, i int) float64
	gap := func(r, i int) float64 {
		prev := t.Ranks[r].Start
		if i > 0 {
			prev = t.Ranks[r].Events[i-1].End
		}
		return float64(t.Ranks[r].Events[i].Begin - prev)
	}
	beginOf = func(r, i int) float64 {
		if done[r][i] >= 1 {
			return begin[r][i]
		}
		b := float64(t.Ranks[r].Start)
		if i > 0 {
			b = endOf(r, i-1)
		}
		begin[r][i] = b + gap(r, i)
		done[r][i] = 1
		return begin[r][i]
	}
	endOf = func(r, i int) float64 {
		if done[r][i] == 2 {
			return end[r][i]
		}
		b := beginOf(r, i)
		e := &t.Ranks[r].Events[i]
		if e.Kind != Comm {
			end[r][i] = b
			done[r][i] = 2
			return b
		}
		dep := b
		msgIn := func(m int32) {
			if m >= 0 {
				msg := g.Msgs[m]
				dep = math.Max(dep, beginOf(int(msg.Src), int(msg.SendIdx))+lat(msg.Bytes))
			}
		}
		msgOut := func(m int32) {
			if m >= 0 && float64(g.Msgs[m].Bytes) > p.S && g.Msgs[m].RecvIdx >= 0 {
				msg := g.Msgs[m]
				dep = math.Max(dep, beginOf(int(msg.Dst), int(msg.RecvIdx))+p.L*1e9)
			}
		}
		if e.Op.IsBlocking() {
			msgIn(g.RecvMsg[r][i])
			msgOut(g.SendMsg[r][i])
		}
		for _, j := range completes[r][i] {
			msgIn(g.RecvMsg[r][j])
			msgOut(g.SendMsg[r][j])
		}
		own := 0.0
		switch {
		case e.Op.IsCollective():
			for _, m := range g.Colls[g.Coll[r][i]] {
				q := int(m[0])
				if q == r || e.Op == apt.MPIBcast && int32(q) != e.Root || e.Op == apt.MPIReduce && int32(r) != e.Root {
					continue
				}
				dep = math.Max(dep, beginOf(q, int(m[1])))
			}
			c, _ := phase.CollectiveOf(e.Op)
			own = c.Seconds(p.Net, t.P, float64(max(e.Bytes, e.RBytes)), 0) * 1e9
		case e.Op == apt.MPIWaitall || e.Op == apt.MPIWait:
		default:
			if e.Peer >= 0 {
				own += p.O * 1e9
			}
			if e.RPeer >= 0 {
				own += p.O * 1e9
			}
		}
		end[r][i] = dep + own
		done[r][i] = 2
		return end[r][i]
	}
	finish = make([]float64, n)
	for r := range t.Ranks {
		ev := t.Ranks[r].Events
		last := float64(t.Ranks[r].Start)
		prev := t.Ranks[r].Start
		if len(ev) > 0 {
			last = endOf(r, len(ev)-1)
			prev = ev[len(ev)-1].End
		}
		finish[r] = last + float64(t.Ranks[r].Finish-prev)
	}
	return begin, end, finish
}

// TestReplayAgainstDAG checks the turn-based replay against the explicit
// DAG on random runs: every event's begin and end and every rank's finish.
func TestReplayAgainstDAG(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := testParams()
	events := 0
	for trial := 0; trial < 200; trial++ {
		tr := skeleton(rng, 1+rng.IntN(7), 1+rng.IntN(30))
		g, err := Match(tr)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Notes) > 0 {
			t.Fatalf("trial %d: %v", trial, g.Notes)
		}
		res, err := NewReplayer(g, p, Modelled).Replay(&Options{Record: true})
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		b, e, f := dagTimes(tr, g, p)
		for r := range tr.Ranks {
			for i := range tr.Ranks[r].Events {
				if math.Abs(res.Begin[r][i]-b[r][i]) > 1e-6 || math.Abs(res.End[r][i]-e[r][i]) > 1e-6 {
					ev := &tr.Ranks[r].Events[i]
					t.Fatalf("trial %d rank %d event %d (%s %s): replay %.3f..%.3f, DAG %.3f..%.3f", trial, r, i, ev.Kind, ev.Op,
						res.Begin[r][i], res.End[r][i], b[r][i], e[r][i])
				}
				events++
			}
			if math.Abs(res.Finish[r]-f[r]) > 1e-6 {
				t.Fatalf("trial %d rank %d: finish %.3f, DAG %.3f", trial, r, res.Finish[r], f[r])
			}
		}
	}
	t.Logf("%d events agree with the explicit DAG", events)
}

// TestReplayReproducesTrace: a trace replayed without a change in the
// measured mode gives its own times back, whatever the LogGPS parameters
// (PerWiz keeps the measured times and only splits off the waiting).
func TestReplayReproducesTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 100; trial++ {
		tr := skeleton(rng, 1+rng.IntN(7), 1+rng.IntN(30))
		if _, err := Schedule(tr, testParams()); err != nil {
			t.Fatal(err)
		}
		g, _ := Match(tr)
		for _, p := range []Params{testParams(), {Name: "slow", L: 50e-6, O: 10e-6, G: 1e-8, S: 1024}, {Name: "zero", S: math.Inf(1)}} {
			res, err := NewReplayer(g, p, Measured).Replay(&Options{Record: true})
			if err != nil {
				t.Fatalf("trial %d %s: %v", trial, p.Name, err)
			}
			for r := range tr.Ranks {
				if d := math.Abs(res.Finish[r] - float64(tr.Ranks[r].Finish)); d > 0.5 {
					t.Fatalf("trial %d %s rank %d: replayed finish %.1f, trace %d", trial, p.Name, r, res.Finish[r], tr.Ranks[r].Finish)
				}
				for i := range tr.Ranks[r].Events {
					if d := math.Abs(res.End[r][i] - float64(tr.Ranks[r].Events[i].End)); d > 0.5 {
						t.Fatalf("trial %d %s rank %d event %d: replayed end %.1f, trace %d", trial, p.Name, r, i, res.End[r][i], tr.Ranks[r].Events[i].End)
					}
				}
			}
		}
	}
}

// TestWaitCauses: a receive posted before its message waits as a late
// sender, a synchronous send posted before its receive as a late receiver.
func TestWaitCauses(t *testing.T) {
	p := Params{Name: "t", L: 1e-6, O: 1e-6, S: 100}
	mk := func(bytes int64, sendAt, recvAt int64) *Trace {
		tr := &Trace{Source: "predicted", P: 2, Nodes: []string{"s", "r"}, Groups: [][]int32{nil}}
		tr.Ranks = []Rank{
			{Finish: sendAt + 100000, Events: []Event{{Kind: Comm, Op: apt.MPISend, Node: 0, Peer: 1, Bytes: bytes, RPeer: NoPeer, Root: -1, Begin: sendAt, End: sendAt}}},
			{Finish: recvAt + 100000, Events: []Event{{Kind: Comm, Op: apt.MPIRecv, Node: 1, Peer: NoPeer, RPeer: 0, RBytes: bytes, Root: -1, Begin: recvAt, End: recvAt}}},
		}
		return tr
	}
	// Eager: the receive at 0 waits for the send at 10 us: 10 + o + L = 12 us.
	g, _ := Match(mk(10, 10000, 0))
	res, err := NewReplayer(g, p, Modelled).Replay(&Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := res.Waits[1].LateSender; math.Abs(w-12000) > 1e-9 {
		t.Errorf("late sender wait %.1f ns, want 12000", w)
	}
	// Synchronous: the send at 0 waits for the receive called at 10 us,
	// plus L for the acknowledgement: 11 us.
	g, _ = Match(mk(1000, 0, 10000))
	res, err = NewReplayer(g, p, Modelled).Replay(&Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := res.Waits[0].LateReceiver; math.Abs(w-11000) > 1e-9 {
		t.Errorf("late receiver wait %.1f ns, want 11000", w)
	}
}

// TestFormatRoundTrip writes random traces and reads them back equal.
func TestFormatRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 100; trial++ {
		tr := skeleton(rng, 1+rng.IntN(9), rng.IntN(40))
		if _, err := Schedule(tr, testParams()); err != nil {
			t.Fatal(err)
		}
		tr.Params = map[string]int64{"n": int64(trial)}
		var buf bytes.Buffer
		if err := Write(&buf, tr); err != nil {
			t.Fatal(err)
		}
		back, err := Read("t.mkt", buf.Bytes())
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if !equalTraces(tr, back) {
			t.Fatalf("trial %d: the trace read back differs", trial)
		}
		// Every truncation is an error with an offset, never a panic.
		for _, cut := range []int{0, 5, len(magic), len(magic) + 3, buf.Len() / 2, buf.Len() - 1} {
			if cut > buf.Len() {
				continue
			}
			if _, err := Read("t.mkt", buf.Bytes()[:cut]); err == nil {
				t.Fatalf("trial %d: a trace cut at %d of %d bytes was accepted", trial, cut, buf.Len())
			} else if _, ok := err.(*FormatError); !ok {
				t.Fatalf("trial %d: cut at %d: %T %v, want a FormatError", trial, cut, err, err)
			}
		}
	}
}

func equalTraces(a, b *Trace) bool {
	if a.P != b.P || a.Source != b.Source || len(a.Nodes) != len(b.Nodes) || len(a.Ranks) != len(b.Ranks) {
		return false
	}
	for i := range a.Nodes {
		if a.Nodes[i] != b.Nodes[i] {
			return false
		}
	}
	for k, v := range a.Params {
		if b.Params[k] != v {
			return false
		}
	}
	for r := range a.Ranks {
		x, y := &a.Ranks[r], &b.Ranks[r]
		if x.Start != y.Start || x.Finish != y.Finish || len(x.Events) != len(y.Events) || len(x.Reqs) != len(y.Reqs) {
			return false
		}
		for i := range x.Events {
			if x.Events[i] != y.Events[i] {
				return false
			}
		}
		for i := range x.Reqs {
			if x.Reqs[i] != y.Reqs[i] {
				return false
			}
		}
	}
	return true
}
