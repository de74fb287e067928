/* longopts.c: sizes from getopt_long (--size N, --steps=N or -s N, and
 * --verbose, which sets a flag through the option table, abbreviated
 * --verb as glibc allows). The table is a local array, which clang fills
 * from a constant. Each step shifts the rank's block to the next rank;
 * with --verbose every step also reduces a norm.
 * Run: longopts [--verbose] --size N --steps=N */
#include <getopt.h>
#include <mpi.h>
#include <stdlib.h>

static int verbose;

int main(int argc, char **argv)
{
	int rank, size, c;
	long n = 10, steps = 1;
	struct option opts[] = {
		{"size", required_argument, NULL, 'n'},
		{"steps", required_argument, NULL, 's'},
		{"verbose", no_argument, &verbose, 1},
		{NULL, 0, NULL, 0}};
	double *buf, norm = 0, all;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	while ((c = getopt_long(argc, argv, "n:s:", opts, NULL)) != -1) {
		if (c == 'n')
			n = atol(optarg);
		else if (c == 's')
			steps = atol(optarg);
		else if (c != 0)
			MPI_Abort(MPI_COMM_WORLD, 1);
	}
	buf = calloc((size_t)n, sizeof(double));
	for (long t = 0; t < steps; t++) {
		MPI_Sendrecv_replace(buf, (int)n, MPI_DOUBLE, (rank + 1) % size, 0, (rank + size - 1) % size, 0,
				     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (long i = 0; i < n; i++)
			buf[i] += 1.0;
		if (verbose) {
			for (long i = 0; i < n; i++)
				norm += buf[i] * buf[i];
			MPI_Allreduce(&norm, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		}
	}
	free(buf);
	MPI_Finalize();
	return 0;
}
