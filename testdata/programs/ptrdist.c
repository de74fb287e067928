/* ptrdist.c: a fixed array filled by a loop and reached through a
 * pointer kept in a structure; a cursor walks
 * from the structure's pointer to the first mark at or past n, and the
 * loops run as far as the distance between the cursor and the array
 * (cursor - marks elements), a count the addresses decide.
 * Run: ptrdist N STEPS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

struct span {
	int len;
	int *base;
};

int main(int argc, char **argv)
{
	int marks[64], rank, size;
	struct span sp;
	double acc = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = argc > 1 ? atoi(argv[1]) : 10, steps = argc > 2 ? atoi(argv[2]) : 1;
	for (int k = 0; k < 64; k++)
		marks[k] = 3 * k;
	sp.len = 64;
	sp.base = marks;
	struct span *ps = &sp;
	int *cur = ps->base + rank % 4;
	while (cur < ps->base + ps->len - 1 && *cur < n)
		cur++;
	for (int t = 0; t < steps; t++)
		for (int i = 0; i < (int)(cur - marks); i++)
			acc += i * t;
	if (rank == 0)
		printf("%g\n", acc);
	MPI_Finalize();
	return 0;
}
