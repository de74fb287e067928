/* ctypes.c: a halo exchange through derived datatypes in C: a column of
 * the local array (with its halo) as one MPI_Type_vector, a row as an
 * MPI_Type_contiguous, and a loop sized by MPI_Type_size.
 * Run: ctypes n m */
#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int rank, size, n = 40, m = 30, tsz;
  MPI_Datatype col, row;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 2) { n = atoi(argv[1]); m = atoi(argv[2]); }
  double *u = calloc((size_t)(n + 2) * (m + 2), sizeof(double));
  MPI_Type_vector(m, 1, n + 2, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Type_contiguous(n, MPI_DOUBLE, &row);
  MPI_Type_commit(&row);
  MPI_Type_size(col, &tsz);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int it = 0; it < 4; it++) {
    MPI_Sendrecv(u + n, 1, col, right, 0, u, 1, col, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(u + 1, 1, row, left, 1, u + (n + 2), 1, row, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int k = 0; k < tsz / 8; k++) u[k] += 1.0;
  }
  MPI_Type_free(&col);
  MPI_Type_free(&row);
  free(u);
  MPI_Finalize();
  return 0;
}
