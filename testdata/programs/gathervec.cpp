// gathervec.cpp: block sizes shared the way C++ codes share them: each
// rank's count gathered into a std::vector (MPI_Allgather into counts.data()),
// offsets summed from it, the blocks gathered with MPI_Allgatherv into
// another vector, and loops bounded by the gathered counts, their sum
// (std::accumulate) and the neighbours' counts.
// Usage: mpirun -np P gathervec N STEPS
#include <mpi.h>

#include <cstdlib>
#include <numeric>
#include <vector>

int main(int argc, char **argv) {
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = argc > 1 ? std::atoi(argv[1]) : 100;
	int steps = argc > 2 ? std::atoi(argv[2]) : 2;
	int mine = n / size + (rank < n % size ? 1 : 0);
	std::vector<int> counts(size), displs(size, 0);
	MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
	for (int r = 1; r < size; ++r)
		displs[r] = displs[r - 1] + counts[r - 1];
	std::vector<double> local(mine, 1.0), all(n);
	double s = 0;
	for (int k = 0; k < steps; ++k) {
		MPI_Allgatherv(local.data(), mine, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE,
			       MPI_COMM_WORLD);
		int total = std::accumulate(counts.begin(), counts.end(), 0);
		for (int i = 0; i < total; ++i)
			s += all[i];
		int right = (rank + 1) % size;
		for (int i = 0; i < counts[right]; ++i)
			s += all[displs[right] + i];
	}
	MPI_Finalize();
	return s < 0;
}
