!     A routine called once before a timed loop and then in each of its
!     iterations, as a solver computes a first residual: its loops run in
!     two timed regions. The branch in it depends on the data.
      program twice
      integer nmax
      parameter (nmax = 100000)
      integer n, j, it
      double precision x(nmax), y(nmax)
      read *, n
      do 10 j = 1, n
         call random_number(x(j))
   10 continue
      call sweep(n, x, y)
      do 20 it = 1, 10
         call sweep(n, x, y)
   20 continue
      print *, y(1)
      end

      subroutine sweep(n, x, y)
      integer nmax
      parameter (nmax = 100000)
      integer n, j
      double precision x(nmax), y(nmax)
      do 30 j = 1, n
         y(j) = 2.0d0*x(j)
         if (x(j) .gt. 0.7d0) then
            y(j) = y(j) + x(j)*x(j)
         end if
   30 continue
      end
