! owned.f90 -- each rank counts what it owns before it allocates and
! sends: the rows dealt out cyclically (mod(i-1, np) == me), the columns
! of its block widened by a halo of two that stops at the grid's edges,
! and the cells of a 2D stencil whose neighbours lie inside the grid (a
! count kept in a nest of two loops under one test). The counts size the
! buffers, the messages and the loops that follow. n, m and the step
! count come from the file owned.in when it is there (defaults 1000, 64, 5).
program owned
  use mpi
  implicit none
  integer :: n, m, steps, me, np, ierr, i, j, di, dj, it
  integer :: nmine, nhalo, nlinks, lo, hi, left, right, ios, maxlen
  double precision, allocatable :: buf(:), got(:), w(:)
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  n = 1000
  m = 64
  steps = 5
  open(10, file='owned.in', status='old', action='read', iostat=ios)
  if (ios == 0) then
    read(10, *) n, m, steps
    close(10)
  end if
  nmine = 0
  do i = 1, n
    if (mod(i - 1, np) == me) nmine = nmine + 1
  end do
  lo = me * (m / np) + 1
  hi = lo + m / np - 1
  nhalo = 0
  do j = lo - 2, hi + 2
    if (j >= 1 .and. j <= m) then
      nhalo = nhalo + 1
    end if
  end do
  ! Links of cell (lo, 1) to its 3x3 neighbourhood inside the m x m grid.
  nlinks = 0
  do di = -1, 1
    do dj = -1, 1
      if (lo + di >= 1 .and. lo + di <= m .and. 1 + dj >= 1 .and. 1 + dj <= m) nlinks = nlinks + 1
    end do
  end do
  ! A neighbour may own a row and a halo column more.
  maxlen = (n / np + 1) * (m / np + 5)
  allocate(buf(nmine * nhalo), got(maxlen), w(nlinks * steps))
  buf = 1.0d0
  w = 0.0d0
  right = mod(me + 1, np)
  left = mod(me - 1 + np, np)
  do it = 1, steps
    call mpi_sendrecv(buf, nmine * nhalo, mpi_double_precision, right, 1, &
                      got, maxlen, mpi_double_precision, left, 1, mpi_comm_world, mpi_status_ignore, ierr)
    do i = 1, nmine * nhalo
      buf(i) = 0.5d0 * (buf(i) + got(i))
    end do
    do i = 1, nlinks
      w(i) = w(i) + buf(1)
    end do
  end do
  if (me == 0) print *, buf(1), w(1)
  call mpi_finalize(ierr)
end program owned
