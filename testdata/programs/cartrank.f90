! cartrank.f90: diagonal neighbours on a periodic 2-D grid found by
! MPI_CART_RANK of the coordinates MPI_CART_GET gives, shifted by an
! array expression (coords + [1, 1]); the messages go to them and the
! work depends on the coordinates.
program cartrank
  use mpi
  implicit none
  integer, parameter :: n = 48, steps = 3
  !mk$ param n = 48
  !mk$ param steps = 3
  integer :: ierr, np, rank, dims(2), coords(2), c(2), ne, sw, k, i, step, comm, nx
  logical :: per(2)
  double precision :: buf(n), s
  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  dims = 0
  per = [.true., .true.]
  call MPI_Dims_create(np, 2, dims, ierr)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, .false., comm, ierr)
  call MPI_Comm_rank(comm, rank, ierr)
  call MPI_Cart_get(comm, 2, dims, per, coords, ierr)
  c = coords + [1, 1]
  call MPI_Cart_rank(comm, c, ne, ierr)
  c = coords - [1, 1]
  call MPI_Cart_rank(comm, c, sw, ierr)
  nx = n / dims(1)
  if (coords(1) < mod(n, dims(1))) nx = nx + 1
  buf = 1.0d0
  s = 0.0d0
  do step = 1, steps
    call MPI_Sendrecv_replace(buf, n / dims(1), MPI_DOUBLE_PRECISION, ne, 0, sw, 0, comm, MPI_STATUS_IGNORE, ierr)
    do k = 1, coords(2) + 1
      do i = 1, nx
        s = s + buf(i)
      end do
    end do
  end do
  call MPI_Allreduce(MPI_IN_PLACE, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
  if (rank == 0) print *, s
  call MPI_Finalize(ierr)
end program cartrank
