/* structcopy.c: a list of neighbours built from whole-structure copies,
 * as C codes write them: list[n++] = entry (from a local, from a function
 * that returns a structure by value, from another element), the entry
 * holding a nested structure of extents. Each step every rank works
 * through its list, sizing its loops and messages by the copies' fields.
 * Run: structcopy n steps */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
	int lo, hi;
} span_t;

typedef struct {
	int peer;
	long count;
	span_t span;
	double weight;
} entry_t;

static entry_t make_entry(int peer, long count, int lo, int hi)
{
	entry_t e;
	e.peer = peer;
	e.count = count;
	e.span.lo = lo;
	e.span.hi = hi;
	e.weight = 1.0 / (double)(count + 1);
	return e;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long n = argc > 1 ? atol(argv[1]) : 100;
	int steps = argc > 2 ? atoi(argv[2]) : 2;
	entry_t *list = malloc(4 * sizeof *list);
	int len = 0;
	entry_t self = {rank, n / size, {0, 3}, 0.5};
	list[len++] = self;
	if (rank > 0)
		list[len++] = make_entry(rank - 1, n / (2 * size) + rank, 1, 2);
	if (rank < size - 1) {
		list[len] = list[len - 1];
		list[len].peer = rank + 1;
		list[len].span.hi += 2;
		len++;
	}
	double *buf = calloc((size_t)n + 1, sizeof *buf);
	for (int s = 0; s < steps; s++) {
		for (int k = 0; k < len; k++) {
			entry_t e = list[k];
			for (long i = 0; i < e.count; i++)
				for (int j = e.span.lo; j <= e.span.hi; j++)
					buf[i] += e.weight * j;
		}
		for (int k = 1; k < len; k++) {
			int c = (int)(n % 5) + 1;
			MPI_Sendrecv_replace(buf, c, MPI_DOUBLE, list[k].peer, 0, list[k].peer, 0, MPI_COMM_WORLD,
					     MPI_STATUS_IGNORE);
		}
	}
	if (rank == 0)
		printf("%g\n", buf[0]);
	free(buf);
	free(list);
	MPI_Finalize();
	return 0;
}
