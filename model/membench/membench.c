/*
 * mkvet membench: the time to stream a triad a[i] = b[i] + s*c[i] over
 * arrays of a given total size, per byte read or written (24 bytes an
 * element: two loads and a store, the way mkvet counts a loop's traffic).
 * Working sets inside a cache level measure that level; one well beyond
 * the last level measures main memory.
 *
 * usage: membench TRIALS BYTES...
 *
 * For each size it prints "triad BYTES SECONDS_PER_BYTE", the best of
 * TRIALS trials, each of enough sweeps to stream about 2 GB.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* sweep is kept out of line so that the compiler cannot fold sweeps. */
__attribute__((noinline)) static void sweep(double *restrict a, const double *restrict b,
					    const double *restrict c, long n, double s)
{
	for (long i = 0; i < n; i++)
		a[i] = b[i] + s * c[i];
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: membench TRIALS BYTES...\n");
		return 2;
	}
	int trials = atoi(argv[1]);
	if (trials < 1) {
		fprintf(stderr, "membench: TRIALS must be positive\n");
		return 2;
	}
	for (int k = 2; k < argc; k++) {
		long bytes = atol(argv[k]);
		long n = bytes / 24;
		if (n < 64) {
			fprintf(stderr, "membench: size %s is below 1536 bytes\n", argv[k]);
			return 2;
		}
		double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
		if (!a || !b || !c) {
			fprintf(stderr, "membench: cannot allocate %ld bytes\n", bytes);
			return 1;
		}
		for (long i = 0; i < n; i++)
			a[i] = 0, b[i] = i, c[i] = 1;
		/* Sweeps per trial: about 0.2 s at 10 GB/s, at least 2, so that
		 * processes started together overlap in most of their trials. */
		long sweeps = 2000000000L / bytes;
		if (sweeps < 2)
			sweeps = 2;
		sweep(a, b, c, n, 0.5); /* touch the pages, warm the caches */
		double best = 0;
		for (int t = 0; t < trials; t++) {
			double t0 = now();
			for (long r = 0; r < sweeps; r++)
				sweep(a, b, c, n, 1.0 / (r + 2));
			double dt = (now() - t0) / ((double)sweeps * 24 * n);
			if (t == 0 || dt < best)
				best = dt;
		}
		double check = 0;
		for (long i = 0; i < n; i += 4096)
			check += a[i];
		printf("triad %ld %.6e\n", bytes, best);
		if (check == 12345.6789)
			printf("#\n");
		free(a), free(b), free(c);
	}
	return 0;
}
