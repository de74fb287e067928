c     pge2.f -- two-way pipelined Gaussian elimination of a periodic
c     tridiagonal system with nrhs right-hand sides, in the style of
c     MK's PGE2 (seed 000, sections 4.2 and 5.1.2). The n rows are
c     block-distributed, nloc = n/p per rank, the ranks forming a ring.
c     The ring is cut into two halves, ranks 0..h-1 and h..p-1
c     (h = p/2). For each right-hand side the left half eliminates
c     downwards, each rank passing its last reduced row to its right
c     neighbour (a pipeline 0 -> h-1), while the right half eliminates
c     upwards, each rank passing its first reduced row to its left
c     neighbour (a pipeline p-1 -> h). The ends of the halves then
c     exchange their reduced rows: ranks h-1 and h in the middle, ranks
c     0 and p-1 across the ring (the periodic coupling). Back
c     substitution runs both pipelines the other way: h-1 -> 0 and
c     h -> p-1.
      program pge2
      implicit none
      include 'mpif.h'
      integer n, nrhs
      parameter (n = 840, nrhs = 8)
c$mk param n = 840
c$mk param nrhs = 8
c$mk assume mod(n, p) == 0
c$mk assume n >= 2*p
      integer me, p, h, nloc, ierr, i, k
      integer status(MPI_STATUS_SIZE)
      double precision a(n), b(n), c(n), d(n, nrhs), x(n, nrhs)
      double precision piv(4), row(4), rrow(4), xb(1), f, local, total
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, p, ierr)
      h = p/2
      nloc = n/p
c     A diagonally dominant system: no pivoting.
      do 10 i = 1, nloc
         a(i) = -1.0d0
         b(i) = 4.0d0
         c(i) = -1.0d0
         do 5 k = 1, nrhs
            d(i, k) = dble(me*nloc + i + k)
            x(i, k) = 0.0d0
    5    continue
   10 continue
c
c     Forward elimination: two pipelines at once, one per half.
c
      do 40 k = 1, nrhs
         if (me .lt. h) then
            if (me .gt. 0) then
               call MPI_RECV(piv, 4, MPI_DOUBLE_PRECISION, me-1, 1,
     &                       MPI_COMM_WORLD, status, ierr)
               f = a(1)/piv(2)
               b(1) = b(1) - f*piv(3)
               d(1, k) = d(1, k) - f*piv(4)
            endif
            do 20 i = 2, nloc
               f = a(i)/b(i-1)
               b(i) = b(i) - f*c(i-1)
               d(i, k) = d(i, k) - f*d(i-1, k)
   20       continue
            if (me .lt. h-1) then
               piv(1) = a(nloc)
               piv(2) = b(nloc)
               piv(3) = c(nloc)
               piv(4) = d(nloc, k)
               call MPI_SEND(piv, 4, MPI_DOUBLE_PRECISION, me+1, 1,
     &                       MPI_COMM_WORLD, ierr)
            endif
         else
            if (me .lt. p-1) then
               call MPI_RECV(piv, 4, MPI_DOUBLE_PRECISION, me+1, 2,
     &                       MPI_COMM_WORLD, status, ierr)
               f = c(nloc)/piv(2)
               b(nloc) = b(nloc) - f*piv(1)
               d(nloc, k) = d(nloc, k) - f*piv(4)
            endif
            do 30 i = nloc-1, 1, -1
               f = c(i)/b(i+1)
               b(i) = b(i) - f*a(i+1)
               d(i, k) = d(i, k) - f*d(i+1, k)
   30       continue
            if (me .gt. h) then
               piv(1) = a(1)
               piv(2) = b(1)
               piv(3) = c(1)
               piv(4) = d(1, k)
               call MPI_SEND(piv, 4, MPI_DOUBLE_PRECISION, me-1, 2,
     &                       MPI_COMM_WORLD, ierr)
            endif
         endif
   40 continue
c
c     The halves' ends exchange their reduced rows: in the middle, and
c     across the ring.
c
      row(1) = a(1)
      row(2) = b(nloc)
      row(3) = c(nloc)
      row(4) = d(nloc, 1)
      if (p .gt. 1 .and. me .eq. h-1) then
         call MPI_SENDRECV(row, 4, MPI_DOUBLE_PRECISION, me+1, 3,
     &                     rrow, 4, MPI_DOUBLE_PRECISION, me+1, 3,
     &                     MPI_COMM_WORLD, status, ierr)
         b(nloc) = b(nloc) - c(nloc)*rrow(1)/rrow(2)
      else if (p .gt. 1 .and. me .eq. h) then
         call MPI_SENDRECV(row, 4, MPI_DOUBLE_PRECISION, me-1, 3,
     &                     rrow, 4, MPI_DOUBLE_PRECISION, me-1, 3,
     &                     MPI_COMM_WORLD, status, ierr)
         b(1) = b(1) - a(1)*rrow(3)/rrow(2)
      endif
      if (p .gt. 2) then
         if (me .eq. 0) then
            call MPI_SENDRECV(row, 4, MPI_DOUBLE_PRECISION, p-1, 4,
     &                        rrow, 4, MPI_DOUBLE_PRECISION, p-1, 4,
     &                        MPI_COMM_WORLD, status, ierr)
            b(1) = b(1) - a(1)*rrow(3)/rrow(2)
         else if (me .eq. p-1) then
            call MPI_SENDRECV(row, 4, MPI_DOUBLE_PRECISION, 0, 4,
     &                        rrow, 4, MPI_DOUBLE_PRECISION, 0, 4,
     &                        MPI_COMM_WORLD, status, ierr)
            b(nloc) = b(nloc) - c(nloc)*rrow(1)/rrow(2)
         endif
      endif
c
c     Back substitution: the pipelines run the other way.
c
      do 70 k = 1, nrhs
         xb(1) = 0.0d0
         if (me .lt. h) then
            if (me .lt. h-1) call MPI_RECV(xb, 1, MPI_DOUBLE_PRECISION,
     &                          me+1, 5, MPI_COMM_WORLD, status, ierr)
            x(nloc, k) = (d(nloc, k) - c(nloc)*xb(1))/b(nloc)
            do 50 i = nloc-1, 1, -1
               x(i, k) = (d(i, k) - c(i)*x(i+1, k))/b(i)
   50       continue
            if (me .gt. 0) call MPI_SEND(x(1, k), 1,
     &          MPI_DOUBLE_PRECISION, me-1, 5, MPI_COMM_WORLD, ierr)
         else
            if (me .gt. h) call MPI_RECV(xb, 1, MPI_DOUBLE_PRECISION,
     &                         me-1, 6, MPI_COMM_WORLD, status, ierr)
            x(1, k) = (d(1, k) - a(1)*xb(1))/b(1)
            do 60 i = 2, nloc
               x(i, k) = (d(i, k) - a(i)*x(i-1, k))/b(i)
   60       continue
            if (me .lt. p-1) call MPI_SEND(x(nloc, k), 1,
     &          MPI_DOUBLE_PRECISION, me+1, 6, MPI_COMM_WORLD, ierr)
         endif
   70 continue
      local = 0.0d0
      do 80 i = 1, nloc
         local = local + x(i, 1)
   80 continue
      call MPI_REDUCE(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                MPI_COMM_WORLD, ierr)
      if (me .eq. 0) write(*, '(a, es16.8)') ' pge2 sum(x) =', total
      call MPI_FINALIZE(ierr)
      end
