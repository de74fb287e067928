/*
 * mkvet membench: how fast this machine moves data from a working set of a
 * given size, for the ways loops walk memory (mkvet's memory model, issue
 * 47). Working sets inside a cache level measure that level; one well
 * beyond the last level measures main memory.
 *
 * usage: membench TRIALS KERNEL BYTES...
 *
 * KERNEL is one of
 *   triad   a[i] = b[i] + s*c[i] over three arrays: seconds per byte read or
 *           written (24 bytes an element: two loads and a store, the way
 *           mkvet counts a loop's traffic);
 *   move    memcpy of one half of the working set to the other: seconds
 *           per byte read or written (the library's block move, which
 *           compilers put in place of a loop that only copies one array's
 *           consecutive elements to another's);
 *   stride  y[k] += x[idx[k]] with idx stepping STRIDE bytes (16 pages and
 *           a line, so that every access is in a line and a page of its
 *           own, as a loop running across the planes of an array does)
 *           through the working set until every line was read: seconds
 *           per access;
 *   gather  the same loop with idx a random permutation of the lines of x
 *           (a sparse product's independent loads): seconds per access;
 *   walk    y[k] += x[k*plane + o], a walk across PLANES planes of the
 *           working set inside a loop over the lines o of a plane, one
 *           access a line: the strided access of a loop whose planes fit
 *           the TLB (stride above touches a page the TLB does not hold on
 *           every access): seconds per access;
 *   chase   a walk of a random cycle through the lines of the working set,
 *           each load's address read by the previous load: seconds per
 *           access, the latency of the level (used to find the levels
 *           where the kernel does not describe them);
 *   unit    five loops over data in the nearest cache (a triad, a
 *           7-point stencil, a dot product, an FFT butterfly, a gather),
 *           each timed per element and divided by the work units mkvet's
 *           default weights count in one of its iterations: the seconds of
 *           a work unit on this processor in loops of each kind, the
 *           computation side of the memory model. BYTES is the kernel's
 *           number, 0 to 4;
 *   touch   a loop storing to every element of memory freshly mapped from
 *           the kernel, then the same loop again: seconds per byte the
 *           first pass takes beyond the second (the page faults and the
 *           clearing of each page the first store to it costs, which a
 *           program pays the first time it writes an array it allocated
 *           or its static storage).
 * For each size it prints "KERNEL BYTES SECONDS", the best of TRIALS
 * trials, each of enough sweeps to take about 0.1 s.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64
#define STRIDE (16 * 4096 + LINE)

/* PLANES is how many planes the walk crosses before it moves to the next
 * line: as many pages as a loop across the planes of a block of a 3-D
 * array touches, fewer than a first-level TLB holds. */
#define PLANES 32

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* The kernels are kept out of line so that the compiler cannot fold
 * sweeps; each returns a value the caller prints only when it is
 * impossible, so that no sweep is dead code. */

__attribute__((noipa)) static void triad(double *restrict a, const double *restrict b,
					    const double *restrict c, long n, double s)
{
	for (long i = 0; i < n; i++)
		a[i] = b[i] + s * c[i];
}

/* move is the library's block move, kept out of line so that no sweep is
 * folded into the next. */
__attribute__((noipa)) static void move(char *restrict y, const char *restrict x, long n)
{
	memcpy(y, x, n);
}

/* gather is the loop shape that reads through an index, as a sparse
 * product or a transposition does: y[i] += x[idx[i]], y and idx
 * contiguous. Its time per access is the single-line access's, with the
 * streams a loop of this shape moves beside it overlapped. */
__attribute__((noipa)) static double gather(double *restrict y, const double *restrict x, const int32_t *restrict idx, long n)
{
	for (long i = 0; i < n; i++)
		y[i] += x[idx[i]];
	return y[n / 2];
}

/* planewalk is the loop shape of a walk across the planes of an array,
 * y[k] += x[k*plane + o] over k inside a loop over o, one double of x a
 * line (o steps by a line): a plane apart within the inner loop, the next
 * line of each plane on the next outer iteration. */
__attribute__((noipa)) static double planewalk(double *restrict y, const double *restrict x, long planes, long plane)
{
	const long w = LINE / sizeof(double);
	for (long o = 0; o < plane; o++)
		for (long k = 0; k < planes; k++)
			y[k] += x[(k * plane + o) * w];
	return y[planes / 2];
}

