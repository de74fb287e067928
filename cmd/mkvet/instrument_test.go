package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model"
)

func mkvet(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestInstrumentCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "inst")
	code, out, errs := mkvet(t, "instrument", "-o", dir, "-D", "n=64", filepath.Join(programsDir, "trap_mpi.f"))
	if code != 0 {
		t.Fatalf("status %d\n%s", code, errs)
	}
	for _, want := range []string{"mkvet_rt.f90 trap_mpi.f", "probes:", "MPI_Wtime", "size n: a PARAMETER: built in as 64", "mpif90 -O2 mkvet_rt.f90 trap_mpi.f"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "trap_mpi.f"))
	if err != nil || !strings.Contains(string(b), "parameter (n = 64)") || !strings.Contains(string(b), "call mkvet_finish()") {
		t.Errorf("instrumented copy:\n%s", b)
	}
	if code, _, errs := mkvet(t, "instrument", "-f", "-o", dir, "-D", "n=32", filepath.Join(programsDir, "trap_mpi.f")); code != 0 {
		t.Fatalf("-f into the copy: status %d\n%s", code, errs)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "trap_mpi.f")); err != nil || !strings.Contains(string(b), "parameter (n = 32)") {
		t.Errorf("-f: the copy was not replaced:\n%s", b)
	}
	// atm2d.f90's sweep is called from a loop: its nest is timed with
	// -nest-timers only.
	timedLoops := func(args ...string) string {
		d := filepath.Join(t.TempDir(), "nests")
		code, out, errs := mkvet(t, append(append([]string{"instrument", "-o", d}, args...), filepath.Join(programsDir, "atm2d.f90"))...)
		if code != 0 {
			t.Fatalf("status %d\n%s", code, errs)
		}
		return out
	}
	if plain, nests := timedLoops(), timedLoops("-nest-timers"); !strings.Contains(plain, "; 9 timed") || !strings.Contains(nests, "; 10 timed") {
		t.Errorf("timed probes: want 9, and 10 with -nest-timers:\n%s%s", plain, nests)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"instrument", filepath.Join(programsDir, "trap_mpi.f")}, "-o DIR is required"},
		{[]string{"instrument", "-o", dir}, "no source files"},
		{[]string{"instrument", "-o", dir, "-D", "n=1.5", filepath.Join(programsDir, "trap_mpi.f")}, "must be an integer"},
		{[]string{"instrument", "-o", programsDir, filepath.Join(programsDir, "trap_mpi.f")}, "holds the input"},
		// The copy written above is not replaced unasked.
		{[]string{"instrument", "-o", dir, filepath.Join(programsDir, "trap_mpi.f")}, "already holds files (mkvet-probes.json, mkvet_rt.f90, trap_mpi.f): give -f"},
	} {
		code, _, errs := mkvet(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// extrapTrap writes Extra-P JSON Lines timings of trap_mpi.f's nodes: the
// loop takes 2 ns per trapezoid on each rank, the receive 1 µs.
func extrapTrap(t *testing.T) string {
	var b strings.Builder
	for _, n := range []int{100000, 200000, 400000} {
		for _, p := range []int{1, 2, 4} {
			for rep := range 2 {
				noise := 1 + 0.002*float64(rep)
				fmt.Fprintf(&b, `{"params":{"n":%d,"p":%d},"callpath":"trap/L1","metric":"time","value":%g}`+"\n", n, p, 2e-9*float64(n/p-1)*noise)
				fmt.Fprintf(&b, `{"params":{"n":%d,"p":%d},"callpath":"trap/L1","metric":"visits","value":1}`+"\n", n, p)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "trap.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunsAndPredict imports Extra-P timings of trap_mpi.f's loop under the
// program's own version, lists, shows and exports them, and predicts from
// them (the fit runs from the stored runs: nothing was calibrated).
func TestRunsAndPredict(t *testing.T) {
	db := filepath.Join(t.TempDir(), "runs.db")
	src := filepath.Join(programsDir, "trap_mpi.f")
	code, out, errs := mkvet(t, "runs", "import", "-db", db, "-label", "trap", "-source", src, extrapTrap(t))
	if code != 0 || !strings.Contains(out, "imported 18 runs into program trap") {
		t.Fatalf("import: %d\n%s%s", code, out, errs)
	}
	if code, out, _ := mkvet(t, "runs", "programs", "-db", db); code != 0 || !strings.Contains(out, "trap") {
		t.Errorf("programs: %d\n%s", code, out)
	}
	if code, out, _ := mkvet(t, "runs", "list", "-db", db, "-program", "trap"); code != 0 || strings.Count(out, "extrap") != 18 {
		t.Errorf("list: %d\n%s", code, out)
	}
	if code, out, _ := mkvet(t, "runs", "show", "-db", db, "3"); code != 0 || !strings.Contains(out, "trap/L1") {
		t.Errorf("show: %d\n%s", code, out)
	}
	for _, f := range []string{"jsonl", "extrap-jsonl", "extrap-text"} {
		code, out, errs := mkvet(t, "runs", "export", "-db", db, "-format", f)
		if code != 0 || !strings.Contains(out, "trap/L1") {
			t.Errorf("export %s: %d\n%s%s", f, code, out, errs)
		}
	}
	code, out, errs = mkvet(t, "predict", "-runs", db, "-D", "n=3200000", "-P", "2,4", src)
	if code != 0 {
		t.Fatalf("predict: %d\n%s", code, errs)
	}
	// 3.2e6/2 - 1 trapezoids at 2 ns on the slowest rank: 3.2 ms.
	var p2, p4 float64
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "total") {
			fmt.Sscanf(strings.Fields(l)[1], "%gms", &p2)
			fmt.Sscanf(strings.Fields(l)[2], "%gms", &p4)
		}
	}
	if math.Abs(p2-3.2) > 0.05 || math.Abs(p4-1.6) > 0.03 {
		t.Errorf("predicted %g ms and %g ms, want 3.2 and 1.6:\n%s", p2, p4, out)
	}
	// whatif -runs sweeps P with the same calibration: the timings were made
	// as 2 ns per trapezoid, (n/P - 1) of them on each rank.
	code, out, errs = mkvet(t, "whatif", "-runs", db, "-D", "n=3200000", "-P", "1..4", "-format", "json", src)
	if code != 0 {
		t.Fatalf("whatif -runs: %d\n%s", code, errs)
	}
	var wo whatifOutput
	if err := json.Unmarshal([]byte(out), &wo); err != nil || len(wo.Tables) != 1 || len(wo.Tables[0].Rows) != 3 {
		t.Fatalf("whatif -runs json: %v\n%s", err, out)
	}
	for _, r := range wo.Tables[0].Rows {
		want := 2e-9 * (3200000/float64(r.P) - 1)
		if math.Abs(r.Time-want) > 0.01*want || math.Abs(r.Speedup-float64(r.P)) > 0.02*float64(r.P) || r.Dominant != "trap/L1" {
			t.Errorf("whatif -runs at P=%d: %+v, want time %g and speedup %d", r.P, r, want, r.P)
		}
	}
	// Beyond the process counts calibrated the output says so, and with
	// -machine it names the network that models the messages.
	for _, machine := range []string{"", "cluster"} {
		args := []string{"whatif", "-runs", db, "-D", "n=3200000", "-P", "1..64", "-format", "json", src}
		if machine != "" {
			args = append(args[:3:3], append([]string{"-machine", machine}, args[3:]...)...)
		}
		code, out, errs = mkvet(t, args...)
		if code != 0 {
			t.Fatalf("whatif -runs -machine %q: %d\n%s", machine, code, errs)
		}
		wo = whatifOutput{}
		if err := json.Unmarshal([]byte(out), &wo); err != nil {
			t.Fatal(err)
		}
		notes := strings.Join(wo.Notes, "\n")
		want := []string{"P=8..64: beyond the process counts calibrated (1,2,4)", "measured: every node",
			"P > 4: the MPI times were fitted to runs on one machine"}
		network := "measured"
		if machine != "" {
			want = []string{"P=8..64: beyond the process counts calibrated (1,2,4)", "modelled: the messages of point-to-point calls",
				"no MPI call with messages has a calibrated model here"}
			network = "messages modelled: cluster's LogGP"
		}
		if wo.Network != network {
			t.Errorf("-machine %q: network %q, want %q", machine, wo.Network, network)
		}
		for _, w := range want {
			if !strings.Contains(notes, w) {
				t.Errorf("-machine %q: notes lack %q:\n%s", machine, w, notes)
			}
		}
	}
	// annotate -runs puts the calibrated seconds on the loop's line.
	code, out, errs = mkvet(t, "annotate", "-runs", db, "-D", "n=3200000,P=2", src)
	if code != 0 {
		t.Fatalf("annotate -runs: %d\n%s", code, errs)
	}
	lines := strings.Split(out, "\n")
	found := false
	for i, l := range lines {
		if strings.Contains(l, "calibrated 3.2") && i+1 < len(lines) && strings.Contains(strings.ToLower(lines[i+1]), "do 20 i = 1, local_n-1") {
			found = true
		}
	}
	if !found {
		t.Errorf("annotate -runs: no calibrated note above the loop:\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"runs", "list", "-db", filepath.Join(t.TempDir(), "none.db")}, "no runs database"},
		{[]string{"runs", "frob", "-db", db}, "unknown verb"},
		{[]string{"runs", "import", "-db", db, extrapTrap(t)}, "needs -label"},
		{[]string{"predict", "-runs", db, "-P", "2", src}, "give the size n"},
		{[]string{"predict", "-runs", db, "-D", "n=8", "-P", "x", src}, "not a process count"},
		{[]string{"whatif", "-runs", db, "-grain", "n=1..8", "-D", "n=8", src}, "-grain does not apply with -runs"},
		{[]string{"whatif", "-runs", db, "-machine", "nosuch", "-D", "n=8", src}, "no machine profile \"nosuch\""},
		{[]string{"whatif", "-runs", db, src}, "give the size n"},
		{[]string{"annotate", "-runs", db, src}, "-runs needs every value"},
	} {
		code, _, errs := mkvet(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestCalibrateCommandE2E runs mkvet calibrate on trap_mpi.f through
// mpirun (six small runs), then predicts from the stored models.
func TestCalibrateCommandE2E(t *testing.T) {
	e2e.Require(t, "gfortran", "mpif90", "mpirun")
	e2e.SetMPIEnv(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	src := filepath.Join(programsDir, "trap_mpi.f")
	code, out, errs := mkvet(t, "calibrate", "-runs", "n=400000,800000,1200000 P=1,2", "-reps", "1", "-db", db,
		"-memory", "levels", "-work", filepath.Join(dir, "work"), "-label", "trap", "-launcher",
		"mpirun --oversubscribe --mca btl self,vader --mca pml ob1 -np {P} {exe}", src)
	if code != 0 {
		t.Fatalf("calibrate: %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"calibration of", "trap/L1", "program time on the slowest rank", "probe overhead", "memory levels: "} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "calibrate [####################] 6/6 runs, 6/6 points") {
		t.Errorf("no progress bar:\n%s", errs)
	}
	code, out, errs = mkvet(t, "predict", "-runs", db, "-label", "trap", "-D", "n=4800000", "-P", "2", src)
	if code != 0 || !strings.Contains(out, "trap/L1") || !strings.Contains(out, "total") {
		t.Errorf("predict: %d\n%s%s", code, out, errs)
	}
	// A calibration an mkvet with other features fitted is refused, and
	// -refit fits the stored runs again without running anything.
	staleCalibration(t, db, "trap", src)
	if code, _, errs := mkvet(t, "predict", "-runs", db, "-label", "trap", "-D", "n=4800000", "-P", "2", src); code == 0 ||
		!strings.Contains(errs, "fitted by an mkvet whose counts differ (features version 1") || !strings.Contains(errs, "-refit") {
		t.Errorf("a stale calibration was used: %d\n%s", code, errs)
	}
	code, _, errs = mkvet(t, "calibrate", "-runs", "n=400000,800000,1200000 P=1,2", "-refit", "-db", db, "-memory", "levels",
		"-work", filepath.Join(dir, "work"), "-label", "trap", "-launcher", "false {exe}", src)
	if code != 0 || strings.Contains(errs, "runs in") {
		t.Errorf("calibrate -refit: %d\n%s", code, errs)
	}
	if code, again, errs := mkvet(t, "predict", "-runs", db, "-label", "trap", "-D", "n=4800000", "-P", "2", src); code != 0 || again != out {
		t.Errorf("predict after -refit: %d\n%s%s\nbefore:\n%s", code, again, errs, out)
	}
	// A failing launcher is reported and skipped; the earlier runs stay.
	code, out, errs = mkvet(t, "calibrate", "-runs", "n=400000 P=1", "-reps", "1", "-db", db, "-memory", "off",
		"-work", filepath.Join(dir, "work"), "-launcher", "false {exe}", src)
	if !strings.Contains(errs, "failed") {
		t.Errorf("failed run not reported: %d\n%s%s", code, out, errs)
	}
	if code, out, _ := mkvet(t, "runs", "list", "-db", db); code != 0 || !strings.Contains(out, "failed:") || strings.Count(out, "  ok") != 6 {
		t.Errorf("runs after a failure:\n%s", out)
	}
}

// TestCalibrateInputFileTemplate: a mistake in an input-file template is
// reported with its position and the point, before anything is built or
// run (no compiler is needed to see it), and a file outside the run's
// directory is refused.
func TestCalibrateInputFileTemplate(t *testing.T) {
	dir := t.TempDir()
	tmpl := filepath.Join(dir, "deck.tmpl")
	if err := os.WriteFile(tmpl, []byte("*deck\n n={n}\n m={m}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(programsDir, "trap_mpi.f")
	work := filepath.Join(dir, "work")
	code, _, errs := mkvet(t, "calibrate", "-runs", "n=400000 P=1", "-reps", "1", "-db", filepath.Join(dir, "runs.db"),
		"-work", work, "-file", "deck.in="+tmpl, src)
	want := "-file deck.in at n=400000 P=1: " + tmpl + ":3:4: unknown placeholder {m}"
	if code != 2 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, want 2 and %q:\n%s", code, want, errs)
	}
	if strings.Contains(errs, "building") {
		t.Errorf("built before the template was checked:\n%s", errs)
	}
	code, _, errs = mkvet(t, "calibrate", "-runs", "n=400000 P=1", "-db", filepath.Join(dir, "runs.db"),
		"-work", work, "-file", "../deck.in="+tmpl, src)
	if code != 2 || !strings.Contains(errs, "must be a path inside its directory") {
		t.Errorf("exit %d:\n%s", code, errs)
	}
}

// TestMembenchE2E builds and runs the memory benchmark on this machine:
// the kernel's cache levels, and main memory slower per byte than the
// first level (the hardware is the oracle). One trial a size is quick and
// at the mercy of whatever else runs (go test runs packages side by side):
// each level's better of its one- and all-processor rates is compared, and
// a reversal is measured again, twice at most; a hierarchy measured
// backwards three times is not noise.
func TestMembenchE2E(t *testing.T) {
	e2e.Require(t, "cc")
	if _, err := os.Stat(cpuTree + "/cpu0/cache"); err != nil {
		t.Skipf("no cache description on this machine (%v)", err)
	}
	var levels []model.MemLevel
	for range 3 {
		code, out, errs := mkvet(t, "membench", "-trials", "1", "-json")
		if code != 0 {
			t.Fatalf("membench: %d\n%s%s", code, out, errs)
		}
		m, err := model.ReadMemoryJSON("membench -json", []byte(out))
		if err != nil {
			t.Fatal(err)
		}
		if !m.Measured() || len(m.Levels) < 2 {
			t.Fatalf("not measured: %+v", m)
		}
		l1, mem := m.Levels[0], m.Levels[len(m.Levels)-1]
		if l1.Name != "L1" || mem.Name != "memory" {
			t.Fatalf("levels %+v: want L1 first and memory last", m.Levels)
		}
		if min(mem.One, mem.All) > min(l1.One, l1.All) {
			return
		}
		levels = m.Levels
	}
	t.Errorf("levels %+v: main memory should stream slower than L1", levels)
}

// staleCalibration marks the stored calibration of label as fitted by an
// mkvet of features version 1.
func staleCalibration(t *testing.T, db, label, src string) {
	t.Helper()
	store, prog, err := openProgram(db, label, []string{src})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ms, err := store.Models(prog.ID)
	if err != nil {
		t.Fatal(err)
	}
	var head map[string]any
	if err := json.Unmarshal(ms[calibrationKey], &head); err != nil {
		t.Fatal(err)
	}
	head["features"] = 1
	if ms[calibrationKey], err = json.Marshal(head); err != nil {
		t.Fatal(err)
	}
	if err := store.SaveModels(prog.ID, ms); err != nil {
		t.Fatal(err)
	}
}
