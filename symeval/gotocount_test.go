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

// A loop built from GO TO whose bottom test is a conjunction of a data
// condition (a residual) and its counter: the counter's conjuncts bound the
// runs, the data one is an early exit taken as never taken, and said so, as
// a DO loop's EXIT on data is. Any order, nesting, step and relation; a
// disjunction with a data disjunct stays unbounded.
func TestGotoCounterAndData(t *testing.T) {
	for _, tc := range []struct {
		init, step, test string
		want             string // the inner loop's bound on k, "" for none
	}{
		{"it = 0", "it = it + 1", "res > eps .and. it < itmax", "k <= 25"},
		{"it = 0", "it = it + 1", "it .lt. itmax .and. res .gt. eps", "k <= 25"},
		{"it = 0", "it = it + 1", "(res > eps .and. it <= 9) .and. (x(1) < 2.0 .and. it /= 40)", "k <= 10"},
		{"it = 30", "it = it - 2", "res > eps .and. it .ne. 10", "k <= 10"},
		{"it = 0", "it = it + 1", "res > eps .or. it < itmax", ""},
	} {
		res := evaluate(t, `program p
  integer, parameter :: itmax = 25
  integer :: it, j, m
  double precision :: x(200), res, eps
  read(*,*) eps, m
  `+tc.init+`
10 continue
  `+tc.step+`
  res = 0.0d0
  do j = 1, m
    res = res + x(j)
  end do
  if (`+tc.test+`) goto 10
end program p
`, symeval.Options{})
		dom := loopDomain(t, res, "p/L1")
		noted := exitTakenNever(res)
		if tc.want == "" {
			if strings.Contains(dom, "k <= 25") || noted {
				t.Errorf("%s: inner loop's domain %s, assumed %v: a disjunction with data is bounded by its counter", tc.test, dom, res.Assumed)
			}
			continue
		}
		if !strings.Contains(dom, tc.want) || !noted {
			t.Errorf("%s: inner loop's domain %s, assumed %v: want %s and the data exit taken as never taken", tc.test, dom, res.Assumed, tc.want)
		}
	}
}

// A loop built from GO TO on a counter runs as many times as its test
// allows however many that is: a bottom test linear in the run is solved
// in closed form past the runs a walk would decide one by one, and a test
// at the head (20 IF (I .GT. N) GOTO 40) on a counter stepped after it
// counts too; the body after the head test runs one time fewer.
func TestGotoCounterManyRuns(t *testing.T) {
	for _, tc := range []struct {
		init, loop string
		want       string
	}{
		{"i = 1", "20 continue\n  do j = 1, 3\n    s = s + j\n  end do\n  i = i + 1\n  if (i .le. n) goto 20", "k <= 100000"},
		{"i = 0", "20 continue\n  do j = 1, 3\n    s = s + j\n  end do\n  i = i + 3\n  if (n .gt. i) goto 20", "k <= 33334"},
		{"i = n", "20 continue\n  do j = 1, 3\n    s = s + j\n  end do\n  i = i - 1\n  if (i .ne. 0) goto 20", "k <= 100000"},
		{"i = 1", "20 if (i .gt. n) goto 40\n  do j = 1, 3\n    s = s + j\n  end do\n  i = i + 2\n  goto 20\n40 continue", "k <= 50001 and (not (k == 50001))"},
		{"i = 1", "20 if (i .gt. n .or. i .ge. 7001) goto 40\n  do j = 1, 3\n    s = s + j\n  end do\n  i = i + 1\n  goto 20\n40 continue", "k <= 7001 and (not (k == 7001))"},
	} {
		res := evaluate(t, `program p
  integer :: i, j, n
  double precision :: s
  n = 100000
  `+tc.init+`
`+tc.loop+`
  print *, s
end program p
`, symeval.Options{})
		if len(res.Params) != 0 {
			t.Errorf("%s: parameters %v", tc.loop, paramNames(res))
		}
		if dom := loopDomain(t, res, "p/L1"); !strings.Contains(dom, tc.want) {
			t.Errorf("%s: the inner loop's domain %s, want %s", tc.loop, dom, tc.want)
		}
	}
}
