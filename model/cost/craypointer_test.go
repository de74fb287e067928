package cost_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// TestAllocMemWithCrayPointer: memory from MPI_ALLOC_MEM, reached through a
// Cray pointer as MPI 2's Fortran binding has it, is a local MPI call (no
// "not part of the program"), and the loops over the pointee count as the
// interpreter runs them on every rank.
func TestAllocMemWithCrayPointer(t *testing.T) {
	const src = `program cray
  use mpi
  implicit none
  integer :: ierr, me, np, i, n
  integer(kind=MPI_ADDRESS_KIND) :: sz
  real(8) :: buf(1), s
  pointer (pbuf, buf)
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  n = 4003
  sz = 8*n
  call mpi_alloc_mem(sz, MPI_INFO_NULL, pbuf, ierr)
  s = 0
  do i = 1, n/np + me
    s = s + i
  end do
  call mpi_free_mem(buf, ierr)
  call mpi_finalize(ierr)
end program
`
	prog, diags := fortran.ParseSource("cray.f90", []byte(src), fortran.Config{})
	for _, d := range diags {
		t.Fatalf("parse: %s", d)
	}
	for _, np := range []int64{1, 3, 4} {
		env := map[string]int64{cost.Size: np}
		rep, err := cost.AnalyzeAt(prog, cost.Options{}, env)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range rep.Diags {
			if strings.Contains(d.Msg, "not part of the program") {
				t.Errorf("P=%d: %s", np, d)
			}
		}
		pt, err := rep.At(env)
		if err != nil {
			t.Fatal(err)
		}
		for rank := range np {
			got, err := aptrun.Run(prog, aptrun.Config{P: np, Rank: rank, Params: map[string]int64{}})
			if err != nil {
				t.Fatalf("P=%d rank %d: %v", np, rank, err)
			}
			compare(t, rep, pt, got, env, rank, nil)
		}
	}
}
