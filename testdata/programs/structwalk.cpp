// structwalk.cpp: arrays of structures walked by pointers, as C and C++
// codes walk their cells and particles: std::vector<Node>(n) and
// std::vector<Node>(n, value), whose constructors fill the storage with
// a pointer loop over structures (libstdc++'s __fill_a1), a malloc'd array
// walked to its end (c != cells + m), and a walk by two elements to a
// bound taken from data() and size(). Sizes from the command line, split
// over the ranks with a remainder, past what a run of each loop affords.
// Usage: mpirun -np P structwalk N STEPS
#include <mpi.h>

#include <cstdlib>
#include <vector>

struct Node {
	double x, y;
	int id;
};

struct Cell {
	double v[3];
	int owner;
};

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = atoi(argv[1]);
	int steps = atoi(argv[2]);
	int local = n / size + (rank < n % size ? 1 : 0);

	std::vector<Node> nodes(local);
	Node proto = {1.0, 2.0, rank};
	std::vector<Node> copies(local / 2 + 1, proto);
	Cell *cells = (Cell *)malloc(sizeof(Cell) * (local + 3));

	double s = 0;
	for (int t = 0; t < steps; t++) {
		for (std::size_t i = 0; i < nodes.size(); i++)
			s += nodes[i].x;
		for (Cell *c = cells; c != cells + local + 3; ++c)
			c->owner = rank;
		const Node *end = copies.data() + copies.size();
		for (const Node *p = copies.data(); p < end; p += 2)
			s += p->y;
	}
	free(cells);

	double total = 0;
	MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	MPI_Finalize();
	return total < 0;
}
