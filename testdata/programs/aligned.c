/* aligned.c: arrays sized on the command line, allocated the ways HPC
 * codes align them (aligned_alloc, posix_memalign into a pointer whose
 * address is passed) and as a variable-length array; each rank fills them
 * from a generator seeded by its rank, then loops as often as the elements
 * say, and the ranks sum their results.
 * Run: aligned N */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long n = argc > 1 ? atol(argv[1]) : 100;
	int *a = aligned_alloc(64, 64 * ((n * sizeof(int) + 63) / 64));
	double *b;
	if (posix_memalign((void **)&b, 64, n * sizeof(double)) != 0) {
		fprintf(stderr, "aligned: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	int c[n];
	long seed = 1 + 17 * rank;
	for (long i = 0; i < n; i++) {
		seed = seed * 75 % 65537;
		a[i] = seed % 7;
		b[i] = 0.5 * (seed % 5);
		c[i] = seed % 3;
	}
	double s = 0, t = 0;
	for (long i = 0; i < n; i++) {
		for (int j = 0; j < a[i]; j++)
			s += j * b[i];
		for (int j = 0; j < c[i]; j++)
			s += j;
	}
	MPI_Reduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%g\n", t);
	free(a);
	free(b);
	MPI_Finalize();
	return 0;
}
