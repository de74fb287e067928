c     sparserows.f -- a sparse matrix-vector product over a process grid
c     built by hand (columns doubled first, then rows, until the grid has
c     P processes). The rows are split in blocks whose sizes differ by
c     rank (the first mod(n, nprows) blocks one longer), the columns by a
c     scan over all the column blocks; the row pointers come from the data
c     (row lengths from a sine). mkvet sums the inner loop over the rows
c     into one value of the data per rank (row pointers telescope), and
c     the larger of a rank's rows and columns, each chosen per rank,
c     stays exact at every rank.
      program sparserows
      implicit none
      include 'mpif.h'
      integer n, nzmax
      parameter (n = 103, nzmax = 1000)
      integer rowstr(n+1), colidx(nzmax)
      double precision a(nzmax), x(n), y(n), s
      integer ierr, me, np, nprows, npcols, myrow, mycol
      integer firstrow, lastrow, firstcol, lastcol, blk, rem
      integer i, j, k, c, start, sz, nmax, it, len
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      nprows = 1
      npcols = 1
   10 continue
      if (nprows*npcols .lt. np) then
         if (npcols .eq. nprows) then
            npcols = 2*npcols
         else
            nprows = 2*nprows
         endif
         goto 10
      endif
      myrow = me / npcols
      mycol = mod(me, npcols)
c     rows: blocks of n/nprows, the first mod(n, nprows) one longer
      blk = n / nprows
      rem = mod(n, nprows)
      if (myrow .lt. rem) then
         firstrow = myrow*(blk+1) + 1
         lastrow = firstrow + blk
      else
         firstrow = rem*(blk+1) + (myrow-rem)*blk + 1
         lastrow = firstrow + blk - 1
      endif
c     columns: a scan over the column blocks
      firstcol = 0
      lastcol = -1
      start = 1
      do c = 0, npcols - 1
         sz = n / npcols
         if (c .lt. mod(n, npcols)) sz = sz + 1
         if (c .eq. mycol) then
            firstcol = start
            lastcol = start + sz - 1
         endif
         start = start + sz
      enddo
c     row lengths from the data
      rowstr(1) = 1
      do j = 1, lastrow - firstrow + 1
         len = 1 + int(5.0d0*abs(sin(dble(j + firstrow))))
         rowstr(j+1) = rowstr(j) + len
      enddo
      do k = 1, nzmax
         colidx(k) = mod(k - 1, n) + 1
         a(k) = 1.0d0
      enddo
      nmax = max(lastrow - firstrow + 1, lastcol - firstcol + 1)
      do it = 1, 3
         do i = 1, nmax
            x(i) = 1.0d0
         enddo
         do j = 1, lastrow - firstrow + 1
            s = 0.0d0
            do k = rowstr(j), rowstr(j+1) - 1
               s = s + a(k)*x(colidx(k))
            enddo
            y(j) = s
         enddo
         call MPI_ALLREDUCE(y, x, lastrow - firstrow + 1,
     >        MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
      enddo
      call MPI_FINALIZE(ierr)
      end
