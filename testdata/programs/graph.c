/* graph.c: a task graph built on the heap, as C programs build them: nodes
 * and arcs malloc'd, each node's arcs in arrays of pointers that grow by
 * realloc, the nodes in an array of pointers of the graph.  Node k is owned
 * by rank k % P; ranks process their nodes from the last, receiving what
 * each predecessor on another rank sends, summing it, and sending to each
 * successor on another rank.  The arcs are a binary tree towards node 0,
 * and an arc from every third node to node 0.  Run: graph n len */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Node Node;
typedef struct {
	Node *from, *to;
	int id;
} Arc;
struct Node {
	int id, nin, nout, maxin, maxout, owner;
	Arc **in, **out;
};
typedef struct {
	int n, max, arcs;
	Node **node;
} Graph;

static Node *newNode(int id, int owner)
{
	Node *nd = malloc(sizeof(Node));
	nd->id = id;
	nd->owner = owner;
	nd->nin = nd->nout = 0;
	nd->maxin = nd->maxout = 2;
	nd->in = malloc(nd->maxin * sizeof(Arc *));
	nd->out = malloc(nd->maxout * sizeof(Arc *));
	return nd;
}

static void addArc(Graph *g, int a, int b)
{
	Arc *ar = malloc(sizeof(Arc));
	ar->from = g->node[a];
	ar->to = g->node[b];
	ar->id = g->arcs++;
	Node *f = ar->from, *t = ar->to;
	if (f->nout == f->maxout) {
		f->maxout *= 2;
		f->out = realloc(f->out, f->maxout * sizeof(Arc *));
	}
	f->out[f->nout++] = ar;
	if (t->nin == t->maxin) {
		t->maxin *= 2;
		t->in = realloc(t->in, t->maxin * sizeof(Arc *));
	}
	t->in[t->nin++] = ar;
}

int main(int argc, char **argv)
{
	int rank, size, n = 8, len = 100;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2) {
		n = atoi(argv[1]);
		len = atoi(argv[2]);
	}
	Graph *g = malloc(sizeof(Graph));
	g->n = g->arcs = 0;
	g->max = n;
	g->node = malloc(n * sizeof(Node *));
	for (int i = 0; i < n; i++) {
		g->node[g->n] = newNode(i, i % size);
		g->n++;
	}
	for (int i = n - 1; i > 0; i--)
		addArc(g, i, (i - 1) / 2);
	for (int i = 3; i < n; i += 3)
		addArc(g, i, 0);
	double *buf = malloc(len * sizeof(double)), s = 0;
	for (int k = 0; k < len; k++)
		buf[k] = rank + k;
	for (int i = g->n - 1; i >= 0; i--) {
		Node *nd = g->node[i];
		if (nd->owner != rank)
			continue;
		for (int j = 0; j < nd->nin; j++) {
			Arc *ar = nd->in[j];
			if (ar->from->owner != rank)
				MPI_Recv(buf, len, MPI_DOUBLE, ar->from->owner, ar->id, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			for (int k = 0; k < len; k++)
				s += buf[k];
		}
		for (int j = 0; j < nd->nout; j++) {
			Arc *ar = nd->out[j];
			if (ar->to->owner != rank)
				MPI_Send(buf, len, MPI_DOUBLE, ar->to->owner, ar->id, MPI_COMM_WORLD);
		}
	}
	double tot = 0;
	MPI_Reduce(&s, &tot, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%.6e\n", tot);
	MPI_Finalize();
	return 0;
}
