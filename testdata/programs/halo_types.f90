! halo_types.f90 -- a 2-D halo exchange through derived datatypes, as
! application codes write it: the process grid from MPI_Dims_create and a
! non-periodic Cartesian communicator, blocks with remainders, a column
! of the local array (with its halo) as one element of an MPI_Type_vector,
! a row as an MPI_Type_contiguous, a corner of the grid broadcast as an
! MPI_Type_create_subarray, and the size of an MPI_Type_indexed asked
! with MPI_Type_size to size a loop.
program halo_types
  use mpi
  implicit none
  integer, parameter :: nx = 24, ny = 18, niter = 3
  !mk$ param nx = 24
  !mk$ param ny = 18
  !mk$ param niter = 3
  !mk$ assume nx >= np
  !mk$ assume ny >= np
  double precision, allocatable :: u(:, :)
  integer :: comm, me, np, ierr, it, i, j, nxl, nyl
  integer :: dims(2), coords(2), west, east, south, north
  integer :: coltype, rowtype, corner, idx, isize
  integer :: sizes(2), subsizes(2), starts(2), blens(2), displs(2)
  integer :: status(MPI_STATUS_SIZE)
  logical :: periods(2)

  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  dims = 0
  call MPI_Dims_create(np, 2, dims, ierr)
  periods = .false.
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., comm, ierr)
  call MPI_Comm_rank(comm, me, ierr)
  call MPI_Cart_coords(comm, me, 2, coords, ierr)
  call MPI_Cart_shift(comm, 0, 1, west, east, ierr)
  call MPI_Cart_shift(comm, 1, 1, south, north, ierr)
  nxl = nx/dims(1)
  if (coords(1) < mod(nx, dims(1))) nxl = nxl + 1
  nyl = ny/dims(2)
  if (coords(2) < mod(ny, dims(2))) nyl = nyl + 1
  allocate (u(0:nxl + 1, 0:nyl + 1))
  u = me

  call MPI_Type_vector(nyl, 1, nxl + 2, MPI_DOUBLE_PRECISION, coltype, ierr)
  call MPI_Type_commit(coltype, ierr)
  call MPI_Type_contiguous(nxl, MPI_DOUBLE_PRECISION, rowtype, ierr)
  call MPI_Type_commit(rowtype, ierr)
  sizes = [nxl + 2, nyl + 2]
  subsizes = [2, 3]
  starts = [1, 1]
  call MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, &
                                MPI_DOUBLE_PRECISION, corner, ierr)
  call MPI_Type_commit(corner, ierr)
  blens(1) = 1
  blens(2) = nxl
  displs = (/ 0, nxl + 2 /)
  call MPI_Type_indexed(2, blens, displs, MPI_DOUBLE_PRECISION, idx, ierr)
  call MPI_Type_size(idx, isize, ierr)

  do it = 1, niter
    call MPI_Sendrecv(u(nxl, 1), 1, coltype, east, 1, u(0, 1), 1, coltype, west, 1, comm, status, ierr)
    call MPI_Sendrecv(u(1, 1), 1, coltype, west, 2, u(nxl + 1, 1), 1, coltype, east, 2, comm, status, ierr)
    call MPI_Sendrecv(u(1, nyl), 1, rowtype, north, 3, u(1, 0), 1, rowtype, south, 3, comm, status, ierr)
    call MPI_Sendrecv(u(1, 1), 1, rowtype, south, 4, u(1, nyl + 1), 1, rowtype, north, 4, comm, status, ierr)
    do j = 1, nyl
      do i = 1, nxl
        u(i, j) = 0.25d0*(u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
      end do
    end do
    call MPI_Bcast(u, 1, corner, 0, comm, ierr)
    do i = 1, isize/8
      u(1, 1) = u(1, 1) + 1.0d-3
    end do
  end do

  call MPI_Type_free(coltype, ierr)
  call MPI_Type_free(rowtype, ierr)
  call MPI_Type_free(corner, ierr)
  call MPI_Type_free(idx, ierr)
  deallocate (u)
  call MPI_Finalize(ierr)
end program halo_types
