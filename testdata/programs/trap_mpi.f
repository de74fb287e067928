c     trap_mpi.f -- parallel trapezoidal rule with point-to-point
c     messages, after Pacheco, "Parallel Programming with MPI", ch. 4
c     (seed 004): every rank integrates its n/p trapezoids and sends the
c     result to rank 0, which adds them up. p must divide n.
      program trapmp
      implicit none
      include 'mpif.h'
      integer n
      parameter (n = 1024)
c$mk param n = 1024
c$mk assume mod(n, p) == 0
      integer my_rank, p, source, dest, tag, ierr
      integer status(MPI_STATUS_SIZE)
      integer local_n
      double precision a, b, h, local_a, local_b, integral, total
      double precision trap
      external trap
      data a, b /0.0d0, 1.0d0/
      data dest, tag /0, 50/
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, my_rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, p, ierr)
      h = (b - a)/n
      local_n = n/p
      local_a = a + my_rank*local_n*h
      local_b = local_a + local_n*h
      integral = trap(local_a, local_b, local_n, h)
      if (my_rank .eq. 0) then
         total = integral
         do 10 source = 1, p-1
            call MPI_RECV(integral, 1, MPI_DOUBLE_PRECISION, source,
     +                    tag, MPI_COMM_WORLD, status, ierr)
            total = total + integral
   10    continue
      else
         call MPI_SEND(integral, 1, MPI_DOUBLE_PRECISION, dest, tag,
     +                 MPI_COMM_WORLD, ierr)
      endif
      if (my_rank .eq. 0) then
         write(*, 100) n, a, b, total
  100    format(' With n = ', i6, ' trapezoids, the integral from ',
     1          f6.3, ' to ', f6.3, ' = ', f14.10)
      endif
      call MPI_FINALIZE(ierr)
      end
c
      double precision function trap(local_a, local_b, local_n, h)
      implicit none
      double precision local_a, local_b, h
      integer local_n
      double precision integral, x, f
      integer i
      external f
      integral = (f(local_a) + f(local_b))/2.0d0
      x = local_a
      do 20 i = 1, local_n-1
         x = x + h
         integral = integral + f(x)
   20 continue
      trap = integral*h
      return
      end
c
      double precision function f(x)
      double precision x
      f = x*x
      return
      end