__attribute__((noipa)) static void *chase(void **p, long n)
{
	for (long i = 0; i < n; i++)
		p = (void **)*p;
	return p;
}

static uint64_t rng = 88172645463325252ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* shuffle sets perm to a random permutation of 0..n-1. */
static void shuffle(long *perm, long n)
{
	for (long i = 0; i < n; i++)
		perm[i] = i;
	for (long i = n - 1; i > 0; i--) {
		long j = (long)(next() % (uint64_t)(i + 1));
		long t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
}

static long gcd(long a, long b)
{
	while (b) {
		long t = a % b;
		a = b;
		b = t;
	}
	return a;
}


/* The unit kernels, the shapes most loop nests of scientific codes take,
 * with their work in mkvet's default weights (an add or a multiply 1, a
 * load 1, a store 2, a chain of dependent adds carried from one iteration
 * to the next 4 an add; a complex operation counts as one, as the
 * frontend counts Fortran's): a triad 6 and a 7-point stencil over a 3-D
 * block with run-time extents 14, both vectorised; a dot product 4 (its
 * chain); a complex FFT butterfly (two complex loads, an add, a subtract,
 * a multiply, two complex stores) 9; a gather through an index array,
 * which compilers leave scalar, 6 (three loads, an add, a store). */
static const double unitWork[5] = {6, 14, 4, 9, 6};

__attribute__((noipa)) static void ustencil(double *restrict a, const double *restrict b, long nx, long ny, long nz, double q)
{
	for (long k = 1; k < nz - 1; k++)
		for (long j = 1; j < ny - 1; j++)
			for (long i = 1; i < nx - 1; i++)
				a[i + nx * (j + ny * k)] = q * (b[i - 1 + nx * (j + ny * k)] + b[i + 1 + nx * (j + ny * k)] +
								b[i + nx * (j - 1 + ny * k)] + b[i + nx * (j + 1 + ny * k)] +
								b[i + nx * (j + ny * (k - 1))] + b[i + nx * (j + ny * (k + 1))]);
}

__attribute__((noipa)) static double udot(const double *a, const double *b, long n)
{
	double s = 0;
	for (long i = 0; i < n; i++)
		s = s + a[i] * b[i];
	return s;
}

/* ubutterfly is one pass of a radix-2 FFT over lk pairs of columns of n
 * complex numbers (real and imaginary parts in separate arrays). */
__attribute__((noipa)) static void ubutterfly(double *restrict yr, double *restrict yi, const double *restrict xr,
					      const double *restrict xi, long n, long lk, double ur, double ui)
{
	for (long k = 0; k < lk; k++)
		for (long j = 0; j < n; j++) {
			double ar = xr[j + n * k], ai = xi[j + n * k];
			double br = xr[j + n * (k + lk)], bi = xi[j + n * (k + lk)];
			yr[j + n * 2 * k] = ar + br;
			yi[j + n * 2 * k] = ai + bi;
			double dr = ar - br, di = ai - bi;
			yr[j + n * (2 * k + 1)] = ur * dr - ui * di;
			yi[j + n * (2 * k + 1)] = ur * di + ui * dr;
		}
}

/* unit returns the seconds per work unit of unit kernel k (0..4), the
 * best of trials, over data in the nearest cache (16 KiB an array; the
 * gather's x and y half of that, so that its three arrays fit too). */
static double unit(int k, int trials, double *sink)
{
	enum { N = 2048, X = 16, G = N / 2 };
	static double a[N], b[N], c[N], d[N];
	static int32_t idx[G];
	static long perm[G];
	for (long i = 0; i < N; i++)
		a[i] = 0, b[i] = i & 15, c[i] = 1, d[i] = 0.5;
	shuffle(perm, G);
	for (long i = 0; i < G; i++)
		idx[i] = (int32_t)perm[i];
	/* Iterations of one sweep of each kernel. */
	const long iters[5] = {N, (X - 2) * (X - 2) * (N / (X * X) - 2), N, 16 * (N / 64), G};
	long sweeps = 40000000 / iters[k];
	double best = 0;
	for (int t = 0; t < trials; t++) {
		double t0 = now();
		for (long r = 0; r < sweeps; r++) {
			double q = 1.0 / (r + 2);
			switch (k) {
			case 0:
				triad(a, b, c, N, q);
				break;
			case 1:
				ustencil(a, b, X, X, N / (X * X), q);
				break;
			case 2:
				*sink += udot(b, c, N);
				break;
			case 3:
				ubutterfly(a, d, b, c, 16, N / 64, q, 0.5);
				break;
			case 4:
				*sink += gather(a, b, idx, G);
				break;
			}
		}
		double dt = (now() - t0) / ((double)sweeps * iters[k]);
		if (t == 0 || dt < best)
			best = dt;
	}
	*sink += a[7] + d[9];
	return best / unitWork[k];
}

/* fill stores v to n doubles: the loop a program initialises an array
 * with. */
__attribute__((noipa)) static void fill(double *a, long n, double v)
{
	for (long i = 0; i < n; i++)
		a[i] = v;
}

/* touch returns the seconds per byte the first pass of fill over bytes
 * of freshly mapped memory takes beyond a second pass over the same
 * memory, the best of trials, each over a mapping of its own. */
static double touch(long bytes, int trials, double *sink)
{
	long n = bytes / (long)sizeof(double);
	double best = -1;
	for (int t = 0; t < trials; t++) {
		double *a = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (a == MAP_FAILED)
			return -1;
		double t0 = now();
		fill(a, n, 0.0);
		double t1 = now();
		fill(a, n, 1.0);
		double t2 = now();
		double dt = ((t1 - t0) - (t2 - t1)) / (double)bytes;
		*sink += a[n / 2];
		munmap(a, (size_t)bytes);
		if (dt < 0)
			dt = 0;
		if (best < 0 || dt < best)
			best = dt;
	}
	/* A time of 0 would read as "not measured": the least a first touch
	 * can add is taken as a picosecond a byte. */
	return best > 1e-12 ? best : 1e-12;
}

/* measure runs one kernel over a working set of the given bytes and
 * returns the best time per unit (byte or access) over trials. */
static double measure(const char *kernel, long bytes, int trials, double *sink)
{
	double best = 0;
	if (strcmp(kernel, "unit") == 0)
		return bytes >= 0 && bytes < 5 ? unit((int)bytes, trials, sink) : -2;
	if (strcmp(kernel, "touch") == 0)
		return touch(bytes, trials, sink);
	if (strcmp(kernel, "triad") == 0) {
		long n = bytes / 24;
		double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
		if (!a || !b || !c)
			return -1;
		for (long i = 0; i < n; i++)
			a[i] = 0, b[i] = i, c[i] = 1;
		long sweeps = 1000000000L / bytes;
		if (sweeps < 2)
			sweeps = 2;
		triad(a, b, c, n, 0.5); /* touch the pages, warm the caches */
		for (int t = 0; t < trials; t++) {
			double t0 = now();
			for (long r = 0; r < sweeps; r++)
				triad(a, b, c, n, 1.0 / (r + 2));
			double dt = (now() - t0) / ((double)sweeps * 24 * n);
			if (t == 0 || dt < best)
				best = dt;
		}
		for (long i = 0; i < n; i += 4096)
			*sink += a[i];
		free(a), free(b), free(c);
		return best;
	}
	if (strcmp(kernel, "move") == 0) {
		long h = bytes / 2;
		char *x = malloc(h), *y = malloc(h);
		if (!x || !y)
			return -1;
		memset(x, 1, h);
		memset(y, 0, h);
		long sweeps = 1000000000L / bytes;
		if (sweeps < 2)
			sweeps = 2;
		move(y, x, h);
		for (int t = 0; t < trials; t++) {
			double t0 = now();
			for (long r = 0; r < sweeps; r++) {
				move(y, x, h);
				x[r % h] = y[(r * 7) % h]; /* no sweep is the last's repeat */
			}
			double dt = (now() - t0) / ((double)sweeps * 2 * h);
			if (t == 0 || dt < best)
				best = dt;
		}
		*sink += y[h / 2];
		free(x), free(y);
		return best;
	}
	long lines = bytes / LINE;
	long *perm = malloc(lines * sizeof *perm);
	if (!perm)
		return -1;
	shuffle(perm, lines);
	if (strcmp(kernel, "walk") == 0) {
		/* A walk across PLANES planes of the working set, each a whole,
		 * odd number of lines (no power-of-two stride, whose conflicts
		 * in the caches' sets are priced apart). */
		long planes = PLANES, plane = lines / PLANES;
		if (plane % 2 == 0)
			plane--;
		if (plane < 1)
			plane = 1, planes = lines;
		double *x = malloc(lines * LINE), *y = calloc(planes, sizeof(double));
		if (!x || !y)
			return -1;
		for (long i = 0; i < lines * (LINE / (long)sizeof(double)); i++)
			x[i] = i & 7;
		long n = planes * plane;
		long sweeps = 20000000L / n;
		if (sweeps < 2)
			sweeps = 2;
		*sink += planewalk(y, x, planes, plane);
		for (int t = 0; t < trials; t++) {
			double t0 = now();
			for (long r = 0; r < sweeps; r++)
				*sink += planewalk(y, x, planes, plane);
			double dt = (now() - t0) / ((double)sweeps * n);
			if (t == 0 || dt < best)
				best = dt;
		}
		free(x), free(y), free(perm);
		return best;
	}
	if (strcmp(kernel, "gather") == 0 || strcmp(kernel, "stride") == 0) {
		/* Both run y[k] += x[idx[k]], one double of x a line: idx walks
		 * the lines in a random order (gather) or STRIDE bytes apart
		 * modulo the working set (stride; the step in lines coprime to
		 * their number, so that every line is read once a sweep). The
		 * index and y streams are contiguous, 12 bytes an access. */
		double *x = malloc(lines * LINE), *y = calloc(lines, sizeof(double));
		int32_t *idx = malloc(lines * sizeof *idx);
		if (!x || !y || !idx)
			return -1;
		for (long i = 0; i < lines * (LINE / (long)sizeof(double)); i++)
			x[i] = i & 7;
		long step = STRIDE / LINE;
		while (gcd(step, lines) != 1)
			step++;
		for (long i = 0, k = 0; i < lines; i++) {
			long line = kernel[0] == 'g' ? perm[i] : k;
			idx[i] = (int32_t)(line * (LINE / (long)sizeof(double)));
			k = (k + step) % lines;
		}
		long sweeps = 20000000L / lines;
		if (sweeps < 2)
			sweeps = 2;
		*sink += gather(y, x, idx, lines);
		for (int t = 0; t < trials; t++) {
			double t0 = now();
			for (long r = 0; r < sweeps; r++)
				*sink += gather(y, x, idx, lines);
			double dt = (now() - t0) / ((double)sweeps * lines);
			if (t == 0 || dt < best)
				best = dt;
		}
		free(x), free(y), free(idx), free(perm);
		return best;
	}
	if (strcmp(kernel, "chase") == 0) {
		void **p = malloc(lines * LINE);
		if (!p)
			return -1;
		long w = LINE / sizeof(void *);
		for (long i = 0; i < lines; i++)
			p[perm[i] * w] = &p[perm[(i + 1) % lines] * w];
		long steps = 2000000L;
		void *q = chase(&p[perm[0] * w], lines);
		for (int t = 0; t < trials; t++) {
			double t0 = now();
			q = chase(q, steps);
			double dt = (now() - t0) / steps;
			if (t == 0 || dt < best)
				best = dt;
		}
		*sink += (double)((uintptr_t)q & 1);
		free(p), free(perm);
		return best;
	}
	free(perm);
	return -2;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: membench TRIALS triad|move|stride|walk|gather|chase|unit|touch BYTES...\n");
		return 2;
	}
	int trials = atoi(argv[1]);
	if (trials < 1) {
		fprintf(stderr, "membench: TRIALS must be positive\n");
		return 2;
	}
	const char *kernel = argv[2];
	double sink = 0;
	for (int k = 3; k < argc; k++) {
		long bytes = atol(argv[k]);
		if (bytes < 4096 && strcmp(kernel, "unit") != 0) {
			fprintf(stderr, "membench: size %s is below 4096 bytes\n", argv[k]);
			return 2;
		}
		double t = measure(kernel, bytes, trials, &sink);
		if (t == -2) {
			fprintf(stderr, "membench: unknown kernel %s\n", kernel);
			return 2;
		}
		if (t < 0) {
			fprintf(stderr, "membench: cannot allocate %ld bytes\n", bytes);
			return 1;
		}
		printf("%s %ld %.6e\n", kernel, bytes, t);
	}
	if (sink == 12345.6789)
		printf("#\n");
	return 0;
}
