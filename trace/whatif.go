package trace

import (
	"fmt"
	"math"
	"sort"
)

// The what-ifs of PerWiz (seed 003 §3-4) over a replayer: each replays the
// trace under one hypothesis and reports the predicted completion time
// against the replay without it.

// ZeroWaitAt replays with the waiting time of every call at the given APT
// nodes zeroed (F2: the calls' partners are assumed to be scheduled early
// enough).
func (rp *Replayer) ZeroWaitAt(nodes []string) (*Result, int, error) {
	t := rp.G.T
	want := map[int32]bool{}
	for _, name := range nodes {
		for i, n := range t.Nodes {
			if n == name {
				want[int32(i)] = true
			}
		}
	}
	zw := make([][]bool, len(t.Ranks))
	count := 0
	for r := range t.Ranks {
		zw[r] = make([]bool, len(t.Ranks[r].Events))
		for i := range t.Ranks[r].Events {
			if e := &t.Ranks[r].Events[i]; e.Kind == Comm && want[e.Node] {
				zw[r][i] = true
				count++
			}
		}
	}
	res, err := rp.Replay(&Options{ZeroWait: zw})
	return res, count, err
}

// steps finds the parallel steps of region node (PerWiz §2.1: the k-th
// execution of the region on every rank): on each rank, the events
// from its k-th Enter to the matching Exit. It returns per rank the event
// ranges [lo, hi) of each step (the computation before events lo+1..hi-1
// and before the Exit is the step's).
func (rp *Replayer) steps(node string) ([][][2]int, error) {
	t := rp.G.T
	idx := int32(-1)
	for i, n := range t.Nodes {
		if n == node {
			idx = int32(i)
		}
	}
	if idx < 0 {
		return nil, fmt.Errorf("region %s: no such node in the trace (regions are timed routines and loop nests)", node)
	}
	out := make([][][2]int, len(t.Ranks))
	for r := range t.Ranks {
		depth, lo := 0, 0
		for i := range t.Ranks[r].Events {
			e := &t.Ranks[r].Events[i]
			if e.Node != idx || e.Kind == Comm {
				continue
			}
			if e.Kind == Enter {
				if depth == 0 {
					lo = i
				}
				depth++
			} else if depth > 0 {
				depth--
				if depth == 0 {
					out[r] = append(out[r], [2]int{lo, i + 1})
				}
			}
		}
	}
	return out, nil
}

// Balance replays with the computation of each parallel step of region
// node spread evenly over the ranks (F2: each rank's computation in the
// step scaled to the step's mean over the ranks). An empty node balances
// the whole run as one step. It returns the replay and the number of steps.
func (rp *Replayer) Balance(node string) (*Result, int, error) {
	t := rp.G.T
	n := len(t.Ranks)
	var ranges [][][2]int
	if node == "" {
		ranges = make([][][2]int, n)
		for r := range t.Ranks {
			ranges[r] = [][2]int{{-1, len(t.Ranks[r].Events) + 1}}
		}
	} else {
		var err error
		if ranges, err = rp.steps(node); err != nil {
			return nil, 0, err
		}
	}
	steps := math.MaxInt
	for r := range ranges {
		steps = min(steps, len(ranges[r]))
	}
	if steps == 0 || steps == math.MaxInt {
		return nil, 0, fmt.Errorf("region %s did not run on every rank", node)
	}
	gap := make([][]float64, n)
	for r := range gap {
		gap[r] = append([]float64(nil), rp.gap[r]...)
	}
	sum := func(r int, s [2]int) float64 {
		c := 0.0
		for i := s[0] + 1; i < s[1]; i++ {
			c += gap[r][i]
		}
		return c
	}
	for k := 0; k < steps; k++ {
		mean := 0.0
		for r := range gap {
			mean += sum(r, ranges[r][k])
		}
		mean /= float64(n)
		for r := range gap {
			s := ranges[r][k]
			c := sum(r, s)
			for i := s[0] + 1; i < s[1]; i++ {
				if c > 0 {
					gap[r][i] *= mean / c
				} else {
					gap[r][i] = mean / float64(s[1]-s[0]-1)
				}
			}
		}
	}
	res, err := rp.Replay(&Options{Gap: gap})
	return res, steps, err
}

// Domino is a domino path (PerWiz F1, seed 003 Fig. 3): waiting calls
// linked by happened-before edges along which one delay topples the next.
type Domino struct {
	// Events are (rank, event) pairs from the last to the first link:
	// each waiting call, followed by the partner call it waited for.
	Events [][2]int32
	// Wait is the waiting time along the path (ns); Trigger is the call
	// whose waiting time, zeroed alone, gains most, and TriggerTime the
	// completion time then; PathTime is the completion time with every
	// wait on the path zeroed.
	Wait        float64
	Trigger     [2]int32
	TriggerTime float64
	PathTime    float64
}

