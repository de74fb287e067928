package cost_test

import (
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// A sweep whose direction a test on data chooses, SNAP's manner: each arm
// sets the bounds and the step together, and the loops over them run nz
// and ny times whichever arm the data take. The loops' counts are exact,
// name no choice of the data, and equal the interpreter's, whatever the
// data choose at each sweep.
func TestDirectionChosenByData(t *testing.T) {
	src := `program octant
  implicit none
  integer :: nz, ny, nsw, it, k, j, klo, khi, kst, jlo, jhi, jst
  double precision :: x, s
  read *, nz, ny, nsw
  s = 0.0d0
  do it = 1, nsw
    x = sin(dble(3 * it + nz))
    if (x > 0.0d0) then
      klo = 1; khi = nz; kst = 1
    else
      klo = nz; khi = 1; kst = -1
    end if
    if (x * x > 0.25d0) then
      jst = -1; jlo = ny; jhi = 1
    else
      jst = +1; jlo = 1; jhi = ny
    end if
    do k = klo, khi, kst
      do j = jlo, jhi, jst
        s = s + dble(k * j)
      end do
    end do
  end do
  print *, s
end program octant
`
	prog, diags := fortran.ParseSource("octant.f90", []byte(src), fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatal(d)
		}
	}
	for _, env := range []map[string]int64{{"nz": 12, "ny": 5, "nsw": 8}, {"nz": 1, "ny": 9, "nsw": 3}, {"nz": 37, "ny": 2, "nsw": 11}} {
		rep, err := cost.AnalyzeAt(prog, cost.Options{}, env)
		if err != nil {
			t.Fatal(err)
		}
		pt, err := rep.AtKnown(env)
		if err != nil {
			t.Fatal(err)
		}
		got, err := aptrun.Run(prog, aptrun.Config{P: 1, Params: env})
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, n := range rep.Nodes {
			l, ok := n.Node.(*apt.Loop)
			if !ok || l.Var != "k" && l.Var != "j" {
				continue
			}
			seen++
			v, ok := pt.Nodes[n]
			if !n.Exact || !ok || len(v.Iterations.PerRank) == 0 {
				t.Errorf("%v: the loop over %s is not exact (%s)", env, l.Var, n.Note)
				continue
			}
			// The range is the same whichever way the sweep goes: the
			// count names no choice of the data.
			for _, sym := range n.Iterations.Symbols() {
				if _, input := env[sym]; !input {
					t.Errorf("%v: the loop over %s counts %s, which names %s", env, l.Var, n.Iterations, sym)
				}
			}
			if it, want := v.Iterations.PerRank[0], float64(got.Iter[l.ID]); it != want {
				t.Errorf("%v: the loop over %s runs %v iterations, executed %v\n  closed form: %s", env, l.Var, it, want, n.Iterations)
			}
		}
		if seen != 2 {
			t.Errorf("%v: %d loops over k and j in the report, want 2", env, seen)
		}
	}
}
