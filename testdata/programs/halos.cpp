// Halo buffers as C++ codes keep them: the neighbours in a
// std::vector<int> filled by push_back under conditions on the rank, one
// buffer per face in a std::vector<std::vector<double>>, messages sized by
// each buffer's size(), and a smoothing pass over every buffer by
// range-for.
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

  std::vector<std::vector<double>> faces(2, std::vector<double>(n + 3));
  double total = 0;
  for (int it = 0; it < steps; it++) {
    for (std::vector<double> &f : faces)
      for (size_t i = 0; i < f.size(); i++) {
        f[i] = 0.5 * f[i] + it;
        total += f[i];
      }
    for (size_t k = 0; k < nbrs.size(); k++)
      MPI_Sendrecv_replace(faces[k].data(), (int)faces[k].size(), MPI_DOUBLE, nbrs[k], 7, nbrs[k], 7,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("total %g\n", total);
  MPI_Finalize();
  return 0;
}
