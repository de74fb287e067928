package cost_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// TestRankTripBoundsAgainstExecution checks the trip-count ranges of loops
// whose exit the rank decides, at process counts beyond those at which
// such loops are run rank by rank (testdata/programs/rankloops.f: a GO TO
// loop over the bits of 3*rank+5, a DO WHILE powering 7*rank+P by halving):
// each loop's trip-count parameter must range exactly from the least to
// the largest count that an execution of the APT (internal/aptrun) gives
// over the ranks, and the counts resting on it must be marked. Where the
// concrete machine runs the DO WHILE at every rank (up to 64 processes)
// its count has no parameter and must be each rank's own.
func TestRankTripBoundsAgainstExecution(t *testing.T) {
	prog := parseProgram(t, "rankloops.f")
	// The GO TO loop's count is how often its labelled head runs; the DO
	// WHILE's its iterations.
	var head, while apt.Node
	apt.Inspect(prog, func(n apt.Node) bool {
		switch x := n.(type) {
		case *apt.Continue:
			if x.Label == "10" {
				head = x
			}
		case *apt.Loop:
			if x.While != nil {
				while = x
			}
		}
		return true
	})
	if head == nil || while == nil {
		t.Fatal("rankloops.f: the GO TO loop's head or the DO WHILE not found")
	}
	// Up to 16 ranks the loops are run rank by rank: every count is exact.
	for _, np := range []int64{1, 5, 16} {
		compareAtP(t, prog, np, false)
	}
	for _, np := range []int64{17, 40, 100} {
		lo := map[string]int64{}
		hi := map[string]int64{}
		whileIters := make([]int64, np) // the DO WHILE's trips on each rank
		for rank := int64(0); rank < np; rank++ {
			got, err := aptrun.Run(prog, aptrun.Config{P: np, Rank: rank})
			if err != nil {
				t.Fatalf("P=%d rank %d: %v", np, rank, err)
			}
			whileIters[rank] = got.Iter[while.Base().ID]
			for kind, v := range map[string]int64{"goto": got.Exec[head.Base().ID], "while": got.Iter[while.Base().ID]} {
				if rank == 0 || v < lo[kind] {
					lo[kind] = v
				}
				if rank == 0 || v > hi[kind] {
					hi[kind] = v
				}
			}
		}
		rep, err := cost.Analyze(prog, cost.Options{Values: map[string]int64{cost.Size: np}})
		if err != nil {
			t.Fatalf("P=%d: %v", np, err)
		}
		found := map[string]bool{}
		for _, p := range rep.Params {
			if p.Origin != cost.FromTripCount {
				continue
			}
			kind := "while"
			if strings.Contains(p.What, "GO TO") {
				kind = "goto"
			}
			found[kind] = true
			if p.Lo == nil || p.Hi == nil {
				t.Errorf("P=%d: %s has no range: %s", np, p.Name, p.What)
				continue
			}
			l, _ := p.Lo.Int64()
			h, _ := p.Hi.Int64()
			if l != lo[kind] || h != hi[kind] {
				t.Errorf("P=%d: %s ranges over %d..%d, the execution's counts over %d..%d", np, p.Name, l, h, lo[kind], hi[kind])
			}
		}
		if !found["goto"] {
			t.Errorf("P=%d: trip-count parameters found: %v, want the GO TO loop's", np, found)
		}
		n := rep.ByID[while.Base().ID]
		if n == nil {
			t.Fatalf("P=%d: the DO WHILE is not in the report", np)
		}
		t.Logf("P=%d: DO WHILE ranged: %v", np, found["while"])
		if found["while"] {
			if n.Exact {
				t.Errorf("P=%d: the DO WHILE's count rests on a range but is not marked approximate", np)
			}
			continue
		}
		// Not a range: the concrete machine ran the loop at every
		// rank, and its count must be each rank's own.
		if !n.Exact {
			t.Errorf("P=%d: the DO WHILE has neither a trip-count range nor an exact count: %s", np, n.Note)
			continue
		}
		vals := map[string]int64{cost.Size: np}
		for _, p := range rep.Params {
			if p.Origin == cost.FromTripCount && p.Lo != nil {
				vals[p.Name], _ = p.Lo.Int64()
			}
		}
		pt, err := rep.At(vals)
		if err != nil {
			t.Fatalf("P=%d: %v", np, err)
		}
		for rank, want := range whileIters {
			if x := pt.Nodes[n].Iterations.PerRank[rank]; x != float64(want) {
				t.Errorf("P=%d rank %d: the DO WHILE's iterations predicted %v, executed %v", np, rank, x, want)
			}
		}
	}
}

