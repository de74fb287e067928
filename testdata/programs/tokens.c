/* A settings file read as C programs often read one: fgets a line,
 * strtok it into a key and a value at blanks, '=' and tabs, skip comments,
 * strcmp the key; the sizes then set a ring exchange and its work. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int nx = 10, steps = 2, rank, size;
  double dt = 0.1;
  char line[256];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  FILE *f = fopen("settings.cfg", "r");
  if (f) {
    while (fgets(line, sizeof line, f)) {
      char *key = strtok(line, " =\t\n");
      char *val = strtok(NULL, " =\t\n");
      if (!key || !val || key[0] == '#')
        continue;
      if (!strcmp(key, "nx"))
        nx = atoi(val);
      else if (!strcmp(key, "steps"))
        steps = atoi(val);
      else if (!strcmp(key, "dt"))
        dt = atof(val);
    }
    fclose(f);
  }
  int local = nx / size + (rank < nx % size);
  double *u = calloc(local + 2, sizeof(double));
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int s = 0; s < steps; s++) {
    MPI_Sendrecv(&u[local], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 1; i <= local; i++)
      u[i] += dt * (u[i - 1] - u[i]);
  }
  double t = u[1], g;
  MPI_Reduce(&t, &g, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%g\n", g);
  free(u);
  MPI_Finalize();
  return 0;
}
