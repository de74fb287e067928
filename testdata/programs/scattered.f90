! scattered.f90 -- rank 0 decides the decomposition and hands it out:
! each rank's count and first index computed in a table (a remainder
! spread over the first ranks, starts as prefix sums), sent with
! MPI_SCATTER; the step count sent point to point into another variable;
! each rank's total gathered back with MPI_GATHER into a table rank 0
! walks. n and steps come from scattered.in when it is there (defaults
! 1000 and 4).
program scattered
  use mpi
  implicit none
  integer :: me, np, ierr, n, i, nloc, first, it, steps, mysteps, ios
  integer, allocatable :: counts(:), starts(:), got(:)
  integer :: total
  double precision :: s
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  allocate(counts(np), starts(np), got(np))
  counts = 0
  starts = 0
  if (me == 0) then
    n = 1000
    steps = 4
    open(10, file='scattered.in', status='old', action='read', iostat=ios)
    if (ios == 0) then
      read(10, *) n, steps
      close(10)
    end if
    do i = 1, np
      counts(i) = n / np
      if (i <= mod(n, np)) counts(i) = counts(i) + 1
    end do
    starts(1) = 1
    do i = 2, np
      starts(i) = starts(i - 1) + counts(i - 1)
    end do
    do i = 1, np - 1
      call mpi_send(2 * steps, 1, mpi_integer, i, 5, mpi_comm_world, ierr)
    end do
    mysteps = 2 * steps
  else
    call mpi_recv(mysteps, 1, mpi_integer, 0, 5, mpi_comm_world, mpi_status_ignore, ierr)
  end if
  call mpi_scatter(counts, 1, mpi_integer, nloc, 1, mpi_integer, 0, mpi_comm_world, ierr)
  call mpi_scatter(starts, 1, mpi_integer, first, 1, mpi_integer, 0, mpi_comm_world, ierr)
  s = 0.0d0
  do it = 1, mysteps
    do i = first, first + nloc - 1
      s = s + dble(i)
    end do
  end do
  call mpi_gather(nloc, 1, mpi_integer, got, 1, mpi_integer, 0, mpi_comm_world, ierr)
  total = 0
  if (me == 0) then
    do i = 1, np
      total = total + got(i)
    end do
    do i = 1, total
      s = s + 1.0d0
    end do
    print *, total, s
  end if
  call mpi_finalize(ierr)
end program scattered
