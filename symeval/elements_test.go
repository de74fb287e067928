package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// A loop under an IF that stores data to a range of elements leaves those
// elements unknown where the IF's condition may hold, and only those: past
// the join of the IF's paths, t(7) is not the 11 stored before the loop
// (which may have overwritten it), and t(3), out of the loop's reach,
// still holds 9.
func TestIfJoinKeepsLoopRange(t *testing.T) {
	res := evaluate(t, `program p
  use mpi
  integer :: t(200), s(200), me, n, i, j, ierr
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  read *, n
  read *, s
  t(3) = 9
  t(7) = 11
  if (me == 0) then
    do i = 5, n
      t(i) = s(i)
    end do
  end if
  do j = 1, t(3)
  end do
  do j = 1, t(7)
  end do
end program p
`, symeval.Options{})
	if dom := loopDomain(t, res, "p/L1"); !strings.Contains(dom, "j <= 9") {
		t.Errorf("loop domain %s: t(3) is out of the loop's reach", dom)
	}
	if dom := loopDomain(t, res, "p/L2"); strings.Contains(dom, "j <= 11") {
		t.Errorf("loop domain %s: t(7) may be what the loop stored", dom)
	}
}

// An element selected by a subscript with an alternative no process of
// the path has (the neighbour 0 of a process without one, where the call
// is made only for a neighbour) is the element the others select, not an
// unknown: tids(0) is never read.
func TestSubscriptAlternativeOffPath(t *testing.T) {
	res := evaluate(t, `program p
  use mpi
  integer :: tids(4), me, nb, ierr, i
  common /tasks/ tids
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  do i = 1, 4
    tids(i) = 10*i
  end do
  nb = 0
  if (me > 0) nb = me
  if (nb /= 0) call work(nb)
end program p

subroutine work(src)
  integer :: src, tids(4), j
  common /tasks/ tids
  do j = 1, tids(src)
  end do
end subroutine work
`, symeval.Options{Values: map[string]int64{symeval.Size: 4}})
	dom := loopDomain(t, res, "work/L1")
	if strings.Contains(dom, "tids") {
		t.Errorf("loop domain %s: tids(src) is 10*rank where work is called", dom)
	}
}

// A datum of the input file read twice (the deck read again from its
// start, after another OPEN or a REWIND) is one parameter: the second
// READ's items of the first record take the first READ's parameters.
func TestReadTwiceOneParameter(t *testing.T) {
	res := evaluate(t, `program p
  integer :: a, b, c, d, e, f, g, i
  open (3, file='deck', status='old')
  read (3, *) a, b
  close (3)
  open (10, file='deck', status='old')
  read (10, *) c, d, e
  read (10, *) f
  rewind (10)
  read (10, *) g
  close (10)
  do i = 1, 100*c + 10*d + e + f + g
  end do
end program p
`, symeval.Options{})
	if got := strings.Join(paramNames(res), " "); got != "a b e f" {
		t.Errorf("params %s, want a b e f", got)
	}
	if dom := loopDomain(t, res, "p/L1"); !strings.Contains(dom, "101*a + 10*b + e + f") {
		t.Errorf("loop domain %s: c is a, d is b, g is a", dom)
	}
}
