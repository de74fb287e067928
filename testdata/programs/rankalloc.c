/* A buffer malloc'd by a count each rank finds for itself (the keys of its
 * buckets, counted by a loop over a table), then packed with a cursor
 * (buf[k++] = ...) in a loop over the buckets, each step. The buffer's
 * extent differs by rank, with no one closed form for it. */
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
    for (int key = 0; key < n; key++)
        count[(key * 37 + key / 7) % nb]++;

    int mine = 0;
    for (int b = rank; b < nb; b += np)
        mine += count[b];
    double *buf = malloc((mine + 1) * sizeof(double));
    double sum = 0.0;
    for (int s = 0; s < steps; s++) {
        int k = 0;
        for (int b = rank; b < nb; b += np)
            for (int j = 0; j < count[b]; j++)
                buf[k++] = 0.5 * j + s;
        for (int i = 0; i < k; i++)
            sum += buf[i];
    }
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%g\n", sum);
    free(buf);
    free(count);
    MPI_Finalize();
    return 0;
}
