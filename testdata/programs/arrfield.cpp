// arrfield.cpp: sizes kept in arrays inside structures: a constant
// std::array of sweep counts walked by a range-for, and a C-style
// structure whose array field has a static initialiser, copied whole into
// a local and then changed from the command line. Each rank works on its
// share of the copy's extents.
// Run: arrfield N STEPS
#include <mpi.h>
#include <array>
#include <cstdlib>

struct shape {
	int dims[3];
	int steps;
};

static shape defaults = {{6, 4, 2}, 1};

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	shape s = defaults;
	if (argc > 1)
		s.dims[0] = std::atoi(argv[1]);
	if (argc > 2)
		s.steps = std::atoi(argv[2]);
	const std::array<int, 3> sweeps{{2, 1, 3}};
	double acc = 0;
	for (int t = 0; t < s.steps; ++t)
		for (int reps : sweeps)
			for (int r = 0; r < reps; ++r)
				for (int k = 0; k < s.dims[2]; ++k)
					for (int j = rank; j < s.dims[1]; j += size)
						for (int i = 0; i < s.dims[0]; ++i)
							acc += i + j + k;
	double all;
	MPI_Reduce(&acc, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
