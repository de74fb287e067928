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

// Kind classifies a communication phase (MK, seed 000 §3).
type Kind int

const (
	// Exchange is a loosely synchronous phase in which every participant
	// sends and receives in one call (MPI_Sendrecv) or posts nonblocking
	// sends and receives before waiting: boundary exchanges.
	Exchange Kind = iota + 1 // exchange
	// Shift is a loosely synchronous phase whose ranks send before they
	// receive (MK's shift pattern, Fig. 1).
	Shift // shift
	// Pipeline is an asynchronous phase: a rank receives before it sends
	// along a chain of ranks (MK's pipeline pattern, Fig. 1).
	Pipeline // pipeline
	// FanIn has many ranks send to one (a linear gather written with
	// point-to-point calls, as in Pacheco's first trapezoidal rule).
	FanIn // fan-in
	// FanOut has one rank send to many.
	FanOut // fan-out
)

var kindNames = [...]string{Exchange: "exchange", Shift: "shift", Pipeline: "pipeline", FanIn: "fan-in", FanOut: "fan-out"}

// String returns the kind's name as in its declaration's line comment.
func (k Kind) String() string {
	if k >= 1 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Options control Analyze.
type Options struct {
	// Cost is passed to cost.Analyze and symbolic evaluation.
	Cost cost.Options
	// Env gives parameter values for the samples, as closed forms that may
	// use P (px = sqrt(P)); parameters it does not name take their defaults.
	Env map[string]symbolic.Expr
	// SampleP lists the process counts at which the structure (who sends to
	// whom, chain depths, overlap, maxima over ranks) is evaluated and
	// checked; nil means 1..16, 24, 32, 48 and 64. Samples whose parameter
	// values violate the program's assumptions or are not integers are
	// skipped.
	SampleP []int64
}

// Side is one side of a point-to-point call (its send or its receive) under
// one alternative of its peer and size.
type Side struct {
	Comm *apt.Comm
	Node *cost.Node // the report node of the call
	Occ  *symeval.Occ
	Send bool
	// Peer is the destination or source rank as a closed form in rank, P,
	// the parameters and the enclosing loops' variables; nil when unknown.
	Peer *symbolic.Expr
	// Offset is Peer - rank when that is free of the rank and of loop
	// variables (rank+1: offset 1); Fixed is Peer when Peer is (a root such
	// as rank 0).
	Offset, Fixed *symbolic.Expr
	// Bytes is the size of one message, nil when unknown.
	Bytes *symbolic.Expr
	// Messages and Volume are how often a rank performs this side and the
	// bytes it moves, per rank.
	Messages, Volume symbolic.Piecewise
	order            int // preorder index of Occ in the evaluation
}

// Pos returns the position of the call.
func (s *Side) Pos() apt.Pos { return s.Comm.Span.Start() }

func (s *Side) String() string {
	dir, peer := "recv from", "?"
	if s.Send {
		dir = "send to"
	}
	if s.Peer != nil {
		peer = s.Peer.String()
	}
	return fmt.Sprintf("%s %s %s", s.Comm.ID, dir, peer)
}

// Phase is a set of related point-to-point calls: the sends and the
// receives that match them (MK's communication phase, a connected component
// of the matching graph, seed 000 Fig. 2 step 2), found from the closed
// forms of their peers instead of a trace.
type Phase struct {
	Name  string // kind and source line, "pipeline L44"
	Kind  Kind
	Sends []*Side
	Recvs []*Side
	// Offset is the peer offset of the sends (rank+1: 1) when they share
	// one; Root the rank a fan-in sends to or a fan-out receives from.
	Offset, Root *symbolic.Expr
	// Stages is B: the largest number of messages a rank receives (a
	// pipeline's or fan-in's stages) or sends (synchronous phases), over
	// the ranks.
	Stages Max
	// MsgBytes is the size of one message; MsgMean is set when the sizes
	// vary and MsgBytes is their mean on the busiest rank.
	MsgBytes symbolic.Piecewise
	MsgMean  bool
	// Depth is D for pipelines: the number of ranks on the longest chain of
	// messages, as a closed form fitted to the chains at the samples
	// (DepthFit says which, and where it was checked); Hops = D - 1.
	Depth    symbolic.Expr
	DepthFit string
	// Depths holds the longest chain at each sample P.
	Depths map[int64]int
	// Overlapped are the nodes whose work lies between the receive and the
	// send of a pipeline (MK's W), or between the send and the receive of a
	// shift; Work is their work per rank, in operation units.
	Overlapped []*cost.Node
	Work       symbolic.Piecewise
	// Senders and Receivers are MK's SL(g) and RL(g) at each sample P.
	Senders, Receivers map[int64][]int64
	// FanInNote explains the model's optimism for fan-in and fan-out.
	FanInNote string
	first     int
}

// Pos returns the position of the phase's first call.
func (g *Phase) Pos() apt.Pos {
	if len(g.Sends) > 0 {
		return g.Sends[0].Pos()
	}
	return g.Recvs[0].Pos()
}

// Overlap is MK's overlap decision for two consecutive phases (seed 000
// §4.1): they overlap when no rank that receives in the first sends in the
// second, RL(g_i) ∩ SL(g_i+1) = ∅.
type Overlap struct {
	First, Second *Phase
	// Always: disjoint at every sample; From > 0: disjoint exactly at the
	// samples with P >= From. Neither: dependent.
	Always bool
	From   int64
	Note   string
}

// Overlaps reports whether the pair overlaps at some P.
func (o *Overlap) Overlaps() bool { return o.Always || o.From > 0 }

// Collective is an MPI collective call of the program.
type Collective struct {
	Comm *apt.Comm
	Node *cost.Node
	// Calls is how many times a rank calls it, maximised over the ranks.
	Calls Max
	// Bytes is the size of one rank's contribution; nil when unknown.
	Bytes *symbolic.Expr
	// TypeSize is the datatype's size (0 unknown), for reduction costs.
	TypeSize int
	// Input is set for a broadcast or scatter of a value the program read
	// (a READ or the command line) just before: distributing input, which
	// Pacheco counts with the I/O (seed 004 §11.6).
	Input bool
}

// Wavefront is a sweep over a 2D grid of ranks (Brim's LU model, seed 002
// §VI): two pipelines along different offsets in one loop body, both
// receives before the work and both sends after it, so that rank (i, j)
// starts a slice when its west and south neighbours have finished theirs.
type Wavefront struct {
	Name string
	// X runs along the first pipeline's offset (a row of the grid, D_X
	// ranks), Y along the second (a column, D_Y ranks).
	X, Y *Phase
	// Work is the work per rank in the window from the first receive to the
	// last send, all slices.
	Work       symbolic.Piecewise
	Overlapped []*cost.Node
}

// Analysis is the communication structure of a costed program.
type Analysis struct {
	Report *cost.Report
	Eval   *symeval.Result
	Sides  []*Side
	// Phases are in program order (of their first call).
	Phases []*Phase
	// Overlaps holds MK's decision for each pair the composition pairs.
	Overlaps    []*Overlap
	Collectives []*Collective
	Wavefronts  []*Wavefront
	// Unmatched are sides no phase explains (a peer that is not derived).
	Unmatched []*Side
	Samples   []*Sample
	Notes     []string

	samples  []*Sample
	steps    []*Step
	rankFree *symbolic.Assumptions
	pv       *prover
	assume   *symbolic.Assumptions
	loopVars map[*symeval.Occ]map[string]bool
	// sideVals holds each side's peers and message counts per rank at
	// each sample (sideRanks): every pair of sides matches on them, so
	// each is evaluated once, not once per pair (MG at P = 1024: 100 s).
	sideVals map[sideKey]sideRanks
}

type sideKey struct {
	smp  *Sample
	side *Side
}

// sideRanks are a side's peer and message count at each rank of a
// sample, and why each could not be evaluated.
type sideRanks struct {
	peer, msgs       []symbolic.Rat
	peerErr, msgsErr error
}

// ranksOf evaluates side's peer (when it has one) and message count at
// every rank of smp, once per side and sample.
func (a *Analysis) ranksOf(smp *Sample, side *Side) sideRanks {
	k := sideKey{smp, side}
	if v, ok := a.sideVals[k]; ok {
		return v
	}
	var v sideRanks
	if side.Peer != nil {
		v.peer, v.peerErr = smp.perRank(symbolic.PiecewiseOf(*side.Peer))
	}
	v.msgs, v.msgsErr = smp.perRank(side.Messages)
	if a.sideVals == nil {
		a.sideVals = map[sideKey]sideRanks{}
	}
	a.sideVals[k] = v
	return v
}

// DefaultSampleP are the process counts of the default samples.
var DefaultSampleP = []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 24, 32, 48, 64}

