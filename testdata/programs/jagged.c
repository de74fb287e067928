/* jagged.c: set-up data in rows reached through arrays of pointers, as C
 * programs keep tables: an int ** of rows malloc'd one by one, a fixed
 * array of three rows from the program's own allocator (a block's
 * coordinates), a variable-length array indexed by them, and a row
 * pointer taken into a local.  Which
 * cells a rank owns, how much work each is and what it sends all come
 * from values stored through those pointers.  Run: jagged n steps */
#include <mpi.h>
#include <stdlib.h>

/* An allocator of the program's own, as codes wrap malloc. */
static void *xalloc(size_t bytes)
{
	void *p = malloc(bytes);
	if (!p)
		MPI_Abort(MPI_COMM_WORLD, 1);
	return p;
}

static double work(int m, double x)
{
	double s = x;
	for (int q = 0; q < m; q++)
		s = s * 0.5 + q;
	return s;
}

int main(int argc, char **argv)
{
	int me, np, i, j, k, d;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	int n = atoi(argv[1]), steps = atoi(argv[2]);
	int nx = np > 1 ? 2 : 1, ny = (np + nx - 1) / nx;

	/* Rows one by one: owner[i][j] is the rank of cell (i, j). */
	int **owner = malloc(n * sizeof(int *));
	for (i = 0; i < n; i++)
		owner[i] = malloc(n * sizeof(int));
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			owner[i][j] = (3 * i + j) % np;

	/* Three rows of coordinates, one per dimension, and the grid of
	 * ranks they place (a variable-length array). */
	int *pos[3];
	for (d = 0; d < 3; d++)
		pos[d] = (int *) xalloc(np * sizeof(int));
	for (k = 0; k < np; k++) {
		pos[0][k] = k % nx;
		pos[1][k] = k / nx;
		pos[2][k] = 0;
	}
	int grid[nx][ny][1];
	for (k = 0; k < nx * ny; k++)
		grid[k % nx][k / nx][0] = -1;
	for (k = 0; k < np; k++)
		grid[pos[0][k]][pos[1][k]][pos[2][k]] = k;

	/* Weights per row, through a row pointer in a local. */
	int **weight = malloc(n * sizeof(int *));
	for (i = 0; i < n; i++) {
		int *w = malloc(n * sizeof(int));
		weight[i] = w;
		for (j = 0; j < n; j++)
			w[j] = 1 + (i + 2 * j) % 5;
	}

	double acc = 0.0;
	double buf[64];
	for (int s = 0; s < steps; s++) {
		for (i = 0; i < n; i++) {
			int *w = weight[i];
			for (j = 0; j < n; j++)
				if (owner[i][j] == me)
					acc = work(10 * w[j], acc);
		}
		/* The block at (x, y) is worked on by the rank the grid names. */
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++)
				if (grid[x][y][0] == me)
					acc = work(100 * (x + 1) + n, acc);
		/* A broadcast whose length is the cells of row 0 rank 0 owns
		 * (every rank counts them alike), and work for this rank's. */
		int len = 0, mine = 0;
		for (j = 0; j < n; j++) {
			len += owner[0][j] == 0;
			mine += owner[0][j] == me;
		}
		MPI_Bcast(buf, len < 64 ? len : 64, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		if (mine > 0)
			acc = work(mine, acc);
	}
	for (i = 0; i < n; i++) {
		free(owner[i]);
		free(weight[i]);
	}
	free(owner);
	free(weight);
	for (d = 0; d < 3; d++)
		free(pos[d]);
	MPI_Finalize();
	return acc < 0.0;
}
