/* small.c: the shapes the fuzz seeds cover: a counted loop, a while loop,
 * a break, a switch, a call with a pointer argument and an MPI call. */
#include <mpi.h>

static int g = 3;

static int twice(int *p, int n)
{
	int s = 0;
	for (int i = 0; i < n; i += 2)
		s += p[i % 4];
	while (s > 100) {
		s /= 2;
		if (s == 7)
			break;
	}
	switch (n) {
	case 1:
		s++;
		break;
	case 2:
		s--;
		break;
	default:
		s = s * g;
	}
	return s;
}

int main(int argc, char **argv)
{
	int rank, a[4] = {1, 2, 3, 4};
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	int s = twice(a, rank + 5);
	MPI_Bcast(&s, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return s > 0 ? 0 : 1;
}
