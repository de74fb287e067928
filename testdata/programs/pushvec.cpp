// A halo exchange whose neighbour list is a std::vector of structures
// grown with push_back and emplace_back, as C++ codes build theirs: the
// vector's storage reallocated as it grows (its elements moved into the
// new storage), iterators compared through their base(), loops over the
// list by index (size(), operator[]) and by range-for, message sizes and
// peers read from the elements, one element's work set by the rank.
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Neighbour {
  int rank;
  int count;
  int tag;
};

static double relax(std::vector<double> &u, int len) {
  double s = 0;
  for (int i = 1; i < len; i++) {
    u[i] = 0.5 * (u[i] + u[i - 1]);
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

  std::vector<Neighbour> nbrs;
  nbrs.push_back({(rank + size - 1) % size, n, 1});
  nbrs.push_back({(rank + 1) % size, n, 1});
  Neighbour far = {(rank + 2) % size, n / 2 + 1, 2};
  nbrs.emplace_back(far);
  nbrs.emplace_back(Neighbour{(rank + size - 2) % size, n / 2 + 1, 2});
  // This rank's own cells: work on the list, no message.
  Neighbour self = {rank, n + 3 * rank, 3};
  nbrs.push_back(self);

  std::vector<double> u(2 * n + size + 8, 1.0);
  double total = 0;
  for (int it = 0; it < steps; it++) {
    for (size_t k = 0; k < nbrs.size(); k++) {
      int len = nbrs[k].count;
      if (nbrs[k].tag == 3) {
        total += relax(u, len);
        continue;
      }
      int from = nbrs[k ^ 1].rank;
      MPI_Sendrecv_replace(u.data(), len, MPI_DOUBLE, nbrs[k].rank, nbrs[k].tag, from, nbrs[k].tag,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      total += relax(u, len);
    }
    for (const Neighbour &nb : nbrs)
      for (int i = 0; i < nb.count; i++)
        total += u[i] * nb.tag;
    for (size_t k = 0; k < nbrs.size(); k++)
      for (int i = 0; i < nbrs[k].count; i++)
        u[i] += 0.25 * nbrs[k].tag;
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("total %g\n", total);
  MPI_Finalize();
  return 0;
}
