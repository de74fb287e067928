! lowerranks.f90: each rank posts a receive from every rank below it, in
! a loop whose trip count is its rank, sends to every rank above it, and
! completes the receives by MPI_WAITALL; the values received size its
! work (the loop is run rank by rank; each rank's receives are its own).
program lowerranks
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 10
  !mk$ param n = 10
  integer :: rank, np, ierr, i, k, nn, mine, tot
  integer :: reqs(8), got(8)
  double precision :: s, t

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  mine = n * (rank + 1)
  got = 0
  reqs = MPI_REQUEST_NULL
  nn = 0
  do k = 0, rank - 1
    nn = nn + 1
    call MPI_Irecv(got(nn), 1, MPI_INTEGER, k, 1, MPI_COMM_WORLD, reqs(nn), ierr)
  end do
  do k = rank + 1, np - 1
    call MPI_Send(mine, 1, MPI_INTEGER, k, 1, MPI_COMM_WORLD, ierr)
  end do
  call MPI_Waitall(nn, reqs, MPI_STATUSES_IGNORE, ierr)
  tot = got(1) + got(2) + got(3) + 2 * got(4)
  s = 0.0d0
  do i = 1, tot
    s = s + 1.0d0 / dble(i)
  end do
  call MPI_Reduce(s, t, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, t
  call MPI_Finalize(ierr)
end program lowerranks
