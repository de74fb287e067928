/* optdst.c: settings filled through pointers kept in structures, as an
 * option table keeps where each option goes: each option holds its flag
 * and the address of its setting's field, and the parser stores the value
 * it reads through that pointer (*o.dst = atoi(...)). A counter reached
 * through a pointer field to a heap cell (*t.cnt) bounds the last loop.
 * Run: optdst -n N -s STEPS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	int n;
	int steps;
} settings_t;

typedef struct {
	const char *flag;
	int *dst;
} opt_t;

typedef struct {
	int *cnt;
} tally_t;

int main(int argc, char **argv)
{
	int rank, size;
	double acc = 0;
	settings_t set = {10, 1};
	opt_t on = {"-n", &set.n}, os = {"-s", &set.steps};

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int a = 1; a + 1 < argc; a++) {
		if (strcmp(argv[a], on.flag) == 0)
			*on.dst = atoi(argv[++a]);
		else if (strcmp(argv[a], os.flag) == 0)
			*os.dst = atoi(argv[++a]);
	}
	int local = set.n / size + (rank < set.n % size);
	for (int t = 0; t < set.steps; t++)
		for (int i = 0; i < local; i++)
			acc += i * t;
	tally_t tl;
	tl.cnt = malloc(sizeof(int));
	*tl.cnt = 2 * local + 1;
	for (int i = 0; i < *tl.cnt; i++)
		acc += i;
	if (rank == 0)
		printf("%g\n", acc);
	free(tl.cnt);
	MPI_Finalize();
	return 0;
}
