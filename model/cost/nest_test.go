package cost_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// nestProgram is a driver loop calling one routine from two call sites with
// different sizes, the routine once more outside every loop, and a second
// nest in the main program. sweep has statements outside its nest, one of
// them only for the larger size, so the driver's own work differs from
// context to context.
const nestProgram = `program drv
  implicit none
  integer :: n, iters, it, i
  real(8) :: a(100), b(200), c(100)
  !mk$ param n = 10
  !mk$ param iters = 3
  do it = 1, iters
    call sweep(a, n)
    call sweep(b, 2*n)
    c(it) = 1
  end do
  call sweep(a, n)
  do i = 1, n
    c(i) = 0
  end do
  print *, a(1), b(1), c(1)
end program drv

subroutine sweep(x, m)
  implicit none
  integer :: m, j, k
  real(8) :: x(m)
  x(1) = 0
  do j = 1, m
    do k = 1, 3
      x(j) = k
    end do
  end do
  if (m > 15) x(2) = 0
end subroutine sweep
`

// TestNestWork checks each loop nest's own work against the stores the
// program makes (the only weighted operation here): the driver loop keeps
// its own store and sweep's stores outside its nest in the two calls it
// makes, one more where 2n > 15 and another where n > 15, and none of
// sweep's nest; sweep's nest keeps all of its work in every context; an
// inner loop is no nest. The symbolic closed forms and the evaluation at
// the point (AnalyzeAt) must both give these values.
func TestNestWork(t *testing.T) {
	path := filepath.Join(t.TempDir(), "drv.f90")
	if err := os.WriteFile(path, []byte(nestProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, _ := fortran.ParseFiles([]string{path}, fortran.Config{})
	w := cost.Weights{Store: symbolic.RatInt(1)}
	sym, err := cost.Analyze(prog, cost.Options{Weights: &w})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{5, 10, 20} {
		const iters = 3
		env := map[string]int64{"n": n, "iters": iters}
		per := int64(3) // c(it), and x(1) in each of the two calls
		if 2*n > 15 {
			per++
		}
		if n > 15 {
			per++
		}
		sweepNest := 3 * (iters*(n+2*n) + n) // three stores per j, every call
		want := map[string]int64{"drv/L1": iters * per, "sweep/L1": sweepNest, "drv/L2": n, "sweep/L1/L1": 0}
		outside := int64(1) // x(1) in the call outside the loops
		if n > 15 {
			outside++
		}
		at, err := cost.AnalyzeAt(prog, cost.Options{Weights: &w}, env)
		if err != nil {
			t.Fatal(err)
		}
		for _, rep := range []*cost.Report{sym, at} {
			pt, err := rep.At(env)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			for id, v := range want {
				node := rep.ByID[id]
				if node == nil {
					t.Fatalf("n=%d: no node %s", n, id)
				}
				if got := pt.Nodes[node].NestWork.Total; got != float64(v) {
					t.Errorf("n=%d: %s nest work %v, want %d (closed form %s)", n, id, got, v, node.NestWork)
				}
				sum += pt.Nodes[node].NestWork.Total
			}
			// The nests and the work outside them make up the program's.
			if got := pt.Work.Total; got != sum+float64(outside) {
				t.Errorf("n=%d: program work %v, nests %v + outside %d", n, got, sum, outside)
			}
		}
	}
}
