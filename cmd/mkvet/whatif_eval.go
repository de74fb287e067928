package main

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/model/phase"
	"github.com/mkvet/mkvet/model/whatif"
	"github.com/mkvet/mkvet/symbolic"
)

// seriesOf reads -series N=v1,v2,...: the report symbol of N, and each
// value as written and as a number. name is "" without -series.
func (wf *whatifFlags) seriesOf() (name string, texts []string, vals []float64, err error) {
	if wf.series == "" {
		return "", nil, nil, nil
	}
	n, list, ok := strings.Cut(wf.series, "=")
	if !ok || strings.TrimSpace(n) == "" {
		return "", nil, nil, usagef("-series %s: want N=v1,v2,...", wf.series)
	}
	for _, v := range strings.Split(list, ",") {
		v = strings.TrimSpace(v)
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return "", nil, nil, usagef("-series %s: %q is not a number", wf.series, v)
		}
		texts, vals = append(texts, v), append(vals, x)
	}
	return symbolName(strings.TrimSpace(n)), texts, vals, nil
}

// seriesParam is how the tables' header shows the -series parameter.
func seriesParam(texts []string) string { return strings.Join(texts, ",") + " (one table each)" }

// evaluate computes the tables and the requested analyses.
func (wf *whatifFlags) evaluate(run, other *whatifRun, prof *model.Profile, ps []int64) (*whatifOutput, error) {
	net, _ := prof.Network()
	out := &whatifOutput{Version: 1, File: run.file, Machine: prof.Name, Network: modelName(net), Unit: run.unitNote,
		Params: map[string]string{}, Notes: []string{}}
	for k, e := range run.exprs {
		out.Params[k] = e.String()
	}
	seriesName, seriesTexts, seriesVals, err := wf.seriesOf()
	if err != nil {
		return nil, err
	}
	if seriesName != "" {
		out.Params[seriesName] = seriesParam(seriesTexts)
	}
	for _, t := range run.terms {
		out.Terms = append(out.Terms, termJSON{Name: t.Name, Kind: t.Kind.String(), ClosedForm: t.T.String(), How: t.How})
		if t.Max != nil && t.Max.Method == phase.Approx {
			out.Notes = append(out.Notes, fmt.Sprintf("%s: the maximum over ranks is %s", t.Name, t.Max.Note))
		}
	}
	for _, g := range run.analysis.Phases {
		if g.FanInNote != "" {
			out.Notes = append(out.Notes, fmt.Sprintf("%s at %s: %s", g.Name, g.Pos(), g.FanInNote))
		}
	}
	out.Notes = append(out.Notes, run.analysis.Notes...)
	for _, s := range run.analysis.Unmatched {
		out.Notes = append(out.Notes, fmt.Sprintf("%s at %s matches no other call; it is not costed", s, s.Pos()))
	}

	// The tables: one, or one per -series value.
	type point struct {
		label string
		env   map[string]float64
	}
	points := []point{{label: "", env: run.env}}
	if seriesName != "" {
		points = nil
		for i, x := range seriesVals {
			env := maps2(run.env)
			env[seriesName] = x
			points = append(points, point{label: seriesName + "=" + seriesTexts[i], env: env})
		}
	}
	size := symbolName(wf.size)
	if wf.size == "" {
		size = defaultSize(run)
	} else if _, ok := run.env[size]; !ok {
		return nil, usagef("-size %s: not a parameter with a value (give -D %s=...)", wf.size, wf.size)
	}
	out.Size = size
	f, err := run.model.Compile()
	if err != nil {
		return nil, err
	}
	for _, pt := range points {
		rows, err := f.Table(pt.env, ps)
		if err != nil {
			return nil, err
		}
		label := pt.label
		if label == "" {
			label = strings.TrimSuffix(baseName(run.file), ".f")
		}
		t := &tableJSON{Label: label, rows: rows}
		work, werr := serialWork(run.model, pt.env, size)
		var reach *isoCheck
		if werr == nil {
			reach, werr = newIsoCheck(f, work, size, pt.env)
		}
		for i, r := range rows {
			rj := rowOf(run.model, r)
			if i > 0 && size != "" && werr == nil && reach.reachable(rows[i-1].P, r.P) {
				psi, n2, err := whatif.Isospeed(work, run.model, size, pt.env, rows[i-1].P, r.P)
				// A size beyond 2^40 times the given one means the speed
				// cannot be kept (from P = 1, which has no overhead).
				if err == nil && n2 < pt.env[size]*0x1p40 {
					rj.Psi, rj.Scaled = &psi, &n2
				}
			}
			t.Rows = append(t.Rows, rj)
		}
		if werr != nil && size != "" {
			out.Notes = append(out.Notes, fmt.Sprintf("no isospeed: %v", werr))
		}
		out.Tables = append(out.Tables, t)
	}

	env := points[0].env
	if other != nil {
		cx, err := whatif.Compare(run.model, other.model, mergeEnv(env, other.env), ps)
		if err != nil {
			return nil, err
		}
		cj := &compareJSON{Other: other.file, Crossings: []crossingJSON{}}
		orows, err := whatif.Table(other.model, mergeEnv(env, other.env), ps)
		if err != nil {
			return nil, fmt.Errorf("-compare: %w", err)
		}
		cj.rows = orows
		for _, r := range orows {
			cj.Rows = append(cj.Rows, rowOf(other.model, r))
		}
		for _, c := range cx {
			cj.Crossings = append(cj.Crossings, crossingJSON{From: c.From, To: c.To, Before: variantName(c.Before, run, other),
				After: variantName(c.After, run, other), At: c.At})
		}
		out.Compare = cj
	}
	if wf.grain != "" {
		name, rng, ok := strings.Cut(wf.grain, "=")
		if !ok {
			return nil, usagef("-grain %q: want K=lo..hi", wf.grain)
		}
		k := symbolName(strings.TrimSpace(name))
		lo, hi, err := whatif.ParseRange(rng)
		if err != nil {
			return nil, usagef("-grain %s: %v", wf.grain, err)
		}
		gm := GrainModel(run.model, k)
		genv := maps2(env)
		delete(genv, k)
		for _, p := range ps {
			genv[cost.Size] = float64(p)
			kb, tb, d, err := whatif.Grain(gm, k, lo, hi, genv)
			if err != nil {
				return nil, fmt.Errorf("-grain: %w", err)
			}
			out.Grain = append(out.Grain, grainJSON{P: p, K: kb, Time: tb})
			out.GrainDer = d.String()
		}
	}
	if wf.constTime != "" {
		d, err := model.ParseDuration(wf.constTime)
		if err != nil {
			return nil, usagef("-constant-time:1:1: %v", err)
		}
		if size == "" {
			return nil, usagef("-constant-time: the time depends on no problem size; name one with -size")
		}
		ns, err := whatif.ConstantTime(run.model, size, d.Float64(), ps, env)
		var none *whatif.NoSolutionError
		if err != nil && !errors.As(err, &none) {
			return nil, err
		}
		for i, p := range ps {
			c := constJSON{P: p}
			if !math.IsNaN(ns[i]) {
				v := ns[i]
				c.Size = &v
			} else if none != nil {
				c.Why = none.Why[slices.Index(none.P, p)]
			}
			out.Constant = append(out.Constant, c)
		}
	}
	return out, nil
}

