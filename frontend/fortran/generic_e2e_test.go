package fortran

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/e2e"
)

// genericProgram calls the generic bcast with actuals of each type, kind
// and rank, positionally and by keyword; each specific prints its name.
const genericProgram = `module comm
  implicit none
  integer, parameter :: i_knd = selected_int_kind(8), r_knd = selected_real_kind(15)
  interface bcast
    module procedure bcast_i_scalar, bcast_i_1d, bcast_d_scalar, bcast_d_1d
  end interface bcast
  interface glmax
    module procedure glmax_i, glmax_d
  end interface
contains
  subroutine bcast_i_scalar(value, root)
    integer(i_knd), intent(inout) :: value
    integer(i_knd), intent(in) :: root
    print '(a)', 'bcast_i_scalar'
  end subroutine bcast_i_scalar
  subroutine bcast_i_1d(value, dlen, root)
    integer(i_knd), intent(in) :: dlen, root
    integer(i_knd), dimension(dlen), intent(inout) :: value
    print '(a)', 'bcast_i_1d'
  end subroutine bcast_i_1d
  subroutine bcast_d_scalar(value, root)
    real(r_knd), intent(inout) :: value
    integer(i_knd), intent(in) :: root
    print '(a)', 'bcast_d_scalar'
  end subroutine bcast_d_scalar
  subroutine bcast_d_1d(value, dlen, root)
    integer(i_knd), intent(in) :: dlen, root
    real(r_knd), dimension(dlen), intent(inout) :: value
    print '(a)', 'bcast_d_1d'
  end subroutine bcast_d_1d
  subroutine glmax_i(value, comm, opt)
    integer(i_knd), intent(inout) :: value
    integer(i_knd), intent(in) :: comm
    integer(i_knd), intent(in), optional :: opt
    print '(a)', 'glmax_i'
  end subroutine glmax_i
  subroutine glmax_d(value, comm)
    real(r_knd), intent(inout) :: value
    integer(i_knd), intent(in) :: comm
    print '(a)', 'glmax_d'
  end subroutine glmax_d
end module comm

program p
  use comm
  implicit none
  integer(i_knd) :: n, iv(4), root
  real(r_knd) :: x, dv(3, 2)
  n = 1
  root = 0
  x = 1.0_r_knd
  call bcast(n, root)
  call bcast(iv, 4_i_knd, root)
  call bcast(x, root)
  call bcast(dv(:, 1), 3_i_knd, root)
  call bcast(iv(2), root)
  call glmax(x, root)
  call glmax(n, comm=root)
  call glmax(n, root, opt=root)
end program p
`

// TestGenericResolutionAgainstGfortranE2E: every CALL of a generic names
// the specific gfortran's run calls.
func TestGenericResolutionAgainstGfortranE2E(t *testing.T) {
	want := gfortranRun(t, "generic.f90", genericProgram)
	prog, diags := ParseSource("generic.f90", []byte(genericProgram), Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %v", d)
		}
	}
	var got []string
	apt.Inspect(prog.Routine("p"), func(n apt.Node) bool {
		if c, ok := n.(*apt.Call); ok {
			got = append(got, c.Callee)
		}
		return true
	})
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("mkvet calls\n  %s\ngfortran's run calls\n  %s", strings.Join(got, " "), strings.Join(want, " "))
	}
}

// gfortranRun builds src with gfortran (its modules in a temporary
// directory) and returns the words its run prints.
func gfortranRun(t *testing.T, name, src string) []string {
	t.Helper()
	e2e.Require(t, "gfortran")
	dir := t.TempDir()
	f := filepath.Join(dir, name)
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "prog")
	if out, err := exec.Command("gfortran", "-J", dir, "-o", exe, f).CombinedOutput(); err != nil {
		t.Fatalf("gfortran: %v\n%s", err, out)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(out))
}
