! trap_reduce.f90 -- parallel trapezoidal rule with a tree reduction,
! after Pacheco, "Parallel Programming with MPI", ch. 5 and 11 (seed 004).
! The number of trapezoids is the first command-line argument (default 1024)
! and is broadcast from rank 0; the partial integrals are combined with
! MPI_Reduce, which costs log2(p)(ts + tc + ta) in Pacheco's model.
module trap_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  pure function f(x) result(y)
    real(dp), intent(in) :: x
    real(dp) :: y
    y = x*x
  end function f

  function trap(a, b, n, h) result(integral)
    real(dp), intent(in) :: a, b, h
    integer, intent(in) :: n
    real(dp) :: integral, x
    integer :: i
    integral = (f(a) + f(b))/2.0_dp
    x = a
    do i = 1, n - 1
      x = x + h
      integral = integral + f(x)
    end do
    integral = integral*h
  end function trap
end module trap_mod

program trap_reduce
  use mpi
  use trap_mod
  implicit none
  integer :: n, my_rank, p, ierr, local_n
  real(dp) :: a, b, h, local_a, local_b, integral, total
  character(len=32) :: arg
  !mk$ param n = 1024
  !mk$ assume mod(n, p) == 0

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, my_rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  n = 1024
  if (my_rank == 0 .and. command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  call MPI_Bcast(n, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  a = 0.0_dp; b = 1.0_dp
  h = (b - a)/n
  local_n = n/p
  local_a = a + my_rank*local_n*h
  local_b = local_a + local_n*h
  integral = trap(local_a, local_b, local_n, h)
  call MPI_Reduce(integral, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, &
                  MPI_COMM_WORLD, ierr)
  if (my_rank == 0) print '(a, i8, a, f14.10)', ' n =', n, ' integral =', total
  call MPI_Finalize(ierr)
end program trap_reduce
