/* Seed of FuzzParseIR (heap.ll is this file through clang-14 -O0 -g and opt-14
 * mem2reg,loop-simplify): structs and arrays of pointers on the heap,
 * realloc, sprintf, strdup, strstr, strncmp and atoi on argv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct N { int id, n, max; struct N **next; char *name; } N;
N *mk(int id) {
  char nm[32];
  N *p = malloc(sizeof(N));
  sprintf(nm, "node.%d", id);
  p->name = strdup(nm);
  p->id = id; p->n = 0; p->max = 2;
  p->next = malloc(p->max * sizeof(N *));
  return p;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4, s = 0;
  N **all = calloc(n, sizeof(N *));
  for (int i = 0; i < n; i++) all[i] = mk(i);
  for (int i = 1; i < n; i++) {
    N *a = all[i - 1];
    if (a->n == a->max) { a->max *= 2; a->next = realloc(a->next, a->max * sizeof(N *)); }
    a->next[a->n++] = all[i];
  }
  for (int i = 0; i < n; i++)
    if (strstr(all[i]->name, "node") && strncmp(argv[0], "x", 1))
      for (int j = 0; j < all[i]->n; j++) s += all[i]->next[j]->id;
  return s;
}
