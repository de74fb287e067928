c     trap_serial.f -- serial trapezoidal rule, after Pacheco, "Parallel
c     Programming with MPI", ch. 4 and 11 (seed 004): integrate
c     f(x) = x*x over [a, b] with n trapezoids.
      program trapsr
      implicit none
      integer n
      parameter (n = 1024)
c$mk param n = 1024
      double precision a, b, h, integral, x
      integer i
      double precision f
      external f
      a = 0.0d0
      b = 1.0d0
      h = (b - a)/n
      integral = (f(a) + f(b))/2.0d0
      x = a
      do 10 i = 1, n-1
         x = x + h
         integral = integral + f(x)
   10 continue
      integral = integral*h
      write(*, 100) n, a, b, integral
  100 format(' With n = ', i6, ' trapezoids, the integral from ', f6.3,
     &       ' to ', f6.3, ' = ', f14.10)
      end
c
      double precision function f(x)
      double precision x
      f = x*x
      return
      end
