! scatter_blocks.f90 -- rank 0 holds a vector of n values, deals it out in
! blocks (the first mod(n, P) ranks one value more) with MPI_Scatterv,
! every rank smooths its block, and MPI_Gatherv brings the blocks back.
! Only rank 0 fills the counts and displacements; each rank knows its own
! block's length from its own arithmetic.
program scatter_blocks
  use mpi
  implicit none
  integer, parameter :: n = 1000, niter = 10
  integer :: ierr, rank, nprocs, nloc, i, it, r
  integer, allocatable :: counts(:), displs(:)
  real(8), allocatable :: full(:), part(:)
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  nloc = n / nprocs
  if (rank < mod(n, nprocs)) nloc = nloc + 1
  allocate(counts(nprocs), displs(nprocs), part(nloc), full(n))
  if (rank == 0) then
    do r = 0, nprocs - 1
      counts(r + 1) = n / nprocs
      if (r < mod(n, nprocs)) counts(r + 1) = counts(r + 1) + 1
    end do
    displs(1) = 0
    do r = 2, nprocs
      displs(r) = displs(r - 1) + counts(r - 1)
    end do
    full = 1.0d0
  end if
  do it = 1, niter
    call mpi_scatterv(full, counts, displs, MPI_DOUBLE_PRECISION, part, nloc, &
                      MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
    do i = 2, nloc
      part(i) = 0.5d0 * (part(i) + part(i - 1))
    end do
    call mpi_gatherv(part, nloc, MPI_DOUBLE_PRECISION, full, counts, displs, &
                     MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  end do
  if (rank == 0 .and. full(n) < 0) print *, full(n)
  call mpi_finalize(ierr)
end program scatter_blocks
