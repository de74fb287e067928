! wave_assoc.f90 -- a 1-D wave equation written in Fortran 2003/2008 as
! modern codes are: settings in a derived type whose components carry
! default initialisations, pointer components allocated with the block a
! rank owns (the first ranks one more), ASSOCIATE names for components
! and for a value, a WHERE, and a BLOCK with its own declaration.
module config_mod
  implicit none
  integer, parameter :: wp = selected_real_kind(12)
  integer, parameter :: ng = 128, steps = 40
  !mk$ param ng = 128
  !mk$ param steps = 40
  !mk$ assume ng >= np
  type :: config_t
    integer :: nx = ng, nsteps = steps, out_every = 10
    real(wp) :: c = 1.0_wp, dt = 1.0e-3_wp
  end type config_t
end module config_mod

module field_mod
  use config_mod
  implicit none
  type :: field_t
    integer :: lo, hi
    real(wp), pointer :: u(:) => null(), uold(:) => null()
  end type field_t
contains
  subroutine create(f, nx, me, np)
    type(field_t), intent(out) :: f
    integer, intent(in) :: nx, me, np
    integer :: chunk, rest
    chunk = nx / np
    rest = mod(nx, np)
    f%lo = me * chunk + min(me, rest) + 1
    f%hi = f%lo + chunk - 1
    if (me < rest) f%hi = f%hi + 1
    allocate (f%u(f%lo - 1:f%hi + 1), f%uold(f%lo - 1:f%hi + 1))
    f%u = 0.0_wp
    f%uold = 0.0_wp
  end subroutine create

  subroutine halo(f, comm)
    use mpi
    type(field_t), intent(inout) :: f
    integer, intent(in) :: comm
    integer :: me, np, ierr, left, right
    call MPI_Comm_rank(comm, me, ierr)
    call MPI_Comm_size(comm, np, ierr)
    left = merge(MPI_PROC_NULL, me - 1, me == 0)
    right = merge(MPI_PROC_NULL, me + 1, me == np - 1)
    call MPI_Sendrecv(f%u(f%hi), 1, MPI_DOUBLE_PRECISION, right, 0, &
                      f%u(f%lo - 1), 1, MPI_DOUBLE_PRECISION, left, 0, comm, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(f%u(f%lo), 1, MPI_DOUBLE_PRECISION, left, 1, &
                      f%u(f%hi + 1), 1, MPI_DOUBLE_PRECISION, right, 1, comm, MPI_STATUS_IGNORE, ierr)
  end subroutine halo

  subroutine advance(f, cfg)
    type(field_t), intent(inout) :: f
    type(config_t), intent(in) :: cfg
    real(wp), allocatable :: unew(:)
    integer :: i
    associate (lo => f%lo, hi => f%hi, r => (cfg%c * cfg%dt)**2)
      allocate (unew(lo:hi))
      do i = lo, hi
        unew(i) = 2 * f%u(i) - f%uold(i) + r * (f%u(i - 1) - 2 * f%u(i) + f%u(i + 1))
      end do
      f%uold(lo:hi) = f%u(lo:hi)
      f%u(lo:hi) = unew
      where (abs(f%u(lo:hi)) < 1.0e-30_wp) f%u(lo:hi) = 0.0_wp
    end associate
  end subroutine advance
end module field_mod

program wave_assoc
  use mpi
  use config_mod
  use field_mod
  implicit none
  type(config_t) :: cfg
  type(field_t) :: f
  integer :: me, np, ierr, step
  real(wp) :: e, etot
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call create(f, cfg%nx, me, np)
  do step = 1, cfg%nsteps
    call halo(f, MPI_COMM_WORLD)
    call advance(f, cfg)
    if (mod(step, cfg%out_every) == 0) then
      block
        integer :: nloc
        nloc = f%hi - f%lo + 1
        e = sum(f%u(f%lo:f%hi)**2) / nloc
        call MPI_Reduce(e, etot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
        if (me == 0) print '(a,i5,es12.4)', 'step', step, etot
      end block
    end if
  end do
  call MPI_Finalize(ierr)
end program wave_assoc
