package roofline_test

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/model/membench"
	"github.com/mkvet/mkvet/model/roofline"
)

// kernelCase is one configuration of testdata/memory/kernels.f90: a
// kernel, the routine holding its loop nest, and its size.
type kernelCase struct {
	kernel  string
	n       int64
	inCache bool
}

// odd is x rounded down to an odd whole number: the kernels' sizes and
// strides keep away from powers of two, whose conflicts in the caches'
// sets the model prices only roughly (model.Memory.Conflict).
func odd(x float64) int64 {
	return int64(x) | 1
}

// iterations is how many innermost iterations one repetition runs.
func (c kernelCase) iterations() float64 {
	if c.kernel == "plane" {
		return 16 * float64(c.n) * float64(c.n)
	}
	return float64(c.n)
}

func (c kernelCase) String() string {
	where := "out of cache"
	if c.inCache {
		where = "in cache"
	}
	return fmt.Sprintf("%s n=%d (%s)", c.kernel, c.n, where)
}

// TestMemoryTermAgainstKernelsE2E checks the memory term against measured
// times (issue 47): testdata/memory/kernels.f90 walks memory contiguously
// (copy), across the planes of a 3-D array (plane, a plane a page or
// more) and through a random index (gather), each at a working set inside
// the second cache level and one four times the last (odd sizes), built
// with gfortran -O2 and timed by itself.
// mkvet predicts each configuration's time per iteration from the source
// alone on this machine's measured hierarchy and work unit (membench).
// Where the prediction says a configuration is memory-bound (its data
// moves for longer than it computes), its time is the memory term's; the
// predicted ratio between every two such configurations out of cache must
// be within 30% of the measured one (measured again with the machine, up
// to twice, each configuration keeping its least time, when one is not). The others are
// logged with their ratios (asserted, below, says why).
func TestMemoryTermAgainstKernelsE2E(t *testing.T) {
	e2e.Require(t, "gfortran")
	prof := e2e.Machine(t)
	m, ok := roofline.For(prof)
	if !ok {
		t.Fatal("the measured profile has no memory term")
	}
	src := filepath.Join("..", "..", "testdata", "memory", "kernels.f90")
	exe := filepath.Join(t.TempDir(), "kernels")
	if out, err := exec.Command("gfortran", "-O2", "-o", exe, src).CombinedOutput(); err != nil {
		t.Fatalf("gfortran: %v\n%s", err, out)
	}
	prog, diags := fortran.ParseFiles([]string{src}, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %v", d)
		}
	}
	// The working sets per process: a quarter of L2, and four times the
	// last cache.
	levels := m.Mem.Levels
	if len(levels) < 3 {
		t.Fatalf("need two cache levels, have %v", levels)
	}
	in, out := float64(levels[1].Size)/5, 4*float64(levels[len(levels)-2].Size)
	var cases []kernelCase
	for _, ws := range []struct {
		bytes float64
		in    bool
	}{{in, true}, {out, false}} {
		cases = append(cases,
			kernelCase{"copy", odd(ws.bytes / 16), ws.in},
			kernelCase{"plane", max(33, odd(math.Sqrt(ws.bytes/128))), ws.in},
			kernelCase{"gather", odd(ws.bytes / 20), ws.in})
	}
	type result struct {
		c                   kernelCase
		measured, predicted float64 // seconds per iteration
		bound               bool
		level               string
	}
	var rs []result
	for _, c := range cases {
		r := result{c: c, measured: math.Inf(1)}
		r.predicted, r.bound, r.level = predictKernel(t, prog, m, c, kernelReps(c))
		rs = append(rs, r)
	}
	// measure lowers each configuration's time to the least of three
	// processes of this round, if less: a strided walk's conflicts in a
	// physically indexed cache change with where the pages land, which
	// each process draws anew, and a spell off the processor only
	// lengthens a time.
	measure := func() {
		for i := range rs {
			c := rs[i].c
			for range 3 {
				outb, err := exec.Command(exe, c.kernel, strconv.FormatInt(c.n, 10), strconv.Itoa(kernelReps(c))).Output()
				if err != nil {
					t.Fatalf("%v: %v", c, err)
				}
				f := strings.Fields(string(outb))
				if len(f) < 2 || f[0] != c.kernel {
					t.Fatalf("%v: output %q", c, outb)
				}
				s, err := strconv.ParseFloat(f[1], 64)
				if err != nil {
					t.Fatalf("%v: %v", c, err)
				}
				rs[i].measured = min(rs[i].measured, s/c.iterations())
			}
		}
	}
	// asserted says whether a pair's ratio is required within 30%: both
	// memory-bound and out of cache, where the memory term is the time.
	// Within the caches a contiguous copy and a gather run at the
	// processor's pace (vectorised, which the work unit does not model),
	// and the walk across planes from L2 takes 0.28 ns an access where
	// membench's walk takes 0.48 on this machine (the first level keeps
	// part of a working set twice its size, which the model, a level
	// holding all or nothing, does not follow): logged.
	asserted := func(a, b result) bool { return a.bound && b.bound && !a.c.inCache && !b.c.inCache }
	check := func() int {
		bad := 0
		for i, a := range rs {
			for _, b := range rs[i+1:] {
				if miss := (a.predicted/b.predicted)/(a.measured/b.measured) - 1; asserted(a, b) && math.Abs(miss) > 0.30 {
					bad++
				}
			}
		}
		return bad
	}
	measure()
	bad := check()
	for round := 1; bad > 0 && round < 3; round++ {
		// Again, the machine too: membench's times out of cache move by
		// some 15% from one process to the next (where its pages land,
		// how many the kernel backs with huge pages), as the kernels' do.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		node, err := membench.Measure(ctx, membench.Options{Compiler: []string{"cc"}})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if m, ok = roofline.For(node.Profile(model.Default())); !ok {
			t.Fatal("the measured profile has no memory term")
		}
		for i := range rs {
			rs[i].predicted, rs[i].bound, rs[i].level = predictKernel(t, prog, m, rs[i].c, kernelReps(rs[i].c))
		}
		measure()
		bad = check()
	}
	var table strings.Builder
	fmt.Fprintf(&table, "kernels on %s (%s): seconds per iteration\n", runtime.GOARCH, prof.Memory.Source)
	fmt.Fprintf(&table, "    %-34s %11s %11s  %s\n", "kernel", "measured", "predicted", "prediction")
	for _, r := range rs {
		how := "compute-bound"
		if r.bound {
			how = "memory-bound from " + r.level
		}
		fmt.Fprintf(&table, "    %-34s %9.3gns %9.3gns  %s\n", r.c, 1e9*r.measured, 1e9*r.predicted, how)
	}
	t.Log(strings.TrimSuffix(table.String(), "\n"))
	for i, a := range rs {
		for _, b := range rs[i+1:] {
			pr, mr := a.predicted/b.predicted, a.measured/b.measured
			miss := pr/mr - 1
			mark := "  (logged)"
			if asserted(a, b) {
				mark = ""
				if math.Abs(miss) > 0.30 {
					mark = "  <- more than 30% off"
				}
			}
			t.Logf("%v / %v: predicted %.3g, measured %.3g (%+.0f%%)%s", a.c, b.c, pr, mr, 100*miss, mark)
		}
	}
	if bad > 0 {
		t.Errorf("%d ratios between memory-bound kernels out of cache are more than 30%% off the measured ones", bad)
	}
}

