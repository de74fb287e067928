// Halo partners kept in a std::vector of structures, as C++ codes keep
// them: vectors sized at construction and filled through operator[] and
// through a reference to an element in a loop, a range-for over one with the
// message sizes and peers read from the elements, and a member function
// given a reference to one element.
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Partner {
  int rank;
  int count;
  int tag;
};

static double smooth(const Partner &p, std::vector<double> &u) {
  double s = 0;
  for (int i = 0; i < p.count; i++) {
    u[i] = 0.5 * (u[i] + u[(i + 1) % p.count]);
    s += u[i];
  }
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = atoi(argv[1]);
  int steps = atoi(argv[2]);

  std::vector<Partner> ring(2);
  ring[0].rank = (rank + size - 1) % size;
  ring[0].count = n + rank;
  ring[0].tag = 1;
  ring[1].rank = (rank + 1) % size;
  ring[1].count = n + (rank + 1) % size;
  ring[1].tag = 1;

  std::vector<Partner> extra(2);
  for (int d = 1; d <= 2; d++) {
    Partner &p = extra[d - 1];
    p.rank = (rank + d) % size;
    p.count = d * n / 2 + 1;
    p.tag = 10 + d;
  }

  std::vector<double> u(3 * n + size + 8, 1.0);
  double total = 0;
  for (int it = 0; it < steps; it++) {
    for (const Partner &p : ring)
      total += smooth(p, u);
    for (size_t k = 0; k < extra.size(); k++) {
      int from = (rank - (extra[k].tag - 10) + 2 * size) % size;
      int len = extra[k].count;
      MPI_Sendrecv_replace(u.data(), len, MPI_DOUBLE, extra[k].rank, extra[k].tag, from, extra[k].tag,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("total %g\n", total);
  MPI_Finalize();
  return 0;
}
