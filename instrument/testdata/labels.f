c     labels.f -- the rewriter's hard cases in fixed form: a jump to a
c     DO loop's terminal CONTINUE, a logical IF holding an MPI call as
c     the terminal statement of a DO loop, an MPI call continued over
c     lines, a loop built from GO TO around a labelled statement, a
c     shared DO termination, a PARAMETER size, and a function called
c     inside a loop (counted, not timed).
      program labels
      implicit none
      include 'mpif.h'
      integer n
      parameter (n = 10)
c$mk param n = 10
      integer i, j, k, m, me, np, ierr, buf(4), tot, all
      integer status(MPI_STATUS_SIZE)
      integer twice
      external twice
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      k = 0
      tot = 0
      do 10 i = 1, n
         if (mod(i, 2) .eq. 0) goto 10
         k = k + twice(i)
   10 continue
      do 20 i = 1, n
   20 if (me .gt. 0) call MPI_SEND(buf, 4, MPI_INTEGER, 0, i,
     &                           MPI_COMM_WORLD, ierr)
      if (me .eq. 0) then
         do 30 j = 1, (np - 1)*n
            call MPI_RECV(buf, 4, MPI_INTEGER, MPI_ANY_SOURCE,
     &                    MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
   30    continue
      endif
      do 50 i = 1, n
      do 50 j = 1, i
         tot = tot + j
   50 continue
      m = k
   40 m = m - 1
      if (m .gt. 0) goto 40
      call MPI_ALLREDUCE(tot, all, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, ierr)
      if (me .eq. 0) print *, 'labels', all, m
      call MPI_FINALIZE(ierr)
      end
c
      integer function twice(i)
      integer i
      twice = 2*i
      return
      end
