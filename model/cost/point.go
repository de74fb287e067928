package cost

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Point is a report evaluated at one assignment of the parameters and P: each
// per-rank value for every rank, with the figures diagnostics need.
type Point struct {
	// Env holds P and every parameter of the report (a serial program has P = 1).
	Env map[string]int64
	P   int64
	// Nodes maps a report node to its values; Work is the whole program's.
	Nodes map[*Node]*NodeValues
	Work  Values
	// Unknown names the values of the data a partial point (AtKnown) has
	// none for; WorkUnknown is set when the program's work rests on them
	// (Work is then zero). A node whose figures rest on them has no entry
	// in Nodes.
	Unknown     []string
	WorkUnknown bool
	// StandIns are the values of the data (a branch's way, a trip count
	// known from below, an element) the point gives their defaults: each
	// stands for what the run decides, so a count resting on one is
	// approximate there (NodeValues.StandIn).
	StandIns map[string]int64
}

// mentionsMissing reports whether e reads a parameter of params that has
// no value, given or built in, and no default.
func mentionsMissing(e symbolic.Expr, params []*Param, full, env map[string]int64) bool {
	if params != nil {
		// A name no parameter has and the point does not give (an
		// unknown of an evaluation the analysis set aside): missing.
		known := make(map[string]bool, len(params))
		for _, q := range params {
			known[q.Name] = true
		}
		for _, name := range e.Symbols() {
			_, inFull := full[name]
			_, inEnv := env[name]
			if !known[name] && !inFull && !inEnv && name != Rank && name != Size {
				return true
			}
		}
	}
	for _, q := range params {
		if _, ok := full[q.Name]; ok {
			continue
		}
		if _, ok := env[q.Name]; ok || q.Value != nil {
			continue
		}
		if e.Has(q.Name) && (q.Default == nil || q.Default.Has(q.Name) || mentionsMissing(*q.Default, nil, full, env)) {
			return true
		}
	}
	return false
}

// defaultOrder is r.Params with each parameter whose default mentions
// others after those others (a bound c_1 whose default is the middle of a
// range in dir_2): a default is evaluated once what it rests on has a
// value. A cycle keeps the parameters' own order.
func (r *Report) defaultOrder(env map[string]int64) []*Param {
	out := make([]*Param, 0, len(r.Params))
	placed := make(map[string]bool, len(r.Params))
	// A default waits for every parameter the point does not give,
	// whether it takes a default or a value of the evaluation (a trip
	// count the run at the point fixed).
	pending := map[string]bool{}
	for _, p := range r.Params {
		if _, given := env[p.Name]; !given && (p.Value != nil || p.Default != nil) {
			pending[p.Name] = true
		}
	}
	deps := map[string][]string{}
	for _, p := range r.Params {
		if pending[p.Name] && p.Default != nil {
			for _, name := range p.Default.Symbols() {
				if name != p.Name && pending[name] {
					deps[p.Name] = append(deps[p.Name], name)
				}
			}
		}
	}
	waits := func(p *Param) bool {
		for _, q := range deps[p.Name] {
			if !placed[q] {
				return true
			}
		}
		return false
	}
	for len(out) < len(r.Params) {
		progress := false
		for _, p := range r.Params {
			if placed[p.Name] || waits(p) {
				continue
			}
			out, placed[p.Name], progress = append(out, p), true, true
		}
		if !progress {
			for _, p := range r.Params {
				if !placed[p.Name] {
					out, placed[p.Name] = append(out, p), true
				}
			}
		}
	}
	return out
}

// Partial reports whether pt lacks values of the data (AtKnown).
func (pt *Point) Partial() bool { return pt != nil && len(pt.Unknown) > 0 }

// NodeValues are a node's figures at a point.
type NodeValues struct {
	Count, Iterations, Work Values
	// NestWork is a loop nest's own work (Node.NestWork); zero elsewhere.
	NestWork Values
	// Communication figures, for Comm nodes.
	Messages, BytesSent Values
	// StandIn names the point's stand-ins (Point.StandIns) the node's
	// counts rest on, sorted: its counts are approximate there.
	StandIn []string
}

