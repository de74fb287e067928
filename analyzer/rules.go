package analyzer

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// pass is one run of the catalogue over a report.
type pass struct {
	r     *cost.Report
	pt    *cost.Point
	opt   Options
	g     *growth
	kids  map[*cost.Node][]*cost.Node
	check *Check
	out   []Diagnostic
	// tidied memoizes tidy: a node's count appears in several findings.
	tidied map[symbolic.Fingerprint]symbolic.Piecewise
	// whole prints closed forms whole, however long (annotate).
	whole bool
	// ref is the work shares at the point are taken of (refWork).
	ref *cost.Values
	// counted is set when ref is the counted nests' work of a partial
	// point, not the program's.
	counted bool
	// mem is the memory term of the predicted time (memory), memDone set
	// once it was computed.
	mem     *memoryTerm
	memDone bool
}

func newPass(r *cost.Report, pt *cost.Point, opt Options) *pass {
	p := &pass{r: r, pt: pt, opt: opt, g: newGrowth(r.Assumptions), kids: map[*cost.Node][]*cost.Node{}}
	for _, n := range r.Nodes {
		if n.Parent != nil {
			p.kids[n.Parent] = append(p.kids[n.Parent], n)
		}
	}
	p.ref, p.counted = p.refWork()
	return p
}

// refWork returns the work the shares at the point are of: the program's,
// or, at a partial point where the program's work rests on values of the
// data (cost.Point.Unknown), the work of the loop nests whose work does not,
// summed per rank — a lower bound of the program's work, so a share of it
// is "of the counted work", never of the program's. Nil without a point.
func (p *pass) refWork() (*cost.Values, bool) {
	if p.pt == nil {
		return nil, false
	}
	if !p.pt.WorkUnknown {
		return &p.pt.Work, false
	}
	sum := cost.Values{PerRank: make([]float64, p.pt.P)}
	for _, n := range p.r.Nodes {
		if v := p.values(n); v != nil && isNest(n) && !n.Missing.Has(cost.FigNestWork) {
			for rk, x := range v.NestWork.PerRank {
				sum.PerRank[rk] += x
			}
		}
	}
	sum.Summarise()
	return &sum, true
}

// dataNests are the loop nests whose work rests on values of the data a
// partial point lacks, by position.
func (p *pass) dataNests() []*cost.Node {
	if !p.pt.Partial() {
		return nil
	}
	var out []*cost.Node
	for _, n := range p.r.Nodes {
		if isNest(n) && !n.Missing.Has(cost.FigNestWork) && p.values(n) == nil {
			out = append(out, n)
		}
	}
	return out
}

// report adds a diagnostic of the current check at node n (nil for none).
func (p *pass) report(n *cost.Node, pos apt.Pos, msg string, facts map[string]any) {
	standIn := ""
	if n != nil && n.Exact {
		standIn = p.pt.StandInNote(n)
	}
	if n != nil && (!n.Exact || standIn != "") && !strings.HasPrefix(p.check.ID, "MK3") {
		// A count that rests on an approximation (or, at the point, on
		// a value of the data given its default) is never printed as
		// if it were exact (MK3003 says why at the node too).
		note := noteOf(n)
		if n.Exact {
			note = standIn
		}
		room := noteLimit
		if long := len(msg) + noteLimit - messageRoom; long > 0 {
			// A long finding keeps its line: the note is cut shorter.
			room = max(noteLimit-long, noteLeast)
		}
		msg += " [approximate: " + clip(note, room) + "]"
		if facts == nil {
			facts = map[string]any{}
		}
		facts["approximate"] = note
	}
	d := Diagnostic{Pos: pos, ID: p.check.ID, Severity: p.check.Severity, Message: msg, Facts: facts}
	if n != nil {
		d.Node = n.Node.Base().ID
		if !pos.IsValid() {
			d.Pos = n.Node.Base().Span.Start()
		}
	}
	p.out = append(p.out, d)
}

// noteLimit is the length from which clip cuts why a count is approximate
// in a message (MK3003 at the node and the facts give it whole).
const noteLimit = 60

// messageRoom is the length of a finding with its note within which the
// line (after the file:line:col) stays readable; past it the note is cut
// to no less than noteLeast.
const (
	messageRoom = 250
	noteLeast   = 24
)

// clip cuts s to n bytes at a word, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndex(s[:n], " ")
	if cut < n/2 {
		cut = n
	}
	return strings.ToValidUTF8(s[:cut], "") + "…"
}

// values returns n's figures at the point, nil without one.
func (p *pass) values(n *cost.Node) *cost.NodeValues {
	if p.pt == nil {
		return nil
	}
	return p.pt.Nodes[n]
}

// perRank is " per rank" in a parallel program.
func (p *pass) perRank() string {
	if p.r.Parallel {
		return " per rank"
	}
	return ""
}

// atPrefix is "n=64, P=4: " before figures at the point, "" where the
// point has no values to name (a serial program without parameters).
func (p *pass) atPrefix() string {
	if at := p.at(); at != "" {
		return at + ": "
	}
	return ""
}