// Analyze costs prog (cost.Analyze) and finds its communication phases:
// for every point-to-point call, whom each rank sends to or receives from as
// a closed form; the calls that match (a send with peer rank+d and a
// receive with peer rank-d, compatible tags; a send to a fixed rank and a
// receive on that rank); the phases they form, each classified as exchange,
// shift, pipeline, fan-in or fan-out, with its chain depth, stages, message
// size and overlapped work; and MK's overlap decisions between consecutive
// phases (seed 000 §3–4). When the program is costed but its samples
// cannot be taken (it stops at the point, or values are missing there), the
// Analysis returned with the error holds the Report alone.
func Analyze(prog *apt.Program, opt Options) (*Analysis, error) {
	rep, err := cost.Analyze(prog, opt.Cost)
	if err != nil {
		return nil, err
	}
	// The report's own evaluation: at a point (opt.Cost.Values) its
	// transfers are the point's.
	res := rep.Eval
	a := &Analysis{Report: rep, Eval: res, assume: rep.Assumptions, rankFree: withoutRank(rep.Assumptions),
		loopVars: map[*symeval.Occ]map[string]bool{}}
	a.pv = newProver(a.rankFree)
	a.pv.np = rep.RankwiseP
	if err := a.makeSamples(opt); err != nil {
		// The report stands (a caller tells a program that stops, or
		// lacks values, at the point from one that cannot be costed):
		// costing it again would repeat the whole evaluation.
		return &Analysis{Report: rep, Eval: res}, err
	}
	tcs, err := rep.Transfers()
	if err != nil {
		a.Notes = append(a.Notes, fmt.Sprintf("some transfers were not counted: %v", err))
	}
	order := map[*symeval.Occ]int{}
	var walk func(o *symeval.Occ)
	walk = func(o *symeval.Occ) {
		order[o] = len(order)
		if c, ok := o.Node.(*apt.Comm); ok && c.Op.IsCollective() {
			a.collective(c, o)
		}
		for _, c := range o.Children {
			walk(c)
		}
	}
	walk(res.Root)
	for _, tc := range tcs {
		s := a.side(tc, order[tc.Occ])
		if s != nil {
			a.Sides = append(a.Sides, s)
		}
	}
	slices.SortStableFunc(a.Sides, func(x, y *Side) int { return x.order - y.order })
	a.match()
	for _, g := range a.Phases {
		if err := a.describe(g); err != nil {
			return nil, fmt.Errorf("phase %s: %w", g.Name, err)
		}
	}
	a.wavefronts()
	a.overlaps()
	return a, nil
}

