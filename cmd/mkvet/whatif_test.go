package main

import (
	"encoding/json"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/seeds"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/whatif"
	"github.com/mkvet/mkvet/symbolic"
)

const testPrograms = "../../testdata/programs"

// TestWhatifPacheco is the acceptance test of issue 6: from the MPI
// trapezoidal rule with a tree reduce (trap_reduce.f90) and a profile with
// Pacheco's constants, whatif reproduces every printed digit of his
// predicted speedups (seed 004, Table 11.2). The work unit is his: one
// iteration of the trapezoid loop takes 22.3 µs (-unit); -leading drops
// the constant work as he drops k3; -omit io leaves out the broadcast of
// the input n, which he omits with the I/O.
func TestWhatifPacheco(t *testing.T) {
	want := seeds.PachecoPred(t)
	for j, n := range seeds.PachecoN {
		out, errs, code := runMkvet(t, "whatif", filepath.Join(testPrograms, "trap_reduce.f90"),
			"-machine", "../../testdata/profiles/pacheco-trap.json", "-unit", "trap_mod/trap/L1=22.3us",
			"-leading", "-omit", "io", "-D", "nargs=0,n="+strconv.FormatInt(n, 10), "-P", "1..32", "-format", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var res whatifOutput
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Terms) != 2 || res.Terms[0].Name != "compute" || res.Terms[1].Name != "reduce" {
			t.Fatalf("terms %+v", res.Terms)
		}
		for _, r := range res.Tables[0].Rows {
			w, ok := want[r.P]
			if !ok {
				continue
			}
			if !r.Exact {
				t.Errorf("n=%d p=%d: not exact", n, r.P)
			}
			if got := strconv.FormatFloat(r.Speedup, 'f', 1, 64); got != w[j] {
				t.Errorf("n=%d p=%d: speedup %s (%.4f), Pacheco's Table 11.2 says %s", n, r.P, got, r.Speedup, w[j])
			}
		}
	}
}

func TestWhatifTable(t *testing.T) {
	out, errs, code := runMkvet(t, "whatif", filepath.Join(testPrograms, "pge2.f"), "-P", "1..16", "-phases")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"on cluster (LogGP): n=840, nrhs=8",
		"T = compute + pipeline L65 | pipeline L86 + pipeline L65 | pipeline L86 work",
		"exchange L100 | exchange L112",
		"reduce [comm]",
		"binomial tree",
		"pipeline L65 then pipeline L86: overlap",
		"exchange L100 then exchange L112: overlap (independent from P = 4 on",
		"depth: D = floor(P/2) ranks",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// One row per P, with speedup and efficiency.
	for _, p := range []string{"1", "2", "4", "8", "16"} {
		found := false
		for _, l := range strings.Split(out, "\n") {
			f := strings.Fields(l)
			if len(f) > 4 && f[0] == p && strings.HasSuffix(f[1], "s") {
				found = true
			}
		}
		if !found {
			t.Errorf("no row for P=%s:\n%s", p, out)
		}
	}
}

func TestWhatifCSVAndJSON(t *testing.T) {
	out, errs, code := runMkvet(t, "whatif", filepath.Join(testPrograms, "trap_mpi.f"), "-P", "1..8", "-format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "series,P,time,speedup,efficiency,comm_share,dominant,psi,compute,fan-in L36") {
		t.Errorf("csv:\n%s", out)
	}
	out, errs, code = runMkvet(t, "whatif", filepath.Join(testPrograms, "trap_mpi.f"), "-P", "1..8", "-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res whatifOutput
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Tables[0].Rows) != 4 || res.Machine != model.DefaultName {
		t.Errorf("json: %+v", res)
	}
	fanIn := false
	for _, n := range res.Notes {
		fanIn = fanIn || strings.Contains(n, "fan-in") && strings.Contains(n, "optimistic")
	}
	if !fanIn {
		t.Errorf("no fan-in note: %v", res.Notes)
	}
}

