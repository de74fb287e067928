c     control.f -- control flow the symbolic evaluation must follow
c     exactly: forward GO TO, a loop built from GO TO with one exit,
c     CYCLE by GO TO to a DO's terminal statement, x = x + c recurrences
c     used as bounds, SELECT CASE-like IF chains on the rank, strided and
c     downward DO loops, MIN/MAX bounds, integer division and MOD, values
c     assigned under conditions, and a function result used as a bound.
      program control
      implicit none
      include 'mpif.h'
      integer n, m
      parameter (n = 40, m = 6)
c$mk param n = 40
c$mk param m = 6
c$mk assume n >= 1
c$mk assume m >= 1
      integer me, p, ierr, i, j, k, cnt, lo, hi, w, nb
      integer width
      external width
      double precision s
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, p, ierr)
      s = 0.0d0
c     A forward GO TO skips a block on rank 0.
      if (me .eq. 0) goto 100
      do i = 1, n
         s = s + dble(i)
      end do
  100 continue
c     A recurrence: cnt grows by 3 per iteration and bounds a later loop.
      cnt = 1
      do i = 1, m
         cnt = cnt + 3
      end do
      do j = 1, cnt
         s = s + 1.0d0
      end do
c     A loop built from GO TO: k runs 1, 2, ... until k*k > n.
      k = 1
   10 if (k*k .gt. n) goto 20
         s = s + dble(k)
         k = k + 1
         goto 10
   20 continue
c     CYCLE by GO TO the terminal statement, on odd i.
      do 30 i = 1, n
         if (mod(i, 2) .eq. 1) goto 30
         s = s + 2.0d0
   30 continue
c     Values assigned under conditions on the rank.
      if (me .lt. mod(n, p)) then
         nb = n/p + 1
      else
         nb = n/p
      endif
      lo = 1
      if (me .gt. 0) lo = 2
      do i = lo, nb
         s = s + 0.5d0
      end do
c     An IF chain on the rank.
      if (me .eq. 0) then
         w = 3
      else if (me .eq. p - 1) then
         w = 2*m
      else
         w = m
      endif
      do i = 1, w
         s = s - 1.0d0
      end do
c     Strided, downward and clipped loops.
      do i = 1, n, 3
         s = s + 1.0d0
      end do
      do i = n, 1, -2
         s = s + 1.0d0
      end do
      do i = max(1, me*m), min(n, me*m + 2*m)
         do j = i, min(i + 2, n)
            s = s + 1.0d0
         end do
      end do
c     A function result as a bound.
      do i = 1, width(n, p)
         s = s + 1.0d0
      end do
      call MPI_FINALIZE(ierr)
      end
c
      integer function width(n, p)
      integer n, p
      width = (n + p - 1)/p
      end
