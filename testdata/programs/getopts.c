/* getopts.c: a 2-D Jacobi sweep whose sizes come from getopt
 * (-n rows -m columns -i iterations, as "-n 96" or "-m80"), with a flag
 * -v that adds a residual reduction per step, and an operand, the number
 * of warm-up sweeps, read at argv[optind] after the options (glibc moves
 * operands written first behind them). The process grid comes from
 * MPI_Dims_create into an array field of a struct reached by pointer
 * (d->dims), its neighbours from MPI_Cart_shift; a column is an
 * MPI_Type_vector.
 * Run: getopts [-v] -n N -m M -i ITERS [WARMUP] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct {
	int nx, ny;
	int dims[2], coords[2];
	int north, south, east, west;
	MPI_Comm cart;
	double *u, *v;
} domain_t;

#define IDX(d, i, j) ((i) * ((d)->ny + 2) + (j))

static void setup(domain_t *d, int gnx, int gny)
{
	int size, me, periods[2] = {0, 0};
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	d->dims[0] = d->dims[1] = 0;
	MPI_Dims_create(size, 2, d->dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, d->dims, periods, 0, &d->cart);
	MPI_Comm_rank(d->cart, &me);
	MPI_Cart_coords(d->cart, me, 2, d->coords);
	MPI_Cart_shift(d->cart, 0, 1, &d->west, &d->east);
	MPI_Cart_shift(d->cart, 1, 1, &d->south, &d->north);
	d->nx = gnx / d->dims[0];
	d->ny = gny / d->dims[1];
	if (d->coords[0] < gnx % d->dims[0])
		d->nx++;
	d->u = calloc((size_t)(d->nx + 2) * (d->ny + 2), sizeof(double));
	d->v = calloc((size_t)(d->nx + 2) * (d->ny + 2), sizeof(double));
}

static void halo(domain_t *d)
{
	MPI_Datatype col;
	MPI_Type_vector(d->nx, 1, d->ny + 2, MPI_DOUBLE, &col);
	MPI_Type_commit(&col);
	MPI_Sendrecv(&d->u[IDX(d, 1, 1)], d->ny, MPI_DOUBLE, d->west, 0,
		     &d->u[IDX(d, d->nx + 1, 1)], d->ny, MPI_DOUBLE, d->east, 0, d->cart, MPI_STATUS_IGNORE);
	MPI_Sendrecv(&d->u[IDX(d, d->nx, 1)], d->ny, MPI_DOUBLE, d->east, 1,
		     &d->u[IDX(d, 0, 1)], d->ny, MPI_DOUBLE, d->west, 1, d->cart, MPI_STATUS_IGNORE);
	MPI_Sendrecv(&d->u[IDX(d, 1, 1)], 1, col, d->south, 2,
		     &d->u[IDX(d, 1, d->ny + 1)], 1, col, d->north, 2, d->cart, MPI_STATUS_IGNORE);
	MPI_Sendrecv(&d->u[IDX(d, 1, d->ny)], 1, col, d->north, 3,
		     &d->u[IDX(d, 1, 0)], 1, col, d->south, 3, d->cart, MPI_STATUS_IGNORE);
	MPI_Type_free(&col);
}

static double relax(domain_t *d)
{
	double err = 0.0, *t;
	for (int i = 1; i <= d->nx; i++)
		for (int j = 1; j <= d->ny; j++) {
			d->v[IDX(d, i, j)] = 0.25 * (d->u[IDX(d, i - 1, j)] + d->u[IDX(d, i + 1, j)] +
						     d->u[IDX(d, i, j - 1)] + d->u[IDX(d, i, j + 1)]);
			err += (d->v[IDX(d, i, j)] - d->u[IDX(d, i, j)]) * (d->v[IDX(d, i, j)] - d->u[IDX(d, i, j)]);
		}
	t = d->u;
	d->u = d->v;
	d->v = t;
	return err;
}

int main(int argc, char **argv)
{
	int n = 64, m = 64, iters = 10, verbose = 0, warmup = 0, c, me;
	double err, gerr = 0;
	domain_t d;
	MPI_Init(&argc, &argv);
	while ((c = getopt(argc, argv, "n:m:i:v")) != -1) {
		switch (c) {
		case 'n':
			n = atoi(optarg);
			break;
		case 'm':
			m = atoi(optarg);
			break;
		case 'i':
			iters = atoi(optarg);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-v] -n N -m M -i ITERS [WARMUP]\n", argv[0]);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	if (optind < argc)
		warmup = atoi(argv[optind]);
	setup(&d, n, m);
	for (int w = 0; w < warmup; w++)
		relax(&d);
	for (int it = 0; it < iters; it++) {
		halo(&d);
		err = relax(&d);
		if (verbose)
			MPI_Allreduce(&err, &gerr, 1, MPI_DOUBLE, MPI_SUM, d.cart);
	}
	MPI_Allreduce(&err, &gerr, 1, MPI_DOUBLE, MPI_SUM, d.cart);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	if (me == 0)
		printf("%g\n", gerr);
	MPI_Finalize();
	return 0;
}
