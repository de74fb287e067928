/* offsets.c: loops whose test carries the counter with a constant offset,
 * as C programs write them around a halo or a pair of cells (i + 1 < n,
 * j + 2 <= m, k - 1 > 0), with bounds each rank's share of the grid and
 * a size read through a function, and trip counts past what a run of
 * the loop would walk; a ring exchange of each rank's edge.
 * Run: offsets n m steps */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

struct strip { int len; double *v; };

static int length(const struct strip *s) { return s->len; }

int main(int argc, char **argv)
{
	int rank, size, n = 5000, m = 64, steps = 3;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 3) {
		n = atoi(argv[1]);
		m = atoi(argv[2]);
		steps = atoi(argv[3]);
	}
	struct strip s;
	s.len = n / size + (rank < n % size ? 1 : 0) + 2;
	s.v = calloc(s.len, sizeof(double));
	double sum = 0, edge = 0;
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	for (int t = 0; t < steps; t++) {
		for (int i = 1; i + 1 < length(&s); ++i)
			s.v[i] = 0.5 * (s.v[i - 1] + s.v[i + 1]) + 1.0;
		for (int j = 0; j + 2 <= m; j += 2)
			sum += s.v[j % s.len];
		for (int k = s.len; k - 1 > 0; --k)
			sum += s.v[k - 1];
		MPI_Sendrecv(&s.v[s.len - 2], 1, MPI_DOUBLE, right, 3, &edge, 1, MPI_DOUBLE, left, 3,
		             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		s.v[0] = edge;
	}
	double tot = 0;
	MPI_Reduce(&sum, &tot, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%.6e\n", tot);
	free(s.v);
	MPI_Finalize();
	return 0;
}
