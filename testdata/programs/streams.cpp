// Sizes read with C++ streams, as C++ codes read their input: an
// std::ifstream checked with !in, extractions chained (in >> a >> b) into
// an int and a double, a function reading from the istream& it is given,
// and a loop reading values until the stream fails.
#include <mpi.h>
#include <fstream>
#include <iostream>
#include <vector>

static void readRest(std::istream &in, int &extra, int &count) {
  int v;
  count = 0;
  extra = 0;
  while (in >> v) {
    extra += v;
    count++;
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = 10, steps = 1, extra = 0, count = 0;
  double scale = 1.0;
  std::ifstream in("sizes.txt");
  if (!in) {
    if (rank == 0) std::cerr << "no sizes.txt: defaults\n";
  } else {
    in >> n >> steps;
    readRest(in, extra, count);
  }
  in.close();
  std::vector<double> u(n / size + 2 + extra, scale);
  for (int s = 0; s < steps + count; s++) {
    for (size_t i = 1; i + 1 < u.size(); i++)
      u[i] = 0.5 * (u[i - 1] + u[i + 1]);
    double l = u[1], g;
    MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) std::cout << u[1] << std::endl;
  MPI_Finalize();
  return 0;
}
