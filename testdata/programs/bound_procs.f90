! bound_procs.f90 -- a field as a derived type with type-bound procedures
! (exchange, smooth, norm2 renamed by =>) called as u%exchange(...), made
! by a constructor function whose result's neighbours start at their
! default initialisation (MPI_PROC_NULL) and are set on some ranks only:
! the end ranks send to no one. The last rank takes the remainder.
module field_mod
  use mpi
  implicit none
  private
  public :: field_t, new_field
  type :: field_t
    integer :: n = 0, nloc = 0
    integer :: left = MPI_PROC_NULL, right = MPI_PROC_NULL
    real(8), allocatable :: x(:)
  contains
    procedure :: exchange => field_exchange
    procedure :: smooth
    procedure :: norm2 => field_norm2
  end type field_t
contains
  function new_field(n, comm) result(f)
    integer, intent(in) :: n, comm
    type(field_t) :: f
    integer :: rank, nprocs, ierr
    call mpi_comm_rank(comm, rank, ierr)
    call mpi_comm_size(comm, nprocs, ierr)
    f%n = n
    f%nloc = n / nprocs
    if (rank == nprocs - 1) f%nloc = n - (nprocs - 1) * (n / nprocs)
    if (rank > 0) f%left = rank - 1
    if (rank < nprocs - 1) f%right = rank + 1
    allocate(f%x(0:f%nloc+1))
    f%x = 1.0d0
  end function new_field

  subroutine field_exchange(self, comm)
    class(field_t), intent(inout) :: self
    integer, intent(in) :: comm
    integer :: ierr, st(MPI_STATUS_SIZE)
    call mpi_sendrecv(self%x(self%nloc), 1, MPI_DOUBLE_PRECISION, self%right, 0, &
                      self%x(0), 1, MPI_DOUBLE_PRECISION, self%left, 0, comm, st, ierr)
    call mpi_sendrecv(self%x(1), 1, MPI_DOUBLE_PRECISION, self%left, 1, &
                      self%x(self%nloc+1), 1, MPI_DOUBLE_PRECISION, self%right, 1, comm, st, ierr)
  end subroutine field_exchange

  subroutine smooth(self, sweeps)
    class(field_t), intent(inout) :: self
    integer, intent(in) :: sweeps
    integer :: s, i
    real(8), allocatable :: y(:)
    allocate(y(self%nloc))
    do s = 1, sweeps
      do i = 1, self%nloc
        y(i) = 0.5d0 * self%x(i) + 0.25d0 * (self%x(i-1) + self%x(i+1))
      end do
      self%x(1:self%nloc) = y
    end do
  end subroutine smooth

  real(8) function field_norm2(self, comm) result(r)
    class(field_t), intent(in) :: self
    integer, intent(in) :: comm
    real(8) :: loc
    integer :: ierr
    loc = sum(self%x(1:self%nloc)**2)
    call mpi_allreduce(loc, r, 1, MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
  end function field_norm2
end module field_mod

program bound_procs
  use mpi
  use field_mod
  implicit none
  integer, parameter :: n = 1000, steps = 10
  type(field_t) :: u
  integer :: ierr, k
  real(8) :: r
  call mpi_init(ierr)
  u = new_field(n, MPI_COMM_WORLD)
  r = 0
  do k = 1, steps
    call u%exchange(MPI_COMM_WORLD)
    call u%smooth(3)
    if (mod(k, 5) == 0) r = u%norm2(MPI_COMM_WORLD)
  end do
  if (r < 0) print *, r
  call mpi_finalize(ierr)
end program bound_procs