// TestChunksAgainstExecution checks the counts of chunks.f (a 2-D
// decomposition found by a search over the chunks, a tiling chosen by the
// ratio of the subdomain's sides) at process counts up to 64, every node
// on every rank, against an execution of the APT: the values the search
// leaves and their ratio, chosen per rank, must stay exact beyond the
// process counts at which loops are run rank by rank.
func TestChunksAgainstExecution(t *testing.T) {
	prog := parseProgram(t, "chunks.f")
	for _, np := range []int64{8, 16, 32, 64} {
		compareAtP(t, prog, np, true)
	}
}

// parseProgram parses a program of testdata/programs.
func parseProgram(t *testing.T, name string) *apt.Program {
	t.Helper()
	file := filepath.Join("..", "..", "testdata", "programs", name)
	prog, diags := fortran.ParseFiles([]string{file}, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %s", d)
		}
	}
	return prog
}

// compareAtP evaluates prog at P = np and compares every node's counts on
// every rank with an execution of the APT; with exact, every value must
// be derived and every count exact.
func compareAtP(t *testing.T, prog *apt.Program, np int64, exact bool) {
	t.Helper()
	env := map[string]int64{cost.Size: np}
	rep, err := cost.Analyze(prog, cost.Options{Values: env})
	if err != nil {
		t.Fatalf("P=%d: %v", np, err)
	}
	if m := rep.MissingParams(env); exact && len(m) > 0 {
		t.Fatalf("P=%d: no value for %v", np, m)
	}
	for _, n := range rep.Nodes {
		if exact && (!n.Exact || n.Missing != 0) {
			t.Errorf("P=%d: %s: not exact: %s", np, n.Node.Base().ID, n.Note)
		}
	}
	pt, err := rep.At(env)
	if err != nil {
		t.Fatalf("P=%d: %v", np, err)
	}
	for rank := int64(0); rank < np; rank++ {
		got, err := aptrun.Run(prog, aptrun.Config{P: np, Rank: rank})
		if err != nil {
			t.Fatalf("P=%d rank %d: %v", np, rank, err)
		}
		compare(t, rep, pt, got, env, rank, nil)
	}
}

// A process's block and neighbours found by a scan over all the blocks
// (CloverLeaf's decomposition) take a value per rank beyond 16 processes:
// at 32 to 256 processes every count on every rank equals the execution's.
func TestNeighboursAgainstExecution(t *testing.T) {
	prog := parseProgram(t, "neighbours.f")
	for _, np := range []int64{4, 32, 64, 128, 256} {
		compareAtP(t, prog, np, true)
	}
}

// The same scan written as Fortran 90 (blocks90.f90: module variables, a
// derived type's array component, the remainder cells counted over the
// chunks before) costs each process work in proportion to P: at 1024
// processes it must still be run, and every count on every rank equal the
// execution's (before the run budgets grew with P, the block's bounds and
// neighbours were asked for there).
func TestBlocksAtThousandProcesses(t *testing.T) {
	prog := parseProgram(t, "blocks90.f90")
	for _, np := range []int64{4, 96, 1024} {
		compareAtP(t, prog, np, true)
	}
}

