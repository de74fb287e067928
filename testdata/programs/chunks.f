c     chunks.f -- a 2-D decomposition chosen per process by a search over
c     the chunks (the chunk whose number is the rank takes its sizes), then
c     a choice of tiles by the shape of the process's subdomain (the first
c     tiling whose aspect fits the ratio of its sides), and a sweep over a
c     tile. At 32 or 64 processes the sizes and the ratio take a few values
c     over the ranks, which mkvet keeps exact per rank.
      program chunks
      implicit none
      include 'mpif.h'
      integer nx, ny, px
      parameter (nx = 90, ny = 44, px = 8)
      integer ierr, me, np, py, cx, cy, c, mynx, myny, t, tx, ty, i, j
      double precision ratio, x
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      py = np/px
      mynx = 0
      myny = 0
      c = 0
      do cy = 1, py
         do cx = 1, px
            if (c .eq. me) then
               mynx = nx/px
               if (cx .le. mod(nx, px)) mynx = mynx + 1
               myny = ny/py
               if (cy .le. mod(ny, py)) myny = myny + 1
            endif
            c = c + 1
         enddo
      enddo
      ratio = real(mynx)/real(myny)
      tx = 4
      ty = 1
      do t = 1, 4
         if (real(4/t)/real(t) .le. ratio) then
            ty = t
            tx = 4/t
            exit
         endif
      enddo
      x = 0.0d0
      do j = 1, myny/ty
         do i = 1, mynx/tx
            x = x + 1.0d0
         enddo
      enddo
      call MPI_FINALIZE(ierr)
      end
