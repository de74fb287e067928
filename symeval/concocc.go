package symeval

import (
	"fmt"
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval/concrete"
)

// concOccs gives the nodes of r that the runs (ctxs, one per rank)
// executed their occurrences under o, the call's: one per group of ranks
// with equal counts, in the call's domain under the ranks' condition with
// the count as its factor. Every count is of the whole call, so the
// domains hold no loop variable.
func (ev *evaluator) concOccs(r *apt.Routine, o *Occ, runs []*concRank) bool {
	ctxs := make([]*concrete.Context, len(runs))
	for i, run := range runs {
		if run != nil { // (a rank the path does not hold on)
			ctxs[i] = run.ctx
		}
	}
	ev.concRoutine(r, o, ctxs, ev.cur.domain(), ev.loopDepth)
	return ev.err == nil
}

// concRoutine adds the occurrence of routine r called under parent, and
// of its nodes, from each rank's context.
func (ev *evaluator) concRoutine(r *apt.Routine, parent *Occ, ctxs []*concrete.Context, base *Domain, depth int) {
	calls := make([]int64, len(ctxs))
	for i, c := range ctxs {
		if c != nil {
			calls[i] = c.Calls
		}
	}
	// A routine's occurrence is its caller's, as callRoutine makes it.
	caller := r
	if parent != nil {
		caller = parent.Routine
	}
	ro := ev.concOcc(caller, r, parent, base, calls, depth)
	if ro == nil {
		return
	}
	ev.concNodes(r, r.Body, ro, ctxs, base, depth)
}

// concNodes adds the occurrences of nodes (of routine r) and those
// within them.
func (ev *evaluator) concNodes(r *apt.Routine, nodes []apt.Node, parent *Occ, ctxs []*concrete.Context, base *Domain, depth int) {
	for _, n := range nodes {
		exec := make([]int64, len(ctxs))
		for i, c := range ctxs {
			if c != nil {
				exec[i] = c.Exec[n]
			}
		}
		no := ev.concOcc(r, n, parent, base, exec, depth)
		if no == nil {
			continue
		}
		switch n := n.(type) {
		case *apt.Loop:
			iters := make([]int64, len(ctxs))
			for i, c := range ctxs {
				if c != nil {
					iters[i] = c.Iter[n]
				}
			}
			no.Iters = ev.concDomains(base, iters)
			ev.concNodes(r, n.Body, no, ctxs, base, depth+1)
		case *apt.If:
			for _, br := range n.Branches {
				ev.concNodes(r, []apt.Node{br}, no, ctxs, base, depth)
			}
		case *apt.Branch:
			ev.concNodes(r, n.Body, no, ctxs, base, depth)
		case *apt.Block:
			ev.concSizes(n, no, ctxs, exec)
		}
		// The routines this node calls (a CALL, or functions its
		// statements or its control expressions reference).
		for _, s := range ev.concSites(n, ctxs) {
			ev.concCallee(s, no, ctxs, base, depth)
		}
	}
}

// concSites are the call sites at node n in any rank's context.
func (ev *evaluator) concSites(n apt.Node, ctxs []*concrete.Context) []concrete.Site {
	var sites []concrete.Site
	for _, c := range ctxs {
		if c == nil {
			continue
		}
		for _, s := range c.Sites() {
			if s.Node == n && !slices.Contains(sites, s) {
				sites = append(sites, s)
			}
		}
	}
	return sites
}

// concCallee adds the occurrences of the routine called at site s, under
// the caller's node occurrence no.
func (ev *evaluator) concCallee(s concrete.Site, no *Occ, ctxs []*concrete.Context, base *Domain, depth int) {
	kids := make([]*concrete.Context, len(ctxs))
	for i, c := range ctxs {
		if c != nil {
			kids[i] = c.Children[s]
		}
	}
	ev.concRoutine(s.Callee, no, kids, base, depth)
}

// concSizes gives a block's array statements their element counts per
// execution, rank by rank.
func (ev *evaluator) concSizes(b *apt.Block, o *Occ, ctxs []*concrete.Context, exec []int64) {
	for i, st := range b.Stmts {
		groups := newRankGroups(int64(len(ctxs)))
		any := false
		for r, c := range ctxs {
			if c == nil || exec[r] == 0 {
				continue
			}
			n := c.Elems[st]
			if n == 0 {
				continue
			}
			any = true
			groups.of(symbolic.Const(symbolic.RatInt(n).Quo(symbolic.RatInt(exec[r])))).ranks[r] = true
		}
		if !any {
			continue
		}
		alts, ok := groups.alts(ev)
		if !ok {
			continue
		}
		if o.Sizes == nil {
			o.Sizes = make([]*Value, len(b.Stmts))
		}
		v := Value{Alts: alts}
		o.Sizes[i] = &v
	}
}

// concOcc adds the occurrences of node n (of routine r) run counts[rank]
// times, one per group of ranks with the same count; it returns the
// first, under which the nodes inside are put (their domains are whole,
// not relative to it), nil where no rank ran it.
func (ev *evaluator) concOcc(r *apt.Routine, n apt.Node, parent *Occ, base *Domain, counts []int64, depth int) *Occ {
	var first *Occ
	for _, d := range ev.concDomains(base, counts) {
		ev.noccs++
		ev.visits++
		if ev.noccs > ev.maxOccs && ev.err == nil {
			ev.err = fmt.Errorf("%w (more than %d node occurrences)", ErrTooLarge, ev.maxOccs)
		}
		o := &Occ{Node: n, Routine: r, Parent: parent, Dom: d, Depth: depth}
		switch {
		case ev.cur.inexact != "":
			// The call's own path rests on an approximation.
			o.Inexact, o.Note = true, ev.cur.inexact
		case ev.skipped != "":
			o.Inexact, o.Note = true, ev.skipped
		}
		if parent != nil {
			parent.Children = append(parent.Children, o)
		}
		if first == nil {
			first = o
		}
	}
	return first
}

// concDomains is base with, for each group of ranks with the same count
// (not zero), the ranks' condition and the count as its factor; one
// domain with no condition where every rank has the same.
func (ev *evaluator) concDomains(base *Domain, counts []int64) []*Domain {
	byCount := map[int64][]bool{}
	var order []int64
	for r, c := range counts {
		if c == 0 {
			continue
		}
		if byCount[c] == nil {
			byCount[c] = make([]bool, len(counts))
			order = append(order, c)
		}
		byCount[c][r] = true
	}
	var out []*Domain
	for _, c := range order {
		d := &Domain{Vars: base.Vars, Cond: base.Cond, Factor: base.Factor}
		f := symbolic.Int(c)
		if d.Factor.NumTerms() > 0 {
			f = d.Factor.Mul(f)
		}
		d.Factor = f
		if !slices.Contains(byCount[c], false) {
			out = append(out, d)
			continue
		}
		d.Cond = append(slices.Clone(base.Cond), rankRanges(byCount[c]))
		out = append(out, d)
	}
	return out
}