// A DO variable read after a search left its loop by EXIT
// (searchexit.f90): at each point the search is run and every count on
// every rank equals the execution's; with P a symbol the variable's value
// after the loop is asked for, never the value the last trip would leave
// (it was taken as np + 1, and the sweep's count printed as exact).
func TestSearchExitAgainstExecution(t *testing.T) {
	prog := parseProgram(t, "searchexit.f90")
	for _, np := range []int64{1, 2, 4, 5, 9, 10, 64} {
		compareAtP(t, prog, np, true)
	}
	rep, err := cost.Analyze(prog, cost.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range rep.Nodes {
		l, ok := n.Node.(*apt.Loop)
		if !ok || l.Var != "j" {
			continue
		}
		if n.Exact && !n.Iterations.Has("k") {
			t.Errorf("P symbolic: the sweep over j counts %s, exact, though the search's exit is not modelled", n.Iterations)
		}
		return
	}
	t.Fatal("the loop over j not found")
}

// TestSparseRowsAgainstExecution checks sparserows.f, a sparse product
// over a hand-built process grid whose row blocks differ in size by rank
// and whose column blocks come from a scan: the inner loop over a row's
// entries telescopes into one value of the data per rank even where the
// rows' bounds are chosen per rank, no element of the row pointers is
// asked for, and every count on every rank equals the execution's once
// that value is the one the execution's rows hold.
func TestSparseRowsAgainstExecution(t *testing.T) {
	prog := parseProgram(t, "sparserows.f")
	var inner *apt.Loop
	apt.Inspect(prog, func(n apt.Node) bool {
		if l, ok := n.(*apt.Loop); ok && l.Var == "k" && l.Span.Start().Line == 76 {
			inner = l
		}
		return true
	})
	if inner == nil {
		t.Fatal("sparserows.f: the loop over a row's entries (line 76) not found")
	}
	for _, np := range []int64{4, 16, 32, 64, 128} {
		env := map[string]int64{cost.Size: np}
		rep, err := cost.Analyze(prog, cost.Options{Values: env})
		if err != nil {
			t.Fatalf("P=%d: %v", np, err)
		}
		span := ""
		var others []string
		for _, p := range rep.Params {
			if strings.HasPrefix(p.Name, "rowstr_span") {
				span = p.Name
			} else if !strings.HasPrefix(p.Name, "int") { // the row lengths' data
				others = append(others, p.Name+": "+p.What)
			}
		}
		if span == "" || len(others) > 0 {
			t.Fatalf("P=%d: the inner loop over the rows' entries is not telescoped, or values are unknown: %v", np, others)
		}
		for _, n := range rep.Nodes {
			if !n.Exact {
				t.Errorf("P=%d: %s: not exact: %s", np, n.Node.Base().ID, n.Note)
			}
		}
		for rank := int64(0); rank < np; rank++ {
			got, err := aptrun.Run(prog, aptrun.Config{P: np, Rank: rank})
			if err != nil {
				t.Fatalf("P=%d rank %d: %v", np, rank, err)
			}
			// The rows' entries on this rank, from its run: the inner
			// loop runs over them once per outer iteration (3).
			at := map[string]int64{cost.Size: np, span: got.Iter[inner.Base().ID] / 3}
			pt, err := rep.At(at)
			if err != nil {
				t.Fatalf("P=%d rank %d: %v", np, rank, err)
			}
			compare(t, rep, pt, got, at, rank, nil)
		}
	}
}

// TestCellsAgainstExecution checks cells.f, a diagonal multi-partition:
// each process's cell coordinates step round rings of sqrt(P) with MOD
// (remainders of remainders of the rank), a sweep picks the cell of each
// plane through the inverse of the coordinate map, and the message it
// receives is a face of that cell. Every value is derived and every count
// on every rank equals the execution's.
func TestCellsAgainstExecution(t *testing.T) {
	prog := parseProgram(t, "cells.f")
	for _, np := range []int64{1, 4, 9, 16, 25, 64, 144} {
		compareAtP(t, prog, np, true)
	}
}

// TestProbeSliceAgainstExecution checks probeslice.f, a GO TO loop over
// the bits of a rank-dependent value whose body also calls a
// floating-point generator, halves the value through a subroutine and
// counts in COMMON through another: beyond the process counts at which it
// is run rank by rank, the probe runs only what its exit depends on, and
// the trip-count range must still be exactly the least and largest count
// of an execution of the APT over the ranks.
func TestProbeSliceAgainstExecution(t *testing.T) {
	prog := parseProgram(t, "probeslice.f")
	var head apt.Node
	apt.Inspect(prog, func(n apt.Node) bool {
		if c, ok := n.(*apt.Continue); ok && c.Label == "10" {
			head = c
		}
		return true
	})
	if head == nil {
		t.Fatal("probeslice.f: the GO TO loop's head not found")
	}
	for _, np := range []int64{17, 40, 100} {
		var lo, hi int64
		for rank := int64(0); rank < np; rank++ {
			got, err := aptrun.Run(prog, aptrun.Config{P: np, Rank: rank})
			if err != nil {
				t.Fatalf("P=%d rank %d: %v", np, rank, err)
			}
			v := got.Exec[head.Base().ID]
			if rank == 0 || v < lo {
				lo = v
			}
			if rank == 0 || v > hi {
				hi = v
			}
		}
		rep, err := cost.Analyze(prog, cost.Options{Values: map[string]int64{cost.Size: np}})
		if err != nil {
			t.Fatalf("P=%d: %v", np, err)
		}
		found := false
		for _, p := range rep.Params {
			if p.Origin != cost.FromTripCount {
				continue
			}
			found = true
			if p.Lo == nil || p.Hi == nil {
				t.Errorf("P=%d: %s has no range: %s", np, p.Name, p.What)
				continue
			}
			l, _ := p.Lo.Int64()
			h, _ := p.Hi.Int64()
			if l != lo || h != hi {
				t.Errorf("P=%d: %s ranges over %d..%d, the execution's counts over %d..%d", np, p.Name, l, h, lo, hi)
			}
		}
		if !found {
			t.Errorf("P=%d: no trip-count parameter for the GO TO loop", np)
		}
	}
}
