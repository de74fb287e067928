// strargs.cpp: options read the way C++ programs read them, into a small
// settings struct returned by value: each argument becomes a std::string
// and is compared with the option words (==, compare), the operands are
// converted with std::atoi on c_str(), and a bool field picks a path.
// Usage: mpirun -np P strargs [-x] [--check] N STEPS
#include <mpi.h>

#include <cstdlib>
#include <string>

struct Options {
	int n = 100;
	int steps = 3;
	bool twice = false;
	bool check = false;
};

static Options options(int argc, char **argv) {
	Options o;
	int operand = 0;
	for (int i = 1; i < argc; ++i) {
		std::string arg = argv[i];
		if (arg == "-x")
			o.twice = true;
		else if (arg.compare("--check") == 0)
			o.check = true;
		else if (operand++ == 0)
			o.n = std::atoi(arg.c_str());
		else
			o.steps = std::atoi(arg.c_str());
	}
	return o;
}

int main(int argc, char **argv) {
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	Options o = options(argc, argv);
	int local = o.n / size + (rank < o.n % size ? 1 : 0);
	double *u = new double[local + 2];
	for (int i = 0; i < local + 2; ++i)
		u[i] = 1.0;
	int steps = o.twice ? 2 * o.steps : o.steps;
	double sum = 0, all = 0;
	for (int s = 0; s < steps; ++s) {
		for (int i = 1; i <= local; ++i)
			u[i] = 0.5 * (u[i - 1] + u[i + 1]);
		if (o.check) {
			for (int i = 1; i <= local; ++i)
				sum += u[i];
			MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		}
	}
	delete[] u;
	MPI_Finalize();
	return all < 0;
}
