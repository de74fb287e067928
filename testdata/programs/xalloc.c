/* xalloc.c: allocation through the C idioms that end the program on
 * failure: xmalloc tests malloc's result against NULL and exits, and
 * checked() returns early when a length is within its limit, then fails
 * either way (the two error exits after the return). Every count after
 * them rests on the allocations succeeding, as they do in the run. Each
 * step sums the rank's block and reduces the sums.
 * Run: xalloc n steps */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double *xmalloc(size_t n)
{
	double *p = malloc(n * sizeof(double));
	if (p)
		return p;
	perror("malloc");
	exit(1);
}

static long checked(long n, long limit)
{
	if (n <= limit)
		return n;
	if (n < 0) {
		fprintf(stderr, "negative length %ld\n", n);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	fprintf(stderr, "length %ld past %ld\n", n, limit);
	exit(3);
}

int main(int argc, char **argv)
{
	int rank, size;
	long n = 100, steps = 2, len;
	double *a, s = 0, g = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2) {
		n = atol(argv[1]);
		steps = atol(argv[2]);
	}
	len = checked(n / size + (rank < n % size), 1L << 40);
	a = xmalloc((size_t)len + 1);
	for (long i = 0; i <= len; i++)
		a[i] = (double)i;
	for (long t = 0; t < steps; t++) {
		for (long i = 0; i < len; i++)
			s += a[i] * a[i + 1];
		MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	free(a);
	if (rank == 0)
		printf("%g\n", g);
	MPI_Finalize();
	return 0;
}
