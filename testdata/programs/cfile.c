/* cfile.c: rank 0 reads the run's sizes from a file named on the command
 * line (sizes.txt when none is), with fscanf into a struct's fields, and
 * broadcasts them as an array; a missing or short file aborts. Each step
 * every rank sweeps its block of the rows and exchanges a row with its
 * neighbours.
 * Run: cfile [FILE]   (FILE: "n steps", then a time step if wanted) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
	long n, steps;
	double dt;
} config_t;

int main(int argc, char **argv)
{
	int rank, size;
	config_t cfg = {16, 1, 0.1};
	long sizes[2];
	double *u, s = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		FILE *f = fopen(argc > 1 ? argv[1] : "sizes.txt", "r");
		if (f == NULL) {
			fprintf(stderr, "cannot open the sizes\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		if (fscanf(f, "%ld %ld", &cfg.n, &cfg.steps) != 2)
			MPI_Abort(MPI_COMM_WORLD, 2);
		if (fscanf(f, "%lf", &cfg.dt) != 1)
			cfg.dt = 0.25; /* optional */
		fclose(f);
		sizes[0] = cfg.n;
		sizes[1] = cfg.steps;
	}
	MPI_Bcast(sizes, 2, MPI_LONG, 0, MPI_COMM_WORLD);
	MPI_Bcast(&cfg.dt, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	cfg.n = sizes[0];
	cfg.steps = sizes[1];
	long rows = cfg.n / size + (rank < cfg.n % size);
	u = calloc((size_t)(rows + 2), sizeof(double));
	for (long t = 0; t < cfg.steps; t++) {
		MPI_Sendrecv(&u[rows], 1, MPI_DOUBLE, (rank + 1) % size, 0, &u[0], 1, MPI_DOUBLE, (rank + size - 1) % size, 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (long i = 1; i <= rows; i++)
			s += u[i] * cfg.dt;
	}
	free(u);
	if (rank == 0)
		printf("%g\n", s);
	MPI_Finalize();
	return 0;
}
