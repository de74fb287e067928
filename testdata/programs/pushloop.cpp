// pushloop.cpp: lists filled by push_back in loops of many trips after
// reserve(), as codes fill their send lists and weights before walking
// them by size(): each append moves the vector's end pointer one element,
// in libstdc++'s emplace_back behind its test of the capacity, and the
// loops are too long for a run of each trip. (A list of structures filled
// so is not followed yet: its pointers' test is not analysed.)
// Usage: mpirun -np P pushloop N STEPS
#include <mpi.h>

#include <cstdlib>
#include <vector>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = atoi(argv[1]);
	int steps = atoi(argv[2]);
	int local = n / size + (rank < n % size ? 1 : 0);

	std::vector<int> ids;
	ids.reserve(local);
	for (int i = 0; i < local; i++)
		ids.push_back(rank * local + i);
	std::vector<long> halo;
	halo.reserve(2 * local + 1);
	for (int i = 0; i <= 2 * local; i++)
		halo.emplace_back(i + 1L);
	std::vector<double> w;
	w.reserve(local / 3 + 7);
	for (int i = 0; i < local / 3 + 7; i++)
		w.push_back(i * 0.25);

	double s = 0;
	for (int t = 0; t < steps; t++) {
		for (std::size_t i = 0; i < ids.size(); i++)
			s += ids[i];
		for (std::size_t f = 0; f < halo.size(); f++)
			s += halo[f];
		for (std::size_t i = 0; i < w.size(); i++)
			s += w[i];
	}

	double total = 0;
	MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	MPI_Finalize();
	return total < 0;
}
