package llvmir

import (
	"slices"

	"github.com/llir/llvm/ir"
)

// graph is a function's control-flow graph over block indices, with the
// analyses the structuring needs: dominators (for back edges and loop
// invariance), natural loops and their nesting, and per nesting level the
// post-dominators that give every branch its merge point.
type graph struct {
	blocks []*ir.Block
	index  map[*ir.Block]int
	succ   [][]int
	pred   [][]int
	rpo    []int // reverse postorder of the blocks reachable from the entry
	order  []int // position of each block in rpo, -1 when unreachable
	idom   []int
	loops  []*loop // outermost first (by size, descending)
	// inner is the innermost loop holding each block (nil at top level);
	// header maps a loop header to its loop.
	inner  []*loop
	header map[int]*loop
	// irreducible is set when some retreating edge does not go to a block
	// that dominates its source: control flow no structured form can hold.
	irreducible bool
}

// loop is a natural loop: the blocks that reach a back edge's source
// without passing the header, for all back edges to one header.
type loop struct {
	header  int
	blocks  map[int]bool
	latches []int
	parent  *loop
	// exits are the edges leaving the loop: from a loop block to one outside.
	exits []edge
	// level are the post-dominators of the loop's body with nested loops
	// collapsed (levelPostdom).
	level *levelInfo
}

type edge struct{ from, to int }

func (l *loop) contains(b int) bool { return l != nil && l.blocks[b] }

func targets(t ir.Terminator) []*ir.Block {
	switch t := t.(type) {
	case *ir.TermBr:
		return []*ir.Block{blockOf(t.Target)}
	case *ir.TermCondBr:
		return []*ir.Block{blockOf(t.TargetTrue), blockOf(t.TargetFalse)}
	case *ir.TermInvoke:
		// A C++ call that may throw: the exception's edge to its landing
		// pad is left out (exception handling is not modelled), so the
		// invoke is a call that goes on.
		return []*ir.Block{blockOf(t.NormalRetTarget)}
	case *ir.TermSwitch:
		out := []*ir.Block{blockOf(t.TargetDefault)}
		for _, c := range t.Cases {
			out = append(out, blockOf(c.Target))
		}
		return out
	}
	return nil
}

func blockOf(v any) *ir.Block {
	b, _ := v.(*ir.Block)
	return b
}

func newGraph(f *ir.Func) *graph {
	g := &graph{blocks: f.Blocks, index: map[*ir.Block]int{}, header: map[int]*loop{}}
	n := len(f.Blocks)
	for i, b := range f.Blocks {
		g.index[b] = i
	}
	g.succ, g.pred = make([][]int, n), make([][]int, n)
	for i, b := range f.Blocks {
		for _, t := range targets(b.Term) {
			j, ok := g.index[t]
			if !ok || slices.Contains(g.succ[i], j) {
				continue
			}
			g.succ[i] = append(g.succ[i], j)
			g.pred[j] = append(g.pred[j], i)
		}
	}
	g.rpo, g.order = reversePostorder(n, 0, func(b int) []int { return g.succ[b] })
	if n == 0 {
		return g
	}
	g.idom = dominators(g.rpo, g.order, g.pred, 0)
	g.findLoops()
	return g
}

// reversePostorder numbers the n nodes reachable from root along succ in
// reverse postorder (an explicit stack: deep CFGs must not overflow);
// order is -1 for nodes not reached.
func reversePostorder(n, root int, succ func(int) []int) (rpo, order []int) {
	order = make([]int, n)
	for i := range order {
		order[i] = -1
	}
	if n == 0 {
		return nil, order
	}
	seen := make([]bool, n)
	type frame struct {
		v, next int
		succ    []int
	}
	stack := []frame{{root, 0, succ(root)}}
	seen[root] = true
	var post []int
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(top.succ) {
			s := top.succ[top.next]
			top.next++
			if !seen[s] {
				seen[s] = true
				stack = append(stack, frame{s, 0, succ(s)})
			}
			continue
		}
		post = append(post, top.v)
		stack = stack[:len(stack)-1]
	}
	for i := len(post) - 1; i >= 0; i-- {
		order[post[i]] = len(rpo)
		rpo = append(rpo, post[i])
	}
	return rpo, order
}

