! polymorph.f90 -- polymorphic solvers, as Fortran 2003 codes write them:
! an abstract stepper with a deferred binding, two extensions and a third
! that overrides an inherited binding; each rank allocates the stepper its
! rank chooses (ALLOCATE(t :: s), SOURCE=); the calls dispatch on the
! dynamic type, through a CLASS dummy too, and SELECT TYPE reads an
! extension's component (a halo width that sizes the messages).
module steppers
  implicit none
  type, abstract :: stepper_t
    integer :: n = 0
  contains
    procedure(step_iface), deferred :: step
    procedure :: sweeps => base_sweeps
  end type stepper_t
  abstract interface
    subroutine step_iface(self, u)
      import stepper_t
      class(stepper_t), intent(in) :: self
      double precision, intent(inout) :: u(:)
    end subroutine step_iface
  end interface
  type, extends(stepper_t) :: jacobi_t
  contains
    procedure :: step => jacobi_step
  end type jacobi_t
  type, extends(stepper_t) :: wide_t
    integer :: halo = 2
  contains
    procedure :: step => wide_step
    procedure :: sweeps => wide_sweeps
  end type wide_t
  type, extends(jacobi_t) :: damped_t
    double precision :: w = 0.5d0
  end type damped_t
contains
  integer function base_sweeps(self)
    class(stepper_t), intent(in) :: self
    base_sweeps = 1
  end function base_sweeps
  integer function wide_sweeps(self)
    class(wide_t), intent(in) :: self
    wide_sweeps = 3
  end function wide_sweeps
  subroutine jacobi_step(self, u)
    class(jacobi_t), intent(in) :: self
    double precision, intent(inout) :: u(:)
    integer :: i
    do i = 2, self%n - 1
      u(i) = 0.5d0 * (u(i-1) + u(i+1))
    end do
  end subroutine jacobi_step
  subroutine wide_step(self, u)
    class(wide_t), intent(in) :: self
    double precision, intent(inout) :: u(:)
    integer :: i, k
    do k = 1, self%halo
      do i = 1 + self%halo, self%n - self%halo
        u(i) = 0.25d0 * (u(i-k) + 2.0d0 * u(i) + u(i+k))
      end do
    end do
  end subroutine wide_step
  subroutine advance(s, u, steps)
    class(stepper_t), intent(in) :: s
    double precision, intent(inout) :: u(:)
    integer, intent(in) :: steps
    integer :: it
    do it = 1, steps
      call s%step(u)
    end do
  end subroutine advance
end module steppers

program polymorph
  use mpi
  use steppers
  implicit none
  integer, parameter :: n = 100, steps = 4
  !mk$ param n = 100
  !mk$ param steps = 4
  class(stepper_t), allocatable :: s, t
  type(jacobi_t) :: plain
  double precision, allocatable :: u(:)
  double precision :: buf(64)
  integer :: rank, np, ierr, it, width, k
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  select case (mod(rank, 3))
  case (0)
    allocate(jacobi_t :: s)
  case (1)
    allocate(wide_t :: s)
  case default
    allocate(damped_t :: s)
  end select
  s%n = n + rank
  allocate(u(s%n))
  u = 1.0d0
  do it = 1, steps
    do k = 1, s%sweeps()
      call s%step(u)
    end do
    width = 1
    select type (q => s)
    type is (wide_t)
      width = q%halo * 4
    class is (jacobi_t)
      width = 2
    class default
      width = 0
    end select
    if (np > 1) then
      call MPI_Sendrecv(buf, width, MPI_DOUBLE_PRECISION, mod(rank + 1, np), 0, &
           buf(33), 32, MPI_DOUBLE_PRECISION, mod(rank + np - 1, np), 0, &
           MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end if
  end do
  ! A second object of the first's type (SOURCE=), and a TYPE(t) object
  ! passed to a CLASS dummy.
  allocate(t, source=s)
  call advance(t, u, steps)
  plain%n = n / 2
  call advance(plain, u, 2)
  call MPI_Finalize(ierr)
end program polymorph
