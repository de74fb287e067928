c     neighbours.f -- each process finds its block of an nx by ny grid and
c     its four neighbours by a scan over all the blocks (the block whose
c     number is the rank's stores them in an array, -1 where the block is
c     on the boundary), then exchanges a halo with each neighbour that
c     exists and sweeps its block. Beyond 16 processes the neighbours and
c     the block's first cells take a different value at almost every rank:
c     mkvet keeps them as closed forms in the rank (rank - 1, mod(rank,
c     px), rank/px), exact per rank.
      program neighbours
      implicit none
      include 'mpif.h'
      integer nx, ny
      parameter (nx = 960, ny = 480)
      integer ierr, me, np, px, py, c, cx, cy, k, dx, dy
      integer left, right, bottom, top, i, j, s
      integer nbr(4)
      double precision x, buf(1000)
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
c     the first factor pair whose aspect fits the grid's
      px = np
      py = 1
      do k = 1, np
         if (mod(np, k) .eq. 0) then
            if (real(np/k)/real(k) .le. real(nx)/real(ny)) then
               py = k
               px = np/k
               exit
            endif
         endif
      enddo
      dx = nx/px
      dy = ny/py
      left = 0
      right = 0
      bottom = 0
      top = 0
      c = 1
      do cy = 1, py
         do cx = 1, px
            if (c .eq. me+1) then
               left = (cx-1)*dx + 1
               right = left + dx - 1
               bottom = (cy-1)*dy + 1
               top = bottom + dy - 1
               nbr(1) = c - 1
               nbr(2) = c + 1
               nbr(3) = c - px
               nbr(4) = c + px
               if (cx .eq. 1) nbr(1) = -1
               if (cx .eq. px) nbr(2) = -1
               if (cy .eq. 1) nbr(3) = -1
               if (cy .eq. py) nbr(4) = -1
            endif
            c = c + 1
         enddo
      enddo
      do s = 1, 4
         if (nbr(s) .ne. -1) then
            call MPI_SEND(buf, top-bottom+1, MPI_DOUBLE_PRECISION,
     &           nbr(s)-1, s, MPI_COMM_WORLD, ierr)
         endif
      enddo
      x = 0.0d0
      do j = bottom, top
         do i = left, right
            x = x + 1.0d0
         enddo
      enddo
      if (nbr(2) .ne. -1) then
         do i = left, right - bottom
            x = x + 2.0d0
         enddo
      endif
      call MPI_FINALIZE(ierr)
      end
