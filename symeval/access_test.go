package symeval_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/symeval"
)

// accessesOf returns the streams of the innermost loop at the given line,
// formatted "array kind stride reuse linereuse" and sorted.
func accessesOf(t *testing.T, res *symeval.Result, line int) []string {
	t.Helper()
	var out []string
	for _, a := range loopOccsAt(t, res, line)[0].Accesses {
		f := func(p interface{ String() string }) string { return p.String() }
		stride, reuse, lr := "?", "-", "-"
		if a.StrideKnown {
			stride = a.Stride.String()
		}
		if a.Reuse != nil {
			reuse = f(*a.Reuse)
		}
		if a.LineReuse != nil {
			lr = f(*a.LineReuse)
		}
		st := ""
		if a.Store {
			st = " store"
		}
		out = append(out, fmt.Sprintf("%s %s %s %s %s%s", a.Array, a.Kind, stride, reuse, lr, st))
	}
	slices.Sort(out)
	return out
}

// TestAccesses: the streams of innermost loops, their kinds, strides in
// bytes, and the data touched before their reuse (layer conditions,
// temporal reuse by an enclosing loop, line reuse across columns).
func TestAccesses(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		line int
		want []string
	}{{
		name: "contiguous triad, the footprint",
		src: `subroutine s(n, a, b, c)
  integer :: n, i
  double precision :: a(n), b(n), c(n)
  do i = 1, n
    a(i) = b(i) + 2.0d0 * c(i)
  end do
end subroutine s
`, line: 4,
		want: []string{"a contiguous 8 - - store", "b contiguous 8 - -", "c contiguous 8 - -"},
	}, {
		name: "a 3-point stencil is one stream of b, its neighbours at one and two iterations",
		src: `subroutine s(n, a, b)
  integer :: n, i
  double precision :: a(n), b(n)
  do i = 2, n - 1
    a(i) = b(i - 1) + b(i) + b(i + 1)
  end do
end subroutine s
`, line: 4,
		want: []string{"a contiguous 8 - - store", "b contiguous 8 - -", "b contiguous 8 16 -", "b contiguous 8 32 -"},
	}, {
		name: "a 2-D stencil: the rows below and above are two rows of iterations apart",
		src: `subroutine s(n, m, a, b)
  integer :: n, m, i, j
  double precision :: a(n, m), b(n, m)
  do j = 2, m - 1
    do i = 2, n - 1
      a(i, j) = b(i, j - 1) + b(i, j + 1)
    end do
  end do
end subroutine s
`, line: 5,
		want: []string{"a contiguous 8 - - store", "b contiguous 8 - -", "b contiguous 8 32*max(n, 0) -"},
	}, {
		name: "transposed: a column walk strides by a column, reused across the outer loop",
		src: `subroutine s(n, m, a, b)
  integer :: n, m, i, j
  double precision :: a(n, m), b(m, n)
  do i = 1, n
    do j = 1, m
      b(j, i) = a(i, j)
    end do
  end do
end subroutine s
`, line: 5,
		want: []string{"a strided 8*max(n, 0) - 72*m", "b contiguous 8 - - store"},
	}, {
		name: "an element invariant in the inner loop is left out; a vector reused across the outer loop",
		src: `subroutine s(n, m, a, x, y)
  integer :: n, m, i, j
  double precision :: a(n, m), x(m), y(n)
  do j = 1, m
    do i = 1, n
      y(i) = y(i) + a(i, j) * x(j)
    end do
  end do
end subroutine s
`, line: 5,
		want: []string{"a contiguous 8 - -", "y contiguous 8 16*n - store"},
	}, {
		name: "a gather through an index array, the offset a scalar of the body",
		src: `subroutine s(n, m, x, y, idx)
  integer :: n, m, i, k, idx(n)
  double precision :: x(m), y(n)
  do i = 1, m
    x(i) = 1.0d0
  end do
  do i = 1, n
    k = idx(i)
    y(i) = y(i) + x(k)
  end do
end subroutine s
`, line: 7,
		want: []string{"idx contiguous 4 - -", "x indirect ? 8*max(m, 0) -", "y contiguous 8 - - store"},
	}, {
		name: "a counter stepped under a branch packs contiguously",
		src: `subroutine s(n, a, b)
  integer :: n, i, k
  double precision :: a(n), b(n)
  k = 0
  do i = 1, n
    if (a(i) > 0.0d0) then
      k = k + 1
      b(k) = a(i)
    end if
  end do
end subroutine s
`, line: 5,
		want: []string{"a contiguous 8 - -", "b contiguous 8 - - store"},
	}, {
		name: "an offset computed before the inner loop stands for its value",
		src: `subroutine s(n, l, a, b)
  integer :: n, l, i, j, i1
  double precision :: a(n, 2*l), b(n, 2*l)
  do i = 0, l - 1
    i1 = 2 * i + 1
    do j = 1, n
      b(j, i1) = a(j, i1) + a(j, i1 + 1)
    end do
  end do
end subroutine s
`, line: 6,
		want: []string{"a contiguous 8 - -", "a contiguous 8 16*max(n, 0) -", "b contiguous 8 - - store"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			res := evaluate(t, c.src, symeval.Options{})
			got := accessesOf(t, res, c.line)
			if !slices.Equal(got, c.want) {
				t.Errorf("accesses:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}

// TestAccessStridesAgainstGfortranE2E: the stride mkvet derives for each
// reference of a loop equals the distance gfortran puts between the
// addresses of the element on two consecutive iterations (loc), over
// arrays of several ranks, element sizes and lower bounds, walked along
// each dimension and backwards.
func TestAccessStridesAgainstGfortranE2E(t *testing.T) {
	e2e.Require(t, "gfortran")
	type ref struct{ decl, sub, next string }
	refs := []ref{
		{"real(8) :: a(5, 7, 3)", "a(i, 2, 1)", "a(i + 1, 2, 1)"},
		{"real(8) :: a(5, 7, 3)", "a(2, i, 1)", "a(2, i + 1, 1)"},
		{"real(8) :: a(5, 7, 3)", "a(1, 2, i)", "a(1, 2, i + 1)"},
		{"real(4) :: b(0:4, -1:5)", "b(1, i)", "b(1, i + 1)"},
		{"complex(8) :: c(6, 6)", "c(i, i)", "c(i + 1, i + 1)"},
		{"integer :: d(3, 4, 5)", "d(2, 3, 4 - i)", "d(2, 3, 4 - (i + 1))"},
		{"real(8) :: e(9, 9)", "e(2 * i, 3)", "e(2 * (i + 1), 3)"},
	}
	var prog, loops strings.Builder
	prog.WriteString("program strides\n  implicit none\n  integer :: i\n")
	for k, r := range refs {
		fmt.Fprintf(&prog, "  %s\n", strings.Replace(r.decl, " :: ", fmt.Sprintf(" :: v%d_", k), 1))
	}
	for k, r := range refs {
		name := strings.Fields(strings.SplitN(r.decl, "::", 2)[1])[0]
		name = name[:strings.IndexByte(name, '(')]
		pre := fmt.Sprintf("v%d_", k)
		fmt.Fprintf(&prog, "  i = 1\n  print '(i0)', loc(%s) - loc(%s)\n",
			pre+r.next, pre+r.sub)
		fmt.Fprintf(&loops, "  do i = 1, 2\n    %s = 0\n  end do\n", strings.Replace(r.sub, name, pre+name, 1))
	}
	src := prog.String() + loops.String() + "end program strides\n"
	dir := t.TempDir()
	f := filepath.Join(dir, "strides.f90")
	if err := writeFile(f, src); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "strides")
	if out, err := exec.Command("gfortran", "-o", exe, f).CombinedOutput(); err != nil {
		t.Fatalf("gfortran: %v\n%s\n%s", err, out, src)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(out))
	res := evaluate(t, src, symeval.Options{})
	loopsAt := occsWhere(res, func(n apt.Node) bool { _, ok := n.(*apt.Loop); return ok })
	if len(loopsAt) != len(refs) || len(want) != len(refs) {
		t.Fatalf("%d loops, %d strides printed, want %d", len(loopsAt), len(want), len(refs))
	}
	for k, o := range loopsAt {
		if len(o.Accesses) != 1 {
			t.Errorf("%s: %d streams", refs[k].sub, len(o.Accesses))
			continue
		}
		a := o.Accesses[0]
		w, _ := strconv.ParseInt(want[k], 10, 64)
		got, ok := a.Stride.Int64()
		if w < 0 {
			w = -w
		}
		if !a.StrideKnown || !ok || got != w {
			t.Errorf("%s in %s: stride %v (known %v), gfortran's %d", refs[k].sub, refs[k].decl, a.Stride, a.StrideKnown, w)
		}
	}
}

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }

// TestBlockMovesAgainstGfortranE2E checks Access.Move against gfortran
// itself: each routine holds one loop nest, and its streams are a block
// move exactly where gfortran -O2 calls memcpy or memmove in the
// routine's place.
func TestBlockMovesAgainstGfortranE2E(t *testing.T) {
	e2e.Require(t, "gfortran")
	bodies := []string{
		"do i = 1, n\n  y(i) = x(i)\nend do",                                  // a copy
		"do i = 1, n\n  y(i) = x(i)\n  z(i) = w(i)\nend do",                   // two copies
		"do j = 1, n\n  do i = 1, n\n    b(i, j) = c(i, j)\n  end do\nend do", // columns
		"do i = 1, n\n  c(i, 4) = c(i, 3)\n  c(i, 2) = c(i, 1)\nend do",       // within one array
		"do i = 1, n\n  y(i) = 2 * x(i)\nend do",                              // arithmetic
		"do i = 1, n / 2\n  y(i) = x(2 * i)\nend do",                          // strided
		"do i = 1, n\n  y(i) = s(i)\nend do",                                  // a conversion
		"do j = 1, n\n  do i = 1, n\n    b(j, i) = c(j, i)\n  end do\nend do", // across rows
		"do i = 1, n\n  y(i) = x(i) + w(i)\nend do",                           // a sum
	}
	var src strings.Builder
	src.WriteString("program moves\n  integer, parameter :: n = 100\n  double precision :: x(n), y(n), z(n), w(n), b(n, n), c(n, n)\n  real :: s(n)\n")
	for k := range bodies {
		fmt.Fprintf(&src, "  call r%d(x, y, z, w, s, b, c, n)\n", k)
	}
	src.WriteString("end program moves\n")
	starts := map[int]string{} // the line each routine starts at
	for k, b := range bodies {
		starts[strings.Count(src.String(), "\n")+1] = fmt.Sprintf("r%d", k)
		fmt.Fprintf(&src, "subroutine r%d(x, y, z, w, s, b, c, n)\n  integer :: n, i, j\n"+
			"  double precision :: x(n), y(n), z(n), w(n), b(n, n), c(n, n)\n  real :: s(n)\n%s\nend subroutine r%d\n",
			k, b, k)
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "moves.f90")
	if err := writeFile(f, src.String()); err != nil {
		t.Fatal(err)
	}
	asm, err := exec.Command("gfortran", "-O2", "-S", "-o", "-", f).Output()
	if err != nil {
		t.Fatalf("gfortran: %v", err)
	}
	// calls maps each routine to whether its code calls the library's
	// block move.
	calls := map[string]bool{}
	routine := ""
	for _, line := range strings.Split(string(asm), "\n") {
		if strings.HasSuffix(line, "_:") && !strings.HasPrefix(line, "\t") {
			routine = strings.TrimSuffix(line, "_:")
			calls[routine] = false
		}
		if routine != "" && (strings.Contains(line, "memcpy") || strings.Contains(line, "memmove")) {
			calls[routine] = true
		}
	}
	res := evaluate(t, src.String(), symeval.Options{})
	moved := map[string]bool{}
	inner := occsWhere(res, func(n apt.Node) bool {
		l, ok := n.(*apt.Loop)
		if !ok {
			return false
		}
		for _, c := range l.Body {
			if _, nested := c.(*apt.Loop); nested {
				return false
			}
		}
		return true
	})
	for _, o := range inner {
		if len(o.Accesses) == 0 {
			continue
		}
		all := true
		for _, a := range o.Accesses {
			all = all && a.Move
		}
		line, name := o.Node.Base().Span.Start().Line, ""
		for at, r := range starts {
			if at <= line && (name == "" || at > startOf(starts, name)) {
				name = r
			}
		}
		moved[name] = all
	}
	n := 0
	for k := range bodies {
		if calls[fmt.Sprintf("r%d", k)] {
			n++
		}
	}
	if n == 0 || n == len(bodies) {
		t.Fatalf("gfortran calls the block move in %d of %d routines: the oracle tells nothing apart", n, len(bodies))
	}
	t.Logf("gfortran -O2 calls the block move in %d of %d routines (%v); mkvet's moves: %v", n, len(bodies), calls, moved)
	for k, b := range bodies {
		name := fmt.Sprintf("r%d", k)
		got, ok := calls[name]
		if !ok {
			t.Fatalf("routine %s not in gfortran's assembly", name)
		}
		if moved[name] != got {
			t.Errorf("%s:\n%s\nmkvet's block move %v, gfortran calls the library %v", name, b, moved[name], got)
		}
	}
}

// startOf is the line routine r starts at in starts.
func startOf(starts map[int]string, r string) int {
	for at, name := range starts {
		if name == r {
			return at
		}
	}
	return 0
}
