/* datanest.c: a program whose one rank's work does not depend on P, with
 * a loop whose trip count is a value of its data (the sum of what an
 * earlier loop computed), run with only its command line: the share of
 * the work counted is stated for no point of P.  Run: datanest n */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int n = atoi(argv[1]);
	double *x = malloc(n * sizeof(double));
	double s = 0;
	for (int i = 0; i < n; i++)
		x[i] = i;
	for (int i = 0; i < n; i++)
		if (x[i] > 3)
			s += x[i];
	for (int k = 0; k < (int)s; k++)
		s -= 1;
	free(x);
	MPI_Finalize();
	return s > 0;
}
