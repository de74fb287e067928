package roofline_test

import (
	"math"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/model/roofline"
)

// testMachine is a node with round figures: a 1 ns work unit; L1 of 4 KiB
// (8-way, 64-byte lines: 8 sets), L2 of 64 KiB, memory; streaming 0.1,
// 0.2 and 1 ns per byte, a strided access 1, 4 and 20 ns, a gathered one
// 2, 8 and 40 ns.
func testMachine() roofline.Machine {
	mem := &model.Memory{CPUs: 1, Line: 64, Levels: []model.MemLevel{
		{Name: "L1", Size: 4 << 10, Shared: 1, Ways: 8, One: 0.1e-9, All: 0.1e-9, StrideOne: 1e-9, StrideAll: 1e-9, GatherOne: 2e-9, GatherAll: 2e-9},
		{Name: "L2", Size: 64 << 10, Shared: 1, One: 0.2e-9, All: 0.2e-9, StrideOne: 4e-9, StrideAll: 4e-9, GatherOne: 8e-9, GatherAll: 8e-9},
		{Name: "memory", One: 1e-9, All: 1e-9, StrideOne: 20e-9, StrideAll: 20e-9, GatherOne: 40e-9, GatherAll: 40e-9},
	}}
	return roofline.Machine{Mem: mem, Unit: 1e-9}
}

func analyse(t *testing.T, src string, point map[string]int64) (*cost.Report, *cost.Point) {
	t.Helper()
	prog, diags := fortran.ParseSource("t.f90", []byte(src), fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %s", d)
		}
	}
	rep, err := cost.AnalyzeAt(prog, cost.Options{}, point)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := rep.At(point)
	if err != nil {
		t.Fatal(err)
	}
	return rep, pt
}

const triad = `program p
  integer :: n
  double precision, allocatable :: a(:), b(:), c(:)
  read *, n
  allocate (a(n), b(n), c(n))
  call triad(n, a, b, c)
end program p
subroutine triad(n, a, b, c)
  integer :: n, i
  double precision :: a(n), b(n), c(n)
  do i = 1, n
    a(i) = b(i) + 2.0d0 * c(i)
  end do
end subroutine triad
`

// TestTriadStall: a triad's iteration computes for 6 work units (an add
// and a multiply, two loads, a store at 2) and moves 24 bytes from the
// level its 24n-byte footprint fits in; its stall is n times the excess of
// the data time over the computation, nothing where it computes longer.
// The footprints stay under half of their levels, where the time per byte
// is the level's (model.Memory.TimeAt blends beyond).
func TestTriadStall(t *testing.T) {
	m := testMachine()
	for _, c := range []struct {
		n               int64
		level           string
		perByte, stall1 float64 // seconds per byte, stall per iteration in units
		bound           bool
	}{
		{n: 50, level: "L1", perByte: 0.1e-9},                                    // 1.2 KB, under half of L1: 2.4 ns of data, 6 of work
		{n: 1000, level: "L2", perByte: 0.2e-9},                                  // 24 KB: 4.8 ns of data
		{n: 100000, level: "memory", perByte: 1e-9, stall1: 24 - 6, bound: true}, // 24 ns of data
	} {
		rep, pt := analyse(t, triad, map[string]int64{"n": c.n})
		res := m.At(rep, pt)
		var lp *roofline.Loop
		for n, l := range res.Loops {
			if n.Routine.Name == "triad" {
				lp = l
			}
		}
		if lp == nil {
			t.Fatalf("n=%d: no priced loop", c.n)
		}
		n := float64(c.n)
		if want := n * 24 * c.perByte; math.Abs(lp.Data-want) > 1e-9*want {
			t.Errorf("n=%d: data %g s, want %g", c.n, lp.Data, want)
		}
		if want := n * 6e-9; math.Abs(lp.Core-want) > 1e-9*want {
			t.Errorf("n=%d: core %g s, want %g", c.n, lp.Core, want)
		}
		if want := n * c.stall1; math.Abs(lp.Stall.Total-want) > 1e-9*math.Max(want, 1) {
			t.Errorf("n=%d: stall %g units, want %g", c.n, lp.Stall.Total, want)
		}
		if lp.Level != c.level || lp.MemoryBound() != c.bound {
			t.Errorf("n=%d: level %s, bound %v; want %s, %v", c.n, lp.Level, lp.MemoryBound(), c.level, c.bound)
		}
		if math.Abs(res.Stall.Total-lp.Stall.Total) > 1e-9 {
			t.Errorf("n=%d: program stall %g, loop's %g", c.n, res.Stall.Total, lp.Stall.Total)
		}
	}
}

// TestConflict: a stride of whole lines reaches gcd-many fewer sets; an
// L1 of 8 sets holds a page-strided walk in one set, 8 of its 64 lines.
func TestConflict(t *testing.T) {
	m := testMachine().Mem
	for _, c := range []struct {
		stride int64
		want   float64
	}{{64, 1}, {128, 0.5}, {512, 0.125}, {4096, 0.125}, {4160, 1}, {96, 1}, {8, 1}} {
		if got := m.Conflict(0, c.stride); got != c.want {
			t.Errorf("Conflict(L1, %d) = %v, want %v", c.stride, got, c.want)
		}
	}
	// 2 KiB of lines a page apart: one set of L1 (512 B of it), so L2.
	if got := m.LevelStrided(2048, 1, 4096); got != 1 {
		t.Errorf("a page-strided 2 KiB walk: level %d, want L2", got)
	}
	if got := m.LevelStrided(2048, 1, 4160); got != 0 {
		t.Errorf("a 4160-byte-strided 2 KiB walk: level %d, want L1", got)
	}
}

// TestStallsAsSizesGrow: without a point every growing working set is in
// main memory; the triad's stall is then (24 - 6) units per iteration.
func TestStallsAsSizesGrow(t *testing.T) {
	prog, _ := fortran.ParseSource("t.f90", []byte(triad), fortran.Config{})
	rep, err := cost.Analyze(prog, cost.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sym := testMachine().Stalls(rep)
	var got string
	for n, pw := range sym.Loops {
		if n.Routine.Name == "triad" {
			got = pw.String()
		}
	}
	if !strings.HasPrefix(got, "18*n") {
		t.Errorf("stall as n grows: %q, want 18*n", got)
	}
}
