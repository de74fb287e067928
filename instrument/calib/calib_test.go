package calib

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/instrument/runs"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// truth is a made-up machine running trap_mpi.f: 3 ns per trapezoid, 100 ns
// to enter the loop, 2 µs per message received, 5 µs of the main program.
func truth(n, p float64, rank int) map[string]float64 {
	local := math.Floor(n / p)
	out := map[string]float64{"trap/L1": 3e-9*(local-1) + 1e-7, "trapmp": 5e-6, "trapmp/M1": 0.2}
	if rank == 0 && p > 1 {
		out["trapmp/I1/b1/L1/M1"] = 2e-6 * (p - 1)
	}
	return out
}

func synthetic(rng *rand.Rand, n float64, p int, slow float64) Run {
	r := Run{Params: map[string]float64{"n": n, "nargs": 0}, P: p, Sched: 1}
	for rank := 0; rank < p; rank++ {
		total := 0.0
		for node, s := range truth(n, float64(p), rank) {
			s *= slow * (1 + 0.01*rng.NormFloat64())
			r.Records = append(r.Records, runs.Record{Node: node, Rank: rank, Count: 1, Timed: 1, Seconds: s})
			if node != "trapmp/M1" {
				total += s
			}
		}
		r.Seconds = math.Max(r.Seconds, total)
	}
	return r
}

