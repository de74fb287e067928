package calib

import (
	"math"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/instrument/runs"
	"github.com/mkvet/mkvet/model"
)

// testMemory is a made-up node: 1 KiB of L1, 64 KiB of L2, then main
// memory ten times slower per byte than L1.
func testMemory(measured bool) *model.Memory {
	m := &model.Memory{CPUs: 2, Levels: []model.MemLevel{
		{Name: "L1", Size: 1 << 10, Shared: 1, One: 1e-11, All: 1e-11},
		{Name: "L2", Size: 64 << 10, Shared: 1, One: 2e-11, All: 2e-11},
		{Name: "memory", One: 1e-10, All: 1.5e-10},
	}}
	if !measured {
		for i := range m.Levels {
			m.Levels[i].One, m.Levels[i].All = 0, 0
		}
	}
	return m
}

// pge1's last loop (pge1/L3, DO 60) runs floor(n/P) iterations of 8
// bytes over a nest whose arrays hold 8n² bytes. On testMemory it costs
// 10 ns an iteration plus its traffic at the rate of a working set of 8n²
// (the level's rate up to half its capacity, then blending into the next
// level's).
func memTruth(mem *model.Memory, n float64, p int) float64 {
	it := math.Floor(n / float64(p))
	procs := min(p, mem.CPUs)
	return it * (1e-8 + 8*mem.SecPerByteAt(8*n*n, procs))
}

// TestSecPerByteAt checks the blend against the rates worked out by hand.
func TestSecPerByteAt(t *testing.T) {
	mem := testMemory(true)
	for _, c := range []struct {
		fp   float64
		p    int
		want float64
	}{
		{512, 1, 1e-11},                          // L1, half full
		{768, 1, 1.5e-11},                        // L1 three quarters full: halfway to L2's
		{1024, 1, 2e-11},                         // L1 full
		{32 << 10, 1, 2e-11},                     // L2 half full
		{48 << 10, 1, 2e-11 + 0.5*(1e-10-2e-11)}, // L2 three quarters full
		{48 << 10, 2, 2e-11 + 0.5*(1.5e-10-2e-11)},
		{1 << 30, 2, 1.5e-10}, // main memory
	} {
		if got := mem.SecPerByteAt(c.fp, c.p); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("SecPerByteAt(%v, %d) = %g, want %g", c.fp, c.p, got, c.want)
		}
	}
}

