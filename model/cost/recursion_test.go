package cost_test

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// TestRecursionAgainstExecution checks the counts of recursive routines (a
// V-cycle recursing to the coarsest level, a bisection whose depth n and P
// set, two routines calling each other), analysed at a point as check -D
// does, against the APT interpreter on every rank, at random points; and
// that without the point the recursion is not unrolled but its counts are
// marked approximate.
func TestRecursionAgainstExecution(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "programs", "recursion.f90")
	prog, diags := fortran.ParseFiles([]string{path}, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %s", d)
		}
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for range 12 {
		env := map[string]int64{"n": 1 + rng.Int64N(3000), "ncycles": rng.Int64N(4), cost.Size: 1 + rng.Int64N(8)}
		rep, err := cost.AnalyzeAt(prog, cost.Options{}, env)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range rep.Diags {
			if strings.Contains(d.Msg, "recursive") {
				t.Errorf("%v: %s", env, d)
			}
		}
		pt, err := rep.At(env)
		if err != nil {
			t.Fatal(err)
		}
		for rank := range env[cost.Size] {
			got, err := aptrun.Run(prog, aptrun.Config{P: env[cost.Size], Rank: rank,
				Params: map[string]int64{"n": env["n"], "ncycles": env["ncycles"]}})
			if err != nil {
				t.Fatalf("execution at %v rank %d: %v", env, rank, err)
			}
			compare(t, rep, pt, got, env, rank, nil)
		}
		if t.Failed() {
			return
		}
	}
	// Symbolic in n and P, the depths are not decided: each recursion is
	// left out and everything under its outermost activation is marked.
	rep, err := cost.Analyze(prog, cost.Options{})
	if err != nil {
		t.Fatal(err)
	}
	left := 0
	for _, d := range rep.Diags {
		if strings.Contains(d.Msg, "recursive call of") && strings.Contains(d.Msg, "is not evaluated (its depth depends on") {
			left++
		}
	}
	if left != 3 {
		t.Errorf("%d recursive calls left out symbolically, want 3 (vcycle, total, down)", left)
	}
	for _, n := range rep.Nodes {
		if n.Routine != nil && (n.Routine.Name == "vcycle" || n.Routine.Name == "down" || n.Routine.Name == "up") && n.Exact {
			t.Errorf("%s in %s: exact, but its recursion was left out", n.Node.Base().ID, n.Routine.Name)
		}
	}
}
