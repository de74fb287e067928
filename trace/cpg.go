package trace

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// PhaseType classifies a communication phase (MK, seed 000 §3).
type PhaseType string

// Phase types: MK's synchronous phases (an exchange, where every pair
// also goes the other way, or a shift) and asynchronous pipelines, and the
// collectives MK's GLOBAL nodes stand for.
const (
	Exchange   PhaseType = "exchange"
	Shift      PhaseType = "shift"
	Pipeline   PhaseType = "pipeline"
	Collective PhaseType = "collective"
)

// Phase is one communication phase of the CPG: a connected component of
// call points linked by matched messages.
type Phase struct {
	Type PhaseType `json:"type"`
	// Calls are the APT node IDs of its call points; Ancestor the
	// nearest common ancestor of them in the APT (from the IDs' paths).
	Calls    []string `json:"calls"`
	Ancestor string   `json:"ancestor"`
	// SL and RL are the ranks that send and receive (MK's SL(g), RL(g));
	// Pairs the distinct (sender, receiver) pairs.
	SL    []int32    `json:"senders"`
	RL    []int32    `json:"receivers"`
	Pairs [][2]int32 `json:"pairs"`
	// Async is MK's flag: some rank received in the phase before it first
	// sent. Depth is the longest chain of pairs (messages passed on from
	// rank to rank), a pipeline's fill depth D(g); it is given for every
	// point-to-point phase, so that a phase that is a pipeline only at
	// some P (two ranks have no rank in the middle) fits over P.
	Async bool `json:"async"`
	// Wavefront is set for a pipeline over two directions of a process
	// grid (merged from one phase per direction).
	Wavefront bool  `json:"wavefront,omitempty"`
	Depth     int   `json:"depth"`
	Messages  int64 `json:"messages"`
	Bytes     int64 `json:"bytes"`
	// Time is the summed duration of the phase's calls over all ranks
	// (ns), its share of the communication.
	Time float64 `json:"time_ns"`
}

