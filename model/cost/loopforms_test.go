package cost_test

import (
	"math/rand/v2"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// Closed forms of loops the symbolic evaluation does not run (their trip
// counts are read), checked against the execution of every rank at random
// points: a loop that fills an array with a closed form of its variable
// leaves those values (range stores), a loop that sets a variable on the
// one iteration an equality pins leaves that iteration's value (a
// search), and a DO whose step is +1 or -1 (or +3 or -3) by case counts
// each case in its own direction.
var loopFormPrograms = []struct {
	name, src string
	params    map[string][2]int64
}{
	{"component range stores", `program p
  implicit none
  type :: patch_t
    integer :: nx, ny
  end type patch_t
  type(patch_t) :: pt(200)
  integer :: n, k, i
  read *, n
  do k = 1, n
    pt(k)%nx = 3 * (1 + mod(k, 2))
    pt(k)%ny = k + 1
  end do
  do k = 1, n
    do i = 1, pt(k)%nx * pt(k)%ny
    end do
  end do
  do i = 1, pt(n)%ny
  end do
end program p
`, map[string][2]int64{"n": {1, 60}}},
	{"range stores", `program p
  implicit none
  integer :: t(200), u(200), n, i, j
  read *, n
  do i = 1, n
    t(i) = 2*i + 1
    u(i+1) = 100 + i
    u(i) = i
  end do
  do j = 1, t(3)
  end do
  do j = 1, u(n+1)
  end do
  do j = 1, u(2)
  end do
end program p
`, map[string][2]int64{"n": {2, 60}}},
	{"range store under a test of the rank", `program p
  use mpi
  implicit none
  integer :: t(64), me, n, i, j, ierr
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  read *, n
  t = 0
  t(1) = 4
  if (me == 0) then
    do i = 2, n
      t(i) = 3*i
    end do
  end if
  do j = 1, t(1)
  end do
  do j = 1, t(2)
  end do
end program p
`, map[string][2]int64{"n": {2, 40}}},
	{"search by an equality", `program p
  implicit none
  integer :: n, m, id, i, j
  read *, n
  read *, m
  id = 0
  do i = 1, n
    if (i == 2*m) id = i + 5
  end do
  do j = 1, id
  end do
  id = 1
  do i = 1, n, 3
    if (i == m) id = 2*i
  end do
  do j = 1, id
  end do
end program p
`, map[string][2]int64{"n": {0, 30}, "m": {0, 20}}},
	{"search for the rank in a table", `program p
  use mpi
  implicit none
  integer :: tids(256), n, me, myid, i, j, ierr
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  read *, n
  do i = 1, n
    tids(i) = i - 1
  end do
  myid = 0
  do i = 1, n
    if (me == tids(i)) myid = i
  end do
  do j = 1, 10*myid
  end do
end program p
`, map[string][2]int64{"n": {1, 40}}},
	{"step by case", `program p
  implicit none
  integer :: n, m, q, i, i0, i1, i2, k
  read *, n
  read *, m
  do q = 1, m
    if (q <= 2) then
      i0 = n
      i1 = 1
      i2 = -1
    else
      i0 = 1
      i1 = n
      i2 = 1
    end if
    do i = i0, i1, i2
      k = i
    end do
    if (q == 1) then
      i2 = -3
    else
      i2 = 3
    end if
    do i = i0, i1, i2
      k = i
    end do
  end do
end program p
`, map[string][2]int64{"n": {0, 20}, "m": {0, 5}}},
}

func TestLoopFormsAgainstExecution(t *testing.T) {
	for _, lp := range loopFormPrograms {
		t.Run(lp.name, func(t *testing.T) { checkAgainstExecution(t, lp.name, lp.src, lp.params) })
	}
}

// A deck read twice, from the start of the same file, reads its first
// values once: the second READ's items that read them take their
// parameters, and only the values read once are parameters.
func TestReadTwiceAgainstExecution(t *testing.T) {
	checkAgainstExecution(t, "read twice", `program p
  implicit none
  integer :: a, b, c, d, e, f, i
  open (3, file='deck', status='old')
  read (3, *) a, b
  close (3)
  open (10, file='deck', status='old')
  read (10, *) c, d, e
  read (10, *) f
  rewind (10)
  read (10, *) i
  close (10)
  do i = 1, c*d + e*i + f
  end do
end program p
`, map[string][2]int64{"a": {0, 5}, "b": {0, 5}, "e": {0, 5}, "f": {0, 5}})
}

// checkAgainstExecution analyses src symbolically, asks that its only
// parameters be the values read (params, with their ranges) and that every
// node be exact, and compares its counts at random points with the
// execution of every rank.
func checkAgainstExecution(t *testing.T, name, src string, ranges map[string][2]int64) {
	t.Helper()
	prog, diags := fortran.ParseSource("t.f90", []byte(src), fortran.Config{})
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
			t.Errorf("%s: inexact: %s", n.Node.Base().ID, n.Note)
		}
	}
	for _, q := range rep.Params {
		if _, ok := ranges[q.Name]; !ok {
			t.Errorf("parameter %s (%s): want only the values read", q.Name, q.What)
		}
	}
	rng := rand.New(rand.NewPCG(3, uint64(len(name))))
	for point := 0; point < 24 && !t.Failed(); point++ {
		env := map[string]int64{}
		for name, r := range ranges {
			env[name] = r[0] + rng.Int64N(r[1]-r[0]+1)
		}
		np := int64(1)
		if rep.Parallel {
			np = 1 + rng.Int64N(8)
			env[cost.Size] = np
		}
		pt, err := rep.At(env)
		if err != nil {
			t.Fatalf("at %v: %v", env, err)
		}
		params := map[string]int64{}
		for k, v := range env {
			if k != cost.Size {
				params[k] = v
			}
		}
		for rank := int64(0); rank < np; rank++ {
			got, err := aptrun.Run(prog, aptrun.Config{P: np, Rank: rank, Params: params})
			if err != nil {
				t.Fatalf("execution at %v rank %d: %v", env, rank, err)
			}
			compare(t, rep, pt, got, env, rank, nil)
		}
	}
}