// makeSamples builds the sample points from the options.
func (a *Analysis) makeSamples(opt Options) error {
	ps := opt.SampleP
	if ps == nil {
		ps = DefaultSampleP
	}
	if !a.Report.Parallel {
		ps = []int64{1}
	}
	var first error // why the first sample point failed
next:
	for _, p := range ps {
		env := map[string]int64{}
		if a.Report.Parallel {
			env[cost.Size] = p
		}
		at := map[string]symbolic.Rat{cost.Size: symbolic.RatInt(p)}
		for name, e := range opt.Env {
			v, err := e.Eval(at)
			if err != nil || !v.IsInt() {
				continue next
			}
			n, ok := v.Int64()
			if !ok {
				continue next
			}
			env[name] = n
		}
		pt, err := a.Report.At(env)
		if err != nil {
			if first == nil {
				first = fmt.Errorf("at P=%d: %w", p, err)
			}
			continue
		}
		s := newSample(pt.Env)
		if !a.Report.Parallel {
			s.P = 1
		}
		a.samples = append(a.samples, s)
	}
	if len(a.samples) == 0 {
		var missing, names []string
		for _, p := range a.Report.Params {
			if _, ok := opt.Env[p.Name]; !ok && p.Default == nil {
				missing = append(missing, fmt.Sprintf("%s (%s, %s)", p.Name, p.What, p.Pos))
				names = append(names, p.Name+"=...")
			}
		}
		if len(missing) > 0 {
			return &MissingValuesError{Parallel: a.Report.Parallel,
				Msg: fmt.Sprintf("no value for %s; give -D %s", strings.Join(missing, "; "), strings.Join(names, ","))}
		}
		return &NoSampleError{Parallel: a.Report.Parallel, First: first}
	}
	a.Samples = a.samples
	return nil
}

