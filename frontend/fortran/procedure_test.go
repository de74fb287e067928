package fortran

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
)

// TestProcedureDeclarations: PROCEDURE([interface]) statements declare
// procedure pointers and procedures, with or without ::, an initial
// target and attributes; the routine a pointer is pointed at is no
// variable; procedure components of a type are left alone.
func TestProcedureDeclarations(t *testing.T) {
	src := `module m
  implicit none
  abstract interface
    subroutine side(n)
      integer :: n
    end subroutine side
  end interface
  type holder
    procedure(side), pointer, nopass :: op => null()
  end type holder
  procedure(side), pointer :: f => null(), g
contains
  subroutine left(n)
    integer :: n
  end subroutine left
  subroutine run(h)
    procedure(side) :: h
    procedure(), pointer :: q
    f => left
    q => f
    call f(1)
    call h(2)
    nullify(f)
  end subroutine run
end module m
`
	prog, diags := ParseSource("p.f90", []byte(src), Config{})
	for _, d := range diags {
		if d.Severity == apt.Error || strings.Contains(d.Msg, "no type") {
			t.Errorf("diagnostic %s", d)
		}
	}
	run := prog.Routine("run")
	for _, c := range []struct {
		name, iface string
		pointer     bool
		init        string
	}{{"f", "side", true, "null()"}, {"g", "side", true, ""}, {"h", "side", false, ""}, {"q", "", true, ""}} {
		v := prog.Resolve(run, c.name)
		if v == nil || !v.Procedure || v.Interface != c.iface || v.Pointer != c.pointer {
			t.Errorf("%s declared as %+v, want a procedure with interface %q, pointer %v", c.name, v, c.iface, c.pointer)
			continue
		}
		init := ""
		if len(v.Init) == 1 {
			init = apt.FormatExpr(v.Init[0])
		}
		if init != c.init {
			t.Errorf("%s starts pointing to %q, want %q", c.name, init, c.init)
		}
	}
	if v := prog.Resolve(run, "left"); v != nil {
		t.Errorf("the target left is declared as a variable: %+v", v)
	}
	if h := prog.Routine("m").Scope.LookupType("holder"); h == nil || h.Field("op") != nil {
		t.Errorf("type holder: %+v, want its procedure component left out", h)
	}
}

// TestStatementFunctions: f(x) = ... among the declarations is a
// statement function where f is no array the unit can see; an element of
// a module's array (USE), or of an array declared here, is assigned.
func TestStatementFunctions(t *testing.T) {
	src := "module timers\n  double precision elapsed(8)\nend module timers\n" +
		"subroutine clear(n)\n  use timers\n  implicit none\n  integer n\n  elapsed(n) = 0.0\nend subroutine clear\n" +
		"subroutine g(n, a)\n  integer n, i\n  double precision a(n), b(4), f, x\n  f(x) = 2.0d0*x + 1.0d0\n  b(1) = 0\n" +
		"  do i = 1, n\n    a(i) = f(a(i))\n  end do\nend subroutine g\n"
	prog, diags := ParseSource("sf.f90", []byte(src), Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatal(d)
		}
	}
	clear, g := prog.Routine("clear"), prog.Routine("g")
	if clear == nil || g == nil {
		t.Fatal("routines not found")
	}
	if len(clear.Contains) != 0 || len(clear.Body) == 0 {
		t.Errorf("clear: elapsed(n) = 0 became a statement function (contains %d, body %d)", len(clear.Contains), len(clear.Body))
	}
	if len(g.Contains) != 1 || !g.Contains[0].Statement || g.Contains[0].Name != "f" || len(g.Contains[0].Formals) != 1 {
		t.Fatalf("g: want the statement function f(x), got %v", g.Contains)
	}
	var calls int
	apt.Inspect(g, func(n apt.Node) bool {
		if b, ok := n.(*apt.Block); ok {
			for _, s := range b.Stmts {
				apt.InspectExpr(s.Value, func(e apt.Expr) bool {
					if fc, ok := e.(*apt.FuncCall); ok && fc.Name == "f" {
						calls++
					}
					return true
				})
			}
		}
		return true
	})
	if calls != 1 {
		t.Errorf("g: %d calls of f in the loop, want 1 (b(1) = 0 is an assignment, not a definition)", calls)
	}
}

