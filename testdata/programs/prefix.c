/* prefix.c: a block distribution of n items whose global offsets come
 * from prefix reductions: MPI_Exscan of the local counts gives each rank
 * its first item (rank 0 sets its own), MPI_Scan its end, and
 * MPI_Scan with MPI_MAX the largest block so far. Run: prefix n steps */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, n = 1000, steps = 2, nlocal, first = 0, end, widest;
	double s = 0, total;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2) {
		n = atoi(argv[1]);
		steps = atoi(argv[2]);
	}
	nlocal = n / size + (rank < n % size ? 1 : 0);
	MPI_Exscan(&nlocal, &first, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		first = 0;
	MPI_Scan(&nlocal, &end, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	int width = nlocal + (rank % 3);
	MPI_Scan(&width, &widest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	for (int t = 0; t < steps; t++) {
		for (int i = first; i < end; i++)
			s += 1.0 / (i + 1);
		for (int i = 0; i < widest; i++)
			s *= 0.999;
	}
	for (int i = 0; i < first % 97; i++)
		s += i;
	MPI_Reduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%g\n", total);
	MPI_Finalize();
	return 0;
}