// NoSampleError says that the program's counts have no value at any of the
// sample process counts: most often values the evaluation derives only at a
// given P (sizes computed from P and kept in arrays) stay unknowns in the
// closed forms. A what-if over P then evaluates each process count on its
// own.
type NoSampleError struct {
	Parallel bool  // the program is an MPI program
	First    error // why the first sample point failed
}

func (e *NoSampleError) Error() string {
	if e.First == nil {
		return "phase: no sample point satisfies the program's assumptions"
	}
	return "the counts have no value at any sampled process count (" + e.First.Error() + ")"
}

func (e *NoSampleError) Unwrap() error { return e.First }

// MissingValuesError is returned when parameters of the closed forms have
// neither a value nor a default. In a parallel program some may be values
// the program derives from P in ways no closed form holds (a process grid
// MPI_Dims_create chooses), which an evaluation at each P gives.
type MissingValuesError struct {
	Parallel bool
	Msg      string
}

func (e *MissingValuesError) Error() string { return e.Msg }

// withoutRank returns the relations of a that do not mention the rank.
func withoutRank(a *symbolic.Assumptions) *symbolic.Assumptions {
	var rels []symbolic.Relation
	for _, r := range a.Relations() {
		if !r.E.Has(cost.Rank) {
			rels = append(rels, r)
		}
	}
	return symbolic.NewAssumptions(rels...)
}

// loopVarsOf returns the loop variables of o's domain.
func (a *Analysis) loopVarsOf(o *symeval.Occ) map[string]bool {
	if m, ok := a.loopVars[o]; ok {
		return m
	}
	m := map[string]bool{}
	if o.Dom != nil {
		for _, v := range o.Dom.Vars {
			m[v] = true
		}
	}
	a.loopVars[o] = m
	return m
}

func mentions(e symbolic.Expr, vars map[string]bool) bool {
	for _, s := range e.Symbols() {
		if vars[s] {
			return true
		}
	}
	return false
}

// side turns a counted transfer into a Side, nil when no rank performs it
// at any sample.
func (a *Analysis) side(tc cost.TransferCount, order int) *Side {
	c := tc.Occ.Node.(*apt.Comm)
	s := &Side{Comm: c, Node: a.Report.ByID[c.ID], Occ: tc.Occ, Send: tc.Send, Peer: tc.Peer, Bytes: tc.Bytes,
		Messages: tc.Messages, Volume: tc.Volume, order: order}
	if s.Peer != nil {
		lv := a.loopVarsOf(tc.Occ)
		if !mentions(*s.Peer, lv) {
			if s.Peer.Has(cost.Rank) {
				d := s.Peer.Sub(symbolic.Sym(cost.Rank))
				if !d.Has(cost.Rank) {
					s.Offset = &d
				}
			} else {
				p := *s.Peer
				s.Fixed = &p
			}
		}
	}
	any := false
	for _, smp := range a.samples {
		vs, err := smp.perRank(s.Messages)
		if err != nil {
			any = true // keep what cannot be evaluated; matching decides
			break
		}
		for _, v := range vs {
			if v.Sign() > 0 {
				any = true
				break
			}
		}
		if any {
			break
		}
	}
	if !any {
		return nil
	}
	return s
}

