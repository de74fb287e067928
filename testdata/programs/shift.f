c     shift.f -- MK's loosely synchronous shift-right skeleton (seed 000,
c     section 3, Figure 1): every rank but the last sends to its right
c     neighbour, computes, then every rank but the first receives from its
c     left neighbour. Sends come before receives, so no rank waits on a
c     chain of predecessors.
      program shift
      implicit none
      include 'mpif.h'
      integer n, m
      parameter (n = 100, m = 64)
c$mk param n = 100
c$mk param m = 64
      integer me, np, ierr, i, j
      integer status(MPI_STATUS_SIZE)
      double precision sbuf(m), rbuf(m), work
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      work = 0.0d0
      do 10 j = 1, m
         sbuf(j) = dble(me + j)
         rbuf(j) = 0.0d0
   10 continue
      do 30 i = 1, n
         if (me .lt. np-1) call MPI_SEND(sbuf, m, MPI_DOUBLE_PRECISION,
     &                                   me+1, i, MPI_COMM_WORLD, ierr)
         do 20 j = 1, m
            work = work + 0.5d0*(sbuf(j) + rbuf(j))
   20    continue
         if (me .gt. 0) call MPI_RECV(rbuf, m, MPI_DOUBLE_PRECISION,
     &                       me-1, i, MPI_COMM_WORLD, status, ierr)
   30 continue
      if (me .eq. 0) print *, 'shift done, work =', work
      call MPI_FINALIZE(ierr)
      end
