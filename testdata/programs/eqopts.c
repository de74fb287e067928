/* eqopts.c: options written --name=value and single-letter flags tested
 * character by character, as many C programs parse them by hand:
 * strncmp(argv[i], "--n=", 4) then atoi(argv[i] + 4); argv[i][0] == '-'
 * and a switch on argv[i][1].
 * Usage: mpirun -np P eqopts [-x] [-c] --n=N --steps=STEPS
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
	MPI_Init(&argc, &argv);
	int rank, size, n = 100, steps = 3, twice = 0, check = 0;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--n=", 4) == 0)
			n = atoi(argv[i] + 4);
		else if (strncmp(argv[i], "--steps=", 8) == 0)
			steps = atoi(argv[i] + 8);
		else if (argv[i][0] == '-' && argv[i][1] != '-') {
			switch (argv[i][1]) {
			case 'x':
				twice = 1;
				break;
			case 'c':
				check = 1;
				break;
			}
		}
	}
	int local = n / size + (rank < n % size ? 1 : 0);
	double *u = calloc(local + 2, sizeof(double)), sum = 0, all = 0;
	if (twice)
		steps *= 2;
	for (int s = 0; s < steps; s++) {
		for (int i = 1; i <= local; i++)
			u[i] = 0.5 * (u[i - 1] + u[i + 1]) + 1.0;
		if (check) {
			for (int i = 1; i <= local; i++)
				sum += u[i];
			MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		}
	}
	free(u);
	MPI_Finalize();
	return all < 0;
}
