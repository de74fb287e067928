// vecrecv.cpp: each rank receives one count from every other rank into
// the element of a std::vector the loop over ranks names (&got[p]),
// completes the receives with MPI_Waitall over a std::vector of
// requests, and works on what arrived. Where the evaluation cannot name
// the element a receive writes, what it may have written is unknown: the
// work is asked for, never counted from the vector's zeros.
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size, n = 5;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 1)
		n = atoi(argv[1]);
	std::vector<int> got(size, 0);
	std::vector<MPI_Request> reqs;
	int mine = n + rank;
	for (int p = 0; p < size; p++) {
		if (p == rank)
			continue;
		reqs.push_back(MPI_REQUEST_NULL);
		MPI_Irecv(&got[p], 1, MPI_INT, p, 0, MPI_COMM_WORLD, &reqs.back());
	}
	for (int p = 0; p < size; p++) {
		if (p == rank)
			continue;
		MPI_Send(&mine, 1, MPI_INT, p, 0, MPI_COMM_WORLD);
	}
	MPI_Waitall((int)reqs.size(), reqs.data(), MPI_STATUSES_IGNORE);
	double s = 0, total;
	for (int p = 0; p < size; p++)
		for (int i = 0; i < got[p]; i++)
			s += i;
	MPI_Reduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%g\n", total);
	MPI_Finalize();
	return 0;
}
