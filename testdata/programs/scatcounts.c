/* Work sizes the root computes and scatters, as programs distribute
 * uneven blocks: the counts a loop over the processes fills on rank 0
 * (the others hold NULL), MPI_Scatter of one count to each rank, then
 * MPI_Scatterv and MPI_Gatherv of the blocks, and each rank's loops over
 * its own count. */
#include <mpi.h>
#include <stdlib.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size, n = 1000;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1) n = atoi(argv[1]);
  int *counts = NULL, *displs = NULL;
  if (rank == 0) {
    counts = malloc(size * sizeof(int));
    displs = malloc(size * sizeof(int));
    int off = 0;
    for (int r = 0; r < size; r++) {
      counts[r] = n / size + (r < n % size ? 1 : 0);
      displs[r] = off;
      off += counts[r];
    }
  }
  int mine;
  MPI_Scatter(counts, 1, MPI_INT, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
  double *all = NULL, *part = malloc(mine * sizeof(double));
  if (rank == 0) all = calloc(n, sizeof(double));
  MPI_Scatterv(all, counts, displs, MPI_DOUBLE, part, mine, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double s = 0;
  for (int it = 0; it < 10; it++)
    for (int i = 0; i < mine; i++) s += part[i] * it;
  MPI_Gatherv(part, mine, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
