! A multipartition set up by hand, as BT and SP set theirs up: each of the
! P = q*q processes owns q cells, whose coordinates along the row cycle with
! MOD (each a remainder of the one before); a cell holds n/q points, one
! more where its coordinate is within the remainder, and the set-up stops
! the run with MPI_ABORT when a cell is smaller than 3 points. Every rank
! owns a cell of each coordinate, so where one rank aborts all do, each at
! its own cell. The work is the points of the cells off the first column.
! Input: n, m (points per cell face), nl (unused here).
program cellcheck
  use mpi
  implicit none
  integer me, np, ierr, n, m, nl, xd, row, c, cc(32), sz(32), ex, bs, fs, i
  double precision s
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  read *, n, m, nl
  s = 0
  xd = int(sqrt(dble(np)) + 0.001)
  row = mod(me, xd)
  cc(1) = row
  do c = 2, xd
    cc(c) = mod(cc(c - 1) + 1, xd)
  enddo
  do c = 1, xd
    cc(c) = cc(c) + 1
  enddo
  bs = n/xd
  ex = mod(n, xd)
  do c = 1, xd
    if (cc(c) <= ex) then
      sz(c) = bs + 1
    else
      sz(c) = bs
    endif
    if (sz(c) < 3) then
      call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
    endif
  enddo
  fs = 0
  do c = 1, xd
    if (cc(c) /= 1) fs = fs + sz(c)*m
  enddo
  do i = 1, fs
    s = s + 1
  enddo
  call MPI_FINALIZE(ierr)
end program cellcheck
