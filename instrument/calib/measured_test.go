package calib

import (
	"math"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/instrument/runs"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// twiceRuns are runs of twice.f at the sizes ns: sweep runs once in the
// main program (the timed region twice) and ten times in twice/L2, and its
// branch is taken for the share f of the elements, counts and times as an
// instrumented run records them (the times follow sweep's iterations, 5 ns
// each).
func twiceRuns(ns []float64, f float64) []Run {
	var rs []Run
	for _, n := range ns {
		for range 2 {
			r := Run{Params: map[string]float64{"n": n}, P: 1, Sched: 1, Seconds: 11 * n * 5e-9}
			r.Records = []runs.Record{
				{Node: "twice", Count: 1, Timed: 1, Seconds: n * 5e-9},
				{Node: "twice/L1", Count: 1, Iters: int64(n), Timed: 1, Seconds: n * 1e-9},
				{Node: "twice/L2", Count: 1, Iters: 10, Timed: 1, Seconds: 10 * n * 5e-9},
				{Node: "sweep", Count: 11},
				{Node: "sweep/L1", Count: 11, Iters: int64(11 * n)},
				{Node: "sweep/L1/I1/b1", Count: int64(math.Round(11 * n * f))},
			}
			rs = append(rs, r)
		}
	}
	return rs
}

// TestLoopContexts: a routine's loop counts toward each timed region that
// calls it, with the executions of those calls (worked out by hand from
// twice.f): twice's own call runs sweep/L1 n times, twice/L2's ten calls
// 10n times, besides twice/L2's own 10 iterations.
func TestLoopContexts(t *testing.T) {
	rep := costed(t, "twice.f")
	m := NewModel(rep, map[string]bool{"twice": true, "twice/L1": true, "twice/L2": true})
	ev := &evaluator{m: m}
	fs := ev.at(Point{Params: map[string]float64{"n": 1000}, P: 1}, nil)
	for id, want := range map[string]float64{"twice": 1000, "twice/L1": 1000, "twice/L2": 10 + 10*1000} {
		if got := fs[id][0].x[1]; got != want {
			t.Errorf("%s: %g iterations, want %g", id, got, want)
		}
	}
}

// TestDataParams: the branch frequency the analysis leaves to a parameter
// is solved from the arm's measured count at each calibration point, so
// the points' features are exact, and at a size nobody ran it is taken as
// measured and said to be.
func TestDataParams(t *testing.T) {
	rep := costed(t, "twice.f")
	var pct string
	for _, p := range rep.Params {
		if p.Origin == cost.FromFrequency {
			pct = p.Name
		}
	}
	if pct == "" {
		t.Fatal("twice.f has no branch frequency parameter")
	}
	const f = 0.3
	cal, m, err := Calibrate(rep, twiceRuns([]float64{1000, 2000, 4000}, f), Options{CountsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(cal.Data) != 1 {
		t.Fatalf("data %+v, want %s alone", cal.Data, pct)
	}
	d := cal.Data[0]
	if d.Name != pct || d.Node != "sweep/L1/I1/b1" || !d.Percent || d.Points != 3 ||
		math.Abs(d.Share-100*f) > 1e-9 || d.Min != d.Max {
		t.Errorf("data %+v, want %s = %g%% from sweep/L1/I1/b1 at 3 points", d, pct, 100*f)
	}
	// The work at a new size is the one the measured frequency gives.
	pt := Point{Params: map[string]float64{"n": 16000}, P: 1}
	pred, err := Predict(cal, m, pt, nil)
	if err != nil {
		t.Fatal(err)
	}
	env := Env(rep, pt, map[string]float64{pct: 100 * f})
	env[cost.Rank] = symbolic.RatInt(0)
	want := evalPW(m.byID["twice/L2"].node.Work, env)
	got := (&evaluator{m: m}).at(pt, map[string]float64{pct: 100 * f})["twice/L2"][0].x[0]
	if math.Abs(got-want) > 1e-9*want {
		t.Errorf("twice/L2 work %g, want %g", got, want)
	}
	if !strings.Contains(strings.Join(pred.Warnings, "\n"), "; "+pct+" taken as 30, measured 30 at the 3 calibration points") {
		t.Errorf("warnings %q do not say the frequency is the measured one", pred.Warnings)
	}
	// Given, the value is the user's: no estimate.
	pt.Params[pct] = 50
	pred, err = Predict(cal, m, pt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(pred.Warnings, "\n"), "taken as") {
		t.Errorf("a frequency given was estimated: %q", pred.Warnings)
	}
}
