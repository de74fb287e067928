package cinst_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/llvmir"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// TestHeapObjectsByRankE2E: heaplist.c's ranks draw shares of n = 37 that
// differ (10, 9, 9, 9 at P = 4), so its set-up loop is run rank by rank;
// the tree and list each rank's run builds on the heap must be the ones
// the walks after the loop follow. Before, the loop was not run rank by
// rank (its trip count cases on the rank), and where it was, the objects
// one rank made were forgotten when the ranks' states were joined: the
// walks' trip counts were asked for.
func TestHeapObjectsByRankE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	rep := analyzeProgramAt(t, "heaplist.c", map[string]int64{cost.Size: 4}, "37", "3")
	for _, p := range rep.Params {
		if p.Value == nil && !strings.HasPrefix(p.Name, "pct_") {
			t.Errorf("%s is asked for (%s)", p.Name, p.What)
		}
	}
}

// TestOwnedByRankE2E: owned.c's ranks each walk the whole grid and act on
// the cells they own, a test on the rank. Before, nothing of the walk was
// known: the test y > 0 && owner[c - nx] != rank read owner[-nx] on the
// first row (C does not evaluate it), which abandoned the trip-by-trip
// run; the lists one rank's run of a call built were dropped where its
// path joined the others'; the searches that break out at a different
// trip on each rank were not run rank by rank; a call on a path no rank
// takes was walked. The numbers of cells and partners and the lengths
// were asked for (9 values).
func TestOwnedByRankE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	rep := analyzeProgramAt(t, "owned.c", map[string]int64{cost.Size: 4}, "8", "8", "3")
	for _, p := range rep.Params {
		if p.Value == nil {
			t.Errorf("%s is asked for (%s)", p.Name, p.What)
		}
	}
}

// refillSource passes structures to a routine that is not part of the
// program, once before a loop and once in a loop whose inner loop reads
// what it may have changed.
const refillSource = `#include <mpi.h>
#include <stdio.h>
struct list { int count; struct list *next; };
void refill(struct list *l);
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	struct list s = {3, NULL};
	double x = 0;
	refill(&s);
	for (int i = 0; i < s.count; i++)
		x += i;
	struct list t = {4, NULL};
	for (int step = 0; step < 5; step++) {
		for (int i = 0; i < t.count; i++)
			x += i;
		refill(&t);
	}
	printf("%g\n", x);
	MPI_Finalize();
	return 0;
}
`

// TestExternalRoutineChangesStructE2E: a routine outside the program given
// a structure's address may change it (libstdc++'s tree rebalancing
// relinks std::map's header): the loops over its count after the call,
// and in the loop that calls it, rest on values asked for. Before, they
// were counted, as exact, at the counts from before the calls (3 and 4).
func TestExternalRoutineChangesStructE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	path := filepath.Join(t.TempDir(), "refill.c")
	if err := os.WriteFile(path, []byte(refillSource), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := analyzeFileAt(t, path, map[string]int64{cost.Size: 4})
	at := map[string]symbolic.Rat{cost.Size: symbolic.RatInt(4), cost.Rank: symbolic.RatInt(0)}
	loops := 0
	for _, n := range rep.Nodes {
		l, ok := n.Node.(*apt.Loop)
		if !ok || l.Span.Start().Line != 11 && l.Span.Start().Line != 15 {
			continue
		}
		loops++
		if v, err := n.Iterations.Eval(at); err == nil && n.Exact {
			t.Errorf("the loop at line %d is counted as exact at %v trips", l.Span.Start().Line, v)
		}
	}
	if loops != 2 {
		t.Fatalf("found %d of the loops at lines 11 and 15", loops)
	}
}

// analyzeFileAt lifts the program at path and analyses it at env.
func analyzeFileAt(t *testing.T, path string, env map[string]int64) *cost.Report {
	t.Helper()
	lf, diags := llvmir.Load([]string{path}, llvmir.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatal(d)
		}
	}
	rep, err := cost.AnalyzeAt(lf.Prog, cost.Options{}, env)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// setSource fills a std::set in a loop: libstdc++'s inlined code walks
// the tree from its header (a base of _Rb_tree_impl at byte 8) and
// links each node by _Rb_tree_insert_and_rebalance, which the program
// does not hold.
const setSource = `#include <mpi.h>
#include <set>
#include <cstdio>
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	std::set<int> seen;
	for (int i = 0; i < 30; i++)
		seen.insert((i * 13) % (11 + rank));
	printf("%d\n", (int)seen.size());
	MPI_Finalize();
	return 0;
}
`

// TestSetWalkAfterRebalanceE2E: the header of a std::set is read through
// its field path (empty: the first insert's walk makes no trip), and the
// walks after the library's rebalancing rest on values asked for, never
// on the empty tree the header held before it (0 trips, counted as
// exact).
func TestSetWalkAfterRebalanceE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	path := filepath.Join(t.TempDir(), "set.cpp")
	if err := os.WriteFile(path, []byte(setSource), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := analyzeFileAt(t, path, map[string]int64{cost.Size: 4})
	at := map[string]symbolic.Rat{cost.Size: symbolic.RatInt(4), cost.Rank: symbolic.RatInt(0)}
	walks := 0
	for _, n := range rep.Nodes {
		if _, ok := n.Node.(*apt.Loop); !ok || !strings.HasPrefix(n.Node.Base().ID, "_m_get_insert_unique_pos/") {
			continue
		}
		walks++
		if v, err := n.Iterations.Eval(at); err == nil && n.Exact {
			t.Errorf("the tree walk %s is counted as exact at %v trips", n.Node.Base().ID, v)
		}
	}
	if walks == 0 {
		t.Fatal("no tree walk in _M_get_insert_unique_pos")
	}
}

// TestBaseAtOffsetE2E: basepart.cpp's header is a base class at byte 8,
// which clang reaches through the object's bytes (this + 8 as i8*, cast
// to the base): its constructor's stores and the count read through the
// derived object are one storage. Before, the byte step was a subscript
// of the whole object and the count was asked for. n = 36 gives every
// rank 9 keys: with trips that differ by rank, a C loop that makes no
// heap object is walked symbolically, not run rank by rank, and the
// count after it is asked (README, Known limits).
func TestBaseAtOffsetE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	rep := analyzeProgramAt(t, "basepart.cpp", map[string]int64{cost.Size: 4}, "36", "3")
	for _, p := range rep.Params {
		if p.Value == nil && !strings.HasPrefix(p.Name, "pct_") {
			t.Errorf("%s is asked for (%s)", p.Name, p.What)
		}
	}
}
