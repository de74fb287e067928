/* heapkeys.c: every rank draws n keys from a congruential generator
 * seeded by its rank into an array it allocates at run time (through a
 * wrapper of malloc), counts them into buckets of a calloc'd array through
 * a pointer one element into it, sums the counts over the ranks and then
 * works on each bucket in proportion to its global count and to its own,
 * and on the keys sorted by bucket (each bucket written through a pointer
 * to its first place): the loops' trip counts are values of the data the
 * program generates, a run of its own code gives them.
 * Run: heapkeys N STEPS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NB 16

static int *ialloc(long n)
{
	int *p = malloc(n * sizeof *p);
	if (p == NULL) {
		fprintf(stderr, "heapkeys: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	return p;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long n = argc > 1 ? atol(argv[1]) : 100;
	int steps = argc > 2 ? atoi(argv[2]) : 1;
	int *keys = ialloc(n);
	int *count = calloc(NB + 2, sizeof(int));
	int *total = ialloc(NB + 2);
	long seed = 1 + 17 * rank;
	for (long i = 0; i < n; i++) {
		seed = seed * 75 % 65537;
		keys[i] = seed % (4 * NB);
	}
	int *bucket = count + 1; /* count[1..NB]; count[0], count[NB+1] stay 0 */
	for (long i = 0; i < n; i++)
		bucket[keys[i] / 4]++;
	MPI_Allreduce(count, total, NB + 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	/* The keys sorted by bucket, each bucket written through a pointer
	 * to its first place. */
	int *start = ialloc(NB + 1);
	int *sorted = ialloc(n);
	start[0] = 0;
	for (int b = 0; b < NB; b++)
		start[b + 1] = start[b] + bucket[b];
	for (int b = 0; b < NB; b++) {
		int *dst = &sorted[start[b]];
		for (int j = 0; j < bucket[b]; j++)
			dst[j] = b;
	}
	double s = 0, t = 0;
	for (int k = 0; k < steps; k++) {
		for (int b = 1; b <= NB; b++)
			for (int j = 0; j < total[b]; j++)
				s += (double)j * b;
		for (int b = 0; b < NB; b++)
			for (int j = 0; j < bucket[b]; j++)
				s += keys[j];
		for (long i = 0; i < n; i++)
			for (int j = 0; j < sorted[i] % 3; j++)
				s += j;
		MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	if (rank == 0)
		printf("%g\n", t);
	free(keys);
	free(count);
	free(total);
	free(start);
	free(sorted);
	MPI_Finalize();
	return 0;
}
