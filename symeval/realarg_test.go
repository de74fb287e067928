package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// A loop that passes rows of a REAL array to a routine (call fill(z(1, i),
// m)) selects data with its variable, which the evaluation never follows:
// it is evaluated once, symbolically, not run iteration by iteration, even
// where its variable matters after the loop (a later loop's bound). Run,
// its occurrences would grow with its trips: a random-number generator
// filling a field row by row made MG's evaluation at P = 8 take seconds.
func TestRealRowsPassedByLoopAreNotRun(t *testing.T) {
	const src = `
program p
  implicit none
  integer :: n, i, k, s
  double precision :: z(100, 400)
  n = NTRIPS
  do i = 1, n
     call fill(z(1, i), 100)
  end do
  s = 0
  do k = 1, i
     s = s + 1
  end do
end program p

subroutine fill(y, m)
  implicit none
  integer :: m, j
  double precision :: y(m)
  do j = 1, m
     y(j) = 0.5d0 * j
  end do
end subroutine fill
`
	occurrences := map[string]int{}
	for _, n := range []string{"5", "400"} {
		res := evaluate(t, strings.Replace(src, "NTRIPS", n, 1), symeval.Options{})
		occurrences[n] = res.Occurrences
	}
	if occurrences["5"] != occurrences["400"] {
		t.Errorf("occurrences grow with the trips of a loop over rows of a REAL array: %v", occurrences)
	}
}
