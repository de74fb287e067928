/* cfgtrim.c: rank 0 reads "key = value  # comment" lines of a settings
 * file the way hand-written readers do, with pointers into the line: the
 * comment cut by writing a NUL where strchr found '#', the line split at
 * its '=' through the pointer strchr returned, both halves trimmed by a
 * routine that walks a char* over isspace and writes NULs backwards
 * (*--end = 0), the key matched by strcmp and the value converted by
 * atoi, the scheme's name copied into the settings structure by strncpy.
 * The structure goes to every rank as bytes; a scheme named "wide" doubles
 * the stencil's reach. Each step a rank relaxes its block of rows.
 * Run: cfgtrim   (reads settings.cfg) */
#include <ctype.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct settings {
	int nx, ny, steps;
	char scheme[24];
};

static char *strip(char *p)
{
	char *end;

	while (*p && isspace((unsigned char)*p))
		p++;
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		*--end = 0;
	return p;
}

static void apply(struct settings *s, const char *key, const char *val)
{
	if (strcmp(key, "nx") == 0)
		s->nx = atoi(val);
	else if (strcmp(key, "ny") == 0)
		s->ny = atoi(val);
	else if (strcmp(key, "steps") == 0)
		s->steps = atoi(val);
	else if (strcmp(key, "scheme") == 0)
		strncpy(s->scheme, val, sizeof s->scheme - 1);
}

static int load(const char *name, struct settings *s)
{
	char buf[128];
	FILE *f = fopen(name, "r");

	if (f == NULL)
		return 0;
	while (fgets(buf, sizeof buf, f) != NULL) {
		char *mark = strchr(buf, '#'), *eq;

		if (mark != NULL)
			*mark = '\0';
		eq = strchr(buf, '=');
		if (eq == NULL)
			continue;
		*eq = '\0';
		apply(s, strip(buf), strip(eq + 1));
	}
	fclose(f);
	return 1;
}

int main(int argc, char **argv)
{
	struct settings s = {16, 8, 1, "narrow"};
	int rank, size, reach, rows, first;
	double sum = 0, total;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0 && !load("settings.cfg", &s))
		fprintf(stderr, "settings.cfg: not found, defaults used\n");
	MPI_Bcast(&s, (int)sizeof s, MPI_BYTE, 0, MPI_COMM_WORLD);
	reach = strcmp(s.scheme, "wide") == 0 ? 2 : 1;
	rows = s.ny / size + (rank < s.ny % size);
	first = rank * (s.ny / size) + (rank < s.ny % size ? rank : s.ny % size);
	for (int t = 0; t < s.steps; t++) {
		for (int j = 0; j < rows; j++)
			for (int i = reach; i < s.nx - reach; i++)
				sum += (double)(first + j) * i / (t + 1);
		MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	if (rank == 0)
		printf("%s %d %d %d %g\n", s.scheme, s.nx, s.ny, s.steps, total);
	MPI_Finalize();
	return 0;
}
