/* optloop.c: options read in a loop over argv with strcmp, as many C
 * programs read them, each with a default: run without arguments the
 * defaults hold. An unknown option stops the program.
 * Run: optloop [-n N] [-s STEPS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct params {
	int n, steps;
};

static int parse(int argc, char **argv, struct params *p)
{
	p->n = 48;
	p->steps = 4;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			p->n = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			p->steps = atoi(argv[++i]);
		else
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int rank, size;
	struct params p;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (parse(argc, argv, &p)) {
		if (rank == 0)
			fprintf(stderr, "usage: optloop [-n N] [-s STEPS]\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	int local = p.n / size + (rank < p.n % size);
	double *u = calloc(local + 2, sizeof *u);
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	for (int s = 0; s < p.steps; s++) {
		MPI_Sendrecv(&u[local], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (int i = 1; i <= local; i++)
			u[i] = 0.5 * (u[i - 1] + u[i]) + 1.0;
	}
	double sum = 0, total;
	for (int i = 1; i <= local; i++)
		sum += u[i];
	MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%d %d %g\n", p.n, p.steps, total);
	free(u);
	MPI_Finalize();
	return 0;
}
