package symeval_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// TestLeanPastVisitBound: a search loop (an integer log2 by doubling) is
// run trip by trip, so the number of messages after it is exact. Once the
// evaluation's trial walks (here the probe of a loop whose counter grows
// in a loop inside it) are past their bound, the same loop is evaluated
// once through: the count becomes a parameter of the data, never a wrong
// number, and a note says where the bound was passed.
func TestLeanPastVisitBound(t *testing.T) {
	const src = `program p
  use mpi
  integer :: i, k, n, cnt, m, lg, me, np, ierr
  double precision :: buf(100)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  read *, n
  cnt = 0
  do k = 1, n
    do i = 1, 3
      cnt = cnt + 1
    end do
  end do
  m = 1
  lg = 0
  do while (m < 1000)
    m = 2*m
    lg = lg + 1
  end do
  do i = 1, lg
    call MPI_Send(buf, cnt, MPI_DOUBLE_PRECISION, 0, i, MPI_COMM_WORLD, ierr)
  end do
end program p
`
	trips := func(res *symeval.Result) string {
		t.Helper()
		ls := loopOccsAt(t, res, 20)
		if ls[0].Body == nil {
			t.Fatal("the send loop has no body domain")
		}
		return fmt.Sprint(ls[0].Body.Cond)
	}
	full := evaluate(t, src, symeval.Options{Values: map[string]int64{"P": 4}})
	if full.LeanFrom != nil {
		t.Fatalf("a small program passed the default bound at %v", full.LeanFrom)
	}
	if d := trips(full); !strings.Contains(d, "10") || strings.Contains(d, "lg") {
		t.Fatalf("run in full: send loop domain %s, want i up to 10", d)
	}
	if full.TrialVisits == 0 {
		t.Fatal("no trial walk: the test no longer passes the bound by one")
	}
	lean := evaluate(t, src, symeval.Options{Values: map[string]int64{"P": 4}, LeanVisits: full.TrialVisits - 1})
	if lean.LeanFrom == nil {
		t.Fatalf("LeanVisits %d: no LeanFrom", full.TrialVisits-1)
	}
	if d := trips(lean); strings.Contains(d, "<= 10") {
		t.Errorf("lean: send loop domain %s still has the run's trip count", d)
	}
	noted := false
	for _, a := range lean.Assumed {
		noted = noted || strings.Contains(a.What, "node visits")
	}
	if !noted {
		t.Errorf("lean: no note of the bound among %v", lean.Assumed)
	}
}
