c     pge1_solve.f -- one-way pipelined Gaussian elimination of a
c     tridiagonal system with nrhs right-hand sides, forward elimination
c     and back substitution, in the style of MK's PGE1 (seed 000,
c     section 5.1.1). The n rows are block-distributed, nloc = n/p per
c     rank. For each right-hand side, forward elimination passes the
c     last reduced row from rank 0 to rank p-1 (a pipeline of depth P),
c     then back substitution passes the solution's first value from
c     rank p-1 back to rank 0 (a second pipeline of depth P). The ranks
c     receiving in the first send in the second: the phases cannot
c     overlap.
      program pge1s
      implicit none
      include 'mpif.h'
      integer n, nrhs
      parameter (n = 840, nrhs = 8)
c$mk param n = 840
c$mk param nrhs = 8
c$mk assume mod(n, p) == 0
c$mk assume n >= p
      integer me, p, nloc, ierr, i, k
      integer status(MPI_STATUS_SIZE)
      double precision a(n), b(n), c(n), d(n, nrhs), x(n, nrhs)
      double precision piv(4), xb(1), f, local, total
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, p, ierr)
      nloc = n/p
      do 10 i = 1, nloc
         a(i) = -1.0d0
         b(i) = 4.0d0
         c(i) = -1.0d0
         do 5 k = 1, nrhs
            d(i, k) = dble(me*nloc + i + k)
            x(i, k) = 0.0d0
    5    continue
   10 continue
c     Forward elimination: rank 0 -> p-1.
      do 40 k = 1, nrhs
         if (me .gt. 0) then
            call MPI_RECV(piv, 4, MPI_DOUBLE_PRECISION, me-1, 1,
     &                    MPI_COMM_WORLD, status, ierr)
            f = a(1)/piv(2)
            b(1) = b(1) - f*piv(3)
            d(1, k) = d(1, k) - f*piv(4)
         endif
         do 20 i = 2, nloc
            f = a(i)/b(i-1)
            b(i) = b(i) - f*c(i-1)
            d(i, k) = d(i, k) - f*d(i-1, k)
   20    continue
         if (me .lt. p-1) then
            piv(1) = a(nloc)
            piv(2) = b(nloc)
            piv(3) = c(nloc)
            piv(4) = d(nloc, k)
            call MPI_SEND(piv, 4, MPI_DOUBLE_PRECISION, me+1, 1,
     &                    MPI_COMM_WORLD, ierr)
         endif
   40 continue
c     Back substitution: rank p-1 -> 0.
      do 70 k = 1, nrhs
         xb(1) = 0.0d0
         if (me .lt. p-1) call MPI_RECV(xb, 1, MPI_DOUBLE_PRECISION,
     &                       me+1, 2, MPI_COMM_WORLD, status, ierr)
         x(nloc, k) = (d(nloc, k) - c(nloc)*xb(1))/b(nloc)
         do 50 i = nloc-1, 1, -1
            x(i, k) = (d(i, k) - c(i)*x(i+1, k))/b(i)
   50    continue
         if (me .gt. 0) call MPI_SEND(x(1, k), 1, MPI_DOUBLE_PRECISION,
     &                       me-1, 2, MPI_COMM_WORLD, ierr)
   70 continue
      local = 0.0d0
      do 80 i = 1, nloc
         local = local + x(i, 1)
   80 continue
      call MPI_REDUCE(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                MPI_COMM_WORLD, ierr)
      if (me .eq. 0) write(*, '(a, es16.8)') ' pge1 sum(x) =', total
      call MPI_FINALIZE(ierr)
      end
