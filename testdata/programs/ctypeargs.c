/* ctypeargs.c: words of the command line told apart with <ctype.h>, as
 * small C codes do: a word that starts with a digit is the size, a letter
 * (either case) picks a mode, -r<n> or -R<n> sets the repetitions. The
 * mode letter chooses the stencil's width; every rank sweeps its block of
 * the rows that many times and exchanges its edges.
 * Run: ctypeargs N [mode] [-rREPS]   (mode: a, b or c) */
#include <ctype.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long n = 100;
	int reps = 2, width = 1, bad = 0;
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		if (isdigit((unsigned char)w[0])) {
			n = atol(w);
		} else if (isalpha((unsigned char)w[0]) && w[1] == '\0') {
			switch (toupper((unsigned char)w[0])) {
			case 'A':
				width = 1;
				break;
			case 'B':
				width = 2;
				break;
			default:
				width = 4;
			}
		} else if (w[0] == '-' && tolower((unsigned char)w[1]) == 'r' && isdigit((unsigned char)w[2])) {
			reps = atoi(w + 2);
		} else if (!isspace((unsigned char)w[0])) {
			bad = i;
		}
	}
	if (bad) {
		if (rank == 0)
			fprintf(stderr, "ctypeargs: unknown word %s\n", argv[bad]);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	long local = n / size + (rank < n % size);
	double *u = calloc((size_t)local + 2 * width, sizeof *u);
	int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
	for (int r = 0; r < reps; r++) {
		for (long i = width; i < local + width; i++)
			for (int k = 1; k <= width; k++)
				u[i] += 0.5 * (u[i - k] + u[i + k]);
		MPI_Sendrecv(u + width, width, MPI_DOUBLE, left, 0, u + local + width, width, MPI_DOUBLE, right, 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	if (rank == 0)
		printf("%g\n", u[width]);
	free(u);
	MPI_Finalize();
	return 0;
}
