/* config.c: sizes kept in a global settings struct and a global table, as
 * many codes keep them: nx rows split over the ranks in blocks, steps steps
 * each passing chunk values around a ring.  Run: config nx steps chunk */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

struct settings {
	int verbose;
	int nx;
	int steps;
	int chunk;
} cfg = {0, 64, 4, 8};

static int sizes[3];
static double row[4096];

static void setup(int argc, char **argv)
{
	if (argc > 3) {
		cfg.nx = atoi(argv[1]);
		cfg.steps = atoi(argv[2]);
		cfg.chunk = atoi(argv[3]);
	}
	sizes[0] = cfg.nx;
	sizes[1] = cfg.steps;
	sizes[2] = cfg.chunk;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	setup(argc, argv);
	int lo = rank * sizes[0] / size, hi = (rank + 1) * sizes[0] / size;
	double sum = 0;
	for (int s = 0; s < sizes[1]; s++) {
		for (int i = lo; i < hi; i++)
			sum += row[i % 4096] * s + i;
		if (size > 1)
			MPI_Sendrecv_replace(row, sizes[2], MPI_DOUBLE, (rank + 1) % size, s,
			                     (rank + size - 1) % size, s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	for (int k = 0; k < cfg.chunk; k++)
		row[k] += sum;
	if (cfg.verbose)
		printf("%d %g\n", rank, sum);
	MPI_Finalize();
	return 0;
}
