package calib

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/instrument/runs"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// Data values. The analysis leaves some counts to parameters only the
// data fixes: the entries the rows of a sparse matrix hold together
// (symeval's row spans), how often a branch with an unanalysable condition
// is taken, the trip count of a DO WHILE. The instrumented runs count the
// nodes those parameters govern, so a calibration point gives their values:
// solved from a node's measured count, they make the point's features
// exact instead of resting on the analysis's guess. At a point nobody ran
// the value is estimated from the measured ones, as a share of the bound
// the analysis knows (the extent of the arrays the entries index) where
// there is one, and the counts resting on it stay marked approximate.

// DataParam is a data value measured at the calibration points.
type DataParam struct {
	Name string `json:"name"`
	// Node is the node whose measured count gave the values.
	Node string `json:"node"`
	// Bound is the analysis's bound of the value (the declared extent the
	// entries index) at the point where it is largest, "" when it knows
	// none: Share is then the value itself.
	Bound string `json:"bound,omitempty"`
	// Share is the estimate at other points: the share of Bound at the
	// calibration point where the bound is largest (the nearest to larger
	// targets), or without a bound the mean of the values. Min and Max are
	// the range over the points.
	Share    float64 `json:"share"`
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
	Points   int     `json:"points"`
	Percent  bool    `json:"percent,omitempty"` // a branch frequency in percent
	largestB float64
}

// dataParams are the parameters of rep the analysis could not derive and
// the runs can measure.
func dataParams(rep *cost.Report) map[string]*cost.Param {
	out := map[string]*cost.Param{}
	for _, p := range rep.Params {
		if p.Value != nil {
			continue
		}
		switch p.Origin {
		case cost.FromUnresolved, cost.FromFrequency, cost.FromTripCount:
			out[p.Name] = p
		}
	}
	return out
}

