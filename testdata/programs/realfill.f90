! realfill.f90: a REAL coefficient per group cleared whole at set-up (rate
! = 0 for a steady problem; only a time-dependent run, mode 1, computes it
! from the data) and tested element by element later: in a routine given
! one element as a scalar (IF (r /= 0)), in an exit test of a DO without
! control, and around a message exchange. The set-up decides every test,
! so the work and the messages under them are counted exactly. The mode is
! read from an input file as the run reads it (defaults without one).
module groups
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp), allocatable :: rate(:), speed(:)
  integer :: ng
end module groups

program realfill
  use mpi
  use groups
  implicit none
  integer :: n, steps, mode, rank, np, ierr, g, s, right, left, cnt, tot, k
  integer :: deck(3)
  logical :: there
  real(dp) :: dt
  real(dp), allocatable :: flux(:), halo(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  deck = [40, 3, 0]
  if (rank == 0) then
    inquire (file='realfill.in', exist=there)
    if (there) then
      open (10, file='realfill.in', status='old')
      read (10, *) deck
      close (10)
    end if
  end if
  call MPI_Bcast(deck, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  n = deck(1)
  steps = deck(2)
  mode = deck(3)
  ng = 3
  allocate (rate(ng), speed(ng), flux(n), halo(n))
  speed = 4.0_dp
  dt = 0.5_dp
  rate = 0.0_dp
  if (mode == 1) rate = 2.0_dp / (dt * speed)
  flux = 1.0_dp
  right = mod(rank + 1, np)
  left = mod(rank - 1 + np, np)
  cnt = 0
  do s = 1, steps
    do g = 1, ng
      call sweep(rate(g), flux, n, cnt)
      if (rate(g) /= 0.0_dp) then
        call MPI_Sendrecv(flux, n, MPI_DOUBLE_PRECISION, right, g, halo, n, &
             MPI_DOUBLE_PRECISION, left, g, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      end if
      k = 0
      do
        k = k + 1
        if (rate(g) == 0.0_dp .and. k >= 2) exit
        if (k >= 5) exit
      end do
      cnt = cnt + k
    end do
  end do
  call MPI_Allreduce(cnt, tot, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, tot, sum(flux)
  call MPI_Finalize(ierr)
end program realfill

subroutine sweep(r, f, n, cnt)
  use groups, only: dp
  implicit none
  integer, intent(in) :: n
  real(dp), intent(in) :: r
  real(dp), intent(inout) :: f(n)
  integer, intent(inout) :: cnt
  integer :: i
  if (r /= 0.0_dp) then
    do i = 1, n
      f(i) = f(i) + r * f(i)
    end do
    cnt = cnt + n
  else
    do i = 1, n, 2
      f(i) = 0.5_dp * f(i)
    end do
    cnt = cnt + 1
  end if
end subroutine sweep
