/* cart2d.c: a 2-D Jacobi sweep on a Cartesian grid of processes: MPI_Dims_create, MPI_Cart_create, MPI_Cart_coords and MPI_Cart_shift into an array member of a struct, block sizes with remainders, row halos by MPI_Sendrecv (MPI_PROC_NULL at the edges), a column packed and sent. */
#include <mpi.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { int nx, ny, x0, y0; int nb[4]; MPI_Comm comm; } grid_t;

static void block(int n, int p, int me, int *cnt, int *start) {
  int q = n / p, r = n % p;
  *cnt = q + (me < r ? 1 : 0);
  *start = me * q + (me < r ? me : r);
}

static void make_grid(grid_t *g, int gx, int gy) {
  int np, dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2], me;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Dims_create(np, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &g->comm);
  MPI_Comm_rank(g->comm, &me);
  MPI_Cart_coords(g->comm, me, 2, coords);
  MPI_Cart_shift(g->comm, 0, 1, &g->nb[0], &g->nb[1]);
  MPI_Cart_shift(g->comm, 1, 1, &g->nb[2], &g->nb[3]);
  block(gx, dims[0], coords[0], &g->nx, &g->x0);
  block(gy, dims[1], coords[1], &g->ny, &g->y0);
}

int main(int argc, char **argv) {
  int gx = 100, gy = 70, steps = 20;
  grid_t g;
  MPI_Init(&argc, &argv);
  if (argc > 1) gx = atoi(argv[1]);
  if (argc > 2) gy = atoi(argv[2]);
  if (argc > 3) steps = atoi(argv[3]);
  make_grid(&g, gx, gy);
  int w = g.ny + 2;
  double *u = calloc((size_t)(g.nx + 2) * w, sizeof(double));
  double *v = calloc((size_t)(g.nx + 2) * w, sizeof(double));
  double *col = malloc(sizeof(double) * g.nx), *rcol = malloc(sizeof(double) * g.nx);
  for (int t = 0; t < steps; t++) {
    /* rows are contiguous: u[i*w + 1 .. i*w + ny] */
    MPI_Sendrecv(&u[1 * w + 1], g.ny, MPI_DOUBLE, g.nb[0], 0, &u[(g.nx + 1) * w + 1], g.ny, MPI_DOUBLE, g.nb[1], 0, g.comm, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[g.nx * w + 1], g.ny, MPI_DOUBLE, g.nb[1], 1, &u[0 * w + 1], g.ny, MPI_DOUBLE, g.nb[0], 1, g.comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < g.nx; i++) col[i] = u[(i + 1) * w + 1];
    MPI_Sendrecv(col, g.nx, MPI_DOUBLE, g.nb[2], 2, rcol, g.nx, MPI_DOUBLE, g.nb[3], 2, g.comm, MPI_STATUS_IGNORE);
    if (g.nb[3] != MPI_PROC_NULL)
      for (int i = 0; i < g.nx; i++) u[(i + 1) * w + g.ny + 1] = rcol[i];
    for (int i = 1; i <= g.nx; i++)
      for (int j = 1; j <= g.ny; j++)
        v[i * w + j] = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] + u[i * w + j + 1]);
    double *tmp = u; u = v; v = tmp;
  }
  double s = 0, tot;
  for (int i = 1; i <= g.nx; i++)
    for (int j = 1; j <= g.ny; j++) s += u[i * w + j];
  MPI_Allreduce(&s, &tot, 1, MPI_DOUBLE, MPI_SUM, g.comm);
  free(u); free(v); free(col); free(rcol);
  MPI_Finalize();
  return 0;
}
