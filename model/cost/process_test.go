package cost_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// Shapes of the process a program runs in, for the mechanisms of
// mechanisms_test.go: environment variables read with
// GET_ENVIRONMENT_VARIABLE (unset, as in both evaluations by default).

// processShapes read the program's environment.
var processShapes = []shape{
	{name: "environment", add: processEnvironment},
}

// processEnvironment switches optional work on with an environment
// variable, after a test of its STATUS, and loops over its length.
func processEnvironment(g *gen, k int) {
	g.decl(k, "character(len=8) :: val#", "integer :: nc#, ios#, i#", "logical :: on#")
	call := []string{"call get_environment_variable('MK_FLAG#', val#,", "&  nc#, ios#)"}
	if g.r.IntN(2) == 0 {
		call = []string{"call get_environment_variable(name='MK_FLAG#',", "&  status=ios#, length=nc#, value=val#)"}
	}
	g.stmt(k, "on# = .false.")
	g.stmt(k, call...)
	g.stmt(k,
		"if (ios# .eq. 0) then", "  on# = val# .eq. 'on'", "end if",
		"if (on#) then", "  do i# = 1, n", "    s = s + 1", "  end do", "end if",
		"do i# = 1, nc# + ios#", "  s = s + i#", "end do")
}

// TestProcessAgainstExecution: with the environment and the command line
// given (cost.Options.Env and Args, aptrun.Config's), the counts agree
// with the execution of every rank.
func TestProcessAgainstExecution(t *testing.T) {
	src := `program p
  use mpi
  implicit none
  character(len=16) :: arg, val
  integer :: me, np, ierr, n, i, nc, ios, na, st
  logical :: on
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  n = 8
  na = command_argument_count()
  if (na .ge. 1) then
    call get_command_argument(1, arg, status=st)
    read (arg, *) n
  end if
  on = .false.
  call get_environment_variable('MK_TIMERS', val, nc, ios)
  if (ios .eq. 0) on = val .eq. 'on'
  do i = 1, n/np
    if (on) then
      do st = 1, 3
      end do
    end if
  end do
  do i = 1, nc + ios
  end do
  call MPI_FINALIZE(ierr)
end program p
`
	prog, diags := fortran.ParseSource("p.f90", []byte(src), fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %s", d)
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		env  map[string]string
		args []string
	}{
		{nil, nil},
		{nil, []string{"40"}},
		{map[string]string{"MK_TIMERS": "on"}, []string{" 17 "}},
		{map[string]string{"MK_TIMERS": "off"}, []string{}},
		{map[string]string{"OTHER": "on"}, []string{"3", "x"}},
	} {
		np := 1 + rng.Int64N(8)
		point := map[string]int64{cost.Size: np}
		params := map[string]int64{}
		if c.args == nil {
			// Without the command line its count is the parameter
			// nargs, aptrun's command_argument_count.
			point["nargs"], params["na"] = 0, 0
		}
		rep, err := cost.AnalyzeAt(prog, cost.Options{Env: c.env, Args: c.args}, point)
		if err != nil {
			t.Fatal(err)
		}
		pt, err := rep.At(point)
		if err != nil {
			t.Fatalf("env %v args %q: %v", c.env, c.args, err)
		}
		for rank := int64(0); rank < np; rank++ {
			got, err := aptrun.Run(prog, aptrun.Config{P: np, Rank: rank, Env: c.env, Args: c.args, Params: params})
			if err != nil {
				t.Fatalf("execution: %v", err)
			}
			if d := diffCounts(rep, pt, got, rank); len(d) > 0 {
				t.Errorf("env %v args %q P=%d:\n%s", c.env, c.args, np, strings.Join(d, "\n"))
			}
		}
	}
}
