/* packc.c: sizes read on rank 0 from standard input, packed with
 * MPI_Pack (ints and a double), broadcast as MPI_PACKED and unpacked on
 * every rank; the values decide the work.
 * Usage: mpirun -np P packc < sizes */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, np, nx = 0, ny = 0, steps = 0, pos = 0;
  double dt = 0;
  char buf[128];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (rank == 0) {
    if (scanf("%d %d %d %lf", &nx, &ny, &steps, &dt) != 4) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Pack(&nx, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD);
    MPI_Pack(&ny, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD);
    MPI_Pack(&dt, 1, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_WORLD);
    MPI_Pack(&steps, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  }
  MPI_Bcast(buf, sizeof buf, MPI_PACKED, 0, MPI_COMM_WORLD);
  pos = 0;
  MPI_Unpack(buf, sizeof buf, &pos, &nx, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Unpack(buf, sizeof buf, &pos, &ny, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Unpack(buf, sizeof buf, &pos, &dt, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Unpack(buf, sizeof buf, &pos, &steps, 1, MPI_INT, MPI_COMM_WORLD);
  double s = 0;
  int rows = ny / np + (rank < ny % np);
  for (int t = 0; t < steps; t++)
    for (int j = 0; j < rows; j++)
      for (int i = 0; i < nx; i++) s += dt * i;
  MPI_Finalize();
  return s < 0;
}
