// vec.cpp: C++ through the frontend: a template, std::vector (calls that may throw
// are invokes), an MPI reduction.
#include <mpi.h>
#include <vector>
template <typename T> static T dot(const std::vector<T> &a, int n) {
	T s = 0;
	for (int i = 0; i < n; i++)
		s += a[i] * a[i];
	return s;
}
int main(int argc, char **argv) {
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = 1000;
	std::vector<double> a(n, 1.0);
	double s = dot(a, n), t;
	MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
