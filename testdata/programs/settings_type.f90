! settings_type.f90 -- settings kept in a derived type, as Fortran 2003
! programs keep them: read from a NAMELIST (the group named in the
! format's place) into locals on rank 0, broadcast, then built with a
! structure constructor (by position, by keyword, a component left to its
! default, an extended type given its parent by name) and copied whole
! from object to object. The grid split
! over a 2D Cartesian communicator and the step count come from the copies;
! columns go as a vector datatype. n, m and steps come from settings.nml
! when it is there (defaults 64, 48, 4).
module settings_mod
  implicit none
  type :: grid_t
    integer :: nx = 64, ny = 48
  end type grid_t
  type, extends(grid_t) :: run_t
    integer :: steps = 4
    integer :: halo = 1
    logical :: report = .false.
  end type run_t
contains
  subroutine read_run(run)
    use mpi
    type(run_t), intent(out) :: run
    integer :: n, m, steps, me, ierr, u, ios
    logical :: report
    namelist /settings/ n, m, steps, report
    call mpi_comm_rank(mpi_comm_world, me, ierr)
    n = 64
    m = 48
    steps = 4
    report = .false.
    if (me == 0) then
      open(newunit=u, file='settings.nml', status='old', action='read', iostat=ios)
      if (ios == 0) then
        read(u, settings, iostat=ios)
        close(u)
      end if
    end if
    call mpi_bcast(n, 1, mpi_integer, 0, mpi_comm_world, ierr)
    call mpi_bcast(m, 1, mpi_integer, 0, mpi_comm_world, ierr)
    call mpi_bcast(steps, 1, mpi_integer, 0, mpi_comm_world, ierr)
    call mpi_bcast(report, 1, mpi_logical, 0, mpi_comm_world, ierr)
    ! By keyword, the parent by name; halo keeps its default.
    run = run_t(grid_t=grid_t(n, m), steps=steps, report=report)
  end subroutine read_run
end module settings_mod

program settings_type
  use mpi
  use settings_mod
  implicit none
  type(run_t) :: run, used
  type(grid_t) :: local
  integer :: comm, me, np, ierr, dims(2), coords(2), west, east, south, north
  integer :: coltype, it, i, j, k
  logical :: periods(2)
  double precision, allocatable :: u(:,:)
  double precision :: s, total
  call mpi_init(ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  call read_run(run)
  used = run
  dims = 0
  periods = .false.
  call mpi_dims_create(np, 2, dims, ierr)
  call mpi_cart_create(mpi_comm_world, 2, dims, periods, .true., comm, ierr)
  call mpi_comm_rank(comm, me, ierr)
  call mpi_cart_coords(comm, me, 2, coords, ierr)
  call mpi_cart_shift(comm, 0, 1, west, east, ierr)
  call mpi_cart_shift(comm, 1, 1, south, north, ierr)
  ! By position: each rank's share of the grid.
  local = grid_t(used%nx / dims(1) + merge(1, 0, coords(1) < mod(used%nx, dims(1))), &
                 used%ny / dims(2) + merge(1, 0, coords(2) < mod(used%ny, dims(2))))
  allocate(u(0:local%nx + 1, 0:local%ny + 1))
  u = 1.0d0
  call mpi_type_vector(local%ny, 1, local%nx + 2, mpi_double_precision, coltype, ierr)
  call mpi_type_commit(coltype, ierr)
  total = 0.0d0
  do it = 1, used%steps
    call mpi_sendrecv(u(local%nx, 1), 1, coltype, east, 1, u(0, 1), 1, coltype, west, 1, &
                      comm, mpi_status_ignore, ierr)
    call mpi_sendrecv(u(1, local%ny), local%nx, mpi_double_precision, north, 2, &
                      u(1, 0), local%nx, mpi_double_precision, south, 2, comm, mpi_status_ignore, ierr)
    s = 0.0d0
    do j = 1, local%ny
      do i = 1, local%nx
        s = s + u(i - 1, j) + u(i, j - 1)
      end do
    end do
    do k = 1, used%halo
      s = s * 0.5d0
    end do
    call mpi_allreduce(s, total, 1, mpi_double_precision, mpi_sum, comm, ierr)
    if (used%report .and. me == 0) print *, it, total
  end do
  if (me == 0) print *, 'total', total
  call mpi_type_free(coltype, ierr)
  call mpi_finalize(ierr)
end program settings_type
