c     pipe_block.f -- a one-way pipeline that passes its n values in
c     blocks of k (MK's grain size K, seed 000 section 5.4): rank 0
c     generates each block of k multipliers, every other rank receives
c     it from its left neighbour, every rank applies the k multipliers
c     to its nloc = n/p columns and passes the block on to the right.
c     Small blocks pay a message overhead n/k times; large blocks make
c     the pipeline fill, (p-1) block times, long. The best k minimises
c     the sum (dT/dk = 0).
      program pipblk
      implicit none
      include 'mpif.h'
      integer n, k
      parameter (n = 4096, k = 8)
c$mk param n = 4096
c$mk param k = 8
c$mk assume mod(n, k) == 0
c$mk assume mod(n, p) == 0
c$mk assume n >= p
      integer me, p, ierr, nloc, nb, ib, i, j
      integer status(MPI_STATUS_SIZE)
      double precision l(n), a(n), total
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, p, ierr)
      nloc = n/p
      nb = n/k
      do 10 i = 1, nloc
         a(i) = dble(me*nloc + i)
   10 continue
      do 50 ib = 1, nb
         if (me .gt. 0) then
            call MPI_RECV(l, k, MPI_DOUBLE_PRECISION, me-1, ib,
     &                    MPI_COMM_WORLD, status, ierr)
         else
            do 20 j = 1, k
               l(j) = 1.0d0/dble((ib-1)*k + j + 1)
   20       continue
         endif
         do 40 j = 1, k
            do 30 i = 1, nloc
               a(i) = a(i) - l(j)*a(i)
   30       continue
   40    continue
         if (me .lt. p-1) call MPI_SEND(l, k, MPI_DOUBLE_PRECISION,
     &                                  me+1, ib, MPI_COMM_WORLD, ierr)
   50 continue
      total = 0.0d0
      do 60 i = 1, nloc
         total = total + a(i)
   60 continue
      if (me .eq. p-1) write(*, '(a, es16.8)') ' pipe_block', total
      call MPI_FINALIZE(ierr)
      end
