package cost_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// Shapes of a set-up broadcast from the root's own branch, for the
// mechanisms of mechanisms_test.go: the root computes settings and
// broadcasts them in one arm of an IF on the rank, the other ranks
// broadcast and unpack in the other arm (either arm first), packed in an
// array or as scalars, one or two broadcasts per arm; the loops after it
// run as often as the settings say.

// rootArmShapes broadcast settings from the root's branch.
var rootArmShapes = []shape{
	{name: "packed", add: rootArmPacked},
	{name: "scalars", add: rootArmScalars},
}

// rootArmRoot is the root: a rank every P has.
func rootArmRoot(g *gen) string { return g.pick("0", "np - 1", "mod(m, np)", "np/2") }

// rootArmIf writes IF (me is the root) THEN root ELSE others, or the
// arms the other way round.
func rootArmIf(g *gen, r string, root, others []string) []string {
	var out []string
	if g.r.IntN(2) == 0 {
		out = append(out, "if (me .eq. "+r+") then")
		out = append(out, root...)
		out = append(out, "else")
		out = append(out, others...)
	} else {
		out = append(out, "if (me .ne. "+r+") then")
		out = append(out, others...)
		out = append(out, "else")
		out = append(out, root...)
	}
	return append(out, "endif")
}

// rootArmPacked: three settings packed in an array, one broadcast.
func rootArmPacked(g *gen, k int) {
	g.decl(k, "integer sv#(3), a#, b#, c#, r#, i#")
	g.stmt(k, "r# = "+rootArmRoot(g), "a# = 0", "b# = 0", "c# = 0")
	root := []string{
		"  a# = " + g.pick("n + 1", "2*m", "nl + 3", "n/2"),
		"  b# = " + g.pick("m", "nl", "n - m", "3"),
		"  c# = " + g.pick("np", "me + 1", "m*nl"),
		"  sv#(1) = a#", "  sv#(2) = b#", "  sv#(3) = c#",
		"  call MPI_BCAST(sv#, 3, MPI_INTEGER, r#,", "&   MPI_COMM_WORLD, ierr)",
	}
	others := []string{
		"  call MPI_BCAST(sv#, 3, MPI_INTEGER, r#,", "&   MPI_COMM_WORLD, ierr)",
		"  a# = sv#(1)", "  b# = sv#(2)", "  c# = sv#(3)",
	}
	g.stmt(k, rootArmIf(g, "r#", root, others)...)
	g.stmt(k, "do i# = 1, a# + b#*c#", "  s = s + i#", "enddo")
}

// rootArmScalars: two scalars, one broadcast each, in the same order in
// both arms.
func rootArmScalars(g *gen, k int) {
	g.decl(k, "integer a#, b#, r#, i#, j#")
	g.stmt(k, "r# = "+rootArmRoot(g), "a# = 0", "b# = 0")
	root := []string{
		"  a# = " + g.pick("n", "m + nl", "2*nl + 1"),
		"  b# = " + g.pick("m", "np + 1", "me + 2"),
		"  call MPI_BCAST(a#, 1, MPI_INTEGER, r#,", "&   MPI_COMM_WORLD, ierr)",
		"  call MPI_BCAST(b#, 1, MPI_INTEGER, r#,", "&   MPI_COMM_WORLD, ierr)",
	}
	others := []string{
		"  call MPI_BCAST(a#, 1, MPI_INTEGER, r#,", "&   MPI_COMM_WORLD, ierr)",
		"  call MPI_BCAST(b#, 1, MPI_INTEGER, r#,", "&   MPI_COMM_WORLD, ierr)",
	}
	g.stmt(k, rootArmIf(g, "r#", root, others)...)
	g.stmt(k, "do i# = 1, a#", "  do j# = 1, b#", "    s = s + j#", "  enddo", "enddo")
}

// TestRootArmsAgainstWorld: random programs of the root-arm shapes,
// analysed at random points (cost.AnalyzeAt) and run with every rank at
// once (aptrun.RunWorld, which carries the broadcast values the way MPI
// does: the k-th collective of every rank meets the k-th of the others):
// every node's figures agree on every rank, and every node is exact.
func TestRootArmsAgainstWorld(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 40 {
		g := newGen(rng, rng.IntN(2) == 0)
		for k := 1; k <= 1+rng.IntN(2); k++ {
			rootArmShapes[rng.IntN(len(rootArmShapes))].add(g, k)
		}
		src := g.source()
		name := "arms.f"
		if g.free {
			name = "arms.f90"
		}
		prog, diags := fortran.ParseSource(name, []byte(src), fortran.Config{})
		for _, d := range diags {
			if d.Severity == apt.Error {
				t.Fatalf("program %d: parse: %s\n%s", i, d, numbered(src))
			}
		}
		for range 3 {
			np := 1 + rng.Int64N(16)
			params := map[string]int64{"n": rng.Int64N(41), "m": 1 + rng.Int64N(6), "nl": rng.Int64N(5)}
			env := map[string]int64{cost.Size: np}
			for k, v := range params {
				env[k] = v
			}
			rep, err := cost.AnalyzeAt(prog, cost.Options{}, env)
			if err != nil {
				t.Fatalf("program %d: %v", i, err)
			}
			pt, err := rep.At(env)
			if err != nil {
				t.Fatalf("program %d: %v", i, err)
			}
			var probs []string
			for _, n := range rep.Nodes {
				if !n.Exact {
					probs = append(probs, fmt.Sprintf("%s inexact: %s", n.Node.Base().ID, n.Note))
				}
			}
			runs, err := aptrun.RunWorld(prog, aptrun.Config{P: np, Params: params})
			if err != nil {
				t.Fatalf("program %d: execution: %v\n%s", i, err, numbered(src))
			}
			for rank, got := range runs {
				probs = append(probs, diffCounts(rep, pt, got, int64(rank))...)
			}
			if len(probs) > 0 {
				t.Fatalf("program %d at %s:\n%s\n%s", i, pointString(env), numbered(src), strings.Join(probs[:min(len(probs), 8)], "\n"))
			}
		}
	}
}
