! blocklocal.f90: BLOCK constructs with declarations of their own that
! hide the program's variables of the same names for the construct's
! extent (Fortran 2008 8.1.4): a block's n and its DO variable i, an array
! of its own, a nested block hiding the outer block's count; after each
! block the program's own variables are as they were.
program blocklocal
  implicit none
  include 'mpif.h'
  integer, parameter :: n0 = 12, steps = 3
  !mk$ param n0 = 12
  !mk$ param steps = 3
  integer :: n, i, t, rank, nprocs, ierr
  double precision :: w

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  n = n0 + rank
  i = 7
  w = 0.0d0
  do t = 1, steps
    block
      integer :: n, i
      integer :: lens(4)
      n = 3 * t
      do i = 1, 4
        lens(i) = i + n
      end do
      do i = 1, lens(4)
        w = w + dble(i)
      end do
      block
        integer :: n
        n = 2
        do i = 1, n * lens(1)
          w = w + 1.0d0
        end do
      end block
      do i = 1, n
        w = w - 1.0d0
      end do
    end block
  end do
  do t = 1, n + i
    w = w + dble(t)
  end do
  if (rank == 0) print *, w
  call MPI_Finalize(ierr)
end program blocklocal
