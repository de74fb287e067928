! powsteps.f90: the levels of a multigrid hierarchy visited with strides
! and extents that are powers of two of the level (do i = 1, n, 2**(l-1);
! n / 2**l points), as a V-cycle's restriction and smoothing write them.
program powsteps
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 64, nlev = 4
  !mk$ param n = 64
  !mk$ param nlev = 4
  integer :: l, i, rank, ierr
  double precision :: w

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  w = 0.0d0
  do l = 1, nlev
    do i = 1, n, 2**(l - 1)
      w = w + dble(i)
    end do
    do i = 1, n / 2**l + rank
      w = w - 1.0d0
    end do
  end do
  if (rank == 0) print *, w
  call MPI_Finalize(ierr)
end program powsteps
