/* nbrgrow.c: a list of neighbours kept the way a growable vector keeps
 * it (start, end and capacity pointers in a structure; the storage
 * allocated on the first append and reallocated, copied and freed when
 * full), appended to under tests of the rank: the first rank has no left
 * neighbour, the last no right one, so the storage is null on some ranks
 * after the first test and a different allocation on others. A second
 * list is filled through a pointer to its end slot passed to a function.
 * The loops then run as far as the neighbours' counts say.
 * Run: nbrgrow N STEPS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	int peer;
	int count;
	int tag;
} nbr_t;

typedef struct {
	nbr_t *start, *finish, *end;
} list_t;

static void append(list_t *v, int peer, int count, int tag)
{
	if (v->finish == v->end) {
		long n = v->finish - v->start;
		long cap = n ? 2 * n : 1;
		nbr_t *s = malloc(cap * sizeof(nbr_t));
		if (n)
			memcpy(s, v->start, n * sizeof(nbr_t));
		free(v->start);
		v->start = s;
		v->finish = s + n;
		v->end = s + cap;
	}
	v->finish->peer = peer;
	v->finish->count = count;
	v->finish->tag = tag;
	v->finish++;
}

static void fill(nbr_t *slot, int peer, int count)
{
	slot->peer = peer;
	slot->count = count;
	slot->tag = 0;
}

int main(int argc, char **argv)
{
	int rank, size;
	double acc = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = argc > 1 ? atoi(argv[1]) : 10, steps = argc > 2 ? atoi(argv[2]) : 1;
	list_t nb = {0, 0, 0};
	if (rank > 0)
		append(&nb, rank - 1, n, 0);
	for (int t = 0; t < steps; t++)
		for (long k = 0; k < nb.finish - nb.start; k++)
			for (int i = 0; i < nb.start[k].count; i++)
				acc += i * t;
	list_t two;
	two.start = malloc(4 * sizeof(nbr_t));
	two.finish = two.start;
	if (rank > 0)
		fill(two.finish++, rank - 1, 2 * n);
	fill(two.finish++, rank + 1, n + rank);
	for (long k = 0; k < two.finish - two.start; k++)
		for (int i = 0; i < two.start[k].count; i++)
			acc += i;
	if (rank == 0)
		printf("%g\n", acc);
	MPI_Finalize();
	return 0;
}
