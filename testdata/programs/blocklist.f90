! blocklist.f90 -- a rank's blocks in an allocatable array of a derived
! type, each block's extents set per element in a loop (a refinement
! level cycling with the block's number), then each block passed as an
! element to a function that sweeps it by its own extents. nb, base and
! steps come from blocklist.in when it is there (defaults 12, 8, 5).
module blocks_mod
  implicit none
  type :: block_t
    integer :: nx, ny, level
    real(8), allocatable :: u(:,:)
  end type block_t
  type(block_t), allocatable :: blocks(:)
  integer :: nblocks
contains
  subroutine make_blocks(me, np, nb_total, base)
    integer, intent(in) :: me, np, nb_total, base
    integer :: b, first, last
    first = me * nb_total / np + 1
    last = (me + 1) * nb_total / np
    nblocks = last - first + 1
    allocate(blocks(nblocks))
    do b = 1, nblocks
      blocks(b)%level = mod(first + b - 2, 3)
      blocks(b)%nx = base * 2**blocks(b)%level
      blocks(b)%ny = base
      allocate(blocks(b)%u(0:blocks(b)%nx+1, 0:blocks(b)%ny+1))
      blocks(b)%u = 0.0d0
    end do
  end subroutine make_blocks

  real(8) function relax(bk) result(r)
    type(block_t), intent(inout) :: bk
    integer :: i, j
    r = 0
    do j = 1, bk%ny
      do i = 1, bk%nx
        bk%u(i, j) = 0.25d0 * (bk%u(i-1,j) + bk%u(i+1,j) + bk%u(i,j-1) + bk%u(i,j+1)) + 1.0d0
        r = r + bk%u(i, j)
      end do
    end do
  end function relax
end module blocks_mod

program blocklist
  use mpi
  use blocks_mod
  implicit none
  integer :: me, np, ierr, step, b, nb, base, steps, ios
  real(8) :: s, gs
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  nb = 12
  base = 8
  steps = 5
  open(10, file='blocklist.in', status='old', action='read', iostat=ios)
  if (ios == 0) then
    read(10, *) nb, base, steps
    close(10)
  end if
  call make_blocks(me, np, nb, base)
  do step = 1, steps
    s = 0
    do b = 1, nblocks
      s = s + relax(blocks(b))
    end do
    call mpi_allreduce(s, gs, 1, mpi_double_precision, mpi_sum, mpi_comm_world, ierr)
  end do
  if (me == 0) print *, gs
  call mpi_finalize(ierr)
end program blocklist
