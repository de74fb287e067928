! exit_contexts.f90 -- one routine whose DO is left by an EXIT its own
! variable decides, called where the bound is a closed form and where it
! is one of two values by rank: the first call's DO runs to the bound; the
! second's EXIT is run rank by rank at a point, else not modelled and said
! so (it was taken as accounted for in every call once one call had it).
program exit_contexts
  implicit none
  include 'mpif.h'
  integer :: ierr, k, rank
  double precision :: s
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, rank, ierr)
  s = 0.0d0
  call sub(5, s)
  if (rank == 0) then
    k = 3
  else
    k = 7
  end if
  call sub(k, s)
  print *, s
  call mpi_finalize(ierr)
end program exit_contexts

subroutine sub(m, s)
  implicit none
  integer :: m, i
  double precision :: s
  do i = 1, 50
    s = s + 1.0d0
    if (i > m) exit
    s = s + 2.0d0
  end do
end subroutine sub
