! procargs.f90 -- procedures handed to other procedures, as solver
! libraries take them: a time integrator takes the right-hand side as a
! PROCEDURE(rhs_iface) dummy, an F77-style driver takes its smoother as an
! EXTERNAL dummy and hands it on, rank 0 runs a different right-hand side
! than the others, and a function dummy sums a function of each value.
module integrators
  implicit none
  abstract interface
    subroutine rhs_iface(u, du, n)
      integer, intent(in) :: n
      double precision, intent(in) :: u(n)
      double precision, intent(out) :: du(n)
    end subroutine rhs_iface
    pure double precision function scalar_fn(x)
      double precision, intent(in) :: x
    end function scalar_fn
  end interface
contains
  subroutine diffuse(u, du, n)
    integer, intent(in) :: n
    double precision, intent(in) :: u(n)
    double precision, intent(out) :: du(n)
    integer :: i
    du(1) = 0
    du(n) = 0
    do i = 2, n - 1
      du(i) = u(i-1) - 2*u(i) + u(i+1)
    end do
  end subroutine diffuse

  subroutine decay(u, du, n)
    integer, intent(in) :: n
    double precision, intent(in) :: u(n)
    double precision, intent(out) :: du(n)
    integer :: i
    do i = 1, n
      du(i) = -u(i)
    end do
  end subroutine decay

  subroutine euler(f, u, n, steps, dt)
    procedure(rhs_iface) :: f
    integer, intent(in) :: n, steps
    double precision, intent(inout) :: u(n)
    double precision, intent(in) :: dt
    double precision :: du(n)
    integer :: s, i
    do s = 1, steps
      call f(u, du, n)
      do i = 1, n
        u(i) = u(i) + dt*du(i)
      end do
    end do
  end subroutine euler

  pure double precision function energy(x)
    double precision, intent(in) :: x
    energy = 0.5d0*x*x
  end function energy

  double precision function total(g, u, n)
    procedure(scalar_fn) :: g
    integer, intent(in) :: n
    double precision, intent(in) :: u(n)
    integer :: i
    total = 0
    do i = 1, n
      total = total + g(u(i))
    end do
  end function total
end module integrators

subroutine smooth(u, n)
  integer n, i
  double precision u(n)
  do i = 2, n - 1, 2
    u(i) = 0.5d0*(u(i-1) + u(i+1))
  end do
end

subroutine sweeps(sm, u, n, k)
  external sm
  integer n, k, j
  double precision u(n)
  do j = 1, k
    call sm(u, n)
  end do
end

program procargs
  use mpi
  use integrators
  implicit none
  integer, parameter :: n = 100, steps = 4
  !mk$ param n = 100
  !mk$ param steps = 4
  external smooth
  integer :: rank, nprocs, ierr, m
  double precision, allocatable :: u(:)
  double precision :: s, sg
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, rank, ierr)
  call mpi_comm_size(mpi_comm_world, nprocs, ierr)
  m = n/nprocs
  if (rank < mod(n, nprocs)) m = m + 1
  allocate(u(m))
  u = 1
  if (rank == 0) then
    call euler(decay, u, m, steps, 0.1d0)
  else
    call euler(diffuse, u, m, steps, 0.1d0)
  end if
  call sweeps(smooth, u, m, steps + 1)
  s = total(energy, u, m)
  call mpi_allreduce(s, sg, 1, mpi_double_precision, mpi_sum, mpi_comm_world, ierr)
  if (rank == 0) print *, sg
  call mpi_finalize(ierr)
end program procargs
