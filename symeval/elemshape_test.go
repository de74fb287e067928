package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symeval"
)

// An allocatable component of an array element has the bounds its own
// ALLOCATE gave it (each level of a multigrid hierarchy its grid): in an
// array statement over it, in a routine given the element (SIZE, UBOUND,
// a routine that allocates it), in one given the component as an
// assumed-shape array, through a pointer to the element (its scalar
// components too), and after it is freed and allocated again.
func TestElementComponentShapes(t *testing.T) {
	res := evaluate(t, `module m
  type level
    real(8), allocatable :: u(:,:)
    integer :: n
  end type level
contains
  subroutine sweep(lv)
    type(level), intent(inout) :: lv
    integer :: j
    do j = 1, size(lv%u, 2) - 2
    end do
  end subroutine sweep
  subroutine make(lv, n)
    type(level), intent(inout) :: lv
    integer, intent(in) :: n
    allocate(lv%u(n, 2))
  end subroutine make
  subroutine cols(a)
    real(8), intent(inout) :: a(:,:)
    integer :: j
    do j = 1, ubound(a, 1)
    end do
  end subroutine cols
end module m
program p
  use m
  type(level), allocatable, target :: lev(:)
  type(level), pointer :: lp
  integer :: n, l, j
  read *, n
  allocate(lev(4))
  do l = 1, 3
    lev(l)%n = n / 2**(l-1)
    allocate(lev(l)%u(0:lev(l)%n+1, 0:lev(l)%n+1))
    lev(l)%u = 0d0
  end do
  call make(lev(4), 7)
  do l = 1, 4
    call sweep(lev(l))
    call cols(lev(l)%u)
  end do
  lp => lev(2)
  do j = 1, size(lp%u)
  end do
  do j = 1, lp%n
  end do
  deallocate(lev(1)%u)
  allocate(lev(1)%u(5, 5))
  call sweep(lev(1))
end program p
`, symeval.Options{})
	onlyParams(t, res, "n")
	var got []string
	for _, line := range []int{10, 21, 43, 45} {
		got = append(got, loopBodies(t, res, line)...)
	}
	want := []string{
		// sweep: the three levels, the one make allocated, the first again
		"j >= 1 and max(n + 2, 0) >= j + 2", "j >= 1 and max(trunc(n/2) + 2, 0) >= j + 2", "j >= 1 and max(trunc(n/4) + 2, 0) >= j + 2",
		"j >= 1 and j <= 0", "j >= 1 and j <= 3",
		// cols
		"j >= 1 and max(n + 2, 0) >= j", "j >= 1 and max(trunc(n/2) + 2, 0) >= j", "j >= 1 and max(trunc(n/4) + 2, 0) >= j", "j >= 1 and j <= 7",
		// through lp
		"j >= 1 and max(trunc(n/2) + 2, 0)^2 >= j", "j >= 1 and trunc(n/2) >= j",
	}
	if len(got) != len(want) {
		t.Fatalf("loop bodies %q, want %q", got, want)
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("loop body %d: %q, want %q", i, got[i], want[i])
		}
	}
	// lev(l)%u = 0d0 counts each level's elements.
	var sizes []string
	for _, o := range occsWhere(res, func(n apt.Node) bool { _, ok := n.(*apt.Block); return ok }) {
		for _, sz := range o.Sizes {
			if sz != nil {
				e, _ := sz.Single()
				sizes = append(sizes, e.String())
			}
		}
	}
	if s, want := strings.Join(sizes, " "), "max(n + 2, 0)^2 max(trunc(n/2) + 2, 0)^2 max(trunc(n/4) + 2, 0)^2"; s != want {
		t.Errorf("element counts %q, want %q", s, want)
	}
}

// The elements of an INTEGER allocatable component of an array element
// are that element's own (a block's neighbour list), placed by its own
// bounds: values stored one by one or by a whole-component assignment
// are read back as loop bounds, and SIZE of the component is no value
// of the data.
func TestElementComponentValues(t *testing.T) {
	res := evaluate(t, `program p
  type blk
    integer, allocatable :: nbr(:), cnt(:,:)
  end type blk
  type(blk), allocatable :: bs(:)
  integer :: b, k, i
  allocate(bs(3))
  do b = 1, 3
    allocate(bs(b)%nbr(0:b), bs(b)%cnt(2, b))
    bs(b)%cnt = 1
    do k = 0, b
      bs(b)%nbr(k) = k + b
    end do
    bs(b)%cnt(2, b) = 5*b
  end do
  do b = 1, 3
    do i = 1, bs(b)%nbr(size(bs(b)%nbr) - 1) + bs(b)%cnt(2, b) + bs(b)%cnt(1, 1)
    end do
  end do
end program p
`, symeval.Options{})
	onlyParams(t, res)
	got := loopBodies(t, res, 17)
	want := []string{"i <= 8 ", "i <= 15 ", "i <= 22 "}
	if len(got) != len(want) {
		t.Fatalf("loop bodies %q, want %q", got, want)
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("loop body %d: %q, want %q", i, got[i], want[i])
		}
	}
}