// at formats the point: the parameters in report order, then P.
func (p *pass) at() string {
	if p.pt == nil {
		return ""
	}
	var parts []string
	seen := map[string]bool{cost.Rank: true}
	for _, q := range p.r.Params {
		if q.Defaulted && !slices.Contains(p.opt.Given, q.Name) {
			seen[q.Name] = true // the notes list the program's defaults taken
			continue
		}
		if (q.Origin == cost.FromFrequency || q.Lo != nil) && q.Default != nil && !slices.Contains(p.opt.Given, q.Name) {
			// A branch frequency or bounded value at its neutral default
			// is noted apart.
			seen[q.Name] = true
			continue
		}
		if v, ok := p.pt.Env[q.Name]; ok && !seen[q.Name] {
			parts = append(parts, q.Name+"="+strconv.FormatInt(v, 10))
			seen[q.Name] = true
		}
	}
	var rest []string
	for k := range p.pt.Env {
		if !seen[k] && k != cost.Size {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		parts = append(parts, k+"="+strconv.FormatInt(p.pt.Env[k], 10))
	}
	if p.r.Parallel {
		parts = append(parts, cost.Size+"="+strconv.FormatInt(p.pt.P, 10))
	}
	return strings.Join(parts, ", ")
}

// seconds returns the predicted time of work units with the machine, and
// whether a machine was given.
func (p *pass) seconds(work float64) (float64, bool) {
	if p.opt.Machine == nil {
		return 0, false
	}
	return work * p.opt.Machine.Ops.Resolved().Add.Float64(), true
}

// fraction is a share: a number (at a point, or a limit that is a number),
// or a symbolic limit.
type fraction struct {
	known   bool
	numeric bool
	value   float64
	lim     ratio
}

// share returns num's share of den: at the point from the totals over ranks,
// else the limit as the sizes grow.
func (p *pass) share(num symbolic.Piecewise, numV *cost.Values, den symbolic.Piecewise, denV *cost.Values) fraction {
	if p.pt != nil {
		if numV == nil || denV == nil || denV.Total <= 0 {
			return fraction{}
		}
		return fraction{known: true, numeric: true, value: numV.Total / denV.Total}
	}
	lim, ok := p.g.limit(num, den)
	if !ok {
		return fraction{}
	}
	if v, ok := lim.Const(); ok {
		return fraction{known: true, numeric: true, value: v, lim: lim}
	}
	return fraction{known: true, lim: lim}
}

// atLeast reports whether f is known to be at least x (strictly above x when
// strict).
func (p *pass) atLeast(f fraction, x float64, strict bool) bool {
	switch {
	case !f.known:
		return false
	case f.numeric && strict:
		return f.value > x
	case f.numeric:
		return f.value >= x
	}
	return f.lim.atLeast(p.g.a, x, strict)
}

// text formats f: "87%", or the closed form of a symbolic limit.
func (f fraction) text() string {
	if f.numeric {
		return percent(f.value)
	}
	form := f.lim.String()
	if len(form) > maxShareForm {
		// A ratio of long piecewise forms reads as noise on one line:
		// it is in the JSON (share_expr).
		return "a share that is a long closed form (check -json gives it)"
	}
	return "a share " + form
}

// maxShareForm bounds the closed form of a share a message prints.
const maxShareForm = 80

// facts records f under "share" or "share_expr".
func (f fraction) facts(m map[string]any) {
	switch {
	case f.numeric:
		m["share"] = round(f.value)
	case f.known:
		m["share_expr"] = f.lim.String()
	}
}

// ---- MK1001 ----

// hotLoops reports the loop nests that hold most of the predicted work. A
// nest is a routine's outermost loop with the loops inside it in that
// routine, and its work is its own (cost.Node.NestWork): a driver loop whose
// body calls routines with nests of their own is not where the time goes,
// their nests are. Every nest holding the threshold share or more is
// reported; when those together hold less than Options.Cover (three
// quarters) of the work in loop nests, the next largest nests are added
// until they hold it, so that the nests named always account for most of
// the loops' time, however flat the profile, with the nests whose work is
// within tieShare of the last one added. A share of the nests' work rather
// than of the program's: work outside every DO loop (whole-array
// statements, loops built from GO TO) could otherwise make every nest,
// down to the smallest, "hot".
func hotLoops(p *pass) {
	prog, progV := p.programTime()
	type nest struct {
		n *cost.Node
		f fraction
	}
	var nests []nest
	inNests := 0.0 // the numeric shares summed: the share of the work in nests
	if p.r.WorkMissing {
		return // no share is known (MK3002 says why)
	}
	for _, n := range p.r.Nodes {
		if !isNest(n) || n.Missing.Has(cost.FigNestWork) {
			continue
		}
		num, nv := p.nestTime(n)
		f := p.share(num, nv, prog, progV)
		nests = append(nests, nest{n, f})
		if f.numeric {
			inNests += f.value
		}
	}
	chosen := map[*cost.Node]bool{}
	held, covered := 0.0, false
	for _, x := range nests {
		if !p.atLeast(x.f, p.opt.Share, false) {
			continue
		}
		chosen[x.n] = true
		if x.f.numeric {
			held += x.f.value
		}
		// A share that is a closed form in P is not summed, but may
		// cover the work on its own.
		covered = covered || p.atLeast(x.f, p.opt.Cover, false)
	}
	if !covered {
		// The largest of the others, until Cover of the nests' work is
		// named. A share that is no number cannot be ranked and is left
		// out.
		var rest []nest
		for _, x := range nests {
			if !chosen[x.n] && x.f.numeric && x.f.value > 0 {
				rest = append(rest, x)
			}
		}
		slices.SortStableFunc(rest, func(a, b nest) int { return cmp.Compare(b.f.value, a.f.value) })
		last := math.Inf(1) // no nest added yet: none is a tie
		for _, x := range rest {
			if held >= inNests*p.opt.Cover && x.f.value < last*(1-tieShare) {
				break
			}
			chosen[x.n] = true
			held += x.f.value
			last = x.f.value
		}
	}
	for _, x := range nests {
		if chosen[x.n] {
			p.hotLoop(x.n, x.f)
		}
	}
}

// countedText says, at a partial point, what the counted work leaves out:
// "of the loop work counted at P=4, which leaves out 3 nests resting on
// values of the data (is.c:692:5, …)"; the positions go into
// facts whole.
func (p *pass) countedText(facts map[string]any) string {
	data := p.dataNests()
	var pos []string
	for _, n := range data {
		pos = append(pos, n.Node.Base().Span.Start().String())
	}
	facts["share_of"] = "counted loop nests"
	facts["data_nests"] = pos
	s := "of the loop work counted"
	if at := p.at(); at != "" {
		s += " at " + at
	}
	if len(pos) == 0 {
		return s
	}
	shown := pos
	if len(shown) > 1 {
		shown = append(slices.Clone(pos[:1]), "…")
	}
	nests := "nests rest"
	if len(pos) == 1 {
		nests = "nest rests"
	}
	return fmt.Sprintf("%s, where %d %s on values of the data (%s)", s, len(pos), nests, strings.Join(shown, ", "))
}

// tieShare is how close (relative) a nest's work must be to the last nest
// MK1001 adds to reach half of the nests' work to be added with it: the
// prediction does not order nests that close (three sweeps along x, y and
// z with the same work), so naming one and not the others would be chance.
const tieShare = 0.05

// isNest reports whether n is a loop nest: a loop with no enclosing loop in
// its routine. A routine's node hangs below the call that first reached it,
// so the walk stops at the routine.
func isNest(n *cost.Node) bool {
	if _, ok := n.Node.(*apt.Loop); !ok {
		return false
	}
	for a := n.Parent; a != nil; a = a.Parent {
		switch a.Node.(type) {
		case *apt.Routine:
			return true
		case *apt.Loop:
			return false
		}
	}
	return true
}

// hotLoop reports one nest with its outermost loop's iteration count and
// its share f of the predicted work.
func (p *pass) hotLoop(n *cost.Node, f fraction) {
	facts := map[string]any{"iterations": p.closed(n.Iterations), "work": p.closed(n.NestWork)}
	f.facts(facts)
	runs := p.howMany(n.Iterations, "iterations")
	if n.Missing.Has(cost.FigIterations) {
		runs = "iterations " + p.missingMark()
		delete(facts, "iterations")
	}
	msg := fmt.Sprintf("loop runs %s and holds %s of the predicted %s", runs, f.text(), p.measure())
	if p.counted {
		msg = fmt.Sprintf("loop runs %s and holds %s %s", runs, f.text(), p.countedText(facts))
	}
	bound := p.memoryBound(n, facts)
	if v := p.values(n); v != nil {
		it := v.Iterations
		facts["iterations_max"] = it.Max
		facts["iterations_min"] = it.Min
		facts["max_ranks"] = cost.Ranks(it.MaxRanks)
		tail := spread(it, "iterations", p.r.Parallel)
		_, tv := p.nestTime(n)
		if s, ok := p.seconds(tv.Max); ok {
			facts["seconds"] = round(s)
			tail += ", " + duration(s) + " on " + p.opt.Machine.Name
		}
		if bound != "" {
			tail += "; " + bound
		}
		msg += " (" + p.atPrefix() + tail + ")"
	} else {
		if sz := p.sizesOf(p.r.Work); len(sz) > 0 {
			facts["sizes"] = sz
			msg += " as " + grow(sz)
		}
		if bound != "" {
			msg += "; " + bound
		}
	}
	p.report(n, apt.Pos{}, msg, facts)
}

// enclosingLoop returns the nearest loop enclosing n (within its routine)
// for which ok holds, or nil.
func (p *pass) enclosingLoop(n *cost.Node, ok func(*cost.Node) bool) *cost.Node {
	for a := n.Parent; a != nil; a = a.Parent {
		if _, isLoop := a.Node.(*apt.Loop); isLoop && ok(a) {
			return a
		}
	}
	return nil
}

// ---- MK1002 ----

func imbalance(p *pass) {
	if !p.r.Parallel {
		return
	}
	for _, n := range p.r.Nodes {
		switch n.Node.(type) {
		case *apt.Loop, *apt.Branch, *apt.Call:
		default:
			continue
		}
		if n.CountMissing() || n.Missing.Has(cost.FigWork) {
			continue // nothing known to compare
		}
		if !p.rankDependent(n) || n.Parent != nil && p.rankDependent(n.Parent) {
			continue // not where the difference starts
		}
		// A branch's imbalance is judged at its IF: branches on the rank
		// that give the ranks equal work in turn balance out.
		ctx := n
		if _, ok := n.Node.(*apt.Branch); ok && n.Parent != nil {
			ctx = n.Parent
		}
		if ctx.Missing.Has(cost.FigWork) {
			continue
		}
		if p.pt != nil {
			p.imbalanceAt(n, ctx)
		} else {
			p.imbalanceSymbolic(n, ctx)
		}
	}
}

// rankDependent reports whether the count (or a loop's iterations) of n
// differs across ranks: at the point from the values, else from the closed
// forms' dependence on rank.
func (p *pass) rankDependent(n *cost.Node) bool {
	return p.countVaries(n) || p.iterationsVary(n)
}

func (p *pass) countVaries(n *cost.Node) bool {
	if v := p.values(n); v != nil {
		return v.Count.Max != v.Count.Min
	}
	return n.Count.Has(cost.Rank)
}

func (p *pass) iterationsVary(n *cost.Node) bool {
	if _, ok := n.Node.(*apt.Loop); !ok {
		return false
	}
	if v := p.values(n); v != nil {
		return v.Iterations.Max != v.Iterations.Min
	}
	return n.Iterations.Has(cost.Rank)
}

// imbalanceSubject describes what depends on the rank at n.
func (p *pass) imbalanceSubject(n *cost.Node) (quantity string, pw symbolic.Piecewise, msg string) {
	if p.iterationsVary(n) && !p.countVaries(n) {
		if lo, hi, ok := ends(p.tidy(n.Iterations)); ok {
			return "iterations", n.Iterations, fmt.Sprintf("loop runs %s iterations on rank 0 but %s on rank P-1", lo, hi)
		}
		return "iterations", n.Iterations, fmt.Sprintf("loop runs %s iterations per rank, a function of rank", p.short(n.Iterations))
	}
	what := "call"
	switch n.Node.(type) {
	case *apt.Branch:
		what = "branch"
	case *apt.Loop:
		what = "loop"
	}
	if cond, _, ok := rankCondition(n.Count); ok {
		return "count", n.Count, fmt.Sprintf("%s runs only where %s", what, cond)
	}
	return "count", n.Count, fmt.Sprintf("%s runs on some ranks only (count per rank: %s)", what, p.short(n.Count))
}

// imbalanceAt reports n when the work of its context ctx is spread over the
// ranks with max/mean at least the threshold and an excess over the mean
// that matters next to the heaviest rank's whole work.
func (p *pass) imbalanceAt(n, ctx *cost.Node) {
	v := p.values(ctx)
	if v == nil || p.values(n) == nil {
		return // it rests on values of the data the point lacks
	}
	w := v.Work
	mean := w.Total / float64(p.pt.P)
	if w.Imbalance < p.opt.Imbalance || w.Max-mean < p.opt.ImbalanceShare*p.ref.Max {
		return
	}
	quantity, pw, msg := p.imbalanceSubject(n)
	facts := map[string]any{
		"quantity": quantity, "closed_form": p.closed(pw), "work": p.closed(n.Work),
		"imbalance": round(w.Imbalance), "max_ranks": cost.Ranks(w.MaxRanks), "min_ranks": cost.Ranks(w.MinRanks),
		"max_work": w.Max, "mean_work": round(mean),
	}
	msg += fmt.Sprintf(" (imbalance %s at %s; heaviest %s)", ratioText(w.Imbalance), p.at(), rankList(w.MaxRanks))
	p.report(n, apt.Pos{}, msg, facts)
}

// imbalanceSymbolic reports n when the leading term of its context's work,
// as the sizes grow, depends on the rank (an imbalance that persists at
// scale, unlike a remainder of n/P) and grows as fast as the program's work.
func (p *pass) imbalanceSymbolic(n, ctx *cost.Node) {
	if free, known := p.g.rankFreeLead(ctx.Work); !known || free {
		return
	}
	if same, known := p.g.sameOrder(n.Work, p.r.Work); !known || !same {
		return
	}
	quantity, pw, msg := p.imbalanceSubject(n)
	facts := map[string]any{"quantity": quantity, "closed_form": p.closed(pw), "work": p.closed(n.Work)}
	p.report(n, apt.Pos{}, msg, facts)
}

// ends returns a single closed form at rank 0 and at rank P-1 when the two
// differ.
func ends(pw symbolic.Piecewise) (lo, hi string, ok bool) {
	e, single := pw.Single()
	if !single || !e.Has(cost.Rank) {
		return "", "", false
	}
	e0, err0 := e.Subst(map[string]symbolic.Expr{cost.Rank: symbolic.Int(0)})
	e1, err1 := e.Subst(map[string]symbolic.Expr{cost.Rank: symbolic.Sym(cost.Size).Sub(symbolic.Int(1))})
	if err0 != nil || err1 != nil || e0.Equal(e1) {
		return "", "", false
	}
	return e0.String(), e1.String(), true
}

// ---- MK1003 ----

func serialWork(p *pass) {
	if !p.r.Parallel {
		return
	}
	// A program whose work never depends on P is taken as weak-scaling (its
	// sizes are per rank): nothing there is expected to shrink.
	if p.r.WorkMissing || !valuesHave(p.r.Work, cost.Size) {
		return
	}
	if p.pt != nil && p.counted {
		// A share of the busiest rank's work needs the program's work,
		// and it rests on values of the data the point lacks.
		return
	}
	qualifies := map[*cost.Node]bool{}
	for _, n := range p.r.Nodes {
		if _, ok := n.Node.(*apt.Loop); !ok || len(n.Work.Pieces) == 0 || n.Missing != 0 {
			continue
		}
		if valuesHave(n.Work, cost.Size) || valuesHave(n.Work, cost.Rank) {
			continue
		}
		if v := p.values(n); v != nil {
			if v.Work.Max <= 0 || v.Work.Max < p.opt.Share*p.pt.Work.Max {
				continue
			}
		} else if p.pt != nil {
			continue // it rests on values of the data the point lacks
		} else {
			if f := p.share(n.Work, nil, p.r.Work, nil); f.known && f.numeric && f.value < p.opt.Share {
				continue
			}
			if same, known := p.g.sameOrder(n.Work, p.r.Work); !known || !same {
				continue
			}
		}
		qualifies[n] = true
	}
	for _, n := range p.r.Nodes {
		if !qualifies[n] || p.enclosingLoop(n, func(a *cost.Node) bool { return qualifies[a] }) != nil {
			continue
		}
		iters := n.Iterations
		cond, rest, guarded := rankCondition(iters)
		if guarded {
			iters = rest
		}
		facts := map[string]any{"iterations": p.closed(iters), "work": p.closed(n.Work)}
		ranks, where, kind := "every rank", "on every rank", "replicated"
		if guarded {
			ranks, where, kind = cond, "only where "+cond, "serial"
		}
		var tail string
		if v := p.values(n); v != nil {
			var busy []int
			for r, x := range v.Work.PerRank {
				if x > 0 {
					busy = append(busy, r)
				}
			}
			ranks, where, kind = "every rank", "on every rank", "replicated"
			if len(busy) < len(v.Work.PerRank) {
				ranks, where, kind = cost.Ranks(busy), "on "+rankList(busy)+" only", "serial"
			}
			share := v.Work.Max / p.pt.Work.Max
			facts["share"] = round(share)
			tail = fmt.Sprintf(" (%s: %s of the busiest rank's work)", p.at(), percent(share))
		}
		facts["ranks"] = ranks
		msg := fmt.Sprintf("loop runs %s iterations %s whatever the number of processes: %s work that does not shrink as P grows%s",
			p.short(iters), where, kind, tail)
		p.report(n, apt.Pos{}, msg, facts)
	}
}

// rankCondition splits a rank-only condition shared by every piece of pw
// ("rank == 0") from the rest.
func rankCondition(pw symbolic.Piecewise) (cond string, rest symbolic.Piecewise, ok bool) {
	if len(pw.Pieces) == 0 {
		return "", pw, false
	}
	isRankOnly := func(r symbolic.Relation) bool { return r.E.Has(cost.Rank) && !sized(r.E) }
	var common []string
	for i, pc := range pw.Pieces {
		var here []string
		for _, r := range pc.Guard {
			if isRankOnly(r) {
				here = append(here, r.String())
			}
		}
		slices.Sort(here)
		if i == 0 {
			common = here
		} else if !slices.Equal(common, here) {
			return "", pw, false
		}
	}
	if len(common) == 0 {
		return "", pw, false
	}
	for _, pc := range pw.Pieces {
		var g []symbolic.Relation
		for _, r := range pc.Guard {
			if !isRankOnly(r) {
				g = append(g, r)
			}
		}
		rest.Pieces = append(rest.Pieces, symbolic.Piece{Guard: g, Value: pc.Value})
	}
	return strings.Join(common, " and "), rest, true
}

// ---- MK2001 ----

func commInLoop(p *pass) {
	for _, n := range p.r.Nodes {
		c, ok := n.Node.(*apt.Comm)
		if !ok || n.Comm == nil || n.Depth == 0 || n.CountMissing() {
			continue
		}
		switch c.Op {
		case apt.MPIInit, apt.MPIFinalize, apt.MPICommRank, apt.MPICommSize, apt.MPIAbort:
			continue
		}
		if c.Op.Completes() {
			continue
		}
		receive := c.Op == apt.MPIRecv || c.Op == apt.MPIIrecv
		msgs := n.Comm.Messages
		verb := "sends"
		if receive {
			msgs, verb = n.Comm.Received, "receives"
		}
		if c.Op.IsCollective() {
			verb = "runs"
		}
		if !growsWithInput(msgs) && !p.iteratesAtPoint(n) {
			continue
		}
		facts := map[string]any{"op": c.Op.String(), "messages": p.closed(msgs)}
		what := "messages"
		if c.Op.IsCollective() {
			what = "times"
		}
		size := ""
		if n.Comm.MsgBytes != nil {
			facts["bytes"] = n.Comm.MsgBytes.String()
			if !c.Op.IsCollective() {
				size = " of " + n.Comm.MsgBytes.String() + " bytes"
			}
		}
		advice := "aggregate them where the dependences allow"
		if c.Op.IsCollective() {
			advice = "combine the calls into fewer with larger buffers where the data dependences allow"
		}
		msg := fmt.Sprintf("%s inside a loop %s %s: %s", c.Op, verb, p.howMany(msgs, what+size), advice)
		if v := p.values(n); v != nil {
			mv := v.Messages
			if receive {
				var ok bool
				if mv, ok = p.evalPerRank(n.Comm.Received); !ok {
					continue
				}
			}
			if mv.Max == 0 {
				continue
			}
			facts["messages_max"] = mv.Max
			facts["max_ranks"] = cost.Ranks(mv.MaxRanks)
			tail := spread(mv, what, p.r.Parallel)
			if s, ok := p.messageSeconds(n, mv); ok {
				facts["seconds"] = round(s)
				tail += ", " + duration(s) + " on " + p.opt.Machine.Name
			}
			msg += " (" + p.atPrefix() + tail + ")"
		}
		p.report(n, apt.Pos{}, msg, facts)
	}
}

// evalPerRank evaluates pw for every rank at the point, for the figures the
// point does not carry (messages received).
func (p *pass) evalPerRank(pw symbolic.Piecewise) (cost.Values, bool) {
	v, err := p.pt.PerRank(pw)
	return v, err == nil
}

// messageSeconds is the time of the busiest rank's messages at n with the
// machine's point-to-point model.
func (p *pass) messageSeconds(n *cost.Node, mv cost.Values) (float64, bool) {
	if p.opt.Machine == nil || n.Comm.MsgBytes == nil || len(mv.MaxRanks) == 0 {
		return 0, false
	}
	net, err := p.opt.Machine.Network()
	if err != nil {
		return 0, false
	}
	env := map[string]symbolic.Rat{}
	for k, v := range p.pt.Env {
		env[k] = symbolic.RatInt(v)
	}
	env[cost.Rank] = symbolic.RatInt(int64(mv.MaxRanks[0]))
	b, err := n.Comm.MsgBytes.Eval(env)
	if err != nil {
		return 0, false
	}
	return mv.Max * net.Seconds(b.Float64()), true
}

// iteratesAtPoint reports whether, at the point, the loop nearest around n
// runs more than one iteration per entry on some rank: in a report
// evaluated at a point the sizes are numbers, so whether a count grows with
// them shows as a loop that repeats.
func (p *pass) iteratesAtPoint(n *cost.Node) bool {
	if p.pt == nil {
		return false
	}
	for a := n.Parent; a != nil; a = a.Parent {
		if _, ok := a.Node.(*apt.Loop); !ok {
			continue
		}
		v := p.pt.Nodes[a]
		if v == nil {
			return false
		}
		for rk := range v.Iterations.PerRank {
			if v.Count.PerRank[rk] > 0 && v.Iterations.PerRank[rk] > v.Count.PerRank[rk] {
				return true
			}
		}
		return false
	}
	return false
}

// growsWithInput reports whether a count is a closed form in the sizes or P
// (rank alone only selects who communicates).
func growsWithInput(pw symbolic.Piecewise) bool {
	for _, pc := range pw.Pieces {
		for _, s := range pc.Value.Symbols() {
			if s != cost.Rank {
				return true
			}
		}
	}
	return false
}

// ---- MK3002 ----

func evaluationProblems(p *pass) {
	p.noClosedForm()
	seen := map[apt.Diagnostic]bool{}
	for _, d := range p.r.Diags {
		if seen[d] {
			continue
		}
		seen[d] = true
		sev := d.Severity
		if sev == 0 {
			sev = apt.Warning
		}
		p.out = append(p.out, Diagnostic{Pos: d.Pos, ID: p.check.ID, Severity: sev, Message: d.Msg,
			Facts: map[string]any{"severity": sev.String()}})
	}
}

// noClosedForm reports, once for the program, the counts that have no
// closed form within the analysis's limits (cost.Node.Missing): a whole
// application analysed with P symbolic leaves most of them to an
// evaluation at a point, and one line saying so reads better than one per
// loop.
func (p *pass) noClosedForm() {
	missing := p.r.NoClosedForm()
	if len(missing) == 0 && !p.r.WorkMissing {
		return
	}
	total := 0
	for _, n := range p.r.Nodes {
		switch n.Node.(type) {
		case *apt.Loop, *apt.Call, *apt.Comm:
			total++
		}
	}
	counted := 0
	for _, n := range missing {
		switch n.Node.(type) {
		case *apt.Loop, *apt.Call, *apt.Comm:
			counted++
		}
	}
	var pos apt.Pos
	if p.r.Entry != nil {
		pos = p.r.Entry.Span.Start()
	}
	facts := map[string]any{"no_closed_form": counted, "nodes": total, "work_missing": p.r.WorkMissing}
	if p.r.Budget > 0 {
		facts["budget"] = p.r.Budget
	}
	what := fmt.Sprintf("the counts of %d of the %d loops, calls and MPI calls have", counted, total)
	if counted == 0 {
		what = "the program's work has"
	}
	msg := fmt.Sprintf("%s no closed form %swithin the analysis's limits", what, p.inP())
	if p.r.WorkMissing && counted > 0 {
		msg += ", nor has the program's work"
	}
	if hint := p.pointHint(); hint != "" {
		msg += "; " + hint + " evaluates them exactly at a point"
	}
	p.out = append(p.out, Diagnostic{Pos: pos, ID: p.check.ID, Severity: apt.Note, Message: msg, Facts: facts})
}

// inP is "in P " for a parallel program's closed forms, whose P is free.
func (p *pass) inP() string {
	if p.r.Parallel && p.pt == nil {
		return "in P "
	}
	return ""
}

// pointHint is how to evaluate at a point: -D P=n for a parallel program
// whose P is free (an evaluation at a point derives what the program
// computes from P, a process grid, itself), else every value given with
// -D.
func (p *pass) pointHint() string {
	switch {
	case p.pt != nil:
		return ""
	case p.r.Parallel && !slices.Contains(p.opt.Given, cost.Size):
		return "-D P=n"
	}
	return "every value given with -D"
}

// missingMark stands for a count with no closed form within the analysis's
// limits, in annotations and messages.
func (p *pass) missingMark() string {
	return "[no closed form " + p.inP() + "within the limits]"
}

// ---- MK3003 ----

func approximate(p *pass) {
	said := map[string]bool{} // evaluation problems MK3002 reports
	for _, d := range p.r.Diags {
		said[d.Msg] = true
	}
	type key struct {
		parent *cost.Node
		note   string
	}
	done := map[key]bool{}
	for _, n := range p.r.Nodes {
		if n.Exact || n.Parent != nil && !n.Parent.Exact {
			continue
		}
		note := noteOf(n)
		// One note per reason among siblings (every statement after an
		// unmodelled GO TO), none where MK3002 says the same.
		if k := (key{n.Parent, note}); said[note] || done[k] {
			continue
		} else {
			done[k] = true
		}
		p.report(n, apt.Pos{}, "count is approximate: "+note, map[string]any{"note": note})
	}
	// At a point, counts resting on values of the data given their
	// defaults there: at the outermost such node, exact otherwise and
	// under no approximate node. (A branch frequency is said at its
	// branch.)
	freq := map[string]bool{}
	for _, q := range p.r.Params {
		if q.Origin == cost.FromFrequency {
			freq[q.Name] = true
		}
	}
	for _, n := range p.r.Nodes {
		note := p.pt.StandInNote(n)
		if note == "" || !n.Exact || n.Parent != nil && p.pt.StandInNote(n.Parent) != "" || underApproximate(n) ||
			!slices.ContainsFunc(p.values(n).StandIn, func(s string) bool { return !freq[s] }) {
			continue
		}
		if k := (key{n.Parent, note}); done[k] {
			continue
		} else {
			done[k] = true
		}
		p.report(n, apt.Pos{}, "count is approximate: "+note, map[string]any{"note": note, "stand_ins": p.values(n).StandIn})
	}
}

// underApproximate reports whether a node around n is approximate.
func underApproximate(n *cost.Node) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		if !a.Exact {
			return true
		}
	}
	return false
}

