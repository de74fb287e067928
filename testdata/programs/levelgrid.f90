! Multigrid levels and multi-block meshes kept in arrays of a derived type
! whose components are allocatable, each element allocated with its own
! shape: the counts follow each element's extents.
module grids
  implicit none
  type level
    real(8), allocatable :: u(:,:), r(:,:)
    integer :: n
  end type level
  type block
    real(8), allocatable :: f(:,:,:)
    integer, allocatable :: ids(:)
  end type block
contains
  subroutine setup(lv, n)
    type(level), intent(inout) :: lv
    integer, intent(in) :: n
    lv%n = n
    allocate(lv%u(0:n+1, 0:n+1))
    allocate(lv%r(n, n))
    lv%u = 1d0
  end subroutine setup

  subroutine smooth(lv)
    type(level), intent(inout) :: lv
    integer :: i, j
    do j = lbound(lv%u, 2) + 1, ubound(lv%u, 2) - 1
      do i = 1, size(lv%u, 1) - 2
        lv%u(i,j) = 0.25d0 * (lv%u(i-1,j) + lv%u(i+1,j) + lv%u(i,j-1) + lv%u(i,j+1))
      end do
    end do
  end subroutine smooth

  subroutine resid(lv)
    type(level), intent(inout) :: lv
    integer :: i, j
    do j = 1, lv%n
      do i = 1, lv%n
        lv%r(i,j) = lv%u(i,j) - 0.5d0 * lv%u(i-1,j)
      end do
    end do
  end subroutine resid

  subroutine scale(a)
    real(8), intent(inout) :: a(:,:)
    integer :: i, j
    do j = 1, size(a, 2)
      do i = 1, size(a, 1)
        a(i,j) = 2d0 * a(i,j)
      end do
    end do
  end subroutine scale

  subroutine sweep(bk)
    type(block), intent(inout) :: bk
    integer :: i, j, k
    do k = 1, size(bk%f, 3)
      do j = 1, size(bk%f, 2)
        do i = 1, size(bk%f, 1)
          bk%f(i,j,k) = bk%f(i,j,k) + 1d0
        end do
      end do
    end do
  end subroutine sweep
end module grids

program levelgrid
  use mpi
  use grids
  implicit none
  integer, parameter :: n = 32, nlev = 4, nb = 3
  integer, parameter :: nx(nb) = [6, 4, 9], ny(nb) = [5, 7, 3], nz(nb) = [2, 3, 4]
  type(level), allocatable, target :: lev(:)
  type(level), pointer :: lp
  type(block), allocatable :: blocks(:)
  integer :: ierr, rank, np, l, b, it, n0, i, k
  real(8) :: s, tot
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, rank, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  n0 = n / np
  ! Levels allocated in the loop, and by a routine given the element.
  allocate(lev(nlev))
  do l = 1, size(lev)
    if (mod(l, 2) == 1) then
      lev(l)%n = n0 / 2**(l-1)
      allocate(lev(l)%u(0:lev(l)%n+1, 0:lev(l)%n+1), lev(l)%r(lev(l)%n, lev(l)%n))
      lev(l)%u = 0d0
    else
      call setup(lev(l), n0 / 2**(l-1))
    end if
  end do
  s = 0d0
  do it = 1, 3
    do l = 1, nlev
      call smooth(lev(l))
      call resid(lev(l))
      lev(l)%r = lev(l)%u(1:lev(l)%n, 1:lev(l)%n) * 2d0
      call scale(lev(l)%r)
      s = s + sum(lev(l)%r)
    end do
  end do
  ! A pointer to an element.
  do l = 1, nlev
    lp => lev(l)
    do i = 1, size(lp%u, 1)
      s = s + lp%u(i, 1)
    end do
    do i = 1, lp%n
      s = s + lp%r(i, 1)
    end do
  end do
  ! The coarsest level freed and allocated again, finer.
  deallocate(lev(nlev)%u)
  allocate(lev(nlev)%u(0:2*lev(nlev)%n+1, 0:2*lev(nlev)%n+1))
  lev(nlev)%u = 3d0
  call smooth(lev(nlev))
  ! Blocks whose extents come from a table.
  allocate(blocks(nb))
  do b = 1, nb
    allocate(blocks(b)%f(nx(b), ny(b), nz(b) + rank))
    allocate(blocks(b)%ids(nx(b)))
    blocks(b)%f = 0d0
  end do
  do it = 1, 2
    do b = 1, size(blocks)
      call sweep(blocks(b))
      do k = 1, size(blocks(b)%ids)
        blocks(b)%ids(k) = k + b
      end do
    end do
  end do
  do b = 1, nb
    if (allocated(blocks(b)%f)) s = s + sum(blocks(b)%f)
    ! Each block's own integer table, as its loop left it.
    do i = 1, blocks(b)%ids(size(blocks(b)%ids)) - blocks(b)%ids(1)
      s = s + i
    end do
  end do
  call mpi_allreduce(s, tot, 1, mpi_double_precision, mpi_sum, mpi_comm_world, ierr)
  if (rank == 0) print *, tot
  call mpi_finalize(ierr)
end program levelgrid
