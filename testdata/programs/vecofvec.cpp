// vecofvec.cpp: std::vector sized the ways C++ codes size them, then
// walked by size(): vectors of vectors (a row per neighbour, resized in a
// loop; rows copied from a prototype row), a vector resized after it is
// made, the size read through operator[] on every trip, and two loops
// over one name of two types (int i, then std::size_t i). The inner
// vectors' constructors set their pointers through the part of the
// vector they are members of (_Vector_impl_data), which size() reads
// through the whole vector. Sizes from the command line, split over the
// ranks with a remainder, past what a run of each loop affords.
// Usage: mpirun -np P vecofvec N STEPS
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

	int nrows = 2 + size % 3;
	std::vector<std::vector<double> > rows(nrows);
	for (int r = 0; r < nrows; r++)
		rows[r].resize(local / (r + 1));
	std::vector<std::vector<double> > halo(3, std::vector<double>(local / 4 + 1));
	std::vector<double> a;
	a.resize(local);

	double s = 0;
	for (int i = 0; i < steps; i++)
		s += i;
	for (int t = 0; t < steps; t++) {
		for (std::size_t r = 0; r < rows.size(); r++)
			for (std::size_t j = 0; j < rows[r].size(); j++)
				s += rows[r][j] + j;
		for (std::size_t j = 0; j < halo[1].size(); j++)
			s += halo[1][j];
		for (std::size_t i = 0; i < a.size(); i++)
			s += a[i] * 0.5;
	}

	double total = 0;
	MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	MPI_Finalize();
	return total < 0;
}
