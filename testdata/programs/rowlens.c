/* rowlens.c -- a 2-D 9-point operator stored by rows, each row's length
   counted while the row is built (cells at the grid's edges have fewer
   neighbours), then applied row by row: the inner loop of the product
   runs the stored length of each row. Rows are split in blocks of grid
   lines over the ranks (the first ny % size ranks one line more). nx, ny
   and the step count come from the command line. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int nrow;
  int *len;
  double **vals;
  int **cols;
} Matrix;

static void build(Matrix *m, int nx, int ny) {
  int n = nx * ny;
  m->nrow = n;
  m->len = malloc(n * sizeof(int));
  m->vals = malloc(n * sizeof(double *));
  m->cols = malloc(n * sizeof(int *));
  double *v = malloc(9 * (size_t)n * sizeof(double));
  int *c = malloc(9 * (size_t)n * sizeof(int));
  for (int iy = 0; iy < ny; iy++)
    for (int ix = 0; ix < nx; ix++) {
      int row = iy * nx + ix, cnt = 0;
      m->vals[row] = v;
      m->cols[row] = c;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
          if (ix + dx >= 0 && ix + dx < nx && iy + dy >= 0 && iy + dy < ny) {
            *v++ = (dx == 0 && dy == 0) ? 8.0 : -1.0;
            *c++ = row + dy * nx + dx;
            cnt++;
          }
      m->len[row] = cnt;
    }
}

static void spmv(const Matrix *m, const double *x, double *y) {
  const int nrow = m->nrow;
  for (int i = 0; i < nrow; i++) {
    double s = 0;
    const double *v = m->vals[i];
    const int *c = m->cols[i];
    int len = m->len[i];
    for (int j = 0; j < len; j++)
      s += v[j] * x[c[j]];
    y[i] = s;
  }
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int nx = argc > 1 ? atoi(argv[1]) : 16;
  int ny = argc > 2 ? atoi(argv[2]) : 16;
  int steps = argc > 3 ? atoi(argv[3]) : 10;
  int lines = ny / size + (rank < ny % size ? 1 : 0);
  Matrix m;
  build(&m, nx, lines);
  double *x = malloc(m.nrow * sizeof(double)), *y = malloc(m.nrow * sizeof(double));
  for (int i = 0; i < m.nrow; i++)
    x[i] = 1.0;
  double local, global = 0;
  for (int it = 0; it < steps; it++) {
    spmv(&m, x, y);
    local = 0;
    for (int i = 0; i < m.nrow; i++)
      local += y[i];
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("%g\n", global);
  MPI_Finalize();
  return 0;
}