// CPG builds MK's communication phase graph from a matched trace, as MK's
// Fig. 2 describes: (1) an edge between the call points of every matched
// send and receive; (2) phases are the connected components; (3) a pass
// over the events in time order records each phase's senders, receivers
// and pairs, and marks it asynchronous when a rank sends in it after having
// received in it without having sent before; (4) each phase's APT ancestor;
// (5) a pipeline's depth is the longest chain of its pairs. Collective
// call points are phases of their own.
func CPG(g *Graph) []Phase {
	t := g.T
	// Step 1: union-find over call points.
	parent := make([]int32, len(t.Nodes))
	for i := range parent {
		parent[i] = int32(i)
	}
	var find func(x int32) int32
	find = func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	isComm := make([]bool, len(t.Nodes))
	isColl := make([]bool, len(t.Nodes))
	for r := range t.Ranks {
		for i := range t.Ranks[r].Events {
			e := &t.Ranks[r].Events[i]
			if e.Kind == Comm && (e.isSend() || e.isRecv()) {
				isComm[e.Node] = true
			}
			if e.Kind == Comm && e.Op.IsCollective() {
				isColl[e.Node] = true
			}
		}
	}
	for _, m := range g.Msgs {
		if m.RecvIdx < 0 {
			continue
		}
		a := find(t.Ranks[m.Src].Events[m.SendIdx].Node)
		b := find(t.Ranks[m.Dst].Events[m.RecvIdx].Node)
		if a != b {
			parent[a] = b
		}
	}
	// Step 2: components.
	var compOf map[int32]int
	var phases []Phase
	components := func() {
		compOf = map[int32]int{}
		phases = phases[:0]
		for n := range t.Nodes {
			if !isComm[n] && !isColl[n] {
				continue
			}
			root := find(int32(n))
			if isColl[n] {
				root = int32(n) // collectives stand alone
			}
			c, ok := compOf[root]
			if !ok {
				c = len(phases)
				compOf[root] = c
				phases = append(phases, Phase{Type: Shift})
				if isColl[n] {
					phases[c].Type = Collective
				}
			}
			phases[c].Calls = append(phases[c].Calls, t.Nodes[n])
		}
	}
	components()
	phaseOf := func(node int32) int {
		if isColl[node] {
			return compOf[node]
		}
		return compOf[find(node)]
	}
	// The events in time order.
	type ref struct {
		begin int64
		r, i  int32
	}
	var order []ref
	for r := range t.Ranks {
		for i := range t.Ranks[r].Events {
			e := &t.Ranks[r].Events[i]
			if e.Kind == Comm && (e.isSend() || e.isRecv() || e.Op.IsCollective()) {
				// A nonblocking receive receives when its wait
				// completes: that is when the data can be passed on.
				at := e.Begin
				if w := g.WaitOf[r][i]; w >= 0 && e.Op == apt.MPIIrecv {
					at = t.Ranks[r].Events[w].End
				}
				order = append(order, ref{at, int32(r), int32(i)})
			}
		}
	}
	sort.Slice(order, func(a, b int) bool {
		if order[a].begin != order[b].begin {
			return order[a].begin < order[b].begin
		}
		return order[a].r < order[b].r
	})
	// A wavefront (seed 002) is a pipeline along two directions of a
	// process grid: a rank receives from one direction and then sends in
	// the other, so that each direction alone, a phase of its own, may
	// show no rank that receives before it sends (a 2x2 grid). Phases
	// under one APT ancestor between which ranks pass data on that way (a
	// blocking receive in one, the rank's next send in the other) are
	// merged into one; MK's footnote also treats phases of adjacent
	// siblings together.
	anc := make([]string, len(phases))
	for k := range phases {
		anc[k] = commonAncestor(phases[k].Calls)
	}
	nodeOf := make(map[string]int32, len(t.Nodes))
	for i, n := range t.Nodes {
		nodeOf[n] = int32(i)
	}
	before := map[int32]int{} // call point -> its component before merging
	for n := range t.Nodes {
		if isComm[n] && !isColl[n] {
			before[int32(n)] = phaseOf(int32(n))
		}
	}
	lastRecv := make([]int, len(t.Ranks))
	for r := range lastRecv {
		lastRecv[r] = -1
	}
	merged := false
	for _, o := range order {
		e := &t.Ranks[o.r].Events[o.i]
		if e.Op.IsCollective() {
			lastRecv[o.r] = -1
			continue
		}
		k := before[e.Node]
		if e.isSend() {
			if a := lastRecv[o.r]; a >= 0 && a != k && anc[a] == anc[k] {
				x, y := find(nodeOf[phases[a].Calls[0]]), find(nodeOf[phases[k].Calls[0]])
				if x != y {
					parent[x] = y
					merged = true
				}
			}
			lastRecv[o.r] = -1
		}
		if e.isRecv() && e.Op.IsBlocking() {
			lastRecv[o.r] = k
		}
	}
	wave := map[int]bool{}
	if merged {
		components()
		for k := range phases {
			seen := map[int]bool{}
			for _, c := range phases[k].Calls {
				if b, ok := before[nodeOf[c]]; ok {
					seen[b] = true
				}
			}
			wave[k] = len(seen) > 1
		}
	}
	// Step 3: senders, receivers, pairs and the async flag, in time order.
	type sets struct{ sl, rl map[int32]bool }
	st := make([]sets, len(phases))
	pairs := make([]map[[2]int32]bool, len(phases))
	for k := range st {
		st[k] = sets{map[int32]bool{}, map[int32]bool{}}
		pairs[k] = map[[2]int32]bool{}
	}
	for _, o := range order {
		e := &t.Ranks[o.r].Events[o.i]
		k := phaseOf(e.Node)
		ph := &phases[k]
		ph.Time += float64(e.End - e.Begin)
		p := o.r
		if e.Op.IsCollective() {
			st[k].sl[p] = true
			ph.Messages++
			ph.Bytes += e.Bytes
			continue
		}
		if e.isSend() {
			if !st[k].sl[p] && st[k].rl[p] {
				ph.Async = true
			}
			st[k].sl[p] = true
			pairs[k][[2]int32{p, e.Peer}] = true
			ph.Messages++
			ph.Bytes += e.Bytes
		}
		if e.isRecv() {
			st[k].rl[p] = true
			if e.RPeer >= 0 {
				pairs[k][[2]int32{e.RPeer, p}] = true
			}
		}
	}
	for k := range phases {
		ph := &phases[k]
		ph.SL, ph.RL = keys(st[k].sl), keys(st[k].rl)
		for pr := range pairs[k] {
			ph.Pairs = append(ph.Pairs, pr)
		}
		slices.SortFunc(ph.Pairs, func(a, b [2]int32) int {
			if a[0] != b[0] {
				return int(a[0] - b[0])
			}
			return int(a[1] - b[1])
		})
		slices.Sort(ph.Calls)
		ph.Ancestor = commonAncestor(ph.Calls)
		if ph.Type == Collective {
			continue
		}
		// Step 5, and the synchronous kinds: an exchange when every
		// pair goes both ways.
		ph.Depth = longestChain(ph.Pairs)
		switch {
		case ph.Async || wave[k]:
			ph.Type = Pipeline
			ph.Wavefront = wave[k]
		case symmetric(pairs[k]):
			ph.Type = Exchange
		}
	}
	phases = pairExchanges(phases)
	sort.SliceStable(phases, func(a, b int) bool { return phases[a].Time > phases[b].Time })
	return phases
}

