package phase

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/model/whatif"
	"github.com/mkvet/mkvet/symbolic"
)

// ModelOptions control Model.
type ModelOptions struct {
	// Profile gives the point-to-point model, the collectives' and the
	// operation costs; nil means model.Default().
	Profile *model.Profile
	// UnitTime is the time of one operation unit of the report's work, in
	// seconds; zero means the profile's time of an add (cost.Weights count
	// an add as one unit).
	UnitTime symbolic.Rat
	// Balance replaces each rank's work by the mean over the ranks (PerWiz's
	// load-balance what-if, seed 003 §4).
	Balance bool
	// Leading keeps only the leading-order terms of the work as the problem
	// sizes grow (Pacheco drops the constant k3 as negligible, seed 004
	// §11.6).
	Leading bool
}

// Term is a term of the model with how it was derived.
type Term struct {
	whatif.Term
	// How states the formula and where its parts come from, one line.
	How string
	// Max says how the maximum over ranks was taken, when one was.
	Max *Max
}

// Model composes the program's time T(N, P) as named terms (MK §4, seed
// 000): compute, the maximum over ranks of the work outside the phases
// times the time of an operation unit; each step of the phase composition
// (a phase; two overlapping phases as the larger of the two; a
// wavefront); each collective with its algorithm (model.Collective).
// Phase times follow MK §4.1:
//
//	synchronous (exchange, shift)  B*(max(τ(m), W) + s + r)
//	pipeline                       Fill + Remain, Fill = (D-1)(τ(m) + s + r + W),
//	                               Remain = B*(s + r + o) + B*W (the latter a compute term)
//	fan-in, fan-out                B*(τ(m) + s + r): the root takes the messages in turn
//	wavefront (Brim eq. 4–6)       StartP(D_X, D_Y) + B*W + (B-1)*2r,
//	                               StartP(i, j) = (i-1)(W + s + τ(m_X)) + (j-1)(W + τ(m_Y) + r)
//
// with B the stages, W the overlapped work per stage and D the chain depth
// of each phase (see Phase).
func (a *Analysis) Model(opt ModelOptions) (whatif.Model, []Term, error) {
	if err := a.complete(); err != nil {
		return whatif.Model{}, nil, err
	}
	prof := opt.Profile
	if prof == nil {
		prof = model.Default()
	}
	net, err := prof.Network()
	if err != nil {
		return whatif.Model{}, nil, err
	}
	u := opt.UnitTime
	unitNote := ""
	if u.IsZero() {
		u = prof.Ops.Resolved().Add
		if u.IsZero() {
			// Network-only profiles (MK's Paragon, Brim's LAM) give no
			// operation costs: the default profile's are used, and said.
			u = model.Default().Ops.Resolved().Add
			unitNote = fmt.Sprintf(" (%s gives no operation costs: %s's)", prof.Name, model.DefaultName)
		}
	}
	ops := prof.Ops
	if ops.Resolved().Add.IsZero() {
		ops = model.Default().Ops
	}
	uc := symbolic.Const(u)
	b := &builder{a: a, net: net, ops: ops, u: uc, opt: opt}

	// Work taken by the phases, per rank.
	var inPhases symbolic.Piecewise
	for _, st := range a.steps {
		if st.Wavefront != nil {
			inPhases = inPhases.Add(st.Wavefront.Work)
			continue
		}
		for _, g := range st.Phases {
			inPhases = inPhases.Add(g.Work)
		}
	}
	work := a.Report.Work.Add(inPhases.Scale(symbolic.Int(-1))).SimplifyWithin(a.assume, proofBudget)
	how := "work outside the phases"
	if opt.Leading {
		work = Leading(work)
		how = "leading-order work outside the phases"
	}
	var compute Term
	compute.Name, compute.Kind = "compute", whatif.Compute
	if opt.Balance && a.Report.Parallel {
		mean, err := a.MeanOverRanks(work)
		if err != nil {
			return whatif.Model{}, nil, fmt.Errorf("mean work over ranks: %w", err)
		}
		compute.T = mean.Scale(uc)
		compute.How = fmt.Sprintf("mean over ranks of the %s × %s per unit%s (balanced)", how, model.FormatDuration(u), unitNote)
	} else {
		m, err := a.MaxOverRanks(work)
		if err != nil {
			return whatif.Model{}, nil, err
		}
		compute.T = m.Value.Scale(uc)
		compute.Max = &m
		compute.How = fmt.Sprintf("max over ranks (%s) of the %s × %s per unit%s", maxText(m), how, model.FormatDuration(u), unitNote)
	}
	terms := []Term{compute}

	for _, st := range a.steps {
		ts, err := b.step(st)
		if err != nil {
			return whatif.Model{}, nil, fmt.Errorf("%s: %w", st.Name(), err)
		}
		terms = append(terms, ts...)
	}
	for _, c := range a.Collectives {
		t, err := b.collective(c)
		if err != nil {
			return whatif.Model{}, nil, fmt.Errorf("%s: %w", c.Comm.ID, err)
		}
		if t != nil {
			terms = append(terms, *t)
		}
	}
	// Unique names: a second "reduce" becomes "reduce L57".
	count := map[string]int{}
	for _, t := range terms {
		count[t.Name]++
	}
	for i := range terms {
		if count[terms[i].Name] > 1 && i > 0 {
			terms[i].Name = fmt.Sprintf("%s #%d", terms[i].Name, i)
		}
	}
	m := whatif.Model{Size: cost.Size}
	for _, t := range terms {
		m.Terms = append(m.Terms, t.Term)
	}
	return m, terms, nil
}

