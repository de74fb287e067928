! reductions.f90: a set-up that decides its work with Fortran's array
! reductions, as SNAP picks its sweep order by MINLOC of the stage counts
! and counts its tasks with COUNT: MINLOC and MAXLOC along DIM=1, PRODUCT
! of the process grid MPI_DIMS_CREATE chose, SUM of a section, COUNT of a
! mask, MAXVAL and ANY.
program reductions
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 100, steps = 4
  !mk$ param n = 100
  !mk$ param steps = 4
  integer :: stg(3), dims(2), cnt(0:7), rank, nprocs, ierr, i, k, it, order, ntask, width
  logical :: busy(4)
  double precision :: s, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  stg = (/ mod(n, 7) + 1, 3, 5 /)
  dims = 0
  call MPI_Dims_create(nprocs, 2, dims, ierr)
  do i = 0, 7
    cnt(i) = mod(i * 3 + n, 5)
  end do
  busy = (/ mod(n, 2) == 0, .false., steps > 2, .true. /)
  order = minloc(stg, 1) + maxloc(stg(2:3), dim=1)
  ntask = count(cnt > 2)
  width = n / product(dims) + sum(cnt(2:5)) * order + maxval(cnt)
  if (any(busy)) width = width + count(busy)
  s = 0.0d0
  do it = 1, steps
    do i = 1, width
      s = s + dble(i) / dble(width)
    end do
    do k = 1, ntask
      s = s * 0.5d0
    end do
    call MPI_Allreduce(s, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  if (rank == 0) print *, total
  call MPI_Finalize(ierr)
end program reductions
