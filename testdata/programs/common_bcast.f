c common_bcast.f -- rank 0 sets the run's sizes in a COMMON block and
c broadcasts them in one call that names the first member and counts
c three (sequence association: n, m and nsteps follow one another in
c storage); every rank then sweeps its share of the rows, m columns each,
c for nsteps steps, and the last rank takes the remainder. Every rank
c starts from sizes of 1, which only the broadcast replaces.
      program cbcast
      implicit none
      include 'mpif.h'
      integer nn, mm, ns
      parameter (nn = 40, mm = 3, ns = 2)
      integer n, m, nsteps
      common /sizes/ n, m, nsteps
      integer ierr, rank, nprocs, step
      call mpi_init(ierr)
      call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
      call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
      n = 1
      m = 1
      nsteps = 1
      if (rank .eq. 0) then
         n = nn
         m = mm
         nsteps = ns
      endif
      call mpi_bcast(n, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      do 10 step = 1, nsteps
         call sweep(rank, nprocs)
 10   continue
      call mpi_finalize(ierr)
      end

      subroutine sweep(rank, nprocs)
      implicit none
      integer rank, nprocs
      integer n, m, nsteps
      common /sizes/ n, m, nsteps
      integer i, j, lo, hi
      double precision s
      lo = rank * (n / nprocs) + 1
      hi = lo + n / nprocs - 1
      if (rank .eq. nprocs - 1) hi = n
      s = 0.0d0
      do 20 i = lo, hi
         do 30 j = 1, m
            s = s + dble(i * j)
 30      continue
 20   continue
      if (s .lt. 0.0d0) print *, s
      end
