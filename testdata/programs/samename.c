/* A function whose parameter has the function's own name, legal C that
 * the lifter once failed on (the result and the parameter shared a
 * variable). */
#include <mpi.h>
#include <stdlib.h>

int count(int count)
{
   int s = 0;
   for (int i = 0; i < count; i++)
      s += i;
   return s;
}

int main(int argc, char **argv)
{
   int me, n, t = 0;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &me);
   n = atoi(argv[1]);
   for (int k = 0; k < 3; k++)
      t += count(n + k + me);
   MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
   MPI_Finalize();
   return t < 0;
}