// maxTriggerTrials bounds the replays Domino spends on single candidates.
const maxTriggerTrials = 24

// Domino computes the domino path that ends the run. Like PerWiz it
// backtracks happened-before relations from the last event, following each
// waiting call to the partner it waited for; its candidates are the
// waiting calls on the path that ends last (the critical path: zeroing a
// wait elsewhere cannot shorten the run), and it replays with each of the
// longest waits zeroed alone to find the trigger.
func (rp *Replayer) Domino(base *Result) (*Domino, error) {
	t := rp.G.T
	if base.By == nil {
		return nil, fmt.Errorf("domino: the base replay must be recorded")
	}
	last := 0
	for r := range base.Finish {
		if base.Finish[r] > base.Finish[last] {
			last = r
		}
	}
	d := &Domino{Trigger: [2]int32{-1, -1}}
	r, i := last, len(t.Ranks[last].Events)-1
	seen := map[[2]int32]bool{}
	for i >= 0 {
		if base.Wait[r][i] > 0 {
			k := [2]int32{int32(r), int32(i)}
			if seen[k] {
				break
			}
			seen[k] = true
			p := base.By[r][i]
			d.Events = append(d.Events, k, p)
			d.Wait += base.Wait[r][i]
			r, i = int(p[0]), int(p[1])
			continue
		}
		i--
	}
	if len(d.Events) == 0 {
		d.TriggerTime, d.PathTime = base.Completion, base.Completion
		return d, nil
	}
	zw := make([][]bool, len(t.Ranks))
	for r := range zw {
		zw[r] = make([]bool, len(t.Ranks[r].Events))
	}
	for j := 0; j < len(d.Events); j += 2 {
		zw[d.Events[j][0]][d.Events[j][1]] = true
	}
	res, err := rp.Replay(&Options{ZeroWait: zw})
	if err != nil {
		return nil, err
	}
	d.PathTime = res.Completion
	var cands [][2]int32
	for j := 0; j < len(d.Events); j += 2 {
		cands = append(cands, d.Events[j])
	}
	sort.SliceStable(cands, func(a, b int) bool {
		return base.Wait[cands[a][0]][cands[a][1]] > base.Wait[cands[b][0]][cands[b][1]]
	})
	d.TriggerTime = math.Inf(1)
	for _, c := range cands[:min(len(cands), maxTriggerTrials)] {
		for r := range zw {
			clear(zw[r])
		}
		zw[c[0]][c[1]] = true
		res, err := rp.Replay(&Options{ZeroWait: zw})
		if err != nil {
			return nil, err
		}
		if res.Completion < d.TriggerTime {
			d.TriggerTime, d.Trigger = res.Completion, c
		}
	}
	return d, nil
}

// Bounds are PerWiz's lower bounds on the completion time (F3, seed 003
// §4 and Table 1), from the breakdown of each rank's time alone: no
// replay, so they hold for any schedule of the same work and messages.
type Bounds struct {
	// Replayed is the completion time of the plain replay; NoWait the
	// bound with every waiting time zeroed (Q1), Balanced with the
	// computation also balanced (Q1 and Q2), and BalancedMessages with the
	// communication time balanced too (Q1, Q2 and Q3).
	Replayed, NoWait, Balanced, BalancedMessages float64
	// Compute, Comm and Wait are the per-rank breakdown (ns).
	Compute, Comm, Wait []float64
}

// LowerBounds computes F3's bounds from a recorded replay.
func (rp *Replayer) LowerBounds(base *Result) *Bounds {
	t := rp.G.T
	n := len(t.Ranks)
	b := &Bounds{Replayed: base.Completion, Compute: make([]float64, n), Comm: make([]float64, n), Wait: make([]float64, n)}
	var meanC, meanCM, maxComm, maxCC float64
	for r := range t.Ranks {
		for _, g := range rp.gap[r] {
			b.Compute[r] += g
		}
		for _, o := range rp.own[r] {
			b.Comm[r] += o
		}
		b.Wait[r] = base.Waits[r].Total()
		meanC += b.Compute[r] / float64(n)
		meanCM += (b.Compute[r] + b.Comm[r]) / float64(n)
		maxComm = math.Max(maxComm, b.Comm[r])
		maxCC = math.Max(maxCC, b.Compute[r]+b.Comm[r])
	}
	b.NoWait = maxCC
	b.Balanced = meanC + maxComm
	b.BalancedMessages = meanCM
	return b
}
