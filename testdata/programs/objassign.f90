! objassign.f90: patches kept in an allocatable array of a derived type
! whose components have defaults (an owner of -1, a nested type's
! multiplier of 1), given their values the ways programs write it: a
! structure constructor assigned to the whole array and to one element
! (positional, by keyword with the rest defaulted), a variable of the type
! assigned to an element, an element of one array assigned to an element of
! another. Each process then works on the patches it owns, as far as the
! patch's size times its multiplier says.
program objassign
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 10, steps = 3
  !mk$ param n = 10
  !mk$ param steps = 3
  type :: scale_t
    integer :: m = 1
  end type scale_t
  type :: patch_t
    integer :: cells = 0
    integer :: owner = -1
    type(scale_t) :: sc
  end type patch_t
  type(patch_t), allocatable :: pt(:)
  type(patch_t) :: q, kept(3)
  integer :: j, k, t, ierr, rank, nprocs
  double precision :: w

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  allocate(pt(4))
  pt = patch_t(n, rank, scale_t(3))
  q%cells = n + 1
  q%owner = mod(2, nprocs)
  q%sc%m = 5
  pt(2) = q
  pt(3) = patch_t(cells=2 * n, owner=0)
  kept(1) = pt(2)
  w = 0.0d0
  do t = 1, steps
    do k = 1, 4
      if (pt(k)%owner /= rank) cycle
      do j = 1, pt(k)%cells * pt(k)%sc%m
        w = w + dble(j)
      end do
    end do
    do j = 1, kept(1)%cells + kept(1)%sc%m
      w = w + 1.0d0
    end do
  end do
  if (rank == 0) print *, w
  call MPI_Finalize(ierr)
end program objassign
