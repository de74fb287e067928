package cost_test

import "fmt"

// Fortran 90 storage for the array mechanism of mechanisms_test.go: arrays
// given their bounds by ALLOCATE, read through assumed-shape dummies.

// arrayAllocatable keeps sizes in an ALLOCATABLE array whose first
// dimension has a lower bound other than 1 (and, for some sizes, another
// extent), filled in a loop over the ranks and read back as loop bounds,
// in the main program and through an assumed-shape dummy.
func arrayAllocatable(g *gen, k int) {
	lo := g.pick("1", "0", "-1")
	g.decl(k, "integer, allocatable :: a#(:, :)", "integer :: i#, j#, st#")
	alloc := func(ext int) string {
		return fmt.Sprintf("allocate (a#(%s:%s + %d, np), stat=st#)", lo, lo, ext-1)
	}
	if g.r.IntN(2) == 0 {
		g.stmt(k, alloc(3))
	} else {
		// The first extent depends on a size: so do the strides.
		g.stmt(k, "if (n .gt. 20) then", "  "+alloc(3), "else", "  "+alloc(4), "end if")
	}
	g.stmt(k, "if (st# .ne. 0) call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)")
	f := func() string {
		return g.pick("j# + n", "np*j#", "max(m*j# - me, 0)", "n/np + j#", "mod(me + j#, np) + 1", "nl*j#")
	}
	g.stmt(k, "do j# = 1, np",
		fmt.Sprintf("  a#(%s, j#) = %s", lo, f()),
		fmt.Sprintf("  a#(%s + 1, j#) = %s", lo, f()),
		fmt.Sprintf("  a#(%s + 2, j#) = %s", lo, f()),
		"end do")
	switch g.r.IntN(3) {
	case 0:
		g.stmt(k, fmt.Sprintf("do i# = 1, a#(%s, me + 1)", lo), "  s = s + 1", "end do")
	case 1:
		g.stmt(k, "do j# = 1, np", fmt.Sprintf("  do i# = a#(%s + 1, j#), a#(%s + 2, j#)", lo, lo), "    s = s + 1", "  end do", "end do")
	case 2:
		// Through an assumed-shape dummy, whose lower bounds are 1.
		g.module("as#", k,
			"module as#",
			"  implicit none",
			"contains",
			"  subroutine use#(c, me, s)",
			"    integer, intent(in) :: c(:, :), me",
			"    double precision, intent(inout) :: s",
			"    integer :: i",
			"    do i = 1, c(2, me + 1) + c(3, 1)",
			"      s = s + 1",
			"    end do",
			"  end subroutine use#",
			"end module as#")
		g.stmt(k, "call use#(a#, me, s)")
	}
	if g.r.IntN(2) == 0 {
		g.stmt(k, "deallocate (a#)")
	}
}
