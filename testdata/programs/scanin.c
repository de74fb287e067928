/* scanin.c: rank 0 reads its sizes from standard input with scanf, in
 * two calls that share one line (scanf goes on where the last stopped),
 * checks the count it read, and broadcasts them.
 * Run: echo "n m steps" | scanin */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, dims[3] = {100, 100, 1};
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		int got = scanf("%d %d", &dims[0], &dims[1]);
		got += scanf("%d", &dims[2]);
		if (got != 3) {
			fprintf(stderr, "scanin: want n m steps on standard input\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	MPI_Bcast(dims, 3, MPI_INT, 0, MPI_COMM_WORLD);
	int n = dims[0], m = dims[1], steps = dims[2];
	double *buf = calloc((size_t)n, sizeof(double));
	for (int s = 0; s < steps; s++) {
		MPI_Sendrecv_replace(buf, n, MPI_DOUBLE, (rank + 1) % size, 0,
				     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (int j = 0; j < m; j++)
			for (int i = 0; i < n; i++)
				buf[i] = buf[i] * 0.5 + j;
	}
	free(buf);
	MPI_Finalize();
	return 0;
}
