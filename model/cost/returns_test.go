package cost_test

import (
	"testing"

	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// earlyReturn has a function that returns at once for one argument and
// computes its result in a loop for the others (NPB FT's ilog2), and a
// subroutine that returns early on some ranks after setting its output:
// the loops after the calls run as many times as the values the
// returning paths left say.
const earlyReturn = `program p
  use mpi
  integer :: np, me, ierr, i, s, k, m, lg2
  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  k = lg2(np)
  s = 0
  do i = 1, 3*k + 2
    s = s + i
  end do
  call pick(me, m)
  do i = 1, m
    s = s + i
  end do
  print *, s
  call MPI_Finalize(ierr)
end program p

integer function lg2(n)
  integer :: n, nn
  if (n == 1) then
    lg2 = 0
    return
  end if
  lg2 = 1
  nn = 2
  do while (nn < n)
    nn = nn * 2
    lg2 = lg2 + 1
  end do
end function lg2

subroutine pick(me, m)
  integer :: me, m
  m = 5
  if (mod(me, 3) == 0) then
    m = 2
    return
  end if
  if (me > 4) return
  m = m + me
end subroutine pick
`

// TestEarlyReturnsAgainstExecution: every loop's per-rank count at P = 1
// to 16 equals the concrete execution's (aptrun), through a function and
// a subroutine that return early.
func TestEarlyReturnsAgainstExecution(t *testing.T) {
	prog, diags := fortran.ParseSource("r.f90", []byte(earlyReturn), fortran.Config{})
	for _, d := range diags {
		if d.Severity == 1 {
			t.Fatalf("parse: %s", d)
		}
	}
	for np := int64(1); np <= 16; np++ {
		env := map[string]int64{cost.Size: np}
		rep, err := cost.AnalyzeAt(prog, cost.Options{}, env)
		if err != nil {
			t.Fatal(err)
		}
		if m := rep.MissingParams(env); len(m) > 0 {
			t.Fatalf("P=%d: values asked: %v", np, m)
		}
		pt, err := rep.At(env)
		if err != nil {
			t.Fatal(err)
		}
		for rank := int64(0); rank < np; rank++ {
			got, err := aptrun.Run(prog, aptrun.Config{P: np, Rank: rank, Params: map[string]int64{}})
			if err != nil {
				t.Fatalf("execution at P=%d rank %d: %v", np, rank, err)
			}
			compare(t, rep, pt, got, env, rank, nil)
		}
	}
}
