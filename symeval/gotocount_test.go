package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// A variable stepped at the top of a loop built from GO TO but also
// changed by a routine the loop calls is no counter: the loop runs 5
// times, not the 10 a counter stepped by 1 would give. A branch on data
// that sets a loop's bound keeps the loop from being run pass by pass, so
// that its counters are what decides.
func TestGotoCounterChangedByCallee(t *testing.T) {
	res := evaluate(t, `program p
  integer :: its, i, j, m
  double precision :: x(200)
  its = 0
10 continue
  its = its + 1
  call bump(its)
  if (x(150) > 1.0d3) then
    m = 2
  else
    m = 2
  end if
  do j = 1, m
  end do
  if (its < 10) go to 10
  do i = 1, its
  end do
end program p
subroutine bump(n)
  integer :: n
  n = n + 1
end subroutine bump
`, symeval.Options{})
	if dom := loopDomain(t, res, "p/L1"); strings.Contains(dom, "k <= 10") {
		t.Errorf("inner loop's domain %s: 10 runs, its taken for a counter although bump changes it too (the run makes 5)", dom)
	}
}