// noteOf is why n's count is approximate.
func noteOf(n *cost.Node) string {
	if n.Note == "" {
		return "no reason given"
	}
	return n.Note
}

// ---- formatting ----

// howMany formats a per-rank count with its unit: "n/P - 1 iterations per
// rank", or "P - 1 messages where rank == 0" when every case of the count
// carries the same condition on rank.
func (p *pass) howMany(pw symbolic.Piecewise, unit string) string {
	cond, rest, ok := rankCondition(pw)
	if !ok {
		rest = pw
	}
	c := p.short(rest)
	if c == "1" {
		unit = singular(unit)
	}
	if ok {
		return c + " " + unit + " where " + cond
	}
	return c + " " + unit + p.perRank()
}

// singular turns the unit of a count of 1 singular: "iterations" to
// "iteration", "messages of 8 bytes" to "message of 8 bytes".
func singular(unit string) string {
	word, rest, _ := strings.Cut(unit, " ")
	word = strings.TrimSuffix(word, "s")
	if rest != "" {
		return word + " " + rest
	}
	return word
}

// closed prints a per-rank closed form on one line: the expression, or its
// cases in parentheses "(v if guard; w if guard)" (the value is the sum of
// the cases whose conditions hold), at most four of them.
func (p *pass) closed(pw symbolic.Piecewise) string {
	return closed(p.tidy(pw))
}

