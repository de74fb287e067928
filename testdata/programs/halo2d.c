/* halo2d.c: a 2-D Jacobi sweep on an nx x ny grid of cells split over a
 * Cartesian px x py grid of ranks (MPI_Dims_create, MPI_Cart_create,
 * MPI_Cart_shift, non-periodic): each iteration exchanges one halo row or
 * column with each neighbour (MPI_PROC_NULL at the edges) and updates the
 * local block.  Run: halo2d nx ny iters */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, nx = 40, ny = 30, iters = 3;
	int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
	int north, south, west, east;
	MPI_Comm grid;
	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 3) {
		nx = atoi(argv[1]);
		ny = atoi(argv[2]);
		iters = atoi(argv[3]);
	}
	MPI_Dims_create(size, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
	MPI_Comm_rank(grid, &rank);
	MPI_Cart_coords(grid, rank, 2, coords);
	MPI_Cart_shift(grid, 0, 1, &north, &south);
	MPI_Cart_shift(grid, 1, 1, &west, &east);
	int lx = nx / dims[0] + (coords[0] < nx % dims[0] ? 1 : 0);
	int ly = ny / dims[1] + (coords[1] < ny % dims[1] ? 1 : 0);
	int w = ly + 2;
	double *u = calloc((size_t)(lx + 2) * w, sizeof(double));
	double *v = calloc((size_t)(lx + 2) * w, sizeof(double));
	double *col = malloc(lx * sizeof(double)), *got = malloc(lx * sizeof(double));
	for (int it = 0; it < iters; it++) {
		MPI_Sendrecv(&u[1 * w + 1], ly, MPI_DOUBLE, north, 0, &u[(lx + 1) * w + 1], ly, MPI_DOUBLE, south, 0, grid, MPI_STATUS_IGNORE);
		MPI_Sendrecv(&u[lx * w + 1], ly, MPI_DOUBLE, south, 1, &u[0 * w + 1], ly, MPI_DOUBLE, north, 1, grid, MPI_STATUS_IGNORE);
		for (int i = 0; i < lx; i++)
			col[i] = u[(i + 1) * w + ly];
		MPI_Sendrecv(col, lx, MPI_DOUBLE, east, 2, got, lx, MPI_DOUBLE, west, 2, grid, MPI_STATUS_IGNORE);
		for (int i = 0; i < lx; i++)
			u[(i + 1) * w] = got[i];
		for (int i = 1; i <= lx; i++)
			for (int j = 1; j <= ly; j++)
				v[i * w + j] = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] + u[i * w + j + 1]);
		double *t = u;
		u = v;
		v = t;
	}
	double s = 0, tot;
	for (int i = 1; i <= lx; i++)
		s += u[i * w + 1];
	MPI_Allreduce(&s, &tot, 1, MPI_DOUBLE, MPI_SUM, grid);
	if (rank == 0)
		printf("%.6e\n", tot);
	MPI_Finalize();
	return 0;
}
