/* sparserows.c: a sparse matrix kept as a structure on the heap whose
 * fields point at arrays allocated after it (row lengths, one pointer per
 * row into a pool of column numbers), built by a routine that hands the
 * structure and a vector back through pointers to pointers, as sparse
 * solvers set up their matrices. The rows' lengths are counted as they are
 * built, so the sweeps that follow run as long as the data says: a product
 * that reads each row's length into a scalar, and a pass that reads the
 * columns back through the row pointers to count those another rank owns,
 * which then sizes the exchange.
 * Run: sparserows N STEPS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
	int nrow;
	int *len;
	int **cols;
	int *pool;
} rows;

static void build(int n, int rank, int size, rows **out, double **diag)
{
	rows *m = malloc(sizeof *m);
	*out = m;
	m->nrow = n;
	m->len = malloc(n * sizeof(int));
	m->cols = malloc(n * sizeof(int *));
	m->pool = malloc(3 * n * sizeof(int));
	*diag = malloc(n * sizeof(double));
	int *next = m->pool;
	int first = rank * n, total = size * n;
	for (int i = 0; i < n; i++) {
		int k = 0;
		m->cols[i] = next;
		for (int d = -1; d <= 1; d++) {
			int c = first + i + 7 * d;
			if (c >= 0 && c < total) {
				*next++ = c;
				k++;
			}
		}
		m->len[i] = k;
		(*diag)[i] = 1.0 / k;
	}
}

static double product(const rows *m, const double *x)
{
	double s = 0;
	for (int i = 0; i < m->nrow; i++) {
		const int *row = m->cols[i];
		int k = m->len[i];
		for (int j = 0; j < k; j++)
			s += x[row[j] % m->nrow];
	}
	return s;
}

static int remote(const rows *m, int first, int last)
{
	int count = 0;
	for (int i = 0; i < m->nrow; i++) {
		int *row = m->cols[i];
		for (int j = 0; j < m->len[i]; j++)
			if (row[j] < first || row[j] > last)
				count++;
	}
	return count;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = argc > 1 ? atoi(argv[1]) : 100;
	int steps = argc > 2 ? atoi(argv[2]) : 2;
	rows *m;
	double *diag;
	build(n, rank, size, &m, &diag);
	int ext = remote(m, rank * n, rank * n + n - 1);
	double *halo = malloc((ext + 1) * sizeof(double));
	double sum = 0;
	for (int s = 0; s < steps; s++) {
		sum += product(m, diag);
		for (int e = 0; e < ext; e++)
			halo[e] = sum + e;
		double all;
		MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		sum = all / size;
	}
	if (rank == 0)
		printf("%d remote columns on rank 0, sum %g\n", ext, sum + halo[0]);
	MPI_Finalize();
	return 0;
}
