/* aliasing.c: a dot product that takes a shorter path when both of its
 * arguments are one vector, as BLAS-like kernels do, called on one vector,
 * on two, and through a routine that passes its own argument twice.
 * Run: aliasing n steps */
#include <mpi.h>
#include <stdlib.h>

static double dot(int n, const double *x, const double *y)
{
	double s = 0;
	if (x == y)
		for (int i = 0; i < n; i++)
			s += x[i] * x[i];
	else
		for (int i = 0; i < n; i++)
			s += x[i] * y[i];
	return s;
}

static double norm2(int n, const double *v)
{
	return dot(n, v, v);
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = atoi(argv[1]), steps = atoi(argv[2]);
	int local = (rank + 1) * n / size - rank * n / size;
	double *a = malloc((local + 1) * sizeof(double));
	double *b = malloc((local + 1) * sizeof(double));
	for (int i = 0; i < local; i++) {
		a[i] = i;
		b[i] = 1;
	}
	double r = 0;
	for (int s = 0; s < steps; s++) {
		r += dot(local, a, b);
		r += norm2(local, b);
	}
	r += dot(local, a, a);
	double g;
	MPI_Allreduce(&r, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	free(a);
	free(b);
	MPI_Finalize();
	return g < 0;
}
