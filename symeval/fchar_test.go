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
// LEN_TRIM, INDEX, substrings and concatenation.
const charProgram = `program chars
  implicit none
  character(len=32) :: arg, b
  character(len=8) :: c
  integer :: i, n(8)
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
	out, err := exec.Command(exe, word).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(out))
	res := evaluate(t, charProgram, symeval.Options{Args: []string{word}})
	loops := occsWhere(res, func(n apt.Node) bool { _, ok := n.(*apt.Loop); return ok })
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
