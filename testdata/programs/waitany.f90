! waitany.f90: set-up values exchanged point to point in the ways
! programs write it. Each process posts a receive from each of nb
! processes ahead of it, then sends its sizes in a loop whose
! destination is a MOD of the loop variable, and completes the receives
! one by one with MPI_WAITANY, working on each as it completes. Then
! rank 0 collects one count from every other rank by MPI_RECV in a loop
! over the sources (one send statement, many senders) and sizes a loop
! by their sum.
program waitany
  implicit none
  include 'mpif.h'
  integer, parameter :: nb = 4, n = 50
  !mk$ param n = 50
  integer :: rank, np, ierr, i, k, idx, nrecv, total, cnt, src
  integer :: reqs(nb), sizes(nb), got(nb), status(MPI_STATUS_SIZE)
  double precision :: s, t

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  do k = 1, nb
    sizes(k) = n * k + rank
  end do
  nrecv = 0
  do k = 1, nb
    nrecv = nrecv + 1
    call MPI_Irecv(got(nrecv), 1, MPI_INTEGER, mod(rank + k, np), k, MPI_COMM_WORLD, reqs(nrecv), ierr)
  end do
  do k = 1, nb
    call MPI_Send(sizes(k), 1, MPI_INTEGER, mod(rank - k + np * nb, np), k, MPI_COMM_WORLD, ierr)
  end do
  s = 0.0d0
  do i = 1, nrecv
    call MPI_Waitany(nrecv, reqs, idx, status, ierr)
    do k = 1, got(idx)
      s = s + dble(k)
    end do
  end do

  cnt = n + 3 * rank
  total = cnt
  if (rank == 0) then
    do src = 1, np - 1
      call MPI_Recv(cnt, 1, MPI_INTEGER, src, 9, MPI_COMM_WORLD, status, ierr)
      total = total + cnt
    end do
    do k = 1, total
      s = s + 1.0d0 / dble(k)
    end do
  else
    call MPI_Send(cnt, 1, MPI_INTEGER, 0, 9, MPI_COMM_WORLD, ierr)
  end if

  call MPI_Reduce(s, t, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, t
  call MPI_Finalize(ierr)
end program waitany
