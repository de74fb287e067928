package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/instrument/calib"
	"github.com/mkvet/mkvet/internal/corpora"
	"github.com/mkvet/mkvet/internal/e2e"
)

// TestCalibrateConfiguredNPBE2E is issue 14's calibrate → predict cycle on
// a real program: NPB LU, its class and process count compiled in by its
// own setparams at every point, calibrated at class S on P = 1, 2, and
// predicted at class W, against W measured (the instrumented program's
// time from MPI_INIT to MPI_FINALIZE on its slowest rank, as calibrated).
// The bound is a factor of two: CI runs this beside other test binaries on
// two cores, and class S runs last 0.2 s, so one slow spell moves the fit
// (+72% at P=1 in the first CI run, 2-7% on a quiet machine); the issue's
// goals are measured on a quiet machine and reported with the error table.
func TestCalibrateConfiguredNPBE2E(t *testing.T) {
	dir := corpora.Dir(t)
	e2e.Require(t, "cc", "sh", "mpif77", "mpirun")
	if os.Geteuid() == 0 {
		t.Setenv("OMPI_ALLOW_RUN_AS_ROOT", "1")
		t.Setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
	}
	tmp := t.TempDir()
	npb, err := corpora.NewNPB(dir, tmp)
	if err != nil {
		t.Fatal(err)
	}
	files, err := corpora.Sources(filepath.Join(npb.Dir, "LU"))
	if err != nil {
		t.Fatal(err)
	}
	configure := "../sys/setparams lu {P} {class}"
	common := []string{"-configure", configure,
		"-build", "mpif77 -O2 -fallow-argument-mismatch {srcs} -o {exe}",
		"-launcher", "mpirun --oversubscribe --mca btl self,vader --mca pml ob1 -np {P} {exe}"}
	calDB, measDB := filepath.Join(tmp, "cal.db"), filepath.Join(tmp, "meas.db")
	args := append(append([]string{"calibrate", "-runs", "class=S P=1,2", "-reps", "2", "-db", calDB, "-work", filepath.Join(tmp, "w1")}, common...), files...)
	code, out, errs := mkvet(t, args...)
	if code != 0 {
		t.Fatalf("calibrate: %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{`class=S, P=1: "../sys/setparams lu 1 S" wrote `, "nnodes_compiled=2",
		"calibrate [####################] 4/4 runs, 2/2 points"} {
		if !strings.Contains(errs, want) {
			t.Errorf("calibrate's progress lacks %q:\n%s", want, errs)
		}
	}
	args = append([]string{"predict", "-configure", configure, "-D", "class=W", "-P", "1,2", "-runs", calDB, "-json"}, files...)
	code, out, errs = mkvet(t, args...)
	if code != 0 {
		t.Fatalf("predict: %d\n%s\n%s", code, out, errs)
	}
	var pred predictJSON
	if err := json.Unmarshal([]byte(out), &pred); err != nil {
		t.Fatalf("predict -json: %v\n%s", err, out)
	}
	args = append(append([]string{"calibrate", "-runs", "class=W P=1,2", "-reps", "1", "-db", measDB, "-work", filepath.Join(tmp, "w2"), "-json"}, common...), files...)
	code, out, errs = mkvet(t, args...)
	if code != 0 {
		t.Fatalf("measuring class W: %d\n%s\n%s", code, out, errs)
	}
	var meas calib.Calibration
	if err := json.Unmarshal([]byte(out), &meas); err != nil {
		t.Fatal(err)
	}
	measured := map[int]float64{}
	pRE := regexp.MustCompile(`P=(\d+)$`)
	for _, c := range meas.Fitted {
		if m := pRE.FindStringSubmatch(c.Point); m != nil {
			p, _ := strconv.Atoi(m[1])
			measured[p] = c.Measured
		}
	}
	if len(pred.Points) != 2 {
		t.Fatalf("predicted %d points", len(pred.Points))
	}
	for _, pp := range pred.Points {
		if pp.Configured["isiz01"] != 33 {
			t.Errorf("P=%d: configured %v, want class W's isiz01=33", pp.P, pp.Configured)
		}
		m := measured[pp.P]
		if m <= 0 {
			t.Errorf("P=%d: class W not measured", pp.P)
			continue
		}
		e := (pp.Seconds - m) / m
		t.Logf("LU class W P=%d: predicted %.3f s, measured %.3f s, error %+.1f%%", pp.P, pp.Seconds, m, 100*e)
		if r := pp.Seconds / m; r > 2 || r < 0.5 {
			t.Errorf("LU class W P=%d: predicted %.3f s, measured %.3f s: off by more than a factor of 2", pp.P, pp.Seconds, m)
		}
	}
}
