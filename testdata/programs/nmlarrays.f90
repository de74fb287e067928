! nmlarrays.f90: a 2-D solver whose settings come in a NAMELIST file with
! arrays, as Fortran 90 codes write them: the global grid as a whole
! array, a per-phase sweep table set by element and by section, repeat
! counts (2*3), a short list leaving defaults, a logical array choosing
! the exchanges, the scheme as text. Rank 0 reads, then broadcasts; the
! work arrays are allocated with MOLD= and SOURCE=.
module nml_settings
  implicit none
  integer :: grid(2) = [16, 16]
  integer :: sweeps(4) = 1
  integer :: widths(3) = [1, 1, 1]
  logical :: exchange(2) = .true.
  integer :: steps = 4
  character(len=8) :: scheme = 'jacobi'
  namelist /run/ grid, sweeps, widths, exchange, steps, scheme
end module nml_settings

program nmlarrays
  use mpi
  use nml_settings
  implicit none
  integer :: rank, np, ierr, u, ios, ny, step, s, i, j, w
  double precision, allocatable :: a(:, :), b(:, :), c(:, :)
  double precision :: tot, all

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  if (rank == 0) then
    open(newunit=u, file='run.nml', status='old', action='read', iostat=ios)
    if (ios == 0) then
      read(u, nml=run)
      close(u)
    end if
  end if
  call MPI_Bcast(grid, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(sweeps, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(widths, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(exchange, 2, MPI_LOGICAL, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(steps, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(scheme, len(scheme), MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)
  ny = grid(2) / np
  if (rank < mod(grid(2), np)) ny = ny + 1
  allocate(a(0:grid(1)+1, 0:ny+1))
  a = 1.0d0
  allocate(b, mold=a)
  allocate(c, source=a)
  tot = 0.0d0
  do step = 1, steps
    do s = 1, sweeps(mod(step - 1, 4) + 1)
      do w = 1, widths(mod(s - 1, 3) + 1)
        do j = 1, ny
          do i = 1, grid(1)
            b(i, j) = 0.25d0 * (a(i-1, j) + a(i+1, j) + c(i, j-1) + c(i, j+1))
          end do
        end do
      end do
    end do
    if (trim(scheme) == 'gs') then
      do j = 1, size(b, 2) - 2
        tot = tot + sum(b(1:size(b, 1) - 2, j))
      end do
    end if
    if (exchange(1) .and. rank > 0) then
      call MPI_Send(b(1, 1), grid(1), MPI_DOUBLE_PRECISION, rank - 1, 0, MPI_COMM_WORLD, ierr)
    end if
    if (exchange(1) .and. rank < np - 1) then
      call MPI_Recv(b(1, ny+1), grid(1), MPI_DOUBLE_PRECISION, rank + 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end if
    if (exchange(2)) then
      call MPI_Allreduce(tot, all, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    end if
  end do
  if (rank == 0) print *, 'total', all
  call MPI_Finalize(ierr)
end program nmlarrays
