c     lu_wavefront.f -- an LU/Sweep3D-style wavefront sweep over a 2D
c     processor grid (seed 002): each rank owns an nx-by-ny block of
c     every one of nz planes. For each plane it waits for its west and
c     south neighbours' boundaries, sweeps its block from the south-west
c     corner, and passes its east and north boundaries on, so rank (i,j)
c     starts plane k only after the diagonal wave reaches it.
      program luwave
      implicit none
      include 'mpif.h'
      include 'lu_params.h'
c$mk param nx = 16
c$mk param ny = 16
c$mk param nz = 8
      integer me, np, ierr, px, py, row, col
      integer west, east, south, north, it, i, j, k
      integer status(MPI_STATUS_SIZE)
      double precision v(0:nx, 0:ny, nz), ewbuf(ny), nsbuf(nx)
      double precision local, total
      common /grid/ px, py, row, col, west, east, south, north
      common /field/ v
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      call setgrid(me, np)
      do 30 k = 1, nz
         do 20 j = 0, ny
            do 20 i = 0, nx
               v(i, j, k) = 0.0d0
   20    continue
   30 continue
      do 100 it = 1, itmax
         do 90 k = 1, nz
            if (west .ge. 0) then
               call MPI_RECV(ewbuf, ny, MPI_DOUBLE_PRECISION, west, k,
     >                       MPI_COMM_WORLD, status, ierr)
               do 40 j = 1, ny
                  v(0, j, k) = ewbuf(j)
   40          continue
            endif
            if (south .ge. 0) then
               call MPI_RECV(nsbuf, nx, MPI_DOUBLE_PRECISION, south, k,
     >                       MPI_COMM_WORLD, status, ierr)
               do 50 i = 1, nx
                  v(i, 0, k) = nsbuf(i)
   50          continue
            endif
            do 60 j = 1, ny
               do 60 i = 1, nx
                  v(i, j, k) = (v(i-1, j, k) + v(i, j-1, k)
     >                         + dble(it + k))/3.0d0
   60       continue
            if (east .ge. 0) then
               do 70 j = 1, ny
                  ewbuf(j) = v(nx, j, k)
   70          continue
               call MPI_SEND(ewbuf, ny, MPI_DOUBLE_PRECISION, east, k,
     >                       MPI_COMM_WORLD, ierr)
            endif
            if (north .ge. 0) then
               do 80 i = 1, nx
                  nsbuf(i) = v(i, ny, k)
   80          continue
               call MPI_SEND(nsbuf, nx, MPI_DOUBLE_PRECISION, north, k,
     >                       MPI_COMM_WORLD, ierr)
            endif
   90    continue
  100 continue
      local = 0.0d0
      do 110 k = 1, nz
         local = local + v(nx, ny, k)
  110 continue
      call MPI_ALLREDUCE(local, total, 1, MPI_DOUBLE_PRECISION,
     >                   MPI_SUM, MPI_COMM_WORLD, ierr)
      if (me .eq. 0) write(*, 200) class, px, py, total
  200 format(' lu_wavefront class ', a1, ' grid ', i3, ' x ', i3,
     >       ' checksum ', e20.12)
      call MPI_FINALIZE(ierr)
      end
c
c     setgrid -- arrange the np ranks as a px-by-py grid, px the largest
c     divisor of np not above sqrt(np), and find the four neighbours
c     (-1 where there is none).
      subroutine setgrid(me, np)
      implicit none
      integer me, np
      integer px, py, row, col, west, east, south, north
      common /grid/ px, py, row, col, west, east, south, north
      integer d
      px = 1
      d = 1
   10 if (d*d .gt. np) goto 20
         if (mod(np, d) .eq. 0) px = d
         d = d + 1
         goto 10
   20 continue
      py = np/px
      col = mod(me, px)
      row = me/px
      west = -1
      east = -1
      south = -1
      north = -1
      if (col .gt. 0) west = me - 1
      if (col .lt. px-1) east = me + 1
      if (row .gt. 0) south = me - px
      if (row .lt. py-1) north = me + px
      return
      end
