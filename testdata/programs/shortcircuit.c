/* shortcircuit.c: loops whose tests join conditions with && and ||, as C
 * programs write a convergence loop, a bounded search and a scan that
 * stops at either of two limits, and a counted loop with a break at a
 * second bound.  Run: shortcircuit n steps */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* A bounded search: the value looked for is not there, so every element
 * is tested. */
static int scan(const int *v, int lo, int hi, int stop)
{
	int i = lo;
	while (i < hi && v[i] != stop)
		i++;
	return i;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = atoi(argv[1]), steps = atoi(argv[2]);
	int lo = rank * n / size, hi = (rank + 1) * n / size;
	int *v = malloc((n + 1) * sizeof(int));
	for (int i = 0; i < n; i++)
		v[i] = i;
	double err = 1.0, sum = 0;
	int k;
	/* A convergence loop whose tolerance is not reached in steps. */
	for (k = 0; k < steps && err > 0.0; k++) {
		for (int i = lo; i < hi; i++)
			sum += v[i];
		err *= 0.5;
		MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	}
	int at = scan(v, lo, hi, -1);
	/* Leaves when either limit is reached. */
	int t = 0;
	while (!(t >= steps || sum < 0.0))
		t++;
	/* A do-while whose test joins two conditions. */
	int d = 0;
	do {
		d++;
	} while (d < steps && err > 0.0);
	/* A counted loop left when its variable reaches a second bound. */
	int b = 0;
	for (int i = 0; i < n; i++) {
		if (i >= steps)
			break;
		b += i;
	}
	if (rank == 0 && sum < 0.0)
		printf("%d %d %d %d %d %g\n", k, at, t, d, b, sum);
	free(v);
	MPI_Finalize();
	return 0;
}
