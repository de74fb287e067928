package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/symbolic"
)

// TestTracePredictAndAnalyse runs the trace subcommands on predicted
// traces of the MK skeletons (no MPI needed): predict, show, replay, cpg
// (MK's phases: the pipeline of depth P-1, the shift), timeline and
// whatif -trace; outputs are never written over.
func TestTracePredictAndAnalyse(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ prog, phase string }{
		{"pipeline.f", "pipeline at pipeln/L2: depth 3,"},
		{"shift.f", "shift at shift/L2:"},
		{"lu_wavefront.f", "pipeline (wavefront) at luwave/L2/L1: depth 2,"},
	} {
		src := filepath.Join("..", "..", "testdata", "programs", c.prog)
		mkt := filepath.Join(dir, c.prog+".mkt")
		out, errs, code := runMkvet(t, "trace", "predict", "-P", "4", "-o", mkt, src)
		if code != 0 || !strings.Contains(out, "predicted trace, P = 4") {
			t.Fatalf("predict %s: %d\n%s%s", c.prog, code, out, errs)
		}
		if _, errs, code := runMkvet(t, "trace", "predict", "-P", "4", "-o", mkt, src); code != 2 || !strings.Contains(errs, "exists") {
			t.Errorf("predict over an existing file: %d %s", code, errs)
		}
		if out, errs, code := runMkvet(t, "trace", "cpg", mkt); code != 0 || !strings.Contains(out, c.phase) {
			t.Errorf("cpg %s: %d, want %q\n%s%s", c.prog, code, c.phase, out, errs)
		}
		out, errs, code = runMkvet(t, "trace", "replay", mkt)
		if code != 0 || !strings.Contains(out, "(+0.00%)") {
			t.Errorf("replay %s: %d, want the trace's own time back\n%s%s", c.prog, code, out, errs)
		}
		if out, errs, code := runMkvet(t, "trace", "show", mkt); code != 0 || !strings.Contains(out, "predicted trace of") {
			t.Errorf("show: %d\n%s%s", code, out, errs)
		}
		js := filepath.Join(dir, c.prog+".json")
		if out, errs, code := runMkvet(t, "trace", "timeline", "-o", js, mkt); code != 0 || !strings.Contains(out, "perfetto") {
			t.Errorf("timeline: %d\n%s%s", code, out, errs)
		}
		var doc struct {
			TraceEvents []map[string]any `json:"traceEvents"`
		}
		if b, err := os.ReadFile(js); err != nil || json.Unmarshal(b, &doc) != nil || len(doc.TraceEvents) == 0 {
			t.Errorf("timeline %s: not a trace event file (%v)", js, err)
		}
		out, errs, code = runMkvet(t, "whatif", "-trace", mkt, "-format", "json")
		var w traceWhatifOutput
		if code != 0 || json.Unmarshal([]byte(out), &w) != nil || len(w.Whatifs) < 4 {
			t.Errorf("whatif -trace %s: %d\n%s%s", c.prog, code, out, errs)
		}
		for _, h := range w.Whatifs {
			if h.Seconds <= 0 || h.Seconds > w.Replayed*1.000001 && !strings.HasPrefix(h.Hypothesis, "lower bound") {
				t.Errorf("%s: %s: %g s against the replay's %g s", c.prog, h.Hypothesis, h.Seconds, w.Replayed)
			}
		}
	}
}

// TestTraceErrors: unreadable traces give file:offset errors and status 2.
func TestTraceErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.mkt")
	if err := os.WriteFile(bad, []byte("MKVTRACE1\n\x05{\"P\""), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"trace", "show", bad},
		{"trace", "replay", bad},
		{"whatif", "-trace", bad},
	} {
		_, errs, code := runMkvet(t, args...)
		if code != 2 || !strings.Contains(errs, bad+":10: ") {
			t.Errorf("%v: %d %q, want status 2 and %s:10:", args, code, errs, bad)
		}
	}
	if _, errs, code := runMkvet(t, "trace", "import", dir); code != 2 || !strings.Contains(errs, "no raw event files") {
		t.Errorf("import of a directory without events: %d %q", code, errs)
	}
	if _, errs, code := runMkvet(t, "trace", "frobnicate"); code != 2 || !strings.Contains(errs, "unknown subcommand") {
		t.Errorf("unknown subcommand: %d %q", code, errs)
	}
}

