c     A program built for one process count, as NPB's benchmarks are: the
c     header cfg.h (written by ../tools/setp for P processes, here for 4)
c     sizes each process's block, and the program stops on any other count.
      program cfgprog
      include 'mpif.h'
      include 'cfg.h'
      integer n, nloc
      parameter (n = 4096, nloc = n / nproc_compiled)
      double precision a(nloc), s, t
      integer i, k, ierr, nprocs, rank
      call mpi_init(ierr)
      call mpi_comm_size(mpi_comm_world, nprocs, ierr)
      call mpi_comm_rank(mpi_comm_world, rank, ierr)
      if (nprocs .ne. nproc_compiled) then
         if (rank .eq. 0) print *, 'compiled for', nproc_compiled
         call mpi_abort(mpi_comm_world, 1, ierr)
      endif
      s = 0
      do k = 1, 10
         call sweep(a, nloc, k, s)
         call mpi_allreduce(s, t, 1, mpi_double_precision, mpi_sum,
     >                      mpi_comm_world, ierr)
      enddo
      call mpi_finalize(ierr)
      end
