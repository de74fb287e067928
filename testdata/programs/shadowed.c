/* One name for two variables of different types in one function, as C's
 * scopes allow: an int counter of a for loop, and later a double vector
 * of the same name (a residual r declared after a loop over r). The
 * counter's loop deals keys into buckets, which size the vector and the
 * sweeps over this rank's buckets. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, np, n = argc > 1 ? atoi(argv[1]) : 2000;
    int steps = argc > 2 ? atoi(argv[2]) : 3;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    int nb = 4 * np;
    int *count = calloc(nb, sizeof(int));
    for (int r = 0; r < n; r++)
        count[(r * 37 + r / 7) % nb]++;

    int mine = 0;
    for (int b = rank; b < nb; b += np)
        mine += count[b];
    double *r = malloc((mine + 1) * sizeof(double));
    double sum = 0.0;
    for (int s = 0; s < steps; s++) {
        for (int b = rank; b < nb; b += np)
            for (int j = 0; j < count[b]; j++)
                sum += 0.5 * j + s;
        for (int k = 0; k < mine; k++)
            r[k] = sum + k;
    }
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%g\n", sum);
    free(r);
    free(count);
    MPI_Finalize();
    return 0;
}
