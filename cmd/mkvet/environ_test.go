package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// flagged switches work on by an environment variable and sizes it by its
// first command-line argument.
const flagged = `program p
  use mpi
  implicit none
  character(len=8) :: val, arg
  integer :: me, np, ierr, n, i, k, ios
  logical :: on
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  n = 1000
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  on = .false.
  call get_environment_variable('MK_EXTRA', val, status=ios)
  if (ios == 0) on = val == 'yes'
  do i = 1, n
    if (on) then
      do k = 1, 50
      end do
    end if
  end do
  call MPI_FINALIZE(ierr)
end program p
`

// TestCheckEnvironment: an environment variable no -env sets is taken as
// unset, and the note says so; -env sets it; -args gives the command line
// a Fortran program reads.
func TestCheckEnvironment(t *testing.T) {
	src := filepath.Join(t.TempDir(), "flagged.f90")
	if err := os.WriteFile(src, []byte(flagged), 0o644); err != nil {
		t.Fatal(err)
	}
	// inner is how many iterations the inner loop runs; without -args the
	// program's argument count is a parameter, given here.
	inner := func(args ...string) (iters float64, absent []inputJSON) {
		t.Helper()
		out, errs, code := runMkvet(t, append(append([]string{"check", "-json", "-D", "P=2"}, args...), src)...)
		if code == 2 {
			t.Fatalf("check %q: exit 2: %s", args, errs)
		}
		var j checkJSON
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatalf("check %q: %v", args, err)
		}
		for _, n := range j.Nodes {
			if strings.Contains(n.Pos, ":20:") && n.At != nil && n.At.Count != nil {
				iters = n.At.Count.Max
			}
		}
		return iters, j.AbsentInputs
	}
	n, absent := inner("-D", "nargs=0")
	if n != 0 || len(absent) != 1 || !absent[0].Environment || absent[0].Name != "MK_EXTRA" {
		t.Errorf("no -env: inner loop %v iterations, absent inputs %+v; want 0 and MK_EXTRA unset", n, absent)
	}
	_, errs, _ := runMkvet(t, "check", "-D", "P=2,nargs=0", src)
	if !strings.Contains(errs, "the environment variable MK_EXTRA is read (STATUS= ios): taken as unset") ||
		!strings.Contains(errs, "-env MK_EXTRA=VALUE") {
		t.Errorf("no note of the unset variable:\n%s", errs)
	}
	if n, absent = inner("-D", "nargs=0", "-env", "MK_EXTRA=yes"); n != 50000 || len(absent) != 0 {
		t.Errorf("-env MK_EXTRA=yes: inner loop %v iterations, absent inputs %+v; want 50000, none", n, absent)
	}
	if n, _ = inner("-env", "MK_EXTRA=yes", "-args", "40"); n != 2000 {
		t.Errorf("-args 40: inner loop %v iterations, want 2000", n)
	}
	if _, errs, code := runMkvet(t, "check", "-env", "MK_EXTRA", src); code != 2 || !strings.Contains(errs, "want NAME=VALUE") {
		t.Errorf("-env without =: exit %d: %s", code, errs)
	}
}
