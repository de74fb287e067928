/* keyloop.c: every rank reads the same settings file (named on the
 * command line, keys.txt when none is) line by line with fgets, cuts the
 * newline, skips comments with continue, and takes "nx=", "ny=" and
 * "steps=" lines into local variables by strncmp and atoi; a "mode big"
 * line would double the work. Each step a rank sweeps its share of the
 * rows and reduces a sum.
 * Run: keyloop [FILE] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int nx = 4, ny = 4, steps = 1, factor = 1, rank, size;
	char line[64];
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	FILE *f = fopen(argc > 1 ? argv[1] : "keys.txt", "r");
	if (f != NULL) {
		while (fgets(line, sizeof line, f) != NULL) {
			size_t n = strlen(line);
			if (n > 0 && line[n - 1] == '\n')
				line[n - 1] = '\0';
			if (line[0] == '#' || line[0] == '\0')
				continue;
			if (strncmp(line, "nx=", 3) == 0)
				nx = atoi(line + 3);
			else if (strncmp(line, "ny=", 3) == 0)
				ny = atoi(line + 3);
			else if (strncmp(line, "steps=", 6) == 0)
				steps = atoi(line + 6);
			else if (strcmp(line, "mode big") == 0)
				factor = 2;
		}
		fclose(f);
	}
	double s = 0, t = 0;
	for (int k = 0; k < steps * factor; k++) {
		for (int j = rank; j < ny; j += size)
			for (int i = 0; i < nx; i++)
				s += (double)i * j;
		MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	if (rank == 0)
		printf("%g\n", t);
	MPI_Finalize();
	return 0;
}
