c     probeslice.f -- a loop whose exit the rank decides (the bits of a
c     rank-dependent value, as NPB's random-number seeds are powered),
c     whose body also calls a floating-point generator on every trip,
c     passes the loop's counter to a routine that halves it, and counts
c     its trips in COMMON through another routine. Beyond a few ranks
c     mkvet runs the loop at each rank for the range of its trip counts:
c     the generator need not run there, the two routines must.
      program probeslice
      implicit none
      include 'mpif.h'
      integer ierr, me, np, n, k, j, trips
      double precision a, r, dummy, gen
      common /tally/ trips
      external gen
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      n = 5*me + 3
      a = 1.5d0
      r = 1.0d0
      trips = 0
 10   continue
      if (n .gt. 0) then
         if (mod(n, 2) .eq. 1) dummy = gen(r, a)
         dummy = gen(a, a)
         call halve(n)
         call tally1
         goto 10
      endif
      do k = 1, 1000
         do j = 1, 10
            r = r + a
         enddo
      enddo
      call MPI_FINALIZE(ierr)
      end

      double precision function gen(x, a)
      implicit none
      double precision x, a, t
      t = x * a
      x = t - dble(int(t))
      gen = x
      end

      subroutine halve(n)
      implicit none
      integer n
      n = n / 2
      end

      subroutine tally1
      implicit none
      integer trips
      common /tally/ trips
      trips = trips + 1
      end
