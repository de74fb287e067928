! icollectives.f90: nonblocking collectives (MPI-3) started, overlapped
! with work and completed by waits: a sum by MPI_IALLREDUCE and a size by
! MPI_IBCAST size the loops after their waits; MPI_IBARRIER is waited for
! last.
program icollectives
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 100, steps = 3
  !mk$ param n = 100
  !mk$ param steps = 3
  integer :: rank, np, ierr, i, it, mine, total, width, reqs(3)
  double precision :: s, t

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  s = 0.0d0
  do it = 1, steps
    mine = n + 10 * rank + it
    width = 0
    if (rank == 0) width = n / 2 + it
    call MPI_Iallreduce(mine, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Ibcast(width, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Ibarrier(MPI_COMM_WORLD, reqs(3), ierr)
    do i = 1, mine
      s = s + 1.0d0 / dble(i)
    end do
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    do i = 1, total + width
      s = s + dble(i)
    end do
    call MPI_Wait(reqs(3), MPI_STATUS_IGNORE, ierr)
  end do
  call MPI_Reduce(s, t, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, t
  call MPI_Finalize(ierr)
end program icollectives
