! offsets.f90 -- each rank finds where its block of n items starts by
! summing the sizes of the blocks before it into a component of its
! decomposition record, as codes that keep their layout in a derived
! type do, and times itself with the intrinsic CPU_TIME.
module layout
  implicit none
  type :: block_t
    integer :: n = 0, nloc = 0, first = 0
  end type block_t
contains
  pure integer function share(n, np, r)
    integer, intent(in) :: n, np, r
    share = n/np
    if (r < mod(n, np)) share = share + 1
  end function share

  subroutine place(b, n, me, np)
    type(block_t), intent(inout) :: b
    integer, intent(in) :: n, me, np
    integer :: r
    b%n = n
    b%nloc = share(n, np, me)
    b%first = 1
    do r = 0, me - 1
      b%first = b%first + share(n, np, r)
    end do
  end subroutine place
end module layout

program offsets
  use mpi
  use layout
  implicit none
  integer, parameter :: n = 50, niter = 2
  !mk$ param n = 50
  !mk$ param niter = 2
  !mk$ assume n >= np
  type(block_t) :: b
  integer :: me, np, ierr, it, i, j
  real :: t0, t1
  double precision :: s
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call cpu_time(t0)
  call place(b, n, me, np)
  s = 0
  do it = 1, niter
    do i = b%first, b%first + b%nloc - 1
      do j = 1, b%n
        if (j == i) cycle
        s = s + 1.0d0/(i - j)
      end do
    end do
  end do
  call cpu_time(t1)
  call MPI_Allreduce(MPI_IN_PLACE, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (me == 0) print *, s, t1 - t0 >= 0
  call MPI_Finalize(ierr)
end program offsets
