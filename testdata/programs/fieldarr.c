/* Arrays inside structures, reached through pointers as C codes reach
 * them: a zero-initialised structure, a function returning a pointer to
 * its array field (handed to MPI_Dims_create), another filling a second
 * array field through the structure's pointer, and the work sized from
 * both, read through the structure's pointer in a function; a third
 * filled in a loop through the pointer a function returns. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int d[3];
  int loc[3];
  int halo[3];
  int steps;
} Grid;

static int *dimsOf(Grid *g) { return g->d; }

static long cells(const Grid *g) { return (long)g->loc[0] * g->loc[1] * g->loc[2]; }

static int *halo(Grid *g, int k) { return &g->halo[k]; }
static int *loc(Grid *g, int k) { return &g->loc[k]; }

static void setLocal(Grid *g, int n) {
  for (int k = 0; k < 3; k++)
    g->loc[k] = n / g->d[k] + (k == 0 ? 1 : 0);
}

int main(int argc, char **argv) {
  int size, rank, n = 12;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Grid g = {{0}};
  if (argc > 2) {
    n = atoi(argv[1]);
    g.steps = atoi(argv[2]);
  }
  MPI_Dims_create(size, 3, dimsOf(&g));
  setLocal(&g, n);
  long nc = cells(&g);
  for (int k = 0; k < 3; k++)
    *halo(&g, k) = *loc(&g, k) / 2 + k; /* through the pointers calls return */
  double *u = calloc(nc, sizeof(double)), s = 0, t;
  for (int it = 0; it < g.steps; it++) {
    for (long c = 0; c < nc; c++)
      u[c] += 1.0;
    for (int k = 0; k < g.d[0] * g.loc[1] + g.halo[2]; k++)
      s += u[k % nc];
    MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("%g\n", t);
  free(u);
  MPI_Finalize();
  return 0;
}
