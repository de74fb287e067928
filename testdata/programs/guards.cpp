// guards.cpp: a 2-D relaxation whose loops check their own state and stop
// the run from inside the nest, as application codes do: an iostream
// message and exit() or abort() where a value is out of range, a bad
// neighbour table reported with the rank; std::vector and std::string
// locals make every call inside the loops a C++ invoke.
// Usage: mpirun -np P guards NX NY STEPS
#include <mpi.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

static void check_table(const int *nbr, int n, int size, int rank) {
	for (int i = 0; i < n; i++) {
		if (nbr[i] < -1 || nbr[i] >= size) {
			std::cerr << "rank " << rank << ": neighbour " << i << " is " << nbr[i] << std::endl;
			std::abort();
		}
	}
}

int main(int argc, char **argv) {
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc < 4) {
		if (rank == 0)
			std::cerr << "usage: guards NX NY STEPS" << std::endl;
		MPI_Finalize();
		return 1;
	}
	int nx = std::atoi(argv[1]), ny = std::atoi(argv[2]), steps = std::atoi(argv[3]);
	std::string name = "guards";
	int rows = ny / size + (rank < ny % size ? 1 : 0);
	std::vector<double> u((rows + 2) * nx, 1.0), v((rows + 2) * nx, 0.0);
	std::vector<int> nbr(2);
	nbr[0] = rank > 0 ? rank - 1 : -1;
	nbr[1] = rank < size - 1 ? rank + 1 : -1;
	check_table(nbr.data(), (int)nbr.size(), size, rank);
	long updates = 0;
	for (int s = 0; s < steps; s++) {
		if (nbr[0] >= 0)
			MPI_Sendrecv(&u[nx], nx, MPI_DOUBLE, nbr[0], 0, &u[0], nx, MPI_DOUBLE, nbr[0], 1, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
		if (nbr[1] >= 0)
			MPI_Sendrecv(&u[rows * nx], nx, MPI_DOUBLE, nbr[1], 1, &u[(rows + 1) * nx], nx, MPI_DOUBLE, nbr[1], 0,
				     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (int j = 1; j <= rows; j++) {
			for (int i = 1; i < nx - 1; i++) {
				double x = 0.25 * (u[(j - 1) * nx + i] + u[(j + 1) * nx + i] + u[j * nx + i - 1] + u[j * nx + i + 1]);
				if (x < 0.0 || x > 1.0e6) {
					std::cerr << name << ": value " << x << " out of range at step " << s << " row " << j
						  << " on rank " << rank << std::endl;
					std::exit(2);
				}
				v[j * nx + i] = x;
				updates++;
			}
		}
		u.swap(v);
		double local = 0, total = 0;
		for (int j = 1; j <= rows; j++)
			for (int i = 0; i < nx; i++)
				local += u[j * nx + i];
		MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		if (total != total) {
			std::cerr << name << ": the sum is not a number at step " << s << std::endl;
			std::abort();
		}
	}
	if (rank == 0)
		std::cout << name << ": " << updates << " updates on rank 0" << std::endl;
	MPI_Finalize();
	return 0;
}
