// outofline.cpp: a class whose constructor and destructor are defined out
// of line, as a class's .cpp file beside its header defines them (clang
// then emits the complete-object constructor and destructor as aliases of
// the base-object ones): one object on the stack, destroyed where its block
// ends, one made by new and destroyed by delete, each with loops over its
// rows in the constructor and the destructor.
// Usage: mpirun -np P outofline N STEPS
#include <mpi.h>

#include <cstdlib>

class Grid {
public:
	Grid(int n, int rank, int size);
	~Grid();
	double sweep() const;

private:
	int n_;
	double *cells_;
	int *owner_;
};

Grid::Grid(int n, int rank, int size) : n_(n / size + (rank < n % size ? 1 : 0))
{
	cells_ = new double[n_];
	owner_ = new int[n_];
	for (int i = 0; i < n_; i++) {
		cells_[i] = i;
		owner_[i] = rank;
	}
}

Grid::~Grid()
{
	// Up to a copy of the bound: a counted loop whose sum reads what
	// the constructor's loop stored through this->owner_ (sweep reads
	// the field itself on every trip).
	long check = 0;
	int m = n_;
	for (int i = 0; i < m; i++)
		check += owner_[i];
	delete[] cells_;
	delete[] owner_;
	if (check < 0)
		MPI_Abort(MPI_COMM_WORLD, 1);
}

double Grid::sweep() const
{
	double s = 0;
	for (int i = 0; i < n_; i++)
		s += cells_[i];
	return s;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = argc > 1 ? std::atoi(argv[1]) : 100;
	int steps = argc > 2 ? std::atoi(argv[2]) : 2;
	double total = 0;
	{
		Grid g(n, rank, size);
		for (int s = 0; s < steps; s++) {
			double x = g.sweep(), all;
			MPI_Allreduce(&x, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
			total += all;
		}
	}
	Grid *coarse = new Grid(n / 2, rank, size);
	total += coarse->sweep();
	delete coarse;
	if (rank == 0 && total < 0)
		MPI_Abort(MPI_COMM_WORLD, 2);
	MPI_Finalize();
	return 0;
}
