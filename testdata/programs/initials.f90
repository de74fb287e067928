! initials.f90: settings held in initialised arrays, as programs keep them:
! a process grid's dims and periods given in their declarations (mpi_f08,
! MPI_DIMS_CREATE fills the zeros), a table of sweeps per step from an
! implied DO, a RESHAPE'd table of stencil widths, a DATA list with
! repeats, a derived type whose array component has a default
! initialisation, a named constant array (its elements, SIZE and SUM) and
! a character array of boundary kinds, initialised and assigned. The values
! decide the work and the messages.
program initials
  use mpi_f08
  implicit none
  integer, parameter :: n = 40, steps = 6
  !mk$ param n = 40
  !mk$ param steps = 6
  integer :: dims(2) = 0, coords(2)
  logical :: periods(2) = .false.
  integer :: width(2, 2) = reshape([1, 2, 3, 1], [2, 2])
  integer :: burst(5)
  integer :: k0
  integer, parameter :: passes(3) = [1, 3, 2]
  character(len=8) :: bc(2) = ['periodic', 'wall    ']
  integer :: sweeps(4) = [(mod(k0, 3) + 1, k0 = 1, 4)]
  data burst /2*1, 3*2/
  type(MPI_Comm) :: cart
  type reps_t
    integer :: reps(2) = [2, 1]
    logical :: twice(2) = [.true., .false.]
  end type reps_t
  type(reps_t) :: rp
  integer :: r
  integer :: rank, np, left, right, down, up, nx, ny, step, sweep, i, j
  double precision, allocatable :: u(:, :)
  double precision :: s, tot

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  call MPI_Dims_create(np, 2, dims)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart)
  call MPI_Cart_coords(cart, rank, 2, coords)
  call MPI_Cart_shift(cart, 0, 1, left, right)
  call MPI_Cart_shift(cart, 1, 1, down, up)
  nx = n / dims(1)
  if (coords(1) < mod(n, dims(1))) nx = nx + 1
  ny = n / dims(2)
  if (coords(2) < mod(n, dims(2))) ny = ny + 1
  allocate(u(0:nx+1, 0:ny+1))
  u = 1.0d0
  s = 0.0d0
  bc(2) = 'open'
  do step = 1, steps
    if (bc(1) == 'periodic' .and. mod(step, 2) == 0) then
      call MPI_Allreduce(MPI_IN_PLACE, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, cart)
    end if
    if (bc(2) == 'wall') s = s + 1.0d0
    do sweep = 1, sweeps(mod(step - 1, 4) + 1)
      do j = 1, ny
        do i = 1, nx * width(mod(step, 2) + 1, mod(sweep, 2) + 1)
          s = s + u(mod(i - 1, nx) + 1, j) * 0.5d0
        end do
      end do
    end do
    do r = 1, rp%reps(mod(step, 2) + 1)
      if (rp%twice(mod(step, 2) + 1)) s = s + 1.0d0
      do i = 1, nx
        s = s + u(i, 1)
      end do
    end do
    do r = 1, passes(mod(step, 3) + 1) * size(passes) + sum(passes)
      s = s + u(1, 1)
    end do
    do i = 1, burst(mod(step - 1, 5) + 1)
      call MPI_Sendrecv(u(1, 1:ny), ny, MPI_DOUBLE_PRECISION, left, 0, &
           u(nx+1, 1:ny), ny, MPI_DOUBLE_PRECISION, right, 0, cart, MPI_STATUS_IGNORE)
      call MPI_Sendrecv(u(1:nx, 1), nx, MPI_DOUBLE_PRECISION, down, 1, &
           u(1:nx, ny+1), nx, MPI_DOUBLE_PRECISION, up, 1, cart, MPI_STATUS_IGNORE)
    end do
  end do
  call MPI_Allreduce(s, tot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, cart)
  if (rank == 0) print *, 'total', tot
  call MPI_Finalize()
end program initials
