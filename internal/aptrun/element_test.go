package aptrun

import "testing"

// TestNestedComponents runs the program of symeval's TestNestedComponents:
// scalar components two levels below an array element hold the kernel's
// bounds.
func TestNestedComponents(t *testing.T) {
	prog := parseSrc(t, "tiles.f90", `module tiles_m
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
`)
	c := mustRun(t, prog, Config{P: 1, Params: map[string]int64{"n": 5}})
	check(t, "tiles", "Iter", c.Iter, want{"kernel/L1": 5 + 10, "p/L3": 6, "p/L4": 5, "p/L5": 10})
}
