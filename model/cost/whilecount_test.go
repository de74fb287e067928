package cost_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// TestWhileCountersAgainstExecution: DO WHILE loops that step a counter
// towards a bound (either comparison, either side, steps up or down of
// several sizes, the step anywhere at the top of the body, bounds in P
// and the rank, trips past what a run would take) count as many trips as
// the interpreter runs, at P = 1..4, with no parameter left.
func TestWhileCountersAgainstExecution(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 11))
	for k := range 40 {
		src := randomWhileProgram(rng)
		againstRanks(t, k, src, int64(1+rng.IntN(4)))
	}
}

// againstRanks analyses src at P = np and compares every node's per-rank
// count with the interpreter's run of each rank; no value may be left a
// parameter.
func againstRanks(t *testing.T, k int, src string, np int64) {
	t.Helper()
	prog, diags := fortran.ParseSource("prog.f90", []byte(src), fortran.Config{})
	for _, d := range diags {
		if d.Severity == 1 {
			t.Fatalf("program %d: parse: %s\n%s", k, d, src)
		}
	}
	env := map[string]int64{cost.Size: np}
	rep, err := cost.AnalyzeAt(prog, cost.Options{}, env)
	if err != nil {
		t.Fatalf("program %d: %v\n%s", k, err, src)
	}
	for _, p := range rep.Params {
		t.Errorf("program %d at P=%d: %s is a parameter (%s)", k, np, p.Name, p.What)
	}
	pt, err := rep.At(env)
	if err != nil {
		t.Fatalf("program %d: %v\n%s", k, err, src)
	}
	for rank := range np {
		got, err := aptrun.Run(prog, aptrun.Config{P: np, Rank: rank, Params: map[string]int64{}})
		if err != nil {
			t.Fatalf("program %d rank %d: %v\n%s", k, rank, err, src)
		}
		compare(t, rep, pt, got, env, rank, nil)
	}
	if t.Failed() {
		t.Fatalf("program %d at P=%d:\n%s", k, np, src)
	}
}

func randomWhileProgram(rng *rand.Rand) string {
	var s strings.Builder
	s.WriteString("program wc\n  use mpi\n  integer :: me, np, ierr, i, j, n, s\n" +
		"  call MPI_Init(ierr)\n  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)\n" +
		"  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)\n")
	bounds := []string{"n", "n + me", "np * n", "n - me", "3 * n + np"}
	fmt.Fprintf(&s, "  n = %d\n", []int{7, 40, 3000, 5000}[rng.IntN(4)])
	for range 1 + rng.IntN(3) {
		step := []int{1, 2, 3, 7}[rng.IntN(4)]
		bound := bounds[rng.IntN(len(bounds))]
		up := rng.IntN(2) == 0
		var start, cond, inc string
		if up {
			start = fmt.Sprint(rng.IntN(9) - 3)
			cond = []string{"i < " + bound, "i <= " + bound, bound + " > i", bound + " >= i"}[rng.IntN(4)]
			inc = fmt.Sprintf("i = i + %d", step)
		} else {
			start = bound + fmt.Sprintf(" + %d", rng.IntN(5))
			lo := rng.IntN(6) - 2
			cond = []string{fmt.Sprintf("i > %d", lo), fmt.Sprintf("i >= %d", lo), fmt.Sprintf("%d < i", lo), fmt.Sprintf("%d <= i", lo)}[rng.IntN(4)]
			inc = fmt.Sprintf("i = i - %d", step)
		}
		fmt.Fprintf(&s, "  i = %s\n  s = 0\n  do while (%s)\n", start, cond)
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&s, "    %s\n    s = s + 2\n", inc)
		} else {
			fmt.Fprintf(&s, "    s = s + 2\n    %s\n", inc)
		}
		s.WriteString("  end do\n")
		s.WriteString("  do j = 1, mod(i, 5) + 2\n  end do\n")
	}
	s.WriteString("  call MPI_Finalize(ierr)\nend program wc\n")
	return s.String()
}
