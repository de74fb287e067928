package concrete_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/symeval/concrete"
)

func parse(t *testing.T, src string) *apt.Program {
	t.Helper()
	prog, diags := fortran.ParseSource("t.f90", []byte(src), fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatal(d)
		}
	}
	return prog
}

// globals gives a test's machine the storage of COMMON and SAVE
// variables, one store per storage (a COMMON member by its block and
// place), sized by the declaration's constant bounds.
func globals(prog *apt.Program) func(r *apt.Routine, name string, v *apt.Var) *concrete.Ref {
	stores := map[string]*concrete.Ref{}
	return func(r *apt.Routine, name string, v *apt.Var) *concrete.Ref {
		key := fmt.Sprintf("%p", v)
		if v.InCommon {
			for _, c := range r.Scope.Commons {
				if c.Name == v.Common {
					key = fmt.Sprintf("/%s/#%d", c.Name, slices.Index(c.Vars, name))
				}
			}
		}
		if s, ok := stores[key]; ok {
			return s
		}
		n := int64(1)
		for _, d := range v.Dims {
			lo, hi := int64(1), int64(0)
			if d.Lo != nil {
				lo, _ = prog.IntConstant(r, d.Lo)
			}
			hi, _ = prog.IntConstant(r, d.Hi)
			n *= hi - lo + 1
		}
		s := &concrete.Ref{S: concrete.NewStore(key, n, v.Type.Base == apt.TypeReal)}
		stores[key] = s
		return s
	}
}

// sums adds up a run's counts by node ID over its call paths.
func sums(c *concrete.Context, exec, iter map[string]int64) {
	exec[c.Routine.ID] += c.Calls
	for n, k := range c.Exec {
		exec[n.Base().ID] += k
	}
	for l, k := range c.Iter {
		iter[l.ID] += k
	}
	for _, s := range c.Sites() {
		sums(c.Children[s], exec, iter)
	}
}

// The programs below compute what set-up code computes (a random sparse
// matrix's rows from a linear congruential generator in real arithmetic,
// a search by GO TO, counts by SELECT CASE, values through COMMON and
// arrays passed by element), each run whole by the machine and by the
// APT interpreter: every node's count and every loop's iterations agree.
var programs = []string{`
program sparse
  implicit none
  integer, parameter :: n = 60, nz = 600
  integer :: rowstr(n+1), colidx(nz), mark(n), nzloc(n)
  integer :: i, k, nnz, row, nzrow, col, j
  double precision :: seed, r, randlc
  common /rng/ seed
  seed = 314159265.d0
  do i = 1, n
    mark(i) = 0
  end do
  nnz = 0
  rowstr(1) = 1
  do row = 1, n
    nzrow = 0
10  continue
    if (nzrow >= 5) goto 20
    r = randlc(seed)
    col = int(r * n) + 1
    if (col > n) goto 10
    if (mark(col) == 0) then
      mark(col) = 1
      nzrow = nzrow + 1
      nzloc(nzrow) = col
    end if
    goto 10
20  continue
    do k = 1, nzrow
      nnz = nnz + 1
      colidx(nnz) = nzloc(k)
      mark(nzloc(k)) = 0
    end do
    rowstr(row + 1) = nnz + 1
  end do
  do row = 1, n
    do j = rowstr(row), rowstr(row + 1) - 1
      call touch(colidx(j))
    end do
  end do
end program sparse

double precision function randlc(x)
  implicit none
  double precision :: x, a, r23, t23, r46, t46, t1, t2, t3, t4, a1, a2, x1, x2, z
  parameter (r23 = 0.5d0 ** 23, r46 = r23 ** 2, t23 = 2.d0 ** 23, t46 = t23 ** 2)
  a = 1220703125.d0
  t1 = r23 * a
  a1 = int(t1)
  a2 = a - t23 * a1
  t1 = r23 * x
  x1 = int(t1)
  x2 = x - t23 * x1
  t1 = a1 * x2 + a2 * x1
  t2 = int(r23 * t1)
  z = t1 - t23 * t2
  t3 = t23 * z + a2 * x2
  t4 = int(r46 * t3)
  x = t3 - t46 * t4
  randlc = r46 * x
end function randlc

subroutine touch(c)
  integer :: c
  if (mod(c, 3) == 0) c = c + 0
end subroutine touch
`, `
program buckets
  implicit none
  integer :: keys(500), counts(0:7), i, k, b, shift
  integer :: x
  x = 12345
  do i = 1, 500
    x = modulo(1103515245 * x + 12345, 2147483647)
    keys(i) = mod(x, 1024)
  end do
  counts = 0
  do i = 0, 7
    counts(i) = 0
  end do
  shift = 7
  do i = 1, 500
    b = ishft(keys(i), -shift)
    counts(b) = counts(b) + 1
  end do
  do b = 0, 7
    select case (counts(b))
    case (:60)
      do k = 1, counts(b)
        call work(k)
      end do
    case (61:70)
      do k = counts(b), 1, -2
        call work(k)
      end do
    case default
      k = 0
      do while (k < counts(b))
        k = k + 3
        if (k == 9) cycle
        if (k > 90) exit
        call work(k)
      end do
    end select
  end do
contains
end program buckets

subroutine work(k)
  integer :: k, j
  j = sign(k, -2) + max(k, 4) - min(k, 2)
end subroutine work
`, `
program seqassoc
  implicit none
  integer :: a(10, 10), i, j, total
  do j = 1, 10
    do i = 1, 10
      a(i, j) = i * j
    end do
  end do
  total = 0
  do j = 1, 10
    call colsum(a(1, j), 10, total)
  end do
  goto (100, 200, 300) mod(total, 3) + 1
100 call work(1)
200 call work(2)
300 call work(3)
end program seqassoc

subroutine colsum(col, n, total)
  integer :: n, col(n), total, i
  do i = 1, n
    if (col(i) > 20) total = total + 1
  end do
end subroutine colsum

subroutine work(k)
  integer :: k
  k = k
end subroutine work
`}

