/* heaplist.c: every rank draws keys (a congruential generator seeded by
 * the rank, as many keys as its share of n), looks each up in a binary
 * search tree it builds on the heap, and puts the new ones in the tree and
 * at the head of a linked list; then it walks the list to its end for its
 * length and sends its left neighbour that many values each step.
 * The lists' lengths and the walks' trip counts are values of the data a
 * run of the program's own code gives, rank by rank.
 * Run: heaplist N STEPS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

struct item {
	int key;
	struct item *next;
};

struct tnode {
	int key;
	struct tnode *left, *right;
};

static struct tnode *lookup(struct tnode *t, int key)
{
	while (t != NULL && t->key != key)
		t = key < t->key ? t->left : t->right;
	return t;
}

static struct tnode *insert(struct tnode *t, int key)
{
	if (t == NULL) {
		t = malloc(sizeof *t);
		t->key = key;
		t->left = t->right = NULL;
	} else if (key < t->key) {
		t->left = insert(t->left, key);
	} else {
		t->right = insert(t->right, key);
	}
	return t;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = argc > 1 ? atoi(argv[1]) : 40;
	int steps = argc > 2 ? atoi(argv[2]) : 2;
	int mine = n / size + (rank < n % size);
	struct item *head = NULL;
	struct tnode *root = NULL;
	long seed = 7 + 13 * rank;
	for (int i = 0; i < mine; i++) {
		seed = seed * 75 % 65537;
		int key = (int)(seed % (2 * n + 1));
		if (lookup(root, key) != NULL)
			continue;
		root = insert(root, key);
		struct item *p = malloc(sizeof *p);
		p->key = key;
		p->next = head;
		head = p;
	}
	int len = 0;
	for (struct item *p = head; p != NULL; p = p->next)
		len++;
	double *out = malloc((len + 1) * sizeof *out);
	double *in = malloc((n + 1) * sizeof *in);
	int left = (rank + size - 1) % size, right = (rank + 1) % size;
	int got = 0;
	for (int s = 0; s < steps; s++) {
		for (int k = 0; k < len; k++)
			out[k] = k + s;
		MPI_Status st;
		MPI_Sendrecv(out, len, MPI_DOUBLE, left, 0, in, n + 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_DOUBLE, &got);
	}
	if (rank == 0)
		printf("heaplist: %d keys\n", len);
	MPI_Finalize();
	return 0;
}