// solveData returns the values of rep's data parameters at a point (pt,
// extra) that the counts of a run there (recs) fix: a parameter is solved
// from the first node whose loop iterations (or, for other nodes, count)
// use it and no other unknown, where the count is linear in it, as the mean
// over the ranks. The node that gave each is in from.
func solveData(rep *cost.Report, pt Point, extra map[string]float64, recs []runs.Record) (vals map[string]float64, from map[string]string) {
	unknown := dataParams(rep)
	for name := range unknown {
		if _, ok := pt.Params[name]; ok {
			delete(unknown, name)
		} else if _, ok := extra[name]; ok {
			delete(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil, nil
	}
	type measured struct{ count, iters []float64 }
	byNode := map[string]*measured{}
	counts := func(m *measured) []float64 { return m.count }
	iters := func(m *measured) []float64 { return m.iters }
	for _, x := range recs {
		if x.Rank < 0 || x.Rank >= pt.P {
			continue
		}
		m := byNode[x.Node]
		if m == nil {
			m = &measured{count: make([]float64, pt.P), iters: make([]float64, pt.P)}
			byNode[x.Node] = m
		}
		m.count[x.Rank] += float64(x.Count)
		m.iters[x.Rank] += float64(x.Iters)
	}
	vals, from = map[string]float64{}, map[string]string{}
	given := map[string]float64{}
	for k, v := range extra {
		given[k] = v
	}
	// A value solved makes others solvable: a few passes.
	for pass := 0; pass < 3 && len(unknown) > 0; pass++ {
		progress := false
		for _, n := range rep.Nodes {
			fig, ys := n.Count, counts
			if _, ok := n.Node.(*apt.Loop); ok {
				fig, ys = n.Iterations, iters
			}
			if n.CountMissing() || len(fig.Pieces) == 0 {
				continue
			}
			var name string
			ok := true
			for _, s := range fig.Symbols() {
				if unknown[s] == nil {
					continue
				}
				if name != "" && name != s {
					ok = false
				}
				name = s
			}
			if !ok || name == "" || from[name] != "" {
				continue
			}
			var y []float64
			if m := byNode[n.Node.Base().ID]; m != nil {
				y = ys(m)
			} else {
				y = make([]float64, pt.P) // its probe never ran
			}
			v, ok := solveLinear(rep, fig, pt, given, name, y)
			if !ok {
				continue
			}
			vals[name], from[name] = v, n.Node.Base().ID
			given[name] = v
			delete(unknown, name)
			progress = true
		}
		if !progress {
			break
		}
	}
	return vals, from
}

// solveLinear solves fig(name) = y[rank] on each rank for name, fig being
// linear in it (checked at the solution), and returns the mean.
func solveLinear(rep *cost.Report, fig symbolic.Piecewise, pt Point, extra map[string]float64, name string, y []float64) (float64, bool) {
	env := Env(rep, pt, extra)
	sum := 0.0
	for rank := 0; rank < pt.P; rank++ {
		env[cost.Rank] = symbolic.RatInt(int64(rank))
		at := func(v float64) float64 {
			env[name] = ratOf(v)
			return evalPW(fig, env)
		}
		f1, f2 := at(1), at(2)
		slope := f2 - f1
		if math.IsNaN(slope) || slope == 0 {
			return 0, false
		}
		v := 1 + (y[rank]-f1)/slope
		if v < 0 {
			return 0, false
		}
		// Linear: the count at the solution is the one measured.
		if got := at(v); math.IsNaN(got) || math.Abs(got-y[rank]) > 1e-6*math.Max(1, y[rank]) {
			return 0, false
		}
		sum += v
	}
	return sum / float64(pt.P), true
}

// dataEstimates summarises the values solved at the calibration points
// (vals, one map per point, with each point's report, point and extra).
func dataEstimates(reps []*cost.Report, pts []Point, extras []map[string]float64, vals []map[string]float64, from []map[string]string) []*DataParam {
	byName := map[string]*DataParam{}
	var order []string
	type obs struct {
		v, b  float64
		bound string
	}
	seen := map[string][]obs{}
	for i := range pts {
		params := dataParams(reps[i])
		env := Env(reps[i], pts[i], extras[i])
		for name, v := range vals[i] {
			p := params[name]
			if p == nil {
				continue
			}
			d := byName[name]
			if d == nil {
				d = &DataParam{Name: name, Node: from[i][name], Percent: p.Origin == cost.FromFrequency}
				byName[name] = d
				order = append(order, name)
			}
			// Each point's bound in its own report: a configuration
			// compiles its sizes into the bound.
			b, bs := math.NaN(), "" // no bound known at this point
			if p.Hi != nil {
				if x, err := p.Hi.Eval(env); err == nil {
					b, bs = x.Float64(), p.Hi.String()
				}
			}
			seen[name] = append(seen[name], obs{v, b, bs})
		}
	}
	sort.Strings(order)
	var out []*DataParam
	for _, name := range order {
		d, os := byName[name], seen[name]
		// A share of the bound only where every point has one.
		bounded := !slices.ContainsFunc(os, func(o obs) bool { return !(o.b > 0) })
		d.Min, d.Max = math.Inf(1), math.Inf(-1)
		sum := 0.0
		for _, o := range os {
			s := o.v
			if bounded {
				s = o.v / o.b
				if o.b >= d.largestB {
					d.largestB, d.Share, d.Bound = o.b, s, o.bound
				}
			}
			d.Min, d.Max = math.Min(d.Min, s), math.Max(d.Max, s)
			sum += s
		}
		if !bounded {
			d.Share = sum / float64(len(os))
		}
		d.Points = len(os)
		out = append(out, d)
	}
	return out
}

// estimate returns the data values of rep at a point that neither the
// point nor extra gives, from the calibration's measurements, and why each
// is approximate.
func (cal *Calibration) estimate(rep *cost.Report, pt Point, extra map[string]float64) (map[string]float64, map[string]string) {
	if len(cal.Data) == 0 {
		return extra, nil
	}
	params := dataParams(rep)
	out := map[string]float64{}
	for k, v := range extra {
		out[k] = v
	}
	why := map[string]string{}
	var env map[string]symbolic.Rat
	for _, d := range cal.Data {
		p := params[d.Name]
		if p == nil {
			continue
		}
		if _, ok := pt.Params[d.Name]; ok {
			continue
		}
		if _, ok := extra[d.Name]; ok {
			continue
		}
		rng := fmt.Sprintf("%.3g", d.Min)
		if d.Max != d.Min {
			rng += "–" + fmt.Sprintf("%.3g", d.Max)
		}
		over := fmt.Sprintf("at the %d calibration points", d.Points)
		if d.Points == 1 {
			over = "at the one calibration point"
		}
		if d.Bound == "" || p.Hi == nil {
			out[d.Name] = d.Share
			why[d.Name] = fmt.Sprintf("%s taken as %.4g, measured %s %s", d.Name, d.Share, rng, over)
			continue
		}
		if env == nil {
			env = Env(rep, pt, extra)
		}
		b, err := p.Hi.Eval(env)
		if err != nil {
			continue
		}
		out[d.Name] = math.Round(d.Share * b.Float64())
		why[d.Name] = fmt.Sprintf("%s taken as %.3g of its bound (%.4g here), the share measured at the largest calibration point (%s %s)",
			d.Name, d.Share, b.Float64(), rng, over)
	}
	return out, why
}