func maxText(m Max) string {
	switch m.Method {
	case AtRank:
		return "at rank " + m.Rank.String()
	case RankFree:
		return "the same on every rank"
	case Approx:
		return m.Note
	}
	return m.Method.String()
}

type builder struct {
	a   *Analysis
	net model.PointToPoint
	ops model.Ops
	u   symbolic.Expr
	opt ModelOptions
}

// phaseTime returns a phase's time, split into its communication part and
// the work it carries (pipelines), with a description.
func (b *builder) phaseTime(g *Phase) (comm, work symbolic.Piecewise, how string, err error) {
	a := b.a
	rg, err := a.splitPW(b.net, g.MsgBytes)
	if err != nil {
		return comm, work, "", err
	}
	B := g.Stages.Value
	wmax := symbolic.Piecewise{}
	if len(g.Work.Pieces) > 0 {
		m, err := a.MaxOverRanks(g.Work)
		if err != nil {
			return comm, work, "", err
		}
		wmax = m.Value.Scale(b.u)
	}
	wst, err := pwDiv(wmax, B, a.pv)
	if err != nil {
		return comm, work, "", err
	}
	msg := "m = " + pwText(g.MsgBytes) + " B"
	if g.MsgMean {
		msg = "mean m = " + pwText(g.MsgBytes) + " B"
	}
	switch g.Kind {
	case Exchange, Shift:
		per := rg.time
		how = fmt.Sprintf("B*(τ(m) + s + r), B = %s, %s", pwText(B), msg)
		if len(wst.Pieces) > 0 {
			mx, err := pwMax(rg.tau, wst, a.pv)
			if err != nil {
				return comm, work, "", err
			}
			per = mx.Add(rg.ovh)
			how = fmt.Sprintf("B*(max(τ(m), W) + s + r), B = %s, %s", pwText(B), msg)
		}
		comm = pwMul(B, per, a.pv)
	case Pipeline:
		if g.Depth.NumTerms() == 0 && g.Depth.IsZero() {
			return comm, work, "", errors.New("pipeline without a chain depth")
		}
		hops := symbolic.PiecewiseOf(a.hops(g.Depth))
		fill := pwMul(hops, rg.time.Add(wst), a.pv)
		remain := pwMul(B, rg.ovh, a.pv)
		comm = fill.Add(remain)
		work = wmax
		how = fmt.Sprintf("Fill + Remain = (D-1)(τ(m) + s + r + W) + B(s + r + o + W), D = %v, B = %s, %s", g.Depth, pwText(B), msg)
	case FanIn, FanOut:
		comm = pwMul(B, rg.time, a.pv)
		how = fmt.Sprintf("B*(τ(m) + s + r), B = %s, %s; %s", pwText(B), msg, g.FanInNote)
	}
	return comm, work, how, nil
}

