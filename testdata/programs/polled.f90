! polled.f90: a scheduler loop that ends on flags and counters of its own,
! the way SNAP sweeps from all corners at once, while the work of each task
! branches on the data. Each trip posts receives for the directions that
! want one (MPI_IRECV in a routine), polls MPI_TESTSOME until a direction
! that is not done has its receive complete (an inner loop left by EXIT),
! picks the one of highest priority (MAXLOC, different on every rank), does
! its work (a loop as long as the data makes it, a branch on the data) and
! sends its result, until ALL directions are done. Every peer
! is MPI_PROC_NULL, whose receives complete at once, so the run polls as the
! analysis assumes.
module sched
  implicit none
  include 'mpif.h'
contains
  subroutine post(want, peer, tag, left, got, rreq)
    logical, intent(inout) :: want(3)
    integer, intent(in) :: peer(3), left(3)
    integer, intent(out) :: tag(3), got(3)
    integer, intent(inout) :: rreq(3)
    integer :: d, ierr
    do d = 1, 3
      if (.not. want(d)) cycle
      want(d) = .false.
      tag(d) = 10 * d + left(d)
      call MPI_Irecv(got(d), 1, MPI_INTEGER, peer(d), tag(d), MPI_COMM_WORLD, rreq(d), ierr)
    end do
  end subroutine post

  subroutine pick(done, left, rreq, rank, cur)
    logical, intent(in) :: done(3)
    integer, intent(in) :: left(3), rank
    integer, intent(inout) :: rreq(3)
    integer, intent(out) :: cur
    integer :: prio(3), indx(3), outcount, d, ierr
    integer :: stats(MPI_STATUS_SIZE, 3)
    do
      call MPI_Testsome(3, rreq, outcount, indx, stats, ierr)
      prio = -1
      do d = 1, 3
        if (done(d)) cycle
        if (rreq(d) == MPI_REQUEST_NULL) prio(d) = left(d) + mod(d * rank, 3)
      end do
      if (any(prio >= 0)) exit
    end do
    cur = maxloc(prio, 1)
  end subroutine pick

  subroutine work(n, cur, x, s)
    integer, intent(in) :: n, cur
    double precision, intent(in) :: x(n)
    double precision, intent(inout) :: s
    integer :: i, j
    double precision :: r
    ! Halved until small: as many trips as the data makes.
    r = x(1) + 1.0d0
    do while (r > 1.0d-6)
      r = r * 0.5d0
      s = s + r
    end do
    do i = 1, n
      if (x(i) > 0.25d0) then
        do j = 1, n
          s = s + x(i) * x(j)
        end do
      else
        s = s + dble(cur)
      end if
    end do
  end subroutine work
end module sched

program polled
  use sched
  implicit none
  integer, parameter :: n = 100, ntask = 4
  !mk$ param n = 100
  !mk$ param ntask = 4
  integer :: rank, nprocs, ierr, cur, k, i
  integer :: left(3), rreq(3), sreq(3), tag(3), peer(3), got(3)
  logical :: done(3), want(3)
  double precision :: x(n), s, total

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  do k = 1, 3
    left(k) = ntask + mod(rank + k, 3)
  end do
  do i = 1, n
    x(i) = sin(dble(i + rank)) ** 2
  end do
  done = left == 0
  want = .true.
  rreq = MPI_REQUEST_NULL
  sreq = MPI_REQUEST_NULL
  peer = MPI_PROC_NULL
  s = 0.0d0
  do
    if (all(done)) exit
    call post(want, peer, tag, left, got, rreq)
    call pick(done, left, rreq, rank, cur)
    call work(n, cur, x, s)
    call MPI_Isend(s, 1, MPI_DOUBLE_PRECISION, peer(cur), cur, MPI_COMM_WORLD, sreq(cur), ierr)
    call MPI_Wait(sreq(cur), MPI_STATUS_IGNORE, ierr)
    left(cur) = left(cur) - 1
    done(cur) = left(cur) == 0
    want(cur) = .not. done(cur)
  end do

  call MPI_Allreduce(s, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, total
  call MPI_Finalize(ierr)
end program polled
