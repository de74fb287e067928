package instrument_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/instrument"
	"github.com/mkvet/mkvet/instrument/sweep"
	"github.com/mkvet/mkvet/internal/corpora"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model/cost"
)

// TestNPB34HotNestsE2E is the hot-nest oracle (issue 47) on NPB 3.4, the
// Fortran 90 version nobody tuned mkvet for: each benchmark at class S,
// configured by its own setparams (which takes no process count: the
// programs take it at run time), analysed with `check -D P=p` and nothing
// else, built with mkvet's timers on every loop nest and its counters, run
// under Open MPI at each P; the values of the program's data the analysis
// cannot derive are read off the counters as for NPB 3.3, and the loop
// nests holding half of the measured loop time must all be reported by
// MK1001 (hotNests, with its noise rule). The hot-nest oracles time the
// program as it runs: an innermost counted loop adds its trip count on
// entry (not Options.BodyCounters), since a counter in its body stops the
// compiler vectorising it and a zeroing loop (MG's buffer clears in
// comm1p) then takes several times its own time. The counts' own oracle,
// TestNPBCountsMatchRunsE2E, counts in every body.
func TestNPB34HotNestsE2E(t *testing.T) {
	dir := corpora.Dir(t)
	e2e.Require(t, "mpif90", "mpirun", "cc")
	npb, err := corpora.NewTree(t, dir, "NPB3.4-MPI", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// The Fortran benchmarks at the process counts each runs on (BT and
	// SP: squares).
	benches, err := corpora.Select(func(p corpora.Program) bool { return p.Folder == "NPB3.4-MPI" && p.Language == "fortran" })
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for _, bp := range benches {
		c, err := npb.Program(bp)
		if err != nil {
			t.Fatal(err)
		}
		bench := c.Bench()
		t.Run(bench, func(t *testing.T) {
			files, inc, err := c.Configured(c.P, "S")
			if err != nil {
				t.Fatal(err)
			}
			prog, diags := fortran.ParseFiles(files, fortran.Config{IncludeDirs: []string{inc}})
			for _, d := range diags {
				if d.Severity == apt.Error {
					t.Fatalf("%s: parse: %v", bench, d)
				}
			}
			cfg := &sweep.Config{
				Prog: prog, Files: files,
				Options: instrument.Options{NestTimers: true, IncludeDirs: []string{inc}},
				Build:   c.Counters.Build, Launcher: e2e.MPILauncher,
				Dir: t.TempDir(), Timeout: 5 * time.Minute, Env: e2e.MPIEnv(t),
			}
			b, err := cfg.Compile(nil)
			if err != nil {
				t.Fatalf("%s: %v", bench, err)
			}
			for _, p := range c.ProcsEnds() { // NPB 3.3's oracle runs the others
				hotNestsAt(t, "NPB3.4 "+bench, p, prog, cfg, b, nil)
			}
		})
	}
	t.Logf("NPB 3.4 hot-nest oracle: %v", time.Since(start).Round(time.Second))
}

// hotNestsAt analyses prog at P = p and the point's other values, runs
// the build there and checks MK1001 against the measured nest times
// (hotNests). Values of the program's data the analysis cannot derive are
// read off the run's counters (measureData), as a calibration run would.
func hotNestsAt(t *testing.T, label string, p int, prog *apt.Program, cfg *sweep.Config, b *sweep.Build, values map[string]int64) {
	t.Helper()
	point := map[string]int64{cost.Size: int64(p)}
	for k, v := range values {
		point[k] = v
	}
	rep, err := cost.AnalyzeAt(prog, cost.Options{}, point)
	if err != nil {
		t.Fatalf("%s P=%d: %v", label, p, err)
	}
	run := cfg.Run(b, sweep.Point{P: p}, 0, filepath.Join(cfg.Dir, fmt.Sprint("run-P", p)), "hot")
	if run.Err != nil {
		t.Fatalf("%s P=%d: %v\n%s", label, p, run.Err, run.Stderr)
	}
	byNode := recordsByNode(run.Records)
	measured, err := measureData(rep, point, byNode)
	if err != nil {
		t.Fatalf("%s P=%d: %v", label, p, err)
	}
	if len(measured) > 0 {
		t.Logf("%s P=%d: values of the data measured on rank 0: %v", label, p, measured)
	}
	for k, v := range measured {
		point[k] = v
	}
	pt, err := rep.At(point)
	if err != nil {
		t.Fatalf("%s P=%d: %v", label, p, err)
	}
	hotNests(t, label, p, rep, pt, b.Result, run.Records, func(i int) ([]instrument.Record, error) {
		r := cfg.Run(b, sweep.Point{P: p}, i, filepath.Join(cfg.Dir, fmt.Sprintf("run-P%d-%d", p, i)), "hot")
		return r.Records, r.Err
	})
}

// sweep3dDeck is the input deck of the oracle: the shipped input.50's
// problem (a 50x50x50 grid, 6 angles, 2 pipelined) with the process grid
// npe_i x npe_j for P and flux fixups off (with them on, how often a
// fixup repeats is the data's: no counter gives it alone); sweep3dPoint
// its values under the names mkvet asks for them (the deck's first line is
// read twice, into the same values).
func sweep3dDeck(npeI, npeJ int) string {
	return fmt.Sprintf("%d %d 10 2 16\n50 50 50 6 1\n.1 .1 .1 -12.0\n0 0 0\n0 1 0\n", npeI, npeJ)
}

func sweep3dPoint(npeI, npeJ int) map[string]int64 {
	return map[string]int64{"npe_i": int64(npeI), "npe_j": int64(npeJ), "mk": 10, "mmi": 2,
		"it_g": 50, "jt_g": 50, "kt": 50, "mm": 6, "isct": 1, "ibc": 0, "jbc": 0, "kbc": 0,
		"iprint": 0, "idsa": 1, "ifixups": 0}
}

// TestSweep3DHotNestsE2E is the hot-nest oracle (issue 47) on Sweep3D, the
// wavefront benchmark of performance modelling: built as its README says
// with mkvet's timers on every loop nest and its counters, run under Open
// MPI at P = 1, 2, 4 on process grids 1x1, 2x1, 2x2 with the deck written
// for each, analysed at P and the deck's values; the values of its data the
// analysis cannot derive (the convergence loop's trips, the pipelined
// diagonals' lengths) are read off the counters, and the nests holding
// half of the measured loop time must all be reported by MK1001.
func TestSweep3DHotNestsE2E(t *testing.T) {
	e2e.Require(t, "mpif77", "mpicc", "mpirun", "cpp")
	c, err := corpora.OpenNamed(t, "sweep3d", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := c.Dir
	files, err := c.Sources()
	if err != nil {
		t.Fatal(err)
	}
	build, err := c.CountersBuild()
	if err != nil {
		t.Fatal(err)
	}
	prog, diags := fortran.ParseFiles(files, fortran.Config{IncludeDirs: []string{src}})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("Sweep3D: parse: %v", d)
		}
	}
	cfg := &sweep.Config{
		Prog: prog, Files: files,
		Options:  instrument.Options{NestTimers: true, IncludeDirs: []string{src}},
		Build:    build,
		Launcher: e2e.MPILauncher, Dir: t.TempDir(), Timeout: 5 * time.Minute, Env: e2e.MPIEnv(t),
	}
	b, err := cfg.Compile(nil)
	if err != nil {
		t.Fatalf("Sweep3D: %v", err)
	}
	for _, g := range []struct{ p, i, j int }{{1, 1, 1}, {2, 2, 1}, {4, 2, 2}} {
		cfg.InputFiles = []sweep.InputFile{{Name: "input", Template: sweep3dDeck(g.i, g.j)}}
		hotNestsAt(t, "Sweep3D", g.p, prog, cfg, b, sweep3dPoint(g.i, g.j))
	}
}

