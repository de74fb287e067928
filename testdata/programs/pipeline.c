/* pipeline.c: a software pipeline along the ranks: each of m stages waits
 * for a block of n values from the left neighbour, works on it and passes
 * it on to the right; the first rank starts every stage.  Run: pipeline n m */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, n = 32, m = 5;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2) {
		n = atoi(argv[1]);
		m = atoi(argv[2]);
	}
	int *buf = malloc(n * sizeof(int));
	for (int k = 0; k < m; k++) {
		if (rank > 0)
			MPI_Recv(buf, n, MPI_INT, rank - 1, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		else
			for (int i = 0; i < n; i++)
				buf[i] = i + k;
		for (int i = 0; i < n; i++)
			buf[i] = buf[i] * 3 + 1;
		if (rank < size - 1)
			MPI_Send(buf, n, MPI_INT, rank + 1, k, MPI_COMM_WORLD);
	}
	if (rank == size - 1)
		printf("%d\n", buf[n - 1]);
	free(buf);
	MPI_Finalize();
	return 0;
}
