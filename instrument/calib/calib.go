// Package calib joins measured runs with mkvet's exact static counts: for
// every timed node of a program it fits seconds ≈ a·work + b·entries (loops
// and routines) or seconds ≈ a·calls + b·messages + c·bytes (MPI calls, the
// t_s + m·t_c of Hockney and Pacheco, seed 004 §11.3) against the per-rank
// counts of model/cost, by relative least squares over the medians of
// repeated runs. MK fits loop timings against symbolic loop bounds from
// small runs the same way (seed 000 §3). Where a node's time does not follow
// its counts (cache effects, waiting, data-dependent work) it searches a
// PMNF space of terms in the sizes and P, the counts among the candidates,
// and keeps whichever model cross-validates better, saying so.
//
// A node's time is its exclusive time (nested timed nodes taken out), so its
// work feature is its inclusive static work minus that of the timed nodes
// directly inside it. A rank's predicted program time is the sum of its
// nodes' predictions, MPI_INIT left out; the program's is the slowest
// rank's.
//
// A fit holds for the memory levels its runs ran from: with the machine's
// hierarchy (Options.Memory) the calibration records the deepest level each
// node's loops reached, and a prediction whose loops' working sets fall
// deeper is flagged and, with measured streaming times, estimated
// (memory.go).
package calib

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/instrument/fit"
	"github.com/mkvet/mkvet/instrument/runs"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// Run is one measured run: its sizes, process count, program time (slowest
// rank), the smallest share of its time a rank was scheduled (0 when
// unknown) and its records.
type Run struct {
	Params  map[string]float64
	P       int
	Seconds float64
	Sched   float64
	// Probe is the run's speed-probe time (instrument.SpeedProbe; 0 when
	// unknown) and Slowed that MarkSlow found it well above the fastest
	// probe of runs with the same P: the machine was in a slow spell.
	Probe   float64
	Slowed  bool
	Records []runs.Record
}

// MarkSlow sets Slowed on the runs whose speed probe took more than
// SlowFactor times the fastest probe among the runs with the same P. A
// shared host can run a whole program 1.5-2 times slower for a while (a
// neighbour on the core or in its caches) with every rank scheduled all the
// time; the probe, the same work in every run, shows it where the program's
// own time, which changes with the sizes, cannot.
func MarkSlow(rs []Run) {
	ref := map[int]float64{}
	for _, r := range rs {
		if r.Probe > 0 && (ref[r.P] == 0 || r.Probe < ref[r.P]) {
			ref[r.P] = r.Probe
		}
	}
	for i := range rs {
		rs[i].Slowed = rs[i].Probe > 0 && rs[i].Probe > SlowFactor*ref[rs[i].P]
	}
}

// Undisturbed reports whether nothing shows the run was disturbed: its
// ranks were scheduled at least CleanShare of the time (or that is unknown)
// and it was not Slowed.
func (r Run) Undisturbed() bool { return (r.Sched == 0 || r.Sched >= CleanShare) && !r.Slowed }

// CleanShare is the scheduled share above which a run counts as undisturbed
// by other load, and SlowFactor how much slower than the fastest repetition
// of its point a run may be before it counts as disturbed anyway (another
// process sharing the core evicts the caches without taking much processor
// time): at each point the fit uses the undisturbed repetitions.
const (
	CleanShare = 0.9
	SlowFactor = 1.25
)

