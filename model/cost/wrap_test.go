package cost_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mkvet/mkvet/frontend/fortran"
)

// TestWrappingCountersAgainstInterpreter: loops that deal their iterations
// out in chunks (a counter stepped by one and set back at a bound, a
// second counter moved on when it is) count, on every rank, what the
// interpreter runs: the branch on the bound, loops bounded by either
// counter after the loop, and the work under tests of the counter inside.
// Bounds, resets, starting values, the test's form and the companions'
// steps are drawn at random, the bound sometimes the rank's; and a round
// robin over the ranks, p = mod(p + c, m), deciding which rank works.
func TestWrappingCountersAgainstInterpreter(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 5))
	for k := range 40 {
		reset := r.IntN(2)
		start := reset + r.IntN(2)
		bound := fmt.Sprintf("%d", start+1+r.IntN(6))
		if r.IntN(3) == 0 {
			bound = fmt.Sprintf("me + %d", start+1+r.IntN(3))
		}
		test := "ic == ichunk"
		if r.IntN(2) == 0 {
			test = "ic >= ichunk"
		}
		step := 1 + r.IntN(3)
		nx := 5 + r.IntN(40)
		modFn := []string{"mod", "modulo"}[r.IntN(2)]
		modulus := []string{"np", "3", "np + 1"}[r.IntN(3)]
		src := fmt.Sprintf(`program wrap
  use mpi
  implicit none
  integer :: ierr, me, np, i, j, ic, ich, ichunk, s, p
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  ichunk = %s
  s = 0
  do j = 1, %d
    ic = %d
    ich = 1
    do i = 1, %d + j
      ic = ic + 1
      if (ic == 2) s = s + 1
      if (%s) then
        ic = %d
        ich = ich + %d
      end if
    end do
    do i = 1, ich
      s = s + i
    end do
    do i = 1, ic
      s = s - 1
    end do
  end do
  p = %d
  do i = 1, %d
    if (p == me) s = s + i
    p = %s(p + %d, %s)
  end do
  do i = 1, p
    s = s + 1
  end do
  call mpi_finalize(ierr)
end program
`, bound, 2+r.IntN(3), start, nx, test, reset, step, r.IntN(3), 3+r.IntN(30), modFn, r.IntN(4), modulus)
		prog, diags := fortran.ParseSource("wrap.f90", []byte(src), fortran.Config{})
		for _, d := range diags {
			t.Fatalf("program %d: %s", k, d)
		}
		countsAgainstInterpreter(t, fmt.Sprintf("program %d", k), prog, []int64{1, 3}, false)
		if t.Failed() {
			t.Fatalf("program %d:\n%s", k, src)
		}
	}
}
