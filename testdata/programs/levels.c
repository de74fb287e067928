/* levels.c: a multilevel smoother whose level count is log2 of the
 * smaller extent and whose level l works on the extents shifted right by
 * l (nx >> l), the coarse grid's size shifted back up (1 << l); the
 * grid given as NXxNY on the command line.
 * Usage: mpirun -np P levels -g NXxNY ITERS */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, np;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	int nx = 32, ny = 32, iters = 3;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-g") == 0 && i + 1 < argc) {
			if (sscanf(argv[++i], "%dx%d", &nx, &ny) != 2)
				MPI_Abort(MPI_COMM_WORLD, 1);
		} else {
			iters = atoi(argv[i]);
		}
	}
	int levels = (int)log2((double)(nx < ny ? nx : ny));
	double s = 0;
	for (int it = 0; it < iters; it++) {
		for (int l = 0; l < levels; l++) {
			int m = (nx >> l) * (ny >> l);
			int mine = m / np + (rank < m % np);
			for (int k = 0; k < mine; k++)
				s += 0.5 * k;
			if ((1 << l) <= np)
				MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		}
	}
	if (rank == 0)
		printf("%g\n", s);
	MPI_Finalize();
	return 0;
}
