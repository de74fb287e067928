! elemout.f90: a block decomposition whose bounds come back through array
! elements passed to scalar dummies (CALL decompose(..., range(1), range(2))),
! a count set by a routine into an element of a table, and loops bounded by
! those elements, as codes that keep their index ranges in small arrays do.
program elemout
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 100, steps = 4
  !mk$ param n = 100
  !mk$ param steps = 4
  integer :: range(2), counts(3), rank, nprocs, ierr, i, it, left, right
  double precision :: u(0:n+1), s, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call decompose(n, nprocs, rank, range(1), range(2))
  counts = 0
  call setcount(counts(2), range(2) - range(1) + 1)
  call setcount(counts(3), 2 * counts(2))
  left = rank - 1
  right = rank + 1
  if (left < 0) left = MPI_PROC_NULL
  if (right >= nprocs) right = MPI_PROC_NULL
  u = 1.0d0
  s = 0.0d0
  do it = 1, steps
    call MPI_Sendrecv(u(range(2)), 1, MPI_DOUBLE_PRECISION, right, 0, &
                      u(range(1) - 1), 1, MPI_DOUBLE_PRECISION, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    do i = range(1), range(2)
      u(i) = 0.5d0 * (u(i - 1) + u(i))
    end do
    do i = 1, counts(3)
      s = s + 1.0d0 / i
    end do
  end do
  call MPI_Reduce(s, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, total
  call MPI_Finalize(ierr)
contains
  subroutine decompose(m, np, me, lo, hi)
    integer, intent(in) :: m, np, me
    integer, intent(out) :: lo, hi
    integer :: q, r
    q = m / np
    r = mod(m, np)
    lo = me * q + min(me, r) + 1
    hi = lo + q - 1
    if (me < r) hi = hi + 1
  end subroutine decompose
  subroutine setcount(c, v)
    integer, intent(out) :: c
    integer, intent(in) :: v
    c = v
  end subroutine setcount
end program elemout
