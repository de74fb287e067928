/*
 * mkvet netbench: MPI ping-pong and send-only microbenchmarks between ranks
 * 0 and 1 over a sweep of message sizes (Pacheco, Parallel Programming with
 * MPI, ch. 11 programming assignment 1; Brim's send-only and ping-pong
 * benchmarks, seed 002 §V.ii). Other ranks wait at the barriers.
 *
 * usage: netbench REPS TRIALS SIZE...
 *
 * For each size rank 0 prints two lines, the best of TRIALS trials of REPS
 * repetitions each:
 *   pingpong SIZE SECONDS   one-way time: round trip / 2
 *   send SIZE SECONDS       time per message of a stream of REPS sends
 *                           (the receiver's final zero-byte reply included)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, nprocs, reps, trials, i, t, r;
	long maxsize = 1, size;
	char *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
	if (argc < 4) {
		if (rank == 0)
			fprintf(stderr, "usage: netbench REPS TRIALS SIZE...\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (nprocs < 2) {
		fprintf(stderr, "netbench: needs 2 processes, got %d (check the launcher)\n", nprocs);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	reps = atoi(argv[1]);
	trials = atoi(argv[2]);
	if (reps < 1 || trials < 1) {
		if (rank == 0)
			fprintf(stderr, "netbench: REPS and TRIALS must be positive\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (i = 3; i < argc; i++) {
		size = atol(argv[i]);
		if (size > maxsize)
			maxsize = size;
	}
	buf = malloc((size_t)maxsize);
	if (buf == NULL) {
		fprintf(stderr, "netbench: cannot allocate %ld bytes\n", maxsize);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	memset(buf, 1, (size_t)maxsize);

	for (i = 3; i < argc; i++) {
		double best_pp = 1e300, best_send = 1e300, t0, dt;
		int n;
		size = atol(argv[i]);
		n = (int)size;
		for (t = 0; t < trials; t++) {
			/* Ping-pong, after one unmeasured round trip. */
			MPI_Barrier(MPI_COMM_WORLD);
			for (r = -1; r < reps; r++) {
				if (r == 0)
					t0 = MPI_Wtime();
				if (rank == 0) {
					MPI_Send(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
					MPI_Recv(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				} else if (rank == 1) {
					MPI_Recv(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
					MPI_Send(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
				}
			}
			dt = (MPI_Wtime() - t0) / (2.0 * reps);
			if (dt < best_pp)
				best_pp = dt;

			/* Send only: a stream of sends, then one zero-byte reply. */
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
			for (r = 0; r < reps; r++) {
				if (rank == 0)
					MPI_Send(buf, n, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
				else if (rank == 1)
					MPI_Recv(buf, n, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			}
			if (rank == 0)
				MPI_Recv(buf, 0, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			else if (rank == 1)
				MPI_Send(buf, 0, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
			dt = (MPI_Wtime() - t0) / reps;
			if (dt < best_send)
				best_send = dt;
		}
		if (rank == 0) {
			printf("pingpong %ld %.9e\n", size, best_pp);
			printf("send %ld %.9e\n", size, best_send);
			fflush(stdout);
		}
	}
	free(buf);
	MPI_Finalize();
	return 0;
}
