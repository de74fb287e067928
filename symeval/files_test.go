package symeval_test

import (
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symeval"
)

// loopsAt counts the occurrences of the loops that start on line.
func loopsAt(res *symeval.Result, line int) int {
	return len(occsWhere(res, func(n apt.Node) bool {
		l, ok := n.(*apt.Loop)
		return ok && l.Span.Start().Line == line
	}))
}

// TestFileWrittenThenRead: a program that writes its own input file when
// none is there and opens it again with STATUS='OLD' finds it: the second
// OPEN succeeds, its check passes, and only the first OPEN is an optional
// input taken as absent.
func TestFileWrittenThenRead(t *testing.T) {
	res := evaluate(t, `program p
  integer :: ios, n, i
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
end program p
`, symeval.Options{})
	if res.Stopped != nil {
		t.Fatalf("stopped at %v: the file the program wrote is not there", res.Stopped)
	}
	if len(res.Inputs) != 1 || res.Inputs[0].Pos.Line != 4 {
		t.Errorf("inputs %+v, want only the OPEN at line 4", res.Inputs)
	}
	if b := loopBodies(t, res, 13); len(b) != 1 {
		t.Errorf("the loop after the READ: %q", b)
	}
}

// TestFileInquireDelete: INQUIRE(EXIST=) sees a file the program made,
// CLOSE(STATUS='DELETE') removes it, and STATUS='NEW' of a file that is
// there fails.
func TestFileInquireDelete(t *testing.T) {
	res := evaluate(t, `program p
  integer :: ios, i, n
  logical :: there
  read *, n
  open (9, file='tmp.dat', status='new', iostat=ios)
  inquire (file='tmp.dat', exist=there)
  if (there) then
    do i = 1, n
    end do
  end if
  open (10, file='tmp.dat', status='new', iostat=ios)
  if (ios == 0) then
    do i = 1, n
    end do
  end if
  close (9, status='delete')
  inquire (file='tmp.dat', exist=there)
  if (there) then
    do i = 1, n
    end do
  end if
  open (9, file='tmp.dat', status='old', iostat=ios)
  if (ios == 0) then
    do i = 1, n
    end do
  end if
end program p
`, symeval.Options{})
	for line, want := range map[int]int{8: 1, 13: 0, 19: 0, 24: 0} {
		if got := loopsAt(res, line); got != want {
			t.Errorf("loop at line %d: %d occurrences, want %d", line, got, want)
		}
	}
	if len(res.Inputs) != 0 {
		t.Errorf("inputs %+v, want none: every file is the program's", res.Inputs)
	}
}
