! section_table.f90 -- a small schedule table set column by column with
! array sections and constructors, as transport codes set the order of
! their sweep corners, then read in a loop over its columns: which arms
! run, and how long the loops are, come from the table.
module schedule
  implicit none
  integer :: sch(2, 4), len(6)
end module schedule

program section_table
  use schedule
  implicit none
  integer :: n, m
  parameter (n = 8, m = 5)
!mk$ param n = 8
!mk$ param m = 5
!mk$ assume n >= 1
!mk$ assume m >= 1
  integer :: cor, jd, kd, i
  double precision :: s
  sch = 0
  sch(:, 1) = (/ 1, 1 /)
  sch(:, 2) = (/ 2, 1 /)
  sch(1:2, 3) = (/ 2, 2 /)
  sch(:, 4) = (/ 1, 2 /)
  len = m
  len(4:) = (/ n, m, n /)
  len(2:6:2) = n
  s = 0.0d0
  do cor = 1, 4
    jd = sch(1, cor)
    kd = sch(2, cor)
    if (jd == 1) then
      do i = 1, n
        s = s + dble(i)
      end do
    end if
    if (kd == 2 .and. jd == 2) then
      do i = 1, len(cor + 1)
        s = s + 1.0d0
      end do
    else if (kd == 1) then
      do i = 1, len(cor)
        s = s + 2.0d0
      end do
    end if
  end do
  print *, s
end program section_table
