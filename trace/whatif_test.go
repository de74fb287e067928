package trace

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
)

// TestZeroEveryWaitIsTheBound: zeroing the waiting time of every call
// (F2) gives exactly F3's first lower bound, the slowest rank's
// computation and own call time, on random runs.
func TestZeroEveryWaitIsTheBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for trial := 0; trial < 50; trial++ {
		tr := skeleton(rng, 1+rng.IntN(6), 1+rng.IntN(30))
		g, err := Schedule(tr, testParams())
		if err != nil {
			t.Fatal(err)
		}
		rp := NewReplayer(g, testParams(), Measured)
		base, err := rp.Replay(&Options{Record: true})
		if err != nil {
			t.Fatal(err)
		}
		var nodes []string
		nodes = append(nodes, tr.Nodes...)
		res, _, err := rp.ZeroWaitAt(nodes)
		if err != nil {
			t.Fatal(err)
		}
		b := rp.LowerBounds(base)
		if math.Abs(res.Completion-b.NoWait) > 1e-6 || res.Completion > base.Completion+1e-6 {
			t.Fatalf("trial %d: every wait zeroed %.1f ns, bound %.1f, replay %.1f", trial, res.Completion, b.NoWait, base.Completion)
		}
		for r := range res.Waits {
			if res.Waits[r].Total() != 0 {
				t.Fatalf("trial %d rank %d: %v of waiting left", trial, r, res.Waits[r])
			}
		}
		// The domino path: each link a waiting call bound by the
		// partner it names; zeroing it cannot make the run longer.
		d, err := rp.Domino(base)
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < len(d.Events); j += 2 {
			e, p := d.Events[j], d.Events[j+1]
			if base.Wait[e[0]][e[1]] <= 0 || base.By[e[0]][e[1]] != p {
				t.Fatalf("trial %d: link %v -> %v: wait %.1f, bound by %v", trial, e, p, base.Wait[e[0]][e[1]], base.By[e[0]][e[1]])
			}
		}
		if d.PathTime > base.Completion+1e-6 || d.TriggerTime > base.Completion+1e-6 {
			t.Fatalf("trial %d: zeroing the domino path gives %.1f, the trigger %.1f, the run %.1f", trial, d.PathTime, d.TriggerTime, base.Completion)
		}
	}
}

// TestBalanceSteps: two ranks compute 100 and 300 ns per step between
// barriers (free messages); balancing each step of the region gives the
// mean, 200 ns a step, and balancing the whole run the same.
func TestBalanceSteps(t *testing.T) {
	tr := &Trace{Source: "predicted", P: 2, Nodes: []string{"loop", "barrier"}, Groups: [][]int32{nil}}
	tr.Ranks = make([]Rank, 2)
	for r := range tr.Ranks {
		at := int64(0)
		ev := []Event{{Kind: Enter, Node: 0, Peer: NoPeer, RPeer: NoPeer, Root: -1}}
		for s := 0; s < 10; s++ {
			at += int64(100 + 200*r)
			ev = append(ev, Event{Kind: Comm, Op: apt.MPIBarrier, Node: 1, Peer: NoPeer, RPeer: NoPeer, Root: -1, Begin: at, End: at})
		}
		ev = append(ev, Event{Kind: Exit, Node: 0, Peer: NoPeer, RPeer: NoPeer, Root: -1, Begin: at, End: at})
		tr.Ranks[r] = Rank{Events: ev, Finish: at}
	}
	free := Params{Name: "free", S: math.Inf(1)}
	g, err := Schedule(tr, free)
	if err != nil {
		t.Fatal(err)
	}
	rp := NewReplayer(g, free, Measured)
	base, err := rp.Replay(&Options{})
	if err != nil {
		t.Fatal(err)
	}
	if base.Completion != 3000 {
		t.Fatalf("unbalanced: %.1f ns, want 3000", base.Completion)
	}
	for _, region := range []string{"loop", ""} {
		res, steps, err := rp.Balance(region)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.Completion-2000) > 1e-6 || steps != 1 {
			t.Errorf("balance %q: %.1f ns over %d steps, want 2000 over 1", region, res.Completion, steps)
		}
	}
	if _, _, err := rp.Balance("nosuch"); err == nil {
		t.Error("balancing a region the trace does not have was accepted")
	}
}
