package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// tiles keeps per-tile sizes two levels below the elements of an array of
// derived type (chunk%tiles(t)%field%x_max) and passes them to a kernel.
const tiles = `module tiles_m
  implicit none
  type field_t
    integer :: x_min, x_max
    integer :: nbr(2)
  end type field_t
  type tile_t
    integer :: cells
    type(field_t) :: field
  end type tile_t
  type chunk_t
    type(tile_t), allocatable :: tiles(:)
  end type chunk_t
  type(chunk_t) :: chunk
end module tiles_m

program p
  use tiles_m
  implicit none
  integer :: n, t, i, k
  read *, n
  allocate(chunk%tiles(2))
  do t = 1, 2
    chunk%tiles(t)%cells = n*t
    chunk%tiles(t)%field%x_min = 1
    chunk%tiles(t)%field%x_max = chunk%tiles(t)%cells
    chunk%tiles(t)%field%nbr(1) = t
    chunk%tiles(t)%field%nbr(2) = 3*t
  end do
  do t = 1, 2
    call kernel(chunk%tiles(t)%field%x_min, chunk%tiles(t)%field%x_max)
  end do
  do i = 1, chunk%tiles(2)%field%nbr(2)
  end do
  do k = 1, n
    call grow(chunk%tiles(1)%field%x_max)
  end do
  do i = 1, chunk%tiles(1)%field%x_max
  end do
end program p

subroutine kernel(lo, hi)
  implicit none
  integer :: lo, hi, i
  do i = lo, hi
  end do
end subroutine kernel

subroutine grow(m)
  implicit none
  integer :: m
  m = m + 1
end subroutine grow
`

// TestNestedComponents: scalar components below an array element, at any
// depth, are stored and read like the element's own components: the
// kernel's bounds are the tiles' sizes, an array component below a scalar
// one is followed, and a loop that changes one through a call changes it
// (its elements are then unknown: x_max, not the value before the loop).
func TestNestedComponents(t *testing.T) {
	res := evaluate(t, tiles, symeval.Options{})
	for i, p := range res.Params {
		if i == 0 && p.Name != "n" || i > 0 && !strings.HasPrefix(p.Name, "x_max") {
			t.Errorf("parameter %s (%s), want n, then the elements of x_max the last loops change", p.Name, p.What)
		}
	}
	b := loopBodies(t, res, 45)
	if len(b) != 2 || !strings.Contains(b[0], "n >= i") || !strings.Contains(b[1], "2*n >= i") {
		t.Errorf("the kernel's loop: %q, want i <= n and i <= 2*n", b)
	}
	if b := loopBodies(t, res, 33); len(b) != 1 || !strings.Contains(b[0], "i <= 6") {
		t.Errorf("the loop over nbr(2) of tile 2: %q, want i <= 6", b)
	}
	if b := loopBodies(t, res, 38); len(b) != 1 || strings.Contains(b[0], "n >= i") {
		t.Errorf("the loop after growing x_max n times: %q, want a bound other than n", b)
	}
}

// TestComponentArgumentStored: a routine that assigns its dummy, given a
// scalar component below an array element, leaves its value there.
func TestComponentArgumentStored(t *testing.T) {
	res := evaluate(t, strings.Replace(tiles, "  do k = 1, n\n    call grow(chunk%tiles(1)%field%x_max)\n  end do\n",
		"  call grow(chunk%tiles(1)%field%x_max)\n  call grow(chunk%tiles(1)%field%x_max)\n  call grow(chunk%tiles(1)%field%x_max)\n", 1), symeval.Options{})
	onlyParams(t, res, "n")
	if b := loopBodies(t, res, 38); len(b) != 1 || !strings.Contains(b[0], "n + 3 >= i") {
		t.Errorf("the loop after growing x_max 3 times: %q, want i <= n + 3", b)
	}
}
