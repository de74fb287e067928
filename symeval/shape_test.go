package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symeval"
)

// loopBody returns the body domain of the only occurrence of the loop at
// line (the occurrences' domains, joined, where it has several).
func loopBodies(t *testing.T, res *symeval.Result, line int) []string {
	t.Helper()
	var out []string
	for _, o := range occsWhere(res, func(n apt.Node) bool {
		l, ok := n.(*apt.Loop)
		return ok && l.Span.Start().Line == line
	}) {
		if o.Body == nil {
			t.Fatalf("the loop at line %d was run, not evaluated symbolically", line)
		}
		out = append(out, o.Body.Set().String())
	}
	return out
}

// onlyParams fails unless the evaluation's parameters are exactly names.
func onlyParams(t *testing.T, res *symeval.Result, names ...string) {
	t.Helper()
	var got []string
	for _, p := range res.Params {
		got = append(got, p.Name+" ("+p.What+")")
	}
	if len(got) != len(names) {
		t.Fatalf("parameters %q, want %q", got, names)
	}
	for i, p := range res.Params {
		if p.Name != names[i] {
			t.Fatalf("parameters %q, want %q", got, names)
		}
	}
}

// TestAllocatableElements: the elements of ALLOCATABLE and POINTER arrays
// are followed at the bounds their ALLOCATE gives (lower bounds other than
// 1 included), so that values kept in them are loop bounds; STAT= is 0, so
// the program's error check passes.
func TestAllocatableElements(t *testing.T) {
	res := evaluate(t, `module m
  integer, allocatable :: c(:, :)
  integer, pointer :: q(:)
end module m
program p
  use m
  integer :: n, i, j, ios
  read *, n
  allocate (c(0:2, n), q(-1:n), stat=ios)
  if (ios /= 0) stop
  do j = 1, 4
    c(0, j) = j
    c(2, j) = 2*j + n
  end do
  q(-1) = 5
  q(n) = 7
  do i = 1, c(2, 3)
  end do
  do i = 1, q(-1) + q(n) + c(0, 4)
  end do
end program p
`, symeval.Options{})
	onlyParams(t, res, "n")
	if res.Stopped != nil || len(res.Assumed) > 0 {
		t.Errorf("the check of STAT= is decided: stopped %v, assumed %v", res.Stopped, res.Assumed)
	}
	// q(-1) and q(n) are one element where n = -1.
	for line, want := range map[int]string{17: "n + 6 >= i", 19: "(n + 1 == 0 and i <= 18) or ((not (n + 1 == 0)) and i <= 16)"} {
		if b := loopBodies(t, res, line); len(b) != 1 || !strings.Contains(b[0], want) {
			t.Errorf("loop at line %d: body %q, want %q", line, b, want)
		}
	}
}

// TestAllocateFollowsPaths: an ALLOCATE in one arm of an IF gives its
// bounds in that arm only; after the IF each path has its own.
func TestAllocateFollowsPaths(t *testing.T) {
	res := evaluate(t, `program p
  integer, allocatable :: a(:, :)
  integer :: n, i
  read *, n
  allocate (a(2, 4))
  a(1, 2) = 7
  if (n > 3) then
    deallocate (a)
    allocate (a(5, 4))
    a(1, 2) = 9
    do i = 1, a(1, 2)
    end do
  else
    do i = 1, a(1, 2)
    end do
  end if
  do i = 1, a(1, 2)
  end do
end program p
`, symeval.Options{})
	onlyParams(t, res, "n")
	for line, want := range map[int]string{11: "i <= 9", 14: "i <= 7"} {
		if b := loopBodies(t, res, line); len(b) != 1 || !strings.Contains(b[0], want) {
			t.Errorf("loop at line %d: body %q, want %q", line, b, want)
		}
	}
	// Each path reads a(1, 2) at its own bounds.
	b := loopBodies(t, res, 17)
	if len(b) != 1 || !strings.Contains(b[0], "n >= 4") || !strings.Contains(b[0], "i <= 9") || !strings.Contains(b[0], "i <= 7") {
		t.Errorf("loop after the IF: body %q, want 9 iterations where n > 3, 7 elsewhere", b)
	}
}

// TestAssumedShapeDummy: an assumed-shape dummy has its actual's extents
// (an allocated array's, a declared one's) and its own lower bounds.
func TestAssumedShapeDummy(t *testing.T) {
	res := evaluate(t, `program p
  integer, allocatable :: a(:, :)
  integer :: b(3, 4)
  integer :: n
  read *, n
  allocate (a(0:3, 4))
  a(2, 3) = n
  b(3, 3) = 2*n
  call s(a)
  call s(b)
contains
  subroutine s(c)
    integer :: c(:, :)
    integer :: i
    do i = 1, c(3, 3)
    end do
  end subroutine s
end program p
`, symeval.Options{})
	onlyParams(t, res, "n")
	b := loopBodies(t, res, 15)
	if len(b) != 2 || !strings.Contains(b[0], "n >= i") || !strings.Contains(b[1], "2*n >= i") {
		t.Errorf("the loop in s: bodies %q, want n and 2*n iterations", b)
	}
}

// TestAllocatableFootprint: a loop nest's footprint counts an allocatable
// array at its ALLOCATE's size.
func TestAllocatableFootprint(t *testing.T) {
	res := evaluate(t, `program p
  double precision, allocatable :: x(:, :)
  integer :: n, i
  read *, n
  allocate (x(n, 0:2))
  do i = 1, n
    x(i, 0) = 0
  end do
end program p
`, symeval.Options{})
	o := occsWhere(res, func(n apt.Node) bool { _, ok := n.(*apt.Loop); return ok })
	if len(o) != 1 || o[0].Footprint == nil || o[0].Footprint.Unknown != "" {
		t.Fatalf("footprint of the loop: %+v", o)
	}
	if got := o[0].Footprint.Bytes.String(); got != "24*max(n, 0)" {
		t.Errorf("footprint %s bytes, want 24*max(n, 0)", got)
	}
}

// SIZE, LBOUND and UBOUND of arrays whose bounds the evaluation knows: an
// ALLOCATE in the arm an IF takes, explicit bounds, an assumed-shape dummy
// (its own lower bound 1); the sum sizes a loop (worked by hand: 7 + 21 +
// 3 + (-2) + 4 + 7 + 1 + 7 = 48).
func TestSizeAndBounds(t *testing.T) {
	res := evaluate(t, `module dm
  real(8), allocatable :: v(:), w(:,:)
end module dm
program p
  use dm
  implicit none
  integer :: ng, i, n, timedep
  real(8) :: z(-2:4)
  ng = 7
  timedep = 1
  if (timedep == 1) then
    allocate (v(ng))
  else
    allocate (v(0))
  end if
  allocate (w(ng, 3))
  n = size(v) + size(w) + size(w, 2) + lbound(z, 1) + ubound(z, dim=1) + size(z)
  call s(v, n)
  do i = 1, n
  end do
end program p
subroutine s(a, n)
  real(8) :: a(:)
  integer :: n
  n = n + lbound(a, 1) + ubound(a, 1)
end subroutine s
`, symeval.Options{})
	if dom := loopDomain(t, res, "p/L1"); !strings.Contains(dom, "i <= 48") {
		t.Errorf("domain %s, want 1 <= i <= 48", dom)
	}
}
