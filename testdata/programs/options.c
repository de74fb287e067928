/* options.c: flags first (-twice, -gather), compared word by word in an
 * option loop over argv[i], then the sizes, read through a pointer moved
 * past the flags (char **rest = argv + i; atol(*rest++)). Each step
 * shifts n doubles to the next rank (twice with -twice), and with -gather
 * rank 0 then collects one value of every rank.
 * Run: options [-twice] [-gather] n steps */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static void shift(double *buf, long n, int rank, int size)
{
	MPI_Sendrecv_replace(buf, (int)n, MPI_DOUBLE, (rank + 1) % size, 0,
			     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
	int rank, size, twice = 0, gather = 0, i = 1;
	long n = 100, steps = 2;
	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	while (i < argc && strncmp(argv[i], "-", 1) == 0) {
		if (strcmp(argv[i], "-twice") == 0)
			twice = 1;
		else if (strcmp(argv[i], "-gather") == 0)
			gather = 1;
		i++;
	}
	char **rest = argv + i;
	if (argc - i >= 2) {
		n = atol(*rest++);
		steps = atol(*rest);
	}
	double *buf = calloc(n, sizeof(double));
	double *all = calloc(size, sizeof(double));
	for (long s = 0; s < steps; s++) {
		shift(buf, n, rank, size);
		if (twice)
			shift(buf, n, rank, size);
		for (long k = 0; k < n; k++)
			buf[k] = buf[k] * 0.5 + s;
		if (gather)
			MPI_Gather(buf, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	}
	free(buf);
	free(all);
	MPI_Finalize();
	return 0;
}
