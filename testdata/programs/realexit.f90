! realexit.f90: loops that end on a REAL clock the body steps, tested by an
! IF ... EXIT: a counted DO with an iteration limit far beyond the clock's
! end (the step before the test, work after it), a DO without control that
! tests before it steps, a single-precision clock of 0.1 steps (the run's
! rounding decides the last trip), and a DO whose own count ends first.
program realexit
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 40, maxit = 100000
  !mk$ param n = 40
  !mk$ param maxit = 100000
  double precision :: t, dt, tend, w
  real :: ts
  integer :: it, i, rank, nprocs, ierr

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  w = 0.0d0
  t = 0.0d0
  dt = 1.0d0 / dble(n)
  tend = 1.0d0
  do it = 1, maxit
    t = t + dt
    do i = 1, n / nprocs
      w = w + dble(i) * t
    end do
    if (t >= tend) exit
    do i = 1, 3
      w = w - 1.0d0
    end do
  end do
  t = 0.0d0
  do
    if (t > 0.5d0 * tend) exit
    do i = 1, n + rank
      w = w + 1.0d0
    end do
    t = t + 2.0d0 * dt
  end do
  ts = 0.0
  do it = 1, maxit
    if (ts >= 1.0) exit
    ts = ts + 0.1
    do i = 1, 5
      w = w + 0.5d0
    end do
  end do
  t = 0.0d0
  do it = 1, n / 10
    t = t + dt
    if (t >= tend) exit
    w = w + 1.0d0
  end do
  if (rank == 0) print *, w, it
  call MPI_Finalize(ierr)
end program realexit
