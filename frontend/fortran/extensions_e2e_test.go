package fortran

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/e2e"
)

// TestCrayPointersAndByteAgainstGfortran: the Cray pointer statement
// (gfortran -fcray-pointer; MPI 2's Fortran binding of MPI_ALLOC_MEM) and
// BYTE declare what gfortran declares: the pointer an integer of the kind
// gfortran prints, the pointee with its own type and shape, BYTE a
// one-byte integer; the program around them parses.
func TestCrayPointersAndByteAgainstGfortran(t *testing.T) {
	tools := e2e.Require(t, "gfortran")
	const src = `      program cray
      implicit none
      integer n, i
      parameter (n = 10)
      real*8 a(1), s
      byte b
      integer w(n, 2)
      pointer (pa, a), (pw, w)
      pointer (pb, b)
      pa = malloc(8*n)
      pw = malloc(4*2*n)
      pb = malloc(1)
      s = 0
      do i = 1, n
         a(i) = i
         s = s + a(i)
      end do
      b = 3
      print *, kind(pa), kind(pw), kind(b), kind(a), int(s)
      end
`
	path, out := e2e.CompileRun(t, tools[0], "cray.f", src, "-fcray-pointer", "-w")
	want := strings.Fields(out)
	if len(want) != 5 || want[4] != "55" {
		t.Fatalf("gfortran's program printed %q", out)
	}
	prog, diags := ParseFiles([]string{path}, Config{})
	for _, d := range diags {
		t.Errorf("%v", d)
	}
	sc := prog.Routines[0].Scope
	for i, c := range []struct {
		name string
		base apt.BaseType
		dims int
	}{{"pa", apt.TypeInteger, 0}, {"pw", apt.TypeInteger, 0}, {"b", apt.TypeInteger, 0}, {"a", apt.TypeReal, 1}} {
		v := sc.Lookup(c.name)
		if v == nil {
			t.Fatalf("%s is not declared", c.name)
		}
		if v.Type.Base != c.base || want[i] != strconv.Itoa(v.Type.Kind) || len(v.Dims) != c.dims {
			t.Errorf("%s: %v kind %d with %d dimensions; gfortran's kind is %s", c.name, v.Type.Base, v.Type.Kind, len(v.Dims), want[i])
		}
	}
	if w := sc.Lookup("w"); w == nil || len(w.Dims) != 2 {
		t.Errorf("the pointee w keeps its declared shape: %+v", w)
	}
}

// TestHollerithAgainstGfortran: Hollerith constants in fixed form (nH and n
// characters, blanks and quotes among them: gfortran -std=legacy) are the
// character constants the compiled program prints in DATA; as an actual
// argument, the n characters after H, blanks included (gfortran passes it
// without a length, so the program cannot print it); FORMAT's nH edit
// descriptors still print.
func TestHollerithAgainstGfortran(t *testing.T) {
	tools := e2e.Require(t, "gfortran")
	const src = `      program holl
      character*12 c
      character*5 d
      data c/12HBAD ARGUMENT/
      data d/5Habc'd/
      print '(a)', c
      print '(a)', d
      print 100, 2
  100 format(5Hcount, i3)
      if (len(c) .lt. 0) call show(3H x )
      end
      subroutine show(s)
      integer s
      end
`
	path, out := e2e.CompileRun(t, tools[0], "holl.f", src, "-std=legacy", "-w")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("gfortran's program printed %q", out)
	}
	prog, diags := ParseFiles([]string{path}, Config{})
	for _, d := range diags {
		t.Errorf("%v", d)
	}
	var main *apt.Routine
	for _, r := range prog.Routines {
		if r.Name == "holl" {
			main = r
		}
	}
	if main == nil {
		t.Fatal("no main program")
	}
	for i, name := range []string{"c", "d"} {
		v := main.Scope.Lookup(name)
		if v == nil || len(v.Init) != 1 {
			t.Fatalf("%s: no initial value", name)
		}
		c, ok := v.Init[0].(*apt.Const)
		if !ok || c.Kind != apt.ConstChar || c.Text != lines[i] {
			t.Errorf("%s is %s; gfortran prints %q", name, apt.FormatExpr(v.Init[0]), lines[i])
		}
	}
	found := false
	apt.Inspect(main, func(n apt.Node) bool {
		if c, ok := n.(*apt.Call); ok && c.Callee == "show" && len(c.Args) == 1 {
			k, isConst := c.Args[0].(*apt.Const)
			found = isConst && k.Text == " x "
		}
		return true
	})
	if !found {
		t.Errorf("the argument of show is not the constant \" x \"")
	}
	if !strings.HasPrefix(lines[2], "count") {
		t.Errorf("the FORMAT printed %q", lines[2])
	}
}

// TestEnumeratorsAgainstGfortran: ENUM, BIND(C) declares named integer
// constants, each without a value one more than the one before, with the
// values the compiled program prints.
func TestEnumeratorsAgainstGfortran(t *testing.T) {
	tools := e2e.Require(t, "gfortran")
	const src = `module colours
  enum, bind(c)
    enumerator :: red, green
    enumerator :: blue = 5, cyan, magenta = red + 10
    enumerator yellow
  end enum
end module
program p
  use colours
  print *, red, green, blue, cyan, magenta, yellow
end program
`
	path, out := e2e.CompileRun(t, tools[0], "enum.f90", src)
	want := strings.Fields(out)
	prog, diags := ParseFiles([]string{path}, Config{})
	for _, d := range diags {
		t.Errorf("%v", d)
	}
	mod := prog.Routine("colours")
	for i, name := range []string{"red", "green", "blue", "cyan", "magenta", "yellow"} {
		v := mod.Scope.Lookup(name)
		if v == nil || v.Param == nil {
			t.Fatalf("%s is not a named constant", name)
		}
		got, ok := prog.IntConstant(mod, v.Param)
		if !ok || i >= len(want) || strconv.FormatInt(got, 10) != want[i] {
			t.Errorf("%s = %d (%v); gfortran prints %v", name, got, ok, want)
		}
	}
}

// TestImplicitNoneSpecList: IMPLICIT NONE (TYPE, EXTERNAL), Fortran 2018's
// form, is IMPLICIT NONE: an undeclared variable is reported, and the
// statement itself is no error; IMPLICIT NONE (EXTERNAL) alone keeps
// implicit typing.
func TestImplicitNoneSpecList(t *testing.T) {
	for _, spec := range []string{"implicit none (type, external)", "implicit none ()", "implicit none(external)"} {
		src := "program p\n  " + spec + "\n  integer :: n\n  n = 1\n  k = n\nend program\n"
		_, diags := ParseSource("p.f90", []byte(src), Config{})
		undeclared := false
		for _, d := range diags {
			if d.Severity == apt.Error {
				t.Errorf("%s: %v", spec, d)
			}
			undeclared = undeclared || strings.Contains(d.Msg, "no type for k")
		}
		if want := spec != "implicit none(external)"; undeclared != want {
			t.Errorf("%s: the undeclared k reported: %v, want %v (%v)", spec, undeclared, want, diags)
		}
	}
}
