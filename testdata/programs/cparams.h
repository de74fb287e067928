c     cparams.h -- sizes for constructs_fixed.F, in the style of NPB's
c     generated npbparams.h.
      integer nsize, maxp
      parameter (nsize = 32, maxp = 64)
      double precision eps
      parameter (eps = 1.0d-12)
