/* cenv.c: the number of steps and the block length come from environment
 * variables (getenv), each with the program's own fallback when unset
 * (5 steps, 100 values); a step sums the block and reduces the sums.
 * Run: NSTEPS=3 CENV_N=10 cenv */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank;
	long n = 100;
	double x = 0, all;
	const char *s, *m;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	s = getenv("NSTEPS");
	int steps = s ? atoi(s) : 5;
	m = getenv("CENV_N");
	if (m != NULL)
		n = atol(m);
	for (int t = 0; t < steps; t++) {
		for (long i = 0; i < n; i++)
			x += (double)(i + rank);
		MPI_Allreduce(&x, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return all < 0;
}
