/* scanfmt.c: rank 0 reads a run description written for people: a title
 * line it skips with fgets, "size: NX,NY" and "steps=N" lines it takes with
 * fscanf formats whose literal text must match, and an optional "dt ..."
 * line; the sizes go to the others by point-to-point messages. Each rank
 * then works through its share of the columns for every step.
 * Run: scanfmt [FILE]   (FILE: see above; grid.txt when none is named) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, dims[3] = {4, 4, 1};
	char title[80];
	double dt = 1.0, acc = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		FILE *f = fopen(argc > 1 ? argv[1] : "grid.txt", "r");
		if (f == NULL)
			MPI_Abort(MPI_COMM_WORLD, 1);
		if (fgets(title, sizeof title, f) == NULL)
			MPI_Abort(MPI_COMM_WORLD, 4);
		if (fscanf(f, " size: %d,%d", &dims[0], &dims[1]) != 2)
			MPI_Abort(MPI_COMM_WORLD, 2);
		if (fscanf(f, " steps=%d", &dims[2]) != 1)
			MPI_Abort(MPI_COMM_WORLD, 3);
		if (fscanf(f, " dt %lf", &dt) != 1)
			dt = 0.5;
		fclose(f);
		for (int r = 1; r < size; r++)
			MPI_Send(dims, 3, MPI_INT, r, 7, MPI_COMM_WORLD);
	} else {
		MPI_Recv(dims, 3, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	int nx = dims[0], ny = dims[1], steps = dims[2];
	for (int t = 0; t < steps; t++)
		for (int j = rank; j < ny; j += size)
			for (int i = 0; i < nx; i++)
				acc += dt * (i + j);
	if (rank == 0)
		printf("%g\n", acc);
	MPI_Finalize();
	return 0;
}
