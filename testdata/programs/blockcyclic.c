/* blockcyclic.c: n rows distributed over P ranks by blocks (the first
 * n % P ranks one row more) and m columns cyclically; each rank works on its
 * share and the root gathers one value per rank.  Run: blockcyclic n m */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int block_rows(int n, int p, int r)
{
	int q = n / p, extra = n % p;
	return r < extra ? q + 1 : q;
}

static int block_first(int n, int p, int r)
{
	int q = n / p, extra = n % p;
	return r * q + (r < extra ? r : extra);
}

int main(int argc, char **argv)
{
	int rank, size, n = 100, m = 37;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2) {
		n = atoi(argv[1]);
		m = atoi(argv[2]);
	}
	int rows = block_rows(n, size, rank), first = block_first(n, size, rank);
	double acc = 0;
	for (int i = first; i < first + rows; i++)
		for (int j = 0; j < 8; j++)
			acc += (double)i * j;
	/* cyclic: columns rank, rank + P, ... */
	for (int c = rank; c < m; c += size)
		acc += c * 0.5;
	double *all = malloc(size * sizeof(double));
	MPI_Gather(&acc, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		double t = 0;
		for (int r = 0; r < size; r++)
			t += all[r];
		printf("%.6e\n", t);
	}
	free(all);
	MPI_Finalize();
	return 0;
}
