! atm2d.f90 -- a red/black relaxation on a 2D grid in the style of MK's
! ATM2D (seed 000, section 5): rows are block-distributed over the ranks
! (the remainder going to the first ranks), and before each colour's sweep
! every rank exchanges its boundary rows with both neighbours using
! MPI_Sendrecv, a loosely synchronous phase. The grid size and the number
! of iterations are parameters.
module atm_grid
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: nx = 64, ny = 64, niter = 20
  !mk$ param nx = 64
  !mk$ param ny = 64
  !mk$ param niter = 20
  !mk$ assume ny >= np

  type :: grid_t
    integer :: nrows      ! rows owned by this rank
    integer :: row0       ! global index of the first owned row
    integer :: up, down   ! neighbour ranks or MPI_PROC_NULL
    real(kind=8), allocatable :: u(:, :), f(:, :)
  end type grid_t

contains

  subroutine decompose(g, me, np)
    use mpi
    type(grid_t), intent(inout) :: g
    integer, intent(in) :: me, np
    integer :: base, extra
    base = ny/np
    extra = mod(ny, np)
    if (me < extra) then
      g%nrows = base + 1
      g%row0 = me*(base + 1) + 1
    else
      g%nrows = base
      g%row0 = extra*(base + 1) + (me - extra)*base + 1
    end if
    g%up = me + 1
    g%down = me - 1
    if (me == np - 1) g%up = MPI_PROC_NULL
    if (me == 0) g%down = MPI_PROC_NULL
    allocate (g%u(0:nx + 1, 0:g%nrows + 1), g%f(nx, g%nrows))
    g%u = 0.0_dp
    g%f = 1.0_dp
  end subroutine decompose

  subroutine exchange(g)
    use mpi
    type(grid_t), intent(inout) :: g
    integer :: ierr
    integer :: status(MPI_STATUS_SIZE)
    call MPI_Sendrecv(g%u(0, g%nrows), nx + 2, MPI_DOUBLE_PRECISION, g%up, 1, &
                      g%u(0, 0), nx + 2, MPI_DOUBLE_PRECISION, g%down, 1, &
                      MPI_COMM_WORLD, status, ierr)
    call MPI_Sendrecv(g%u(0, 1), nx + 2, MPI_DOUBLE_PRECISION, g%down, 2, &
                      g%u(0, g%nrows + 1), nx + 2, MPI_DOUBLE_PRECISION, g%up, 2, &
                      MPI_COMM_WORLD, status, ierr)
  end subroutine exchange

  subroutine sweep(g, colour)
    type(grid_t), intent(inout) :: g
    integer, intent(in) :: colour
    integer :: i, j
    do j = 1, g%nrows
      do i = 1, nx
        if (mod(i + g%row0 + j - 1, 2) == colour) then
          g%u(i, j) = 0.25_dp*(g%u(i - 1, j) + g%u(i + 1, j) + g%u(i, j - 1) &
                               + g%u(i, j + 1) + g%f(i, j))
        end if
      end do
    end do
  end subroutine sweep
end module atm_grid

program atm2d
  use mpi
  use atm_grid
  implicit none
  type(grid_t) :: g
  integer :: me, np, ierr, it, colour
  real(dp) :: local, total

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call decompose(g, me, np)
  do it = 1, niter
    do colour = 0, 1
      call exchange(g)
      call sweep(g, colour)
    end do
  end do
  local = sum(g%u(1:nx, 1:g%nrows))
  call MPI_Allreduce(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (me == 0) write (*, '(a, es16.8)') ' atm2d checksum', total
  deallocate (g%u, g%f)
  call MPI_Finalize(ierr)
end program atm2d
