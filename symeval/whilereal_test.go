package symeval_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// A DO WHILE on a REAL clock runs as many trips as the program's floating
// point gives: ten steps of 0.1 fall short of 1.0 and an eleventh runs. The
// counts wanted are gfortran's (-O0, x86-64) for the same loops.
func TestWhileRealClock(t *testing.T) {
	for _, tc := range []struct {
		decl, init, test, step string
		want                   string
	}{
		{"double precision", "0.0d0", "t < 1.0d0", "t = t + 0.1d0", "k <= 11"},
		{"real", "0.0", "t < 1.0", "t = t + 0.1", "k <= 10"},
		{"double precision", "1.0d0", "t > 0.0d0", "t = t - 0.1d0", "k <= 11"},
		{"double precision", "0.0d0", "1.0d0 >= t", "t = t + 0.1d0", "k <= 11"},
		{"double precision", "0.0d0", "t < 100.0d0", "t = 0.01d0 + t", "k <= 10000"},
	} {
		res := evaluate(t, `program p
  `+tc.decl+` :: t, x(10)
  integer :: i
  t = `+tc.init+`
  do while (`+tc.test+`)
    do i = 1, 10
      x(i) = x(i) + t
    end do
    `+tc.step+`
  end do
end program p
`, symeval.Options{})
		if len(res.Params) != 0 {
			t.Errorf("%s: parameters %v", tc.test, paramNames(res))
		}
		if dom := loopDomain(t, res, "p/L1/L1"); !strings.Contains(dom, tc.want) {
			t.Errorf("%s by %s: the inner loop's domain %s, want %s", tc.test, tc.step, dom, tc.want)
		}
	}
}

// DO WHILE (.not. converged .and. it < maxit) runs maxit trips, the test on
// data taken as an exit never taken and said so; a disjunction is not
// bounded by its counter.
func TestWhileCounterAndData(t *testing.T) {
	for _, tc := range []struct {
		test string
		want string // the inner loop's bound on k, "" for none
	}{
		{".not. converged .and. it < maxit", "k <= 40"},
		{"it < maxit .and. res > eps", "k <= 40"},
		{"(res > eps .and. it <= 9) .and. .not. converged", "k <= 10"},
		{"t < 1.0d0 .and. res > eps .and. it < maxit", "k <= 11"},
		{"res > eps .or. it < maxit", ""},
	} {
		res := evaluate(t, `program p
  integer, parameter :: maxit = 40
  integer :: it, j, m
  logical :: converged
  double precision :: x(200), res, eps, t
  read(*,*) eps, m
  converged = .false.
  res = 1.0d0
  it = 0
  t = 0.0d0
  do while (`+tc.test+`)
    it = it + 1
    t = t + 0.1d0
    res = 0.0d0
    do j = 1, m
      res = res + x(j)
    end do
    converged = res < eps
  end do
end program p
`, symeval.Options{})
		dom := loopDomain(t, res, "p/L1/L1")
		noted := exitTakenNever(res)
		if tc.want == "" {
			if strings.Contains(dom, "k <= 40") || noted {
				t.Errorf("%s: inner loop's domain %s, assumed %v: a disjunction with data is bounded by its counter", tc.test, dom, res.Assumed)
			}
			continue
		}
		if !strings.Contains(dom, tc.want) || !noted {
			t.Errorf("%s: inner loop's domain %s, assumed %v: want %s and the data exit taken as never taken", tc.test, dom, res.Assumed, tc.want)
		}
	}
}

// exitTakenNever reports whether the evaluation noted an exit on data it
// takes as never taken.
func exitTakenNever(res *symeval.Result) bool {
	for _, a := range res.Assumed {
		if strings.Contains(a.What, "the counts take it as never taken") {
			return true
		}
	}
	return false
}

// A DO without control whose EXIT tests data computed in floating point (a
// negative-flux fixup repeated until nothing changes) cannot be run to its
// end: its run stops at the first test, and the loop keeps a trip-count
// parameter. The run used to go on with the exit taken as never taken until
// it had made maxRunTrips passes, on every call; the walk of the whole
// program now costs less than the 4096 passes alone did.
func TestRunStopsAtExitOnData(t *testing.T) {
	res := evaluate(t, `program p
  real(8) :: hv(4), fx(4), pc(4), s
  integer :: it, k
  k = 0
  do it = 1, 3
    call random_number(pc)
    hv = 1.0d0
    s = sum(hv)
    fixup: do
      fx = 2.0d0*pc - 1.0d0
      where (fx < 0.0d0) hv = 0.0d0
      if (s == sum(hv)) exit fixup
      s = sum(hv)
      k = k + 1
    end do fixup
  end do
  print *, k
end program p
`, symeval.Options{Values: map[string]int64{symeval.Size: 1}})
	if got := paramNames(res); !slices.Contains(got, "trips_fixup") {
		t.Errorf("parameters %v, want trips_fixup", got)
	}
	if res.Visits > 4096 {
		t.Errorf("the evaluation walked %d nodes: the loop was run past its exit on data", res.Visits)
	}
}