// collective records a collective call.
func (a *Analysis) collective(c *apt.Comm, o *symeval.Occ) {
	n := a.Report.ByID[c.ID]
	if n == nil || n.Comm == nil {
		return
	}
	for _, x := range a.Collectives {
		if x.Comm == c {
			return // another context of the same call: the node's counts cover it
		}
	}
	col := &Collective{Comm: c, Node: n, Bytes: n.Comm.MsgBytes}
	if c.Send != nil {
		col.TypeSize = c.Send.TypeSize
	} else if c.Recv != nil {
		col.TypeSize = c.Recv.TypeSize
	}
	col.Input = (c.Op == apt.MPIBcast || c.Op == apt.MPIScatter || c.Op == apt.MPIScatterv) && readBefore(o, c)
	a.Collectives = append(a.Collectives, col)
}

// readBefore reports whether the buffer of c is a variable that a READ (or
// get_command_argument) earlier in c's routine sets: c distributes input.
func readBefore(o *symeval.Occ, c *apt.Comm) bool {
	if c.Send == nil {
		return false
	}
	nm, ok := c.Send.Buffer.(*apt.Name)
	if !ok || o.Routine == nil {
		return false
	}
	found := false
	apt.Inspect(o.Routine, func(n apt.Node) bool {
		if n == nil || found {
			return false
		}
		if n == apt.Node(c) {
			return false
		}
		if io, ok := n.(*apt.IO); ok && io.Kind == apt.IORead && slices.Contains(io.Reads, nm.Name) &&
			io.Span.Start().Line <= c.Span.Start().Line {
			found = true
		}
		return true
	})
	return found
}

// tagsCompatible reports whether a send with tag x may match a receive
// with tag y: unless both are integer literals that differ. A tag held in
// a variable may take any value, so it matches any other.
func tagsCompatible(x, y apt.Expr) bool {
	cx, okx := x.(*apt.Const)
	cy, oky := y.(*apt.Const)
	if !okx || !oky || cx.Kind != cy.Kind {
		return true
	}
	return cx.Text == cy.Text
}

// matches reports whether send side s and receive side r can be the two
// ends of the same messages: peers with opposite offsets, or a fixed
// destination on which the receive runs (and a receive from a fixed source
// on which the send runs), with compatible tags.
func (a *Analysis) matches(s, r *Side) bool {
	if !tagsCompatible(tagOf(s.Comm, true), tagOf(r.Comm, false)) {
		return false
	}
	switch {
	case s.Offset != nil && r.Offset != nil:
		return s.Offset.Add(*r.Offset).IsZero()
	case s.Fixed != nil && r.Offset == nil:
		// Rank c receives here, and (when the receive names a fixed
		// source) that source sends here.
		if !a.performsOn(r, *s.Fixed) {
			return false
		}
		return r.Fixed == nil || a.performsOn(s, *r.Fixed)
	case r.Fixed != nil && s.Offset == nil:
		return a.performsOn(s, *r.Fixed)
	case s.Peer == nil && r.Peer == nil:
		return true
	case s.Peer != nil && r.Peer != nil && s.Offset == nil && s.Fixed == nil && r.Offset == nil && r.Fixed == nil:
		return a.pairedAtSamples(s, r)
	}
	return false
}

