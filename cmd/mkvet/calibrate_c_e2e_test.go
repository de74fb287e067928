package main

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/instrument/calib"
	"github.com/mkvet/mkvet/instrument/runs"
	"github.com/mkvet/mkvet/internal/e2e"
)

// TestCalibratePredictCE2E is the calibration cycle on a C program, as a
// user runs it: testdata/programs/ring.c instrumented in its IR
// (instrument/cinst), built by the default clang-14 command with the MPI
// wrapper's flags, calibrated at n = 2000, 4000, 8000 with 500 steps on
// P = 1, 2 (its sizes come from its command line), its time predicted at
// n = 16000 and at n = 8000, and both measured in one run (the oracle: the
// machine). n = 16000 is twice the largest calibrated size: as far as
// predict vouches for its messages (beyond, it warns that a protocol change
// may go unseen; this test checks it does at n = 24000), and a receiver's
// two blocks with the sender's block read through its cache (3 x 128 KB)
// still fit a 512 KB L2. Checked is what the model extrapolates, the
// growth of the time from n = 8000 to n = 16000: the predicted ratio
// within 25% (issue 14's worst case) of the ratio measured in one run. Not
// seconds: this virtual machine runs a two-process program in one of two
// speeds, switching between runs seconds or minutes apart (n = 16000 at
// P = 2: 22 ms or 32 ms, n = 8000 by the same factor), so a calibration and
// a measurement taken apart can differ by half whatever the model; the
// absolute errors are logged. Another attempt (three in all) calibrates and
// measures again when a disturbed run moves the ratio beyond the bound: the
// points are measured one after the other, so a switch of speed between
// n = 8000 and n = 16000 moves their ratio whatever the model.
func TestCalibratePredictCE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc", "mpirun")
	e2e.SetMPIEnv(t)
	src := filepath.Join(programsDir, "ring.c")
	launcher := e2e.MPILauncher + " {n} {steps}"
	const attempts = 3
	for attempt := 1; attempt <= attempts; attempt++ {
		tmp := filepath.Join(t.TempDir(), strconv.Itoa(attempt))
		calDB, measDB := filepath.Join(tmp, "cal.db"), filepath.Join(tmp, "meas.db")
		common := []string{"-launcher", launcher, "-work", filepath.Join(tmp, "work")}
		code, out, errs := mkvet(t, slices.Concat([]string{"calibrate", "-runs", "n=2000,4000,8000 steps=500 P=1,2", "-reps", "3",
			"-memory", machineMemory(t), "-db", calDB}, common, []string{src})...)
		if code != 0 {
			t.Fatalf("calibrate: exit %d\n%s\n%s", code, out, errs)
		}
		t.Logf("calibrate:\n%s", out)
		if strings.Contains(out, "left out of the fit") {
			// A point whose every repetition met a slow spell of the
			// machine is left out, and the calibrated sizes with it:
			// the points this test vouches for are no longer inside
			// them. The machine's doing, not the model's: again.
			if attempt < attempts {
				t.Logf("attempt %d: calibration points left out for slow spells of the machine; calibrating again", attempt)
				continue
			}
			t.Skipf("every attempt's calibration left points out for slow spells of the machine (see the notes above): the host is too disturbed to check the prediction")
		}
		pred := predictRing(t, calDB, src, 16000)
		for _, pt := range pred.Points {
			if len(pt.Warnings) > 0 {
				t.Errorf("n=16000 P=%d: predict warns %q: the test means a point it vouches for", pt.P, pt.Warnings)
			}
		}
		base := predictRing(t, calDB, src, 8000)
		if attempt == 1 {
			far := predictRing(t, calDB, src, 24000)
			if pt := far.Points[len(far.Points)-1]; !slices.ContainsFunc(pt.Warnings, func(w string) bool {
				return strings.Contains(w, "calibrated up to 64000 bytes")
			}) {
				t.Errorf("n=24000 P=%d: messages of 192000 bytes, 3x the calibrated 64000, and no warning: %q", pt.P, pt.Warnings)
			}
		}
		// The measurement: five repetitions of each point, the least of
		// each point's times taken from the runs store (a slow spell of
		// the machine only lengthens a time). Not calibrate's fit, which
		// leaves out a point whose every repetition met a slow spell.
		code, out, errs = mkvet(t, slices.Concat([]string{"calibrate", "-runs", "n=8000,16000 steps=500 P=1,2", "-reps", "5",
			"-memory", "off", "-db", measDB}, common, []string{src})...)
		if code != 0 {
			t.Fatalf("measuring n=8000,16000: exit %d\n%s\n%s", code, out, errs)
		}
		worst := growthError(t, base, pred, leastTimes(t, measDB), attempt)
		if worst >= 0 && worst <= 0.25 {
			return
		}
		if attempt == attempts && worst >= 0 {
			t.Errorf("n=8000 to 16000: growth error %.1f%% beyond 25%% on all %d attempts", 100*worst, attempts)
		}
	}
}

