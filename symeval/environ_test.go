package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// timerFlag reads an environment variable the way programs switch on
// optional work (NPB's timers): a test of STATUS, then of the value.
const timerFlag = `program p
  character(len=8) :: val
  integer :: nc, ios, i, n
  logical :: on
  read *, n
  on = .false.
  call get_environment_variable('MK_FLAG', val, nc, ios)
  if (ios == 0) then
    if (val == 'on') on = .true.
  end if
  if (on) then
    do i = 1, n
    end do
  end if
  do i = 1, nc + 1
  end do
end program p
`

// TestEnvironmentUnset: a variable Options.Env does not set is unset, as
// in a user's normal run: STATUS 1, LENGTH 0, and the program's fallback
// is taken; Result.Inputs says so.
func TestEnvironmentUnset(t *testing.T) {
	res := evaluate(t, timerFlag, symeval.Options{})
	onlyParams(t, res, "n")
	if b := loopBodies(t, res, 12); len(b) != 0 {
		t.Errorf("the loop under the flag runs: %q", b)
	}
	if b := loopBodies(t, res, 15); len(b) != 1 || !strings.Contains(b[0], "i <= 1") {
		t.Errorf("the loop over the length: %q, want one iteration", b)
	}
	if len(res.Inputs) != 1 || !res.Inputs[0].Environment || res.Inputs[0].Name != "MK_FLAG" || res.Inputs[0].How != "STATUS= ios" {
		t.Errorf("inputs %+v, want MK_FLAG taken as unset", res.Inputs)
	}
	for _, d := range res.Diags {
		if strings.Contains(d.Msg, "get_environment_variable") {
			t.Errorf("diagnostic %s", d)
		}
	}
}

// TestEnvironmentSet: a variable Options.Env sets has its value (padded to
// the variable's length), its length and STATUS 0, by position or keyword.
func TestEnvironmentSet(t *testing.T) {
	for _, src := range []string{timerFlag, strings.Replace(timerFlag, "('MK_FLAG', val, nc, ios)",
		"(status=ios, name='MK_FLAG', length=nc, value=val)", 1)} {
		res := evaluate(t, src, symeval.Options{Env: map[string]string{"MK_FLAG": "on"}})
		onlyParams(t, res, "n")
		if b := loopBodies(t, res, 12); len(b) != 1 || !strings.Contains(b[0], "n >= i") {
			t.Errorf("the loop under the flag: %q, want n iterations", b)
		}
		if b := loopBodies(t, res, 15); len(b) != 1 || !strings.Contains(b[0], "i <= 3") {
			t.Errorf("the loop over the length: %q, want 3 iterations", b)
		}
		if len(res.Inputs) != 0 {
			t.Errorf("inputs %+v, want none", res.Inputs)
		}
	}
}

// TestEnvironmentNeeded: a program that stops when the variable is unset
// needs it: it is taken as set, to a value of the run.
func TestEnvironmentNeeded(t *testing.T) {
	res := evaluate(t, `program p
  character(len=8) :: val
  integer :: nc, ios, i
  call get_environment_variable('MK_DIR', val, nc, ios)
  if (ios /= 0) stop
  do i = 1, nc
  end do
end program p
`, symeval.Options{})
	if res.Stopped != nil || len(res.Inputs) != 0 {
		t.Errorf("stopped %v, inputs %+v: the variable should be taken as set", res.Stopped, res.Inputs)
	}
	if len(res.Params) != 1 || !strings.Contains(res.Params[0].What, "environment variable MK_DIR") {
		t.Errorf("params %+v, want the variable's length", res.Params)
	}
}

// commandLine reads its size from its first argument when it has one.
const commandLine = `program p
  character(len=16) :: arg
  integer :: n, i, na, ln, st
  n = 10
  na = command_argument_count()
  if (na >= 1) then
    call get_command_argument(1, arg, ln, st)
    read (arg, *) n
  end if
  do i = 1, n
  end do
end program p
`

// TestCommandLine: with Options.Args the argument count and the arguments
// are the given ones, and an internal READ of an argument reads it; without
// them the count is the parameter nargs.
func TestCommandLine(t *testing.T) {
	res := evaluate(t, commandLine, symeval.Options{Args: []string{" 500"}})
	onlyParams(t, res)
	if b := loopBodies(t, res, 10); len(b) != 1 || !strings.Contains(b[0], "i <= 500") {
		t.Errorf("with -args 500: %q, want 500 iterations", b)
	}
	res = evaluate(t, commandLine, symeval.Options{Args: []string{}})
	onlyParams(t, res)
	if b := loopBodies(t, res, 10); len(b) != 1 || !strings.Contains(b[0], "i <= 10") {
		t.Errorf("with no arguments: %q, want the default 10 iterations", b)
	}
	res = evaluate(t, commandLine, symeval.Options{})
	if len(res.Params) == 0 || res.Params[0].Name != "nargs" {
		t.Errorf("without -args: params %+v, want nargs first", res.Params)
	}
}