// dominators computes immediate dominators by the iterative algorithm of
// Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm"): nodes in
// reverse postorder, intersecting the dominators of processed predecessors.
// Unreachable nodes get -1; the root is its own dominator.
func dominators(rpo, order []int, pred [][]int, root int) []int {
	idom := make([]int, len(order))
	for i := range idom {
		idom[i] = -1
	}
	idom[root] = root
	intersect := func(a, b int) int {
		for a != b {
			for order[a] > order[b] {
				a = idom[a]
			}
			for order[b] > order[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for _, b := range rpo {
			if b == root {
				continue
			}
			nd := -1
			for _, p := range pred[b] {
				if p < 0 || p >= len(order) || order[p] < 0 || idom[p] < 0 {
					continue
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd >= 0 && idom[b] != nd {
				idom[b], changed = nd, true
			}
		}
	}
	return idom
}

// dominates reports whether a dominates b.
func (g *graph) dominates(a, b int) bool {
	if g.order[b] < 0 {
		return false
	}
	for {
		if a == b {
			return true
		}
		if g.idom[b] == b || g.idom[b] < 0 {
			return false
		}
		b = g.idom[b]
	}
}

func (g *graph) findLoops() {
	n := len(g.blocks)
	g.inner = make([]*loop, n)
	for _, b := range g.rpo {
		for _, s := range g.succ[b] {
			if g.order[s] > g.order[b] {
				continue // forward edge
			}
			if !g.dominates(s, b) {
				g.irreducible = true
				continue
			}
			l := g.header[s]
			if l == nil {
				l = &loop{header: s, blocks: map[int]bool{s: true}}
				g.header[s] = l
				g.loops = append(g.loops, l)
			}
			l.latches = append(l.latches, b)
			// The body: everything reaching the latch without the header.
			work := []int{b}
			for len(work) > 0 {
				x := work[len(work)-1]
				work = work[:len(work)-1]
				if l.blocks[x] {
					continue
				}
				l.blocks[x] = true
				for _, p := range g.pred[x] {
					if g.order[p] >= 0 {
						work = append(work, p)
					}
				}
			}
		}
	}
	// Nesting: a loop's parent is the smallest loop holding its header.
	slices.SortStableFunc(g.loops, func(a, b *loop) int { return len(b.blocks) - len(a.blocks) })
	for i, l := range g.loops {
		for j := i - 1; j >= 0; j-- {
			if g.loops[j].blocks[l.header] && g.loops[j] != l {
				l.parent = g.loops[j]
				break
			}
		}
		for b := range l.blocks {
			if g.inner[b] == nil || len(g.inner[b].blocks) > len(l.blocks) {
				g.inner[b] = l
			}
		}
	}
	for _, l := range g.loops {
		for b := range l.blocks {
			for _, s := range g.succ[b] {
				if !l.blocks[s] {
					l.exits = append(l.exits, edge{b, s})
				}
			}
		}
		slices.SortFunc(l.exits, func(a, b edge) int {
			if a.from != b.from {
				return g.order[a.from] - g.order[b.from]
			}
			return a.to - b.to
		})
	}
}

// levelInfo is one nesting level (the function's top level or a loop's
// body) with its nested loops collapsed into their headers: every edge
// that leaves the level or goes back to its header goes to the sink. The
// collapsed graph is acyclic, and its post-dominators give each branch the
// block where its arms meet again.
type levelInfo struct {
	sink  int
	ipdom map[int]int
}

// rep maps block b to its representative at the level of loop l (nil: the
// top level): the header of the outermost loop inside l holding b, b itself
// when no nested loop holds it, or sink when b is outside l or is l's header.
func (g *graph) rep(l *loop, b, sink int) int {
	if l != nil && (!l.blocks[b] || b == l.header) {
		return sink
	}
	r := b
	for x := g.inner[b]; x != nil && x != l; x = x.parent {
		r = x.header
	}
	return r
}

// levelSuccs are the successors of the representative r at level l.
func (g *graph) levelSuccs(l *loop, r, sink int) []int {
	var out []int
	add := func(s int) {
		if s = g.rep(l, s, sink); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if x := g.header[r]; x != nil && x != l {
		for _, e := range x.exits {
			add(e.to)
		}
		return out
	}
	for _, s := range g.succ[r] {
		if l != nil && s == l.header {
			add(sink)
			continue
		}
		add(s)
	}
	return out
}

// levelPostdom computes the immediate post-dominators at level l from the
// level's entry (the header's body, or block 0 at the top level).
func (g *graph) levelPostdom(l *loop) *levelInfo {
	n := len(g.blocks)
	sink := n
	info := &levelInfo{sink: sink, ipdom: map[int]int{}}
	entry := 0
	if l != nil {
		entry = l.header
	}
	// Nodes of the level reachable from its entry; edges reversed.
	nodes := []int{}
	seen := map[int]bool{}
	succs := map[int][]int{}
	stack := []int{entry}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		nodes = append(nodes, x)
		if x == sink {
			continue
		}
		var ss []int
		if x == entry && l != nil {
			for _, s := range g.succ[x] {
				ss = appendUnique(ss, g.rep(l, s, sink))
			}
		} else {
			ss = g.levelSuccs(l, x, sink)
		}
		if len(ss) == 0 {
			ss = []int{sink} // a return or unreachable ends the level
		}
		succs[x] = ss
		stack = append(stack, ss...)
	}
	if !seen[sink] {
		nodes = append(nodes, sink)
		seen[sink] = true
	}
	// Reverse graph: postorder from the sink over predecessor edges.
	preds := map[int][]int{}
	for _, x := range nodes {
		for _, s := range succs[x] {
			preds[s] = append(preds[s], x)
		}
	}
	ids := map[int]int{}
	for i, x := range nodes {
		ids[x] = i
	}
	m := len(nodes)
	rpred := make([][]int, m) // predecessors in the reverse graph = successors
	for _, x := range nodes {
		for _, s := range succs[x] {
			rpred[ids[x]] = append(rpred[ids[x]], ids[s])
		}
	}
	rpo, order := reversePostorder(m, ids[sink], func(v int) []int {
		ps := preds[nodes[v]]
		out := make([]int, len(ps))
		for i, p := range ps {
			out[i] = ids[p]
		}
		return out
	})
	idom := dominators(rpo, order, rpred, ids[sink])
	for i, x := range nodes {
		if idom[i] >= 0 && x != sink {
			info.ipdom[x] = nodes[idom[i]]
		}
	}
	return info
}

func appendUnique(s []int, x int) []int {
	if slices.Contains(s, x) {
		return s
	}
	return append(s, x)
}
