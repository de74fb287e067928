/* Set-up as many C MPI codes write it: rank 0 reads the options, packs
 * them and broadcasts them in its own branch, while the other ranks
 * broadcast and unpack in theirs; error paths that print and exit from
 * inside loops; searches that return or break from inside loops; a list
 * with an entry deleted by shifting the rest down; a variable-length
 * array. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int n = 8, steps = 1, width = 3;
int me, np;
int list[64], kind[64], start[8], count[8], total;

static void usage(const char *word)
{
   fprintf(stderr, "unknown option %s\n", word);
   MPI_Abort(MPI_COMM_WORLD, 1);
}

/* The position of value v in segment s; the program stops if it is not
 * there. */
static int find(int s, int v)
{
   int i;
   for (i = start[s]; i < start[s] + count[s]; i++)
      if (list[i] == v)
         return i;
   fprintf(stderr, "%d not found in segment %d\n", v, s);
   exit(2);
}

static int matches(int have, int want)
{
   return have == want || (want == -1 && have >= 2 && have <= 5);
}

/* Delete entry v of kind k (or of any kind 2..5 when k is -1) from
 * segment s, shifting the entries after it down. */
static void drop(int s, int v, int k)
{
   int j, m;
   total--;
   for (j = start[s]; j < start[s] + count[s]; j++)
      if (list[j] == v && matches(kind[j], k)) {
         for (m = j; m < total; m++) {
            list[m] = list[m + 1];
            kind[m] = kind[m + 1];
         }
         break;
      }
   count[s]--;
   if (count[s]) {
      for (j = s + 1; j < 8; j++)
         start[j]--;
   } else {
      for (j = s; j < 7; j++) {
         count[j] = count[j + 1];
         start[j] = start[j + 1] - 1;
      }
   }
}

int main(int argc, char **argv)
{
   int i, j, k, t, settings[3];
   double *u, sum = 0.0, all;

   MPI_Init(&argc, &argv);
   MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
   MPI_Comm_rank(MPI_COMM_WORLD, &me);
   MPI_Comm_size(MPI_COMM_WORLD, &np);

   if (!me) {
      for (i = 1; i < argc; i++)
         if (!strcmp(argv[i], "-n"))
            n = atoi(argv[++i]);
         else if (!strcmp(argv[i], "-s"))
            steps = atoi(argv[++i]);
         else if (!strcmp(argv[i], "-w"))
            width = atoi(argv[++i]);
         else
            usage(argv[i]);
      settings[0] = n;
      settings[1] = steps;
      settings[2] = width;
      MPI_Bcast(settings, 3, MPI_INT, 0, MPI_COMM_WORLD);
   } else {
      MPI_Bcast(settings, 3, MPI_INT, 0, MPI_COMM_WORLD);
      n = settings[0];
      steps = settings[1];
      width = settings[2];
   }

   /* Eight segments of 8 entries each. */
   total = 64;
   for (i = 0; i < 8; i++) {
      start[i] = 8 * i;
      count[i] = 8;
   }
   for (i = 0; i < 64; i++) {
      list[i] = (i * 7) % 97;
      kind[i] = i % 7;
   }

   u = malloc(sizeof(double) * (n + 2));
   for (i = 0; i < n + 2; i++)
      u[i] = me + i;
   {
      /* How far each point's stencil reaches, in a variable-length
       * array. */
      int reach[n + 2];
      for (i = 0; i <= n + 1; i++)
         reach[i] = (i + me) % (width + 1);
      for (i = 1; i <= n; i++)
         for (k = 0; k < reach[i]; k++)
            sum += u[i];
   }
   for (t = 0; t < steps; t++) {
      for (i = 1; i <= n; i++) {
         if (u[i] < -1.0e30) {
            fprintf(stderr, "step %d: value out of range at %d\n", t, i);
            exit(3);
         }
         for (k = i - width; k <= i + width; k++)
            if (k >= 1 && k <= n)
               sum += 0.5 * u[k];
      }
      /* Which of the ranks' shares holds position t: a walk over the
       * counts that stops where they pass it. */
      for (k = j = 0; j < 8; k += count[j++])
         if (t % 50 <= k + count[j]) {
            sum += j;
            break;
         }
      drop(t % 8, list[find(t % 8, list[start[t % 8] + t % 3])], -1);
      drop((t + 3) % 8, list[start[(t + 3) % 8] + 1], kind[start[(t + 3) % 8] + 1]);
   }
   MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
   if (!me)
      printf("sum %g total %d\n", all, total);
   free(u);
   MPI_Finalize();
   return 0;
}
