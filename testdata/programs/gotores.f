c     gotores.f -- a Jacobi relaxation whose convergence loop is built
c     from GO TO and ends on its residual and its iteration count at once
c     (if (res .gt. eps .and. it .lt. itmax) goto 100): the count bounds
c     the runs, the residual is an early exit the counts take as never
c     taken (eps is tiny: a run makes itmax iterations). A polishing loop
c     counts down by two to zero, its data operands first and nested.
c     The sizes come from gotores.in when it is there (defaults 4000
c     and 25).
      program gotores
      implicit none
      include 'mpif.h'
      integer nsmax
      parameter (nsmax = 3)
      integer me, np, ierr, i, it, n, nloc, itmax, left, right, nsm
      integer status(mpi_status_size)
      double precision u(0:100001), v(0:100001), f(100000)
      double precision eps, rl, res, dmax
      call mpi_init(ierr)
      call mpi_comm_rank(mpi_comm_world, me, ierr)
      call mpi_comm_size(mpi_comm_world, np, ierr)
      n = 4000
      itmax = 25
      open(unit=10, file='gotores.in', status='old', err=5)
      read(10, *) n, itmax
      close(10)
    5 continue
      nloc = n / np
      if (me .lt. mod(n, np)) nloc = nloc + 1
      left = me - 1
      right = me + 1
      if (me .eq. 0) left = mpi_proc_null
      if (me .eq. np - 1) right = mpi_proc_null
c     Set-up: the right-hand side and the first guess.
      do 10 i = 1, nloc
         f(i) = 1.0d0
         u(i) = 0.0d0
   10 continue
      u(0) = 0.0d0
      u(nloc + 1) = 0.0d0
      eps = 1.0d-30
c     The convergence loop: halo exchange, a sweep, the residual.
      it = 0
  100 continue
      it = it + 1
      call mpi_sendrecv(u(nloc), 1, mpi_double_precision, right, 1,
     &     u(0), 1, mpi_double_precision, left, 1,
     &     mpi_comm_world, status, ierr)
      call mpi_sendrecv(u(1), 1, mpi_double_precision, left, 2,
     &     u(nloc + 1), 1, mpi_double_precision, right, 2,
     &     mpi_comm_world, status, ierr)
      rl = 0.0d0
      do 20 i = 1, nloc
         v(i) = 0.5d0 * (u(i - 1) + u(i + 1) + f(i))
         rl = rl + (v(i) - u(i))**2
   20 continue
      do 30 i = 1, nloc
         u(i) = v(i)
   30 continue
      call mpi_allreduce(rl, res, 1, mpi_double_precision, mpi_sum,
     &     mpi_comm_world, ierr)
      if (res .gt. eps .and. it .lt. itmax) goto 100
c     Polishing: nsmax passes, the counter stepping down to zero.
      nsm = 2 * nsmax
  200 continue
      nsm = nsm - 2
      dmax = 0.0d0
      do 40 i = 1, nloc
         u(i) = 0.5d0 * (u(i) + v(i))
         dmax = max(dmax, abs(u(i)))
   40 continue
      if ((dmax .ge. 0.0d0 .and. res .gt. eps) .and. nsm .ne. 0)
     &     goto 200
      call mpi_allreduce(dmax, rl, 1, mpi_double_precision, mpi_max,
     &     mpi_comm_world, ierr)
      if (me .eq. 0) write(*, *) it, res, rl
      call mpi_finalize(ierr)
      end
