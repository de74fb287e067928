/* quadtree.c: each rank refines its block of n cells into quadrants down to
 * a given depth (or until a quadrant has fewer than 4 cells) and sums the
 * leaves, recursively; it then sums its block by pairwise halving down to
 * runs of 8 and reduces the sums.
 * Run: quadtree n depth */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double refine(const double *cells, int n, int depth, int maxdepth)
{
	double s = 0.0;
	if (depth == maxdepth || n < 4) {
		for (int i = 0; i < n; i++)
			s += cells[i] * cells[i];
		return s;
	}
	for (int q = 0; q < 4; q++)
		s += refine(cells + q * (n / 4), n / 4, depth + 1, maxdepth);
	return s;
}

static double pairsum(const double *a, int n)
{
	if (n <= 8) {
		double s = 0.0;
		for (int i = 0; i < n; i++)
			s += a[i];
		return s;
	}
	int h = n / 2;
	return pairsum(a, h) + pairsum(a + h, n - h);
}

int main(int argc, char **argv)
{
	int rank, size;
	int n = argc > 1 ? atoi(argv[1]) : 4096;
	int depth = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 3;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int local = n / size + (rank < n % size);
	double *cells = malloc((size_t)(local + 1) * sizeof(double));
	for (int i = 0; i < local; i++)
		cells[i] = 1.0;
	double s = refine(cells, local, 0, depth) + pairsum(cells, local), total;
	MPI_Reduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%g\n", total);
	free(cells);
	MPI_Finalize();
	return 0;
}
