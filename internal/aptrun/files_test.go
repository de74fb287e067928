package aptrun

import "testing"

// TestFilesMade: with Config.NoInputFiles a file the run writes is there
// when it opens it again (STATUS='OLD' succeeds, STATUS='NEW' fails),
// until CLOSE(STATUS='DELETE') removes it; symeval/files_test.go runs the
// same rules.
func TestFilesMade(t *testing.T) {
	prog := parseSrc(t, "files.f90", `program p
  integer :: ios, n, i, s
  n = 4
  open (unit=7, file='run.in', status='old', action='read', iostat=ios)
  if (ios /= 0) then
    open (unit=8, file='run.in ', status='replace', action='write')
    write (8, *) n
    close (8)
    open (unit=7, file='run.in', status='old', action='read', iostat=ios)
  end if
  if (ios /= 0) stop 'no input'
  read (7, *) n
  do i = 1, n
  end do
  open (10, file='run.in', status='new', iostat=ios)
  do i = 1, ios
  end do
  close (7, status='delete')
  open (7, file='run.in', status='old', iostat=ios)
  do i = 1, ios
  end do
end program p
`)
	c := mustRun(t, prog, Config{P: 1, NoInputFiles: true, Params: map[string]int64{"n": 6}})
	check(t, "files", "Iter", c.Iter, want{"p/L1": 6, "p/L2": 17, "p/L3": 2})
}
