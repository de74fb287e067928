/* cartsub.c: the rows and columns of a Cartesian grid of ranks as
 * communicators of their own (MPI_Cart_sub), as transport and FFT codes
 * make them: each rank's share of n is split by its column's size, the
 * first and last rank of each row do the boundary work, and each row and
 * each column reduces over itself.  Run: cartsub n steps */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int size, n = 40, steps = 3;
	int dims[2] = {0, 0}, periods[2] = {0, 1}, keeprow[2] = {0, 1}, keepcol[2] = {1, 0};
	int rowrank, rowsize, colrank, colsize;
	MPI_Comm grid, row, col;
	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2) {
		n = atoi(argv[1]);
		steps = atoi(argv[2]);
	}
	MPI_Dims_create(size, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
	MPI_Cart_sub(grid, keeprow, &row);
	MPI_Cart_sub(grid, keepcol, &col);
	MPI_Comm_rank(row, &rowrank);
	MPI_Comm_size(row, &rowsize);
	MPI_Comm_rank(col, &colrank);
	MPI_Comm_size(col, &colsize);
	int share = n / colsize + (colrank < n % colsize ? 1 : 0);
	double *a = calloc((size_t)share + 1, sizeof(double));
	double s = 0, t;
	for (int k = 0; k < steps; k++) {
		for (int i = 0; i < share; i++)
			a[i] += i * k;
		if (rowrank == 0)
			for (int i = 0; i < n; i++)
				s += i;
		if (rowrank == rowsize - 1)
			for (int i = 0; i < share; i++)
				s += a[i];
		MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, row);
		MPI_Allreduce(&t, &s, 1, MPI_DOUBLE, MPI_MAX, col);
	}
	if (rowrank + colrank == 0)
		printf("%g\n", t);
	free(a);
	MPI_Finalize();
	return 0;
}
