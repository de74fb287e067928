/* toklist.c: every rank reads the one line of sizes.txt with fgets,
 * copies it into a work buffer with strcpy and cuts it into words with
 * the reentrant strtok_r, whose place between calls is the save pointer
 * the program passes; each word becomes a size by atoi. The ranks split
 * the nx*ny points in blocks and step through them; rank 0 gathers the
 * ranks' sums.
 * Run: toklist   (reads sizes.txt: nx ny steps on one line) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int size_of[3] = {8, 8, 1}, rank, size, got = 0;
	char line[80], work[80];
	double mine = 0, sums[64];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	FILE *f = fopen("sizes.txt", "r");
	if (f != NULL && fgets(line, sizeof line, f) != NULL) {
		char *save = NULL, *w;

		strcpy(work, line);
		for (w = strtok_r(work, " \t\n", &save); w != NULL && got < 3; w = strtok_r(NULL, " \t\n", &save))
			size_of[got++] = atoi(w);
	}
	if (f != NULL)
		fclose(f);
	long n = (long)size_of[0] * size_of[1];
	long lo = n * rank / size, hi = n * (rank + 1) / size;
	for (int t = 0; t < size_of[2]; t++)
		for (long k = lo; k < hi; k++)
			mine += (double)(k % size_of[0]) * (t + 1);
	MPI_Gather(&mine, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%d %d %d %d %g\n", got, size_of[0], size_of[1], size_of[2], sums[0]);
	MPI_Finalize();
	return 0;
}