// shortForm is the length from which a message shows a closed form's
// leading term instead of the whole of it (the facts keep it whole).
const shortForm = 120

// short is closed for a message: the form itself when it is at most
// shortForm characters, else the leading term of its largest case, marked
// as such and pointing at where the whole form is.
func (p *pass) short(pw symbolic.Piecewise) string {
	tidy := p.tidy(pw)
	s := closed(tidy)
	if len(s) <= shortForm || p.whole {
		return s
	}
	// The case whose value grows fastest leads: the one whose leading term
	// comes first in the canonical order (highest degree).
	var lead symbolic.Expr
	for i, pc := range tidy.Pieces {
		if l := pc.Value.Lead(); i == 0 || symbolic.Compare(l, lead) < 0 {
			lead = l
		}
	}
	where := "check -json"
	ls := lead.String()
	if len(ls) > shortForm/2 {
		return fmt.Sprintf("a closed form of %d cases (in %s)", len(tidy.Pieces), where)
	}
	if n := len(tidy.Pieces); n > 1 {
		return fmt.Sprintf("%s + … (leading term of %d cases; all in %s)", ls, n, where)
	}
	return fmt.Sprintf("%s + … (leading term; all in %s)", ls, where)
}

// tidy is pw as findings and annotations print it: symbolic's Tidy under
// the report's assumptions (pieces they refute and relations they prove
// dropped, relations that only keep the value from going negative dropped,
// complementary pieces merged), memoized because a node's count appears in
// several findings.
func (p *pass) tidy(pw symbolic.Piecewise) symbolic.Piecewise {
	key := pw.Fingerprint()
	if t, ok := p.tidied[key]; ok {
		return t
	}
	if p.tidied == nil {
		p.tidied = map[symbolic.Fingerprint]symbolic.Piecewise{}
	}
	out := pw.TidySimplified(p.r.Assumptions)
	p.tidied[key] = out
	return out
}

