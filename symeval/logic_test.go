package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// TestLogicalSettled: .FALSE. .AND. x and .TRUE. .OR. x are decided
// whatever x is, data included.
func TestLogicalSettled(t *testing.T) {
	res := evaluate(t, `program p
  implicit none
  integer :: n, i
  logical :: a, b
  real :: x
  read *, n
  a = .false.
  call random_number(x)
  b = x > 0.5
  if (a .and. b) then
    do i = 1, n
    end do
  end if
  if (b .or. .not. a) then
    do i = 1, 2*n
    end do
  end if
end program p
`, symeval.Options{})
	onlyParams(t, res, "n")
	if got := loopsAt(res, 11); got != 0 {
		t.Errorf("the loop under a .and. b runs (%d occurrences)", got)
	}
	if b := loopBodies(t, res, 15); len(b) != 1 || !strings.Contains(b[0], "2*n >= i") {
		t.Errorf("the loop under b .or. .not. a: %q, want i <= 2*n", b)
	}
}

// TestLogicalSettledInLoop: an arm whose condition a flag the loop leaves
// alone settles (false .AND. a value the loop sets on data) is never
// taken, so what it assigns is not changed by the loop: the array it
// stores to keeps its elements.
func TestLogicalSettledInLoop(t *testing.T) {
	res := evaluate(t, `program q
  implicit none
  integer :: n, k, i, fl(3)
  logical :: use_a, use_b, sw
  real :: x
  read *, n
  use_a = .false.
  use_b = .false.
  fl = 0
  fl(2) = 1
  sw = .false.
  do k = 1, n
    call random_number(x)
    if (x > 0.5) sw = .true.
    if ((use_a .or. use_b) .and. sw) then
      fl(2) = 0
    end if
  end do
  do i = 1, fl(2)*n
  end do
end program q
`, symeval.Options{})
	onlyParams(t, res, "n", "pct_q_14") // how often the data sets sw
	if b := loopBodies(t, res, 19); len(b) != 1 || !strings.Contains(b[0], "n >= i") {
		t.Errorf("the loop over fl(2)*n: %q, want i <= n", b)
	}
}
