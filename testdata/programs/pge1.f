c     pge1.f -- forward elimination of a pipelined Gaussian elimination
c     with a one-way pipeline, in the style of MK's PGE1 (seed 000,
c     section 5.1): the n columns are block-distributed, processor i
c     owning columns i*n/p+1 .. (i+1)*n/p. For each pivot column k the
c     owner computes the multipliers and sends them to its right
c     neighbour; every processor to the right receives them from its
c     left neighbour, passes them on, and updates its own columns.
      program pge1
      implicit none
      include 'mpif.h'
      integer n
      parameter (n = 64)
c$mk param n = 64
c$mk assume mod(n, p) == 0
c$mk assume n >= p
      integer me, p, ierr, k, i, j, jlo, jhi, nloc, owner
      integer status(MPI_STATUS_SIZE)
      double precision a(n, n), l(n), local, total
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, p, ierr)
      if (mod(n, p) .ne. 0) then
         if (me .eq. 0) print *, 'pge1: p must divide n =', n
         call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
      endif
      nloc = n/p
      jlo = me*nloc + 1
      jhi = jlo + nloc - 1
c     A diagonally dominant matrix, so that no pivoting is needed.
      do 10 j = jlo, jhi
         do 10 i = 1, n
            a(i, j) = 1.0d0/dble(i + j - 1)
            if (i .eq. j) a(i, j) = a(i, j) + dble(n)
   10 continue
      do 50 k = 1, n-1
         owner = (k-1)/nloc
         if (me .lt. owner) goto 50
         if (me .eq. owner) then
            do 20 i = k+1, n
               l(i) = a(i, k)/a(k, k)
   20       continue
         else
            call MPI_RECV(l(k+1), n-k, MPI_DOUBLE_PRECISION, me-1, k,
     &                    MPI_COMM_WORLD, status, ierr)
         endif
         if (me .lt. p-1) call MPI_SEND(l(k+1), n-k,
     &        MPI_DOUBLE_PRECISION, me+1, k, MPI_COMM_WORLD, ierr)
         do 40 j = max(k+1, jlo), jhi
            do 30 i = k+1, n
               a(i, j) = a(i, j) - l(i)*a(k, j)
   30       continue
   40    continue
   50 continue
      local = 0.0d0
      do 60 j = jlo, jhi
         local = local + a(j, j)
   60 continue
      call MPI_REDUCE(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                MPI_COMM_WORLD, ierr)
      if (me .eq. 0) write(*, '(a, f20.10)') ' pge1 trace(U) =', total
      call MPI_FINALIZE(ierr)
      end
