/* settings.c: rank 0 reads `key = value` lines from a settings file (named
 * on the command line, run.cfg when none is) with fgets and sscanf,
 * skipping comments and blank lines, into a struct initialised with the
 * defaults; the struct is broadcast as bytes. Each step every rank relaxes
 * its block of rows and exchanges boundary rows with its neighbours.
 * Run: settings [FILE]   (FILE: lines "nx = 10", "ny=7", "# ...") */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	int nx, ny, steps;
	double dt;
	char name[16];
} settings_t;

static int read_settings(const char *path, settings_t *s)
{
	char line[128], key[32], value[32];
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, " %31[a-z_] = %31s", key, value) != 2)
			continue;
		if (!strcmp(key, "nx"))
			s->nx = atoi(value);
		else if (!strcmp(key, "ny"))
			s->ny = atoi(value);
		else if (!strcmp(key, "steps"))
			sscanf(value, "%d", &s->steps);
		else if (!strcmp(key, "dt"))
			s->dt = atof(value);
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	settings_t s = {8, 8, 1, 0.5, "run"};
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0 && read_settings(argc > 1 ? argv[1] : "run.cfg", &s) != 0) {
		fprintf(stderr, "cannot read the settings\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Bcast(&s, sizeof s, MPI_BYTE, 0, MPI_COMM_WORLD);
	int rows = s.ny / size + (rank < s.ny % size);
	double *u = calloc((size_t)(rows + 2) * s.nx, sizeof *u), sum = 0;
	int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
	for (int t = 0; t < s.steps; t++) {
		MPI_Sendrecv(&u[s.nx], s.nx, MPI_DOUBLE, up, 0, &u[(rows + 1) * s.nx], s.nx, MPI_DOUBLE, down, 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (int j = 1; j <= rows; j++)
			for (int i = 1; i < s.nx - 1; i++)
				u[j * s.nx + i] += s.dt * (u[j * s.nx + i - 1] + u[j * s.nx + i + 1]);
	}
	for (int j = 1; j <= rows; j++)
		sum += u[j * s.nx + 1];
	if (rank == 0)
		printf("%s %g\n", s.name, sum);
	free(u);
	MPI_Finalize();
	return 0;
}
