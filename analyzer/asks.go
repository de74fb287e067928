package analyzer

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// MK3001: the values the analysis cannot derive, asked for where they
// matter at the point.

// ask is one MK3001 finding: the parameters that are one unknown value
// (its uses), where it comes from, and how much it moves the work at the
// point (measure: whether that was measured).
type ask struct {
	qs      []*cost.Param
	origin  string
	how     string
	impact  float64
	measure bool
}

func unresolvedParams(p *pass) {
	loops := map[apt.Pos]*cost.Node{}
	for _, n := range p.r.Nodes {
		if _, ok := n.Node.(*apt.Loop); ok {
			loops[n.Node.Base().Span.Start()] = n
		}
	}
	// One finding per unknown value: parameters with the same description
	// at the same place (an array element read at one place, kept once per
	// use) are asked for together.
	var asks []*ask
	index := map[string]*ask{}
	for _, q := range p.r.Params {
		if slices.Contains(p.opt.Given, q.Name) || q.Defaulted {
			continue // a defaulted input is in the notes
		}
		impact, measured := p.impact(q)
		if bound, ok := p.impactBound(q); ok && bound < NeutralShare {
			// It does not matter here: its default stands (Neutral
			// lists it for the note).
			continue
		}
		var origin, how string
		switch q.Origin {
		case cost.FromRead:
			origin, how = "read", "is read at run time"
		case cost.FromCommandLine:
			origin, how = "command-line", "comes from the command line"
		case cost.FromArguments:
			origin, how = "arguments", "comes from the program's arguments"
		case cost.FromUnresolved:
			origin, how = "unresolved", "is not known statically"
		case cost.FromFrequency:
			origin, how = "frequency", "depends on the data"
		case cost.FromTripCount:
			origin, how = "trip-count", "is not known statically"
		default:
			continue
		}
		dflt := ""
		if q.Default != nil {
			dflt = q.Default.String()
		}
		key := q.Pos.String() + "\x00" + q.What + "\x00" + origin + "\x00" + dflt
		if a, ok := index[key]; ok {
			a.qs = append(a.qs, q)
			a.impact = max(a.impact, impact)
			continue
		}
		a := &ask{qs: []*cost.Param{q}, origin: origin, how: how, impact: impact, measure: measured}
		index[key] = a
		asks = append(asks, a)
	}
	// Branches on the data are one question, however many there are: how
	// the data makes them go is measured (calibrate), not known to the
	// user branch by branch.
	var freq, rest []*ask
	for _, a := range asks {
		if a.qs[0].Origin == cost.FromFrequency {
			freq = append(freq, a)
		} else {
			rest = append(rest, a)
		}
	}
	if len(freq) > 1 {
		asks = rest
		p.askFrequencies(freq)
	}
	for _, a := range asks {
		q := a.qs[0]
		names := make([]string, len(a.qs))
		defs := make([]string, len(a.qs))
		for i, x := range a.qs {
			names[i] = x.Name
			defs[i] = x.Name + "=..."
		}
		facts := map[string]any{"param": q.Name, "origin": a.origin, "what": q.What}
		kept := "kept as the parameter " + q.Name
		dset := defs[0]
		if len(names) > 1 {
			facts["params"] = names
			if len(names) <= groupNames {
				kept = fmt.Sprintf("kept as the parameters %s (one per use)", strings.Join(names, ", "))
				dset = strings.Join(defs, ",")
			} else {
				kept = fmt.Sprintf("kept as %d parameters (%s, …), one per use", len(names), strings.Join(names[:2], ", "))
				dset = defs[0] + ",… (check -json lists all)"
			}
		}
		// Directives are Fortran comments: a C program compiled to IR
		// has no place for them, and -D is what it is given.
		directives := p.r.Program == nil || !p.r.Program.FromIR
		give := fmt.Sprintf("give -D %s", dset)
		iterations := give
		if directives {
			give += fmt.Sprintf(" or a '!mk$ param %s = ...' line", q.Name)
			iterations += " or '!mk$ iterations ...' before the loop"
		}
		switch q.Origin {
		case cost.FromFrequency:
			give = fmt.Sprintf("give -D %s (percent)", dset)
		case cost.FromTripCount:
			give = iterations
		case cost.FromArguments:
			give = fmt.Sprintf("give the program's arguments with -args, or -D %s", dset)
		}
		loop := loops[q.Pos]
		if loop != nil && q.Origin == cost.FromUnresolved {
			facts["loop"] = loop.Node.Base().ID
			give = iterations
		}
		// The finding is at q.Pos: the description need not say where
		// again, and a long condition is cut (facts keep it whole).
		msg := fmt.Sprintf("%s %s: %s", briefWhat(q.What, q.Pos), a.how, kept)
		if q.Default != nil {
			facts["default"] = q.Default.String()
			if d := q.Default.String(); len(d) <= 60 {
				msg += fmt.Sprintf(" (default %s)", d)
			} else {
				// (A long closed form: check -json has it whole.)
				msg += " (default: a closed form, in check -json)"
			}
		}
		if a.measure {
			facts["impact"] = Round(a.impact)
			msg += fmt.Sprintf(", moving the work by %.0f%%", 100*a.impact)
			if at := p.pointText(); at != "" {
				msg += " at " + at
			}
		}
		msg += "; " + give
		p.report(loop, q.Pos, msg, facts)
	}
}

