package aptrun

import "testing"

// procPointers points a procedure pointer at one of two module routines
// by a value read at run time, calls through it, copies it to another
// pointer and calls through that; symeval's TestProcedurePointers
// evaluates the same program.
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

func TestProcedurePointers(t *testing.T) {
	prog := parseSrc(t, "procptr.f90", procPointers)
	for _, c := range []struct {
		kind        int64
		short, long int64
	}{{1, 5 + 6 + 2, 0}, {2, 2, 50 + 60}} {
		got := mustRun(t, prog, Config{P: 1, Params: map[string]int64{"n": 5, "kind": c.kind}})
		check(t, "procedure pointers", "Iter", got.Iter, want{"kern/short/L1": c.short, "kern/long/L1": c.long})
	}
	bad := parseSrc(t, "null.f90", `program q
  implicit none
  procedure(), pointer :: f => null()
  call f()
end program q
`)
	if _, err := Run(bad, Config{P: 1}); err == nil {
		t.Error("a call through a disassociated pointer runs")
	}
}
