package cost_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/model/cost"
)

// TestGotoCountersAgainstExecution: random FORTRAN 77 iteration loops
// built from GO TO, as Sweep3D writes its outer iteration, whose test at
// the bottom stops on a counter (its = its + c at the top of the loop)
// against a limit that comes from the deck: a REAL epsi read into a small
// table and unpacked, the test `(err > epsi .and. epsi >= 0) .or. (its <
// int(-epsi+.99) .and. epsi < 0)` deciding on the counter alone when epsi
// is negative, whatever err the data gives. A flag set from the counter
// (its > lim) selects the arm of a subroutine the loop calls, and a branch on
// the data that sets a loop's bound keeps the outer loop from being run
// pass by pass. Every node's per-rank count at P =
// 1..3 equals the interpreter's run, and no trip count is left a
// parameter.
func TestGotoCountersAgainstExecution(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 3))
	for k := range 12 {
		start := rng.IntN(5) - 2
		step := 1 + rng.IntN(3)
		passes := 2 + rng.IntN(10)
		// int(-epsi+.99) = limit: the loop goes back while its < limit.
		limit := start + step*passes
		for limit < 1 { // epsi < 0
			passes++
			limit += step
		}
		epsi := fmt.Sprintf("%d.0", -limit)
		// The test reads the counter itself, or a flag the body sets
		// from it (which only a walk of the body finds).
		test := `(err > epsi .and. epsi >= 0.0d0) .or. &
      (its < int(-epsi + .99) .and. epsi < 0.0d0)`
		if k%2 == 1 {
			test = "more"
		}
		flagAt := start + rng.IntN(step*passes+1)
		src := fmt.Sprintf(`program iter
  use mpi
  implicit none
  double precision :: epsi, err, dat(4), x(200)
  integer :: its, m, i, j, lim, me, ierr
  logical :: fix, more
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  open (10, file='deck.in')
  read (10, *) epsi, lim
  close (10)
  dat(1) = 0.1d0
  dat(4) = epsi
  epsi = dat(4)
  do i = 1, 200
    x(i) = dble(mod(7*i, 13))
  end do
  its = %d
  err = 1.0d0
10 continue
  its = its + %d
  fix = .false.
  if (its > lim) fix = .true.
  ! A branch on the data that sets a value a loop bound reads: a run
  ! of the loop pass by pass stops there, so the loop is evaluated
  ! symbolically (its frequency is given as 0, what the data does).
  if (x(150) > 1.0d3) then
    m = 1 + mod(its, 3)
  else
    m = 1 + mod(its, 3)
  end if
  do j = 1, m + 1 + me
    x(j) = x(j) * 0.5d0 + err
  end do
  call sweep(x, fix)
  err = x(3)
  more = its < int(-epsi + .99)
  if (%s) go to 10
  print *, its, err
  call MPI_Finalize(ierr)
end program iter

subroutine sweep(x, fix)
  implicit none
  double precision :: x(200)
  logical :: fix
  integer :: i
  if (.not. fix) then
    do i = 1, 100
      x(i) = x(i) + 1.0d0
    end do
  else
    do i = 1, 40
      x(i) = x(i) - 1.0d0
    end do
  end if
end subroutine sweep
`, start, step, test)
		deck := fmt.Sprintf("%s %d\n", epsi, flagAt)
		line := 1 + strings.Count(src[:strings.Index(src, "if (x(150)")], "\n")
		freq := fmt.Sprintf("pct_iter_%d", line)
		rep := againstInterpreterAt(t, k, src, "deck.in", deck, int64(1+rng.IntN(3)), map[string]int64{freq: 0})
		if !slices.ContainsFunc(rep.Params, func(p *cost.Param) bool { return p.Name == freq }) {
			t.Fatalf("program %d: no parameter %s: the branch on the data is not where the test expects", k, freq)
		}
		for _, p := range rep.Params {
			if p.Origin == cost.FromTripCount || p.Origin == cost.FromUnresolved {
				t.Errorf("program %d: %s (%s) is a parameter; the deck decides it\n%s\ndeck: %s", k, p.Name, p.What, src, deck)
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
}
