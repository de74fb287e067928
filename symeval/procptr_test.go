package symeval_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symeval"
)

// procPointers points a procedure pointer at one of two module routines
// by a value read at run time, calls through it, copies it to another
// pointer and calls through that (internal/aptrun runs the same program).
const procPointers = `module kern
  implicit none
contains
  subroutine short(n)
    integer :: n, i
    do i = 1, n
    end do
  end subroutine short
  subroutine long(n)
    integer :: n, i
    do i = 1, 10*n
    end do
  end subroutine long
end module kern

program p
  use kern
  implicit none
  abstract interface
    subroutine work(n)
      integer :: n
    end subroutine work
  end interface
  procedure(work), pointer :: f => null(), g
  integer :: n, kind
  read *, n, kind
  if (kind == 1) then
    f => short
  else
    f => long
  end if
  call f(n)
  g => f
  call g(n + 1)
  nullify(g)
  g => short
  call g(2)
end program p
`

// routineLoops returns the domains of the occurrences of the loops of the
// routine named r.
func routineLoops(res *symeval.Result, r string) []string {
	var out []string
	for _, o := range occsWhere(res, func(n apt.Node) bool {
		_, ok := n.(*apt.Loop)
		return ok && strings.HasPrefix(n.Base().ID, "kern/"+r+"/")
	}) {
		out = append(out, o.Body.Set().String())
	}
	return out
}

// TestProcedurePointers: a call through a procedure pointer calls the
// routine it holds, each under the condition that it holds it where the
// pointer was set on both sides of a test; a pointer copied holds the
// same; the analyses see the routines it may call.
func TestProcedurePointers(t *testing.T) {
	res := evaluate(t, procPointers, symeval.Options{})
	onlyParams(t, res, "n", "kind")
	short, long := routineLoops(res, "short"), routineLoops(res, "long")
	if len(short) != 3 || len(long) != 2 {
		t.Fatalf("short's loop %q, long's %q: want 3 and 2 occurrences", short, long)
	}
	for _, d := range append(slices.Clone(short[:2]), long...) {
		if !strings.Contains(d, "kind") {
			t.Errorf("domain %s: want the condition on kind", d)
		}
	}
	if !strings.Contains(short[2], "i <= 2") || strings.Contains(short[2], "kind") {
		t.Errorf("the last call's domain %s: want i <= 2 on every path", short[2])
	}
	for _, d := range res.Diags {
		if strings.Contains(d.Msg, "not part of the program") {
			t.Errorf("diagnostic %s", d)
		}
	}
}

// TestProcedurePointerOnData: a pointer set under a test of data may hold
// either routine: the call reaches each at a frequency that is a
// parameter, and a loop of calls through it changes what its routines
// assign.
func TestProcedurePointerOnData(t *testing.T) {
	res := evaluate(t, `module kern2
  implicit none
  integer :: m = 3
contains
  subroutine short(n)
    integer :: n, i
    do i = 1, n
    end do
  end subroutine short
  subroutine bump(n)
    integer :: n
    m = m + n
  end subroutine bump
end module kern2

program q
  use kern2
  implicit none
  procedure(), pointer :: f
  integer :: n, k, i
  real :: x
  read *, n
  call random_number(x)
  if (x > 0.5) then
    f => short
  else
    f => bump
  end if
  call f(n)
  m = 3
  f => bump
  do k = 1, n
    call f(2)
  end do
  do i = 1, m
  end do
end program q
`, symeval.Options{})
	var freq []string
	for _, p := range res.Params {
		if p.Origin == symeval.FromFrequency && strings.Contains(p.What, "call through f") {
			freq = append(freq, p.Name)
		}
	}
	if len(freq) != 2 {
		t.Errorf("frequency parameters %q, want one per routine f may hold", freq)
	}
	if b := loopBodies(t, res, 35); len(b) != 1 || !strings.Contains(b[0], "2*max(n, 0) + 3 >= i") {
		t.Errorf("the loop over m: %q, want i <= 2*n + 3", b)
	}
}