// TestTraceImportE2E is the measured path as a user runs it: instrument
// -events, build with mpif90, run on 2 ranks, trace import into a runs
// database by reference, runs traces (which notices a changed file), and
// whatif -trace on the measured trace.
func TestTraceImportE2E(t *testing.T) {
	e2e.Require(t, "mpif90", "mpirun")
	e2e.SetMPIEnv(t)
	dir := t.TempDir()
	inst := filepath.Join(dir, "inst")
	src := filepath.Join(programsDir, "pipeline.f")
	if code, out, errs := mkvet(t, "instrument", "-events", "-o", inst, src); code != 0 || !strings.Contains(out, "mkvet.<rank>.evt") {
		t.Fatalf("instrument -events: %d\n%s%s", code, out, errs)
	}
	build := exec.Command("mpif90", "-O1", "mkvet_rt.f90", "pipeline.f", "-o", "prog")
	build.Dir = inst
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, b)
	}
	run := exec.Command("mpirun", "--oversubscribe", "--mca", "btl", "self,vader", "--mca", "pml", "ob1", "-np", "2", "./prog")
	run.Dir = inst
	if b, err := run.CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, b)
	}
	db := filepath.Join(dir, "runs.db")
	mkt := filepath.Join(dir, "pipeline.mkt")
	code, out, errs := mkvet(t, "trace", "import", "-o", mkt, "-runs", db, inst)
	if code != 0 || !strings.Contains(out, "2 ranks") || !strings.Contains(out, "recorded as trace 1") {
		t.Fatalf("trace import: %d\n%s%s", code, out, errs)
	}
	if code, out, errs := mkvet(t, "runs", "traces", "-db", db); code != 0 || !strings.Contains(out, "measured") || !strings.Contains(out, " ok ") {
		t.Errorf("runs traces: %d\n%s%s", code, out, errs)
	}
	if code, out, errs := mkvet(t, "whatif", "-trace", mkt, "-domino"); code != 0 || !strings.Contains(out, "domino") {
		t.Errorf("whatif -trace: %d\n%s%s", code, out, errs)
	}
	// On two ranks no rank receives before it sends: by MK's rule the
	// pipeline is a shift there (its depth, 1, fits P - 1 over runs).
	if code, out, errs := mkvet(t, "trace", "cpg", mkt); code != 0 || !strings.Contains(out, "shift at pipeln/L2:") {
		t.Errorf("cpg at P=2: %d\n%s%s", code, out, errs)
	}
	// A truncated raw file is refused with file:offset; the database
	// keeps what it had and no trace file is written.
	bad := filepath.Join(dir, "bad")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{"0", "1"} {
		b, err := os.ReadFile(filepath.Join(inst, "mkvet."+r+".evt"))
		if err != nil {
			t.Fatal(err)
		}
		if r == "1" {
			b = b[:len(b)-20]
		}
		if err := os.WriteFile(filepath.Join(bad, "mkvet."+r+".evt"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, errs = mkvet(t, "trace", "import", "-runs", db, bad)
	if code != 2 || !strings.Contains(errs, filepath.Join(bad, "mkvet.1.evt")+":") {
		t.Errorf("import of a truncated raw file: %d %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(bad, "trace.mkt")); err == nil {
		t.Error("a trace file was written from a truncated raw file")
	}
	if code, out, _ := mkvet(t, "runs", "traces", "-db", db); code != 0 || strings.Count(out, "\n") != 2 {
		t.Errorf("runs traces after a failed import:\n%s", out)
	}
	if err := os.WriteFile(mkt, []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := mkvet(t, "runs", "traces", "-db", db); code != 0 || !strings.Contains(out, " changed ") {
		t.Errorf("runs traces after the file changed:\n%s", out)
	}
}

// TestTraceCPGFit: MK regresses phase attributes over runs; the pipeline
// skeleton's predicted traces at five process counts give a depth fitted
// as a function of P that equals each run's depth (P - 1).
func TestTraceCPGFit(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "programs", "pipeline.f")
	var files []string
	ps := []int{2, 3, 4, 6, 8}
	for _, p := range ps {
		mkt := filepath.Join(dir, fmt.Sprintf("p%d.mkt", p))
		if _, errs, code := runMkvet(t, "trace", "predict", "-P", fmt.Sprint(p), "-o", mkt, src); code != 0 {
			t.Fatalf("predict P=%d: %s", p, errs)
		}
		files = append(files, mkt)
	}
	out, errs, code := runMkvet(t, append([]string{"trace", "cpg", "-json"}, files...)...)
	if code != 0 {
		t.Fatalf("cpg: %d %s", code, errs)
	}
	var doc struct {
		Fits []phaseFitJS `json:"fits"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var depth *phaseFitJS
	for i := range doc.Fits {
		if doc.Fits[i].Attr == "depth" {
			depth = &doc.Fits[i]
		}
	}
	if depth == nil || depth.Runs != len(ps) {
		t.Fatalf("no depth fitted over %d runs: %+v", len(ps), doc.Fits)
	}
	f, err := symbolic.Parse(depth.Form)
	if err != nil {
		t.Fatalf("fitted form %q: %v", depth.Form, err)
	}
	for _, p := range ps {
		v, err := f.Eval(map[string]symbolic.Rat{"P": symbolic.RatInt(int64(p))})
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Float64(); math.Abs(got-float64(p-1)) > 1e-6 {
			t.Errorf("depth fit %s at P=%d: %v, want %d", depth.Form, p, got, p-1)
		}
	}
}