// Values is one per-rank quantity at a point.
type Values struct {
	PerRank []float64 // indexed by rank
	Total   float64   // sum over ranks
	Max     float64
	// MaxRanks are the ranks that reach Max, MinRanks those at the minimum.
	MaxRanks, MinRanks []int
	Min                float64
	// Imbalance is Max/mean, SCALA's and PerWiz's load-imbalance ratio: 1 when
	// balanced, P when one rank does everything; 1 when the mean is 0.
	Imbalance float64
}

// Ranks formats a list of ranks compactly: "0", "0-3", "0,2,5-7".
func Ranks(rs []int) string {
	var b strings.Builder
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j == i {
			fmt.Fprintf(&b, "%d", rs[i])
		} else {
			fmt.Fprintf(&b, "%d-%d", rs[i], rs[j])
		}
		i = j + 1
	}
	return b.String()
}

// MissingParams returns the report's symbols that env does not give a value,
// sorted: P (for a parallel program) and the parameters without a default.
func (r *Report) MissingParams(env map[string]int64) []string {
	var out []string
	if r.Parallel {
		if _, ok := env[Size]; !ok {
			out = append(out, Size)
		}
	}
	for _, p := range r.Params {
		if _, ok := env[p.Name]; !ok && p.Default == nil && p.Value == nil {
			out = append(out, p.Name)
		}
	}
	sort.Strings(out)
	return out
}

// At evaluates the report at env, which gives P and parameter values;
// parameters with a default take it when env does not name them. It fails
// when a symbol has no value or the point violates the assumptions.
func (r *Report) At(env map[string]int64) (*Point, error) {
	return r.at(env, false)
}

// AtKnown is At where values of the program's data are missing (DataOnly):
// every figure that rests on none of them is evaluated at the point, the
// others are left out (Point.Unknown names the values, Point.Known tells
// which figures have values). A value the point could give (P, a size, an
// input without a default) still fails, as in At.
func (r *Report) AtKnown(env map[string]int64) (*Point, error) {
	return r.at(env, true)
}

// DataOnly reports whether every name in missing is a value of the
// program's data the analysis could not derive (an element computed from
// input, a branch frequency, a trip count it cannot bound): no point of the
// sizes and P gives those, so the evaluation at the point is still the one
// to show, with what it derives from P and the sizes exact and the data as
// parameters.
func (r *Report) DataOnly(missing []string) bool {
	if len(missing) == 0 {
		return false
	}
	byName := make(map[string]*Param, len(r.Params))
	for _, p := range r.Params {
		byName[p.Name] = p
	}
	for _, m := range missing {
		p, ok := byName[m]
		if !ok || !p.Origin.Data() {
			return false
		}
	}
	return true
}

// Data reports whether a parameter of this origin is a value of the
// program's data, not one a user gives as a size.
func (o ParamOrigin) Data() bool {
	switch o {
	case FromUnresolved, FromFrequency, FromTripCount:
		return true
	}
	return false
}

