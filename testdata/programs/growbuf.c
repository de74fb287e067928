/* growbuf.c -- C lists filled through small functions, as C codes fill
   their send buffers and particle lists: push(&b, x) stores at b->n and
   increments it, put(&c, x) stores through a cursor and moves it, each in
   a loop too long to run trip by trip; then loops to b.n and to the
   cursor. (Before, the loop to b.n was counted once, marked exact: the
   count field the calls changed was left at its value before them.) */
#include <mpi.h>
#include <stdlib.h>

typedef struct {
  double *data;
  int n, cap;
} Buf;

typedef struct {
  double *p, *end;
} Cursor;

static void push(Buf *b, double x) { b->data[b->n++] = x; }

static void put(Cursor *c, double x) {
  *c->p = x;
  c->p++;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = atoi(argv[1]);
  int steps = atoi(argv[2]);
  int local = n / size + (rank < n % size ? 1 : 0);
  Buf b;
  b.cap = local;
  b.n = 0;
  b.data = malloc(local * sizeof(double));
  for (int i = 0; i < local; i++)
    push(&b, i + rank);
  double *store = malloc(2 * (size_t)local * sizeof(double));
  Cursor c = {store, store + 2 * local};
  for (int i = 0; i < 2 * local; i++)
    put(&c, i);
  double s = 0;
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < b.n; i++)
      s += b.data[i];
    for (double *q = store; q < c.p; q++)
      s += *q;
  }
  double total = 0;
  MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  free(b.data);
  free(store);
  MPI_Finalize();
  return total < 0;
}
