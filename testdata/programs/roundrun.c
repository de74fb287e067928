/* roundrun.c: step counts that double and float quotients give, as the
 * run rounds them. The end time and step are a/10 and b/10 from the
 * command line (3 and 1 without it): (int)(0.3 / 0.1) is 2, where exact
 * arithmetic gives 3. Also floor and ceil of a quotient and a sum, a digit
 * count from log(1000)/log(10), a quotient in float, a share per process
 * of a truncated product, and a comparison rounding decides
 * (0.1 + 0.2 > 0.3).  Run: roundrun a b */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, i, a = 3, b = 1;
	long s = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2) {
		a = atoi(argv[1]);
		b = atoi(argv[2]);
	}
	double tend = a / 10.0, dt = b / 10.0;
	int nsteps = (int)(tend / dt);
	int nfloor = (int)floor(tend / dt);
	int nceil = (int)ceil((dt + 0.2) * 10.0);
	int ndigits = (int)(log(1000.0) / log(10.0));
	float h = b / 10.0f, span = 0.7f;
	int nfloat = (int)(span / h);
	int nloc = (int)(4.35 * 100.0) / size;
	int nmore = 1;
	if (dt + 0.2 > 0.3)
		nmore = 3;
	for (i = 0; i < nsteps; i++)
		s += i;
	for (i = 0; i < nfloor; i++)
		s += 2 * i;
	for (i = 0; i < nceil; i++)
		s += 3 * i;
	for (i = 0; i < ndigits; i++)
		s += 4 * i;
	for (i = 0; i < nfloat; i++)
		s += 5 * i;
	for (i = 0; i < nloc; i++)
		s += 6 * i;
	for (i = 0; i < nmore; i++)
		s += 7 * i;
	MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%d %d %d %d %d %d %d %ld\n", nsteps, nfloor, nceil, ndigits, nfloat, nloc, nmore, s);
	MPI_Finalize();
	return 0;
}
