c     rankloops.f -- loops whose exit the rank decides: a GO TO loop
c     over the bits of a rank-dependent value and a DO WHILE that powers
c     by halving (as NPB's random-number seeds are computed), beside work
c     that does not depend on them. Beyond a few ranks mkvet runs them at
c     each rank for the range of their trip counts only.
      program rankloops
      implicit none
      include 'mpif.h'
      integer ierr, me, np, i, n, bits, k
      double precision x
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      i = 3*me + 5
      bits = 0
 10   continue
      if (i .gt. 0) then
         bits = bits + 1
         i = i / 2
         goto 10
      endif
      n = 7*me + np
      do while (n .gt. 1)
         if (mod(n, 2) .eq. 0) then
            n = n / 2
         else
            n = n - 1
         endif
      end do
      x = 0.0d0
      do k = 1, 100000
         x = x + 1.0d0
      enddo
      call MPI_FINALIZE(ierr)
      end
