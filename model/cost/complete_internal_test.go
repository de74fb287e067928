package cost

import (
	"slices"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/symeval"
)

// An evaluation at a point is complete when every parameter its counts can
// mention has a value: an input read that a loop's bound or a message's
// size rests on makes it incomplete; an annotated parameter nothing counted
// uses, a branch frequency or an unbounded trip count (the program's data)
// do not.
func TestMissingInputs(t *testing.T) {
	const src = `program p
  use mpi
  implicit none
  integer :: n, m, k, iters, me, ierr, i
  double precision :: x(1000), s
  !mk$ param iters
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  read *, n
  read *, m
  read *, k
  do i = 1, n
    if (x(i) > 0.5d0) s = s + x(i)
  end do
  call MPI_Bcast(x, m, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  if (k > 100) print *, iters
end program p
`
	prog, diags := fortran.ParseSource("t.f90", []byte(src), fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %s", d)
		}
	}
	for _, tc := range []struct {
		values map[string]int64
		want   []string
	}{
		{map[string]int64{Size: 4}, []string{"k", "m", "n"}},
		{map[string]int64{Size: 4, "n": 10}, []string{"k", "m"}},
		{map[string]int64{Size: 4, "n": 10, "m": 3, "k": 7}, nil},
	} {
		res, err := symeval.Evaluate(prog, symeval.Options{Values: tc.values})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range missingInputs(res, tc.values) {
			got = append(got, p.Name)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("at %v: missing %v, want %v", tc.values, got, tc.want)
		}
	}
}
