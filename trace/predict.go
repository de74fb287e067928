package trace

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
)

// PredictOptions set the point and the machine of a predicted trace.
type PredictOptions struct {
	// Entry is the routine to start from ("": the main program).
	Entry string
	// P is the number of ranks; Values the parameters (sizes, and values
	// the program reads) by lower-case name.
	P      int
	Values map[string]int64
	// Profile costs computation (its operation time per work unit) and
	// messages (its LogGPS parameters); nil is the default profile.
	Profile *model.Profile
	// MaxSteps bounds each rank's execution (0: aptrun's default).
	MaxSteps int64
	// Env and Args are the program's environment variables and
	// command-line arguments (aptrun.Config's).
	Env  map[string]string
	Args []string
}

// Predict executes the program's APT at a concrete point (N, P) and emits
// the trace the run would give (DESIGN: "the static model can also be
// executed for concrete (N, P) to produce a predicted event DAG"). Each
// rank runs the APT with concrete values (internal/aptrun, which evaluates
// loop bounds, branches, peers and sizes as the program would); the
// computation between two MPI calls is the work of the statement blocks
// executed, in the cost model's operation units (cost.DefaultWeights)
// times the profile's time of one unit; the MPI calls are then placed in
// time by a LogGPS replay in the modelled mode, so that waiting follows
// from the messages. Routines called outside loops and outermost loops are
// region marks, as in a measured trace.
//
// Predicted traces see every communicator as MPI_COMM_WORLD (as aptrun
// does), and a whole-array statement as one element operation. The run has
// no input files: an optional input deck (OPEN with STATUS='OLD' and
// IOSTAT=) is absent and the program takes its defaults; values it reads
// otherwise come from Values.
func Predict(prog *apt.Program, opt PredictOptions) (*Trace, error) {
	if opt.P < 1 {
		return nil, fmt.Errorf("predict: P = %d", opt.P)
	}
	prof := opt.Profile
	if prof == nil {
		prof = model.Default()
	}
	params, err := ParamsFrom(prof)
	if err != nil {
		return nil, err
	}
	unit := prof.Ops.Resolved().Add
	if unit.IsZero() {
		unit = model.Default().Ops.Resolved().Add
	}
	unitNS := unit.Float64() * 1e9
	w := cost.DefaultWeights()
	recs := make([]*recorder, opt.P)
	errs := make([]error, opt.P)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for r := 0; r < opt.P; r++ {
		recs[r] = &recorder{w: w, unit: unitNS, cache: map[*apt.Block]float64{}}
		wg.Add(1)
		go func(r int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			_, errs[r] = aptrun.Run(prog, aptrun.Config{Entry: opt.Entry, P: int64(opt.P), Rank: int64(r),
				Params: opt.Values, MaxSteps: opt.MaxSteps, Observer: recs[r], NoInputFiles: true, Env: opt.Env, Args: opt.Args})
		}(r)
	}
	wg.Wait()
	for r, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("predict: rank %d: %w", r, err)
		}
	}
	t := &Trace{Source: "predicted", P: opt.P, Params: opt.Values, Groups: [][]int32{nil}}
	nodeIdx := map[string]int32{}
	for r, rec := range recs {
		rk := Rank{}
		at := int64(0)
		for _, pe := range rec.events {
			e := pe.ev
			name := pe.node
			i, ok := nodeIdx[name]
			if !ok {
				i = int32(len(t.Nodes))
				t.Nodes = append(t.Nodes, name)
				nodeIdx[name] = i
			}
			e.Node = i
			at += int64(math.Round(pe.gap))
			e.Begin, e.End = at, at
			if len(pe.reqs) > 0 {
				e.ReqLo, e.NReq = int32(len(rk.Reqs)), int32(len(pe.reqs))
				rk.Reqs = append(rk.Reqs, pe.reqs...)
			}
			if e.Peer >= int32(opt.P) || e.RPeer >= int32(opt.P) {
				return nil, fmt.Errorf("predict: rank %d sends to or receives from rank %d, outside 0..%d", r, max(e.Peer, e.RPeer), opt.P-1)
			}
			rk.Events = append(rk.Events, e)
		}
		rk.Finish = at + int64(math.Round(rec.acc))
		t.Ranks = append(t.Ranks, rk)
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("predict: %w", err)
	}
	g, err := Schedule(t, params)
	if err != nil {
		return nil, fmt.Errorf("predict: %w", err)
	}
	// Each rank runs on its own: data it receives (a broadcast of input
	// values read on rank 0) is not passed on, and a rank whose control
	// flow depends on it runs differently than it would. Their calls then
	// fail to match; such a trace is refused, not written as a prediction.
	if bad := unmatched(g); bad > 0 {
		return nil, fmt.Errorf("predict: the ranks' calls do not match (%d sends or receives without a partner): a predicted run "+
			"executes each rank alone and passes no data between them, so a rank whose control flow depends on data it "+
			"receives (values read by one rank and broadcast) is not predicted; give those values with -D", bad)
	}
	t.Notes = append(t.Notes, g.Notes...)
	t.Notes = append(t.Notes, fmt.Sprintf("predicted on %s: computation at %.3g ns per operation unit, messages by LogGPS (L %.3g us, o %.3g us)",
		prof.Name, unitNS, params.L*1e6, params.O*1e6))
	return t, t.Validate()
}

