c     ifgoto.f -- the FORTRAN 77 while loop written as a labelled block
c     IF whose arm ends by going back to it (10 if (c) then ... goto 10
c     end if): the log2 of the process count, a doubling exchange whose
c     distance grows until it passes the process count, and a countdown
c     inside a DO loop. The sizes come from ifgoto.in when it is there
c     (defaults 12 and 5003).
      program ifgoto
      implicit none
      include 'mpif.h'
      integer me, np, ierr, i, k, lg, q, nloc, iter, dist, peer, m
      integer status(mpi_status_size)
      double precision a(100000), s, t, x
      call mpi_init(ierr)
      call mpi_comm_rank(mpi_comm_world, me, ierr)
      call mpi_comm_size(mpi_comm_world, np, ierr)
      iter = 12
      k = 5003
      open(unit=10, file='ifgoto.in', status='old', err=5)
      read(10, *) iter, k
      close(10)
    5 continue
      lg = 0
      q = 1
   10 if (q .lt. np) then
         q = q * 2
         lg = lg + 1
         goto 10
      endif
      nloc = k / np
      if (me .lt. mod(k, np)) nloc = nloc + 1
      s = 0.0d0
      do 30 i = 1, iter
         do 15 m = 1, nloc
            a(m) = dble(m + i)
            s = s + a(m)
   15    continue
         dist = 1
   20    if (dist .lt. np) then
            peer = mod(me + dist, np)
            call mpi_sendrecv(s, 1, mpi_double_precision, peer, dist,
     &           x, 1, mpi_double_precision, mod(me - dist + np, np),
     &           dist, mpi_comm_world, status, ierr)
            s = s + x
            dist = dist * 2
            goto 20
         end if
         m = mod(i, 4)
   25    if (m .gt. 0) then
            t = t + s
            m = m - 1
            go to 25
         endif
   30 continue
      call mpi_allreduce(s, t, 1, mpi_double_precision, mpi_sum,
     &     mpi_comm_world, ierr)
      if (me .eq. 0) write(*, *) lg, t
      call mpi_finalize(ierr)
      end
