/* rowtable.c: tables kept the way C lays them out, the last subscript
 * varying fastest: a two-dimensional global table of per-row counts, and
 * an array of structures allocated at run time whose array field holds
 * each block's centre, set through a pointer to the element as block
 * codes set their blocks up (bp = &blocks[n]; bp->cen[k] = ...), with the
 * blocks' data filled from the C library's random numbers, some through a
 * pointer to pointers to pointers. The loops that follow run as long as
 * the tables say, and as the count of the blocks a test on their index
 * picks, which takes a run of the set-up loop to know.
 * Run: rowtable N STEPS (N >= 18)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NR 300
#define NC 3

typedef struct {
	int level;
	int cen[3];
	double data[4];
} block;

int tab[NR][NC];
block *blocks;
double ***shared;

int main(int argc, char **argv)
{
	int rank, size, n, steps, i, j, k, t, picked = 0;
	double s = 0.0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	n = atoi(argv[1]);
	steps = atoi(argv[2]);
	for (i = 0; i < NR; i++)
		for (j = 0; j < NC; j++)
			tab[i][j] = (i * 7 + j * 3 + rank) % 11;
	shared = malloc(2 * sizeof(double **));
	for (i = 0; i < 2; i++) {
		shared[i] = malloc(3 * sizeof(double *));
		for (j = 0; j < 3; j++)
			shared[i][j] = malloc(2 * sizeof(double));
	}
	blocks = malloc(n * sizeof(block));
	for (i = 0; i < n; i++) {
		block *bp = &blocks[i];
		bp->level = i % 3;
		bp->cen[0] = i;
		bp->cen[1] = (2 * i + rank) % 5;
		bp->cen[2] = (i + 3 * rank) % 4;
		for (k = 0; k < 4; k++)
			bp->data[k] = ((double) rand()) / ((double) RAND_MAX);
		shared[i % 2][i % 3][rank % 2] = ((double) rand()) / ((double) RAND_MAX);
		if ((i * i + rank) % 7 == 3)
			picked++;
	}
	for (t = 0; t < steps; t++) {
		for (i = 0; i < NR; i++)
			for (k = 0; k < tab[i][1] + tab[i][2]; k++)
				s += k;
	}
	for (k = 0; k < 3 * blocks[17].cen[1] + blocks[n - 1].cen[2] + picked; k++)
		s += 3.0;
	/* One element read alone: at its row-major offset. */
	for (k = 0; k < 10 * tab[7][2] + tab[250][1]; k++)
		s += 2.0;
	MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%f\n", s);
	MPI_Finalize();
	return 0;
}
