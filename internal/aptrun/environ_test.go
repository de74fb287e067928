package aptrun

import (
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
)

// loopAt returns the ID of the loop that starts at line.
func loopAt(t *testing.T, prog *apt.Program, line int) string {
	t.Helper()
	id := ""
	for _, r := range prog.Routines {
		apt.Inspect(r, func(n apt.Node) bool {
			if l, ok := n.(*apt.Loop); ok && l.Span.Start().Line == line {
				id = l.ID
			}
			return true
		})
	}
	if id == "" {
		t.Fatalf("no loop at line %d", line)
	}
	return id
}

// TestEnvironment: GET_ENVIRONMENT_VARIABLE finds a variable Config.Env
// sets (value padded, length, status 0, positional or keyword arguments)
// and every other unset (status 1, length 0, value blank).
func TestEnvironment(t *testing.T) {
	prog := parseSrc(t, "env.f90", `program p
  character(len=8) :: val
  integer :: nc, ios, i, k
  call get_environment_variable('MK_FLAG', val, nc, ios)
  do i = 1, nc + 10*ios + 100
  end do
  if (val == 'on') then
    do i = 1, 3
    end do
  end if
  call get_environment_variable(status=ios, name='MK_LONG', value=val)
  k = ios + 2
  do i = 1, k
  end do
end program p
`)
	length, on, long := loopAt(t, prog, 5), loopAt(t, prog, 8), loopAt(t, prog, 13)
	c := mustRun(t, prog, Config{P: 1})
	check(t, "unset", "iterations", c.Iter, want{length: 110, on: 0, long: 3})
	c = mustRun(t, prog, Config{P: 1, Env: map[string]string{"MK_FLAG": "on", "MK_LONG": "far too long"}})
	check(t, "set", "iterations", c.Iter, want{length: 102, on: 3, long: 1})
}

// TestCommandArguments: with Config.Args, COMMAND_ARGUMENT_COUNT is their
// number, GET_COMMAND_ARGUMENT gives them and an internal READ of one
// reads it; without them the count comes from Params.
func TestCommandArguments(t *testing.T) {
	prog := parseSrc(t, "args.f90", `program p
  character(len=16) :: arg
  integer :: n, m, i, na, ln, st
  n = 10
  m = 1
  na = command_argument_count()
  if (na >= 1) then
    call get_command_argument(1, arg, ln, st)
    read (arg, *) n, m
  end if
  do i = 1, n + m
  end do
  do i = 1, ln + st
  end do
end program p
`)
	loop, status := loopAt(t, prog, 11), loopAt(t, prog, 13)
	c := mustRun(t, prog, Config{P: 1, Args: []string{"40,,", "x"}})
	check(t, "-args '40,,' x", "iterations", c.Iter, want{loop: 41, status: 4})
	c = mustRun(t, prog, Config{P: 1, Args: []string{}})
	check(t, "no arguments", "iterations", c.Iter, want{loop: 11, status: 0})
	c = mustRun(t, prog, Config{P: 1, Params: map[string]int64{"na": 0}})
	check(t, "Params", "iterations", c.Iter, want{loop: 11})
}

// TestDeallocateStat: DEALLOCATE's STAT= is 0, as ALLOCATE's.
func TestDeallocateStat(t *testing.T) {
	prog := parseSrc(t, "dealloc.f90", `program p
  integer, allocatable :: a(:)
  integer :: st, i
  st = 5
  allocate (a(3))
  deallocate (a, stat=st)
  do i = 1, st + 1
  end do
end program p
`)
	c := mustRun(t, prog, Config{P: 1})
	check(t, "deallocate", "iterations", c.Iter, want{loopAt(t, prog, 7): 1})
}
