c     gotojumps.f -- jumps inside loops built from GO TO, as FORTRAN 77
c     programs write them. A keyword deck read in a GO TO loop that skips
c     its comment lines by going back to the loop's head; a main loop
c     built from GO TO whose even steps skip a sweep (a forward GO TO on
c     the counter), whose kernel a computed GO TO picks by the step, with
c     an arithmetic IF on the step and an inner loop built from GO TO
c     halving a width. The sizes come from gotojumps.in when it is there
c     (defaults 1000 and 10).
      program gotojumps
      implicit none
      include 'mpif.h'
      integer me, np, ierr, i, n, nloc, maxit, it, imeth, m
      double precision u(100000), s, sg, val
      character*8 key
      character*80 line
      call mpi_init(ierr)
      call mpi_comm_rank(mpi_comm_world, me, ierr)
      call mpi_comm_size(mpi_comm_world, np, ierr)
      n = 1000
      maxit = 10
c     The deck: a line starting with * is a comment, skipped.
      open(unit=10, file='gotojumps.in', status='old', err=30)
   20 read(10, '(a)', end=25) line
      if (line(1:1) .eq. '*') goto 20
      read(line, '(a8, f12.0)') key, val
      if (key .eq. 'N       ') n = nint(val)
      if (key .eq. 'MAXIT   ') maxit = nint(val)
      goto 20
   25 close(10)
   30 continue
      nloc = n / np
      if (me .lt. mod(n, np)) nloc = nloc + 1
      do 40 i = 1, nloc
         u(i) = dble(i)
   40 continue
      s = 0.0d0
      it = 0
  100 continue
      it = it + 1
c     Odd steps sweep, even ones skip it.
      if (mod(it, 2) .eq. 0) goto 120
      do 110 i = 1, nloc
         s = s + u(i)
  110 continue
  120 continue
c     The kernel of the step: three in turn.
      imeth = mod(it, 3) + 1
      goto (130, 140, 150) imeth
  130 do 135 i = 1, nloc
         u(i) = 0.5d0 * u(i) + 1.0d0
  135 continue
      goto 160
  140 s = s + 1.0d0
      goto 160
  150 do 155 i = 1, nloc / 2
         s = s + u(2 * i)
  155 continue
  160 continue
c     The first two steps damp.
      if (it - 3) 170, 180, 180
  170 do 175 i = 1, nloc
         u(i) = 0.9d0 * u(i)
  175 continue
  180 continue
c     An inner loop built from GO TO: the width halved down to one.
      m = n
  190 if (m .le. 1) goto 200
      s = s + dble(m)
      m = m / 2
      goto 190
  200 continue
      call mpi_allreduce(s, sg, 1, mpi_double_precision, mpi_sum,
     &     mpi_comm_world, ierr)
      if (it .lt. maxit) goto 100
      if (me .eq. 0) write(*, *) it, sg
      call mpi_finalize(ierr)
      end
