package main

import (
	"io"
	"math"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/instrument/calib"
	"github.com/mkvet/mkvet/instrument/runs"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// TestPointwiseCalibration: cells.f's sweep over a process's cells runs a
// nest whose bounds are a cell's sizes, which change from one cell to the
// next; the symbolic report stands a parameter for all of them, so its
// counts are approximate, and a calibration fitted to them cannot predict
// exactly. Costed at each point instead (pointwise, atPoint), the counts
// are exact there, and a calibration on P = 1, 4, 9 predicts P = 16
// exactly. Oracle: the times are made up from the iterations and entries
// the APT interpreter (internal/aptrun) runs at each rank, not from
// mkvet's counts.
func TestPointwiseCalibration(t *testing.T) {
	pf := &progFlags{form: "auto"}
	l, st := pf.load("calibrate", []string{"../../testdata/programs/cells.f"}, io.Discard)
	if l == nil {
		t.Fatalf("load: status %d", st)
	}
	if !pointwise(l.report) {
		t.Fatal("cells.f: the symbolic report is exact; the test needs one that is not")
	}
	// The innermost loop of the sweep (line 70).
	var id string
	for _, n := range l.report.Nodes {
		if _, ok := n.Node.(*apt.Loop); ok && n.Node.Base().Span.Start().Line == 70 {
			id = n.Node.Base().ID
		}
	}
	if id == "" {
		t.Fatal("no loop at cells.f:70")
	}
	truth := func(p, rank int) (iters, entries int64) {
		c, err := aptrun.Run(l.prog, aptrun.Config{P: int64(p), Rank: int64(rank)})
		if err != nil {
			t.Fatal(err)
		}
		return c.Iter[id], c.Exec[id]
	}
	seconds := func(iters, entries int64) float64 { return 1e-8*float64(iters) + 1e-6*float64(entries) }
	var rs []calib.Run
	for _, p := range []int{1, 4, 9} {
		r := calib.Run{P: p, Params: map[string]float64{}, Sched: 1}
		for rank := range p {
			it, en := truth(p, rank)
			s := seconds(it, en)
			r.Records = append(r.Records, runs.Record{Node: id, Rank: rank, Count: en, Iters: it, Timed: en, Seconds: s})
			r.Seconds = math.Max(r.Seconds, s)
		}
		rs = append(rs, r, r)
	}
	at := func(pt calib.Point) *cost.Report {
		r, err := l.atPoint(pt)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	want := 0.0
	for rank := range 16 {
		want = math.Max(want, seconds(truth(16, rank)))
	}
	predict := func(reportAt func(calib.Point) *cost.Report) (*calib.Prediction, error) {
		cal, m, err := calib.Calibrate(l.report, rs, calib.Options{ReportAt: reportAt, CountsOnly: true})
		if err != nil {
			return nil, err
		}
		pt := calib.Point{Params: map[string]float64{}, P: 16}
		if reportAt != nil {
			m = calib.NewModel(reportAt(pt), cal.Timed())
		}
		return calib.Predict(cal, m, pt, nil)
	}
	pred, err := predict(at)
	if err != nil {
		t.Fatal(err)
	}
	if rel := math.Abs(pred.Total-want) / want; rel > 1e-6 || pred.Approx != 0 {
		t.Errorf("pointwise: P=16 predicted %g s (approximate share %.2f), truth %g s", pred.Total, pred.Approx, want)
	}
	// whatif -runs -series evaluates a point's slot at other values: with
	// per-point models the slot's model must be costed there again
	// (modelAt), not reused. Here the slot holds P=16's model and is asked
	// for P=9.
	cal, _, err := calib.Calibrate(l.report, rs, calib.Options{ReportAt: at, CountsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	cp := &calibratedPoints{cal: cal, perPoint: l, models: []*calib.Model{calib.NewModel(at(calib.Point{P: 16}), cal.Timed())}}
	nine := calib.Point{Params: map[string]float64{}, P: 9}
	m, err := cp.modelAt(0, nine)
	if err != nil {
		t.Fatal(err)
	}
	if pred, err := calib.Predict(cal, m, nine, nil); err != nil {
		t.Fatal(err)
	} else {
		want9 := 0.0
		for rank := range 9 {
			want9 = math.Max(want9, seconds(truth(9, rank)))
		}
		if rel := math.Abs(pred.Total-want9) / want9; rel > 1e-6 {
			t.Errorf("modelAt: P=9 predicted %g s, truth %g s", pred.Total, want9)
		}
	}
	// The symbolic report alone does not give it: what the mechanism is for.
	if sym, err := predict(nil); err == nil && math.Abs(sym.Total-want)/want <= 1e-6 && sym.Approx == 0 {
		t.Errorf("symbolic: P=16 predicted exactly (%g s): the test does not tell the two apart", sym.Total)
	}
}
