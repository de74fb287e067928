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

// charProgram sizes its loops with integers computed from character
// values: a command-line argument and constants, through ADJUSTL, TRIM,
// LEN_TRIM, INDEX, SCAN, VERIFY, IACHAR, ACHAR, substrings read and
// assigned (a line lowered a character at a time), and concatenation; and
// with the first free unit number a search by INQUIRE(OPENED=) finds.
const charProgram = `program chars
  implicit none
  character(len=32) :: arg, b, low
  character(len=8) :: c
  integer :: i, n(15), u
  logical :: used
  call get_command_argument(1, arg)
  b = adjustl(arg)
  c = 'ab' // 'cab'
  n(1) = len_trim(arg)
  n(2) = len_trim(b)
  n(3) = index(b, 'e')
  n(4) = index(c, 'ab', back=.true.)
  n(5) = len(trim(b) // '/x')
  n(6) = index(b(2:5), 'l')
  n(7) = 0
  if (b(1:1) == 'f' .and. c(3:4) == 'ca') n(7) = 3
  n(8) = len_trim(adjustl(c(2:)))
  n(9) = scan(b, 'e.')
  n(10) = scan(b, 'e.', back=.true.)
  n(11) = verify(b, 'fil')
  n(12) = iachar(b(2:2)) - 90
  low = 'MiXeD=Case'
  do i = 1, len(low)
    if (iachar(low(i:i)) > 64 .and. iachar(low(i:i)) < 91) low(i:i) = achar(iachar(low(i:i)) + 32)
  end do
  n(13) = index(low, 'xed=c')
  open (7, file='u7.txt', status='replace')
  open (8, file='u8.txt', status='replace')
  open (10, file='u10.txt', status='replace')
  do u = 7, 99
    inquire (unit=u, opened=used)
    if (.not. used) exit
  end do
  n(14) = u
  close (8)
  do u = 7, 99
    inquire (unit=u, opened=used)
    if (.not. used) exit
  end do
  n(15) = u
  print '(*(i0, 1x))', n
  do i = 1, n(1)
  end do
  do i = 1, n(2)
  end do
  do i = 1, n(3)
  end do
  do i = 1, n(4)
  end do
  do i = 1, n(5)
  end do
  do i = 1, n(6)
  end do
  do i = 1, n(7)
  end do
  do i = 1, n(8)
  end do
  do i = 1, n(9)
  end do
  do i = 1, n(10)
  end do
  do i = 1, n(11)
  end do
  do i = 1, n(12)
  end do
  do i = 1, n(13)
  end do
  do i = 1, n(14)
  end do
  do i = 1, n(15)
  end do
end program chars
`

// TestCharacterValuesAgainstGfortranE2E: the integers a program computes
// from known character values equal gfortran's.
func TestCharacterValuesAgainstGfortranE2E(t *testing.T) {
	e2e.Require(t, "gfortran")
	dir := t.TempDir()
	f := filepath.Join(dir, "chars.f90")
	if err := writeFile(f, charProgram); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "chars")
	if out, err := exec.Command("gfortran", "-o", exe, f).CombinedOutput(); err != nil {
		t.Fatalf("gfortran: %v\n%s", err, out)
	}
	const word = "   filename.deck"
	run := exec.Command(exe, word)
	run.Dir = dir // it opens files
	out, err := run.Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(out))
	res := evaluate(t, charProgram, symeval.Options{Args: []string{word}})
	// The loops sized by n (the empty ones), in order.
	loops := occsWhere(res, func(n apt.Node) bool { l, ok := n.(*apt.Loop); return ok && len(l.Body) == 0 })
	if len(loops) != len(want) {
		t.Fatalf("%d loops, %d values printed", len(loops), len(want))
	}
	for i, o := range loops {
		n, _ := strconv.Atoi(want[i])
		dom := o.Body.Set().String()
		if n == 0 && !strings.Contains(dom, "false") && strings.Contains(dom, "i >= 1") && !strings.Contains(dom, "i <= 0") {
			t.Errorf("n(%d): gfortran 0, domain %s", i+1, dom)
		}
		if n > 0 && !strings.Contains(dom, "i <= "+want[i]) {
			t.Errorf("n(%d): gfortran %s, domain %s", i+1, want[i], dom)
		}
	}
}

// A module variable at its initial value, passed to a routine, is that
// value there too.
func TestModuleInitialValueThroughDummy(t *testing.T) {
	res := evaluate(t, `module g
  integer :: iunit = 10
end module g
program p
  use g
  call s(iunit)
end program p
subroutine s(u)
  integer :: u, i
  do i = 1, u
  end do
end subroutine s
`, symeval.Options{})
	if dom := loopDomain(t, res, "s/L1"); !strings.Contains(dom, "i <= 10") {
		t.Errorf("domain %s, want 1 <= i <= 10", dom)
	}
}

// A substring assigned where the evaluation does not know where (a
// position read at run time) leaves the variable's text unknown, not as
// it was: INDEX of what was stored is then no number.
func TestSubstringStoreAtUnknownPosition(t *testing.T) {
	res := evaluate(t, `program p
  character(len=8) :: c
  integer :: k, n, i
  read *, k
  c = 'abcdefgh'
  c(k:k) = 'x'
  n = index(c, 'x')
  do i = 1, n
  end do
end program p
`, symeval.Options{})
	if dom := loopDomain(t, res, "p/L1"); strings.Contains(dom, "i <= 0") || strings.Contains(dom, "false") {
		t.Errorf("domain %s: the store at an unknown position was dropped (c kept 'abcdefgh', INDEX 0)", dom)
	}
}

// wordsModule has a function that counts its calls in taken: a parser's
// next-word function, which consumes a word each time it runs.
const wordsModule = `module words
  implicit none
  integer :: taken = 0
contains
  function nextword() result(w)
    character(len=8) :: w
    taken = taken + 1
    w = 'abc'
  end function nextword
end module words
`

// An intrinsic of a function reference calls the function once, as the
// run does: a parser's next-word function inside TRIM consumes one word.
func TestIntrinsicCallsItsArgumentOnce(t *testing.T) {
	res := evaluate(t, wordsModule+`program p
  use words
  implicit none
  character(len=8) :: s
  integer :: i, n
  s = trim(nextword())
  n = len_trim(adjustl(nextword())) + 10*taken
  do i = 1, n
  end do
end program p
`, symeval.Options{})
	// Two calls: taken = 2, len_trim = 3.
	if dom := loopDomain(t, res, "p/L1"); !strings.Contains(dom, "i <= 23") {
		t.Errorf("domain %s, want 1 <= i <= 23", dom)
	}
}

// A WRITE to a file the program writes calls a function among its items
// once, as the run does.
func TestWriteCallsItsItemsOnce(t *testing.T) {
	res := evaluate(t, wordsModule+`program p
  use words
  implicit none
  integer :: i
  open (unit=12, file='copy.txt', status='replace')
  write (12, '(A)') nextword()
  close (12)
  do i = 1, 10*taken
  end do
end program p
`, symeval.Options{Dir: t.TempDir()})
	if dom := loopDomain(t, res, "p/L1"); !strings.Contains(dom, "i <= 10") || strings.Contains(dom, "20") {
		t.Errorf("domain %s, want 1 <= i <= 10", dom)
	}
}
