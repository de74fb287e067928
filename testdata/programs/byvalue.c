/* byvalue.c: structures copied and passed by value, as C codes pass their
 * settings and their array views: a large struct goes on the stack, a
 * 16-byte one in two registers (clang's { double*, i64 } view of it), one
 * is copied whole (e = d), another assigned after its declaration, and a
 * view is copied and moved inside a callee, and structures are returned by
 * value (in registers: { double*, i64 } and { i64, i8 }).
 * Usage: mpirun -np P byvalue NX NY STEPS
 */
#include <mpi.h>
#include <stdlib.h>

typedef struct {
	int nx, ny, nz;
	double h;
} dims_t;

typedef struct {
	double *data;
	long n;
} view_t;

static double sweep(dims_t d) {
	double s = 0;
	for (int i = 0; i < d.nx; i++)
		for (int j = 0; j < d.ny; j++)
			s += i * d.h + j;
	return s;
}

static double total(view_t v) {
	double s = 0;
	for (double *p = v.data; p != v.data + v.n; ++p)
		s += *p;
	return s;
}

static view_t shrink(view_t v, long by) {
	view_t w = v;
	w.n -= by;
	return w;
}

typedef struct {
	int nx, ny;
	char twice;
} grid_t;

static grid_t grid(int argc, char **argv) {
	grid_t g = {4, 4, 0};
	if (argc > 2) {
		g.nx = atoi(argv[1]);
		g.ny = atoi(argv[2]);
	}
	g.twice = g.nx > g.ny;
	return g;
}

static double tail(view_t v, long by) {
	view_t w = v;
	w.data += by;
	w.n -= by;
	return total(w);
}

int main(int argc, char **argv) {
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	dims_t d = {atoi(argv[1]), atoi(argv[2]), 4, 0.5};
	int steps = atoi(argv[3]);
	grid_t g = grid(argc, argv);
	if (g.twice)
		steps *= 2;
	d.ny = d.ny / size + (rank < d.ny % size ? 1 : 0);
	dims_t e = d;
	e.nx = 2 * d.nx;
	dims_t f;
	f = e;
	f.ny += 1;
	long cells = (long)atoi(argv[1]) * atoi(argv[2]);
	view_t v = {calloc((size_t)cells, sizeof(double)), cells};
	view_t w = v;
	double s = 0, all = 0;
	for (int k = 0; k < steps; k++) {
		s += sweep(d) + sweep(e) + sweep(f);
		s += total(w) + tail(v, d.nx) + total(shrink(v, 2 * d.nx));
		MPI_Allreduce(&s, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	free(v.data);
	MPI_Finalize();
	return all < 0;
}
