package symeval_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// freshAt lists, for every occurrence of the innermost loop at line, the
// arrays it writes first with their bytes ("a 800"), sorted.
func freshAt(t *testing.T, res *symeval.Result, line int) []string {
	t.Helper()
	var out []string
	for _, o := range loopOccsAt(t, res, line) {
		for _, a := range o.Accesses {
			if a.Fresh != nil {
				out = append(out, fmt.Sprintf("%s %s", a.Array, a.Fresh))
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestFirstTouch: the loop that first writes an array after its ALLOCATE,
// or static storage after the program starts, carries the array's bytes;
// later loops, and loops after another write of the whole array, do not.
func TestFirstTouch(t *testing.T) {
	src := `module fields
  type grid
    double precision, allocatable :: d(:,:)
  end type grid
  type(grid) :: g(2)
  double precision, allocatable :: a(:), w(:)
  double precision :: s(100)
  double precision :: r(50)
  common /blk/ c(64)
  double precision c
end module fields

subroutine zero(x, n)
  integer :: n, i
  double precision :: x(n)
  do i = 1, n
    x(i) = 0.0d0
  end do
end subroutine zero

subroutine scratch(n)
  integer :: n, i
  double precision, allocatable :: t(:)
  allocate(t(n))
  do i = 1, n
    t(i) = i
  end do
  deallocate(t)
end subroutine scratch

program p
  use fields
  integer :: n, i, j
  n = 10
  allocate(a(n), w(2*n))
  allocate(g(1)%d(0:n+1, 3))
  do i = 1, n
    a(i) = 1.0d0
  end do
  do i = 1, n
    a(i) = a(i) + 1.0d0
  end do
  w = 0.0d0
  do i = 1, 2*n
    w(i) = 2.0d0
  end do
  call zero(s, 100)
  call zero(s, 100)
  do j = 1, 3
    do i = 0, n + 1
      g(1)%d(i, j) = 0.0d0
    end do
  end do
  do i = 1, 64
    c(i) = 1.0d0
  end do
  r(1) = 5.0d0
  do i = 1, 50
    r(i) = 3.0d0
  end do
  call scratch(n)
  call scratch(n)
end program p
`
	res := evaluate(t, src, symeval.Options{})
	for _, c := range []struct {
		what string
		line int
		want []string
	}{
		{"the loop after the ALLOCATE writes a first", 37, []string{"a 80"}},
		{"a second loop finds a written", 40, nil},
		{"a whole-array assignment wrote w first", 44, nil},
		{"a dummy stands for its actual: the first call's loop writes s, the second's does not", 16, []string{"x 800"}},
		{"a component of an element of an array of derived type", 50, []string{"d 288"}},
		{"a COMMON array", 54, []string{"c 512"}},
		{"one element stored outside loops leaves the rest fresh", 58, []string{"r 400"}},
		{"a local allocatable: the first call's allocation only", 25, []string{"t 80"}},
	} {
		got := freshAt(t, res, c.line)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s (line %d): first touches %q, want %q", c.what, c.line, got, c.want)
		}
	}
}