// pairedAtSamples matches a send and a receive whose peers are functions
// of the rank that no fixed offset describes (a ring's wrap-around
// modulo(rank + 1, P), a grid's neighbours) by evaluating them at the
// samples: at each, every rank x that sends sends to a rank y that
// receives from x, and every rank y that receives receives from a rank
// that sends to y; at least one message must be so paired. A sample where
// a form cannot be evaluated decides nothing.
func (a *Analysis) pairedAtSamples(s, r *Side) bool {
	paired := false
	for _, smp := range a.samples {
		sv, rv := a.ranksOf(smp, s), a.ranksOf(smp, r)
		if sv.peerErr != nil || rv.peerErr != nil || sv.msgsErr != nil || rv.msgsErr != nil {
			continue
		}
		dest, src, ns, nr := sv.peer, rv.peer, sv.msgs, rv.msgs
		rankOf := func(v symbolic.Rat) (int64, bool) {
			if !v.IsInt() {
				return 0, false
			}
			x, ok := v.Int64()
			return x, ok && x >= 0 && x < smp.P
		}
		for x := int64(0); x < smp.P; x++ {
			if ns[x].Sign() > 0 {
				y, ok := rankOf(dest[x])
				if !ok {
					continue // MPI_PROC_NULL or outside: nothing moves
				}
				if nr[y].Sign() == 0 {
					return false
				}
				if from, ok := rankOf(src[y]); !ok || from != x {
					return false
				}
				paired = true
			}
			if nr[x].Sign() > 0 {
				y, ok := rankOf(src[x])
				if !ok {
					continue
				}
				if ns[y].Sign() == 0 {
					return false
				}
				if to, ok := rankOf(dest[y]); !ok || to != x {
					return false
				}
			}
		}
	}
	return paired
}

func tagOf(c *apt.Comm, send bool) apt.Expr {
	if send && c.Send != nil {
		return c.Send.Tag
	}
	if !send && c.Recv != nil {
		return c.Recv.Tag
	}
	return nil
}

// performsOn reports whether the rank given by the rank-free closed form e
// performs side s at some sample.
func (a *Analysis) performsOn(s *Side, e symbolic.Expr) bool {
	for _, smp := range a.samples {
		v, err := smp.at(symbolic.PiecewiseOf(e))
		if err != nil || !v.IsInt() {
			continue
		}
		r, _ := v.Int64()
		if r < 0 || r >= smp.P {
			continue
		}
		sv := a.ranksOf(smp, s)
		if sv.msgsErr != nil {
			continue
		}
		if sv.msgs[r].Sign() > 0 {
			return true
		}
	}
	return false
}

// match links matching sides and makes a phase of each connected component
// (MK's CPG, seed 000 Fig. 2 steps 1–2, with call points linked by closed
// forms instead of trace events).
func (a *Analysis) match() {
	parent := make([]int, len(a.Sides))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	linked := make([]bool, len(a.Sides))
	for i, s := range a.Sides {
		if !s.Send {
			continue
		}
		for j, r := range a.Sides {
			if r.Send || !a.matches(s, r) {
				continue
			}
			parent[find(i)] = find(j)
			linked[i], linked[j] = true, true
		}
	}
	// Sides of one call (a sendrecv's two sides, the alternatives of one
	// peer) belong to one call point: MK links call points, not sides.
	for i, s := range a.Sides {
		for j := i + 1; j < len(a.Sides); j++ {
			if a.Sides[j].Comm == s.Comm && linked[i] && linked[j] {
				parent[find(i)] = find(j)
			}
		}
	}
	groups := map[int]*Phase{}
	for i, s := range a.Sides {
		if !linked[i] {
			a.Unmatched = append(a.Unmatched, s)
			continue
		}
		root := find(i)
		g := groups[root]
		if g == nil {
			g = &Phase{first: s.order}
			groups[root] = g
			a.Phases = append(a.Phases, g)
		}
		if s.Send {
			g.Sends = append(g.Sends, s)
		} else {
			g.Recvs = append(g.Recvs, s)
		}
	}
	slices.SortStableFunc(a.Phases, func(x, y *Phase) int { return x.first - y.first })
}

