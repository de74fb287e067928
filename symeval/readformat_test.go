package symeval_test

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/symeval"
)

// formattedProgram reads its deck with formatted READs (a FORMAT
// statement's label, a constant, a format held in a variable), converts a
// word of a line with an internal formatted READ, reads a module variable
// it never assigned, writes a file and reads it back, dispatches on a
// word with SELECT CASE, and reads array elements (an implied-DO list, a
// triangular nest of them, elements under a format): each value it
// computes sizes an empty loop, and it prints them.
const formattedProgram = `module st
  implicit none
  character(len=8) :: sel
  integer :: counter
end module st
program fmtin
  use st
  implicit none
  integer :: a, b, m, i, n1, n2, n3, n4, n5, n6, n7, n8, n9, n10, n11, n12, n13, n14, k2
  integer :: arr(6), tri(3, 3)
  double precision :: x
  logical :: flag
  character(len=40) :: line, word
  character(len=10) :: fmtv
  open (unit=11, file='deck.txt', status='old')
  read (11, 100) a, b
100 format (I4, I5)
  read (11, '(F6.2, L3)') x, flag
  fmtv = '(2X,A)'
  read (11, fmtv) line
  read (11, '(A)') word
  close (11)
  n1 = a
  n2 = -b
  n3 = nint(4 * x)
  n4 = merge(5, 0, flag)
  n5 = len_trim(line)
  n6 = index(line, 'world')
  read (word(7:), '(I3)') m
  n7 = m
  n8 = counter + 1
  if (sel /= '') then
    n9 = 2
  else
    n9 = 3
  end if
  open (unit=12, file='copy.txt', status='replace')
  write (12, '(A)') 'width 7'
  write (12, '(A,A)') 'depth', ' 5'
  close (12)
  open (unit=12, file='copy.txt', status='old')
  read (12, '(6X,I1)') m
  n10 = m
  read (12, '(A)') word
  close (12)
  select case (word(1:5))
  case ('width')
    n11 = 1
  case ('depth')
    n11 = 4
  case default
    n11 = 9
  end select
  read (word(6:), '(I2)') n12
  arr = 0
  tri = 0
  open (unit=13, file='arr.txt', status='old')
  read (13, *) (arr(k2), k2 = 1, 3), m
  read (13, '(2I4)') arr(4), arr(5)
  read (13, *) ((tri(i, k2), i = 1, k2), k2 = 1, 3)
  close (13)
  n13 = arr(1) + arr(3) + m + k2
  n14 = arr(5) + tri(1, 3) + tri(3, 3) + tri(2, 2)
  print '(i0)', n1, n2, n3, n4, n5, n6, n7, n8, n9, n10, n11, n12, n13, n14
  do i = 1, n1
  end do
  do i = 1, n2
  end do
  do i = 1, n3
  end do
  do i = 1, n4
  end do
  do i = 1, n5
  end do
  do i = 1, n6
  end do
  do i = 1, n7
  end do
  do i = 1, n8
  end do
  do i = 1, n9
  end do
  do i = 1, n10
  end do
  do i = 1, n11
  end do
  do i = 1, n12
  end do
  do i = 1, n13
  end do
  do i = 1, n14
  end do
end program fmtin
`

const formattedDeck = "  12   -3\n  1250  T\n# hello world\ncells 42\n"

// formattedArrays is the file of the program's array reads: list-directed
// into an implied-DO list, formatted into elements, a triangular nest.
const formattedArrays = "4 5 6 9\n   7   8\n1 2 3 4 5 6\n"

// TestFormattedInputAgainstGfortranE2E: the values a program computes from
// its formatted input, from static storage it never assigned, from a file
// it wrote and from a SELECT CASE on words equal gfortran's run of it.
func TestFormattedInputAgainstGfortranE2E(t *testing.T) {
	e2e.Require(t, "gfortran")
	dir := t.TempDir()
	f := filepath.Join(dir, "fmtin.f90")
	if err := writeFile(f, formattedProgram); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(filepath.Join(dir, "deck.txt"), formattedDeck); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(filepath.Join(dir, "arr.txt"), formattedArrays); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "fmtin")
	build := exec.Command("gfortran", "-o", exe, f)
	build.Dir = dir // its module file too
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("gfortran: %v\n%s", err, out)
	}
	run := exec.Command(exe)
	run.Dir = dir
	out, err := run.Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(out))
	evalDir := t.TempDir() // the deck, without the file the run wrote
	if err := writeFile(filepath.Join(evalDir, "deck.txt"), formattedDeck); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(filepath.Join(evalDir, "arr.txt"), formattedArrays); err != nil {
		t.Fatal(err)
	}
	res := evaluate(t, formattedProgram, symeval.Options{Dir: evalDir})
	loops := occsWhere(res, func(n apt.Node) bool { l, ok := n.(*apt.Loop); return ok && len(l.Body) == 0 })
	if len(loops) != len(want) {
		t.Fatalf("%d loops, %d values printed", len(loops), len(want))
	}
	for i, o := range loops {
		dom := o.Body.Set().String()
		if n, _ := strconv.Atoi(want[i]); n > 0 && !strings.Contains(dom, "i <= "+want[i]) {
			t.Errorf("n%d: gfortran %s, domain %s", i+1, want[i], dom)
		}
	}
}