// step returns the terms of one step of the composition.
func (b *builder) step(st *Step) ([]Term, error) {
	if st.Wavefront != nil {
		return b.wavefront(st.Wavefront)
	}
	if len(st.Phases) == 1 {
		g := st.Phases[0]
		comm, work, how, err := b.phaseTime(g)
		if err != nil {
			return nil, err
		}
		ts := []Term{{Term: whatif.Term{Name: g.Name, Kind: whatif.Comm, T: comm}, How: how}}
		if len(work.Pieces) > 0 {
			ts = append(ts, Term{Term: whatif.Term{Name: g.Name + " work", Kind: whatif.Compute, T: work},
				How: "B*W: the work between the receive and the send, max over ranks"})
		}
		return ts, nil
	}
	// Two overlapping phases: the larger of the two (MK's max(T(g_i),
	// T(g_i+1))), reported as the larger of their works (compute) and the
	// rest (communication), which add up to it.
	var ts, ws [2]symbolic.Piecewise
	var hows [2]string
	for i, g := range st.Phases {
		c, w, how, err := b.phaseTime(g)
		if err != nil {
			return nil, err
		}
		ts[i], ws[i], hows[i] = c.Add(w), w, how
	}
	a := b.a
	mx, err := pwMax(ts[0], ts[1], a.pv)
	if err != nil {
		return nil, err
	}
	wmx, err := pwMax(ws[0], ws[1], a.pv)
	if err != nil {
		return nil, err
	}
	how := fmt.Sprintf("max(%s; %s) less the larger work: they overlap (%s)", hows[0], hows[1], st.Overlap.Note)
	if !st.Overlap.Always {
		// Overlapped from P = From on, one after the other below.
		ge := symbolic.Rel(symbolic.Sym(cost.Size), ">=", symbolic.Int(st.Overlap.From))
		lt := symbolic.Rel(symbolic.Sym(cost.Size), "<", symbolic.Int(st.Overlap.From))
		mx = guardAll(mx, ge).Add(guardAll(ts[0].Add(ts[1]), lt)).SimplifyWithin(a.rankFree, proofBudget)
		wmx = guardAll(wmx, ge).Add(guardAll(ws[0].Add(ws[1]), lt)).SimplifyWithin(a.rankFree, proofBudget)
		how += fmt.Sprintf("; the sum below P = %d", st.Overlap.From)
	}
	out := []Term{{Term: whatif.Term{Name: st.Name(), Kind: whatif.Comm,
		T: mx.Add(wmx.Scale(symbolic.Int(-1))).SimplifyWithin(a.rankFree, proofBudget)}, How: how}}
	if len(wmx.Pieces) > 0 {
		out = append(out, Term{Term: whatif.Term{Name: st.Name() + " work", Kind: whatif.Compute, T: wmx},
			How: "the larger of the two phases' work between receive and send (max over ranks)"})
	}
	return out, nil
}

func guardAll(pw symbolic.Piecewise, r symbolic.Relation) symbolic.Piecewise {
	var out symbolic.Piecewise
	for _, p := range pw.Pieces {
		out.Pieces = append(out.Pieces, symbolic.Piece{Guard: append(slices.Clone(p.Guard), r), Value: p.Value})
	}
	return out
}

// wavefront returns Brim's sweep time (seed 002 eq. 4–5) as a comm term and
// a compute term.
func (b *builder) wavefront(w *Wavefront) ([]Term, error) {
	a := b.a
	rx, err := a.splitPW(b.net, w.X.MsgBytes)
	if err != nil {
		return nil, err
	}
	ry, err := a.splitPW(b.net, w.Y.MsgBytes)
	if err != nil {
		return nil, err
	}
	B := w.X.Stages.Value
	m, err := a.MaxOverRanks(w.Work)
	if err != nil {
		return nil, err
	}
	wmax := m.Value.Scale(b.u)
	wst, err := pwDiv(wmax, B, a.pv)
	if err != nil {
		return nil, err
	}
	// StartP(D_X, D_Y) = (D_X-1)(W + T_send + T_comm) + (D_Y-1)(W + T_comm + T_recv).
	sx := pwMul(symbolic.PiecewiseOf(a.hops(w.X.Depth)), wst.Add(rx.half).Add(rx.tau), a.pv)
	sy := pwMul(symbolic.PiecewiseOf(a.hops(w.Y.Depth)), wst.Add(ry.tau).Add(ry.half), a.pv)
	// (K-1)*2*T_recv with K = B slices.
	// (K-1) slices after the first, none where the sweep has no slice.
	after, err := pwMax(B.Add(symbolic.PiecewiseOf(symbolic.Int(-1))), symbolic.Piecewise{}, a.pv)
	if err != nil {
		return nil, err
	}
	recv := pwMul(after, ry.half.Add(rx.half), a.pv)
	comm := sx.Add(sy).Add(recv)
	how := fmt.Sprintf("StartP(D_X, D_Y) + (B-1)*2r with StartP(i, j) = (i-1)(W + s + τ(m_X)) + (j-1)(W + τ(m_Y) + r) (Brim eq. 4–5), D_X = %v, D_Y = %v, B = %s",
		w.X.Depth, w.Y.Depth, pwText(B))
	return []Term{
		{Term: whatif.Term{Name: w.Name, Kind: whatif.Comm, T: comm}, How: how},
		{Term: whatif.Term{Name: w.Name + " work", Kind: whatif.Compute, T: wmax}, How: "B*W: the slices' work on the last rank of the sweep (max over ranks, " + maxText(m) + ")", Max: &m},
	}, nil
}

