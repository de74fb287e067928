package cost_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// TestMinMaxBoundsEndToEnd: DO loops whose bounds are min() and max() of
// the rank or a value read, among them ones that run on some ranks or
// values only (DO i = me + 1, min(1, me + 1) runs once on rank 0 and never
// elsewhere; the last blocks of a block distribution are short or empty).
// The symbolic closed forms (cost.Analyze, evaluated at each point) and the
// counts at a point (cost.AnalyzeAt) must equal the execution of every rank
// (internal/aptrun), and be exact. Their domains used to be simplified
// under themselves (simplifyDomain), which counted one iteration of the
// first loop on every rank.
func TestMinMaxBoundsEndToEnd(t *testing.T) {
	loops := []string{
		"do i = me + 1, min(1, me + 1)",        // the reported bug
		"do i = k + 1, min(1, k + 1)",          // its serial form, on a value read
		"do i = max(1, me - 1), me - 1",        // a max() lower bound
		"do i = me + 1, min(1, n, me + 1)",     // a min of three
		"do i = -me - 3, min(-1, -me - 3)",     // negative ranges
		"do i = max(-k, me - 2), min(-k, me)",  // both
		"do i = me*b + 1, min(n, (me + 1)*b)",  // a block distribution
		"do i = 2*me + 1, min(n, 2*me + 2)",    // blocks of 2, the last ones short or empty
		"do i = me + k, min(n, me + k, k + 2)", // a min of three with two parameters
		"do i = max(me, k, n - 3), min(me, k)", // a max of three against a min
	}
	var b strings.Builder
	b.WriteString("program w\n  use mpi\n  implicit none\n  integer me, np, ierr, i, j, k, n, b, s\n")
	b.WriteString("  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)\n  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)\n")
	b.WriteString("  read *, k, n\n  b = (n + np - 1)/np\n  s = 0\n")
	for _, l := range loops {
		fmt.Fprintf(&b, "  %s\n    s = s + 1\n  enddo\n", l)
	}
	// The same bounds on an inner loop, under an outer one.
	b.WriteString("  do j = 1, 3\n    do i = me + j, min(2, me + j)\n      s = s + 1\n    enddo\n  enddo\n")
	b.WriteString("end\n")
	src := b.String()
	prog, diags := fortran.ParseSource("w.f90", []byte(src), fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %s", d)
		}
	}
	rep, err := cost.Analyze(prog, cost.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range rep.Nodes {
		if !n.Exact {
			t.Errorf("%s inexact: %s", n.Node.Base().ID, n.Note)
		}
	}
	points := 0
	for np := int64(1); np <= 5; np++ {
		for k := int64(-3); k <= 3; k++ {
			for _, n := range []int64{-1, 0, 1, 2, 5, 9} {
				env := map[string]int64{cost.Size: np, "k": k, "n": n}
				var probs []string
				pt, err := rep.At(env)
				if err != nil {
					t.Fatalf("at %s: %v", pointString(env), err)
				}
				for rank := int64(0); rank < np; rank++ {
					got, err := aptrun.Run(prog, aptrun.Config{P: np, Rank: rank, Params: map[string]int64{"k": k, "n": n}})
					if err != nil {
						t.Fatalf("execution at %s rank %d: %v", pointString(env), rank, err)
					}
					probs = append(probs, diffCounts(rep, pt, got, rank)...)
				}
				if (k+n)%3 == 0 {
					// The count at the point, with its own simplifications.
					for _, p := range checkPoint(prog, env) {
						probs = append(probs, "at the point: "+p)
					}
				}
				points++
				if len(probs) > 0 {
					for _, n := range rep.Nodes {
						if n.Iterations.String() != "" {
							t.Logf("%s iterations: %s", n.Node.Base().ID, n.Iterations)
						}
					}
					t.Fatalf("at %s:\n  %s\n%s", pointString(env), strings.Join(probs, "\n  "), numbered(src))
				}
			}
		}
	}
	t.Logf("%d points", points)
}
