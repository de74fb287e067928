! parity_ladder.f90 -- an else-if ladder on a code made of remainders, as
! an AMR code encodes a face and its quarter (10*side + 2*half_i + half_j):
! for each parity some arms cannot be taken, which only the remainders
! show, and the others are taken for a set of them. MOD of a negative
! index is negative (Fortran's MOD truncates), MODULO is not.
program parity_ladder
  implicit none
  integer :: n, m
  parameter (n = 8, m = 5)
!mk$ param n = 8
!mk$ param m = 5
!mk$ assume n >= 0
!mk$ assume m >= 0
  integer :: c, i, j, k, code
  double precision :: s
  s = 0.0d0
  do c = 0, 5
    do i = -m, m
      do j = 0, n
        code = 10*modulo(c, 2) + 2*mod(i, 2) + mod(j, 2)
        if (code < 0) then
          do k = 1, n
            s = s + dble(k)
          end do
        else if (code == 0) then
          s = s + 1.0d0
        else if (code == 1 .or. code == 3) then
          do k = 1, m
            s = s + 2.0d0
          end do
        else if (code == 8 .or. code == 9) then
          ! never: 10*modulo(c, 2) is 0 or 10, the rest -3..3
          do k = 1, n*m
            s = s + 3.0d0
          end do
        else if (code >= 10 .and. code /= 11) then
          do k = i, m
            s = s + 4.0d0
          end do
        else
          s = s - 1.0d0
        end if
      end do
    end do
  end do
  print *, s
end program parity_ladder