// pairExchanges merges two shifts under one APT ancestor whose pairs are
// each other's reverse into one exchange: a boundary exchange whose two
// directions use different call points (send north, receive from south;
// send south, receive from north) is one synchronous phase.
func pairExchanges(phases []Phase) []Phase {
	reversed := func(a, b *Phase) bool {
		if len(a.Pairs) != len(b.Pairs) || len(a.Pairs) == 0 {
			return false
		}
		set := map[[2]int32]bool{}
		for _, p := range a.Pairs {
			set[[2]int32{p[1], p[0]}] = true
		}
		for _, p := range b.Pairs {
			if !set[p] {
				return false
			}
		}
		return true
	}
	gone := make([]bool, len(phases))
	for i := range phases {
		a := &phases[i]
		if gone[i] || a.Type != Shift {
			continue
		}
		for j := i + 1; j < len(phases); j++ {
			b := &phases[j]
			if gone[j] || b.Type != Shift || b.Ancestor != a.Ancestor || !reversed(a, b) {
				continue
			}
			a.Type = Exchange
			a.Calls = append(a.Calls, b.Calls...)
			slices.Sort(a.Calls)
			a.SL = union(a.SL, b.SL)
			a.RL = union(a.RL, b.RL)
			a.Pairs = append(a.Pairs, b.Pairs...)
			slices.SortFunc(a.Pairs, func(x, y [2]int32) int {
				if x[0] != y[0] {
					return int(x[0] - y[0])
				}
				return int(x[1] - y[1])
			})
			a.Messages += b.Messages
			a.Bytes += b.Bytes
			a.Time += b.Time
			gone[j] = true
			break
		}
	}
	out := phases[:0]
	for i := range phases {
		if !gone[i] {
			out = append(out, phases[i])
		}
	}
	return out
}

func union(a, b []int32) []int32 {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

func keys(m map[int32]bool) []int32 {
	out := make([]int32, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func symmetric(p map[[2]int32]bool) bool {
	for pr := range p {
		if !p[[2]int32{pr[1], pr[0]}] {
			return false
		}
	}
	return len(p) > 0
}

// longestChain is the number of pairs in the longest chain r0 -> r1 -> ...
// of pairs (MK's D(g)). When the pairs form a cycle (a wavefront's sweeps
// forward and back, a ring), the chain is the longest that keeps one
// direction through the ranks, increasing or decreasing: a sweep's depth.
func longestChain(pairs [][2]int32) int {
	if d, ok := longestPath(pairs); ok {
		return d
	}
	var up, down [][2]int32
	for _, p := range pairs {
		if p[1] > p[0] {
			up = append(up, p)
		} else if p[1] < p[0] {
			down = append(down, p)
		}
	}
	a, _ := longestPath(up)
	b, _ := longestPath(down)
	return max(a, b)
}

// longestPath returns the longest path in the graph of pairs, and false
// when the graph has a cycle.
func longestPath(pairs [][2]int32) (int, bool) {
	adj := map[int32][]int32{}
	for _, p := range pairs {
		adj[p[0]] = append(adj[p[0]], p[1])
	}
	const (
		white = iota
		grey
		black
	)
	color := map[int32]int{}
	memo := map[int32]int{}
	acyclic := true
	var dfs func(v int32) int
	dfs = func(v int32) int {
		switch color[v] {
		case grey:
			acyclic = false
			return 0
		case black:
			return memo[v]
		}
		color[v] = grey
		best := 0
		for _, w := range adj[v] {
			best = max(best, 1+dfs(w))
		}
		color[v] = black
		memo[v] = best
		return best
	}
	best := 0
	for _, p := range pairs {
		best = max(best, dfs(p[0]))
	}
	return best, acyclic
}

// commonAncestor returns the longest common prefix of APT node IDs by path
// component: the nearest common ancestor in the APT, whose IDs are paths
// from the routine down (MK's Anc(g)).
func commonAncestor(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	parts := strings.Split(ids[0], "/")
	for _, id := range ids[1:] {
		q := strings.Split(id, "/")
		n := 0
		for n < len(parts) && n < len(q) && parts[n] == q[n] {
			n++
		}
		parts = parts[:n]
	}
	if len(ids) == 1 && len(parts) > 1 {
		parts = parts[:len(parts)-1] // a call point's ancestor is its parent
	}
	if len(parts) == 0 {
		// Call points in several routines: their nearest common
		// ancestor is in the callers, which the IDs do not show; name
		// the routines.
		var rs []string
		for _, id := range ids {
			r, _, _ := strings.Cut(id, "/")
			if !slices.Contains(rs, r) {
				rs = append(rs, r)
			}
		}
		slices.Sort(rs)
		return "{" + strings.Join(rs, ",") + "}"
	}
	return strings.Join(parts, "/")
}

// String formats a phase on one line.
func (ph *Phase) String() string {
	s := fmt.Sprintf("%-10s at %s: %d calls, senders %v, receivers %v, %d messages, %d B",
		ph.Type, ph.Ancestor, len(ph.Calls), ph.SL, ph.RL, ph.Messages, ph.Bytes)
	if ph.Type == Pipeline {
		s += fmt.Sprintf(", depth %d", ph.Depth)
	}
	return s
}
