package instrument_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// cloverDeck is the small input deck of the CloverLeaf oracle: the shipped
// InputDecks/clover.in (two states, tiles_per_chunk 1, profiler_on) on a
// 32x32 grid for 10 steps, with an end_time large enough that the step
// limit ends the run.
var cloverDeck = map[string]string{"x_cells": "32", "y_cells": "32", "end_step": "10", "end_time": "1000.0"}

// cloverPoint is the analysis point beside P: the deck's values under the
// names mkvet asks for them (its note on the input deck's values, as `mkvet
// check -D` takes them). state_max is the number of states the deck
// defines; profiler_on a keyword without a value, set when present. The
// values the deck leaves out are the program's own defaults, which mkvet
// takes by itself (test_problem=0, the Fortran kernels, summary_frequency=10);
// state_geometry is the geometry of the state the generator's loop over
// the states reaches with a number (the keyword's word, rectangle, is
// g_rect = 1 in data.f90).
var cloverPoint = map[string]int64{
	"x_cells": 32, "y_cells": 32, "end_step": 10, "state_max": 2, "tiles_per_chunk": 1, "profiler_on": 1,
	"state_geometry": 1, // the second state's geometry=rectangle: g_rect
}

// cloverPs are the process counts of the CloverLeaf oracle.
var cloverPs = []int{1, 2, 4}

// TestCloverLeafCountsMatchRunsE2E is the real-run counts oracle on
// CloverLeaf 1.3 (issue 13, item 6): built with mkvet's instrumentation and
// the flags of its Makefile's GNU configuration (without OpenMP), linked
// with its C kernels and timer, it runs a small deck on 1, 2 and 4 ranks,
// and every loop nest holding 1% or more of the predicted work, analysed at
// P and the deck's values, must have an exact per-rank count, entries and
// iterations, equal to the counters on every rank. The same build, run on
// a larger deck, times every loop nest and checks MK1001 against them
// (cloverHotNests).
func TestCloverLeafCountsMatchRunsE2E(t *testing.T) {
	e2e.Require(t, "mpif90", "mpicc", "mpirun")
	start := time.Now()
	clover, err := corpora.OpenNamed(t, "cloverleaf", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files, err := clover.Sources()
	if err != nil {
		t.Fatal(err)
	}
	deck, err := writeCloverDeck(clover)
	if err != nil {
		t.Fatal(err)
	}
	prog, diags := fortran.ParseFiles(files, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("CloverLeaf: parse: %v", d)
		}
	}
	// The manifest's build with counters has the flags of the Makefile's
	// GNU configuration (FLAGS_GNU, CFLAGS_GNU) without OpenMP: the
	// counters are not atomic, and the instrumentation puts a nest's
	// probes between an OpenMP loop directive and its DO, which the
	// directive's rules forbid; without -fopenmp the directives are
	// comments. The C kernels and timer are compiled as c_lover does and
	// linked into every build.
	build, err := clover.CountersBuild()
	if err != nil {
		t.Fatal(err)
	}
	cfg := &sweep.Config{
		Prog: prog, Files: files,
		Options: instrument.Options{BodyCounters: true, NestTimers: true},
		Build:   build, Launcher: e2e.MPILauncher,
		Dir: t.TempDir(), Timeout: 2 * time.Minute, Env: e2e.MPIEnv(t),
	}
	b, err := cfg.Compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("CloverLeaf: built in %v", time.Since(start).Round(time.Second))
	for _, p := range cloverPs {
		cloverOracle(t, cfg, b, prog, deck, p)
	}
	cloverHotNests(t, clover, cfg, b, prog)
	t.Logf("CloverLeaf counts oracle: %v", time.Since(start).Round(time.Second))
}

// writeCloverDeck writes the oracle's deck, InputDecks/clover.in with
// cloverDeck's values, as clover.in in the build copy and returns it.
func writeCloverDeck(c *corpora.Copy) ([]byte, error) {
	deck, err := c.Deck(cloverDeck)
	if err != nil {
		return nil, err
	}
	return []byte(deck), os.WriteFile(filepath.Join(c.Dir, "clover.in"), []byte(deck), 0o644)
}

