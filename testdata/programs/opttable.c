/* Options parsed through a table of descriptors, as CoMD and its kin do:
 * each entry holds a long and a short name, a type letter and a void *
 * pointing at the variable it sets; sscanf writes through the entry's
 * pointer cast to the variable's type, a flag is set by a store through
 * it. The sizes then drive a 3-D Cartesian decomposition. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const char *longName; char shortName; char type; void *ptr; const char *help; } Opt;
static Opt opts[16];
static int nopts = 0;

static void addArg(const char *ln, char sn, char type, void *ptr, const char *help) {
  opts[nopts].longName = ln;
  opts[nopts].shortName = sn;
  opts[nopts].type = type;
  opts[nopts].ptr = ptr;
  opts[nopts].help = help;
  nopts++;
}

static void processArgs(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    char *a = argv[i];
    if (a[0] != '-') continue;
    for (int k = 0; k < nopts; k++) {
      Opt *o = &opts[k];
      if ((a[1] == '-' && strcmp(a + 2, o->longName) == 0) || (a[1] == o->shortName && a[2] == '\0')) {
        if (o->type == 'i') sscanf(argv[++i], "%d", (int *)o->ptr);
        else if (o->type == 'd') sscanf(argv[++i], "%lf", (double *)o->ptr);
        else if (o->type == 'b') *(int *)o->ptr = 1;
        break;
      }
    }
  }
}

typedef struct { int nx, ny, nz; int dims[3]; int coords[3]; int nbr[6]; MPI_Comm cart; } Domain;

int main(int argc, char **argv) {
  int nx = 20, ny = 20, nz = 20, steps = 10, printRate = 5, quiet = 0;
  double dt = 1.0;
  MPI_Init(&argc, &argv);
  addArg("nx", 'x', 'i', &nx, "cells in x");
  addArg("ny", 'y', 'i', &ny, "cells in y");
  addArg("nz", 'z', 'i', &nz, "cells in z");
  addArg("nSteps", 'N', 'i', &steps, "steps");
  addArg("printRate", 'n', 'i', &printRate, "print every");
  addArg("dt", 'D', 'd', &dt, "time step");
  addArg("quiet", 'q', 'b', &quiet, "no output");
  processArgs(argc, argv);
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Domain d;
  d.dims[0] = d.dims[1] = d.dims[2] = 0;
  MPI_Dims_create(size, 3, d.dims);
  int periods[3] = {1, 1, 1};
  MPI_Cart_create(MPI_COMM_WORLD, 3, d.dims, periods, 0, &d.cart);
  MPI_Comm_rank(d.cart, &rank);
  MPI_Cart_coords(d.cart, rank, 3, d.coords);
  for (int k = 0; k < 3; k++) MPI_Cart_shift(d.cart, k, 1, &d.nbr[2 * k], &d.nbr[2 * k + 1]);
  d.nx = nx / d.dims[0]; d.ny = ny / d.dims[1]; d.nz = nz / d.dims[2];
  int ncell = d.nx * d.ny * d.nz;
  double *f = calloc(ncell, sizeof(double));
  int face[3] = {d.ny * d.nz, d.nx * d.nz, d.nx * d.ny};
  int maxface = face[0] > face[1] ? face[0] : face[1];
  if (face[2] > maxface) maxface = face[2];
  double *sb = malloc(maxface * sizeof(double)), *rb = malloc(maxface * sizeof(double));
  for (int s = 0; s < steps; s++) {
    for (int k = 0; k < 3; k++) {
      for (int i = 0; i < face[k]; i++) sb[i] = f[i];
      MPI_Sendrecv(sb, face[k], MPI_DOUBLE, d.nbr[2 * k], k, rb, face[k], MPI_DOUBLE, d.nbr[2 * k + 1], k, d.cart, MPI_STATUS_IGNORE);
      MPI_Sendrecv(sb, face[k], MPI_DOUBLE, d.nbr[2 * k + 1], k + 3, rb, face[k], MPI_DOUBLE, d.nbr[2 * k], k + 3, d.cart, MPI_STATUS_IGNORE);
    }
    for (int c = 0; c < ncell; c++) f[c] += dt * 0.5;
    if (!quiet && s % printRate == 0) {
      double e = 0, g;
      for (int c = 0; c < ncell; c++) e += f[c];
      MPI_Reduce(&e, &g, 1, MPI_DOUBLE, MPI_SUM, 0, d.cart);
      if (rank == 0) printf("%d %g\n", s, g);
    }
  }
  MPI_Finalize();
  return 0;
}
