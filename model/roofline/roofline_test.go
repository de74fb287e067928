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
	"github.com/mkvet/mkvet/symbolic"
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

const kinds = `program p
  integer :: n, i
  integer, allocatable :: idx(:)
  double precision, allocatable :: a(:), b(:), c(:), x(:), y(:)
  double complex, allocatable :: u(:), v(:), w(:)
  double precision :: s
  read *, n
  allocate (a(n), b(n), c(n), x(n), y(n), idx(n), u(n), v(n), w(n))
  call triad(n, a, b, c)
  call gather(n, x, y, idx)
  s = 0
  call dot(n, a, b, s)
  call cmul(n, u, v, w)
end program p
subroutine triad(n, a, b, c)
  integer :: n, i
  double precision :: a(n), b(n), c(n)
  do i = 1, n
    a(i) = b(i) + 2.0d0 * c(i)
  end do
end subroutine triad
subroutine gather(n, x, y, idx)
  integer :: n, i, idx(n)
  double precision :: x(n), y(n)
  do i = 1, n
    y(i) = y(i) + x(idx(i))
  end do
end subroutine gather
subroutine dot(n, a, b, s)
  integer :: n, i
  double precision :: a(n), b(n), s
  do i = 1, n
    s = s + a(i) * b(i)
  end do
end subroutine dot
subroutine cmul(n, u, v, w)
  integer :: n, i
  double complex :: u(n), v(n), w(n)
  do i = 1, n
    u(i) = v(i) * w(i)
  end do
end subroutine cmul
`

