package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mkvet/mkvet/instrument/calib"
	"github.com/mkvet/mkvet/internal/corpora"
	"github.com/mkvet/mkvet/internal/e2e"
)

// TestCalibratePredictNPBE2E is issue 14's cycle on a real program, as a
// user runs it: NPB EP calibrated through its own build (setparams per
// point, mpif77 with the flags gfortran 12 needs) from class S at P = 1, 2,
// its time predicted at class W, then class W built and run and the
// prediction compared with the measurement (the oracle: the machine).
//
// EP is the benchmark whose class-W runs fit CI's budget (about 6 s for
// both P) and whose time does not depend on a memory level the class-S
// runs did not reach; the bound is the worst-case goal, 25%, wide
// enough for a shared CI machine and narrow enough to catch a count or a
// configuration that is off by a factor (class W has twice S's pairs).
func TestCalibratePredictNPBE2E(t *testing.T) {
	e2e.Require(t, "cc", "sh", "mpif77", "mpirun")
	e2e.SetMPIEnv(t)
	tmp := t.TempDir()
	npb, err := corpora.OpenNamed(t, "npb33-EP", tmp)
	if err != nil {
		t.Fatal(err)
	}
	bdir := npb.Dir
	files, err := npb.Sources()
	if err != nil {
		t.Fatal(err)
	}
	before := treeState(t, npb.Tree.Root)
	// A second attempt, calibrating and measuring again, when the first
	// misses: a run disturbed by other load on a 2-core machine moves the
	// calibration or the measurement by more than the model's error.
	for attempt := 1; attempt <= 2; attempt++ {
		worst := npbCycle(t, tmp, bdir, files, attempt)
		if worst <= 0.25 {
			break
		}
		if attempt == 2 {
			t.Errorf("class W: error %.1f%% beyond 25%% on both attempts", 100*worst)
		}
	}
	if after := treeState(t, npb.Tree.Root); len(after) != len(before) {
		t.Errorf("the cycle changed the NPB tree: %d files before, %d after", len(before), len(after))
	}
}

// npbCycle calibrates EP at class S, predicts class W, measures it, and
// returns the largest relative error over P = 1, 2.
func npbCycle(t *testing.T, tmp, bdir string, files []string, attempt int) (worst float64) {
	tmp = filepath.Join(tmp, strconv.Itoa(attempt))
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	sweep := []string{
		"-configure", "../sys/setparams ep {P} {class}",
		"-build", "mpif77 -O2 -fallow-argument-mismatch {srcs} -o {exe}",
		"-launcher", "mpirun --oversubscribe --mca btl self,vader --mca pml ob1 -np {P} {exe}",
		"-work", filepath.Join(tmp, "work"), "-I", bdir,
	}
	calDB, measDB := filepath.Join(tmp, "cal.db"), filepath.Join(tmp, "meas.db")
	start := time.Now()
	code, out, errs := mkvet(t, slices.Concat([]string{"calibrate", "-runs", "class=S P=1,2", "-reps", "3", "-memory", machineMemory(t),
		"-db", calDB}, sweep, files)...)
	if code != 0 {
		t.Fatalf("calibrate: exit %d\n%s\n%s", code, out, errs)
	}
	calTime := time.Since(start)
	t.Logf("calibrate (class S, P=1,2, 3 repetitions): %v\n%s", calTime.Round(time.Millisecond), out)

	code, out, errs = mkvet(t, slices.Concat([]string{"predict", "-runs", calDB, "-configure", "../sys/setparams ep {P} {class}",
		"-I", bdir, "-D", "class=W", "-P", "1,2", "-json"}, files)...)
	if code != 0 {
		t.Fatalf("predict: exit %d\n%s\n%s", code, out, errs)
	}
	var pred predictJSON
	if err := json.Unmarshal([]byte(out), &pred); err != nil {
		t.Fatalf("predict -json: %v\n%s", err, out)
	}

	start = time.Now()
	code, out, errs = mkvet(t, slices.Concat([]string{"calibrate", "-runs", "class=W P=1,2", "-reps", "1", "-memory", "off",
		"-db", measDB, "-json"}, sweep, files)...)
	if code != 0 {
		t.Fatalf("measuring class W: exit %d\n%s\n%s", code, out, errs)
	}
	measTime := time.Since(start)
	var meas calib.Calibration
	if err := json.Unmarshal([]byte(out), &meas); err != nil {
		t.Fatalf("calibrate -json: %v", err)
	}
	worst = predictionError(t, pred, meas, attempt)
	if worst < 0 {
		return 0
	}
	t.Logf("machine time: calibration %v, the predicted runs %v", calTime.Round(time.Millisecond), measTime.Round(time.Millisecond))
	return worst
}