// predictRing runs predict -json for ring.c at n with 500 steps on P = 1, 2.
func predictRing(t *testing.T, calDB, src string, n int) predictJSON {
	t.Helper()
	code, out, errs := mkvet(t, "predict", "-runs", calDB, "-D", fmt.Sprintf("n=%d,steps=500", n), "-P", "1,2", "-json", src)
	if code != 0 {
		t.Fatalf("predict at n=%d: exit %d\n%s\n%s", n, code, out, errs)
	}
	var pred predictJSON
	if err := json.Unmarshal([]byte(out), &pred); err != nil {
		t.Fatalf("predict -json: %v\n%s", err, out)
	}
	return pred
}

// leastTimes returns the least program time of the successful runs in the
// runs store at db, by point ("n=8000 steps=500 P=2").
func leastTimes(t *testing.T, db string) map[string]float64 {
	t.Helper()
	st, err := runs.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rs, err := st.Runs(0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, r := range rs {
		if r.Status != runs.StatusOK || !(r.Seconds > 0) {
			continue
		}
		k := fmt.Sprintf("n=%g steps=%g P=%d", r.Params["n"], r.Params["steps"], r.P)
		if old, ok := out[k]; !ok || r.Seconds < old {
			out[k] = r.Seconds
		}
	}
	return out
}

// growthError compares the predicted growth of the program time from base
// (n = 8000) to pred (n = 16000) at P = 1, 2 with the growth measured in
// one run (measured: the least time of each point), logs the absolute
// errors too, and returns the largest relative error of the ratio
// (negative when a measurement is missing, after reporting it).
func growthError(t *testing.T, base, pred predictJSON, measured map[string]float64, attempt int) (worst float64) {
	t.Helper()
	if len(pred.Points) != 2 || len(base.Points) != 2 {
		t.Fatalf("predict gave %d and %d points, want 2", len(base.Points), len(pred.Points))
	}
	for i, pt := range pred.Points {
		m8, ok8 := measured["n=8000 steps=500 P="+strconv.Itoa(pt.P)]
		m16, ok16 := measured["n=16000 steps=500 P="+strconv.Itoa(pt.P)]
		if !ok8 || !ok16 || m8 <= 0 || m16 <= 0 {
			// A run that gave no time (the calibration leaves out a point
			// whose runs failed): the attempt says nothing; the next one
			// measures again, and the last one's missing time fails.
			t.Logf("attempt %d: P=%d: no measured time (runs: %v)", attempt, pt.P, measured)
			if attempt == 2 {
				t.Errorf("P=%d: no measured time on either attempt", pt.P)
			}
			return -1
		}
		p8 := base.Points[i].Seconds
		e := (pt.Seconds/p8)/(m16/m8) - 1
		t.Logf("attempt %d: P=%d: n=8000 predicted %.4fs measured %.4fs (%+.1f%%); n=16000 predicted %.4fs measured %.4fs (%+.1f%%); growth predicted %.3f measured %.3f: error %+.1f%%",
			attempt, pt.P, p8, m8, 100*(p8-m8)/m8, pt.Seconds, m16, 100*(pt.Seconds-m16)/m16, pt.Seconds/p8, m16/m8, 100*e)
		worst = math.Max(worst, math.Abs(e))
	}
	return worst
}

// predictionError compares a prediction at P = 1, 2 with the program time
// measured there and returns the largest relative error (negative when a
// measurement is missing, after reporting it).
func predictionError(t *testing.T, pred predictJSON, meas calib.Calibration, attempt int) (worst float64) {
	t.Helper()
	measured := map[int]float64{}
	pOf := regexp.MustCompile(`P=(\d+)$`)
	for _, f := range meas.Fitted {
		if m := pOf.FindStringSubmatch(f.Point); m != nil {
			p, _ := strconv.Atoi(m[1])
			measured[p] = f.Measured
		}
	}
	if len(pred.Points) != 2 {
		t.Fatalf("predict gave %d points, want 2", len(pred.Points))
	}
	for _, pt := range pred.Points {
		m, ok := measured[pt.P]
		if !ok || m <= 0 {
			t.Errorf("P=%d: no measured time (%v)", pt.P, meas.Fitted)
			return -1
		}
		e := (pt.Seconds - m) / m
		t.Logf("attempt %d: P=%d: predicted %.4fs [%.4f, %.4f], measured %.4fs: error %+.1f%%", attempt, pt.P, pt.Seconds, pt.Lo, pt.Hi, m, 100*e)
		worst = math.Max(worst, math.Abs(e))
	}
	return worst
}
