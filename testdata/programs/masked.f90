! masked.f90 -- set-up tables built by array constructors with implied
! DOs and reduced under masks: the rows a rank owns when they are dealt
! out cyclically (COUNT of owner == me), the widths of the active levels
! (SUM and MAXVAL with MASK=, by keyword and by position), the first wide
! level (MINLOC with DIM and MASK). Each result sizes a loop of work and
! a message. n and the step count come from masked.in when it is there
! (defaults 40 and 3).
program masked
  use mpi
  implicit none
  integer, parameter :: nlev = 8
  integer :: n, steps, me, np, ierr, i, k, it, ios
  integer :: widths(nlev), a(7)
  integer, allocatable :: owner(:)
  logical :: active(nlev)
  double precision :: x, y
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  n = 40
  steps = 3
  open(10, file='masked.in', status='old', action='read', iostat=ios)
  if (ios == 0) then
    read(10, *) n, steps
    close(10)
  end if
  allocate(owner(n))
  owner = [(mod(i - 1, np), i = 1, n)]
  widths = [(2*k + mod(k, 3), k = 1, nlev)]
  active = widths > 6
  a(1) = count(active)
  a(2) = count(owner == me)
  a(3) = sum(widths, mask=active)
  a(4) = sum(widths, active .and. widths < 15)
  a(5) = maxval(widths, mask=widths < 9)
  a(6) = minloc(widths, 1, widths > 5)
  a(7) = count(owner == me .and. owner > 0)
  x = 0.0d0
  do it = 1, steps
    do k = 1, 7
      do i = 1, a(k)
        x = x + 1.0d0 / (i + k)
      end do
    end do
    call mpi_allreduce(x, y, 1, mpi_double_precision, mpi_sum, mpi_comm_world, ierr)
    x = y / np
  end do
  if (me == 0) print *, x, a
  call mpi_finalize(ierr)
end program masked
