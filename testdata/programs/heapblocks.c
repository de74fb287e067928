/* heapblocks.c: an array of structures allocated at run time (as AMR codes
 * keep their blocks), each filled through a pointer to it, refined by a
 * pass that reads the fields back through another pointer, and loops
 * whose trip counts are the fields, counted over the ranks: the counts
 * rest on data a run of the program's own code gives.
 * Run: heapblocks N */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
	int number;
	int level;
	int refine;
	double cost;
} block;

block *blocks;
int num_blocks;

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	num_blocks = argc > 1 ? atoi(argv[1]) : 100;
	blocks = malloc(num_blocks * sizeof(block));
	if (blocks == NULL)
		MPI_Abort(MPI_COMM_WORLD, 1);
	long x = 7 + 3 * rank;
	for (int n = 0; n < num_blocks; n++) {
		block *bp = &blocks[n];
		x = (1103 * x + 12345) % 32768;
		bp->number = n;
		bp->level = (int)(x % 4);
		bp->cost = 1.0;
	}
	int marked = 0;
	for (int n = 0; n < num_blocks; n++) {
		block *bp = &blocks[n];
		bp->refine = bp->level < 2 && bp->number % 3 == rank % 3;
		if (bp->refine)
			marked++;
	}
	int total = 0;
	MPI_Allreduce(&marked, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	double s = 0, r = 0;
	for (int n = 0; n < num_blocks; n++)
		for (int l = 0; l <= blocks[n].level; l++)
			s += blocks[n].cost * l;
	for (int k = 0; k < total; k++)
		s += k;
	MPI_Allreduce(&s, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%g\n", r);
	free(blocks);
	MPI_Finalize();
	return 0;
}
