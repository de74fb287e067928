! allgatherv.f90 -- every rank owns a block of a vector of n values (the
! first mod(n, np) ranks one more), updates it, and gathers the whole
! vector back with MPI_Allgatherv from the counts and displacements it
! computed for every rank, as particle and matrix-vector codes do.
program allgatherv_blocks
  use mpi
  implicit none
  integer, parameter :: n = 100, niter = 3
  !mk$ param n = 100
  !mk$ param niter = 3
  !mk$ assume n >= np
  integer :: me, np, ierr, r, it, i, first, nloc
  integer, allocatable :: counts(:), displs(:)
  double precision, allocatable :: x(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  allocate (counts(np), displs(np), x(n))
  do r = 1, np
    counts(r) = n/np
    if (r - 1 < mod(n, np)) counts(r) = counts(r) + 1
  end do
  displs(1) = 0
  do r = 2, np
    displs(r) = displs(r - 1) + counts(r - 1)
  end do
  nloc = counts(me + 1)
  first = displs(me + 1) + 1
  x = 1.0d0
  do it = 1, niter
    do i = first, first + nloc - 1
      x(i) = 0.5d0*x(i) + it
    end do
    call MPI_Allgatherv(x(first), nloc, MPI_DOUBLE_PRECISION, x, counts, displs, &
                        MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
  end do
  deallocate (counts, displs, x)
  call MPI_Finalize(ierr)
end program allgatherv_blocks