func (r *Report) at(env map[string]int64, partial bool) (*Point, error) {
	full := map[string]int64{}
	var unknown []string
	standIns := map[string]int64{}
	for _, p := range r.defaultOrder(env) {
		if v, ok := env[p.Name]; ok {
			full[p.Name] = v
			continue
		}
		if p.Value != nil {
			full[p.Name] = *p.Value
			continue
		}
		if p.Default == nil {
			if partial && p.Origin.Data() {
				unknown = append(unknown, p.Name)
				continue
			}
			return nil, fmt.Errorf("no value for parameter %s (%s); give it with -D %s=...", p.Name, p.What, p.Name)
		}
		dv, err := p.Default.Eval(ratEnv(full))
		if err != nil && partial && p.Origin.Data() && (mentionsMissing(*p.Default, r.Params, full, env) || p.Default.Has(Rank)) {
			// A default in a value of the data the point lacks (a
			// counter bounded by the keys a rank holds), or one that
			// differs from rank to rank (a neighbour, where the
			// program picks one of two by the data), which no single
			// value of the point stands for.
			unknown = append(unknown, p.Name)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("default of %s: %v", p.Name, err)
		}
		n, ok := dv.Int64()
		if !ok || !dv.IsInt() {
			return nil, fmt.Errorf("default of %s is %s, not an integer", p.Name, dv)
		}
		full[p.Name] = n
		if p.Origin.Data() {
			standIns[p.Name] = n
		}
	}
	np := int64(1)
	if r.Parallel {
		v, ok := env[Size]
		if !ok {
			return nil, fmt.Errorf("no value for P, the number of processes; give it with -D P=...")
		}
		if v < 1 {
			return nil, fmt.Errorf("P = %d: need P >= 1", v)
		}
		np = v
		full[Size] = v
	}
	for k, v := range env {
		if _, ok := full[k]; !ok && k != Rank {
			full[k] = v
		}
	}
	sort.Strings(unknown)
	pt := &Point{Env: full, P: np, Nodes: make(map[*Node]*NodeValues, len(r.Nodes)), Unknown: unknown, StandIns: standIns}
	standSet := make(map[string]bool, len(standIns))
	for k := range standIns {
		standSet[k] = true
	}
	renv := ratEnv(full)
	renv[Rank] = symbolic.RatInt(0)
	for rk := int64(0); rk < np; rk++ {
		renv[Rank] = symbolic.RatInt(rk)
		ok, err := r.Assumptions.Holds(renv)
		if err == nil && !ok {
			return nil, fmt.Errorf("the point %s violates the assumptions %s", pointText(full), r.Assumptions)
		}
	}
	// One Sweeper for every value of the report: the guards it tabulates
	// recur across nodes.
	sweep, err := pt.sweeper()
	if err != nil {
		return nil, err
	}
	// Nodes share closed forms (the statements of a block one count, a
	// routine's work the work of the call that is its only caller): at
	// P = 1024 a whole application's 1,600 figures are 360 distinct ones,
	// each evaluated once. Values are not changed once summarised, so
	// nodes may share one.
	memo := map[string]Values{}
	eval := func(pw symbolic.Piecewise) (Values, error) {
		k := pw.Key()
		if v, ok := memo[k]; ok {
			return v, nil
		}
		v, err := sweepValues(sweep, pw, np)
		if err == nil {
			memo[k] = v
		}
		return v, err
	}
	// At a partial point a figure in a missing value has none: a node
	// has values only when all of its figures do.
	unknownSet := make(map[string]bool, len(unknown))
	for _, u := range unknown {
		unknownSet[u] = true
	}
	rests := func(pws ...symbolic.Piecewise) bool {
		for _, pw := range pws {
			if pw.HasAny(unknownSet) {
				return true
			}
		}
		return false
	}
	if rests(r.Work) {
		pt.WorkUnknown = true
	} else if pt.Work, err = eval(r.Work); err != nil {
		return nil, fmt.Errorf("program work: %v", err)
	}
	for _, n := range r.Nodes {
		if len(unknown) > 0 {
			figs := []symbolic.Piecewise{n.Count, n.Work, n.NestWork, n.Iterations}
			if n.Comm != nil {
				figs = append(figs, n.Comm.Messages, n.Comm.BytesSent)
			}
			if rests(figs...) {
				continue
			}
		}
		nv := &NodeValues{}
		if nv.Count, err = eval(n.Count); err != nil {
			return nil, fmt.Errorf("%s: count: %v", n.Node.Base().ID, err)
		}
		if nv.Work, err = eval(n.Work); err != nil {
			return nil, fmt.Errorf("%s: work: %v", n.Node.Base().ID, err)
		}
		if len(n.NestWork.Pieces) > 0 {
			if nv.NestWork, err = eval(n.NestWork); err != nil {
				return nil, fmt.Errorf("%s: nest work: %v", n.Node.Base().ID, err)
			}
		}
		// A loop has an iteration count even when it is zero (no pieces).
		if _, loop := n.Node.(*apt.Loop); loop || len(n.Iterations.Pieces) > 0 {
			if nv.Iterations, err = eval(n.Iterations); err != nil {
				return nil, fmt.Errorf("%s: iterations: %v", n.Node.Base().ID, err)
			}
		}
		if n.Comm != nil {
			if nv.Messages, err = eval(n.Comm.Messages); err != nil {
				return nil, fmt.Errorf("%s: messages: %v", n.Node.Base().ID, err)
			}
			if nv.BytesSent, err = eval(n.Comm.BytesSent); err != nil {
				return nil, fmt.Errorf("%s: bytes: %v", n.Node.Base().ID, err)
			}
		}
		if len(standSet) > 0 {
			nv.StandIn = restsOn(standSet, n)
		}
		pt.Nodes[n] = nv
	}
	return pt, nil
}

