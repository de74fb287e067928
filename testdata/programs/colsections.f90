! colsections.f90: a task table act(ntask, nset) is filled and handed on
! by its sections, as Fortran 90 programs hand columns and slices of
! tables to routines: a column to an explicit-shape dummy that only reads
! it, a column to an assumed-shape dummy the routine rewrites (its
! elements come back), a strided slice, a 2-D block of the table, and a
! row (a noncontiguous section, passed as a copy). The values decide how
! much work each rank does.
module tasktab
  implicit none
contains
  subroutine fill(act, ntask, nset, rank)
    integer, intent(in) :: ntask, nset, rank
    integer, intent(out) :: act(ntask, nset)
    integer :: i, j
    do j = 1, nset
      do i = 1, ntask
        act(i, j) = mod(i + j + rank, 3) + 1
      end do
    end do
  end subroutine fill

  subroutine work(col, ntask, n, s)
    integer, intent(in) :: ntask, n
    integer, intent(in) :: col(ntask)
    double precision, intent(inout) :: s
    integer :: k, i
    do k = 1, ntask
      do i = 1, n * col(k)
        s = s + 1.0d0 / dble(i + k)
      end do
    end do
  end subroutine work

  subroutine bump(col, by)
    integer, intent(inout) :: col(:)
    integer, intent(in) :: by
    integer :: k
    do k = 1, size(col)
      col(k) = col(k) + by * k
    end do
  end subroutine bump

  integer function total(blk, m, nc)
    integer, intent(in) :: m, nc
    integer, intent(in) :: blk(m, nc)
    integer :: i, j
    total = 0
    do j = 1, nc
      do i = 1, m
        total = total + blk(i, j)
      end do
    end do
  end function total
end module tasktab

program colsections
  use tasktab
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 10, ntask = 4, nset = 3
  !mk$ param n = 10
  integer :: rank, np, ierr, j, t, i
  integer :: act(ntask, nset)
  double precision :: s, tot

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call fill(act, ntask, nset, rank)
  s = 0.0d0
  ! Each set's column, read by an explicit-shape dummy.
  do j = 1, nset
    call work(act(:, j), ntask, n, s)
  end do
  ! One column rewritten through an assumed-shape dummy, then used.
  call bump(act(:, 2), rank + 1)
  call work(act(:, 2), ntask, n, s)
  ! A strided slice of the first column, and a row (a copy in and out).
  call bump(act(1:ntask:2, 1), 2)
  call bump(act(3, :), 1)
  call work(act(:, 1), ntask, n, s)
  call work(act(3, :), nset, n, s)
  ! A 2-D block summed by a function: its value sizes a loop.
  t = total(act(2:3, 2:3), 2, 2)
  do i = 1, n * t
    s = s + 1.0d0 / dble(i)
  end do
  call MPI_Reduce(s, tot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, tot
  call MPI_Finalize(ierr)
end program colsections