// hops returns D - 1, the messages a chain of D ranks passes, or
// max(D - 1, 0) when D may be 0 (a chain of floor(P/2) ranks at P = 1).
func (a *Analysis) hops(d symbolic.Expr) symbolic.Expr {
	h := d.Sub(symbolic.Int(1))
	if a.rankFree.Prove(symbolic.Rel(h, ">=", symbolic.Int(0))) == symbolic.True {
		return h
	}
	return symbolic.Max(h, symbolic.Int(0))
}

// CollectiveOf maps an MPI collective to the algorithm model.Collective
// assumes for it.
func CollectiveOf(op apt.CommOp) (model.Collective, bool) {
	switch op {
	case apt.MPIBcast:
		return model.Bcast, true
	case apt.MPIReduce:
		return model.Reduce, true
	case apt.MPIAllreduce:
		return model.Allreduce, true
	case apt.MPIBarrier:
		return model.Barrier, true
	case apt.MPIGather, apt.MPIGatherv:
		return model.GatherLinear, true
	case apt.MPIScatter, apt.MPIScatterv:
		return model.ScatterLinear, true
	case apt.MPIAllgather, apt.MPIAllgatherv:
		return model.Allgather, true
	case apt.MPIAlltoall, apt.MPIAlltoallv:
		return model.Alltoall, true
	case apt.MPIScan, apt.MPIExscan:
		return model.Scan, true
	}
	return 0, false
}

var algorithms = map[model.Collective]string{
	model.Bcast: "binomial tree", model.Reduce: "binomial tree", model.Allreduce: "reduce + broadcast, binomial trees",
	model.Barrier: "dissemination", model.GatherLinear: "linear", model.ScatterLinear: "linear",
	model.Allgather: "ring", model.Alltoall: "pairwise exchange", model.Scan: "linear chain",
}

// collective returns a collective's term: its calls times the algorithm's
// time, the combine of a reduction being one add per element.
func (b *builder) collective(c *Collective) (*Term, error) {
	alg, ok := CollectiveOf(c.Comm.Op)
	if !ok {
		return nil, nil
	}
	calls, err := b.a.MaxOverRanks(c.Node.Comm.Messages)
	if err != nil {
		return nil, err
	}
	c.Calls = calls
	// The bytes per call: one closed form, or one per region of P and
	// the sizes where the heaviest rank's block differs (a block with
	// the remainder's extra element on some ranks).
	ms := []region{{value: symbolic.Int(0)}}
	if c.Bytes != nil {
		ms[0].value = *c.Bytes
	} else if c.Comm.Op != apt.MPIBarrier {
		vol, err := b.a.MaxOverRanks(c.Node.Comm.BytesSent)
		if err != nil {
			return nil, err
		}
		per, err := pwDiv(vol.Value, calls.Value, b.a.pv)
		if err == nil {
			ms, err = disjoint(per, b.a.pv)
		}
		if err != nil {
			return nil, fmt.Errorf("message size of %s: %v", c.Comm.Op, err)
		}
	}
	var t symbolic.Piecewise
	var sizes []region
	for _, r := range ms {
		m := r.value
		combine := symbolic.Int(0)
		if (alg == model.Reduce || alg == model.Allreduce || alg == model.Scan) && c.TypeSize > 0 {
			combine = m.Div(symbolic.Int(int64(c.TypeSize))).Mul(symbolic.Const(b.ops.Resolved().Add))
		}
		tr, err := alg.Time(b.net, symbolic.Sym(cost.Size), m, combine)
		if err != nil {
			return nil, err
		}
		for _, p := range tr.Pieces {
			// The regions are disjoint: the time is their sum.
			t.Pieces = append(t.Pieces, symbolic.Piece{Guard: append(slices.Clone(r.guard), p.Guard...), Value: p.Value})
		}
		sizes = append(sizes, r)
	}
	m := fromRegions(sizes, b.a.pv)
	kind := whatif.Comm
	name := c.Comm.Op.String()
	how := fmt.Sprintf("%s calls × %s (%s), m = %v B", pwText(calls.Value), alg, algorithms[alg], pwText(m))
	if c.Input {
		kind = whatif.IO
		name += " input"
		how += "; it distributes input the program read, which Pacheco counts with the I/O"
	}
	return &Term{Term: whatif.Term{Name: name, Kind: kind, T: pwMul(calls.Value, t, b.a.pv)}, How: how, Max: &calls}, nil
}