// recorder turns one rank's execution into events.
type recorder struct {
	w      cost.Weights
	unit   float64 // ns per work unit
	cache  map[*apt.Block]float64
	acc    float64 // computation since the last event, ns
	loops  int     // loops open
	marked []bool  // per open region: whether it was marked
	events []pending
}

type pending struct {
	ev   Event
	node string
	gap  float64
	reqs []int64
}

func (rc *recorder) Block(b *apt.Block) {
	c, ok := rc.cache[b]
	if !ok {
		for _, s := range b.Stmts {
			c += rc.w.Of(s.Ops).Float64() * rc.unit
		}
		rc.cache[b] = c
	}
	rc.acc += c
}

func (rc *recorder) mark(k Kind, n apt.Node) {
	rc.events = append(rc.events, pending{ev: Event{Kind: k, Peer: NoPeer, RPeer: NoPeer, Root: -1}, node: n.Base().ID, gap: rc.acc})
	rc.acc = 0
}

func (rc *recorder) Enter(n apt.Node) {
	_, loop := n.(*apt.Loop)
	m := rc.loops == 0
	if m {
		rc.mark(Enter, n)
	}
	rc.marked = append(rc.marked, m)
	if loop {
		rc.loops++
	}
}

func (rc *recorder) Exit(n apt.Node) {
	if _, loop := n.(*apt.Loop); loop {
		rc.loops--
	}
	m := rc.marked[len(rc.marked)-1]
	rc.marked = rc.marked[:len(rc.marked)-1]
	if m {
		rc.mark(Exit, n)
	}
}

func (rc *recorder) Comm(c *apt.Comm, call *aptrun.CommCall) {
	peer := func(p int64) int32 {
		switch {
		case p == aptrun.AnySource:
			return AnySource
		case p < 0:
			return NoPeer
		}
		return int32(min(p, math.MaxInt32))
	}
	e := Event{Kind: Comm, Op: c.Op, Peer: peer(call.Peer), Tag: int32(call.Tag), Bytes: max(call.Bytes, 0),
		RPeer: peer(call.RPeer), RTag: int32(call.RTag), RBytes: max(call.RBytes, 0), Root: int32(max(call.Root, -1)),
		Req: max(call.Request, 0)}
	if call.RTag < 0 {
		e.RTag = AnyTag
	}
	rc.events = append(rc.events, pending{ev: e, node: c.ID, gap: rc.acc, reqs: call.Requests})
	rc.acc = 0
}

// Schedule places the events of a trace skeleton in time: t's events carry
// the computation before them (Begin - previous End) and no duration; a
// LogGPS replay in the modelled mode gives each call its cost and waiting,
// and t takes the replayed times. When synchronous messages make the
// blocking sends wait for each other (a deadlock MPI avoids by buffering
// small messages), every message is taken as buffered, and t says so.
func Schedule(t *Trace, params Params) (*Graph, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	g, err := Match(t)
	if err != nil {
		return nil, err
	}
	res, err := NewReplayer(g, params, Modelled).Replay(&Options{Record: true})
	if errors.Is(err, ErrDeadlock) && !math.IsInf(params.S, 1) {
		params.S = math.Inf(1)
		t.Notes = append(t.Notes, "every message taken as buffered: with the synchronous threshold the blocking sends wait for each other")
		res, err = NewReplayer(g, params, Modelled).Replay(&Options{Record: true})
	}
	if err != nil {
		return nil, err
	}
	for r := range t.Ranks {
		rk := &t.Ranks[r]
		prev := rk.Start
		for i := range rk.Events {
			b := max(int64(math.Round(res.Begin[r][i])), prev)
			e := max(int64(math.Round(res.End[r][i])), b)
			rk.Events[i].Begin, rk.Events[i].End = b, e
			prev = e
		}
		rk.Finish = max(int64(math.Round(res.Finish[r])), prev)
	}
	return g, t.Validate()
}

// unmatched counts the sends without a receive and the receives without a
// send of a graph.
func unmatched(g *Graph) int {
	n := 0
	for _, m := range g.Msgs {
		if m.RecvIdx < 0 {
			n++
		}
	}
	for r := range g.T.Ranks {
		for i := range g.T.Ranks[r].Events {
			if e := &g.T.Ranks[r].Events[i]; e.Kind == Comm && !e.Op.IsCollective() && e.isRecv() && g.RecvMsg[r][i] < 0 {
				n++
			}
		}
	}
	return n
}
