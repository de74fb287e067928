/* kerntab.c: a kernel chosen by name from a constant table of structures
 * ({name, function, repetitions, weight}), as C codes register their
 * methods: the table ends with a NULL name, the method is looked up with
 * strcmp, and the work runs through the chosen entry's function pointer,
 * through a pointer to the entry and through the table indexed by the
 * position found.  Run: kerntab method n steps (method: smooth, sweep or
 * fill). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*step_fn)(double *, int, int);

static void smooth(double *u, int n, int w)
{
	for (int k = 0; k < w; k++)
		for (int i = 1; i < n - 1; i++)
			u[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
}

static void sweep(double *u, int n, int w)
{
	for (int i = n - 1; i > 0; i -= w)
		u[i] += u[i - 1];
}

static void fill(double *u, int n, int w)
{
	for (int i = 0; i < n; i++)
		u[i] = (double)(i % (w + 1));
}

struct method {
	const char *name;
	step_fn step;
	int reps;
	struct {
		int width;
		int halo;
	} shape;
};

static const struct method methods[] = {
	{"smooth", smooth, 2, {3, 1}},
	{"sweep", sweep, 1, {2, 4}},
	{"fill", fill, 3, {1, 0}},
	{NULL, NULL, 0, {0, 0}},
};

static int lookup(const char *name)
{
	for (int m = 0; methods[m].name != NULL; m++)
		if (strcmp(methods[m].name, name) == 0)
			return m;
	return -1;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc < 4) {
		if (rank == 0)
			fprintf(stderr, "usage: kerntab method n steps\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	int which = lookup(argv[1]);
	if (which < 0) {
		if (rank == 0)
			fprintf(stderr, "unknown method %s\n", argv[1]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	int n = atoi(argv[2]), steps = atoi(argv[3]);
	int count = 0;
	while (methods[count].name)
		count++;
	const struct method *m = &methods[which];
	int local = n / size + (rank < n % size);
	int halo = m->shape.halo;
	double *u = calloc((size_t)local + 2 * halo + 2, sizeof *u);
	for (int s = 0; s < steps; s++) {
		for (int r = 0; r < m->reps; r++)
			m->step(u + halo, local, m->shape.width);
		methods[which].step(u, local, count);
		if (halo > 0) {
			int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
			int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
			MPI_Sendrecv(u + halo, halo, MPI_DOUBLE, left, 0, u + local + halo, halo, MPI_DOUBLE, right, 0,
				     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
		double s1 = u[halo], g;
		MPI_Allreduce(&s1, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	if (rank == 0)
		printf("%s %g\n", m->name, u[halo]);
	free(u);
	MPI_Finalize();
	return 0;
}
