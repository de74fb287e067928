c     factor_grid.f -- a red-black SOR sweep on a 2-D process grid whose
c     shape a subroutine finds by searching for a factor of np (a loop
c     left by GO TO), returned through its dummies into a COMMON block;
c     the neighbours are kept in an array (MPI_PROC_NULL at the edges)
c     and the halo columns posted by MPI_IRECV/MPI_ISEND in a loop over
c     them, completed by MPI_WAITALL.
      program factor_grid
      implicit none
      include 'mpif.h'
      integer nx, ny, maxit
      parameter (nx = 200, ny = 160, maxit = 50)
c$mk param nx = 200
c$mk param ny = 160
c$mk param maxit = 50
c$mk assume nx >= np
c$mk assume ny >= np
      integer me, np, ierr, px, py, ix, iy, nxl, nyl, k, it, i, j
      integer nbr(4), req(8), nreq, stats(MPI_STATUS_SIZE, 8)
      integer rowtype
      double precision u(0:nx+1, 0:ny+1), rbuf(ny, 2), sbuf(ny, 2)
      common /dec/ px, py, ix, iy, nxl, nyl
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      call factor(np, px, py)
      ix = mod(me, px)
      iy = me / px
      nxl = nx / px
      nyl = ny / py
      nbr(1) = MPI_PROC_NULL
      nbr(2) = MPI_PROC_NULL
      nbr(3) = MPI_PROC_NULL
      nbr(4) = MPI_PROC_NULL
      if (ix .gt. 0) nbr(1) = me - 1
      if (ix .lt. px - 1) nbr(2) = me + 1
      if (iy .gt. 0) nbr(3) = me - px
      if (iy .lt. py - 1) nbr(4) = me + px
      do 10 j = 0, ny + 1
         do 10 i = 0, nx + 1
            u(i, j) = 0.0d0
 10   continue
      do 100 it = 1, maxit
         nreq = 0
         do 20 k = 1, 2
            if (nbr(k) .ne. MPI_PROC_NULL) then
               nreq = nreq + 1
               call MPI_IRECV(rbuf(1, k), nyl, MPI_DOUBLE_PRECISION,
     &              nbr(k), 1, MPI_COMM_WORLD, req(nreq), ierr)
               nreq = nreq + 1
               call MPI_ISEND(sbuf(1, k), nyl, MPI_DOUBLE_PRECISION,
     &              nbr(k), 1, MPI_COMM_WORLD, req(nreq), ierr)
            endif
 20      continue
         call MPI_WAITALL(nreq, req, stats, ierr)
         do 40 j = 1, nyl
            do 30 i = 1 + mod(j + it, 2), nxl, 2
               u(i, j) = 0.25d0 * (u(i-1,j) + u(i+1,j) + u(i,j-1)
     &                 + u(i,j+1))
 30         continue
 40      continue
 100  continue
      call MPI_FINALIZE(ierr)
      end

      subroutine factor(np, px, py)
      integer np, px, py, d
      px = 1
      do 10 d = 1, np
         if (d * d .gt. np) goto 20
         if (mod(np, d) .eq. 0) px = d
 10   continue
 20   py = np / px
      end
