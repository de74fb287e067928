/* requests.c: each rank learns from its neighbours how much work they
 * hand it, through MPI_Irecv posted before the matching MPI_Isend and
 * completed by MPI_Waitall; it then takes the next piece as its message
 * arrives (MPI_Testany, MPI_Testsome with their indices, MPI_Test),
 * waits only for the sends whose request is not MPI_REQUEST_NULL (or
 * was freed), and
 * works through a list until every direction is done, each step the
 * direction with the highest priority, which differs by rank. A token
 * passed both ways after the sends makes the receives complete before
 * they are tested (messages from one sender match in order).
 * Run: requests n ntask */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double work(int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += 0.5 * i;
	return s;
}

int main(int argc, char **argv)
{
	int rank, size, n = 100, ntask = 6;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2) {
		n = atoi(argv[1]);
		ntask = atoi(argv[2]);
	}
	int nbr[2] = {rank - 1, rank + 1};
	if (rank == 0)
		nbr[0] = MPI_PROC_NULL;
	if (rank == size - 1)
		nbr[1] = MPI_PROC_NULL;
	int mine[2] = {ntask + rank, ntask + 2 * (size - rank)};
	int theirs[2] = {0, 0}, left[2], idx, flag, outcount, indices[2], tok = rank, tok2;
	MPI_Request rreq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL}, sreq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
	double s = 0, total;

	/* The counts first: posted, sent, completed together. */
	int cnt[2] = {0, 0};
	MPI_Request creq[4];
	int nreq = 0;
	for (int d = 0; d < 2; d++)
		if (nbr[d] != MPI_PROC_NULL)
			MPI_Irecv(&cnt[d], 1, MPI_INT, nbr[d], 10 + 1 - d, MPI_COMM_WORLD, &creq[nreq++]);
	for (int d = 0; d < 2; d++)
		if (nbr[d] != MPI_PROC_NULL)
			MPI_Isend(&mine[d], 1, MPI_INT, nbr[d], 10 + d, MPI_COMM_WORLD, &creq[nreq++]);
	MPI_Waitall(nreq, creq, MPI_STATUSES_IGNORE);
	s += work(n * (cnt[0] + cnt[1]));

	for (int d = 0; d < 2; d++)
		if (nbr[d] != MPI_PROC_NULL) {
			MPI_Irecv(&theirs[d], 1, MPI_INT, nbr[d], 1 - d, MPI_COMM_WORLD, &rreq[d]);
			MPI_Isend(&mine[d], 1, MPI_INT, nbr[d], d, MPI_COMM_WORLD, &sreq[d]);
		}
	MPI_Sendrecv(&tok, 1, MPI_INT, nbr[1], 7, &tok2, 1, MPI_INT, nbr[0], 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Sendrecv(&tok, 1, MPI_INT, nbr[0], 8, &tok2, 1, MPI_INT, nbr[1], 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

	MPI_Testany(2, rreq, &idx, &flag, MPI_STATUS_IGNORE);
	if (flag && idx != MPI_UNDEFINED)
		s += work(n * (idx + 1));
	MPI_Testsome(2, rreq, &outcount, indices, MPI_STATUSES_IGNORE);
	if (outcount != MPI_UNDEFINED)
		for (int k = 0; k < outcount; k++)
			s += work(3 * n * (indices[k] + 1));
	flag = 0;
	while (!flag)
		MPI_Test(&rreq[0], &flag, MPI_STATUS_IGNORE);
	for (int d = 0; d < 2; d++)
		if (sreq[d] != MPI_REQUEST_NULL)
			MPI_Wait(&sreq[d], MPI_STATUS_IGNORE);
	/* A request freed on odd ranks is MPI_REQUEST_NULL there. */
	MPI_Request fr;
	MPI_Isend(&tok, 1, MPI_INT, rank, 9, MPI_COMM_WORLD, &fr);
	if (rank % 2)
		MPI_Request_free(&fr);
	MPI_Recv(&tok2, 1, MPI_INT, rank, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	if (fr != MPI_REQUEST_NULL)
		MPI_Wait(&fr, MPI_STATUS_IGNORE);

	left[0] = theirs[0];
	left[1] = theirs[1];
	while (left[0] > 0 || left[1] > 0) {
		int cur = 0, best = -1;
		for (int d = 0; d < 2; d++)
			if (left[d] > 0 && left[d] + (d + 1) * rank > best) {
				best = left[d] + (d + 1) * rank;
				cur = d;
			}
		s += work(n * (cur + 1));
		left[cur]--;
	}
	MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%g\n", total);
	MPI_Finalize();
	return 0;
}
