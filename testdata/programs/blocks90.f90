! blocks90.f90 -- a Fortran 90 decomposition as mini-apps write it: the
! grid's cells are split over a px by py grid of chunks, the remainder of
! each direction going one cell each to the first chunks; every process
! scans all the chunks, counting the extra cells of those before it, and
! keeps its own block's bounds and four neighbours (module variables, set
! through a derived type's array component). The scan walks every chunk on
! every process: at P = 1024 it is 1024 trips of a body of some sixty
! nodes, set-up whose cost grows with P and must still be run.
module blocks
  implicit none
  integer, parameter :: nx = 1000, ny = 1000
  type chunk_type
    integer :: nbr(4)
    integer :: left, right, bottom, top
  end type chunk_type
  type(chunk_type) :: chunk
  integer :: px, py
contains
  subroutine decompose(me, np)
    integer, intent(in) :: me, np
    integer :: c, cx, cy, k, dx, dy, mx, my, addx, addy, prevx, prevy
    px = np
    py = 1
    do k = 1, np
      if (mod(np, k) == 0) then
        if (real(np/k)/real(k) <= real(nx)/real(ny)) then
          py = k
          px = np/k
          exit
        end if
      end if
    end do
    dx = nx/px
    dy = ny/py
    mx = mod(nx, px)
    my = mod(ny, py)
    prevx = 0
    prevy = 0
    c = 1
    do cy = 1, py
      do cx = 1, px
        addx = 0
        addy = 0
        if (cx <= mx) addx = 1
        if (cy <= my) addy = 1
        if (c == me + 1) then
          chunk%left = (cx - 1)*dx + 1 + prevx
          chunk%right = chunk%left + dx - 1 + addx
          chunk%bottom = (cy - 1)*dy + 1 + prevy
          chunk%top = chunk%bottom + dy - 1 + addy
          chunk%nbr(1) = px*(cy - 1) + cx - 1
          chunk%nbr(2) = px*(cy - 1) + cx + 1
          chunk%nbr(3) = px*(cy - 2) + cx
          chunk%nbr(4) = px*cy + cx
          if (cx == 1) chunk%nbr(1) = -1
          if (cx == px) chunk%nbr(2) = -1
          if (cy == 1) chunk%nbr(3) = -1
          if (cy == py) chunk%nbr(4) = -1
        end if
        if (cx <= mx) prevx = prevx + 1
        c = c + 1
      end do
      prevx = 0
      if (cy <= my) prevy = prevy + 1
    end do
  end subroutine decompose
end module blocks

program blocks90
  use blocks
  implicit none
  include 'mpif.h'
  integer :: ierr, me, np, i, j, s
  double precision :: x, buf(1000)
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  call decompose(me, np)
  do s = 1, 4
    if (chunk%nbr(s) /= -1) then
      call MPI_SEND(buf, chunk%top - chunk%bottom + 1, MPI_DOUBLE_PRECISION, &
                    chunk%nbr(s) - 1, s, MPI_COMM_WORLD, ierr)
    end if
  end do
  x = 0.0d0
  do j = chunk%bottom, chunk%top
    do i = chunk%left, chunk%right
      x = x + 1.0d0
    end do
  end do
  call MPI_FINALIZE(ierr)
end program blocks90