// restsOn returns the names of set that n's counts (not its work, a
// prediction with approximations of its own) mention, sorted.
func restsOn(set map[string]bool, n *Node) []string {
	figs := []symbolic.Piecewise{n.Count, n.Iterations}
	if n.Comm != nil {
		figs = append(figs, n.Comm.Messages, n.Comm.BytesSent)
	}
	var out []string
	for _, pw := range figs {
		if !pw.HasAny(set) {
			continue
		}
		for _, s := range pw.Symbols() {
			if set[s] && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	sort.Strings(out)
	return out
}

// StandInNote says why the counts of a node resting on the point's
// stand-ins (NodeValues.StandIn) are approximate, "" when they rest on
// none.
func (pt *Point) StandInNote(n *Node) string {
	if pt == nil {
		return ""
	}
	nv := pt.Nodes[n]
	if nv == nil || len(nv.StandIn) == 0 {
		return ""
	}
	parts := make([]string, len(nv.StandIn))
	for i, s := range nv.StandIn {
		parts[i] = fmt.Sprintf("%s=%d", s, pt.StandIns[s])
	}
	return "rests on the default of a value of the data (" + strings.Join(parts, ", ") + "), which the run decides"
}

// PerRank evaluates pw, a closed form in the rank and the point's values,
// at every rank of the point.
func (pt *Point) PerRank(pw symbolic.Piecewise) (Values, error) {
	sweep, err := pt.sweeper()
	if err != nil {
		return Values{}, err
	}
	return sweepValues(sweep, pw, pt.P)
}

// sweeper prepares evaluations at the point along the rank: a count split
// into a piece per run of ranks visits each piece's ranks only
// (symbolic.Sweeper).
func (pt *Point) sweeper() (*symbolic.Sweeper, error) {
	vars := make([]string, 0, len(pt.Env)+1)
	for k := range pt.Env {
		if k != Rank {
			vars = append(vars, k)
		}
	}
	sort.Strings(vars)
	vals := make([]int64, len(vars)+1)
	for i, k := range vars {
		vals[i] = pt.Env[k]
	}
	return symbolic.NewSweeper(append(vars, Rank), vals, Rank, pt.P)
}

// sweepValues evaluates pw at ranks 0..np-1 with sweep and summarises.
func sweepValues(sweep *symbolic.Sweeper, pw symbolic.Piecewise, np int64) (Values, error) {
	xs, err := sweep.Eval(pw)
	if err != nil {
		return Values{}, err
	}
	v := Values{PerRank: make([]float64, np)}
	for rk, x := range xs {
		v.PerRank[rk] = x.Float64()
	}
	v.Summarise()
	return v, nil
}

// Summarise sets the totals, extremes and imbalance from PerRank.
func (v *Values) Summarise() {
	if len(v.PerRank) == 0 {
		return
	}
	v.Max, v.Min = v.PerRank[0], v.PerRank[0]
	for _, x := range v.PerRank {
		v.Total += x
		v.Max = max(v.Max, x)
		v.Min = min(v.Min, x)
	}
	for i, x := range v.PerRank {
		if x == v.Max {
			v.MaxRanks = append(v.MaxRanks, i)
		}
		if x == v.Min {
			v.MinRanks = append(v.MinRanks, i)
		}
	}
	mean := v.Total / float64(len(v.PerRank))
	v.Imbalance = 1
	if mean > 0 {
		v.Imbalance = v.Max / mean
	}
}

func ratEnv(env map[string]int64) map[string]symbolic.Rat {
	out := make(map[string]symbolic.Rat, len(env)+1)
	for k, v := range env {
		out[k] = symbolic.RatInt(v)
	}
	return out
}

func pointText(env map[string]int64) string {
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, env[k])
	}
	return strings.Join(parts, ",")
}
