/* A table of work items in a global array of structures, filled by one
 * function and read by others, as C codes keep their neighbour lists and
 * task tables: each item's length and peer come from the table. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int len;
  int peer;
  char kind;
} Item;

static Item items[8];
static int nitems = 0;

static void addItem(int len, int peer, char kind) {
  items[nitems].len = len;
  items[nitems].peer = peer;
  items[nitems].kind = kind;
  nitems++;
}

static double work(const Item *it, double *buf) {
  double s = 0;
  for (int i = 0; i < it->len; i++)
    s += buf[i];
  return s;
}

int main(int argc, char **argv) {
  int rank, size, n = 10, steps = 2;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 2) {
    n = atoi(argv[1]);
    steps = atoi(argv[2]);
  }
  addItem(n, (rank + 1) % size, 's');
  addItem(2 * n, (rank + size - 1) % size, 'r');
  addItem(n / 2 + rank, rank, 'c');
  double *buf = calloc(4 * n + size, sizeof(double));
  double s = 0;
  for (int t = 0; t < steps; t++) {
    for (int k = 0; k < nitems; k++) {
      if (items[k].kind == 's' && items[k].peer != rank)
        MPI_Send(buf, items[k].len, MPI_DOUBLE, items[k].peer, k, MPI_COMM_WORLD);
      else if (items[k].kind == 'r' && items[k].peer != rank)
        MPI_Recv(buf, items[k].len, MPI_DOUBLE, items[k].peer, k - 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      s += work(&items[k], buf);
    }
  }
  double tot;
  MPI_Reduce(&s, &tot, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%g\n", tot);
  free(buf);
  MPI_Finalize();
  return 0;
}