// tidyAll tidies the forms on all cores ahead of the calls to tidy that
// print them (annotate prints every node's count): Tidy is a pure
// function and the prover answers concurrent questions, so the result is
// the same as one form after another.
func (p *pass) tidyAll(pws []symbolic.Piecewise) {
	if p.tidied == nil {
		p.tidied = map[symbolic.Fingerprint]symbolic.Piecewise{}
	}
	var todo []symbolic.Piecewise
	var keys []symbolic.Fingerprint
	seen := map[symbolic.Fingerprint]bool{}
	for _, pw := range pws {
		key := pw.Fingerprint()
		if _, ok := p.tidied[key]; ok || seen[key] || len(pw.Pieces) < 2 && !hasGuard(pw) {
			continue
		}
		seen[key] = true
		todo = append(todo, pw)
		keys = append(keys, key)
	}
	out := make([]symbolic.Piecewise, len(todo))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = todo[i].TidySimplified(p.r.Assumptions)
			}
		}()
	}
	for i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, key := range keys {
		p.tidied[key] = out[i]
	}
}

func hasGuard(pw symbolic.Piecewise) bool {
	return slices.ContainsFunc(pw.Pieces, func(pc symbolic.Piece) bool { return len(pc.Guard) > 0 })
}

func closed(pw symbolic.Piecewise) string {
	if e, ok := pw.Single(); ok {
		return e.String()
	}
	if s, ok := rankTable(pw); ok {
		return s
	}
	return "(" + cases(pw) + ")"
}