// pwText prints a Piecewise on one line: its expression when it has one
// unguarded piece.
func pwText(pw symbolic.Piecewise) string {
	if e, ok := pw.Single(); ok {
		return e.String()
	}
	return strings.ReplaceAll(strings.TrimSpace(pw.String()), "\n", "; ")
}

// MeanOverRanks returns the mean of a per-rank closed form over the ranks,
// (1/P) * sum over rank = 0..P-1, summed exactly by the counting engine.
func (a *Analysis) MeanOverRanks(pw symbolic.Piecewise) (symbolic.Piecewise, error) {
	if !pw.Has(cost.Rank) {
		return pw, nil
	}
	P := symbolic.Sym(cost.Size)
	var sum symbolic.Piecewise
	for _, p := range pw.Pieces {
		cond := counting.And{
			counting.Rel{R: symbolic.Rel(symbolic.Sym(cost.Rank), ">=", symbolic.Int(0))},
			counting.Rel{R: symbolic.Rel(symbolic.Sym(cost.Rank), "<=", P.Sub(symbolic.Int(1)))},
		}
		params := map[string]bool{}
		for _, r := range p.Guard {
			cond = append(cond, counting.Rel{R: r})
			for _, s := range r.E.Symbols() {
				params[s] = true
			}
		}
		for _, s := range p.Value.Symbols() {
			params[s] = true
		}
		params[cost.Size] = true
		delete(params, cost.Rank)
		set := &counting.Set{Vars: []string{cost.Rank}, Cond: cond}
		for s := range params {
			set.Params = append(set.Params, s)
		}
		slices.Sort(set.Params)
		s, err := counting.Sum(set, p.Value, a.rankFree, counting.Options{})
		if err != nil {
			return symbolic.Piecewise{}, err
		}
		sum = sum.Add(s)
	}
	return sum.Scale(symbolic.Int(1).Div(P)).SimplifyWithin(a.rankFree, proofBudget), nil
}

// Leading returns the leading-order part of a per-rank closed form as every
// symbol other than P and rank grows by a common factor t: in each piece the
// terms of the highest degree in t, floor, ceil and trunc of a growing
// argument counted as the argument; then only the pieces of the highest
// degree of all. Guards are kept. Pieces whose degree is not defined (a
// log of a size) are kept whole.
func Leading(pw symbolic.Piecewise) symbolic.Piecewise {
	const t = "mkvet_phase_t"
	type lead struct {
		p   symbolic.Piece
		deg int
	}
	var ls []lead
	best := -1 << 30
	for _, p := range pw.Pieces {
		sub := map[string]symbolic.Expr{}
		for _, s := range p.Value.Symbols() {
			if s != cost.Size && s != cost.Rank {
				sub[s] = symbolic.Sym(s).Mul(symbolic.Sym(t))
			}
		}
		v, err := p.Value.Subst(sub)
		if err == nil {
			v = unfloor(v, t)
		}
		cs, ok := v.Coeffs(t)
		if err != nil || !ok {
			ls = append(ls, lead{p, best})
			continue
		}
		deg, first := 0, true
		for k, c := range cs {
			if !c.IsZero() && (first || k > deg) {
				deg, first = k, false
			}
		}
		if first {
			continue
		}
		ls = append(ls, lead{symbolic.Piece{Guard: p.Guard, Value: cs[deg]}, deg})
		best = max(best, deg)
	}
	var out symbolic.Piecewise
	for _, l := range ls {
		if l.deg == best {
			out.Pieces = append(out.Pieces, l.p)
		}
	}
	return out
}

