/* corners.c: a 9-point stencil on a Cartesian grid that exchanges with
 * its diagonal neighbours too, as codes find them: the grid read back by
 * MPI_Cart_get, each neighbour's coordinates shifted and its rank asked
 * of MPI_Cart_rank (periodic in x, not in y: a corner off the grid is
 * MPI_PROC_NULL, found by the program's own test). The halo sizes and the
 * work follow the coordinates.
 * Usage: mpirun -np P corners N STEPS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int np, n = argc > 1 ? atoi(argv[1]) : 64, steps = argc > 2 ? atoi(argv[2]) : 3;
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	int dims[2] = {0, 0}, periods[2] = {1, 0};
	MPI_Dims_create(np, 2, dims);
	MPI_Comm grid;
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
	int rank, ndims, gdims[2], gper[2], me[2];
	MPI_Comm_rank(grid, &rank);
	MPI_Cartdim_get(grid, &ndims);
	MPI_Cart_get(grid, 2, gdims, gper, me);
	int nx = n / gdims[0] + (me[0] < n % gdims[0]);
	int ny = n / gdims[1] + (me[1] < n % gdims[1]);
	int nbr[8], k = 0;
	for (int dx = -1; dx <= 1; dx++)
		for (int dy = -1; dy <= 1; dy++) {
			if (dx == 0 && dy == 0)
				continue;
			int c[2] = {me[0] + dx, me[1] + dy};
			if (!gper[1] && (c[1] < 0 || c[1] >= gdims[1]))
				nbr[k++] = MPI_PROC_NULL;
			else
				MPI_Cart_rank(grid, c, &nbr[k++]);
		}
	double *halo = calloc((size_t)(nx + ny + 8), sizeof(double));
	double s = 0;
	for (int t = 0; t < steps; t++) {
		for (int i = 0; i < 8; i++) {
			int len = (i == 1 || i == 6) ? ny : (i == 3 || i == 4) ? nx : 1;
			MPI_Sendrecv_replace(halo, len, MPI_DOUBLE, nbr[i], 0, nbr[7 - i], 0, grid, MPI_STATUS_IGNORE);
		}
		for (int j = 0; j < ny * ndims; j++)
			for (int i = 0; i < nx; i++)
				s += 0.25 * (i + j);
	}
	if (rank == 0)
		printf("%g\n", s);
	free(halo);
	MPI_Finalize();
	return 0;
}
