/* A configuration in a structure, as C codes keep one: initialised with
 * defaults (a nested mesh, a method name in a character array), read
 * from a deck of "key value" lines (fgets, sscanf of a word and a number,
 * strcmp of the word), the method optionally given on the command line
 * (sscanf into the structure's character array), and the work chosen by
 * comparing the method's name. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int nx, ny;
} Mesh;

typedef struct {
  Mesh mesh;
  int steps;
  double dt;
  char method[32];
} Config;

static int readConfig(const char *path, Config *c) {
  FILE *fp = fopen(path, "r");
  if (!fp)
    return -1;
  char line[128], key[64];
  int ival;
  while (fgets(line, sizeof(line), fp)) {
    if (line[0] == '#' || line[0] == '\n')
      continue;
    if (sscanf(line, "%63s %d", key, &ival) == 2) {
      if (strcmp(key, "nx") == 0)
        c->mesh.nx = ival;
      else if (strcmp(key, "ny") == 0)
        c->mesh.ny = ival;
      else if (strcmp(key, "steps") == 0)
        c->steps = ival;
    }
  }
  fclose(fp);
  return 0;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Config cfg = {{16, 16}, 1, 0.1, "jacobi"};
  if (argc > 1 && readConfig(argv[1], &cfg) != 0) {
    if (rank == 0)
      fprintf(stderr, "cannot read %s\n", argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (argc > 2)
    sscanf(argv[2], "%31s", cfg.method);
  int rows = cfg.mesh.ny / size + (rank < cfg.mesh.ny % size);
  int iters = strcmp(cfg.method, "gs") == 0 ? 2 * cfg.steps : cfg.steps;
  double *u = calloc((size_t)(rows + 2) * cfg.mesh.nx, sizeof(double));
  for (int s = 0; s < iters; s++) {
    for (int i = 1; i <= rows; i++)
      for (int j = 0; j < cfg.mesh.nx; j++)
        u[i * cfg.mesh.nx + j] = 0.5 * u[i * cfg.mesh.nx + j] + cfg.dt;
    MPI_Allreduce(MPI_IN_PLACE, u, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  free(u);
  MPI_Finalize();
  return 0;
}