// kernelReps is how many repetitions a configuration times: enough for
// some 0.2 GB of data, 5 at least.
func kernelReps(c kernelCase) int { return max(5, int(2e8/(c.iterations()*8))) }

// predictKernel analyses kernels.f90 at the case's size and returns the
// predicted seconds per iteration of its kernel's innermost loop, whether
// the memory term bounds it, and the level most of its data comes from.
func predictKernel(t *testing.T, prog *apt.Program, m roofline.Machine, c kernelCase, reps int) (float64, bool, string) {
	t.Helper()
	point := map[string]int64{"n": c.n, "reps": int64(reps)}
	rep, err := cost.AnalyzeAt(prog, cost.Options{}, point)
	if err != nil {
		t.Fatalf("%v: %v", c, err)
	}
	pt, err := rep.At(point)
	if err != nil {
		t.Fatalf("%v: %v", c, err)
	}
	res := m.At(rep, pt)
	for n, lp := range res.Loops {
		if n.Routine.Name != c.kernel {
			continue
		}
		iters := pt.Nodes[n].Iterations.Total
		if iters <= 0 {
			t.Fatalf("%v: the kernel's loop runs no iteration", c)
		}
		return math.Max(lp.Core, lp.Data) / iters, lp.MemoryBound(), lp.Level
	}
	t.Fatalf("%v: no innermost loop with streams in routine %s", c, c.kernel)
	return 0, false, ""
}
