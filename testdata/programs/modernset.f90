! modernset.f90: set-up as Fortran 2003 codes write it. The process grid
! lives in a derived type (its dims, coordinates and neighbours are
! components MPI fills), periods are an array constructor, the time step
! and end time travel in a REAL buffer built by a constructor, the time
! loop runs on a REAL clock (1/steps added up to 1: the run's rounding
! decides whether a last step runs), the solver's loop joins a residual test and an iteration
! limit in its DO WHILE, two array pointers swap each sweep, and a field's
! component is allocated once behind ALLOCATED.
module gridmod
  implicit none
  include 'mpif.h'
  type :: grid_t
    integer :: comm, dims(2), coords(2), west, east, south, north, nx, ny
  end type grid_t
  type :: field_t
    double precision, allocatable :: v(:)
  end type field_t
contains
  subroutine grid_init(g, n)
    type(grid_t), intent(inout) :: g
    integer, intent(in) :: n
    integer :: nprocs, rank, ierr
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    g%dims = 0
    call MPI_Dims_create(nprocs, 2, g%dims, ierr)
    call MPI_Cart_create(MPI_COMM_WORLD, 2, g%dims, [.false., .true.], .true., g%comm, ierr)
    call MPI_Comm_rank(g%comm, rank, ierr)
    call MPI_Cart_coords(g%comm, rank, 2, g%coords, ierr)
    call MPI_Cart_shift(g%comm, 0, 1, g%west, g%east, ierr)
    call MPI_Cart_shift(g%comm, 1, 1, g%south, g%north, ierr)
    g%nx = n / g%dims(1)
    if (g%coords(1) < mod(n, g%dims(1))) g%nx = g%nx + 1
    g%ny = n / g%dims(2)
    if (g%coords(2) < mod(n, g%dims(2))) g%ny = g%ny + 1
  end subroutine grid_init
  subroutine field_init(f, m)
    type(field_t), intent(inout) :: f
    integer, intent(in) :: m
    if (allocated(f%v)) deallocate(f%v)
    allocate(f%v(m))
    f%v = 0.0d0
  end subroutine field_init
end module gridmod

program modernset
  use gridmod
  implicit none
  integer, parameter :: n = 24, steps = 10
  !mk$ param n = 24
  !mk$ param steps = 10
  type(grid_t) :: g
  type(field_t) :: f
  double precision, allocatable, target :: a(:,:), b(:,:)
  double precision, pointer :: uold(:,:), unew(:,:), tmp(:,:)
  double precision :: rbuf(2), dt, t_end, t, res, tol, gres
  integer :: rank, ierr, i, j, it, maxit, nstep
  call MPI_Init(ierr)
  call grid_init(g, n)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (rank == 0) then
    rbuf = [1.0d0 / steps, 1.0d0]
  end if
  call MPI_Bcast(rbuf, 2, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  dt = rbuf(1)
  t_end = rbuf(2)
  call field_init(f, g%nx)
  call field_init(f, g%nx * g%ny)
  allocate(a(0:g%nx+1, 0:g%ny+1), b(0:g%nx+1, 0:g%ny+1))
  a = 1.0d0
  b = 0.0d0
  uold => a
  unew => b
  maxit = 3 * steps
  tol = 1.0d-300
  t = 0.0d0
  nstep = 0
  do while (t < t_end)
    call MPI_Sendrecv(uold(1, 1:g%ny), g%ny, MPI_DOUBLE_PRECISION, g%west, 1, &
                      uold(g%nx+1, 1:g%ny), g%ny, MPI_DOUBLE_PRECISION, g%east, 1, g%comm, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(uold(1:g%nx, 1), g%nx, MPI_DOUBLE_PRECISION, g%south, 2, &
                      uold(1:g%nx, g%ny+1), g%nx, MPI_DOUBLE_PRECISION, g%north, 2, g%comm, MPI_STATUS_IGNORE, ierr)
    res = 1.0d0
    it = 0
    do while (res > tol .and. it < maxit)
      it = it + 1
      res = 0.0d0
      do j = 1, size(uold, 2) - 2
        do i = 1, size(uold, 1) - 2
          unew(i, j) = 0.25d0 * (uold(i-1, j) + uold(i+1, j) + uold(i, j-1) + uold(i, j+1))
          res = res + abs(unew(i, j) - uold(i, j))
        end do
      end do
      tmp => uold
      uold => unew
      unew => tmp
      call MPI_Allreduce(res, gres, 1, MPI_DOUBLE_PRECISION, MPI_SUM, g%comm, ierr)
      res = gres + 1.0d0
    end do
    do i = 1, size(f%v)
      f%v(i) = f%v(i) + dt
    end do
    t = t + dt
    nstep = nstep + 1
  end do
  if (rank == 0) print *, nstep, t, sum(f%v)
  call MPI_Finalize(ierr)
end program modernset
