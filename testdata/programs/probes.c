/* probes.c: messages whose length the receiver learns from them. Each
 * rank sends its right neighbour a list whose length depends on its rank;
 * the neighbour sizes its buffer by MPI_Probe and MPI_Get_count and
 * receives from the status's MPI_SOURCE. Then each rank receives up to
 * a bound from its left neighbour and counts what came with
 * MPI_Get_count on the receive's status, and polls MPI_Iprobe for a
 * third message (sent before a token that is received first, so it has
 * arrived). Run: probes n steps */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, n = 10, steps = 2, got, flag = 0, tok = 0;
	MPI_Status st;
	double s = 0, total;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2) {
		n = atoi(argv[1]);
		steps = atoi(argv[2]);
	}
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	int len = n + 3 * rank;
	int *out = malloc((len + 2 * n) * sizeof(int));
	for (int i = 0; i < len + 2 * n; i++)
		out[i] = i;
	for (int t = 0; t < steps; t++) {
		MPI_Request rq[3];
		MPI_Isend(out, len + t, MPI_INT, right, 5, MPI_COMM_WORLD, &rq[0]);
		MPI_Probe(left, 5, MPI_COMM_WORLD, &st);
		int cnt;
		MPI_Get_count(&st, MPI_INT, &cnt);
		int *in = malloc(cnt * sizeof(int));
		MPI_Recv(in, cnt, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (int i = 0; i < cnt; i++)
			s += in[i];
		free(in);

		MPI_Isend(out, n + rank % 2, MPI_INT, right, 6, MPI_COMM_WORLD, &rq[1]);
		int buf[1024];
		MPI_Recv(buf, 1024, MPI_INT, left, 6, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_INT, &got);
		for (int i = 0; i < got; i++)
			s += 0.5 * buf[i];

		MPI_Isend(out, 2 * n, MPI_INT, right, 7, MPI_COMM_WORLD, &rq[2]);
		MPI_Sendrecv(&rank, 1, MPI_INT, right, 8, &tok, 1, MPI_INT, left, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		flag = 0;
		while (!flag)
			MPI_Iprobe(left, 7, MPI_COMM_WORLD, &flag, &st);
		MPI_Get_count(&st, MPI_INT, &got);
		MPI_Recv(buf, got, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (int i = 0; i < got + tok; i++)
			s -= 0.25;
		MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
	}
	MPI_Reduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%g\n", total);
	MPI_Finalize();
	return 0;
}
