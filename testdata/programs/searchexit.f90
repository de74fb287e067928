! searchexit.f90 -- a process grid's side found by a search that leaves
! its DO loop by EXIT (the least k with k*k >= np), then read after the
! loop through the DO variable: each process sweeps k rows of 1000 cells,
! and the first k ranks one more row each. The value the DO variable
! holds after the loop is where the EXIT left it, not where the last trip
! would end: at a point the search is run; with P a symbol k is named and
! asked for, never taken as np + 1.
program searchexit
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, k, i, j
  real(8) :: s
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, rank, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  do k = 1, np
    if (k*k >= np) exit
  end do
  s = 0
  do j = 1, k
    do i = 1, 1000
      s = s + i*j
    end do
  end do
  if (rank < k) then
    do i = 1, 1000
      s = s - i
    end do
  end if
  call mpi_finalize(ierr)
end program searchexit