// whatLimit is the length from which briefWhat cuts a description, and
// groupNames the most parameters a finding names.
const (
	whatLimit  = 75
	groupNames = 2
)

// briefWhat is a parameter's description for a message at pos: without
// " at pos" (the message is there), a parenthesised condition cut to fit
// whatLimit.
func briefWhat(what string, pos apt.Pos) string {
	if pos.IsValid() {
		what = strings.Replace(what, " at "+pos.String(), "", 1)
	}
	if len(what) <= whatLimit {
		return what
	}
	// Cut the first parenthesised part (a condition, a derivation) to what
	// fits.
	i := strings.Index(what, " (")
	if i < 0 {
		return what
	}
	depth, j := 0, -1
	for k := i + 1; k < len(what); k++ {
		switch what[k] {
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth == 0 {
			j = k
			break
		}
	}
	if j < 0 {
		return what
	}
	inner := what[i+2 : j]
	keep := whatLimit - (len(what) - len(inner))
	if len(inner) <= keep {
		return what
	}
	if keep < 12 {
		keep = 0 // the rest is long already: only say something is cut
	}
	return what[:i] + " (" + strings.ToValidUTF8(inner[:keep], "") + "…)" + what[j+1:]
}

// NeutralShare is the share of the predicted work below which a value the
// analysis cannot derive does not matter at a point: MK3001 does not ask for
// it and its default stands (issue 13: "only where it moves the predicted
// work at the point by 1% or more").
const NeutralShare = 0.01

// frequencyRange is the range a branch frequency (in percent) can take.
var frequencyRange = [2]int64{0, 100}

// impact returns how much the predicted work at the point moves when the
// parameter q spans its range (a branch frequency 0..100), as a share of the
// work at the point, taking the larger of the heaviest rank's and the total
// over ranks. It is measured only at a point and for a parameter with a
// range and a default.
func (p *pass) impact(q *cost.Param) (float64, bool) {
	if p.pt == nil || q.Default == nil {
		return 0, false
	}
	lo, hi, ok := paramRange(q, p.pt)
	if !ok {
		return 0, false
	}
	return Impact(p.r, p.pt, q.Name, lo, hi)
}

// impactBound is impact, or where the work rests on values the point lacks
// a bound of it (ImpactBound).
func (p *pass) impactBound(q *cost.Param) (float64, bool) {
	if p.pt == nil || q.Default == nil {
		return 0, false
	}
	lo, hi, ok := paramRange(q, p.pt)
	if !ok {
		return 0, false
	}
	return ImpactBound(p.r, p.pt, q.Name, lo, hi)
}

// paramRange returns the range of values q can take at pt: 0..100 for a
// branch frequency, its bounds evaluated at the point for a bounded value.
func paramRange(q *cost.Param, pt *cost.Point) (lo, hi int64, ok bool) {
	if q.Origin == cost.FromFrequency {
		return frequencyRange[0], frequencyRange[1], true
	}
	if q.Lo == nil {
		return 0, 0, false
	}
	env := map[string]symbolic.Rat{}
	for k, v := range pt.Env {
		env[k] = symbolic.RatInt(v)
	}
	l, err1 := q.Lo.Eval(env)
	lo, ok1 := l.Int64()
	if err1 != nil || !ok1 {
		return 0, 0, false
	}
	if q.Hi == nil {
		// Known from below only (a loop over the lines of an input
		// deck runs at least once): how much doubling it moves the work.
		return lo, 2 * max(lo, 1), true
	}
	h, err2 := q.Hi.Eval(env)
	if err2 != nil {
		return 0, 0, false
	}
	hi, ok2 := h.Int64()
	return lo, hi, ok2
}

// Impact returns how much the program's work at pt moves when the symbol
// name takes lo and hi instead of its value there: |W(hi) - W(lo)| over
// W(pt), for the heaviest rank and for the total over ranks, the larger.
// The work's closed form is compiled once per report and point (workFunc).
func Impact(r *cost.Report, pt *cost.Point, name string, lo, hi int64) (float64, bool) {
	wf, ok := workFunc(r, pt)
	if !ok {
		return 0, false
	}
	// The work is a sum of pieces: only those that mention name change
	// with it. A whole application has hundreds of such values (a string
	// intrinsic at every call site of a deck parser), each in a few
	// pieces, and at a point the work has a piece per rank class: each
	// question evaluates its few pieces, over the work at the point
	// evaluated once.
	d, base, ok := wf.part(name, pt.P)
	if !ok {
		return 0, false
	}
	if d == nil {
		return 0, pt.Work.Max > 0 && pt.Work.Total > 0
	}
	// d mentions name, so name is one of the compiled symbols.
	vals := slices.Clone(wf.vals)
	i := wf.index[name]
	eval := func(rk, v int64) (float64, bool) {
		vals[wf.rank], vals[i] = rk, v
		w, err := d.EvalInt(vals)
		if err != nil {
			return 0, false
		}
		return w.Float64(), true
	}
	var m0, m1, t0, t1 float64
	for rk := int64(0); rk < pt.P; rk++ {
		at, ok0 := eval(rk, wf.vals[i])
		w0, ok1 := eval(rk, lo)
		w1, ok2 := eval(rk, hi)
		if !ok0 || !ok1 || !ok2 {
			return 0, false
		}
		rest := base[rk] - at
		m0, t0 = max(m0, rest+w0), t0+rest+w0
		m1, t1 = max(m1, rest+w1), t1+rest+w1
	}
	if pt.Work.Max <= 0 || pt.Work.Total <= 0 {
		return 0, false
	}
	return max(math.Abs(m1-m0)/pt.Work.Max, math.Abs(t1-t0)/pt.Work.Total), true
}

// compiledWork is a report's work compiled over its symbols, with their
// values at a point.
type compiledWork struct {
	f     *symbolic.PiecewiseFunc
	work  symbolic.Piecewise
	vars  []string
	index map[string]int
	vals  []int64
	rank  int

	mu    sync.Mutex
	base  []float64                          // the work at each rank at the point
	parts map[string]*symbolic.PiecewiseFunc // by name, its pieces (nil: none)
}

// part returns the pieces of the work that mention name, compiled (nil
// when none does), and the work at each rank 0..np-1 at the point.
func (w *compiledWork) part(name string, np int64) (*symbolic.PiecewiseFunc, []float64, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.base == nil {
		vals := slices.Clone(w.vals)
		base := make([]float64, np)
		for rk := range np {
			vals[w.rank] = rk
			v, err := w.f.EvalInt(vals)
			if err != nil {
				return nil, nil, false
			}
			base[rk] = v.Float64()
		}
		w.base = base
	}
	if f, ok := w.parts[name]; ok {
		return f, w.base, true
	}
	var sub symbolic.Piecewise
	for _, p := range w.work.Pieces {
		if (symbolic.Piecewise{Pieces: []symbolic.Piece{p}}).Has(name) {
			sub.Pieces = append(sub.Pieces, p)
		}
	}
	var f *symbolic.PiecewiseFunc
	if len(sub.Pieces) > 0 {
		var err error
		if f, err = sub.Compile(w.vars); err != nil {
			return nil, nil, false
		}
	}
	if w.parts == nil {
		w.parts = map[string]*symbolic.PiecewiseFunc{}
	}
	w.parts[name] = f
	return f, w.base, true
}

var (
	workMu    sync.Mutex
	workCache = map[workKey]*compiledWork{}
)

type workKey struct {
	r  *cost.Report
	pt *cost.Point
}

// pointVars orders the symbols of pt for a compiled function: the rank
// first (each evaluation sets it), then the point's parameters, with each
// one's index and value.
func pointVars(pt *cost.Point) (vars []string, index map[string]int, vals []int64) {
	vars = []string{cost.Rank}
	index = map[string]int{cost.Rank: 0}
	vals = []int64{0}
	for name, v := range pt.Env {
		if name == cost.Rank {
			continue
		}
		index[name] = len(vars)
		vars = append(vars, name)
		vals = append(vals, v)
	}
	return vars, index, vals
}

// workFunc returns r's work compiled for evaluations at pt that change one
// parameter (Impact is asked for every parameter of the program).
func workFunc(r *cost.Report, pt *cost.Point) (*compiledWork, bool) {
	workMu.Lock()
	defer workMu.Unlock()
	k := workKey{r, pt}
	if w, ok := workCache[k]; ok {
		return w, w != nil
	}
	if len(workCache) > 64 {
		clear(workCache)
	}
	vars, index, vals := pointVars(pt)
	f, err := r.Work.Compile(vars)
	if err != nil {
		workCache[k] = nil
		return nil, false
	}
	w := &compiledWork{f: f, work: r.Work, vars: vars, index: index, vals: vals, rank: 0}
	workCache[k] = w
	return w, true
}

// Neutral lists the parameters that take their defaults at pt because they
// move the predicted work by less than NeutralShare (MK3001 does not ask for
// them), with their impact (a bound of it where the work rests on values
// the point lacks, ImpactBound).
func Neutral(r *cost.Report, pt *cost.Point, given []string) []NeutralParam {
	if pt == nil {
		return nil
	}
	var out []NeutralParam
	var used map[string]bool
	for _, q := range r.Params {
		if slices.Contains(given, q.Name) || q.Default == nil || q.Value != nil {
			continue
		}
		if used == nil {
			used = countSymbols(r)
		}
		if !used[q.Name] {
			// (A value no count at the point rests on, the trip
			// count of a loop run there, takes no default.)
			continue
		}
		lo, hi, ok := paramRange(q, pt)
		if !ok {
			continue
		}
		if imp, ok := ImpactBound(r, pt, q.Name, lo, hi); ok && imp < NeutralShare {
			out = append(out, NeutralParam{Param: q, Impact: imp})
		}
	}
	return out
}

// countSymbols returns the symbols the report's counts, work and messages
// mention.
func countSymbols(r *cost.Report) map[string]bool {
	used := map[string]bool{}
	eachFigure(r, func(pw symbolic.Piecewise) {
		for _, s := range pw.Symbols() {
			used[s] = true
		}
	})
	return used
}

// eachFigure calls f with the report's work and every node's counts,
// work and messages.
func eachFigure(r *cost.Report, f func(symbolic.Piecewise)) {
	f(r.Work)
	for _, n := range r.Nodes {
		f(n.Count)
		f(n.Iterations)
		f(n.Work)
		f(n.NestWork)
		if c := n.Comm; c != nil {
			f(c.Messages)
			f(c.Received)
			f(c.BytesSent)
			f(c.BytesReceived)
		}
	}
}

// NeutralParam is a parameter whose default stands at a point.
type NeutralParam struct {
	Param  *cost.Param
	Impact float64
}

// pointText names the point: "n=1024, P=8".
func (p *pass) pointText() string { return Point(p.r, p.pt) }

// askFrequencies is the one MK3001 finding for the branches on the data
// (frequency parameters, two or more): at the branch that moves the work
// most (the first without a point), naming the others and how much each and
// all of them move the work.
func (p *pass) askFrequencies(freq []*ask) {
	// Where the work rests on values the point lacks, a bound of what a
	// branch moves stands for it (ImpactBound).
	unmeasured := 0
	for _, a := range freq {
		if a.measure {
			continue
		}
		for _, q := range a.qs {
			if b, ok := p.impactBound(q); ok {
				a.impact, a.measure = max(a.impact, b), true
			}
		}
		if !a.measure {
			unmeasured++
		}
	}
	heavy := freq[0]
	sum := 0.0
	var names, at []string
	dflt := map[string]bool{}
	for _, a := range freq {
		if a.impact > heavy.impact {
			heavy = a
		}
		sum += a.impact
		for _, q := range a.qs {
			names = append(names, q.Name)
			d := ""
			if q.Default != nil {
				d = q.Default.String()
			}
			dflt[d] = true
		}
	}
	// The others heaviest first (stable: in the program's order).
	rest := slices.DeleteFunc(slices.Clone(freq), func(a *ask) bool { return a == heavy })
	slices.SortStableFunc(rest, func(a, b *ask) int { return cmp.Compare(b.impact, a.impact) })
	for _, a := range rest {
		at = append(at, a.qs[0].Pos.String())
	}
	q := heavy.qs[0]
	facts := map[string]any{"param": q.Name, "origin": heavy.origin, "what": q.What, "params": names, "others": at}
	// The condition of the heaviest branch, as its description gives it,
	// cut to fit the line (the facts keep it whole).
	cond := ""
	if w := briefWhat(q.What, q.Pos); strings.Contains(w, " (") {
		cond = " (" + clip(strings.TrimSuffix(w[strings.Index(w, " (")+2:], ")"), condRoom) + ")"
	}
	which := "is the first"
	if heavy.measure {
		which = "moves the work most"
	}
	msg := fmt.Sprintf("how often %d branches on the data are taken is unknown (this one%s %s): %s and %d more",
		len(freq), cond, which, q.Name, len(names)-1)
	if len(dflt) == 1 && q.Default != nil {
		facts["default"] = q.Default.String()
		msg += fmt.Sprintf(" (default %s)", q.Default)
	}
	if unmeasured < len(freq) {
		facts["impact"] = Round(heavy.impact)
		facts["impact_sum"] = Round(sum)
		msg += fmt.Sprintf(", up to %.0f%% of the work each, %.0f%% together", 100*heavy.impact, 100*sum)
		if pt := p.pointText(); pt != "" {
			msg += " at " + pt
		}
		if unmeasured > 0 {
			// (Those in counts with a value the point lacks.)
			facts["unmeasured"] = unmeasured
			msg += fmt.Sprintf(" (%d not measured)", unmeasured)
		}
	}
	msg += "; mkvet calibrate measures them (or -D each)"
	p.report(nil, q.Pos, msg, facts)
}

// condRoom is the length from which the finding on branches on the data
// cuts the condition it shows.
const condRoom = 28
