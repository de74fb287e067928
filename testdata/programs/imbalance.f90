! imbalance.f90 -- a deliberately unbalanced loop: in each of `steps`
! steps rank r computes (r+1)*n terms of a series, then every rank meets
! in an allreduce, so each step lasts as long as the slowest rank's share.
! PerWiz's load-balance what-if (seed 003 §3.2) predicts the time with the
! work spread evenly; the balanced version gives every rank the mean,
! n*(P+1)/2 terms (the line marked "share").
program imbalance
  use mpi
  implicit none
  integer, parameter :: n = 3000000, steps = 30 !mk$ param n, steps
  integer :: ierr, me, np, s, i, share
  double precision :: x, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  x = 0.0d0
  total = 0.0d0
  do s = 1, steps
    share = n*(me + 1) ! share
    do i = 1, share
      x = x*0.999999d0 + 1.0d0/dble(i + s)
    end do
    call MPI_Allreduce(x, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    x = total/dble(np)
  end do
  if (me == 0) print '(a, es12.5)', 'imbalance: ', total
  call MPI_Finalize(ierr)
end program imbalance
