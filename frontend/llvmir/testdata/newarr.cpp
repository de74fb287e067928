// new[] and delete[] of arrays whose length the command line gives.
#include <cstdlib>
int main(int argc, char **argv) {
	long n = atol(argv[1]);
	double *a = new double[n];
	double *b = new double[2 * n];
	for (long i = 0; i < n; i++)
		a[i] = 2.0 * i;
	for (long i = 0; i < 2 * n; i++)
		b[i] = a[i / 2];
	double s = 0;
	for (long i = 0; i < n; i++)
		s += a[i] * b[i];
	delete[] a;
	delete[] b;
	return s > 0;
}
