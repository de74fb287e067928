/* structkeys.c: the run's settings in a global structure (read from the
 * command line into its fields), and what a pass over the keys finds (the
 * largest key, how many were drawn) in fields of a local one, one of them
 * nested: the loops' trip counts are those fields, which a run of the
 * program's own code gives.
 * Run: structkeys N NB */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

struct range {
	int lo, hi;
};

struct settings {
	long n;
	int nb;
	struct range keys;
} set;

struct tally {
	long seen;
	struct range found;
};

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	set.n = argc > 1 ? atol(argv[1]) : 100;
	set.nb = argc > 2 ? atoi(argv[2]) : 4;
	set.keys.lo = 0;
	set.keys.hi = 16 * set.nb - 1;
	int *key = malloc(set.n * sizeof *key);
	int count[64] = {0}, total[64];
	struct tally t;
	t.seen = 0;
	t.found.hi = set.keys.lo;
	long x = 271 + 13 * rank;
	for (long i = 0; i < set.n; i++) {
		x = (69069 * x + 1) % 1048576;
		key[i] = (x / 7) % (set.keys.hi + 1 - rank);
		if (key[i] > t.found.hi)
			t.found.hi = key[i];
		t.seen++;
	}
	for (long i = 0; i < t.seen; i++)
		count[key[i] / 16]++;
	MPI_Allreduce(count, total, 64, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	double s = 0, r = 0;
	for (int b = 0; b < set.nb; b++)
		for (int k = 0; k < total[b]; k++)
			s += k;
	for (int k = 0; k < t.found.hi; k++)
		s += k;
	MPI_Allreduce(&s, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%g\n", r);
	free(key);
	MPI_Finalize();
	return 0;
}
