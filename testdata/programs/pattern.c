/* pattern.c: n doubles per rank, exchanged each step in the pattern a
 * word on the command line names, as benchmark drivers choose a variant:
 * "ring" shifts them to the next rank, "all" sends them to every other
 * rank, any other word exchanges nothing.  Run: pattern ring|all|... n */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

enum { NONE, RING, ALL };

int main(int argc, char **argv)
{
	int rank, size, n = 1000, mode = RING;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2) {
		if (strcmp(argv[1], "all") == 0)
			mode = ALL;
		else if (strcmp(argv[1], "ring") != 0)
			mode = NONE;
		n = atoi(argv[2]);
	}
	double *buf = calloc(n, sizeof(double));
	for (int step = 0; step < 10; step++) {
		if (mode == ALL) {
			for (int p = 0; p < size; p++)
				if (p != rank)
					MPI_Send(buf, n, MPI_DOUBLE, p, 0, MPI_COMM_WORLD);
			for (int p = 0; p < size; p++)
				if (p != rank)
					MPI_Recv(buf, n, MPI_DOUBLE, p, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (mode == RING) {
			MPI_Sendrecv_replace(buf, n, MPI_DOUBLE, (rank + 1) % size, 0,
					     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
		for (int i = 0; i < n; i++)
			buf[i] = buf[i] * 0.5 + rank;
	}
	free(buf);
	MPI_Finalize();
	return 0;
}
