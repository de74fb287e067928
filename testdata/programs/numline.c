/* numline.c: rank 0 takes the sizes from the first line of sizes.txt,
 * read with POSIX getline into a buffer getline allocates, and converts
 * every number on it with strtol, going on from the end pointer each
 * conversion sets until one converts nothing (end == p); the numbers go
 * to every rank in one broadcast. Each step a rank updates its cyclic
 * share of the nx-by-ny points and the ranks sum their work.
 * Run: numline   (reads sizes.txt: nx ny steps on one line) */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long v[3] = {6, 4, 1};
	int rank, size;
	double acc = 0, all;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		FILE *in = fopen("sizes.txt", "r");
		char *line = NULL;
		size_t cap = 0;

		if (in != NULL && getline(&line, &cap, in) > 0) {
			char *p = line, *end;
			int n = 0;

			while (n < 3) {
				long x = strtol(p, &end, 10);
				if (end == p)
					break;
				v[n++] = x;
				p = end;
			}
		}
		free(line);
		if (in != NULL)
			fclose(in);
	}
	MPI_Bcast(v, 3, MPI_LONG, 0, MPI_COMM_WORLD);
	for (long t = 0; t < v[2]; t++) {
		for (long k = rank; k < v[0] * v[1]; k += size)
			acc += (double)(k % v[0]) / (t + 1);
		MPI_Reduce(&acc, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	}
	if (rank == 0)
		printf("%ld %ld %ld %g\n", v[0], v[1], v[2], all);
	MPI_Finalize();
	return 0;
}
