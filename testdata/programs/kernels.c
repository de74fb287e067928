/* kernels.c: work chosen through function pointers, as C codes choose
 * it: a method named on the command line picks a smoother, a static table
 * of kernels is applied in turn, a solver struct carries its step
 * function and repetitions from a brace initialiser, a heap object's
 * callback differs on rank 0, and a function is handed to another that
 * calls it, and a reduction chosen by the method returns its value.  Run: kernels method n iters
 * (method: jacobi or copy). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*smoother)(double *, const double *, int);
typedef void (*kernel)(double *, int);
typedef double (*reducer)(const double *, int);

static void jacobi(double *out, const double *in, int n)
{
	for (int i = 1; i < n - 1; i++)
		out[i] = 0.5 * (in[i - 1] + in[i + 1]);
}

static void copy(double *out, const double *in, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = in[i];
}

static void scale(double *a, int n)
{
	for (int i = 0; i < n; i++)
		a[i] *= 0.5;
}

static void shift(double *a, int n)
{
	for (int i = 0; i < n; i += 2)
		a[i] += 1.0;
}

static double total(const double *a, int n)
{
	double s = 0.0;
	for (int i = 0; i < n; i++)
		s += a[i];
	return s;
}

static double peak(const double *a, int n)
{
	double s = a[0];
	for (int i = 1; i < n; i++)
		s = s > a[i] ? s : a[i];
	return s;
}

static kernel table[] = {scale, shift, scale};

static void repeat(kernel f, double *a, int n, int times)
{
	for (int t = 0; t < times; t++)
		f(a, n);
}

struct solver {
	const char *name;
	kernel step;
	int reps;
};

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	const char *method = argc > 1 ? argv[1] : "jacobi";
	int n = argc > 2 ? atoi(argv[2]) : 1000;
	int iters = argc > 3 ? atoi(argv[3]) : 10;
	smoother smooth = strcmp(method, "copy") == 0 ? copy : jacobi;
	reducer reduce = strcmp(method, "copy") == 0 ? peak : total;
	int local = n / size + (rank < n % size);
	double *a = calloc((size_t)local + 2, sizeof *a), *b = calloc((size_t)local + 2, sizeof *b);
	struct solver post = {"shift", shift, 3};
	struct solver *pre = malloc(sizeof *pre);
	pre->step = rank == 0 ? shift : scale;
	pre->reps = 2;
	for (int it = 0; it < iters; it++) {
		for (int r = 0; r < pre->reps; r++)
			pre->step(a, local);
		smooth(b, a, local);
		double *t = a;
		a = b;
		b = t;
		for (int k = 0; k < 3; k++)
			table[k](a, local);
		for (int r = 0; r < post.reps; r++)
			post.step(a, local);
		repeat(shift, a, local, 2);
		double s = reduce(a, local), g;
		MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	if (rank == 0)
		printf("%g\n", a[0]);
	free(pre);
	free(a);
	free(b);
	MPI_Finalize();
	return 0;
}
