c     As prog.f, but the program stops only on fewer processes than it
c     was built for, as NPB's LU does: on more, the block compiled for
c     nproc_compiled is used as it is.
      program atleast
      include 'mpif.h'
      include 'cfg.h'
      integer n, nloc
      parameter (n = 4096, nloc = n / nproc_compiled)
      double precision a(nloc), s, t
      integer k, ierr, nprocs
      call mpi_init(ierr)
      call mpi_comm_size(mpi_comm_world, nprocs, ierr)
      if (nprocs .lt. nproc_compiled) then
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
