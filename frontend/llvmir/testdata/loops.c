/* Loop kernels whose trip counts the differential test compares with
 * opt-14's scalar evolution. N, M, S (a stride) and K are given with -D at
 * random values; every loop is written the way C programs write them. */
double a[4096], b[4096], c[64][64];

void rect(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			c[i % 64][j % 64] += 1.0;
}

void inclusive(void)
{
	for (int i = 1; i <= N; i++)
		a[i % 4096] = i;
}

void down(void)
{
	for (int i = N - 1; i >= 0; i--)
		a[i % 4096] *= 2.0;
	for (int i = N; i > K; i -= S)
		b[i % 4096] = 0;
}

void strided(void)
{
	for (int i = K; i < N; i += S)
		a[i % 4096] = b[i % 4096];
	for (long i = 0; i <= M; i += 3)
		b[i % 4096] += 1.0;
}

void triangular(void)
{
	for (int i = 0; i < N; i++)
		for (int j = i; j < N; j++)
			c[i % 64][j % 64] = 0;
	for (int i = 0; i < N; i++)
		for (int j = 0; j <= i; j++)
			c[j % 64][i % 64] += 1.0;
}

void whiles(void)
{
	int i = K;
	while (i < N) {
		a[i % 4096] = 1;
		i += S;
	}
	int j = N;
	while (j != K) {
		b[j % 4096] = 2;
		j--;
	}
	int k = 0;
	do {
		a[k % 4096] += 1;
		k += 2;
	} while (k < M);
}

void polybench(void)
{
	/* gemm-style nest with an offset start */
	for (int i = 1; i < N - 1; i++)
		for (int j = 1; j < M - 1; j++)
			for (int k = 0; k < K; k++)
				c[i % 64][j % 64] += a[k % 4096] * b[k % 4096];
}

int main(void)
{
	rect();
	inclusive();
	down();
	strided();
	triangular();
	whiles();
	polybench();
	return 0;
}