func TestRunsAsTheInterpreter(t *testing.T) {
	for i, src := range programs {
		prog := parse(t, src)
		var main *apt.Routine
		for _, r := range prog.Routines {
			if r.Kind == apt.KindProgram {
				main = r
			}
		}
		m := concrete.New(prog)
		m.Globals = globals(prog)
		ctx, err := m.Call(main, nil)
		if err != nil {
			t.Fatalf("program %d: %v", i, err)
		}
		exec, iter := map[string]int64{}, map[string]int64{}
		sums(ctx, exec, iter)
		want, err := aptrun.Run(prog, aptrun.Config{P: 1})
		if err != nil {
			t.Fatalf("program %d: the interpreter: %v", i, err)
		}
		for id, w := range want.Exec {
			if strings.HasSuffix(id, "/") || w == 0 && exec[id] == 0 {
				continue
			}
			if exec[id] != w {
				t.Errorf("program %d: node %s ran %d times, the interpreter %d", i, id, exec[id], w)
			}
		}
		for id, w := range want.Iter {
			if iter[id] != w {
				t.Errorf("program %d: loop %s iterated %d times, the interpreter %d", i, id, iter[id], w)
			}
		}
		for id, g := range exec {
			if want.Exec[id] != g {
				t.Errorf("program %d: node %s ran %d times, the interpreter %d", i, id, g, want.Exec[id])
			}
		}
		t.Logf("program %d: %d steps", i, m.Steps())
	}
}

// A run stops, with where and why, at what it does not know or run.
func TestStopsWithAReason(t *testing.T) {
	prog := parse(t, `
subroutine s(n, x)
  integer :: n, i
  double precision :: x
  do i = 1, n
    if (x > 0.5d0) x = x - 1.0d0
  end do
end subroutine s
`)
	r := prog.Routine("s")
	m := concrete.New(prog)
	n := concrete.NewStore("n", 1, false)
	n.SetInt(0, 3)
	x := concrete.NewStore("x", 1, true) // not known
	_, err := m.Call(r, []*concrete.Ref{{S: n}, {S: x}})
	if err == nil || !strings.Contains(err.Error(), "t.f90:6:") || !strings.Contains(err.Error(), "x > 0.5d0") {
		t.Fatalf("err = %v, want a stop at the test on x", err)
	}
	x.SetReal(0, 2.25)
	ctx, err := m.Call(r, []*concrete.Ref{{S: n}, {S: x}})
	if err != nil {
		t.Fatal(err)
	}
	if x.F[0] != 0.25 || !x.Written {
		t.Errorf("x = %v (written %v), want 0.25", x.F[0], x.Written)
	}
	for l, k := range ctx.Iter {
		if k != 3 {
			t.Errorf("loop %s: %d iterations, want 3", l.ID, k)
		}
	}
	m.MaxSteps = 5
	if _, err := m.Call(r, []*concrete.Ref{{S: n}, {S: x}}); err == nil || !strings.Contains(err.Error(), "more than 5 steps") {
		t.Errorf("err = %v, want the step budget", err)
	}
}
