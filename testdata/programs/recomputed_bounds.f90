! recomputed_bounds.f90 -- loops that leave by an EXIT whose bound the body
! recomputes on every trip with a function that changes nothing (C++'s
! i < v.size() as a Fortran program writes it: m = ncells(...), then
! IF (i + 1 > m) EXIT), or that calls it in the test itself, inside a time
! loop. Each rank's share differs by the remainder of n over P.
module cells_mod
  implicit none
contains
  pure integer function ncells(n, rank, nprocs)
    integer, intent(in) :: n, rank, nprocs
    ncells = n / nprocs
    if (rank < mod(n, nprocs)) ncells = ncells + 1
  end function ncells
end module cells_mod

program recomputed_bounds
  use mpi
  use cells_mod
  implicit none
  integer, parameter :: n = 100, steps = 4
  integer :: rank, nprocs, ierr, i, m, s, k
  real(8) :: a(n + 2), t, tot
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, rank, ierr)
  call mpi_comm_size(mpi_comm_world, nprocs, ierr)
  a = 1.0d0
  tot = 0
  do s = 1, steps
    i = 1
    do
      m = ncells(n, rank, nprocs)
      if (i + 1 > m) exit
      a(i) = 0.5d0 * (a(i) + a(i + 1))
      i = i + 1
    end do
    k = 0
    do
      if (k >= ncells(n, rank, nprocs) - 1) exit
      t = a(k + 1)
      tot = tot + t * s
      k = k + 1
    end do
    call mpi_allreduce(MPI_IN_PLACE, tot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, mpi_comm_world, ierr)
  end do
  if (rank == 0) print *, tot
  call mpi_finalize(ierr)
end program recomputed_bounds