// Clean returns the repetitions of one point undisturbed by other load: the
// Undisturbed ones (all of them when none is), and of those the ones within
// SlowFactor of the fastest. Timing noise on a shared machine only ever
// slows a run down.
func Clean(rs []Run) []Run {
	var out []Run
	for _, r := range rs {
		if r.Undisturbed() {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		out = rs
	}
	fastest := math.Inf(1)
	for _, r := range out {
		if r.Seconds > 0 {
			fastest = math.Min(fastest, r.Seconds)
		}
	}
	var kept []Run
	for _, r := range out {
		if r.Seconds <= SlowFactor*fastest || r.Seconds <= 0 {
			kept = append(kept, r)
		}
	}
	return kept
}

// Point is a run point: sizes and P.
type Point struct {
	Params map[string]float64
	P      int
}

func (p Point) key() string {
	var parts []string
	for _, k := range sortedKeys(p.Params) {
		parts = append(parts, k+"="+strconv.FormatFloat(p.Params[k], 'f', -1, 64))
	}
	return strings.Join(append(parts, "P="+strconv.Itoa(p.P)), " ")
}

// String formats the point as "n=64 P=2".
func (p Point) String() string { return p.key() }

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Basis says what a node's model rests on.
type Basis string

// Model bases.
const (
	Counts Basis = "counts" // the static counts
	PMNF   Basis = "pmnf"   // a search in the sizes and P (the counts among the candidates)
)

// NodeModel is the fitted model of one timed node.
type NodeModel struct {
	Node  string     `json:"node"`
	Kind  string     `json:"kind"`
	Op    string     `json:"op,omitempty"`
	Basis Basis      `json:"basis"`
	Why   string     `json:"why,omitempty"`
	Model *fit.Model `json:"model"`
	// CountsCV is the count model's cross-validated SMAPE, kept when a PMNF
	// model replaced it (-1 when unavailable).
	CountsCV float64 `json:"counts_cv,omitempty"`
	// Mean is the node's mean measured seconds per active rank and point,
	// to rank nodes by weight in reports.
	Mean float64 `json:"mean"`
	// Approx says why the node's counts, and so its predictions, are
	// approximate: the first node inside it whose count rests on an
	// approximation and the reason ("" when exact).
	Approx string `json:"approx,omitempty"`
	// MaxMessage is the largest mean message size (bytes per message) of a
	// communication node in the runs fitted. MPI libraries change protocol
	// with the message size (eager below a threshold, rendezvous above it:
	// the size regimes of LogGP, seed 002), so a fit of small messages says
	// little about large ones; Predict warns when it extrapolates past it.
	MaxMessage float64 `json:"max_message,omitempty"`
	// Level is the deepest memory level (1-based index into
	// Calibration.Memory's levels) the node's innermost loops streamed
	// from in the runs fitted, Footprint the largest loop-nest footprint
	// there in bytes per process; 0 when the node has no loops with
	// traffic or the calibration has no memory hierarchy.
	// FootprintUnknown says why a loop's footprint is unknown, if one is.
	// Rate is the slowest time per byte a stream of the node ran at in
	// those runs (model.Memory.SecPerByteAt at each run's footprint and
	// process count), 0 when the streaming times were not measured: the
	// rate the fit already holds, which an estimate beyond it adds to.
	Level     int     `json:"level,omitempty"`
	Footprint float64 `json:"footprint,omitempty"`
	Rate      float64 `json:"rate,omitempty"`
	// Rates are Rate per stream of the node (its innermost loops in each
	// calling context, in the report's order), where every run's report
	// gave the node the same streams.
	Rates            []float64 `json:"rates,omitempty"`
	FootprintUnknown string    `json:"footprint_unknown,omitempty"`
}

// Calibration is a program's fitted models.
type Calibration struct {
	// Features is the version of the features the models were fitted to
	// (the package's Features when it fitted them).
	Features int `json:"features,omitempty"`
	// Sizes are the sizes that varied in the runs (the PMNF parameters
	// besides P); Runs and Points count what the fit used.
	Sizes  []string     `json:"sizes"`
	Runs   int          `json:"runs"`
	Points int          `json:"points"`
	Nodes  []*NodeModel `json:"nodes"`
	// SlowPoints are the points left out because every repetition met a
	// slow spell of the machine (MarkSlow).
	SlowPoints []string `json:"slow_points,omitempty"`
	// Unconfigured counts the runs left out because Options.ReportAt had
	// no report for their point (stored runs of another configuration).
	Unconfigured int `json:"unconfigured,omitempty"`
	// Fitted compares the measured program time with the fitted one at
	// each run point.
	Fitted []Compare `json:"fitted"`
	// Spread is the pooled relative standard deviation of the program time
	// between repetitions of a point: the scatter a new measurement has
	// however well the models fit, part of every prediction interval.
	Spread float64 `json:"spread"`
	// Memory is the memory hierarchy of the machine the runs ran on
	// (Options.Memory), nil when not known.
	Memory *model.Memory `json:"memory,omitempty"`
	// Data are the values the analysis left to parameters (a sparse
	// matrix's entries, a branch's frequency) as the runs measured them:
	// predictions estimate them from these (measured.go).
	Data []*DataParam `json:"data,omitempty"`
}

// ProcessCounts returns the process counts the calibration's runs had,
// sorted: predictions at others extrapolate in P.
func (cal *Calibration) ProcessCounts() []int {
	var out []int
	for _, c := range cal.Fitted {
		i := strings.LastIndex(c.Point, "P=")
		if i < 0 || i > 0 && c.Point[i-1] != ' ' {
			continue
		}
		if p, err := strconv.Atoi(c.Point[i+2:]); err == nil && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// Compare is a measured and a predicted program time.
type Compare struct {
	Point     string  `json:"point"`
	Measured  float64 `json:"measured"`
	Predicted float64 `json:"predicted"`
}

// Options tune Calibrate.
type Options struct {
	// Threshold is the cross-validated SMAPE above which a count model is
	// deemed not to follow the counts and a PMNF search runs (default 0.1).
	Threshold float64
	// ReportAt, when set, gives the static report of the program as built
	// for a run point, in place of the one report Calibrate is given: a
	// program configured per point (NPB's class and process count compiled
	// into npbparams.h) has counts of its own at each. The node IDs are
	// the same in every report (they follow the source, not the values).
	// Runs at a point with no report (nil) are left out of the fit and
	// counted in Calibration.Unconfigured.
	ReportAt func(Point) *cost.Report
	// CountsOnly keeps every node on its count model: no PMNF search. A
	// search needs sizes that vary one at a time; a configure step that
	// sets a problem class changes many compiled-in constants together.
	CountsOnly bool
	// Memory is the memory hierarchy of the machine the runs ran on: the
	// levels the nodes' loops reached are recorded against it, and
	// predictions beyond them flagged and, with its streaming times,
	// estimated (memory.go). Nil leaves memory levels out.
	Memory *model.Memory
}

// region is a timed node of the report with the timed nodes directly in it.
type region struct {
	id       string
	node     *cost.Node
	kind, op string
	children []*region
	// iters are the body executions that count toward the region's time,
	// loop by loop and context by context: its own (a timed loop), and
	// those of the loops nested in it but not in a timed region nested in
	// it, in the calls it makes included.
	iters []symbolic.Piecewise
	// approx says why the region's features are not exact (a node of it
	// whose count rests on an approximation the analysis made); "" when
	// they are.
	approx string
	// guessed are the parameters the region's counts use that the
	// analysis could not derive (a trip count read from the data, a branch
	// frequency), each with the node using it: at a point that does not
	// give their value, the features take the analysis's guess (the
	// parameter's default) and are approximate.
	guessed map[string]string
	// streams are the memory traffic of the innermost loops among loops.
	streams []cost.Stream
}

// attachLoop gives a loop's body executions and streams to the timed
// region they run in, context by context: a routine called from two timed
// loops (a solver called once before the timed iterations and then in
// them) runs its loops for both, each call in its own. Parent follows the
// first calling context only and would give the first region the loop's
// executions in all.
func (m *Model) attachLoop(n *cost.Node) {
	owner := func(nodes []apt.Node) *region {
		for _, x := range nodes {
			if q := m.byID[x.Base().ID]; q != nil {
				return q
			}
		}
		return nil
	}
	if len(n.Contexts) == 0 || n.Missing.Has(cost.FigIterations) {
		for p := n; p != nil; p = p.Parent {
			if q := m.byID[p.Node.Base().ID]; q != nil {
				q.iters = append(q.iters, n.Iterations)
				q.streams = append(q.streams, n.Streams...)
				return
			}
		}
		return
	}
	for _, c := range n.Contexts {
		q := owner(append([]apt.Node{n.Node}, c.Enclosing...))
		if q == nil {
			continue
		}
		q.iters = append(q.iters, c.Iterations)
		q.streams = append(q.streams, c.Streams...)
	}
}

// Features numbers the definition of the features models are fitted to;
// a calibration of another number must be fitted again. 2: a loop of a
// routine called from several timed regions counts in each, per call
// (attachLoop), where before all its executions went to the first; and the
// data values the analysis leaves to parameters are measured at each point
// (measured.go), where before they took the analysis's guess. 3: a node
// records the slowest streaming rate each of its loops ran at in the
// calibration (NodeModel.Rates), each run's with its own process count.
const Features = 3

// Timed returns the set of nodes a calibration has models for.
func (cal *Calibration) Timed() map[string]bool {
	out := map[string]bool{}
	for _, n := range cal.Nodes {
		out[n.Node] = true
	}
	return out
}

// Model holds what prediction needs: the report and the regions.
type Model struct {
	rep     *cost.Report
	regions []*region
	byID    map[string]*region
}

// NewModel finds the timed regions (the nodes with timed records, or those
// named in timed) of a report.
func NewModel(rep *cost.Report, timed map[string]bool) *Model {
	m := &Model{rep: rep, byID: map[string]*region{}}
	for _, n := range rep.Nodes {
		id := n.Node.Base().ID
		if !timed[id] {
			continue
		}
		r := &region{id: id, node: n}
		switch x := n.Node.(type) {
		case *apt.Routine:
			r.kind = "routine"
		case *apt.Loop:
			r.kind = "loop"
		case *apt.Comm:
			r.kind = "comm"
			r.op = x.Op.String()
		default:
			continue
		}
		m.regions = append(m.regions, r)
		m.byID[id] = r
	}
	for _, r := range m.regions {
		for p := r.node.Parent; p != nil; p = p.Parent {
			if q := m.byID[p.Node.Base().ID]; q != nil {
				q.children = append(q.children, r)
				break
			}
		}
	}
	// A region's time includes the routines it calls that are not timed
	// regions themselves, down to their own timed regions: their counts
	// are its counts, exact or not.
	//
	// A report node's Parent crosses calls (a routine's parent is the call
	// of its first calling context), so the loops whose iterations count
	// toward a region follow Parent; what a region's counts rest on stops
	// at the routine and follows every call instead.
	owned := map[*region][]*cost.Node{}
	free := map[string][]*cost.Node{} // a routine's nodes outside its timed regions, by routine name
	for _, n := range rep.Nodes {
		if _, ok := n.Node.(*apt.Loop); ok {
			m.attachLoop(n)
		}
		var owner *region
		for p := n; p != nil; p = p.Parent {
			if q := m.byID[p.Node.Base().ID]; q != nil {
				owner = q
				break
			}
			if _, ok := p.Node.(*apt.Routine); ok {
				break
			}
		}
		if owner != nil {
			owned[owner] = append(owned[owner], n)
		} else if n.Routine != nil {
			free[n.Routine.Name] = append(free[n.Routine.Name], n)
		}
	}
	guess := map[string]bool{}
	for _, p := range rep.Params {
		if p.Origin != cost.FromAnnotation && p.Origin != cost.FromRead && p.Value == nil {
			guess[p.Name] = true
		}
	}
	var approxOf func(r *region, nodes []*cost.Node, seen map[string]bool) string
	approxOf = func(r *region, nodes []*cost.Node, seen map[string]bool) string {
		for _, n := range nodes {
			for _, pw := range []symbolic.Piecewise{n.Count, n.Iterations, n.Self} {
				for _, name := range pw.Symbols() {
					if guess[name] && r.guessed[name] == "" {
						if r.guessed == nil {
							r.guessed = map[string]string{}
						}
						r.guessed[name] = n.Node.Base().ID
					}
				}
			}
		}
		why := ""
		for _, n := range nodes {
			if (!n.Exact || n.Missing != 0) && why == "" {
				why = n.Note
				if why == "" {
					why = "a count has no closed form within the analysis's limits"
				}
				why = n.Node.Base().ID + ": " + why
			}
		}
		for _, n := range nodes {
			c, ok := n.Node.(*apt.Call)
			if !ok || seen[c.Callee] || free[c.Callee] == nil {
				continue
			}
			seen[c.Callee] = true
			if w := approxOf(r, free[c.Callee], seen); why == "" {
				why = w
			}
		}
		return why
	}
	for r, nodes := range owned {
		r.approx = approxOf(r, nodes, map[string]bool{})
	}
	return m
}

// approxAt says why a region's features at a point are approximate: a
// count that rests on an approximation, or a parameter the analysis
// guessed that the point does not give, estimated from the calibration's
// measurements (estimated) or at the analysis's default; "" when they are
// exact.
func (r *region) approxAt(pt Point, extra map[string]float64, estimated map[string]string) string {
	if r.approx != "" {
		// A value the calibration measured (a branch frequency) is
		// still an estimate here: say which.
		for _, name := range sortedKeys(r.guessed) {
			if why, ok := estimated[name]; ok {
				return r.approx + "; " + why
			}
		}
		return r.approx
	}
	for _, name := range sortedKeys(r.guessed) {
		if why, ok := estimated[name]; ok {
			return fmt.Sprintf("%s: its count uses %s", r.guessed[name], why)
		}
		_, given := pt.Params[name]
		_, recorded := extra[name]
		if !given && !recorded {
			return fmt.Sprintf("%s: its count uses %s, which the analysis cannot derive and takes at its default (give it with -D)",
				r.guessed[name], name)
		}
	}
	return ""
}

// features of a region at one rank: loops and routines [work, iters,
// entries] (work in operation units without the timed nodes nested in it,
// the body executions of its loops, how often it is entered), MPI calls
// [calls, msgs, bytes]; active is false when the rank does not run the
// node. Iterations stand for what the operation counts leave out: loop
// control and the evaluation of IF conditions.
type features struct {
	x      []float64
	active bool
	// sides are an MPI call's messages sent and received and bytes sent
	// and received, apart (x sums them), NaN where unknown: a network
	// model charges the two ends of a message differently (network.go).
	sides [4]float64
}

var (
	workFeatures = []string{"work", "iters", "entries"}
	commFeatures = []string{"calls", "msgs", "bytes"}
)

func featureNames(kind string) []string {
	if kind == "comm" {
		return commFeatures
	}
	return workFeatures
}

// evaluator computes features at points, caching per point.
type evaluator struct {
	m       *Model
	cache   map[string]map[string][]features // point key -> region -> per rank
	streams map[string]map[string][][]stream // point key -> region -> per rank
}

// Env returns the symbol values of a report at a point: the sizes, P, the
// values the ranks recorded (extra), parameter defaults, and 1 for symbols
// with no value (frequencies of unanalysable branches, which then make the
// features approximate).
func Env(rep *cost.Report, pt Point, extra map[string]float64) map[string]symbolic.Rat {
	env := map[string]symbolic.Rat{cost.Size: symbolic.RatInt(int64(pt.P))}
	for _, p := range rep.Params {
		if v, ok := pt.Params[p.Name]; ok {
			env[p.Name] = ratOf(v)
			continue
		}
		if v, ok := extra[p.Name]; ok {
			env[p.Name] = ratOf(v)
			continue
		}
		if p.Default != nil {
			if v, err := p.Default.Eval(env); err == nil {
				env[p.Name] = v
				continue
			}
		}
		if p.Name == "nargs" {
			env[p.Name] = symbolic.RatInt(0)
			continue
		}
		env[p.Name] = symbolic.RatInt(1)
	}
	return env
}

func ratOf(v float64) symbolic.Rat {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return symbolic.RatInt(int64(v))
	}
	if b := new(big.Rat).SetFloat64(v); b != nil {
		return symbolic.RatBig(b)
	}
	return symbolic.Rat{}
}

func evalPW(pw symbolic.Piecewise, env map[string]symbolic.Rat) float64 {
	v, err := pw.Eval(env)
	if err != nil {
		return math.NaN()
	}
	return v.Float64()
}

func (ev *evaluator) at(pt Point, extra map[string]float64) map[string][]features {
	key := pt.key()
	if c, ok := ev.cache[key]; ok {
		return c
	}
	env := Env(ev.m.rep, pt, extra)
	out := map[string][]features{}
	for _, r := range ev.m.regions {
		out[r.id] = make([]features, pt.P)
	}
	for rank := 0; rank < pt.P; rank++ {
		env[cost.Rank] = symbolic.RatInt(int64(rank))
		work := map[string]float64{}
		for _, r := range ev.m.regions {
			work[r.id] = evalPW(r.node.Work, env)
		}
		for _, r := range ev.m.regions {
			calls := evalPW(r.node.Count, env)
			f := features{active: !(calls == 0)}
			if r.kind == "comm" {
				c := r.node.Comm
				if c != nil {
					for i, pw := range []symbolic.Piecewise{c.Messages, c.Received, c.BytesSent, c.BytesReceived} {
						f.sides[i] = evalPW(pw, env) // NaN: unknown
					}
				}
				f.x = []float64{calls, f.sides[0] + f.sides[1], f.sides[2] + f.sides[3]}
			} else {
				w := work[r.id]
				for _, c := range r.children {
					w -= work[c.id]
				}
				it := 0.0
				for _, pw := range r.iters {
					if len(pw.Pieces) > 0 {
						it += evalPW(pw, env)
					}
				}
				f.x = []float64{math.Max(w, 0), it, calls}
			}
			for i, v := range f.x {
				if math.IsNaN(v) {
					f.x[i] = 0
				}
			}
			out[r.id][rank] = f
		}
	}
	delete(env, cost.Rank)
	if ev.cache == nil {
		ev.cache = map[string]map[string][]features{}
	}
	ev.cache[key] = out
	return out
}

// Calibrate fits a model to every timed node of the runs.
func Calibrate(rep *cost.Report, rs []Run, opt Options) (*Calibration, *Model, error) {
	if opt.Threshold == 0 {
		opt.Threshold = 0.1
	}
	if len(rs) == 0 {
		return nil, nil, errors.New("calibrate: no successful runs")
	}
	timed := map[string]bool{}
	for _, r := range rs {
		for _, x := range r.Records {
			if x.Timed > 0 {
				timed[x.Node] = true
			}
		}
	}
	m := NewModel(rep, timed)
	if len(m.regions) == 0 {
		return nil, nil, errors.New("calibrate: no timed node of the runs is in the static report (another program version?)")
	}
	// The evaluator of each point's own report (Options.ReportAt), one
	// per report; runs at a point without one are left out.
	evs := map[*cost.Report]*evaluator{rep: {m: m}}
	evAt := func(pt Point) *evaluator {
		r := rep
		if opt.ReportAt != nil {
			if r = opt.ReportAt(pt); r == nil {
				return nil
			}
		}
		if evs[r] == nil {
			evs[r] = &evaluator{m: NewModel(r, timed)}
		}
		return evs[r]
	}
	unconfigured := 0
	rs = slices.DeleteFunc(slices.Clone(rs), func(r Run) bool {
		if evAt(Point{Params: r.Params, P: r.P}) == nil {
			unconfigured++
			return true
		}
		return false
	})
	if len(rs) == 0 {
		return nil, nil, errors.New("calibrate: no run has a static report of its configuration")
	}
	MarkSlow(rs)
	// Group repetitions by point.
	type group struct {
		pt    Point
		extra map[string]float64
		runs  []Run
		m     *Model
		ev    *evaluator
	}
	var groups, dropped []*group
	byKey := map[string]*group{}
	for _, r := range rs {
		pt := Point{Params: r.Params, P: r.P}
		g := byKey[pt.key()]
		if g == nil {
			ev := evAt(pt)
			g = &group{pt: pt, extra: r.Params, m: ev.m, ev: ev}
			byKey[pt.key()] = g
			groups = append(groups, g)
		}
		g.runs = append(g.runs, r)
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].pt.key() < groups[j].pt.key() })
	// A point all of whose repetitions met a slow spell says how slow the
	// machine was, not the program: it is left out while at least three
	// points remain, and the calibration says so.
	kept := groups[:0:0]
	for _, g := range groups {
		if !slices.ContainsFunc(g.runs, func(r Run) bool { return !r.Slowed }) {
			dropped = append(dropped, g)
			continue
		}
		kept = append(kept, g)
	}
	if len(kept) >= 3 {
		groups = kept
	} else {
		dropped = nil
	}
	// The data values the analysis left to parameters, measured at each
	// point (measured.go), make the point's features exact.
	var (
		dataReps   []*cost.Report
		dataPts    []Point
		dataExtras []map[string]float64
		dataVals   []map[string]float64
		dataFrom   []map[string]string
	)
	for _, g := range groups {
		g.runs = Clean(g.runs)
		vals, from := solveData(g.m.rep, g.pt, g.extra, g.runs[0].Records)
		if len(vals) == 0 {
			continue
		}
		extra := maps.Clone(g.extra)
		if extra == nil {
			extra = map[string]float64{}
		}
		maps.Copy(extra, vals)
		dataReps, dataPts, dataExtras = append(dataReps, g.m.rep), append(dataPts, g.pt), append(dataExtras, g.extra)
		dataVals, dataFrom = append(dataVals, vals), append(dataFrom, from)
		g.extra = extra
	}
	// The problem sizes that vary are the PMNF parameters, with P; values
	// the ranks merely recorded (a process-grid width, the argument count)
	// follow from them.
	isSize := map[string]bool{}
	for _, p := range rep.Params {
		if p.Origin == cost.FromAnnotation || p.Origin == cost.FromRead {
			isSize[p.Name] = true
		}
	}
	var sizes []string
	for _, k := range sortedKeysAll(rs) {
		if !isSize[k] {
			continue
		}
		first := rs[0].Params[k]
		for _, r := range rs {
			if r.Params[k] != first {
				sizes = append(sizes, k)
				break
			}
		}
	}
	params := append(append([]string(nil), sizes...), "P")
	paramVals := func(pt Point) []float64 {
		v := make([]float64, len(params))
		for i, s := range sizes {
			v[i] = pt.Params[s]
		}
		v[len(v)-1] = float64(pt.P)
		return v
	}
	cal := &Calibration{Features: Features, Sizes: sizes, Runs: len(rs), Points: len(groups), Unconfigured: unconfigured, Memory: opt.Memory}
	for _, g := range dropped {
		cal.SlowPoints = append(cal.SlowPoints, g.pt.String())
	}
	cal.Data = dataEstimates(dataReps, dataPts, dataExtras, dataVals, dataFrom)
	last := groups[len(groups)-1]
	growth := workGrowth(last.m.rep, last.pt, last.extra, sizes)
	// The regions of every point's report: a configuration may run a
	// branch another never takes (NPB FT's layouts by process count), whose
	// report then has no such node.
	regions := slices.Clone(m.regions)
	for _, g := range groups {
		for _, r := range g.m.regions {
			if !slices.ContainsFunc(regions, func(q *region) bool { return q.id == r.id }) {
				regions = append(regions, r)
			}
		}
	}
	for _, r := range regions {
		names := featureNames(r.kind)
		var obs []fit.Obs
		sum, nsum := 0.0, 0
		maxMsg := 0.0
		for gi, g := range groups {
			fs, ok := g.ev.at(g.pt, g.extra)[r.id]
			if !ok {
				continue // not a node of this configuration's report
			}
			// Imported measurements (Extra-P) keep no ranks: their value is
			// the slowest rank's, which is the rank with the most work.
			critical := -1
			if g.pt.P > 1 && !ranked(g.runs) {
				critical = 0
				for rank := range fs {
					if total(fs[rank].x) > total(fs[critical].x) {
						critical = rank
					}
				}
			}
			for rank := 0; rank < g.pt.P; rank++ {
				if critical >= 0 && rank != critical {
					continue
				}
				from := rank
				if critical >= 0 {
					from = 0
				}
				var ys []float64
				measuredActive := false
				for _, run := range g.runs {
					y := 0.0
					for _, x := range run.Records {
						if x.Node == r.id && x.Rank == from {
							y = x.Seconds
							measuredActive = measuredActive || x.Count > 0 || x.Timed > 0
						}
					}
					ys = append(ys, y)
				}
				if !fs[rank].active && !measuredActive {
					continue
				}
				y := median(ys)
				if r.kind == "comm" && fs[rank].x[1] > 0 {
					maxMsg = math.Max(maxMsg, fs[rank].x[2]/fs[rank].x[1])
				}
				obs = append(obs, fit.Obs{Params: paramVals(g.pt), Features: fs[rank].x, Y: y, Group: gi})
				sum += y
				nsum++
			}
		}
		if len(obs) == 0 {
			continue
		}
		nm := &NodeModel{Node: r.id, Kind: r.kind, Op: r.op, Basis: Counts, Mean: sum / float64(nsum), MaxMessage: maxMsg}
		if opt.Memory != nil {
			for _, g := range groups {
				if q := g.m.byID[r.id]; q != nil {
					nm.reached(opt.Memory, g.ev.streamsAt(q, g.pt, g.extra), g.pt.P)
				}
			}
		}
		for _, g := range groups {
			if q := g.m.byID[r.id]; q != nil && nm.Approx == "" {
				nm.Approx = q.approxAt(g.pt, g.extra, nil)
			}
		}
		cm, err := countModel(obs, r.kind, params, names)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", r.id, err)
		}
		nm.Model = cm
		if (cm.CV > opt.Threshold || cm.CV < 0 && cm.SMAPE > opt.Threshold) && !opt.CountsOnly && len(groups) >= 3 && len(obs) >= 5 {
			sp := fit.DefaultSpace(params, names, "P")
			sp.UseFeatures = true
			sp.NonNegative = true
			sp.MaxExp = growth
			if pm, err := fit.Search(obs, sp); err == nil && pmnfWins(obs, cm, pm, sizes) {
				nm.Basis = PMNF
				nm.CountsCV = cm.CV
				nm.Why = fmt.Sprintf("time does not follow the counts (cross-validated SMAPE %.1f%% with counts, %.1f%% with a PMNF search)",
					100*cm.CV, 100*pm.CV)
				nm.Model = pm
			}
		}
		cal.Nodes = append(cal.Nodes, nm)
	}
	sort.SliceStable(cal.Nodes, func(i, j int) bool { return cal.Nodes[i].Mean > cal.Nodes[j].Mean })
	var ss float64
	var dof int
	for _, g := range groups {
		var ts []float64
		for _, r := range g.runs {
			ts = append(ts, r.Seconds)
		}
		if m := median(ts); m > 0 && len(ts) > 1 {
			mean := 0.0
			for _, t := range ts {
				mean += t / m
			}
			mean /= float64(len(ts))
			for _, t := range ts {
				ss += (t/m - mean) * (t/m - mean)
			}
			dof += len(ts) - 1
		}
		pred, err := Predict(cal, g.m, g.pt, g.extra)
		if err != nil {
			return nil, nil, err
		}
		cal.Fitted = append(cal.Fitted, Compare{Point: g.pt.String(), Measured: median(ts), Predicted: pred.Total})
	}
	if dof > 0 {
		cal.Spread = math.Sqrt(ss / float64(dof))
	}
	return cal, m, nil
}

