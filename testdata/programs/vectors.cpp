// vectors.cpp: a 1-D smoother written with the C++ standard library the way
// application codes use it: std::vector fields sized at run time, loops
// bounded by size(), a vector filled by push_back after reserve, another
// grown by resize, iterator and range-for loops, a raw-pointer loop over
// data(), std::min on references, and halos exchanged through data().
// Usage: mpirun -np P vectors N STEPS
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

static double norm2(const std::vector<double> &v) {
	double s = 0;
	for (double x : v)
		s += x * x;
	return s;
}

static double sum(const double *first, const double *last) {
	double s = 0;
	for (const double *p = first; p != last; ++p)
		s += *p;
	return s;
}

int main(int argc, char **argv) {
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long n = argc > 1 ? std::atol(argv[1]) : 100;
	int steps = argc > 2 ? std::atoi(argv[2]) : 4;
	long local = n / size + (rank < n % size ? 1 : 0);
	std::vector<double> u(local + 2, 1.0), v(local + 2);
	std::vector<int> owner;
	owner.reserve(size);
	for (int r = 0; r < size; r++)
		owner.push_back(n / size + (r < n % size ? 1 : 0));
	std::vector<double> work;
	work.resize(2 * local);
	long cap = 8;
	long chunk = std::min(cap, local); // a bound through references
	int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
	std::vector<double> coef(steps + 1, 0.5);
	double total = norm2(coef);
	for (int s = 0; s < steps; s++) {
		MPI_Sendrecv(u.data() + 1, 1, MPI_DOUBLE, left, 0, u.data() + local + 1, 1, MPI_DOUBLE, right, 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Sendrecv(u.data() + local, 1, MPI_DOUBLE, right, 1, u.data(), 1, MPI_DOUBLE, left, 1,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (std::size_t i = 1; i + 1 < u.size(); i++)
			v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
		for (std::vector<double>::iterator it = work.begin(); it != work.end(); ++it)
			*it += 1.0;
		for (long i = 0; i < chunk; i++)
			work[i] *= 0.5;
		u.swap(v);
		double loc = sum(u.data(), u.data() + u.size()) + sum(work.data(), work.data() + work.size());
		MPI_Allreduce(&loc, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	long counted = 0;
	for (int c : owner)
		counted += c;
	if (rank == 0 && counted != n)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Finalize();
	return 0;
}
