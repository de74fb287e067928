/* allocs.c: the allocations allocs.ll lifts (the fuzz target's seed):
 * malloc, calloc, aligned_alloc, posix_memalign and a variable-length
 * array, each filled and read by a loop. */
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100;
	int *a = malloc(n * sizeof *a);
	int *b = calloc(n, sizeof *b);
	double *c = aligned_alloc(64, 64 * ((n * sizeof(double) + 63) / 64));
	double *d;
	if (posix_memalign((void **)&d, 64, n * sizeof(double)) != 0)
		return 1;
	int e[n];
	for (long i = 0; i < n; i++) {
		a[i] = i % 7;
		c[i] = 0.5 * i;
		d[i] = c[i] + b[i];
		e[i] = a[i] + 1;
	}
	long s = 0;
	for (long i = 0; i < n; i++)
		for (int j = 0; j < e[i]; j++)
			s += j;
	free(a);
	free(b);
	free(c);
	free(d);
	return (int)(s % 2);
}
