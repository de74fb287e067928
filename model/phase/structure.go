package phase

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval"
)

// chainDepth returns the number of ranks on the longest chain of messages
// of g at a sample (MK's D(g), seed 000 Fig. 2 step 5): edges go from a
// sending rank to the rank its peer names there, when that rank receives in
// g. 0 when g has no traffic at the sample.
func (a *Analysis) chainDepth(g *Phase, smp *Sample) (int, error) {
	recv := map[int64]bool{}
	for _, r := range g.Receivers[smp.P] {
		recv[r] = true
	}
	succ := map[int64][]int64{}
	for _, s := range g.Sends {
		if s.Offset == nil && s.Fixed == nil {
			continue
		}
		msgs, err := smp.perRank(s.Messages)
		if err != nil {
			return 0, err
		}
		peers, err := smp.perRank(symbolic.PiecewiseOf(*s.Peer))
		if err != nil {
			return 0, err
		}
		for r := range msgs {
			if msgs[r].Sign() <= 0 || !peers[r].IsInt() {
				continue
			}
			t, _ := peers[r].Int64()
			if recv[t] && t != int64(r) && !slices.Contains(succ[int64(r)], t) {
				succ[int64(r)] = append(succ[int64(r)], t)
			}
		}
	}
	if len(succ) == 0 {
		return 0, nil
	}
	memo := map[int64]int{}
	onPath := map[int64]bool{}
	var longest func(r int64) int
	longest = func(r int64) int {
		if d, ok := memo[r]; ok {
			return d
		}
		if onPath[r] {
			return 0 // a ring: the chain ends where it started
		}
		onPath[r] = true
		best := 1
		for _, t := range succ[r] {
			best = max(best, 1+longest(t))
		}
		onPath[r] = false
		memo[r] = best
		return best
	}
	d := 0
	for r := range succ {
		d = max(d, longest(r))
	}
	return d, nil
}

// depth fits the chain depth of a pipeline to a closed form in P and the
// parameters its offset and guards mention.
func (a *Analysis) depth(g *Phase) {
	type obs struct {
		s *Sample
		d int
	}
	var seen []obs
	for _, smp := range a.samples {
		d, err := a.chainDepth(g, smp)
		if err != nil {
			g.DepthFit = fmt.Sprintf("chain not derived: %v", err)
			return
		}
		g.Depths[smp.P] = d
		if d > 0 {
			seen = append(seen, obs{smp, d})
		}
	}
	if len(seen) == 0 {
		g.DepthFit = "no chain at any sample"
		return
	}
	fits := func(c symbolic.Expr, from int64) (int, bool) {
		n := 0
		for _, o := range seen {
			if o.s.P < from {
				continue
			}
			v, err := o.s.at(symbolic.PiecewiseOf(c))
			if err != nil || !v.Equal(symbolic.RatInt(int64(o.d))) {
				return n, false
			}
			n++
		}
		return n, n >= 2
	}
	cands := a.depthCandidates(g)
	ps := func(from int64) string {
		var out []string
		for _, o := range seen {
			if o.s.P >= from {
				out = append(out, fmt.Sprint(o.s.P))
			}
		}
		return strings.Join(out, ", ")
	}
	for _, from := range []int64{0, 4} {
		for _, c := range cands {
			if _, ok := fits(c, from); ok {
				g.Depth = c
				g.DepthFit = fmt.Sprintf("D = %v ranks (%v hops), equal to the longest chain at P = %s", c, c.Sub(symbolic.Int(1)), ps(from))
				if from > 0 {
					g.DepthFit += fmt.Sprintf(" (not below P = %d)", from)
				}
				return
			}
		}
	}
	last := seen[len(seen)-1]
	g.Depth = symbolic.Int(int64(last.d))
	g.DepthFit = fmt.Sprintf("no closed form in P fits the chains; D = %d, its value at P = %d, is used at every P", last.d, last.s.P)
}