// teaDeck is the input deck of the TeaLeaf oracle: two states on a 200x200
// grid for 5 steps of the Jacobi solver, each step's solve running its 100
// iterations (an eps no residual reaches, so that the run's iteration
// count is the deck's, as the analysis takes the convergence test);
// teaPoint its values under the names mkvet asks for them (the others are
// the program's own defaults, which the deck leaves as they are).
const teaDeck = `*tea
state 1 density=100.0 energy=0.0001
state 2 density=0.1 energy=25.0 geometry=rectangle xmin=0.0 xmax=1.0 ymin=1.0 ymax=2.0
x_cells=200
y_cells=200
xmin=0.0
ymin=0.0
xmax=10.0
ymax=10.0
initial_timestep=0.004
end_step=5
tl_max_iters=100
tl_use_jacobi
tl_eps=1.0e-30
*endtea
`

var teaPoint = map[string]int64{"state_max": 2, "x_cells": 200, "y_cells": 200, "end_step": 5, "max_iters": 100,
	"state_geometry": 1} // the second state's geometry=rectangle: g_rect

// TestTeaLeafHotNestsE2E is the hot-nest oracle (issue 47) on TeaLeaf,
// CloverLeaf's sibling nobody tuned mkvet for: built with its Makefile's
// GNU flags (without OpenMP) and mkvet's timers and counters, run under
// Open MPI at P = 1, 2, 4 on teaDeck, analysed at P and the deck's values;
// the nests holding half of the measured loop time must all be reported by
// MK1001.
func TestTeaLeafHotNestsE2E(t *testing.T) {
	e2e.Require(t, "mpif90", "mpicc", "mpirun")
	c, err := corpora.OpenNamed(t, "tealeaf", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files, err := c.Sources()
	if err != nil {
		t.Fatal(err)
	}
	build, err := c.CountersBuild()
	if err != nil {
		t.Fatal(err)
	}
	prog, diags := fortran.ParseFiles(files, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("TeaLeaf: parse: %v", d)
		}
	}
	cfg := &sweep.Config{
		Prog: prog, Files: files,
		Options:  instrument.Options{NestTimers: true},
		Build:    build,
		Launcher: e2e.MPILauncher, Dir: t.TempDir(), Timeout: 5 * time.Minute, Env: e2e.MPIEnv(t),
		InputFiles: []sweep.InputFile{{Name: "tea.in", Template: teaDeck}},
	}
	b, err := cfg.Compile(nil)
	if err != nil {
		t.Fatalf("TeaLeaf: %v", err)
	}
	for _, p := range []int{1, 2, 4} {
		hotNestsAt(t, "TeaLeaf", p, prog, cfg, b, teaPoint)
	}
}
