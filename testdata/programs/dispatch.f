c     dispatch.f -- a Fortran 77 driver that chooses its kernel with a
c     computed GO TO on a mode it is given (GO TO (10, 20, 30) mode, each
c     kernel ending in GO TO 40), sizes a loop from a DATA table, and
c     broadcasts its settings through an array EQUIVALENCEd to them.
      program dispatch
      implicit none
      include 'mpif.h'
      integer nn, mm, nnit, mmode
      parameter (nn = 400, mm = 7, nnit = 5, mmode = 2)
c$mk param nn = 400
c$mk param mm = 7
c$mk param nnit = 5
c$mk param mmode = 2
c$mk assume nn >= np
      integer ipar(4), n, m, nit, mode
      equivalence (ipar(1), n), (ipar(2), m), (ipar(3), nit),
     &            (ipar(4), mode)
      integer me, np, ierr, i, j, k, it
      double precision a(1000), b(1000), f, x
      integer ncell(3)
      data ncell / 10, 20, 30 /
      f(x) = 2.0d0 * x + 1.0d0
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      do 5 i = 1, 1000
         a(i) = 0.0d0
         b(i) = 1.0d0
 5    continue
      if (me .eq. 0) then
         n = nn
         m = mm
         nit = nnit
         mode = mmode
      endif
      call MPI_BCAST(ipar, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      do 50 it = 1, nit
         goto (10, 20, 30) mode
 10      continue
         do 15 i = 1, n / np
            a(i) = f(a(i))
 15      continue
         goto 40
 20      continue
         do 26 j = 1, m
            do 25 i = 1, ncell(2)
               b(i) = f(b(i))
 25         continue
 26      continue
         goto 40
 30      continue
         do 35 k = 1, ncell(mode)
            a(k) = b(k)
 35      continue
 40      continue
 50   continue
      call MPI_FINALIZE(ierr)
      end
