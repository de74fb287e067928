c     nests.f -- the loop nests Options.NestTimers times: routines
c     called from a loop with nests of their own (one leaving its nest by
c     GO TO), a function whose nest returns from inside, an EXIT, an
c     arithmetic IF that may leave a nest or stay, nested loops (one
c     timer for the nest) and an MPI call inside a nest (a timed region
c     of its own).
      program nests
      implicit none
      include 'mpif.h'
      integer n
      parameter (n = 10)
c$mk param n = 10
      integer i, j, me, np, ierr, k
      double precision a(n), s, t
      integer find
      external find
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      s = 0
      do 20 i = 1, n
         call scale(a, n, i)
         do 10 j = 1, n
            s = s + a(j)
   10    continue
         call upto(s, i)
         call MPI_ALLREDUCE(s, t, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                      MPI_COMM_WORLD, ierr)
   20 continue
      k = 0
      do 30 i = 1, n
         k = k + find(a, n, i)
   30 continue
      do i = 1, n
         if (i .gt. 4) exit
         s = s + 1
      end do
      do 60 i = 1, n
         if (i - 5) 60, 70, 70
   60 continue
   70 continue
      if (me .eq. 0) print *, 'nests', s, k, t
      call MPI_FINALIZE(ierr)
      end
c
      subroutine scale(a, n, m)
      integer n, m, j
      double precision a(n)
      do j = 1, n
         a(j) = dble(j*m)
      end do
      end
c
      subroutine upto(s, m)
      integer m, j
      double precision s
      do 10 j = 1, m
         if (j .gt. 3) goto 20
         s = s + j
   10 continue
   20 continue
      end
c
      integer function find(a, n, m)
      integer n, m, j
      double precision a(n)
      find = 0
      do 10 j = 1, n
         if (j .eq. m) then
            find = j
            return
         end if
   10 continue
      end
