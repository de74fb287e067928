c     pipeline.f -- MK's one-way pipeline skeleton (seed 000, section 3,
c     Figure 1): every rank but the first receives from its left
c     neighbour, computes, then every rank but the last sends to its right
c     neighbour. Rank k waits for rank k-1: a chain of depth P-1.
      program pipeln
      implicit none
      include 'mpif.h'
      integer n, m
      parameter (n = 100, m = 64)
c$mk param n = 100
c$mk param m = 64
      integer me, np, ierr, i, j
      integer status(MPI_STATUS_SIZE)
      double precision buf(m), work
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      work = 0.0d0
      do 10 j = 1, m
         buf(j) = dble(j)
   10 continue
      do 30 i = 1, n
         if (me .gt. 0) call MPI_RECV(buf, m, MPI_DOUBLE_PRECISION,
     &                       me-1, i, MPI_COMM_WORLD, status, ierr)
         do 20 j = 1, m
            buf(j) = 0.5d0*buf(j) + dble(me)
            work = work + buf(j)
   20    continue
         if (me .lt. np-1) call MPI_SEND(buf, m, MPI_DOUBLE_PRECISION,
     &                                   me+1, i, MPI_COMM_WORLD, ierr)
   30 continue
      if (me .eq. np-1) print *, 'pipeline done, work =', work
      call MPI_FINALIZE(ierr)
      end
