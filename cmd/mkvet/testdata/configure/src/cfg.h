c     nprocs = 4 (written by ../tools/setp 4)
      integer nproc_compiled
      parameter (nproc_compiled = 4)
