! consalloc.f90: allocatable arrays given their shape by an assignment of
! an array constructor (Fortran 2018 10.2.1.3): an implied DO over the
! ranks, a list of literals, a list grown by one element per owned item
! (list = [list, k], the append idiom), two lists joined; the loops then
! run over SIZE of each, and over the elements where they are numbers.
program consalloc
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 20, steps = 2
  !mk$ param n = 20
  !mk$ param steps = 2
  integer, allocatable :: ids(:), lens(:), mine(:), both(:)
  integer :: i, j, k, t, rank, nprocs, ierr
  double precision :: w

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  ids = [(i, i = rank, n - 1, nprocs)]
  lens = [3, 1, 4, 1, 5]
  allocate(mine(0))
  do k = 1, n
    if (mod(k, nprocs) == rank) mine = [mine, k]
  end do
  both = [ids, lens, 7]
  w = 0.0d0
  do t = 1, steps
    do k = 1, size(ids)
      w = w + dble(ids(k))
    end do
    do k = 1, size(lens)
      do j = 1, lens(k) * 10
        w = w + 1.0d0
      end do
    end do
    do k = 1, size(mine)
      w = w - dble(mine(k))
    end do
    do k = 1, size(both)
      w = w + 0.5d0
    end do
  end do
  if (rank == 0) print *, w
  call MPI_Finalize(ierr)
end program consalloc
