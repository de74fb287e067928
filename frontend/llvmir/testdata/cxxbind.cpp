// Uses MPI's C++ bindings (MPI-2), which mkvet leaves out of units that
// do not use them: this unit needs them to compile.
#include <mpi.h>

int main(int argc, char **argv) {
  MPI::Init(argc, argv);
  int rank = MPI::COMM_WORLD.Get_rank();
  double x = rank;
  MPI::COMM_WORLD.Allreduce(&x, &x, 1, MPI::DOUBLE, MPI::SUM);
  MPI::Finalize();
  return 0;
}
