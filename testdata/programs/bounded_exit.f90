! bounded_exit.f90 -- counted loops left by an EXIT their own variable
! decides: at a bound below the DO's (i > m, m <= j), in the middle of
! the body (the statements before it run on the last trip, those after
! it do not), past the DO's bound (never taken), at the first trip, and
! in an inner loop whose bound is the outer loop's variable.
program bounded_exit
  implicit none
  integer :: n, m
  parameter (n = 12, m = 5)
!mk$ param n = 12
!mk$ param m = 5
!mk$ assume n >= 0
!mk$ assume m >= 0
  integer :: i, j, k
  double precision :: s
  s = 0.0d0
  do i = 1, n
    if (i > m) exit
    s = s + dble(i)
  end do
  do j = 0, n - 1
    s = s + 1.0d0
    if (m <= j) exit
    s = s + dble(j)
  end do
  do i = 1, m
    if (i >= n + 3) exit
    s = s + 2.0d0
  end do
  do i = 2, n
    if (i >= 1) exit
    s = s + 3.0d0
  end do
  do i = 1, n
    do k = 1, n
      if (k > i) exit
      s = s + dble(k)
    end do
  end do
  print *, s
end program bounded_exit