// depthCandidates lists the closed forms tried for a chain depth: P, P/2
// and the parameters the phase mentions, each shifted by -2..2, then
// small constants.
func (a *Analysis) depthCandidates(g *Phase) []symbolic.Expr {
	P := symbolic.Sym(cost.Size)
	bases := []symbolic.Expr{P, symbolic.Floor(P.Div(symbolic.Int(2))), symbolic.Floor(P.Add(symbolic.Int(1)).Div(symbolic.Int(2)))}
	var syms []string
	note := func(e symbolic.Expr) {
		for _, s := range e.Symbols() {
			if s != cost.Size && s != cost.Rank && !slices.Contains(syms, s) {
				syms = append(syms, s)
			}
		}
	}
	if g.Offset != nil {
		note(*g.Offset)
	}
	for _, s := range g.Sends {
		for _, p := range s.Messages.Pieces {
			for _, r := range p.Guard {
				note(r.E)
			}
		}
	}
	slices.Sort(syms)
	// A chain along an offset x steps through multiples of x: P/x ranks.
	// Other symbols may bound a chain themselves (a row of px ranks).
	var along []symbolic.Expr
	for _, s := range syms {
		x := symbolic.Sym(s)
		if g.Offset != nil && g.Offset.Has(s) {
			along = append(along, symbolic.Floor(P.Div(x)))
		}
	}
	bases = append(along, bases...)
	for _, s := range syms {
		x := symbolic.Sym(s)
		bases = append(bases, x, symbolic.Floor(P.Div(x)))
	}
	var out []symbolic.Expr
	for _, b := range bases {
		for _, c := range []int64{0, -1, 1, -2, 2} {
			out = append(out, b.Add(symbolic.Int(c)))
		}
	}
	for c := int64(1); c <= 4; c++ {
		out = append(out, symbolic.Int(c))
	}
	return out
}

// wavefronts finds pairs of pipelines that form a 2D sweep: different
// offsets, one loop body, both receives before both sends.
func (a *Analysis) wavefronts() {
	var pipes []*Phase
	for _, g := range a.Phases {
		if g.Kind == Pipeline && g.Offset != nil {
			pipes = append(pipes, g)
		}
	}
	used := map[*Phase]bool{}
	for i, x := range pipes {
		for _, y := range pipes[i+1:] {
			if used[x] || used[y] || x.Offset.Equal(*y.Offset) {
				continue
			}
			all := append(append(append(append([]*Side(nil), x.Sends...), x.Recvs...), y.Sends...), y.Recvs...)
			anc := commonLoop(all)
			if anc == nil {
				continue
			}
			lastRecv, firstSend := -1, -1
			var firstR, lastS *Side
			for _, s := range all {
				if s.Send {
					if firstSend < 0 || s.order < firstSend {
						firstSend = s.order
					}
					if lastS == nil || s.order > lastS.order {
						lastS = s
					}
				} else {
					lastRecv = max(lastRecv, s.order)
					if firstR == nil || s.order < firstR.order {
						firstR = s
					}
				}
			}
			if lastRecv >= firstSend {
				continue
			}
			xx, yy := x, y
			if y.Recvs[0].order < x.Recvs[0].order {
				xx, yy = y, x
			}
			w := &Wavefront{Name: fmt.Sprintf("wavefront L%d", firstR.Pos().Line), X: xx, Y: yy}
			w.Overlapped = a.between(firstR.Occ, lastS.Occ)
			for _, n := range w.Overlapped {
				w.Work = w.Work.Add(n.Work)
			}
			a.Wavefronts = append(a.Wavefronts, w)
			used[x], used[y] = true, true
		}
	}
}

// commonLoop returns the nearest loop occurrence enclosing every side, nil
// when they have none in common.
func commonLoop(ss []*Side) *symeval.Occ {
	var path []*symeval.Occ
	for i, s := range ss {
		p := occPath(s.Occ)
		if i == 0 {
			path = p
			continue
		}
		k := 0
		for k < len(path) && k < len(p) && path[k] == p[k] {
			k++
		}
		path = path[:k]
	}
	for k := len(path) - 1; k >= 0; k-- {
		if _, ok := path[k].Node.(*apt.Loop); ok {
			return path[k]
		}
	}
	return nil
}