// costed parses and costs a program of testdata/programs.
func costed(t *testing.T, file string) *cost.Report {
	t.Helper()
	prog, _ := fortran.ParseFiles([]string{filepath.Join("..", "..", "testdata", "programs", file)}, fortran.Config{})
	rep, err := cost.Analyze(prog, cost.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestCalibrateSynthetic(t *testing.T) {
	rep := costed(t, "trap_mpi.f")
	rng := rand.New(rand.NewPCG(1, 1))
	var rs []Run
	for _, n := range []float64{100000, 200000, 400000} {
		for _, p := range []int{1, 2} {
			for rep := range 3 {
				slow := 1.0
				if n == 200000 && p == 2 && rep == 1 {
					slow = 1.8 // a repetition slowed by other load
				}
				rs = append(rs, synthetic(rng, n, p, slow))
			}
		}
	}
	cal, m, err := Calibrate(rep, rs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cal.Sizes) != 1 || cal.Sizes[0] != "n" || cal.Points != 6 {
		t.Errorf("sizes %v, points %d", cal.Sizes, cal.Points)
	}
	byNode := map[string]*NodeModel{}
	for _, nm := range cal.Nodes {
		byNode[nm.Node] = nm
		t.Logf("%-22s %-6s %s", nm.Node, nm.Basis, nm.Model)
	}
	if l := byNode["trap/L1"]; l == nil || l.Basis != Counts || l.Model.CV > 0.02 {
		t.Errorf("trap/L1: %+v", l)
	}
	for _, c := range cal.Fitted {
		if e := math.Abs(c.Predicted-c.Measured) / c.Measured; e > 0.03 {
			t.Errorf("fitted %s: %g vs %g", c.Point, c.Predicted, c.Measured)
		}
	}
	for _, p := range []int{2, 4} {
		pred, err := Predict(cal, m, Point{Params: map[string]float64{"n": 3200000}, P: p}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := 0.0
		for rank := 0; rank < p; rank++ {
			s := 0.0
			for node, v := range truth(3200000, float64(p), rank) {
				if node != "trapmp/M1" {
					s += v
				}
			}
			want = math.Max(want, s)
		}
		if e := math.Abs(pred.Total-want) / want; e > 0.02 {
			t.Errorf("P=%d: predicted %g, true %g (%.1f%% off)", p, pred.Total, want, 100*e)
		}
		if !(pred.Lo <= pred.Total && pred.Total <= pred.Hi) {
			t.Errorf("interval [%g, %g] around %g", pred.Lo, pred.Hi, pred.Total)
		}
	}
}

func TestClean(t *testing.T) {
	rs := []Run{{Seconds: 1, Sched: 0.5}, {Seconds: 1.1, Sched: 0.95}, {Seconds: 2, Sched: 0.99}, {Seconds: 1.2, Sched: 1}}
	got := Clean(rs)
	if len(got) != 2 || got[0].Seconds != 1.1 || got[1].Seconds != 1.2 {
		t.Errorf("Clean = %+v", got)
	}
	if got := Clean([]Run{{Seconds: 3, Sched: 0.2}, {Seconds: 1, Sched: 0.3}}); len(got) != 1 || got[0].Seconds != 1 {
		t.Errorf("all disturbed: %+v", got)
	}
}

// TestPredictWarnsPastCalibratedMessages calibrates shift.f on messages of
// 512 to 2048 bytes and predicts at messages of 32 KB, where a real MPI
// would have switched from eager to rendezvous: the prediction must say
// that it extrapolates, and must not when the messages stay in range.
func TestPredictWarnsPastCalibratedMessages(t *testing.T) {
	rep := costed(t, "shift.f")
	cal, m, err := Calibrate(rep, shiftRuns(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sendModel *NodeModel
	for _, nm := range cal.Nodes {
		if nm.Node == shiftSend {
			sendModel = nm
		}
	}
	if sendModel == nil || sendModel.MaxMessage != 2048 {
		t.Fatalf("send node model %+v, want the largest message 2048 bytes", sendModel)
	}
	for _, tc := range []struct {
		m    float64
		warn bool
	}{{256, false}, {512, false}, {4096, true}} {
		pred, err := Predict(cal, m, Point{Params: map[string]float64{"n": 1000, "m": tc.m}, P: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		warned := false
		for _, w := range pred.Warnings {
			warned = warned || strings.HasPrefix(w, shiftSend+": messages of 32768 bytes")
		}
		if warned != tc.warn || !tc.warn && len(pred.Warnings) > 0 {
			t.Errorf("m=%g: warnings %q, want a warning on the send: %v", tc.m, pred.Warnings, tc.warn)
		}
	}
}

// shift.f's send and receive, each inside the loop shift/L2: rank r < P-1
// sends n messages of 8m bytes to r+1, rank r > 0 receives them.
const shiftSend, shiftRecv = "shift/L2/I1/b1/M1", "shift/L2/I2/b1/M1"

// shiftRuns are timings of shift.f at n = 1000, messages of 512 to 2048
// bytes, P = 1, 2, three repetitions each, with 1% noise.
func shiftRuns() []Run {
	const send, recv = shiftSend, shiftRecv
	rng := rand.New(rand.NewPCG(2, 2))
	var rs []Run
	for _, m := range []float64{64, 128, 256} {
		for _, p := range []int{1, 2} {
			for range 3 {
				n := 1000.0
				r := Run{Params: map[string]float64{"n": n, "m": m}, P: p, Sched: 1}
				for rank := range p {
					noise := func(s float64) float64 { return s * (1 + 0.01*rng.NormFloat64()) }
					loop := noise(n * m * 2e-9)
					r.Records = append(r.Records, runs.Record{Node: "shift/L2", Rank: rank, Count: 1, Timed: 1, Seconds: loop})
					if rank < p-1 {
						s := noise(n * (1e-6 + 8*m*1e-10))
						r.Records = append(r.Records, runs.Record{Node: send, Rank: rank, Count: int64(n), Timed: int64(n),
							Seconds: s, Msgs: int64(n), Bytes: int64(n * 8 * m)})
					}
					if rank > 0 {
						s := noise(n * (1e-6 + 8*m*1e-10))
						r.Records = append(r.Records, runs.Record{Node: recv, Rank: rank, Count: int64(n), Timed: int64(n),
							Seconds: s, RecvMsgs: int64(n), RecvBytes: int64(n * 8 * m)})
					}
					r.Seconds = math.Max(r.Seconds, 2*loop)
				}
				rs = append(rs, r)
			}
		}
	}
	return rs
}

// TestPredictNetwork predicts shift.f at P = 8 with its messages on a
// network the runs did not use: the send and the receive get the
// profile's time from the counts the program implies (rank r < P-1 sends
// n messages of 8m bytes, rank r > 0 receives them; worked out by hand
// here, not by the analysis), the loop keeps its calibrated time, and
// the message size is placed in the profile's regime.
func TestPredictNetwork(t *testing.T) {
	rep := costed(t, "shift.f")
	cal, m, err := Calibrate(rep, shiftRuns(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	const n, size, p = 1000.0, 512.0, 8
	pt := Point{Params: map[string]float64{"n": n, "m": size}, P: p}
	plain, err := Predict(cal, m, pt, nil)
	if err != nil {
		t.Fatal(err)
	}
	us := func(x float64) symbolic.Rat { return ratOf(x * 1e-6) }
	net := model.LogGP{L: us(2), Regimes: []model.Regime{
		{Below: symbolic.RatInt(1400), O: us(1), G: ratOf(1e-9)},
		{O: us(3), G: ratOf(2e-10)},
	}, EagerLimit: symbolic.RatInt(65536), Rendezvous: model.Rendezvous{OCtrl: us(1), OData: us(3), G: ratOf(2e-10)}}
	pred, err := PredictWith(cal, m, pt, nil, PredictOptions{Network: &Network{Name: "test", Net: net}})
	if err != nil {
		t.Fatal(err)
	}
	// 8m = 4096 bytes: the second eager regime, o = 3 µs, G = 0.2 ns/B.
	bytes := 8 * size
	sendWant := n * 3e-6                        // s = o
	recvWant := n * (2e-6 + bytes*2e-10 + 3e-6) // τ = L + mG, r = o
	byNode := map[string]NodePrediction{}
	for _, np := range pred.Nodes {
		byNode[np.Node] = np
	}
	for _, c := range []struct {
		node string
		want float64
	}{{shiftSend, sendWant}, {shiftRecv, recvWant}} {
		np := byNode[c.node]
		if !np.Modelled || math.Abs(np.Max-c.want) > 1e-9*c.want || np.Bytes != bytes || np.Regime != "eager 1400 B–64 KiB" {
			t.Errorf("%s: %+v, want modelled %.6gs (the largest over ranks) for %g-byte messages in eager 1400 B–64 KiB",
				c.node, np, c.want, bytes)
		}
	}
	// Rank 0 only sends, rank P-1 only receives, the others do both: the
	// slowest rank is one of the middle ones.
	if np := byNode[shiftSend]; math.Abs(pred.Modelled-sendWant-recvWant) > 1e-9*pred.Modelled || np.OnSlowest == 0 {
		t.Errorf("modelled %.6gs on the slowest rank (%d), want %.6gs", pred.Modelled, pred.Rank, sendWant+recvWant)
	}
	for i, np := range plain.Nodes {
		if np.Node == "shift/L2" && pred.Nodes[i].OnSlowest != np.OnSlowest {
			t.Errorf("the loop's calibrated time moved: %g, was %g", pred.Nodes[i].OnSlowest, np.OnSlowest)
		}
	}
	for _, w := range pred.Warnings {
		if strings.Contains(w, "changes protocol") {
			t.Errorf("warned of the calibrated protocol for a modelled call: %s", w)
		}
	}
}

// TestMarkSlow: points all of whose repetitions ran in a slow spell of the
// machine, which their speed probes show, are left out of the fit; kept,
// they bend it (checked too, with the probes hidden).
func TestMarkSlow(t *testing.T) {
	rep := costed(t, "trap_mpi.f")
	rng := rand.New(rand.NewPCG(4, 4))
	var rs []Run
	for _, n := range []float64{100000, 200000, 300000, 400000} {
		for _, p := range []int{1, 2} {
			for range 3 {
				slow := 1.0
				if n >= 300000 {
					slow = 1.6
				}
				r := synthetic(rng, n, p, slow)
				r.Probe = 3e-4 * float64(p) * slow // at P = 2 the probe is slower anyway
				rs = append(rs, r)
			}
		}
	}
	marked := slices.Clone(rs)
	MarkSlow(marked)
	slowed := 0
	for _, r := range marked {
		if r.Slowed {
			slowed++
		}
	}
	if slowed != 12 {
		t.Errorf("%d runs marked slow, want the 12 repetitions of n=300000 and 400000", slowed)
	}
	want := 0.0
	for node, v := range truth(3200000, 2, 0) {
		if node != "trapmp/M1" {
			want += v
		}
	}
	for _, probes := range []bool{true, false} {
		in := slices.Clone(rs)
		if !probes {
			for i := range in {
				in[i].Probe = 0
			}
		}
		cal, m, err := Calibrate(rep, in, Options{})
		if err != nil {
			t.Fatal(err)
		}
		pred, err := Predict(cal, m, Point{Params: map[string]float64{"n": 3200000}, P: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		e := pred.Total/want - 1
		if probes && (math.Abs(e) > 0.03 || len(cal.SlowPoints) != 4) {
			t.Errorf("with probes: predicted %g, true %g (%.1f%% off), slow points %v", pred.Total, want, 100*e, cal.SlowPoints)
		}
		if !probes && math.Abs(e) < 0.1 {
			t.Errorf("without probes the slow point should bend the fit: %.1f%% off", 100*e)
		}
	}
}

// configuredSource is a program whose size is compiled in, as a configure
// step writes it (NPB's npbparams.h): one loop nest over n elements, ten
// sweeps.
const configuredSource = `      program cfg
      integer n
      parameter (n = %d)
      double precision a(n), s
      integer i, k
      s = 0
      do k = 1, 10
         do i = 1, n
            a(i) = a(i) * 0.5d0 + 1.0d0
            s = s + a(i)
         enddo
      enddo
      print *, s
      end
`

// TestCalibrateConfigured: with each point's own report (Options.ReportAt)
// a program whose size is a compiled-in constant is calibrated from its
// configurations and predicted at a larger one; one report for every point
// cannot tell the points apart. The truth is a made-up machine: 3 ns per
// inner iteration and 2 µs per entry of the nest.
func TestCalibrateConfigured(t *testing.T) {
	dir := t.TempDir()
	reportOf := map[int]*cost.Report{}
	for _, n := range []int{1000, 2000, 4000, 64000} {
		file := filepath.Join(dir, fmt.Sprintf("cfg%d.f", n))
		if err := os.WriteFile(file, []byte(fmt.Sprintf(configuredSource, n)), 0o644); err != nil {
			t.Fatal(err)
		}
		prog, diags := fortran.ParseFiles([]string{file}, fortran.Config{})
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		rep, err := cost.Analyze(prog, cost.Options{})
		if err != nil {
			t.Fatal(err)
		}
		reportOf[n] = rep
	}
	truth := func(n int) float64 { return 3e-9*10*float64(n) + 2e-6 }
	var rs []Run
	for _, n := range []int{1000, 2000, 4000} {
		for range 2 {
			rs = append(rs, Run{Params: map[string]float64{"n": float64(n)}, P: 1, Sched: 1, Seconds: truth(n),
				Records: []runs.Record{{Node: "cfg/L1", Rank: 0, Count: 1, Timed: 1, Seconds: truth(n)}}})
		}
	}
	at := func(pt Point) *cost.Report { return reportOf[int(pt.Params["n"])] }
	cal, _, err := Calibrate(reportOf[1000], rs, Options{ReportAt: at, CountsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(cal.Nodes) != 1 || cal.Nodes[0].Basis != Counts || cal.Nodes[0].Approx != "" {
		t.Fatalf("nodes %+v", cal.Nodes)
	}
	pt := Point{Params: map[string]float64{"n": 64000}, P: 1}
	pred, err := Predict(cal, NewModel(reportOf[64000], cal.Timed()), pt, pt.Params)
	if err != nil {
		t.Fatal(err)
	}
	if want := truth(64000); math.Abs(pred.Total-want) > 0.01*want || pred.Approx != 0 {
		t.Errorf("predicted %g at n=64000 (approximate share %g), want %g", pred.Total, pred.Approx, want)
	}
	// One report for all points: the counts do not vary, so the fit can
	// only average the times; the prediction misses by far.
	cal1, m1, err := Calibrate(reportOf[1000], rs, Options{CountsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if p1, _ := Predict(cal1, m1, pt, pt.Params); math.Abs(p1.Total-truth(64000)) < 0.5*truth(64000) {
		t.Errorf("one report predicted %g, want far from %g", p1.Total, truth(64000))
	}
	// A run at a point with no report is left out and counted.
	rs = append(rs, Run{Params: map[string]float64{"n": 8000}, P: 1, Seconds: truth(8000)})
	if cal, _, err = Calibrate(reportOf[1000], rs, Options{ReportAt: at, CountsOnly: true}); err != nil || cal.Unconfigured != 1 {
		t.Errorf("unconfigured %d, %v", cal.Unconfigured, err)
	}
}
