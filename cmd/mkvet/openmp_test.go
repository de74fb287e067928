package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const ompProgram = `program o
  use mpi
  integer :: me, np, ierr, i, j, n
  real(8) :: s, a(1000)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  n = 1000
  s = 0
!$omp parallel do reduction(+:s) private(j)
  do i = 1, n/np
    do j = 1, 3
      a(i) = i + j
    end do
    s = s + a(i)
  end do
!$omp end parallel do
!$omp parallel
!$omp do schedule(static)
  do i = 1, n
    a(i) = 2 * a(i)
  end do
!$omp end do
!$omp end parallel
  call MPI_Allreduce(MPI_IN_PLACE, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program o
`

// TestOpenMPLoopsKeepCounts: OpenMP directives change no MPI process's
// counts (the output is the one of the program without them), and check
// says which loops they share among threads and the thread count -env
// gives.
func TestOpenMPLoopsKeepCounts(t *testing.T) {
	dir := t.TempDir()
	with, without := filepath.Join(dir, "omp.f90"), filepath.Join(dir, "plain.f90")
	if err := os.WriteFile(with, []byte(ompProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	// The same lines, the directives blank, so positions agree.
	blanked := strings.ReplaceAll(ompProgram, "!$omp", "!    ")
	if err := os.WriteFile(without, []byte(blanked), 0o644); err != nil {
		t.Fatal(err)
	}
	got, errs, _ := runMkvet(t, "check", "-D", "P=4", "-env", "OMP_NUM_THREADS=3", with)
	want, _, _ := runMkvet(t, "check", "-D", "P=4", without)
	if strings.ReplaceAll(got, "omp.f90", "F") != strings.ReplaceAll(want, "plain.f90", "F") {
		t.Errorf("with OpenMP directives:\n%s\nwithout:\n%s", got, want)
	}
	for _, s := range []string{"2 OpenMP work-sharing loops", "parallel do " + with + ":11:3", "do " + with + ":20:3", "OMP_NUM_THREADS=3"} {
		if !strings.Contains(errs, s) {
			t.Errorf("check's notes lack %q:\n%s", s, errs)
		}
	}
}