// describe classifies a phase and derives its stages, depth, message size
// and overlapped work.
func (a *Analysis) describe(g *Phase) error {
	g.Senders, g.Receivers, g.Depths = map[int64][]int64{}, map[int64][]int64{}, map[int64]int{}
	// Offsets and roots.
	for _, s := range g.Sends {
		if s.Offset != nil && g.Offset == nil {
			g.Offset = s.Offset
		}
		if s.Fixed != nil && g.Root == nil {
			g.Root = s.Fixed
		}
	}
	// SL and RL, and whether some rank both receives and sends.
	both := false
	for _, smp := range a.samples {
		sl, err := a.ranksDoing(smp, g.Sends)
		if err != nil {
			return err
		}
		rl, err := a.ranksDoing(smp, g.Recvs)
		if err != nil {
			return err
		}
		g.Senders[smp.P], g.Receivers[smp.P] = sl, rl
		for _, r := range rl {
			if slices.Contains(sl, r) {
				both = true
			}
		}
	}
	firstRecv, firstSend := g.Recvs[0], g.Sends[0]
	switch {
	case g.Root != nil && a.manyToOne(g.Senders, g.Receivers):
		g.Kind = FanIn
		g.FanInNote = "fan-in: the receiving rank takes the messages one after the other; LogGP charges each its overheads but no contention at the receiver, so it is optimistic here"
	case a.fixedSource(g) && a.manyToOne(g.Receivers, g.Senders):
		g.Kind = FanOut
		g.FanInNote = "fan-out: the sending rank passes the messages one after the other"
	case exchangeCall(g):
		g.Kind = Exchange
	case both && firstRecv.Comm.Op.IsBlocking() && firstRecv.order < firstSend.order:
		g.Kind = Pipeline
	default:
		g.Kind = Shift
	}
	g.Name = fmt.Sprintf("%s L%d", g.Kind, g.Pos().Line)

	// Stages: receives per rank for pipelines and fan-in, sends otherwise.
	count := sumMessages(g.Sends)
	if g.Kind == Pipeline || g.Kind == FanIn {
		count = sumMessages(g.Recvs)
	}
	var err error
	if g.Stages, err = a.MaxOverRanks(count); err != nil {
		return err
	}
	if err := a.messageSize(g); err != nil {
		return err
	}
	// Overlapped work: receive to send (pipeline), send to receive (shift).
	switch g.Kind {
	case Pipeline:
		g.Overlapped = a.between(firstRecv.Occ, firstSend.Occ)
	case Shift:
		g.Overlapped = a.between(firstSend.Occ, firstRecv.Occ)
	}
	for _, n := range g.Overlapped {
		g.Work = g.Work.Add(n.Work)
	}
	if g.Kind == Pipeline {
		a.depth(g)
	}
	return nil
}

// sumMessages adds the per-rank messages of sides.
func sumMessages(ss []*Side) symbolic.Piecewise {
	var pw symbolic.Piecewise
	for _, s := range ss {
		pw = pw.Add(s.Messages)
	}
	return pw
}

// ranksDoing returns the ranks that perform any of the sides at a sample.
func (a *Analysis) ranksDoing(smp *Sample, ss []*Side) ([]int64, error) {
	var out []int64
	sum := make([]symbolic.Rat, smp.P)
	for _, s := range ss {
		vs, err := smp.perRank(s.Messages)
		if err != nil {
			return nil, fmt.Errorf("%s at %s: %w", s, smp, err)
		}
		for r, v := range vs {
			sum[r] = sum[r].Add(v)
		}
	}
	for r, v := range sum {
		if v.Sign() > 0 {
			out = append(out, int64(r))
		}
	}
	return out, nil
}

// manyToOne reports whether, at every sample with traffic, the "many"
// lists hold more than one rank at some sample and the "one" lists at
// most one rank.
func (a *Analysis) manyToOne(many, one map[int64][]int64) bool {
	multi := false
	for p, o := range one {
		if len(o) > 1 {
			return false
		}
		if len(many[p]) > 1 {
			multi = true
		}
	}
	return multi
}

