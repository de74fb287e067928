c     A program configured by problem class only, as NPB 3.4's are: the
c     header cfg.h (written by ../tools/setc for a class) gives the size,
c     and each process takes its block of it by the process grid it makes
c     of the count it runs on (m columns, m the least with m*m >= P).
      program classprog
      include 'mpif.h'
      include 'cfg.h'
      double precision s, t
      integer k, ierr, nprocs, rank, lo, hi, m
      call mpi_init(ierr)
      call mpi_comm_size(mpi_comm_world, nprocs, ierr)
      call mpi_comm_rank(mpi_comm_world, rank, ierr)
      m = 1
      do while (m * m .lt. nprocs)
         m = m + 1
      enddo
      lo = mod(rank, m) * (n / m) + 1
      hi = lo + n / m - 1
      s = 0
      do k = 1, 10
         call block(lo, hi, k, s)
         call mpi_allreduce(s, t, 1, mpi_double_precision, mpi_sum,
     >                      mpi_comm_world, ierr)
      enddo
      call mpi_finalize(ierr)
      end
