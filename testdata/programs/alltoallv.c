/* alltoallv.c: each rank tells every other how much it will send with
 * MPI_Alltoall of one count each, lays out its receive buffer from the
 * counts it got, and exchanges with MPI_Alltoallv; the work is over what
 * arrived. Run: alltoallv n steps */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, n = 10, steps = 2;
	double s = 0, total;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2) {
		n = atoi(argv[1]);
		steps = atoi(argv[2]);
	}
	int *scnt = malloc(size * sizeof(int)), *rcnt = malloc(size * sizeof(int));
	int *sdsp = malloc(size * sizeof(int)), *rdsp = malloc(size * sizeof(int));
	for (int p = 0; p < size; p++)
		scnt[p] = n + rank + 2 * p;
	MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, MPI_COMM_WORLD);
	int stot = 0, rtot = 0;
	for (int p = 0; p < size; p++) {
		sdsp[p] = stot;
		stot += scnt[p];
		rdsp[p] = rtot;
		rtot += rcnt[p];
	}
	double *sb = malloc(stot * sizeof(double)), *rb = malloc(rtot * sizeof(double));
	for (int i = 0; i < stot; i++)
		sb[i] = i;
	for (int t = 0; t < steps; t++) {
		MPI_Alltoallv(sb, scnt, sdsp, MPI_DOUBLE, rb, rcnt, rdsp, MPI_DOUBLE, MPI_COMM_WORLD);
		for (int i = 0; i < rtot; i++)
			s += rb[i];
		for (int p = 0; p < size; p++)
			for (int i = 0; i < rcnt[p] % 7; i++)
				s *= 0.5;
	}
	MPI_Reduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%g\n", total);
	MPI_Finalize();
	return 0;
}