// TestWhatifGrain checks -grain against a brute sweep of the same
// (relaxed) model over every K, at each P.
func TestWhatifGrain(t *testing.T) {
	out, errs, code := runMkvet(t, "whatif", filepath.Join(testPrograms, "pipe_block.f"), "-P", "2..64", "-grain", "k=1..256", "-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res whatifOutput
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	wf := &whatifFlags{progFlags: progFlags{form: "auto"}, procs: "2..64", format: "json"}
	run, err := wf.build([]string{filepath.Join(testPrograms, "pipe_block.f")}, model.Default(), nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	g := GrainModel(run.model, "k")
	if len(res.Grain) != 6 {
		t.Fatalf("grain rows %+v", res.Grain)
	}
	for _, row := range res.Grain {
		env := map[string]float64{"P": float64(row.P), "n": 4096}
		k, tm, err := whatif.GrainSweep(g, "k", 1, 256, env)
		if err != nil {
			t.Fatal(err)
		}
		if k != row.K || tm != row.Time {
			t.Errorf("P=%d: -grain K=%d (%g s), sweep K=%d (%g s)", row.P, row.K, row.Time, k, tm)
		}
		if k <= 1 || k >= 256 {
			t.Errorf("P=%d: K=%d at the edge", row.P, k)
		}
	}
	if !strings.Contains(res.GrainDer, "k^2") {
		t.Errorf("dT/dK = %s", res.GrainDer)
	}
}

func TestWhatifCompareAndConstantTime(t *testing.T) {
	out, errs, code := runMkvet(t, "whatif", filepath.Join(testPrograms, "trap_mpi.f"), "-compare", filepath.Join(testPrograms, "trap_reduce.f90"),
		"-D", "nargs=0", "-P", "1..4096", "-constant-time", "50ms", "-machine", "ncube2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"compared with", "crossing: trap_mpi.f is faster up to P = 6, trap_reduce.f90 from P = 7", "constant-time curve"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestWhatifBalanceAndSet(t *testing.T) {
	base, _, code := runMkvet(t, "whatif", filepath.Join(testPrograms, "pge1.f"), "-P", "8", "-format", "json")
	if code != 0 {
		t.Fatal(base)
	}
	bal, _, code := runMkvet(t, "whatif", filepath.Join(testPrograms, "pge1.f"), "-P", "8", "-format", "json", "-balance")
	if code != 0 {
		t.Fatal(bal)
	}
	slow, _, code := runMkvet(t, "whatif", filepath.Join(testPrograms, "pge1.f"), "-P", "8", "-format", "json", "-set", "L=50us,o=10us")
	if code != 0 {
		t.Fatal(slow)
	}
	time := func(s string) (float64, float64) {
		var res whatifOutput
		if err := json.Unmarshal([]byte(s), &res); err != nil {
			t.Fatal(err)
		}
		r := res.Tables[0].Rows[0]
		return r.Terms["compute"], r.Time
	}
	c0, t0 := time(base)
	c1, _ := time(bal)
	_, t2 := time(slow)
	if !(c1 < c0) {
		t.Errorf("balanced compute %g, unbalanced %g: pge1's work is imbalanced", c1, c0)
	}
	if !(t2 > t0) {
		t.Errorf("a slower network gives %g, the default %g", t2, t0)
	}
}

func TestWhatifPlot(t *testing.T) {
	dir := t.TempDir()
	for _, kind := range []string{"time", "speedup", "efficiency"} {
		file := filepath.Join(dir, kind+".png")
		_, errs, code := runMkvet(t, "whatif", filepath.Join(testPrograms, "trap_reduce.f90"), "-D", "nargs=0",
			"-series", "n=512,1024,2048", "-P", "1..64", "-plot", file, "-plot-kind", kind)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
			t.Errorf("%s: %v", kind, b)
		}
	}
	svg := filepath.Join(dir, "s.svg")
	if _, errs, code := runMkvet(t, "whatif", filepath.Join(testPrograms, "shift.f"), "-plot", svg); code != 0 {
		t.Fatal(errs)
	}
	if data, err := os.ReadFile(svg); err != nil || !strings.Contains(string(data), "<svg") {
		t.Errorf("svg: %v", err)
	}
}

func TestWhatifUsageErrors(t *testing.T) {
	prog := filepath.Join(testPrograms, "shift.f")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{}, "no input files"},
		{[]string{prog, "-P", "1..x"}, "-P 1..x: col 4: want an integer"},
		{[]string{prog, "-P", "0"}, "process counts start at 1"},
		{[]string{prog, "-set", "L=5us,q=3"}, "-set:1:7: q is not a parameter of the LogGP model"},
		{[]string{prog, "-set", "L=5parsecs"}, "-set:1:1: L:"},
		{[]string{prog, "-omit", "nothing"}, "-omit nothing: no such term"},
		{[]string{prog, "-format", "xml"}, "-format must be table, csv or json"},
		{[]string{prog, "-unit", "shift/L9=1us"}, "no node shift/L9"},
		{[]string{prog, "-grain", "k"}, `-grain "k": want K=lo..hi`},
		{[]string{filepath.Join(testPrograms, "jacobi1d.f90")}, "no value for nargs (the number of command-line arguments"},
		{[]string{prog, "-D", "n=(1"}, "-D n=(1: col"},
		{[]string{prog, "-machine", "nosuch"}, `no machine profile "nosuch"`},
		{[]string{prog, "-plot-kind", "pie"}, "-plot-kind must be"},
	}
	for _, tt := range tests {
		_, errs, code := runMkvet(t, append([]string{"whatif"}, tt.args...)...)
		if code != 2 || !strings.Contains(errs, tt.want) {
			t.Errorf("whatif %v: exit %d, stderr %q; want 2 and %q", tt.args, code, errs, tt.want)
		}
	}
	// A source error names file:line:col.
	bad := filepath.Join(t.TempDir(), "bad.f90")
	os.WriteFile(bad, []byte("program p\n  x = (1 +\nend program p\n"), 0o644)
	_, errs, code := runMkvet(t, "whatif", bad)
	if code != 2 || !strings.Contains(errs, "bad.f90:2:") {
		t.Errorf("bad source: exit %d, %q", code, errs)
	}
}

