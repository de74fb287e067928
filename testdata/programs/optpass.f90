! optpass.f90: an optional argument passed on from one routine to another:
! where the outer routine's caller left it out, the inner routine finds it
! absent too (Fortran 2018 15.5.2.12) and takes its default.
module optpass_m
  implicit none
contains
  subroutine outer(n, w, reps)
    integer, intent(in) :: n
    double precision, intent(inout) :: w
    integer, intent(in), optional :: reps
    call inner(n, w, reps)
  end subroutine outer
  subroutine inner(n, w, reps)
    integer, intent(in) :: n
    double precision, intent(inout) :: w
    integer, intent(in), optional :: reps
    integer :: r, k
    r = 2
    if (present(reps)) r = reps
    do k = 1, r * n
      w = w + dble(k)
    end do
  end subroutine inner
end module optpass_m

program optpass
  use optpass_m
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 10
  !mk$ param n = 10
  integer :: rank, ierr
  double precision :: w
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  w = 0.0d0
  call outer(n, w)
  call outer(n + rank, w, 3)
  if (rank == 0) print *, w
  call MPI_Finalize(ierr)
end program optpass
