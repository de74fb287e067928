// One halo buffer per neighbour, as many as the rank has: a
// std::vector<std::vector<double>> whose length is the number of
// neighbours pushed back under conditions on the rank, its buffers walked
// by index and sent by size().
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = atoi(argv[1]);
  int steps = atoi(argv[2]);
  std::vector<int> nbrs;
  if (rank > 0)
    nbrs.push_back(rank - 1);
  if (rank < size - 1)
    nbrs.push_back(rank + 1);
  std::vector<std::vector<double>> halo(nbrs.size(), std::vector<double>(n / 2 + 1));
  double s = 0;
  for (int it = 0; it < steps; it++) {
    for (size_t k = 0; k < halo.size(); k++) {
      for (size_t j = 0; j < halo[k].size(); j++)
        halo[k][j] = 0.5 * halo[k][j] + it;
      MPI_Sendrecv_replace(halo[k].data(), (int)halo[k].size(), MPI_DOUBLE, nbrs[k], 3, nbrs[k], 3,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      s += halo[k][0];
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("s %g\n", s);
  MPI_Finalize();
  return 0;
}
