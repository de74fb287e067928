/* A sparse matrix in CSR form held in a structure's pointer fields
 * (csr_t A; A.rowptr = malloc(...)), built row by row with a counter
 * each boundary test may step, then multiplied in an iteration loop that
 * reads every array through the fields (A.val[k] * x[A.col[k]]). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int nrows;
    int *rowptr;
    int *col;
    double *val;
} csr_t;

int main(int argc, char **argv)
{
    int rank, np;
    int m = argc > 1 ? atoi(argv[1]) : 40;
    int iters = argc > 2 ? atoi(argv[2]) : 60;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    int n = m * m, nloc = n / np, first = rank * nloc;
    csr_t A;
    A.nrows = nloc;
    A.rowptr = malloc((nloc + 1) * sizeof(int));
    A.col = malloc(5 * nloc * sizeof(int));
    A.val = malloc(5 * nloc * sizeof(double));
    int nnz = 0;
    A.rowptr[0] = 0;
    for (int row = 0; row < nloc; row++) {
        int g = first + row, gi = g / m, gj = g % m;
        if (gi > 0)     { A.col[nnz] = g - m; A.val[nnz++] = -1.0; }
        if (gj > 0)     { A.col[nnz] = g - 1; A.val[nnz++] = -1.0; }
        A.col[nnz] = g; A.val[nnz++] = 4.0;
        if (gj < m - 1) { A.col[nnz] = g + 1; A.val[nnz++] = -1.0; }
        if (gi < m - 1) { A.col[nnz] = g + m; A.val[nnz++] = -1.0; }
        A.rowptr[row + 1] = nnz;
    }

    double *x = malloc(n * sizeof(double)), *y = malloc((nloc + 1) * sizeof(double));
    for (int i = 0; i < n; i++)
        x[i] = 1.0;
    double norm = 0.0;
    for (int it = 0; it < iters; it++) {
        for (int i = 0; i < A.nrows; i++) {
            double s = 0.0;
            for (int k = A.rowptr[i]; k < A.rowptr[i + 1]; k++)
                s += A.val[k] * x[A.col[k]];
            y[i] = s;
        }
        for (int i = 0; i < nloc; i++)
            norm += y[i] * y[i];
        MPI_Allreduce(MPI_IN_PLACE, &norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("%g\n", norm);
    free(A.rowptr); free(A.col); free(A.val); free(x); free(y);
    MPI_Finalize();
    return 0;
}
