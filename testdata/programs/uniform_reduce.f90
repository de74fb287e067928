! uniform_reduce.f90 -- a task table filled whole and then reduced, as a
! transport code counts the groups it has work for (do_grp = 1, then
! COUNT(do_grp > 0)): the table's extent is a size the run reads, so its
! elements cannot be listed one by one, but every one holds one value.
module tasks
  implicit none
  integer :: nthreads = 1
contains
  subroutine assign(do_task, tlen, per)
    integer, intent(in) :: tlen
    integer, dimension(tlen), intent(in) :: do_task
    integer, intent(out) :: per
    integer :: ntasks
    ntasks = count(do_task > 0)
    per = 0
    if (ntasks == 0) return
    per = (ntasks - 1)/min(ntasks, nthreads) + 1
  end subroutine assign

  subroutine driver(ng, m)
    integer, intent(in) :: ng, m
    integer, dimension(ng) :: do_grp
    integer :: per, k, i, total
    integer :: big(5000)
    double precision :: s
    s = 0.0d0
    do_grp = 1
    call assign(do_grp, ng, per)
    do k = 1, per
      do i = 1, m
        s = s + dble(i*k)
      end do
    end do
    ! A table of one value m - 2: its sum, and whether any or all of it is positive.
    do_grp = m - 2
    total = sum(do_grp)
    do i = 1, max(total, 0)
      s = s + 1.0d0
    end do
    if (any(do_grp > 0)) then
      do i = 1, ng
        s = s + 2.0d0
      end do
    end if
    if (all(do_grp > 0)) then
      do i = 1, m
        s = s + 3.0d0
      end do
    end if
    ! More elements than are listed one by one, all of one value.
    big = m + 1
    do i = 1, maxval(big) + count(big > 1)/1000
      s = s + 4.0d0
    end do
    do_grp = 0
    do i = 1, count(do_grp /= 0) + 1
      s = s + 5.0d0
    end do
    print *, s
  end subroutine driver
end module tasks

program uniform_reduce
  use tasks
  implicit none
  integer :: n, m
  parameter (n = 3, m = 4)
!mk$ param n = 3
!mk$ param m = 4
!mk$ assume n >= 0
!mk$ assume m >= 0
  call driver(n, m)
end program uniform_reduce
