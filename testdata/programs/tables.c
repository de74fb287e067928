/* tables.c: a solver whose schedule is written as initialised tables,
 * as C codes keep settings: a local 2-D table of stencil widths (rows
 * left short, so their ends are zero), a file-scope table of sweeps per
 * phase, and the process grid's dims and periods given in their
 * declarations (MPI_Dims_create fills the zeros). The values decide the
 * work and the messages.
 * Usage: mpirun -np P tables N STEPS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const int sweeps[2][3] = {{1, 2, 3}, {2, 1}};

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, np;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	int n = argc > 1 ? atoi(argv[1]) : 20;
	int steps = argc > 2 ? atoi(argv[2]) : 4;
	int dims[2] = {0, 0}, periods[2] = {0, 1}, coords[2];
	int width[3][2] = {{1, 2}, {3}, {2, 2}};
	MPI_Comm cart;
	MPI_Dims_create(np, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
	MPI_Cart_coords(cart, rank, 2, coords);
	int west, east, south, north;
	MPI_Cart_shift(cart, 0, 1, &west, &east);
	MPI_Cart_shift(cart, 1, 1, &south, &north);
	int nx = n / dims[0] + (coords[0] < n % dims[0]);
	double *u = calloc((size_t)(nx + 2) * 3, sizeof(double));
	double s = 0;
	for (int st = 0; st < steps; st++) {
		int phase = st % 2;
		for (int sw = 0; sw < sweeps[phase][st % 3]; sw++) {
			int w = width[st % 3][sw % 2];
			for (int i = 1; i <= nx * w; i++)
				s += u[(i - 1) % nx + 1] * 0.5 + 1.0;
		}
		if (width[st % 3][1] > 0)
			MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, west, 0, &u[nx + 1], 1, MPI_DOUBLE, east, 0, cart, MPI_STATUS_IGNORE);
		MPI_Sendrecv(&u[1], width[st % 3][0], MPI_DOUBLE, south, 1, &u[nx + 1], width[st % 3][0], MPI_DOUBLE,
			     north, 1, cart, MPI_STATUS_IGNORE);
	}
	double tot;
	MPI_Allreduce(&s, &tot, 1, MPI_DOUBLE, MPI_SUM, cart);
	if (rank == 0)
		printf("total %g\n", tot);
	free(u);
	MPI_Finalize();
	return 0;
}
