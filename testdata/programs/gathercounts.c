/* gathercounts.c: rank 0 collects every rank's count with MPI_Gather,
 * lays out the displacements of an MPI_Gatherv from them and works on
 * what it gathered; each rank then gets its share of a total the root
 * scatters back. Run: gathercounts n steps */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, n = 10, steps = 2, total = 0, share;
	double s = 0, all_s;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2) {
		n = atoi(argv[1]);
		steps = atoi(argv[2]);
	}
	int mine = n + 3 * rank;
	int *cnts = malloc(size * sizeof(int)), *dsp = malloc(size * sizeof(int)), *shares = malloc(size * sizeof(int));
	MPI_Gather(&mine, 1, MPI_INT, cnts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (rank == 0)
		for (int p = 0; p < size; p++) {
			dsp[p] = total;
			total += cnts[p];
			shares[p] = cnts[p] / 2 + p;
		}
	double *loc = malloc(mine * sizeof(double)), *all = NULL;
	for (int i = 0; i < mine; i++)
		loc[i] = i;
	if (rank == 0)
		all = malloc(total * sizeof(double));
	for (int t = 0; t < steps; t++) {
		MPI_Gatherv(loc, mine, MPI_DOUBLE, all, cnts, dsp, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		if (rank == 0)
			for (int i = 0; i < total; i++)
				s += all[i];
	}
	MPI_Scatter(shares, 1, MPI_INT, &share, 1, MPI_INT, 0, MPI_COMM_WORLD);
	for (int i = 0; i < share; i++)
		s += 0.5;
	MPI_Reduce(&s, &all_s, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%g\n", all_s);
	MPI_Finalize();
	return 0;
}
