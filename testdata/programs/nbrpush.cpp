// nbrpush.cpp: a std::vector of neighbour records appended to with
// push_back under a test of the rank (the first rank has no left
// neighbour), so that it is empty on some ranks and holds a record on the
// others; the loops then run as far as the records' counts say, by index
// and by range-for.
// Run: nbrpush N STEPS
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Nbr {
	int peer;
	int count;
	int tag;
};

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = argc > 1 ? std::atoi(argv[1]) : 10;
	int steps = argc > 2 ? std::atoi(argv[2]) : 1;
	std::vector<Nbr> left;
	if (rank > 0)
		left.push_back({rank - 1, n + rank, 0});
	double acc = 0;
	for (int t = 0; t < steps; t++)
		for (std::size_t k = 0; k < left.size(); ++k)
			for (int i = 0; i < left[k].count; i++)
				acc += i * t;
	if (rank == 0)
		std::printf("%g\n", acc);
	MPI_Finalize();
	return 0;
}