// TestLoopKindsSetTheCore: a loop computes at the work unit of its kind
// (model.Ops): the triad's contiguous streams vectorised (6 units), the
// gather's index scalar (three loads, an add, a store: 6), the dot
// product's carried add a chain (its latency, 4), the complex multiply
// complex (two loads, a multiply, a store: 5). The data fit L1 and the
// units are large, so that every loop computes longer than it moves
// data: each loop's time is its core, and its stall the core less its
// work at the add time.
func TestLoopKindsSetTheCore(t *testing.T) {
	m := testMachine()
	m.Vector, m.Scalar, m.Chain, m.Complex = 3e-9, 5e-9, 7e-9, 11e-9
	const n = 20
	rep, pt := analyse(t, kinds, map[string]int64{"n": n})
	res := m.At(rep, pt)
	want := map[string]struct{ units, unit float64 }{
		"triad": {6, 3e-9}, "gather": {6, 5e-9}, "dot": {4, 7e-9}, "cmul": {5, 11e-9},
	}
	seen := map[string]bool{}
	for node, lp := range res.Loops {
		w, ok := want[node.Routine.Name]
		if !ok {
			continue
		}
		seen[node.Routine.Name] = true
		if core := n * w.units * w.unit; math.Abs(lp.Core-core) > 1e-9*core {
			t.Errorf("%s: core %g s, want %g (%g units at %g s)", node.Routine.Name, lp.Core, core, w.units, w.unit)
		}
		if lp.MemoryBound() {
			t.Errorf("%s: memory-bound (data %g s, core %g s)", node.Routine.Name, lp.Data, lp.Core)
		}
		if stall := n * w.units * (w.unit/m.Unit - 1); math.Abs(lp.Stall.Total-stall) > 1e-9*stall {
			t.Errorf("%s: stall %g units, want %g", node.Routine.Name, lp.Stall.Total, stall)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("priced loops %v, want all of %v", seen, want)
	}
}

// TestGatherHitsNearerLevel: a gather into an array larger than a private
// L1 finds L1's share of its elements there (capacity over array, the hit
// ratio of random references), out of the L2 time membench measured at
// half L2 with its own share of L1 hits; a shared nearer level counts no
// hits.
func TestGatherHitsNearerLevel(t *testing.T) {
	mem := testMachine().Mem
	// L2's gather, 8 ns, measured at 32 KiB: 4/32 of it L1 hits at 2 ns,
	// so a miss takes (8 - 2/8)/(7/8) = 62/7 ns.
	miss := (8 - 2.0/8) / (7.0 / 8)
	for _, c := range []struct{ fp, want float64 }{
		{2 << 10, 2},                   // in L1
		{8 << 10, 0.5*2 + 0.5*miss},    // half of it in L1
		{32 << 10, 8},                  // membench's own working set
		{16 << 10, 0.25*2 + 0.75*miss}, // a quarter in L1
	} {
		got := mem.TimeAt(model.Gather, c.fp, 1) * 1e9
		if math.Abs(got-c.want) > 1e-9 {
			t.Errorf("gather over %g bytes: %g ns, want %g", c.fp, got, c.want)
		}
	}
	shared := *mem
	shared.Levels = append([]model.MemLevel(nil), mem.Levels...)
	shared.Levels[0].Shared = 2
	if got := shared.TimeAt(model.Gather, 8<<10, 1) * 1e9; math.Abs(got-8) > 1e-9 {
		t.Errorf("gather past a shared L1: %g ns, want L2's 8", got)
	}
}

// TestFirstTouchPriced: the loop that first writes a freshly allocated
// array pays the machine's first-touch rate on its bytes, once (not per
// iteration of an enclosing loop); a later loop over the array does not,
// and a machine without a measured rate prices none.
func TestFirstTouchPriced(t *testing.T) {
	const src = `program p
  integer :: n, i, k
  double precision, allocatable :: a(:)
  read *, n
  allocate (a(n))
  do i = 1, n
    a(i) = 0.0d0
  end do
  do k = 1, 10
    do i = 1, n
      a(i) = a(i) + 1.0d0
    end do
  end do
end program p
`
	rep, pt := analyse(t, src, map[string]int64{"n": 100000})
	loopAt := func(line int) *cost.Node {
		for _, n := range rep.Nodes {
			if l, ok := n.Node.(*apt.Loop); ok && l.Span.Start().Line == line {
				return n
			}
		}
		t.Fatalf("no loop at line %d", line)
		return nil
	}
	m := testMachine()
	before := m.At(rep, pt)
	m.Mem.TouchOne, m.Mem.TouchAll = 0.25e-9, 0.5e-9
	after := m.At(rep, pt)
	first, later := loopAt(6), loopAt(10)
	wantSecs := 8 * 100000 * 0.25e-9
	if got := after.Loops[first].Touch; math.Abs(got-wantSecs) > 1e-12 {
		t.Errorf("first loop: touch %g s, want %g", got, wantSecs)
	}
	if got := after.Loops[first].Stall.Total - before.Loops[first].Stall.Total; math.Abs(got-wantSecs/m.Unit) > 1e-6 {
		t.Errorf("first loop: stall grew by %g units, want %g", got, wantSecs/m.Unit)
	}
	if got := after.Loops[later].Touch; got != 0 {
		t.Errorf("later loop: touch %g s, want 0", got)
	}
	if !after.Loops[first].MemoryBound() {
		t.Errorf("the zeroing loop is not memory-bound with its first touch")
	}
	if before.Loops[first].Touch != 0 {
		t.Errorf("without a first-touch rate: touch %g s", before.Loops[first].Touch)
	}
	// As the sizes grow: the touch once, 8n bytes at 0.25 units a byte.
	sym := m.Stalls(rep)
	got, err := sym.Loops[first].Eval(map[string]symbolic.Rat{"n": symbolic.RatInt(1000)})
	if err != nil {
		t.Fatal(err)
	}
	base, _ := testMachine().Stalls(rep).Loops[first].Eval(map[string]symbolic.Rat{"n": symbolic.RatInt(1000)})
	if d := got.Float64() - base.Float64(); math.Abs(d-8*1000*0.25) > 1e-9 {
		t.Errorf("closed form: the first touch adds %g units at n = 1000, want %g", d, 8*1000*0.25)
	}
}