// TestAssociateNames: an associate name bound to an array element is that
// element wherever it is used; one bound to a function reference is a
// value taken once when the construct begins (the call is not repeated at
// each use).
func TestAssociateNames(t *testing.T) {
	src := "program a\n  implicit none\n  integer :: n, i, a(10)\n  n = 5\n  a = 3\n" +
		"  associate (m => twice(n), k => a(2))\n    do i = 1, m + k + m\n    end do\n  end associate\n" +
		"contains\n  integer function twice(x)\n    integer, intent(in) :: x\n    twice = 2*x\n  end function twice\nend program a\n"
	prog, diags := ParseSource("as.f90", []byte(src), Config{})
	for _, d := range diags {
		t.Fatal(d)
	}
	r := prog.Routine("a")
	var loop *apt.Loop
	calls := 0
	apt.Inspect(r, func(n apt.Node) bool {
		switch x := n.(type) {
		case *apt.Loop:
			loop = x
		case *apt.Block:
			for _, s := range x.Stmts {
				apt.InspectExpr(s.Value, func(e apt.Expr) bool {
					if fc, ok := e.(*apt.FuncCall); ok && fc.Name == "twice" {
						calls++
					}
					return true
				})
			}
		}
		return true
	})
	if loop == nil || apt.FormatExpr(loop.Upper) != "m + a(2) + m" {
		t.Fatalf("loop bound %v, want m + a(2) + m", loop)
	}
	if calls != 1 {
		t.Errorf("twice called %d times in assignments, want 1 (m = twice(n) at the construct's start)", calls)
	}
}

// An associate name in the statement a logical IF controls is the
// selector, as anywhere in the construct.
func TestAssociateInLogicalIf(t *testing.T) {
	src := "program a\n  implicit none\n  integer :: n, k\n  n = 5\n  associate (m => n)\n" +
		"    if (n > 0) print *, m\n    if (n > 1) k = m\n  end associate\nend program a\n"
	prog, diags := ParseSource("as.f90", []byte(src), Config{})
	for _, d := range diags {
		t.Fatal(d)
	}
	if v := prog.Routine("a").Scope.Lookup("m"); v != nil {
		t.Errorf("m declared in the program (%v): the logical IFs did not read it as n", v.Type)
	}
}

// TestConstructSyntax2018: DO CONCURRENT with locality specifiers, a
// named BLOCK left by EXIT (a jump the APT does not model: a warning and an
// Unknown that skips, never a parse error), named ASSOCIATE and SELECT
// TYPE constructs, and a pointer assignment as a logical IF's statement.
func TestConstructSyntax2018(t *testing.T) {
	src := `module shapes
  type base
    integer :: n = 1
  end type base
  type, extends(base) :: ext
    integer :: m = 2
  end type ext
end module shapes
program p
  use shapes
  implicit none
  integer, target :: a(10), b
  integer, pointer :: q
  integer :: i, tmp, k, s
  class(base), allocatable :: x
  s = 0
  do concurrent (i = 1:10) local(tmp) shared(a) default(none)
    tmp = i
    a(i) = tmp
  end do
  do concurrent (i = 1:10, mod(i, 2) == 0) local_init(s) reduce(+:s)
    a(i) = 0
  end do
  search: block
    do k = 1, 10
      if (a(k) > 5) exit search
    end do
  end block search
  pair: associate (h => a(1))
    s = h
  end associate pair
  allocate(ext :: x)
  kinds: select type (x)
  type is (ext)
    s = x%m
  end select kinds
  if (s > 0) q => b
end program p
`
	prog, diags := ParseSource("p.f90", []byte(src), Config{})
	exitWarned := false
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Errorf("diagnostic %s", d)
		}
		exitWarned = exitWarned || strings.Contains(d.Msg, "EXIT from the construct search")
	}
	if !exitWarned {
		t.Error("the EXIT from the BLOCK is not reported as not modelled")
	}
	loops, skips, pointer := 0, 0, false
	apt.Inspect(prog, func(n apt.Node) bool {
		switch x := n.(type) {
		case *apt.Loop:
			loops++
		case *apt.Unknown:
			if !x.Skips {
				t.Errorf("Unknown %q does not skip what follows", x.Text)
			}
			skips++
		case *apt.Block:
			for _, s := range x.Stmts {
				pointer = pointer || s.Kind == apt.StmtPointerAssign
			}
		}
		return true
	})
	if loops != 3 || skips != 1 || !pointer {
		t.Errorf("%d loops, %d Unknowns, pointer assignment %v; want 3, 1 and true", loops, skips, pointer)
	}
}
