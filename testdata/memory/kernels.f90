! Memory kernels: the walks through memory mkvet's memory term prices
! (issue 47), each a loop nest of its own, timed by the program itself.
!
!   kernels KERNEL N REPS
!
! KERNEL is copy (y = x over two arrays of N doubles: contiguous), plane
! (b(k) = b(k) + a(i,j,k) over a(16,N,N): the innermost loop strides by a
! plane of N*128 bytes, a page or more from N = 32) or gather (y(i) = y(i) + x(idx(i)) over N doubles
! with idx a random permutation: indirect). It prints the seconds one
! repetition of the kernel takes: the time of REPS repetitions after a
! first one, divided by REPS. The mean, not the least repetition: a
! program's loop takes the sum of its runs, and the least of thousands of
! runs of a few microseconds is a rare fast one (inside the second cache
! level, some runs across planes take two thirds of the others' time).
program kernels
  implicit none
  character(len=16) :: kernel, arg
  integer :: n, reps
  call get_command_argument(1, kernel)
  call get_command_argument(2, arg)
  read (arg, *) n
  call get_command_argument(3, arg)
  read (arg, *) reps
  select case (kernel)
  case ('copy')
    call run_copy(n, reps)
  case ('plane')
    call run_plane(n, reps)
  case ('gather')
    call run_gather(n, reps)
  case default
    stop 'kernel: copy, plane or gather'
  end select
end program kernels

subroutine run_copy(n, reps)
  implicit none
  integer, intent(in) :: n, reps
  double precision, allocatable :: x(:), y(:)
  double precision :: t, now
  integer :: r
  allocate (x(n), y(n))
  x = 1.0d0
  y = 0.0d0
  call copy(n, x, y)
  t = now()
  do r = 1, reps
    call copy(n, x, y)
    x(1 + mod(r, n)) = y(1) + 1.0d0
  end do
  t = (now() - t) / reps
  print '(a, es12.5, es12.5)', 'copy', t, y(n)
end subroutine run_copy

subroutine copy(n, x, y)
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: x(n)
  double precision, intent(out) :: y(n)
  integer :: i
  do i = 1, n
    y(i) = x(i)
  end do
end subroutine copy

subroutine run_plane(n, reps)
  implicit none
  integer, intent(in) :: n, reps
  double precision, allocatable :: a(:,:,:), b(:)
  double precision :: t, now
  integer :: r
  allocate (a(16, n, n), b(n))
  a = 1.0d0
  b = 0.0d0
  call plane(n, a, b)
  t = now()
  do r = 1, reps
    call plane(n, a, b)
  end do
  t = (now() - t) / reps
  print '(a, es12.5, es12.5)', 'plane', t, b(n)
end subroutine run_plane

subroutine plane(n, a, b)
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: a(16, n, n)
  double precision, intent(inout) :: b(n)
  integer :: i, j, k
  do i = 1, 16
    do j = 1, n
      do k = 1, n
        b(k) = b(k) + a(i, j, k)
      end do
    end do
  end do
end subroutine plane

subroutine run_gather(n, reps)
  implicit none
  integer, intent(in) :: n, reps
  double precision, allocatable :: x(:), y(:)
  integer, allocatable :: idx(:)
  double precision :: t, now
  integer :: r, i, j, k
  integer(8) :: s
  allocate (x(n), y(n), idx(n))
  x = 1.0d0
  y = 0.0d0
  do i = 1, n
    idx(i) = i
  end do
  ! A random permutation (Fisher-Yates with a fixed linear congruential
  ! generator, so that every run gathers in the same order).
  s = 12345
  do i = n, 2, -1
    s = mod(s * 1103515245_8 + 12345_8, 2147483648_8)
    j = 1 + int(mod(s, int(i, 8)))
    k = idx(i)
    idx(i) = idx(j)
    idx(j) = k
  end do
  call gather(n, x, y, idx)
  t = now()
  do r = 1, reps
    call gather(n, x, y, idx)
  end do
  t = (now() - t) / reps
  print '(a, es12.5, es12.5)', 'gather', t, y(n)
end subroutine run_gather

subroutine gather(n, x, y, idx)
  implicit none
  integer, intent(in) :: n, idx(n)
  double precision, intent(in) :: x(n)
  double precision, intent(inout) :: y(n)
  integer :: i
  do i = 1, n
    y(i) = y(i) + x(idx(i))
  end do
end subroutine gather

! now is the wall clock in seconds.
double precision function now()
  implicit none
  integer(8) :: c, rate
  call system_clock(c, rate)
  now = dble(c) / dble(rate)
end function now
