! worklist.f90: a scheduler that takes its tasks as their inputs arrive,
! the way SNAP runs its simultaneous sweeps. Each process receives from
! both neighbours how many tasks they hand it (MPI_IRECV), learns which
! receives are done from MPI_TESTANY and MPI_TESTSOME (index, outcount,
! indices; MPI_UNDEFINED where no request is active), polls one request
! with MPI_TEST in a loop, waits only for the sends whose request is not
! MPI_REQUEST_NULL, and then runs a work list until ALL directions are
! done, each step taking the direction MAXLOC of a priority that differs
! by rank. A token passed both ways after the sends makes the receives
! complete before they are tested (messages from one sender match in
! order), so the run tests them as the analysis does.
program worklist
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 100, ntask = 6
  !mk$ param n = 100
  !mk$ param ntask = 6
  integer :: rank, nprocs, ierr, d, k, i, cur, idx, outcount, tok, tok2
  integer :: nbr(2), mine(2), theirs(2), left(2), prio(2), rreq(2), sreq(2), indx(2)
  integer :: stat(MPI_STATUS_SIZE, 2)
  logical :: done(2), flag
  double precision :: s, total

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  nbr(1) = rank - 1
  nbr(2) = rank + 1
  if (rank == 0) nbr(1) = MPI_PROC_NULL
  if (rank == nprocs - 1) nbr(2) = MPI_PROC_NULL
  mine(1) = ntask + rank
  mine(2) = ntask + 2 * (nprocs - rank)
  theirs = 0
  rreq = MPI_REQUEST_NULL
  sreq = MPI_REQUEST_NULL
  do d = 1, 2
    if (nbr(d) /= MPI_PROC_NULL) then
      call MPI_Irecv(theirs(d), 1, MPI_INTEGER, nbr(d), 3 - d, MPI_COMM_WORLD, rreq(d), ierr)
      call MPI_Isend(mine(d), 1, MPI_INTEGER, nbr(d), d, MPI_COMM_WORLD, sreq(d), ierr)
    end if
  end do
  tok = rank
  call MPI_Sendrecv(tok, 1, MPI_INTEGER, nbr(2), 7, tok2, 1, MPI_INTEGER, nbr(1), 7, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Sendrecv(tok, 1, MPI_INTEGER, nbr(1), 8, tok2, 1, MPI_INTEGER, nbr(2), 8, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)

  s = 0.0d0
  call MPI_Testany(2, rreq, idx, flag, MPI_STATUS_IGNORE, ierr)
  if (flag .and. idx /= MPI_UNDEFINED) then
    do i = 1, n * idx
      s = s + dble(i)
    end do
  end if
  call MPI_Testsome(2, rreq, outcount, indx, stat, ierr)
  if (outcount /= MPI_UNDEFINED) then
    do k = 1, outcount
      do i = 1, 3 * n * indx(k)
        s = s + 1.0d0 / dble(i)
      end do
    end do
  end if
  flag = .false.
  do while (.not. flag)
    call MPI_Test(rreq(1), flag, MPI_STATUS_IGNORE, ierr)
  end do
  do d = 1, 2
    if (sreq(d) /= MPI_REQUEST_NULL) call MPI_Wait(sreq(d), MPI_STATUS_IGNORE, ierr)
  end do

  left = theirs
  done = left == 0
  do
    if (all(done)) exit
    do d = 1, 2
      prio(d) = -1
      if (.not. done(d)) prio(d) = left(d) + d * rank
    end do
    cur = maxloc(prio, 1)
    do i = 1, n * cur
      s = s + dble(i) * 0.5d0
    end do
    left(cur) = left(cur) - 1
    done(cur) = left(cur) == 0
  end do

  call MPI_Allreduce(s, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, total
  call MPI_Finalize(ierr)
end program worklist
