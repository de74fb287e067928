package cost_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAllocatedShapesAgainstExecution: random programs allocate arrays
// and components of a derived type (through a type-bound procedure or
// not) with extents in n, P and the rank, and pass them (whole) to
// assumed-shape dummies whose loops run over SIZE; every node's per-rank
// count at P = 1..4 equals the interpreter's, with no parameter left.
func TestAllocatedShapesAgainstExecution(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 13))
	for k := range 40 {
		againstRanks(t, k, randomShapeProgram(rng), int64(1+rng.IntN(4)))
	}
}

func randomShapeProgram(rng *rand.Rand) string {
	exts := []string{"n", "n / np", "n + me", "2 * n - me", "np + 3", "n / np + mod(me, 2)"}
	ext := func() string { return exts[rng.IntN(len(exts))] }
	var s strings.Builder
	s.WriteString(`module ops
  implicit none
  type field
    real(8), allocatable :: v(:), w(:, :)
  contains
    procedure :: setup
  end type field
contains
  subroutine setup(self, a, b, c)
    class(field), intent(inout) :: self
    integer, intent(in) :: a, b, c
    allocate(self%v(a), self%w(b, c))
  end subroutine setup
  real(8) function total(a)
    real(8), intent(in) :: a(:)
    integer :: i
    total = 0
    do i = 1, size(a)
      total = total + a(i)
    end do
  end function total
  subroutine sweep(a)
    real(8), intent(inout) :: a(:, :)
    integer :: i, j
    do j = 1, size(a, 2)
      do i = 2, size(a, 1)
        a(i, j) = a(i - 1, j) + 1
      end do
    end do
  end subroutine sweep
end module ops
program s
  use mpi
  use ops
  implicit none
  type(field) :: f
  real(8), allocatable :: u(:), q(:, :)
  integer :: me, np, ierr, n
  real(8) :: d
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
`)
	fmt.Fprintf(&s, "  n = %d\n", 4+rng.IntN(20))
	fmt.Fprintf(&s, "  allocate(u(%s), q(%s, %s))\n", ext(), ext(), ext())
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&s, "  call f%%setup(%s, %s, %s)\n", ext(), ext(), ext())
	} else {
		fmt.Fprintf(&s, "  allocate(f%%v(%s), f%%w(%s, %s))\n", ext(), ext(), ext())
	}
	s.WriteString("  u = 1.0d0\n  q = 0.0d0\n  f%v = 2.0d0\n  f%w = 0.0d0\n")
	calls := []string{"  d = total(u)\n", "  d = total(f%v)\n", "  call sweep(q)\n", "  call sweep(f%w)\n",
		"  d = total(u) + total(f%v)\n"}
	for range 2 + rng.IntN(4) {
		s.WriteString(calls[rng.IntN(len(calls))])
	}
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&s, "  deallocate(u)\n  allocate(u(%s))\n  d = total(u)\n", ext())
	}
	s.WriteString("  call MPI_Finalize(ierr)\nend program s\n")
	return s.String()
}