// TestWhatifSizesInArrays: whatif over P of testdata/programs/cellcheck.f90
// at n = 36 (a multipartition whose cell sizes come from P through arrays,
// q = sqrt(P) cells per rank, coordinates cycling with MOD, and whose
// set-up stops with MPI_ABORT when a cell is smaller than 3 points) has a time where
// the cells are large enough (q = 1..12) and says that the program stops
// at its check where they are not (q = 16: sizes 3 and 2, each rank
// aborting at one of its 16 cells; q = 32: sizes 2 and 1). It failed
// before, for want of a sample point in P with the sizes known.
func TestWhatifSizesInArrays(t *testing.T) {
	file := filepath.Join(testPrograms, "cellcheck.f90")
	out, errs, code := runMkvet(t, "whatif", "-P", "1..1024", "-D", "n=36,m=2,nl=0", file)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	for _, p := range []string{"1", "4", "16", "64", "128"} {
		if !regexp.MustCompile(`(?m)^ *` + p + ` +[0-9.]+[nµm]?s `).MatchString(out) {
			t.Errorf("no time at P=%s:\n%s", p, out)
		}
	}
	for _, p := range []string{"256", "512", "1024"} {
		if want := p + " - - - - stops at " + file + ":37:"; !strings.Contains(squeeze(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestWhatifDeckGrid: a program whose process grid comes from its input
// deck stops at every other P through its own check; the note names the
// deck records read, not only values compiled into the build.
func TestWhatifDeckGrid(t *testing.T) {
	dir := t.TempDir()
	src := `program grid
  use mpi
  implicit none
  integer :: ierr, np, px, py, n, i
  double precision :: s
  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  open(10, file='grid.in')
  read(10, *) n
  read(10, *) px, py
  close(10)
  if (px*py /= np) then
    print *, 'grid does not match'
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  s = 0
  do i = 1, n / np
    s = s + i
  end do
  call MPI_Finalize(ierr)
end program grid
`
	if err := os.WriteFile(filepath.Join(dir, "grid.f90"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "grid.in"), []byte("100000\n2 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	out, errs, code := runMkvet(t, "whatif", "-P", "1,2,4,8", "grid.f90")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	if !regexp.MustCompile(`(?m)^ *4 +[0-9.]+[nuµm]?s `).MatchString(out) {
		t.Errorf("no time at P=4:\n%s", out)
	}
	if want := "after reading grid.in:1-2, the same at every P"; !strings.Contains(out+errs, want) {
		t.Errorf("output lacks %q:\n%s%s", want, out, errs)
	}
}

// TestWhatifPerPConcurrent: a sweep evaluated at each process count gives
// the same table, notes and JSON whether its points are evaluated one
// after the other or concurrently (one per core).
func TestWhatifPerPConcurrent(t *testing.T) {
	file := filepath.Join(testPrograms, "cellcheck.f90")
	var outs []string
	for _, procs := range []int{1, 4} {
		prev := runtime.GOMAXPROCS(procs)
		for _, format := range []string{"table", "json"} {
			out, errs, code := runMkvet(t, "whatif", "-P", "1..1024", "-D", "n=36,m=2,nl=0", "-format", format, file)
			if code != 0 {
				t.Fatalf("GOMAXPROCS=%d: exit %d: %s", procs, code, errs)
			}
			outs = append(outs, out)
		}
		runtime.GOMAXPROCS(prev)
	}
	if outs[0] != outs[2] || outs[1] != outs[3] {
		t.Errorf("one at a time:\n%s\nconcurrently:\n%s", outs[0]+outs[1], outs[2]+outs[3])
	}
}

// TestSetAddScalesLoopKinds: -set add=X on a measured profile makes the
// processor X/add as fast in every kind of loop (the work units membench
// measures per kind scale with it); -set chain=Y sets that one alone.
func TestSetAddScalesLoopKinds(t *testing.T) {
	dur := func(t *testing.T, s string) symbolic.Rat {
		d, err := model.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	p := model.Default()
	q := *p
	q.Ops.Vector, q.Ops.Chain = dur(t, "0.05ns"), dur(t, "0.12ns")
	if err := setProfile(&q, "add=0.2ns"); err != nil {
		t.Fatal(err)
	}
	// The default's add is 0.1 ns: twice as slow.
	if got, want := q.Ops.Vector, dur(t, "0.1ns"); got.Cmp(want) != 0 {
		t.Errorf("vector after add=0.2ns: %v, want %v", got, want)
	}
	if got, want := q.Ops.Chain, dur(t, "0.24ns"); got.Cmp(want) != 0 {
		t.Errorf("chain after add=0.2ns: %v, want %v", got, want)
	}
	if !q.Ops.Scalar.IsZero() {
		t.Errorf("scalar, not measured, became %v", q.Ops.Scalar)
	}
	if err := setProfile(&q, "chain=1ns"); err != nil {
		t.Fatal(err)
	}
	if got, want := q.Ops.Chain, dur(t, "1ns"); got.Cmp(want) != 0 || q.Ops.Vector.Cmp(dur(t, "0.1ns")) != 0 {
		t.Errorf("chain=1ns: chain %v vector %v", got, q.Ops.Vector)
	}
}
