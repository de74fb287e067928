/* argwalk.c: its sizes are read by walking argv with a pointer, as K&R's
 * echo does (atoi(*++argv)), after MPI_Init has been given &argv. Each
 * step shifts n doubles to the next rank and updates them.
 * Run: argwalk n steps */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, n, steps;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc != 3) {
		if (rank == 0)
			fprintf(stderr, "usage: argwalk n steps\n");
		MPI_Finalize();
		return 1;
	}
	n = atoi(*++argv);
	steps = atoi(*++argv);
	double *buf = calloc(n, sizeof(double));
	for (int s = 0; s < steps; s++) {
		MPI_Sendrecv_replace(buf, n, MPI_DOUBLE, (rank + 1) % size, 0,
				     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (int i = 0; i < n; i++)
			buf[i] = buf[i] * 0.5 + s;
	}
	free(buf);
	MPI_Finalize();
	return 0;
}
