c     lu_params.h -- problem size of lu_wavefront.f, generated in the
c     manner of NPB's npbparams.h (one header per problem class).
      integer nx, ny, nz, itmax
      parameter (nx = 16, ny = 16, nz = 8, itmax = 4)
      character*1 class
      parameter (class = 'S')