// GrainModel is m with floor, ceil and trunc of arguments in k relaxed to
// the arguments (MK differentiates the continuous closed form, seed 000
// §5.4): equal to m wherever k divides the sizes.
func GrainModel(m whatif.Model, k string) whatif.Model {
	out := whatif.Model{Size: m.Size}
	for _, t := range m.Terms {
		t.T = phase.Relax(t.T, k)
		out.Terms = append(out.Terms, t)
	}
	return out
}

func variantName(v whatif.Variant, a, b *whatifRun) string {
	if v == whatif.A {
		return a.file
	}
	return b.file
}

func mergeEnv(a, b map[string]float64) map[string]float64 {
	out := maps2(b)
	for k, v := range a {
		out[k] = v
	}
	return out
}

func maps2(m map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// defaultSize picks the problem size isospeed scales: the first parameter
// with a value that the compute term depends on, else any term.
func defaultSize(r *whatifRun) string {
	for _, p := range r.analysis.Report.Params {
		if _, ok := r.env[p.Name]; !ok {
			continue
		}
		for _, t := range r.model.Terms {
			if t.Kind == whatif.Compute && pwMentions(t.T, p.Name) {
				return p.Name
			}
		}
	}
	return ""
}

func pwMentions(pw symbolic.Piecewise, name string) bool {
	for _, p := range pw.Pieces {
		if p.Value.Has(name) {
			return true
		}
	}
	return false
}

// serialWork returns SCALA's work W(N) for isospeed: the model's time at
// P = 1 as a closed form in the size (the sequential time is the work at
// unit speed, and psi = p'W/(pW') needs W only up to a constant factor),
// the pieces that hold at the given point.
func serialWork(m whatif.Model, env map[string]float64, size string) (symbolic.Expr, error) {
	if size == "" {
		return symbolic.Expr{}, errors.New("no problem size")
	}
	var w symbolic.Expr
	at := map[string]float64{}
	for k, v := range env {
		at[k] = v
	}
	at[m.Size] = 1
	for _, t := range m.Terms {
		for _, p := range t.T.Pieces {
			holds := true
			for _, g := range p.Guard {
				v, err := g.E.EvalFloat(at)
				if err != nil {
					return symbolic.Expr{}, err
				}
				switch g.Op {
				case symbolic.GE:
					holds = holds && v >= -1e-9
				case symbolic.GT:
					holds = holds && v > 1e-9
				case symbolic.EQ:
					holds = holds && math.Abs(v) <= 1e-9
				}
			}
			if holds {
				v, err := p.Value.Subst(map[string]symbolic.Expr{m.Size: symbolic.Int(1)})
				if err != nil {
					return symbolic.Expr{}, err
				}
				w = w.Add(v)
			}
		}
	}
	if !w.Has(size) {
		return symbolic.Expr{}, fmt.Errorf("the time at P = 1 does not depend on %s", size)
	}
	return w, nil
}

// isoCheck decides cheaply whether SCALA's isospeed condition can be met
// at all from (N, p) to p2: the average speed W/(p2*T) at a problem size
// 2^40 times N must reach the speed at (N, p). Without this check
// whatif.Isospeed would search up to 2^1000*N before saying no (from P = 1,
// which has no overhead, the speed is never kept).
type isoCheck struct {
	f     *whatif.ModelFunc
	work  *symbolic.Func
	size  string
	env   map[string]float64
	vars  []string
	limit float64
}

func newIsoCheck(f *whatif.ModelFunc, work symbolic.Expr, size string, env map[string]float64) (*isoCheck, error) {
	vars := work.Symbols()
	wf, err := work.Compile(vars)
	if err != nil {
		return nil, err
	}
	return &isoCheck{f: f, work: wf, size: size, env: env, vars: vars, limit: env[size] * 0x1p40}, nil
}

func (c *isoCheck) speed(n float64, p int64) float64 {
	env := maps2(c.env)
	env[c.size] = n
	env[cost.Size] = float64(p)
	t, err := c.f.Time(env)
	if err != nil || t <= 0 {
		return math.NaN()
	}
	vals := make([]float64, len(c.vars))
	for i, v := range c.vars {
		vals[i] = env[v]
	}
	return c.work.EvalFloat(vals) / (float64(p) * t)
}

func (c *isoCheck) reachable(p, p2 int64) bool {
	target := c.speed(c.env[c.size], p)
	far := c.speed(c.limit, p2)
	return !math.IsNaN(target) && !math.IsNaN(far) && far >= target
}