// rankTable writes a per-rank count of two cases as the case table a person
// writes, "(floor(n/P) + 1 on ranks < modulo(n, P), floor(n/P) on the
// others)", when the cases' guards differ in one relation each, on rank
// with a coefficient of 1, and those two complement each other (e >= 0 and
// -e - 1 >= 0); the relations the cases share lead as "if ...:". The whole
// form (check -json pieces) keeps the guards.
func rankTable(pw symbolic.Piecewise) (string, bool) {
	if len(pw.Pieces) != 2 {
		return "", false
	}
	a, b := pw.Pieces[0], pw.Pieces[1]
	has := func(g []symbolic.Relation, r symbolic.Relation) bool {
		return slices.ContainsFunc(g, func(x symbolic.Relation) bool { return x.Op == r.Op && x.E.Equal(r.E) })
	}
	var common, ownA, ownB []symbolic.Relation
	for _, r := range a.Guard {
		if has(b.Guard, r) {
			common = append(common, r)
		} else {
			ownA = append(ownA, r)
		}
	}
	for _, r := range b.Guard {
		if !has(a.Guard, r) {
			ownB = append(ownB, r)
		}
	}
	if len(ownA) != 1 || len(ownB) != 1 || ownA[0].Op != symbolic.GE || ownB[0].Op != symbolic.GE {
		return "", false
	}
	if s, ok := ownA[0].E.Add(ownB[0].E).Const(); !ok || !s.Equal(symbolic.RatInt(-1)) {
		return "", false
	}
	// The first case's relation as rank <= x: x - rank >= 0, or the second's.
	first, second := a, b
	c, x, ok := ownA[0].E.Linear(cost.Rank)
	if k, isConst := c.Const(); !ok || !isConst || x.Has(cost.Rank) {
		return "", false
	} else if k.Equal(symbolic.RatInt(1)) {
		// rank + x >= 0 holds on the second's complement: -rank - x - 1 >= 0.
		first, second = b, a
		x = x.Neg().Sub(symbolic.Int(1))
	} else if !k.Equal(symbolic.RatInt(-1)) {
		return "", false
	}
	s := fmt.Sprintf("%s on ranks < %s, %s on the others", first.Value, x.Add(symbolic.Int(1)), second.Value)
	if len(common) > 0 {
		g := make([]string, len(common))
		for i, r := range common {
			g[i] = r.String()
		}
		s = "if " + strings.Join(g, " and ") + ": " + s
	}
	return "(" + s + ")", true
}

