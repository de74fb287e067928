// Static objects are constructed before main; the MPI calls of a function
// with objects to destroy are invokes (they may throw).
#include <mpi.h>

#include <vector>

struct Counter {
	int n;
	Counter() : n(3) {}
};

static Counter counter;
static std::vector<double> table(8);

int main(int argc, char **argv) {
	MPI_Init(&argc, &argv);
	std::vector<double> v(4);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return counter.n + (int)table.size() + (int)v.size();
}
