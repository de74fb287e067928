// gridvec.cpp: a grid class holding its field in a std::vector<double>
// of (nx + 2) * (rows + 2) values, filled by the vector's constructor
// (std::fill over the storage, a pointer walked to the end pointer), its
// rows a block of ny per rank. Each step exchanges the halo rows with the
// neighbours and relaxes the interior. The sizes come from the command
// line (analysed as parameters, not as the run's values).
// Run: gridvec NX NY STEPS
#include <mpi.h>
#include <cstdlib>
#include <vector>

class Grid {
public:
	Grid(int nx, int rows) : nx_(nx), rows_(rows), u_((nx + 2) * (rows + 2), 1.0), v_(u_) {}
	double *row(int j) { return &u_[j * (nx_ + 2)]; }
	int nx() const { return nx_; }
	int rows() const { return rows_; }
	void relax()
	{
		for (int j = 1; j <= rows_; ++j)
			for (int i = 1; i <= nx_; ++i)
				v_[j * (nx_ + 2) + i] = 0.25 * (u_[j * (nx_ + 2) + i - 1] + u_[j * (nx_ + 2) + i + 1] +
				                                u_[(j - 1) * (nx_ + 2) + i] + u_[(j + 1) * (nx_ + 2) + i]);
		u_.swap(v_);
	}

private:
	int nx_, rows_;
	std::vector<double> u_, v_;
};

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int nx = argc > 1 ? std::atoi(argv[1]) : 16;
	int ny = argc > 2 ? std::atoi(argv[2]) : 16;
	int steps = argc > 3 ? std::atoi(argv[3]) : 1;
	Grid g(nx, ny / size + (rank < ny % size ? 1 : 0));
	int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL, down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	for (int s = 0; s < steps; ++s) {
		MPI_Sendrecv(g.row(g.rows()), g.nx() + 2, MPI_DOUBLE, up, 0, g.row(0), g.nx() + 2, MPI_DOUBLE, down, 0,
		             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Sendrecv(g.row(1), g.nx() + 2, MPI_DOUBLE, down, 1, g.row(g.rows() + 1), g.nx() + 2, MPI_DOUBLE, up, 1,
		             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		g.relax();
	}
	MPI_Finalize();
	return 0;
}