// unfloor replaces floor, ceil and trunc of arguments that mention t by the
// arguments, innermost first.
func unfloor(e symbolic.Expr, t string) symbolic.Expr {
	for range 20 {
		changed := false
		for _, at := range e.FuncAtoms() {
			name, args, ok := at.AsFunc()
			if !ok || len(args) != 1 || !args[0].Has(t) {
				continue
			}
			switch name {
			case "floor", "ceil", "trunc":
				e = e.Replace(at, unfloor(args[0], t))
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	return e
}

// Relax returns pw with floor, ceil and trunc of arguments that mention
// the symbol k replaced by their arguments: the continuous closed form MK
// differentiates for the optimal grain size (seed 000 §5.4), equal to pw
// wherever the arguments are integers (k divides the size).
func Relax(pw symbolic.Piecewise, k string) symbolic.Piecewise {
	var out symbolic.Piecewise
	for _, p := range pw.Pieces {
		q := symbolic.Piece{Value: unfloor(p.Value, k)}
		for _, r := range p.Guard {
			q.Guard = append(q.Guard, symbolic.Relation{E: unfloor(r.E, k), Op: r.Op})
		}
		out.Pieces = append(out.Pieces, q)
	}
	return out
}

// UnitTime returns the time of one operation unit when one execution of the
// report node id (one iteration, for a loop) takes t seconds: t divided by
// the node's work per execution, which must be the same at every sample.
// This states Pacheco's "22.3 µs per trapezoid" (seed 004 §11.6) as the
// cost of one iteration of the loop that computes a trapezoid; the rest of
// the work scales by its ratio of operations to that loop body.
func (a *Analysis) UnitTime(id string, t symbolic.Rat) (symbolic.Rat, error) {
	n := a.Report.ByID[id]
	if n == nil {
		var ids []string
		for _, x := range a.Report.Nodes {
			if _, ok := x.Node.(*apt.Loop); ok {
				ids = append(ids, x.Node.Base().ID)
			}
		}
		return symbolic.Rat{}, fmt.Errorf("no node %s in the program (its loops: %v)", id, ids)
	}
	per := n.Count
	what := "execution"
	if _, ok := n.Node.(*apt.Loop); ok {
		per, what = n.Iterations, "iteration"
	}
	var ratio symbolic.Rat
	found := false
	for _, s := range a.samples {
		ws, err := s.perRank(n.Work)
		if err != nil {
			return symbolic.Rat{}, err
		}
		cs, err := s.perRank(per)
		if err != nil {
			return symbolic.Rat{}, err
		}
		for r := range ws {
			if cs[r].IsZero() {
				continue
			}
			q := ws[r].Quo(cs[r])
			if !found {
				ratio, found = q, true
			} else if !q.Equal(ratio) {
				return symbolic.Rat{}, fmt.Errorf("the work of one %s of %s varies (%s and %s units at %s)", what, id, ratio, q, s)
			}
		}
	}
	if !found || ratio.Sign() <= 0 {
		return symbolic.Rat{}, fmt.Errorf("%s does no work at any sample", id)
	}
	return t.Quo(ratio), nil
}

// IncompleteError says that a model would rest on counts without a value:
// the program's work, or some node's count, has no closed form within the
// analysis's limits (cost.Node.Missing). A time built from what remains
// would be too small by an unknown amount, so none is given.
type IncompleteError struct {
	// Nodes are the nodes without a count, in report order; WorkMissing is
	// set when the program's work as a whole has none.
	Nodes       []*cost.Node
	WorkMissing bool
}

func (e *IncompleteError) Error() string {
	if len(e.Nodes) == 0 {
		return "the program's work has no closed form within the analysis's limits, so no time is predicted"
	}
	n := e.Nodes[0]
	return fmt.Sprintf("the counts of %d loops, calls and MPI calls (the first %s at %s) have no value within the analysis's limits, so no time is predicted",
		len(e.Nodes), n.Node.Base().ID, n.Node.Base().Span.Start())
}

// complete returns an IncompleteError when the report lacks a count the
// model needs.
func (a *Analysis) complete() error {
	nodes := a.Report.NoClosedForm()
	if len(nodes) == 0 && !a.Report.WorkMissing {
		return nil
	}
	return &IncompleteError{Nodes: nodes, WorkMissing: a.Report.WorkMissing}
}
