// basepart.cpp: a container in libstdc++'s manner (std::map's
// _Rb_tree_impl): its comparator a base of one byte, its header a base
// after it, at byte 8, which clang reaches through the object's bytes.
// Each rank adds its share of n keys and the ones the comparator lets
// through are counted in the header; the count sizes a loop and the
// message each rank sends its left neighbour.
// Run: basepart N STEPS
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Less {
	bool operator()(int a, int b) const { return a < b; }
};

struct KeyCompare {
	Less cmp;
};

struct Header {
	Header *first;
	long count;
	Header() : first(this), count(0) {}
};

struct Bag : KeyCompare, Header {
	void add(int k)
	{
		if (cmp(k, 0))
			return;
		count++;
	}
	long size() const { return count; }
};

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = argc > 1 ? atoi(argv[1]) : 10;
	int steps = argc > 2 ? atoi(argv[2]) : 2;
	int mine = n / size + (rank < n % size);
	Bag b;
	for (int i = 0; i < mine; i++)
		b.add(i - rank);
	std::vector<double> out(b.size() + 1), in(n + 1);
	int left = (rank + size - 1) % size, right = (rank + 1) % size;
	double s = 0;
	for (int t = 0; t < steps; t++) {
		for (long k = 0; k < b.size(); k++)
			out[k] = k + t;
		MPI_Sendrecv(out.data(), (int)b.size(), MPI_DOUBLE, left, 0, in.data(), n + 1, MPI_DOUBLE, right, 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		s += in[0];
	}
	if (rank == 0)
		printf("basepart: %ld %g\n", b.size(), s);
	MPI_Finalize();
	return 0;
}