func cloverOracle(t *testing.T, cfg *sweep.Config, b *sweep.Build, prog *apt.Program, deck []byte, p int) {
	t.Helper()
	point := map[string]int64{cost.Size: int64(p)}
	for k, v := range cloverPoint {
		point[k] = v
	}
	rep, err := cost.AnalyzeAt(prog, cost.Options{}, point)
	if err != nil {
		t.Fatalf("CloverLeaf P=%d: %v", p, err)
	}
	// Each value given is one mkvet asks for, and it asks for no other.
	for _, k := range sortedKeys(cloverPoint) {
		if !slices.ContainsFunc(rep.Params, func(q *cost.Param) bool { return q.Name == k }) {
			t.Errorf("CloverLeaf P=%d: the point gives %s, which the analysis does not ask for", p, k)
		}
	}
	if missing := rep.MissingParams(point); len(missing) > 0 {
		t.Fatalf("CloverLeaf P=%d: the analysis needs more than P and the deck: %v", p, missing)
	}
	runDir := filepath.Join(cfg.Dir, fmt.Sprint("run-P", p))
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(runDir, "clover.in"), deck, 0o644); err != nil {
		t.Fatal(err)
	}
	run := cfg.Run(b, sweep.Point{P: p}, 0, runDir, "clover")
	if run.Err != nil {
		t.Fatalf("CloverLeaf P=%d: %v\n%s\n%s", p, run.Err, run.Stdout, run.Stderr)
	}
	if out, err := os.ReadFile(filepath.Join(runDir, "clover.out")); err != nil || !strings.Contains(string(out), "Calculation complete") {
		t.Fatalf("CloverLeaf P=%d: the run did not complete (clover.out: %v)\n%s", p, err, tailOf(string(out), 2000))
	}
	byNode := recordsByNode(run.Records)
	pt, err := rep.At(point)
	if err != nil {
		t.Fatalf("CloverLeaf P=%d: %v", p, err)
	}
	// CloverLeaf's hot nests run over the grid; the branches on data in
	// their bodies (the limiters of the advection, the viscosity's test)
	// leave the nests' own counts exact.
	if data := countsOracle(t, "CloverLeaf", p, rep, pt, byNode, nil); len(data) > 0 {
		t.Errorf("CloverLeaf P=%d: %d hot loop nests depend on data, none expected", p, len(data))
	}
	// As a user runs it: from the run's directory, mkvet reads clover.in
	// with the program's own parser (formatted lines, the cleaned copy it
	// writes and reads back) and needs nothing but P.
	fromDeck, err := cost.AnalyzeAt(prog, cost.Options{Dir: runDir}, map[string]int64{cost.Size: int64(p)})
	if err != nil {
		t.Fatalf("CloverLeaf P=%d from its deck: %v", p, err)
	}
	deckPoint := map[string]int64{cost.Size: int64(p)}
	if missing := fromDeck.MissingParams(deckPoint); len(missing) > 0 {
		t.Errorf("CloverLeaf P=%d from its deck: the analysis still needs %v", p, missing)
	} else if dpt, err := fromDeck.At(deckPoint); err != nil {
		t.Errorf("CloverLeaf P=%d from its deck: %v", p, err)
	} else if data := countsOracle(t, "CloverLeaf (deck read)", p, fromDeck, dpt, byNode, nil); len(data) > 0 {
		t.Errorf("CloverLeaf P=%d from its deck: %d hot loop nests depend on data, none expected", p, len(data))
	}
	if p == cloverPs[len(cloverPs)-1] {
		logCloverNests(t, rep, pt, byNode, p)
	}
}

// cloverHotDeck is the deck of the hot-nest oracle on CloverLeaf: the
// counts' deck on a grid large enough that the hydrodynamics' kernels, not
// reading the deck and starting up, take the run's time (at 32x32 for 10
// steps the loops take 3 ms in all, a fifth of it parsing the deck), and
// not a power of two (whose strides the caches' sets take unevenly).
var cloverHotDeck = map[string]string{"x_cells": "480", "y_cells": "480", "end_step": "10", "end_time": "1000.0"}

// cloverHotNests checks MK1001 against the measured time per loop nest of
// the instrumented build (hotNests) on cloverHotDeck at each P.
func cloverHotNests(t *testing.T, clover *corpora.Copy, cfg *sweep.Config, b *sweep.Build, prog *apt.Program) {
	t.Helper()
	deck, err := clover.Deck(cloverHotDeck)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range cloverPs {
		point := map[string]int64{cost.Size: int64(p)}
		for k, v := range cloverPoint {
			point[k] = v
		}
		point["x_cells"], point["y_cells"] = 480, 480
		rep, err := cost.AnalyzeAt(prog, cost.Options{}, point)
		if err != nil {
			t.Fatalf("CloverLeaf P=%d: %v", p, err)
		}
		pt, err := rep.At(point)
		if err != nil {
			t.Fatalf("CloverLeaf P=%d: %v", p, err)
		}
		run := func(i int) ([]instrument.Record, error) {
			dir := filepath.Join(cfg.Dir, fmt.Sprintf("hot-P%d-%d", p, i))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(filepath.Join(dir, "clover.in"), []byte(deck), 0o644); err != nil {
				return nil, err
			}
			r := cfg.Run(b, sweep.Point{P: p}, i, dir, "clover")
			return r.Records, r.Err
		}
		recs, err := run(0)
		if err != nil {
			t.Fatalf("CloverLeaf P=%d: %v", p, err)
		}
		hotNests(t, "CloverLeaf", p, rep, pt, b.Result, recs, run)
	}
}

// logCloverNests logs the hot loops at the largest P: each one's share of
// the predicted work and its iterations per rank, as the counters give them
// (the static counts equal them when the oracle passes).
func logCloverNests(t *testing.T, rep *cost.Report, pt *cost.Point, byNode map[string]map[int]instrument.Record, p int) {
	t.Helper()
	var table strings.Builder
	fmt.Fprintf(&table, "CloverLeaf P=%d: loops holding 1%% or more of the predicted work, iterations per rank (counters):\n", p)
	for _, n := range rep.Nodes {
		if _, ok := n.Node.(*apt.Loop); !ok {
			continue
		}
		share := pt.Nodes[n].Work.Total / pt.Work.Total
		if share < hotShare {
			continue
		}
		id := n.Node.Base().ID
		pos := n.Node.Base().Span.Start()
		var iters []string
		for rank := 0; rank < p; rank++ {
			iters = append(iters, fmt.Sprint(byNode[id][rank].Iters))
		}
		fmt.Fprintf(&table, "    %-58s %-30s %5.1f%%  %s\n", id, fmt.Sprintf("%s:%d", filepath.Base(pos.File), pos.Line), 100*share, strings.Join(iters, " "))
	}
	t.Log(strings.TrimSuffix(table.String(), "\n"))
}

func tailOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
