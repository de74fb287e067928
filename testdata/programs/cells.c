/* cells.c: a global table of structures, each filled through a pointer
 * to it (struct cell *c = &cells[i]; c->level = ...), then loops whose
 * trip counts are the fields, summed over the ranks: the counts rest on
 * data a run of the program's own code gives.
 * Run: cells N */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXCELLS 6000

struct cell {
	int level;
	int owner;
	double weight;
};

struct cell cells[MAXCELLS];

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = argc > 1 ? atoi(argv[1]) : 100;
	if (n > MAXCELLS)
		n = MAXCELLS;
	long x = 5 + 11 * rank;
	for (int i = 0; i < n; i++) {
		struct cell *c = &cells[i];
		x = (1103 * x + 12345) % 65536;
		c->level = (int)(x % 5);
		c->owner = i % size;
		c->weight = 0.5 * i;
	}
	int mine = 0, levels = 0, all = 0;
	for (int i = 0; i < n; i++) {
		if (cells[i].owner == rank)
			mine++;
		levels += cells[i].level;
	}
	MPI_Allreduce(&levels, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	double s = 0, r = 0;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < cells[i].level; k++)
			s += cells[i].weight * k;
	for (int k = 0; k < mine; k++)
		s += k;
	for (int k = 0; k < all; k++)
		s -= k;
	MPI_Allreduce(&s, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%g\n", r);
	MPI_Finalize();
	return 0;
}
