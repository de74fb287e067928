! compsum.f90: reductions over components of an array of a derived type
! and over elemental expressions: SUM of one component, SUM of a product of
! two, COUNT of a comparison of a component with the rank, COUNT of an
! elemental function's result compared (MOD(ids, np) == rank). Each bounds
! a loop.
program compsum
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 6, steps = 2
  !mk$ param n = 6
  !mk$ param steps = 2
  type :: patch_t
    integer :: nx = 0, ny = 0, owner = -1
  end type patch_t
  type(patch_t) :: pt(4)
  integer :: ids(12), k, j, t, tot, area, mine, nmod, rank, nprocs, ierr
  double precision :: w

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  do k = 1, 4
    pt(k)%nx = n + k
    pt(k)%ny = k
    pt(k)%owner = mod(k, nprocs)
  end do
  do k = 1, 12
    ids(k) = k * n
  end do
  tot = sum(pt%nx)
  area = sum(pt%nx * pt%ny)
  mine = count(pt%owner == rank)
  nmod = count(mod(ids, nprocs) == mod(rank, 2))
  w = 0.0d0
  do t = 1, steps
    do j = 1, tot + area
      w = w + dble(j)
    end do
    do j = 1, 10 * mine
      w = w + 1.0d0
    end do
    do j = 1, 5 * nmod
      w = w - 1.0d0
    end do
  end do
  if (rank == 0) print *, w
  call MPI_Finalize(ierr)
end program compsum
