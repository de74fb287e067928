// ptrlist.cpp: lists of pointers to objects, as C++ codes keep their
// blocks, tasks and report entries: std::vector<Block *> filled by
// push_back of new objects (a few per rank, and one per local cell in a
// loop too long to run trip by trip), a class that keeps its
// children in a member vector of pointers and adds them through a method
// (on itself and on a child it returned), each list walked by size()
// and its objects deleted through their slots. (Not followed yet: a
// field read through a slot, blocks[b]->id, and lists whose per-rank
// length a loop's test must be run rank by rank to learn.)
// Usage: mpirun -np P ptrlist N STEPS
#include <mpi.h>

#include <cstdlib>
#include <vector>

struct Block {
	int id;
	double w;
	Block(int i) : id(i), w(0.5 * i) {}
};

class Entry {
public:
	explicit Entry(int k) : key(k) {}
	Entry *add(int k)
	{
		Entry *e = new Entry(k);
		children.push_back(e);
		return e;
	}
	int key;
	std::vector<Entry *> children;
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

	// A few blocks per rank, more on the first ranks.
	std::vector<Block *> blocks;
	for (int b = 0; b < 3 + (rank < 2 ? rank : 0); b++)
		blocks.push_back(new Block(rank * 8 + b));
	// One object per local cell, more on the first ranks: too many trips
	// to run one by one.
	std::vector<Block *> cells;
	cells.reserve(local);
	for (int i = 0; i < local; i++)
		cells.push_back(new Block(i));

	Entry doc(0);
	Entry *run = doc.add(1);
	run->add(10);
	run->add(11);
	doc.add(2);
	for (int r = 0; r < rank; r++)
		doc.add(100 + r);

	double s = 0;
	for (int t = 0; t < steps; t++) {
		for (std::size_t b = 0; b < blocks.size(); b++)
			for (int i = 0; i < local; i++)
				s += 0.5 * i + t;
		for (std::size_t c = 0; c < cells.size(); c++)
			s += 1.0;
		for (std::size_t e = 0; e < doc.children.size(); e++)
			s -= 0.25;
	}

	for (std::size_t c = 0; c < cells.size(); c++)
		delete cells[c];
	for (std::size_t b = 0; b < blocks.size(); b++)
		delete blocks[b];
	double total = 0;
	MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	MPI_Finalize();
	return total < 0;
}
