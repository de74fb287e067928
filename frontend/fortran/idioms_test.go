package fortran

import (
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
)

// TestRealCodeIdioms parses snippets written in the idioms of NPB 3.3-MPI,
// Sweep3D and CloverLeaf and requires no error and no Unknown node.
func TestRealCodeIdioms(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"npb.f", "" +
			"      program npb\n" +
			"      implicit none\n" +
			"      include 'mpif.h'\n" +
			"      character compiletime*11, cs1*(*)\n" +
			"      parameter (compiletime='21 Nov 2026')\n" +
			"      integer*8 npts\n" +
			"      double complex u0(16)\n" +
			"      double precision randlc, timer_read, x(0:15, -1:2)\n" +
			"      external randlc, timer_read\n" +
			"      integer ios, dp_type, ierr, node\n" +
			"      common /mpistuff/ dp_type, node\n" +
			"      logical verified\n" +
			"      data verified /.false./\n" +
			"      open (unit=2, file='inputlu.data', status='old',\n" +
			"     >      iostat=ios)\n" +
			"      if (ios .eq. 0) then\n" +
			"         read (2, *, end=20) npts\n" +
			"   20    close(2)\n" +
			"      end if\n" +
			"      call mpi_bcast(x, 64, dp_type, 0, MPI_COMM_WORLD, ierr)\n" +
			"      x(0, -1) = randlc(x(1, 0), 5.0d0**13)\n" +
			"      if (x(0, 0)) 30, 30, 40\n" +
			"   30 continue\n" +
			"   40 write(*, 2001) compiletime, npts\n" +
			" 2001 format(' Compiled ', a, i12)\n" +
			"      u0(1) = dcmplx(x(0, 0), 0.0d0)\n" +
			"      end\n"},
		{"sweep.f", "" +
			"      SUBROUTINE SWEEP(PHI, NX, NY)\n" +
			"      IMPLICIT DOUBLE PRECISION (A-H, O-Z)\n" +
			"      INCLUDE 'mpif.h'\n" +
			"      DIMENSION PHI(NX, NY), STATUS(MPI_STATUS_SIZE)\n" +
			"      DO 100 IQ = 1, 4\n" +
			"      DO 100 J = 1, NY\n" +
			"         CALL MPI_RECV(PHI(1, J), NX, MPI_DOUBLE_PRECISION,\n" +
			"     &        MPI_ANY_SOURCE, IQ, MPI_COMM_WORLD, STATUS, IERR)\n" +
			"         DO 90 I = 2, NX\n" +
			"            PHI(I, J) = 0.5D0 * (PHI(I-1, J) + PHI(I, J))\n" +
			"   90    CONTINUE\n" +
			"  100 CONTINUE\n" +
			"      RETURN\n" +
			"      END\n"},
		{"clover.f90", "" +
			"MODULE data_module\n" +
			"  IMPLICIT NONE\n" +
			"  REAL(KIND=8), PARAMETER :: g_version=1.3\n" +
			"  INTEGER, PARAMETER :: g_rect=1 &\n" +
			"                       ,g_circ=2\n" +
			"END MODULE data_module\n" +
			"MODULE definitions_module\n" +
			"  USE data_module\n" +
			"  IMPLICIT NONE\n" +
			"  TYPE field_type\n" +
			"    REAL(KIND=8), DIMENSION(:,:), ALLOCATABLE :: density0\n" +
			"    INTEGER :: x_min, x_max\n" +
			"  END TYPE field_type\n" +
			"  TYPE chunk_type\n" +
			"    TYPE(field_type) :: field\n" +
			"  END TYPE chunk_type\n" +
			"  TYPE(chunk_type), ALLOCATABLE :: chunks(:)\n" +
			"  INTERFACE\n" +
			"    SUBROUTINE ext(x)\n" +
			"      REAL(KIND=8) :: x\n" +
			"    END SUBROUTINE ext\n" +
			"  END INTERFACE\n" +
			"CONTAINS\n" +
			"  REAL(KIND=8) FUNCTION parse_getrval(word)\n" +
			"    CHARACTER(LEN=*) :: word\n" +
			"    READ(word, *) parse_getrval\n" +
			"  END FUNCTION parse_getrval\n" +
			"  SUBROUTINE reset(c)\n" +
			"    INTEGER, INTENT(IN) :: c\n" +
			"    INTEGER :: j, k\n" +
			"!$OMP PARALLEL\n" +
			"!$OMP DO\n" +
			"    DO k = 1, 10\n" +
			"      DO j = chunks(c)%field%x_min, chunks(c)%field%x_max\n" +
			"        chunks(c)%field%density0(j, k) = 0.0_8\n" +
			"      ENDDO\n" +
			"    ENDDO\n" +
			"!$OMP END DO\n" +
			"!$OMP END PARALLEL\n" +
			"    IF (c .EQ. 1) WRITE(*, '(a, f5.2)') 'version ', g_version\n" +
			"  END SUBROUTINE reset\n" +
			"END MODULE definitions_module\n"},
	} {
		prog, diags := ParseSource(tc.name, []byte(tc.src), Config{})
		for _, d := range diags {
			if d.Severity == apt.Error {
				t.Errorf("%s", d)
			}
		}
		apt.Inspect(prog, func(n apt.Node) bool {
			if u, ok := n.(*apt.Unknown); ok {
				t.Errorf("%s: Unknown %s", u.Span.Start(), u.Diag.Msg)
			}
			return true
		})
		if tc.name == "clover.f90" {
			s := stmts(prog)
			last := s[len(s)-1]
			if got := apt.FormatOps(last.Ops); got != "store=1" {
				t.Errorf("chunks(c)%%field%%density0(j, k) = 0.0_8 ops %q", got)
			}
			if tp := apt.TypeOf(last.Target); tp.Base != apt.TypeReal || tp.Kind != 8 {
				t.Errorf("component type %v", tp)
			}
			loops := nodes[*apt.Loop](prog)
			if loops[0].OMP != "do" {
				t.Errorf("!$OMP DO not recorded: %q", loops[0].OMP)
			}
		}
	}
}
