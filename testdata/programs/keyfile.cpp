// Settings read as C++ programs read a key-value file: std::getline over
// an std::ifstream, comment and blank lines skipped by testing the
// string, each line parsed by an std::istringstream into a key and a
// value, the key compared with ==; rank 0 reads, and broadcasts.
#include <mpi.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

struct Settings {
  int nx = 16;
  int steps = 2;
  double dt = 0.5;
};

static bool readSettings(const std::string &path, Settings &s) {
  std::ifstream in(path.c_str());
  if (!in.is_open()) return false;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::string key;
    ss >> key;
    if (key == "nx") ss >> s.nx;
    else if (key == "steps") ss >> s.steps;
    else if (key == "dt") ss >> s.dt;
  }
  return true;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Settings s;
  int v[2] = {s.nx, s.steps};
  if (rank == 0 && readSettings("settings.txt", s)) {
    v[0] = s.nx;
    v[1] = s.steps;
  }
  MPI_Bcast(v, 2, MPI_INT, 0, MPI_COMM_WORLD);
  int local = v[0] / size + (rank < v[0] % size ? 1 : 0);
  std::vector<double> u(local + 2, 1.0);
  for (int t = 0; t < v[1]; t++) {
    for (int i = 1; i <= local; i++)
      u[i] = 0.5 * (u[i - 1] + u[i + 1]);
    double l = u[1], g;
    MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  if (rank == 0) std::cout << u[1] << "\n";
  MPI_Finalize();
  return 0;
}
