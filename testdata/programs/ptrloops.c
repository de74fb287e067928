/* ptrloops.c: loops that walk pointers, as C codes write them: a span
 * whose length is the difference of its two pointers, a sum from one
 * pointer up to another (p != last), a stride-2 scaling while p < end,
 * each over a block of n over P elements with the remainder on the first
 * ranks. Usage: mpirun -np P ptrloops N STEPS */
#include <mpi.h>
#include <stdlib.h>

struct span {
	double *begin, *end;
};

static long length(const struct span *s) { return s->end - s->begin; }

static double total(const double *first, const double *last)
{
	double t = 0;
	for (; first != last; ++first)
		t += *first;
	return t;
}

static void scale(double *p, double *end, double f)
{
	while (p < end) {
		*p *= f;
		p += 2;
	}
}

int main(int argc, char **argv)
{
	int rank, size, k;
	long i;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long n = argc > 1 ? atol(argv[1]) : 1000;
	int steps = argc > 2 ? atoi(argv[2]) : 3;
	long local = n / size + (rank < n % size ? 1 : 0);
	struct span s;
	s.begin = malloc((local + 1) * sizeof(double));
	s.end = s.begin + local;
	for (i = 0; i < length(&s); i++)
		s.begin[i] = rank + i;
	double sum = 0, all = 0;
	for (k = 0; k < steps; k++) {
		scale(s.begin, s.end, 0.5);
		sum += total(s.begin + 1, s.end);
		MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	free(s.begin);
	MPI_Finalize();
	return all < 0;
}