// Step is one term of MK's composition of phases (seed 000 §4.1,
// Complexity(V)): a phase alone, two consecutive independent phases that
// overlap (their time is the larger of the two), or a wavefront.
type Step struct {
	Phases    []*Phase
	Overlap   *Overlap   // for two phases
	Wavefront *Wavefront // for a wavefront (Phases then holds its two pipelines)
}

// Name returns the step's name for tables: the phase's, "A | B" for an
// overlapped pair, or the wavefront's.
func (st *Step) Name() string {
	if st.Wavefront != nil {
		return st.Wavefront.Name
	}
	if len(st.Phases) == 2 {
		return st.Phases[0].Name + " | " + st.Phases[1].Name
	}
	return st.Phases[0].Name
}

// Steps returns MK's composition of the phases in program order: a
// wavefront's pipelines form one unit; then consecutive units whose first
// one's receivers send nothing in the second overlap, pairwise, as in MK's
// Complexity(V) loop.
func (a *Analysis) Steps() []*Step { return a.steps }

func (a *Analysis) overlaps() {
	var units []*Step
	inWave := map[*Phase]*Wavefront{}
	for _, w := range a.Wavefronts {
		inWave[w.X], inWave[w.Y] = w, w
	}
	done := map[*Wavefront]bool{}
	for _, g := range a.Phases {
		if w := inWave[g]; w != nil {
			if !done[w] {
				done[w] = true
				units = append(units, &Step{Phases: []*Phase{w.X, w.Y}, Wavefront: w})
			}
			continue
		}
		units = append(units, &Step{Phases: []*Phase{g}})
	}
	for i := 0; i < len(units); i++ {
		u := units[i]
		if i+1 < len(units) && u.Wavefront == nil && units[i+1].Wavefront == nil {
			o := a.overlap(u.Phases[0], units[i+1].Phases[0])
			if o.Overlaps() {
				a.Overlaps = append(a.Overlaps, o)
				a.steps = append(a.steps, &Step{Phases: []*Phase{u.Phases[0], units[i+1].Phases[0]}, Overlap: o})
				i++
				continue
			}
			a.Overlaps = append(a.Overlaps, o)
		}
		a.steps = append(a.steps, u)
	}
}

// overlap applies MK's rule to consecutive phases x, y at every sample at
// which both have traffic.
func (a *Analysis) overlap(x, y *Phase) *Overlap {
	o := &Overlap{First: x, Second: y}
	type obs struct {
		p        int64
		disjoint bool
	}
	var seen []obs
	for _, smp := range a.samples {
		rl, sl := x.Receivers[smp.P], y.Senders[smp.P]
		if len(x.Senders[smp.P]) == 0 || len(sl) == 0 {
			continue
		}
		d := true
		for _, r := range rl {
			if slices.Contains(sl, r) {
				d = false
				break
			}
		}
		seen = append(seen, obs{smp.P, d})
	}
	slices.SortFunc(seen, func(u, v obs) int { return int(u.p - v.p) })
	if len(seen) == 0 {
		o.Note = "no sample has traffic in both"
		return o
	}
	all, none := true, true
	for _, s := range seen {
		all = all && s.disjoint
		none = none && !s.disjoint
	}
	switch {
	case all:
		o.Always = true
		o.Note = fmt.Sprintf("no rank receiving in %s sends in %s at P = %d..%d", x.Name, y.Name, seen[0].p, seen[len(seen)-1].p)
	case none:
		o.Note = fmt.Sprintf("ranks receiving in %s send in %s (at P = %d, %v)", x.Name, y.Name, seen[0].p,
			intersect(x.Receivers[seen[0].p], y.Senders[seen[0].p]))
	default:
		// Disjoint from some P on?
		k := len(seen)
		for k > 0 && seen[k-1].disjoint {
			k--
		}
		if k < len(seen) && k > 0 {
			o.From = seen[k].p
			o.Note = fmt.Sprintf("independent from P = %d on (dependent at P = %d)", o.From, seen[k-1].p)
		} else {
			o.Note = "independent at some samples only; taken as dependent"
		}
	}
	return o
}

func intersect(x, y []int64) []int64 {
	var out []int64
	for _, v := range x {
		if slices.Contains(y, v) {
			out = append(out, v)
		}
	}
	return out
}
