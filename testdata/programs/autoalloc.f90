! autoalloc.f90: block counts and offsets returned by array-valued
! functions and assigned to allocatable arrays, which the assignment
! allocates with the result's shape (Fortran 2003); a whole array copied
! into another keeps its lower bounds; an allocatable reassigned with a
! longer result is reallocated. The counts size each rank's work.
module blocks
  implicit none
contains
  function block_counts(n, np) result(c)
    integer, intent(in) :: n, np
    integer, allocatable :: c(:)
    integer :: r
    allocate(c(0:np-1))
    c = n / np
    r = mod(n, np)
    if (r > 0) c(0:r-1) = c(0:r-1) + 1
  end function block_counts

  function offsets(c) result(d)
    integer, intent(in) :: c(:)
    integer :: d(size(c))
    integer :: i
    d(1) = 0
    do i = 2, size(c)
      d(i) = d(i-1) + c(i-1)
    end do
  end function offsets

  function upto(k) result(v)
    integer, intent(in) :: k
    integer, allocatable :: v(:)
    integer :: i
    allocate(v(k))
    do i = 1, k
      v(i) = i
    end do
  end function upto
end module blocks

program autoalloc
  use blocks
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 103
  !mk$ param n = 103
  integer :: ierr, rank, np, i, j, k, mine, first, tot
  integer, allocatable :: cnt(:), displ(:), copy(:), grow(:), base(:)
  double precision :: s, t

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  cnt = block_counts(n, np)
  displ = offsets(cnt)
  mine = cnt(rank + 1)
  first = displ(rank + 1)
  s = 0.0d0
  do i = 1, mine
    s = s + 1.0d0 / dble(first + i)
  end do
  ! A whole array with lower bound 0, copied: the copy's bounds are 0:np-1.
  allocate(base(0:np-1))
  base = cnt
  copy = base
  do i = lbound(copy, 1), ubound(copy, 1)
    do j = 1, copy(i) + i
      s = s + 1.0d0 / dble(j)
    end do
  end do
  ! Reassigned with longer results: reallocated each time.
  tot = 0
  do k = 1, rank + 2
    grow = upto(k)
    do i = 1, size(grow)
      tot = tot + grow(i)
    end do
  end do
  do i = 1, tot * n
    s = s + 1.0d0 / dble(i)
  end do
  call MPI_Reduce(s, t, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, t
  call MPI_Finalize(ierr)
end program autoalloc
