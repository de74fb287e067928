// cxxopts.cpp: options parsed the way C++ programs parse them: each
// argument a std::string compared with ==, values converted by std::stoi,
// a --key=value option recognised by rfind(prefix, 0) == 0 and its value
// taken by substr; a class owning a std::vector member sized from them.
// Usage: mpirun -np P cxxopts [-n N] [-s STEPS] [--scheme=implicit]
#include <mpi.h>
#include <string>
#include <vector>
#include <iostream>
#include <cmath>

struct Options {
  int n = 100;
  int steps = 5;
  std::string scheme = "explicit";
};

static Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-n" && i + 1 < argc) o.n = std::stoi(argv[++i]);
    else if (a == "-s" && i + 1 < argc) o.steps = std::stoi(argv[++i]);
    else if (a.rfind("--scheme=", 0) == 0) o.scheme = a.substr(9);
  }
  return o;
}

class Field {
public:
  Field(int n, int rank, int np) : local_(n / np + (rank < n % np ? 1 : 0)), u_(local_ + 2, 0.0) {}
  int local() const { return local_; }
  void step(bool implicit_) {
    int sweeps = implicit_ ? 4 : 1;
    for (int s = 0; s < sweeps; ++s)
      for (int i = 1; i <= local_; ++i) u_[i] = 0.5 * (u_[i - 1] + u_[i + 1]);
  }
  double sum() const { double t = 0; for (double x : u_) t += x; return t; }
private:
  int local_;
  std::vector<double> u_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  Options o = parse(argc, argv);
  Field f(o.n, rank, np);
  bool imp = o.scheme == "implicit";
  for (int t = 0; t < o.steps; ++t) {
    f.step(imp);
    double s = f.sum(), g;
    MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) std::cout << "done " << o.n << std::endl;
  MPI_Finalize();
}