func cases(pw symbolic.Piecewise) string {
	const most = 4
	var parts []string
	for i, pc := range pw.Pieces {
		if i == most {
			parts = append(parts, fmt.Sprintf("and %d more cases", len(pw.Pieces)-most))
			break
		}
		g := make([]string, len(pc.Guard))
		for j, r := range pc.Guard {
			g[j] = r.String()
		}
		s := pc.Value.String()
		if len(g) > 0 {
			s += " if " + strings.Join(g, " and ")
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// spread formats per-rank values of a quantity: "127 iterations", or the
// largest and smallest with their ranks when they differ.
func spread(v cost.Values, unit string, parallel bool) string {
	if unit != "" {
		unit = " " + unit
	}
	if v.Max == v.Min || !parallel {
		return num(v.Max) + unit
	}
	return fmt.Sprintf("%s%s on %s, %s on %s", num(v.Max), unit, rankList(v.MaxRanks), num(v.Min), rankList(v.MinRanks))
}

// rankList formats ranks as "rank 0" or "ranks 0-3,5".
func rankList(rs []int) string {
	if len(rs) == 1 {
		return "rank " + cost.Ranks(rs)
	}
	return "ranks " + cost.Ranks(rs)
}

// sizesOf is sizes(pw) without the parameters that are choices, not
// sizes: a percentage (FromFrequency), a result of the program's
// arguments' text (FromArguments).
func (p *pass) sizesOf(pw symbolic.Piecewise) []string {
	return slices.DeleteFunc(sizes(pw), func(s string) bool {
		for _, q := range p.r.Params {
			if q.Name == s {
				return q.Origin == cost.FromFrequency || q.Origin == cost.FromArguments
			}
		}
		return false
	})
}

// grow formats "n grows", "n and m grow", "n, m and k grow".
func grow(names []string) string {
	switch len(names) {
	case 1:
		return names[0] + " grows"
	case 2:
		return names[0] + " and " + names[1] + " grow"
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " grow"
}

// num formats a value: exactly when it is an integer, else to 4 digits.
func num(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// percent formats a share as a whole percentage, with as many decimals as it
// takes (up to 3) not to claim 0% or 100% wrongly.
func percent(x float64) string {
	var s string
	for d := 0; d <= 3; d++ {
		s = strconv.FormatFloat(100*x, 'f', d, 64)
		v, _ := strconv.ParseFloat(s, 64)
		if (v != 100 || x >= 1) && (v != 0 || x <= 0) {
			break
		}
	}
	return s + "%"
}

// ratioText formats an imbalance ratio to 3 significant digits.
func ratioText(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// round keeps 4 significant digits of a float fact, so JSON output does not
// depend on the last bits of a division.
func round(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
	return v
}

// duration formats seconds with a unit: "1.23ms".
func duration(s float64) string {
	units := []struct {
		scale float64
		name  string
	}{{1, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}}
	for _, u := range units {
		if math.Abs(s) >= u.scale {
			return strconv.FormatFloat(s/u.scale, 'g', 3, 64) + u.name
		}
	}
	return strconv.FormatFloat(s/1e-12, 'g', 3, 64) + "ps"
}

// valuesHave reports whether any value of pw (guards aside) mentions the
// symbol.
func valuesHave(pw symbolic.Piecewise, name string) bool {
	for _, pc := range pw.Pieces {
		if pc.Value.Has(name) {
			return true
		}
	}
	return false
}