// ranked reports whether any of the runs has records of a rank but 0.
func ranked(rs []Run) bool {
	for _, r := range rs {
		for _, x := range r.Records {
			if x.Rank > 0 {
				return true
			}
		}
	}
	return false
}

func total(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

func sortedKeysAll(rs []Run) []string {
	set := map[string]bool{}
	for _, r := range rs {
		for k := range r.Params {
			set[k] = true
		}
	}
	return sortedKeys(set)
}

// workGrowth bounds how fast a node's time may grow with each size: no
// faster than the whole program's work, whose degree in a size is measured
// between the largest calibration value and four times it (rounded up to a
// quarter). A wait can grow as fast as the work it waits for, not faster;
// the bound keeps a search from extrapolating noise with n^3.
func workGrowth(rep *cost.Report, pt Point, extra map[string]float64, sizes []string) map[int]float64 {
	out := map[int]float64{}
	for i, s := range sizes {
		v := pt.Params[s]
		if v <= 0 {
			continue
		}
		at := func(x float64) float64 {
			q := Point{Params: map[string]float64{}, P: pt.P}
			for k, y := range pt.Params {
				q.Params[k] = y
			}
			q.Params[s] = x
			env := Env(rep, q, extra)
			w := 0.0
			for rank := 0; rank < pt.P; rank++ {
				env[cost.Rank] = symbolic.RatInt(int64(rank))
				w = math.Max(w, evalPW(rep.Work, env))
			}
			return w
		}
		w1, w4 := at(v), at(4*v)
		if !(w1 > 0) || math.IsNaN(w4) {
			continue
		}
		d := math.Log(w4/w1) / math.Log(4)
		out[i] = math.Max(math.Ceil(d*4-0.05)/4, 0)
	}
	return out
}

// pmnfWins decides whether a PMNF model replaces a count model: its
// cross-validated errors must be lower by more than twice the standard
// error of the paired differences and by a fifth, and it must also predict
// the largest size swept from the smaller ones no worse, since the model
// will be used to extrapolate. Waiting times are noise around the counts;
// a search would fit that noise with terms that extrapolate wildly.
func pmnfWins(obs []fit.Obs, cm, pm *fit.Model, sizes []string) bool {
	if pm.CV < 0 {
		return false
	}
	if cm.CV >= 0 {
		if pm.CV >= 0.8*cm.CV || !fit.Significant(fit.CVErrors(obs, cm.Terms), fit.CVErrors(obs, pm.Terms)) {
			return false
		}
	}
	if len(sizes) == 0 {
		return true
	}
	largest := math.Inf(-1)
	for _, o := range obs {
		largest = math.Max(largest, o.Params[0])
	}
	held := func(o fit.Obs) bool { return o.Params[0] == largest }
	ec, ep := fit.HoldOut(obs, cm.Terms, held), fit.HoldOut(obs, pm.Terms, held)
	return ep >= 0 && (ec < 0 || ep <= ec)
}

// countModel fits seconds to the static counts with non-negative
// coefficients (terms whose coefficient comes out negative are dropped),
// robustly: a repetition slowed by other load pulls the fit little.
func countModel(obs []fit.Obs, kind string, params, names []string) (*fit.Model, error) {
	var terms []fit.Term
	for i := range names {
		nonzero, same := false, kind == "comm" && i == 1
		for _, o := range obs {
			if o.Features[i] != 0 {
				nonzero = true
			}
			if same && o.Features[1] != o.Features[0] {
				same = false
			}
		}
		if nonzero && !same {
			terms = append(terms, fit.FeatureTerm(i))
		}
	}
	if len(terms) == 0 {
		terms = []fit.Term{fit.Constant}
	}
	for {
		m, err := fit.FitRobust(obs, terms, params, names)
		if err != nil {
			return nil, err
		}
		neg := -1
		for i, c := range m.Coef {
			if c < 0 && (neg < 0 || c*m.Terms[i].Eval(obs[0].Params, obs[0].Features) < 0) {
				neg = i
			}
		}
		if neg < 0 || len(terms) == 1 {
			return m, nil
		}
		terms = append(terms[:neg:neg], terms[neg+1:]...)
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Prediction is a program's predicted time at one point.
type Prediction struct {
	Point Point
	// Nodes are the per-node predictions on the slowest rank, and the
	// largest over ranks.
	Nodes []NodePrediction
	// Total is the slowest rank's predicted program time and Rank that
	// rank; Lo and Hi bound a measurement at 95%: the nodes' prediction
	// variances added, and the spread between repetitions.
	Total, Lo, Hi float64
	Rank          int
	// PerRank is every rank's predicted time.
	PerRank []float64
	// Warnings name what makes the prediction less trustworthy than its
	// interval says: message sizes beyond those calibrated, counts that
	// are approximate.
	Warnings []string
	// Approx is the share of Total predicted from approximate counts
	// (nodes whose counts rest on an approximation, NodeModel.Approx, at
	// this point): the total is marked approximate when it is 1% or more.
	Approx float64
	// Memory is the part of Total estimated for loops whose working set
	// leaves the memory levels their calibration ran in (memory.go).
	Memory float64
	// Modelled is the part of Total the network model gave
	// (PredictOptions.Network): messages, not measured.
	Modelled float64
}

// NodePrediction is one node's predicted seconds.
type NodePrediction struct {
	Node      string
	OnSlowest float64 // on the slowest rank
	Max       float64 // the largest over ranks
	// Modelled says the node's time is the network model's
	// (PredictOptions.Network), not the calibration's; Bytes is then the
	// largest mean message size over the ranks and Regime the model's size
	// regime of it.
	Modelled bool
	Bytes    float64
	Regime   string
}

// PredictOptions tune PredictWith.
type PredictOptions struct {
	// Network, when set, models the messages of MPI calls instead of
	// their calibrated times (network.go).
	Network *Network
}

// Predict evaluates the calibration at a point: every node on every rank,
// the slowest rank's total with a 95% interval.
func Predict(cal *Calibration, m *Model, pt Point, extra map[string]float64) (*Prediction, error) {
	return PredictWith(cal, m, pt, extra, PredictOptions{})
}

// PredictWith is Predict with options.
func PredictWith(cal *Calibration, m *Model, pt Point, extra map[string]float64, opt PredictOptions) (*Prediction, error) {
	if pt.P < 1 {
		return nil, fmt.Errorf("P = %d", pt.P)
	}
	extra, estimated := cal.estimate(m.rep, pt, extra)
	ev := &evaluator{m: m}
	fs := ev.at(pt, extra)
	params := make([]float64, len(cal.Sizes)+1)
	for i, s := range cal.Sizes {
		v, ok := pt.Params[s]
		if !ok {
			return nil, fmt.Errorf("no value for %s, a size the calibration varied", s)
		}
		params[i] = v
	}
	params[len(params)-1] = float64(pt.P)
	pred := &Prediction{Point: pt, PerRank: make([]float64, pt.P)}
	per := make([][]float64, len(cal.Nodes))
	memExtra := make([][]float64, len(cal.Nodes))
	type beyond struct {
		level int
		fp    float64
	}
	memBeyond := make([]beyond, len(cal.Nodes))
	// modelled[i][rank] is 1 where the network model gave node i's time,
	// sizes[i] its largest mean message size.
	modelled := make([][]float64, len(cal.Nodes))
	sizes := make([]float64, len(cal.Nodes))
	vars := make([]float64, pt.P)
	for i, nm := range cal.Nodes {
		per[i] = make([]float64, pt.P)
		if nm.Op == apt.MPIInit.String() {
			continue
		}
		f, ok := fs[nm.Node]
		if !ok {
			continue
		}
		var ss [][]stream
		r := m.byID[nm.Node]
		if r != nil && cal.Memory != nil && nm.Level > 0 {
			ss = ev.streamsAt(r, pt, extra)
			memExtra[i] = make([]float64, pt.P)
		}
		var op apt.CommOp
		if r != nil && opt.Network != nil {
			if c, ok := r.node.Node.(*apt.Comm); ok {
				op = c.Op
				modelled[i] = make([]float64, pt.P)
			}
		}
		for rank := 0; rank < pt.P; rank++ {
			if !f[rank].active {
				continue
			}
			if modelled[i] != nil {
				if t, size, ok := opt.Network.seconds(op, f[rank], pt.P); ok {
					per[i][rank] = t
					pred.PerRank[rank] += t
					modelled[i][rank] = 1
					sizes[i] = math.Max(sizes[i], size)
					continue
				}
			}
			y := math.Max(nm.Model.Predict(params, f[rank].x), 0)
			if ss != nil {
				x, level, fp := memoryExtra(cal.Memory, nm, ss[rank], pt.P)
				memExtra[i][rank] = x
				y += x
				if level > memBeyond[i].level || level == memBeyond[i].level && fp > memBeyond[i].fp {
					memBeyond[i] = beyond{level, fp}
				}
			}
			per[i][rank] = y
			pred.PerRank[rank] += y
			vars[rank] += nm.Model.Variance(params, f[rank].x)
		}
	}
	for rank, t := range pred.PerRank {
		if t > pred.Total || rank == 0 {
			pred.Total, pred.Rank = t, rank
		}
	}
	d := 1.96 * math.Sqrt(vars[pred.Rank]+(cal.Spread*pred.Total)*(cal.Spread*pred.Total))
	pred.Lo, pred.Hi = math.Max(pred.Total-d, 0), pred.Total+d
	for i, nm := range cal.Nodes {
		np := NodePrediction{Node: nm.Node, OnSlowest: per[i][pred.Rank]}
		for _, v := range per[i] {
			np.Max = math.Max(np.Max, v)
		}
		if modelled[i] != nil && slices.Contains(modelled[i], 1) {
			np.Modelled, np.Bytes = true, sizes[i]
			np.Regime = model.RegimeOf(opt.Network.Net, sizes[i])
			if modelled[i][pred.Rank] == 1 {
				pred.Modelled += np.OnSlowest
			}
		}
		pred.Nodes = append(pred.Nodes, np)
		approx := false
		if r := m.byID[nm.Node]; r != nil && pred.Total > 0 {
			if why := r.approxAt(pt, extra, estimated); why != "" {
				share := np.OnSlowest / pred.Total
				pred.Approx += share
				approx = true
				if share >= 0.01 {
					pred.Warnings = append(pred.Warnings, fmt.Sprintf("%s (%.0f%% of the time) rests on approximate counts: %s",
						nm.Node, 100*share, why))
				}
			}
		}
		if b := memBeyond[i]; b.level > 0 && pred.Total > 0 {
			x := memExtra[i][pred.Rank]
			pred.Memory += x
			share := np.OnSlowest / pred.Total
			if !cal.Memory.Measured() && !approx {
				// The node's time is known to be too low, by how much is
				// not: its share is marked as approximate.
				pred.Approx += share
			}
			if share >= 0.01 {
				pred.Warnings = append(pred.Warnings, memoryWarning(cal.Memory, nm, b.level, b.fp, x, x/pred.Total, pt.P))
			}
		}
		if nm.Kind != "comm" || np.Modelled || nm.MaxMessage <= 0 || np.Max < 0.01*pred.Total {
			continue
		}
		f := fs[nm.Node]
		largest := 0.0
		for rank := range f {
			if f[rank].active && f[rank].x[1] > 0 {
				largest = math.Max(largest, f[rank].x[2]/f[rank].x[1])
			}
		}
		if largest > 2*nm.MaxMessage {
			pred.Warnings = append(pred.Warnings, fmt.Sprintf("%s: messages of %.0f bytes here, calibrated up to %.0f bytes; "+
				"MPI changes protocol with size (eager, then rendezvous), so its time may be underestimated: calibrate at a size whose messages reach %.0f bytes",
				nm.Node, largest, nm.MaxMessage, largest))
		}
	}
	return pred, nil
}
