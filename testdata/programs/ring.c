/* ring.c: every rank passes a block of n doubles to its right neighbour
 * around a ring of P processes, steps times, smoothing its block between
 * passes; a reduction ends the run.  Run: ring n steps */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void smooth(double *a, int n)
{
	for (int i = 1; i < n - 1; i++)
		a[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
}

int main(int argc, char **argv)
{
	int rank, size, n = 64, steps = 4;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2) {
		n = atoi(argv[1]);
		steps = atoi(argv[2]);
	}
	double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
	for (int i = 0; i < n; i++)
		a[i] = rank + i;
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	for (int s = 0; s < steps; s++) {
		smooth(a, n);
		MPI_Sendrecv(a, n, MPI_DOUBLE, right, 7, b, n, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (int i = 0; i < n; i += 2)
			a[i] = b[i];
	}
	double sum = 0, tot = 0;
	for (int i = 0; i < n; i++)
		sum += a[i];
	MPI_Reduce(&sum, &tot, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%.6e\n", tot);
	free(a);
	free(b);
	MPI_Finalize();
	return 0;
}
