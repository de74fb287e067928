package cost_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model/cost"
)

// TestSubmoduleProceduresAgainstGfortran: a procedure whose interface a
// module declares and a submodule defines, in both forms (MODULE
// SUBROUTINE with its header repeated, MODULE PROCEDURE with the
// interface's arguments), is the routine its calls reach: the iterations
// of its loop nest are those the program compiled by gfortran counts as it
// runs, at two sizes.
func TestSubmoduleProceduresAgainstGfortran(t *testing.T) {
	tools := e2e.Require(t, "gfortran")
	const module = `module grid_m
  implicit none
  integer :: counted = 0
  type :: grid_t
    integer :: n = 0
    real(8), allocatable :: u(:)
  end type
  interface
    module subroutine smooth(g, iters)
      type(grid_t), intent(inout) :: g
      integer, intent(in) :: iters
    end subroutine
  end interface
end module
`
	bodies := map[string]string{
		"header repeated": `  module subroutine smooth(g, iters)
    type(grid_t), intent(inout) :: g
    integer, intent(in) :: iters
    integer :: it, i
    do it = 1, iters
      do i = 2, g%n - 1, 2
        g%u(i) = 0.5d0*(g%u(i-1) + g%u(i+1))
        counted = counted + 1
      end do
    end do
  end subroutine smooth
`,
		"module procedure": `  module procedure smooth
    integer :: it, i
    do it = 1, iters
      do i = 2, g%n - 1, 2
        g%u(i) = 0.5d0*(g%u(i-1) + g%u(i+1))
        counted = counted + 1
      end do
    end do
  end procedure smooth
`,
	}
	for form, body := range bodies {
		for _, n := range []int{37, 400} {
			src := module + "submodule (grid_m) grid_s\ncontains\n" + body + "end submodule grid_s\n" +
				`program main
  use grid_m
  implicit none
  type(grid_t) :: g
  g%n = ` + strconv.Itoa(n) + `
  allocate(g%u(g%n))
  g%u = 1
  call smooth(g, 3)
  print *, counted
end program
`
			path, out := e2e.CompileRun(t, tools[0], "sub.f90", src)
			want, err := strconv.ParseFloat(strings.TrimSpace(out), 64)
			if err != nil {
				t.Fatalf("%s: the program printed %q", form, out)
			}
			prog, diags := fortran.ParseFiles([]string{path}, fortran.Config{})
			for _, d := range diags {
				t.Errorf("%s: %s", form, d)
			}
			env := map[string]int64{cost.Size: 1}
			rep, err := cost.AnalyzeAt(prog, cost.Options{}, env)
			if err != nil {
				t.Fatal(err)
			}
			pt, err := rep.At(env)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, nd := range rep.Nodes {
				l, ok := nd.Node.(*apt.Loop)
				if !ok || l.Var != "i" {
					continue
				}
				found = true
				if got := pt.Nodes[nd].Iterations.Total; got != want {
					t.Errorf("%s, n = %d: the inner loop runs %g iterations, the compiled program %g", form, n, got, want)
				}
			}
			if !found {
				t.Errorf("%s, n = %d: the submodule's loop is not in the report", form, n)
			}
		}
	}
}
