! forms.f90 -- the rewriter's hard cases in free form: pure and elemental
! procedures (made impure so their probes may count), a size assigned
! from a constant (read from MKVET_PARAM_N at run time), a PARAMETER
! size in a module, ; separated statements, a logical IF holding an MPI
! call continued with &, SELECT CASE, a named loop, trailing comments.
module m
  implicit none
  integer, parameter :: nn = 8
  !mk$ param nn = 8
contains
  pure function sq(x) result(y)
    real(8), intent(in) :: x
    real(8) :: y
    y = x*x
  end function sq

  elemental function tw(x) result(y)
    real(8), intent(in) :: x
    real(8) :: y
    y = 2*x
  end function tw
end module m

program forms
  use mpi
  use m
  implicit none
  integer :: i, j, ierr, me, np, n
  real(8) :: s, t, a(nn)
  !mk$ param n = 5
  call MPI_Init(ierr); call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  n = 5
  s = 0; a = 1
  outer: do i = 1, n
    do j = 1, nn
      s = s + sq(real(i*j, 8)) ! a trailing comment
    end do
    if (np > 1) call MPI_Allreduce(s, t, 1, &
                                   MPI_DOUBLE_PRECISION, MPI_SUM, &
                                   MPI_COMM_WORLD, ierr)
    select case (mod(i, 3))
    case (0)
      s = s + 1
    case default
      s = s - 1
    end select
  end do outer
  a = tw(a)
  if (me == 0) print *, s, sum(a)
  call MPI_Finalize(ierr)
end program forms
