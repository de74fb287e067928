/* owned.c: cells of an nx by ny grid are dealt to the ranks in strips;
 * each rank walks the whole grid and, for the cells it owns, keeps their
 * numbers in a list sorted in decreasing order (a search for the place,
 * then a shift) and, for each neighbour cell another rank owns, adds that
 * rank to its list of partners (kept in increasing order) with a length
 * per partner. Each step it fills a buffer of the longest length for every
 * partner, and the ranks take the maximum of their buffers.
 * Run: owned NX NY STEPS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int ncells, *cells;
static int npart, *part, *len;

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (p == NULL)
		exit(1);
	return p;
}

static void add_cell(int c)
{
	int i, j;
	for (i = 0; i < ncells; i++)
		if (c > cells[i])
			break;
	for (j = ncells; j > i; j--)
		cells[j] = cells[j - 1];
	cells[i] = c;
	ncells++;
}

static void add_partner(int pe, int n)
{
	int i, j;
	for (i = 0; i < npart; i++)
		if (part[i] >= pe)
			break;
	if (i < npart && part[i] == pe) {
		len[i] += n;
		return;
	}
	for (j = npart; j > i; j--) {
		part[j] = part[j - 1];
		len[j] = len[j - 1];
	}
	part[i] = pe;
	len[i] = n;
	npart++;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int nx = argc > 1 ? atoi(argv[1]) : 4;
	int ny = argc > 2 ? atoi(argv[2]) : 4;
	int steps = argc > 3 ? atoi(argv[3]) : 2;
	int *owner = xmalloc(nx * ny * sizeof(int));
	for (int y = 0; y < ny; y++)
		for (int x = 0; x < nx; x++)
			owner[y * nx + x] = (y * size) / ny;
	cells = xmalloc(nx * ny * sizeof(int));
	part = xmalloc(size * sizeof(int));
	len = xmalloc(size * sizeof(int));
	for (int y = 0; y < ny; y++)
		for (int x = 0; x < nx; x++) {
			int c = y * nx + x;
			if (owner[c] != rank)
				continue;
			add_cell(c);
			if (y > 0 && owner[c - nx] != rank)
				add_partner(owner[c - nx], x + 1);
			if (y < ny - 1 && owner[c + nx] != rank)
				add_partner(owner[c + nx], x + 1);
		}
	int most = 1;
	for (int i = 0; i < npart; i++)
		if (len[i] > most)
			most = len[i];
	double *out = xmalloc(most * sizeof(double));
	double *in = xmalloc(most * sizeof(double));
	double sum = 0;
	for (int s = 0; s < steps; s++) {
		for (int i = 0; i < npart; i++) {
			for (int k = 0; k < most; k++)
				out[k] = k + s + part[i] + cells[k % ncells];
			sum += out[most - 1];
		}
		for (int i = 0; i < ncells; i++)
			sum += cells[i];
		MPI_Allreduce(out, in, most, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		sum += in[0];
	}
	if (rank == 0)
		printf("%d %d %g\n", npart, ncells, sum);
	MPI_Finalize();
	return 0;
}
