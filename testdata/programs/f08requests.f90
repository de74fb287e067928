! f08requests.f90: the mpi_f08 bindings (no ierror, TYPE(MPI_Request)):
! each rank posts a receive from the rank before it and a send to the
! rank after it, completes both by MPI_Waitall, sizes its work by what it
! received, and waits again only for requests not MPI_REQUEST_NULL.
program f08requests
  use mpi_f08
  implicit none
  integer, parameter :: n = 10, steps = 3
  !mk$ param n = 10
  !mk$ param steps = 3
  integer :: rank, np, i, it, got, mine
  type(MPI_Request) :: reqs(2)
  double precision :: s, t

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  s = 0.0d0
  do it = 1, steps
    mine = n * (rank + 1) + it
    got = 0
    reqs = MPI_REQUEST_NULL
    if (rank > 0) call MPI_Irecv(got, 1, MPI_INTEGER, rank - 1, 1, MPI_COMM_WORLD, reqs(1))
    if (rank < np - 1) call MPI_Isend(mine, 1, MPI_INTEGER, rank + 1, 1, MPI_COMM_WORLD, reqs(2))
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
    do i = 1, got
      s = s + dble(i)
    end do
    do i = 1, 2
      if (reqs(i) /= MPI_REQUEST_NULL) call MPI_Wait(reqs(i), MPI_STATUS_IGNORE)
    end do
  end do
  call MPI_Reduce(s, t, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD)
  if (rank == 0) print *, t
  call MPI_Finalize()
end program f08requests
