/* hybrid.c: an MPI+OpenMP stencil as hybrid codes write it: MPI started
 * by MPI_Init_thread with the level checked, omp.h included, work-sharing
 * loops under #pragma omp, the thread count asked of the runtime where
 * OpenMP is on (_OPENMP), halos exchanged by the master thread.
 * Usage: mpirun -np P hybrid N STEPS */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int provided;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	if (provided < MPI_THREAD_FUNNELED) {
		fprintf(stderr, "MPI_THREAD_FUNNELED is not provided\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	int rank, np;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	int steps = argc > 2 ? atoi(argv[2]) : 10;
	int threads = 1;
#ifdef _OPENMP
	threads = omp_get_max_threads();
#endif
	int local = n / np + (rank < n % np);
	double *u = calloc((size_t)local + 2, sizeof(double));
	double *v = calloc((size_t)local + 2, sizeof(double));
	int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	int right = rank < np - 1 ? rank + 1 : MPI_PROC_NULL;
	for (int s = 0; s < steps; s++) {
		MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[local + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		MPI_Sendrecv(&u[local], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
#pragma omp parallel for schedule(static)
		for (int i = 1; i <= local; i++)
			v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
		double sum = 0;
#pragma omp parallel for reduction(+ : sum)
		for (int i = 1; i <= local; i++)
			sum += v[i];
		MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		double *t = u;
		u = v;
		v = t;
	}
	if (rank == 0)
		printf("%d threads\n", threads);
	free(u);
	free(v);
	MPI_Finalize();
	return 0;
}