func TestPredictMemoryLevels(t *testing.T) {
	rep := costed(t, "pge1.f")
	mem := testMemory(true)
	var rs []Run
	for _, n := range []float64{20, 30, 40, 60} { // 3.2 KiB to 28 KiB: L2, under half full
		for _, p := range []int{1, 2} {
			for range 2 {
				r := Run{Params: map[string]float64{"n": n}, P: p, Sched: 1}
				for rank := range p {
					s := memTruth(mem, n, p)
					r.Records = append(r.Records, runs.Record{Node: "pge1/L3", Rank: rank, Count: 1, Timed: 1, Seconds: s})
					r.Seconds = math.Max(r.Seconds, s)
				}
				rs = append(rs, r)
			}
		}
	}
	for _, tc := range []struct {
		name     string
		mem      *model.Memory
		estimate bool
	}{{"measured", mem, true}, {"levels only", testMemory(false), false}, {"none", nil, false}} {
		t.Run(tc.name, func(t *testing.T) {
			cal, m, err := Calibrate(rep, rs, Options{Memory: tc.mem, CountsOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			var nm *NodeModel
			for _, x := range cal.Nodes {
				if x.Node == "pge1/L3" {
					nm = x
				}
			}
			if nm == nil {
				t.Fatal("no model of pge1/L3")
			}
			if tc.mem != nil && (nm.Level != 2 || nm.Footprint != 8*60*60) {
				t.Errorf("reached level %d footprint %v, want 2 (L2) and %v", nm.Level, nm.Footprint, 8*60*60)
			}
			for _, p := range []int{1, 2} {
				// Inside L2 under half full the fit holds as it is; at
				// n = 80 (50 KiB) L2 is more than half full, at n = 400
				// (1.2 MiB) the loop streams from main memory.
				for _, n := range []float64{50, 80, 400} {
					pred, err := Predict(cal, m, Point{Params: map[string]float64{"n": n}, P: p}, nil)
					if err != nil {
						t.Fatal(err)
					}
					want := memTruth(mem, n, p)
					got := pred.Total
					rel := math.Abs(got-want) / want
					beyond := n >= 80
					where := map[bool]string{true: "is in memory; its calibration ran in L2", false: "fills L2 (64 KiB per process here) more than half"}[n == 400]
					warned := strings.Contains(strings.Join(pred.Warnings, "\n"), where)
					switch {
					case !beyond && rel > 1e-6:
						t.Errorf("n=%v P=%d: %g s, truth %g s", n, p, got, want)
					case !beyond && (warned || pred.Memory != 0):
						t.Errorf("n=%v P=%d: warned inside the levels calibrated: %q", n, p, pred.Warnings)
					case beyond && tc.estimate && (rel > 1e-6 || !warned || pred.Memory <= 0):
						t.Errorf("n=%v P=%d: %g s (memory %g), truth %g s; warnings %q", n, p, got, pred.Memory, want, pred.Warnings)
					case beyond && !tc.estimate && tc.mem != nil && (!warned || pred.Approx < 0.99 || got >= want):
						t.Errorf("n=%v P=%d: levels only: %g s, approx %.2f, warnings %q; want flagged, marked and below the truth %g",
							n, p, got, pred.Approx, pred.Warnings, want)
					case beyond && tc.mem == nil && (warned || got >= want):
						t.Errorf("n=%v P=%d: no hierarchy: %g s, warnings %q", n, p, got, pred.Warnings)
					}
				}
			}
		})
	}
}

// TestPredictMemorySharedLevel: a level shared by the node's processors
// holds half as much per process with two processes on it. Calibrated at
// P=1 with working sets up to 28 KiB (under half of a 64 KiB shared L2)
// and at P=2 up to 12.5 KiB (under half of its 32 KiB share), the fit
// holds at L2's rate; at P=2 and n=60 the 28 KiB per process fill the
// share past half, where the rate blends into main memory's. The working
// set alone (28 KiB, reached at P=1) does not show it; the rate does.
func TestPredictMemorySharedLevel(t *testing.T) {
	rep := costed(t, "pge1.f")
	mem := testMemory(true)
	mem.Levels[1].Shared = 2
	var rs []Run
	for _, n := range []float64{20, 30, 40, 60} {
		for _, p := range []int{1, 2} {
			if p == 2 && n > 40 {
				continue
			}
			r := Run{Params: map[string]float64{"n": n}, P: p, Sched: 1}
			for rank := range p {
				s := memTruth(mem, n, p)
				r.Records = append(r.Records, runs.Record{Node: "pge1/L3", Rank: rank, Count: 1, Timed: 1, Seconds: s})
				r.Seconds = math.Max(r.Seconds, s)
			}
			rs = append(rs, r, r)
		}
	}
	cal, m, err := Calibrate(rep, rs, Options{Memory: mem, CountsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n    float64
		p    int
		warn string
	}{
		{60, 1, ""},
		{60, 2, "fills L2 (32 KiB per process here) more than half with 2 processes on the node"},
		{80, 2, "is in memory"},
	} {
		pred, err := Predict(cal, m, Point{Params: map[string]float64{"n": c.n}, P: c.p}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := memTruth(mem, c.n, c.p)
		if rel := math.Abs(pred.Total-want) / want; rel > 1e-6 {
			t.Errorf("n=%v P=%d: %g s (memory %g), truth %g s; warnings %q", c.n, c.p, pred.Total, pred.Memory, want, pred.Warnings)
		}
		warnings := strings.Join(pred.Warnings, "\n")
		if c.warn == "" && warnings != "" || !strings.Contains(warnings, c.warn) {
			t.Errorf("n=%v P=%d: warnings %q, want %q", c.n, c.p, warnings, c.warn)
		}
	}
}

// TestMemoryExtraPerStream: a node's loops are compared each with the
// rate it streamed at in the calibration, not with the slowest of the
// node's: a loop that ran in L2 and now fills L2 three quarters (rate
// halfway to main memory's, 6e-11 s/B on testMemory) costs the difference,
// even though another loop of the node already ran at that rate. Worked
// by hand: 1e6 bytes × (6e-11 − 2e-11) s/B.
func TestMemoryExtraPerStream(t *testing.T) {
	mem := testMemory(true)
	ss := []stream{{traffic: 1e6, fp: 48 << 10}, {traffic: 1e6, fp: 48 << 10}}
	nm := &NodeModel{Level: 2, Footprint: 48 << 10, Rate: 6e-11, Rates: []float64{2e-11, 6e-11}}
	extra, level, fp := memoryExtra(mem, nm, ss, 1)
	if want := 1e6 * 4e-11; math.Abs(extra-want) > 1e-9*want || level != 2 || fp != 48<<10 {
		t.Errorf("per stream: extra %g, level %d, footprint %v; want %g, 2, %v", extra, level, fp, want, 48<<10)
	}
	nm.Rates = nil // the points disagreed on the streams: the node's slowest rate for all
	if extra, _, _ := memoryExtra(mem, nm, ss, 1); extra != 0 {
		t.Errorf("per node: extra %g, want 0", extra)
	}
}
