! roundrun.f90 -- step counts that REAL quotients give, as the run rounds
! them: an end time and a step read from a deck (without one, 0.3 and
! 0.1: the quotient is 2.9999999999999996 in double precision, so INT
! gives 2 where exact arithmetic gives 3), the same by assignment to an
! INTEGER, FLOOR, CEILING and NINT of sums and products, a digit count
! from LOG(1000)/LOG(10), a quotient in single precision, a share per
! process of a truncated product, and a comparison rounding decides.
program roundrun
  use mpi
  implicit none
  integer :: ierr, rank, np, i, nsteps, nimpl, ndec, nflo, ncei, nsgl, nloc, nmore, s
  double precision :: tend, dt, w, par(2)
  real :: h, span
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, rank, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  if (rank == 0) then
    par = [0.3d0, 0.1d0] ! without a deck
    open (unit=10, file='roundrun.in', status='old', iostat=ierr)
    if (ierr == 0) then
      read (10, *) par(1), par(2)
      close (10)
    end if
  end if
  call mpi_bcast(par, 2, mpi_double_precision, 0, mpi_comm_world, ierr)
  tend = par(1)
  dt = par(2)
  nsteps = int(tend / dt)
  nimpl = tend / dt
  ndec = int(log(1000d0) / log(10d0))
  nflo = floor(tend * 10d0 / dt / 10d0 + 4 * dt)
  ncei = ceiling((dt + 0.2d0) * 10d0)
  h = 0.1
  span = 0.7
  nsgl = int(span / h)
  w = 4.35d0
  nloc = int(w * 100d0) / np
  nmore = 1
  if (dt + 0.2d0 > 0.3d0) nmore = 3 ! 0.30000000000000004 with dt = 0.1
  s = 0
  do i = 1, nsteps
    s = s + i
  end do
  do i = 1, nimpl
    s = s + 2 * i
  end do
  do i = 1, ndec
    s = s + 3 * i
  end do
  do i = 1, nflo
    s = s + 4 * i
  end do
  do i = 1, ncei
    s = s + 5 * i
  end do
  do i = 1, nsgl
    s = s + 6 * i
  end do
  do i = 1, nloc
    s = s + 7 * i
  end do
  do i = 1, nmore
    s = s + 8 * i
  end do
  call mpi_allreduce(mpi_in_place, s, 1, mpi_integer, mpi_sum, mpi_comm_world, ierr)
  if (rank == 0) print *, nsteps, nimpl, ndec, nflo, ncei, nsgl, nloc, s
  call mpi_finalize(ierr)
end program roundrun
