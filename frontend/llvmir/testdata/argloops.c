/* Loops over sizes a C program takes from its command line (atoi, strtol):
 * the frontend keeps them as the input parameters n and m; the
 * differential test gives opt-14's scalar evolution the same values as
 * constants in place of the calls. */
#include <stdlib.h>

double a[4096], c[64][64];

int main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	long m = strtol(argv[2], NULL, 10);
	double s = 0;
	for (int i = 0; i < n; i++)
		s += a[i % 4096];
	for (int i = 1; i <= n; i++)
		a[i % 4096] = s;
	for (int i = n; i > 0; i -= 2)
		s += a[i % 4096];
	for (int i = 0; i < 2 * n + 1; i += 3)
		a[i % 4096] += 1.0;
	for (long i = 0; i < n; i++)
		for (long j = i; j < m; j++)
			c[i % 64][j % 64] += 1.0;
	for (int i = 1; i < n - 1; i++)
		for (long j = 0; j < m; j += 4)
			c[i % 64][j % 64] *= 0.5;
	int k = 0;
	while (k < n) {
		s += k;
		k += 2;
	}
	long q = 0;
	do {
		q++;
	} while (q < m);
	return (int)s + (int)q + argc;
}
