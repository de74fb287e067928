/* A mesh of blocks kept the way adaptive-mesh C codes keep it: a global
 * array of structures and a global array of counts, both allocated in an
 * initialisation routine and read in others; a block reached through a
 * pointer to it (bp = &blocks[n], a routine given &blocks[n]), a walk over
 * the active blocks with a pointer stepped from the first to one past the
 * last, and halo messages whose sizes and peers are fields of the blocks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int number;
  int level;
  int cells[3];
  int nbr;
  double *u;
} block;

block *blocks;
int *work_of;
int num_blocks, max_blocks;
int my_pe, num_pes;

static void set_block(block *bp, int n, int nx) {
  bp->number = (n % 3 == 2) ? -1 : n + my_pe * max_blocks;
  bp->level = n % 2;
  bp->cells[0] = nx + n;
  bp->cells[1] = nx / 2 + 1;
  bp->cells[2] = 2 + bp->level;
  bp->nbr = (my_pe + 1 + n) % num_pes;
}

static void init(int nx) {
  blocks = (block *)malloc(max_blocks * sizeof(block));
  work_of = (int *)malloc(max_blocks * sizeof(int));
  num_blocks = 0;
  for (int n = 0; n < max_blocks; n++) {
    block *bp = &blocks[n];
    set_block(bp, n, nx);
    work_of[n] = bp->cells[0] * bp->cells[1] * bp->cells[2];
    if (bp->number >= 0)
      num_blocks++;
  }
  for (int n = 0; n < max_blocks; n++)
    if (blocks[n].number >= 0)
      blocks[n].u = (double *)calloc(work_of[n], sizeof(double));
}

static double stencil(block *bp) {
  double s = 0;
  for (int k = 0; k < bp->cells[2]; k++)
    for (int j = 0; j < bp->cells[1]; j++)
      for (int i = 0; i < bp->cells[0]; i++) {
        int c = (k * bp->cells[1] + j) * bp->cells[0] + i;
        bp->u[c] = 0.5 * bp->u[c] + 1.0;
        s += bp->u[c];
      }
  return s;
}

static double exchange(void) {
  double sum = 0;
  for (int n = 0; n < max_blocks; n++) {
    block *bp = &blocks[n];
    if (bp->number < 0)
      continue;
    int count = bp->cells[0] * bp->cells[1];
    double *buf = (double *)malloc(count * sizeof(double));
    for (int i = 0; i < count; i++)
      buf[i] = bp->u[i];
    int from = (my_pe - 1 - n + 2 * num_pes * max_blocks) % num_pes;
    MPI_Sendrecv_replace(buf, count, MPI_DOUBLE, bp->nbr, n, from, n, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sum += buf[0];
    free(buf);
  }
  return sum;
}

int main(int argc, char **argv) {
  int nx = 8, steps = 2;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &my_pe);
  MPI_Comm_size(MPI_COMM_WORLD, &num_pes);
  if (argc > 3) {
    max_blocks = atoi(argv[1]);
    nx = atoi(argv[2]);
    steps = atoi(argv[3]);
  }
  init(nx);
  double total = 0;
  for (int ts = 0; ts < steps; ts++) {
    for (block *bp = blocks; bp < blocks + max_blocks; bp++)
      if (bp->number >= 0)
        total += stencil(bp);
    total += exchange();
    long w = 0;
    for (int n = 0; n < max_blocks; n++)
      if (blocks[n].level == 1)
        w += work_of[n];
    MPI_Allreduce(MPI_IN_PLACE, &w, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    total += (double)w;
  }
  if (my_pe == 0)
    printf("blocks %d total %g\n", num_blocks, total);
  MPI_Finalize();
  return 0;
}