// fixedSource reports whether the receives of g name a fixed source.
func (a *Analysis) fixedSource(g *Phase) bool {
	for _, r := range g.Recvs {
		if r.Fixed != nil {
			return true
		}
	}
	return false
}

// exchangeCall reports whether the phase is made of calls that send and
// receive at once: MPI_Sendrecv, or nonblocking sends and receives.
func exchangeCall(g *Phase) bool {
	all := append(append([]*Side(nil), g.Sends...), g.Recvs...)
	for _, s := range all {
		switch s.Comm.Op {
		case apt.MPISendrecv, apt.MPISendrecvReplace, apt.MPIIsend, apt.MPIIrecv, apt.MPIIssend:
		default:
			return false
		}
	}
	return true
}

// messageSize sets g.MsgBytes: the sends' common size when they share one
// free of loop variables, else the mean, bytes over messages, on the rank
// that sends most.
func (a *Analysis) messageSize(g *Phase) error {
	var common *symbolic.Expr
	same := true
	for _, s := range g.Sends {
		if s.Bytes == nil || mentions(*s.Bytes, a.loopVarsOf(s.Occ)) {
			same = false
			break
		}
		if common == nil {
			common = s.Bytes
		} else if !common.Equal(*s.Bytes) {
			same = false
		}
	}
	if same && common != nil {
		g.MsgBytes = symbolic.PiecewiseOf(*common)
		return nil
	}
	var vol symbolic.Piecewise
	for _, s := range g.Sends {
		vol = vol.Add(s.Volume)
	}
	v, err := a.MaxOverRanks(vol)
	if err != nil {
		return err
	}
	m, err := a.MaxOverRanks(sumMessages(g.Sends))
	if err != nil {
		return err
	}
	g.MsgBytes, err = pwDiv(v.Value, m.Value, a.pv)
	g.MsgMean = true
	return err
}

// between returns the report nodes whose work runs after occurrence x and
// before occurrence y in one execution of their nearest common ancestor
// (MK's computation between two communication calls, seed 000 §4.1): the
// ancestor's children strictly between the two paths, the later siblings
// along x's path and the earlier ones along y's. Nothing when y does not
// follow x.
func (a *Analysis) between(x, y *symeval.Occ) []*cost.Node {
	px, py := occPath(x), occPath(y)
	i := 0
	for i < len(px) && i < len(py) && px[i] == py[i] {
		i++
	}
	if i == 0 || i >= len(px) || i >= len(py) {
		return nil
	}
	anc := px[i-1]
	ix, iy := slices.Index(anc.Children, px[i]), slices.Index(anc.Children, py[i])
	if ix < 0 || iy < 0 || ix >= iy {
		return nil
	}
	var occs []*symeval.Occ
	// Later siblings along x's path, below the ancestor.
	for k := len(px) - 1; k > i; k-- {
		par := px[k-1]
		if _, isIf := par.Node.(*apt.If); isIf {
			continue // the other branches of an IF do not run after this one
		}
		j := slices.Index(par.Children, px[k])
		occs = append(occs, par.Children[j+1:]...)
	}
	occs = append(occs, anc.Children[ix+1:iy]...)
	for k := i + 1; k < len(py); k++ {
		par := py[k-1]
		if _, isIf := par.Node.(*apt.If); isIf {
			continue
		}
		j := slices.Index(par.Children, py[k])
		occs = append(occs, par.Children[:j]...)
	}
	var out []*cost.Node
	for _, o := range occs {
		n := a.Report.ByID[o.Node.Base().ID]
		if n != nil && !slices.Contains(out, n) && len(n.Work.Pieces) > 0 {
			out = append(out, n)
		}
	}
	return out
}

func occPath(o *symeval.Occ) []*symeval.Occ {
	var p []*symeval.Occ
	for ; o != nil; o = o.Parent {
		p = append(p, o)
	}
	slices.Reverse(p)
	return p
}
