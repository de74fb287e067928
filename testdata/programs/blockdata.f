C     blockdata.f: settings a BLOCK DATA unit and another unit's DATA
C     statements give COMMON blocks, read by the routines that do the
C     work: sizes, a table of block lengths, and a step count given by a
C     named constant, as Fortran 77 codes keep their defaults.
      PROGRAM BDATA
      INCLUDE 'mpif.h'
      INTEGER N, NSTEP
      COMMON /SIZES/ N, NSTEP
      INTEGER NLEV
      COMMON /LEVELS/ NLEV
      DATA NLEV /3/
      INTEGER IERR, RANK, NPROCS
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      CALL WORK(RANK, NPROCS)
      CALL MPI_FINALIZE(IERR)
      END

      BLOCK DATA DEFLTS
      INTEGER NMAX
      PARAMETER (NMAX = 120)
      INTEGER N, NSTEP
      COMMON /SIZES/ N, NSTEP
      INTEGER LENS(4)
      COMMON /TABLE/ LENS
      DATA N, NSTEP / NMAX, 6 /
      DATA LENS / 10, 2*25, 40 /
      END

      SUBROUTINE WORK(RANK, NPROCS)
      INCLUDE 'mpif.h'
      INTEGER RANK, NPROCS
      INTEGER N, NSTEP
      COMMON /SIZES/ N, NSTEP
      INTEGER LENS(4)
      COMMON /TABLE/ LENS
      INTEGER NLEV
      COMMON /LEVELS/ NLEV
      INTEGER I, IT, L, NLOC, IERR
      DOUBLE PRECISION S, T
      NLOC = N / NPROCS
      IF (RANK .LT. MOD(N, NPROCS)) NLOC = NLOC + 1
      S = 0.0D0
      DO 30 IT = 1, NSTEP
         DO 10 I = 1, NLOC
            S = S + DBLE(I) * 0.5D0
 10      CONTINUE
         DO 20 L = 1, NLEV
            DO 15 I = 1, LENS(L + 1)
               S = S - 1.0D-3 * DBLE(I)
 15         CONTINUE
 20      CONTINUE
 30   CONTINUE
      CALL MPI_REDUCE(S, T, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) PRINT *, T
      END
