! recursion.f90 -- recursive routines as solvers write them: a multigrid
! V-cycle that recurses while the level is below the coarsest, exchanging
! halos with its neighbours on every level; a sum by recursive bisection
! that halves its block until it is small (its depth set by n and the
! process count); and two routines that call each other until a counter
! runs out. Each level's loops run on that level's block.
module cycles
  use mpi
  implicit none
  integer :: nlev = 4
  integer :: left, right
contains
  recursive subroutine vcycle(level, m, u, f)
    integer, intent(in) :: level, m
    double precision, intent(inout) :: u(0:m+1)
    double precision, intent(in) :: f(0:m+1)
    double precision, allocatable :: uc(:), fc(:)
    integer :: i, sweep, ierr
    do sweep = 1, 2
      call mpi_sendrecv(u(m), 1, mpi_double_precision, right, level, &
                        u(0), 1, mpi_double_precision, left, level, &
                        mpi_comm_world, mpi_status_ignore, ierr)
      do i = 1, m
        u(i) = 0.5d0*(u(i-1) + u(i+1) + f(i))
      end do
    end do
    if (level < nlev .and. m >= 4) then
      allocate(uc(0:m/2+1), fc(0:m/2+1))
      uc = 0
      fc = 0
      do i = 1, m/2
        fc(i) = f(2*i)
      end do
      call vcycle(level + 1, m/2, uc, fc)
      do i = 1, m/2
        u(2*i) = u(2*i) + uc(i)
      end do
      deallocate(uc, fc)
    end if
    do i = 1, m
      u(i) = 0.5d0*(u(i-1) + u(i+1) + f(i))
    end do
  end subroutine vcycle

  recursive function total(x, m) result(t)
    integer, intent(in) :: m
    double precision, intent(in) :: x(m)
    double precision :: t
    integer :: i
    if (m <= 16) then
      t = 0
      do i = 1, m
        t = t + x(i)
      end do
    else
      t = total(x(1:m/2), m/2) + total(x(m/2+1:m), m - m/2)
    end if
  end function total

  recursive subroutine down(k, s)
    integer, intent(in) :: k
    double precision, intent(inout) :: s
    integer :: i
    do i = 1, k
      s = s + i
    end do
    if (k > 0) call up(k - 1, s)
  end subroutine down

  recursive subroutine up(k, s)
    integer, intent(in) :: k
    double precision, intent(inout) :: s
    integer :: i
    do i = 1, 2*k
      s = s - i
    end do
    if (k > 0) call down(k - 1, s)
  end subroutine up
end module cycles

program recursion
  use mpi
  use cycles
  implicit none
  integer, parameter :: n = 200, ncycles = 3
  !mk$ param n = 200
  !mk$ param ncycles = 3
  integer :: rank, nprocs, ierr, m, it
  double precision, allocatable :: u(:), f(:)
  double precision :: s, sg
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, rank, ierr)
  call mpi_comm_size(mpi_comm_world, nprocs, ierr)
  m = n/nprocs
  left = rank - 1
  right = rank + 1
  if (rank == 0) left = mpi_proc_null
  if (rank == nprocs - 1) right = mpi_proc_null
  allocate(u(0:m+1), f(0:m+1))
  u = 0
  f = 1
  do it = 1, ncycles
    call vcycle(1, m, u, f)
  end do
  s = total(u(1:m), m)
  call down(ncycles + 2, s)
  call mpi_allreduce(s, sg, 1, mpi_double_precision, mpi_sum, mpi_comm_world, ierr)
  if (rank == 0) print *, sg
  call mpi_finalize(ierr)
end program recursion
