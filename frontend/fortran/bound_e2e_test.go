package fortran

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
)

// boundProgram calls type-bound procedures (specific and GENERIC
// bindings, PASS(arg), NOPASS, inherited through EXTENDS and overridden,
// a function binding, on an element of an array of objects), defined
// unary and binary operators and generic functions; every procedure
// prints its name.
const boundProgram = `module shapes
  implicit none
  type :: grid
    integer :: n = 0
  contains
    procedure :: init => grid_init
    procedure :: cells => grid_cells
    procedure, nopass :: kind_name
    procedure, pass(g) :: scale_by
    procedure :: add_i, add_r
    generic :: add => add_i, add_r
  end type grid
  type, extends(grid) :: fine
    integer :: m = 0
  contains
    procedure :: init => fine_init
  end type fine
  interface operator(.plus.)
    module procedure plus_gg, plus_gi
  end interface
  interface operator(.neg.)
    module procedure neg_g
  end interface
  interface twice
    module procedure twice_i, twice_r
  end interface
contains
  subroutine grid_init(self, n)
    class(grid), intent(inout) :: self
    integer, intent(in) :: n
    print '(a)', 'grid_init'
    self%n = n
  end subroutine grid_init
  subroutine fine_init(self, n)
    class(fine), intent(inout) :: self
    integer, intent(in) :: n
    print '(a)', 'fine_init'
    self%n = 2 * n
  end subroutine fine_init
  integer function grid_cells(self)
    class(grid), intent(in) :: self
    print '(a)', 'grid_cells'
    grid_cells = self%n
  end function grid_cells
  subroutine kind_name(k)
    integer, intent(in) :: k
    print '(a)', 'kind_name'
  end subroutine kind_name
  subroutine scale_by(f, g)
    integer, intent(in) :: f
    class(grid), intent(inout) :: g
    print '(a)', 'scale_by'
    g%n = g%n * f
  end subroutine scale_by
  subroutine add_i(self, x)
    class(grid), intent(inout) :: self
    integer, intent(in) :: x
    print '(a)', 'add_i'
  end subroutine add_i
  subroutine add_r(self, x)
    class(grid), intent(inout) :: self
    real(8), intent(in) :: x
    print '(a)', 'add_r'
  end subroutine add_r
  function plus_gg(a, b) result(c)
    type(grid), intent(in) :: a, b
    type(grid) :: c
    print '(a)', 'plus_gg'
    c%n = a%n + b%n
  end function plus_gg
  function plus_gi(a, b) result(c)
    type(grid), intent(in) :: a
    integer, intent(in) :: b
    type(grid) :: c
    print '(a)', 'plus_gi'
    c%n = a%n + b
  end function plus_gi
  function neg_g(a) result(c)
    type(grid), intent(in) :: a
    type(grid) :: c
    print '(a)', 'neg_g'
    c%n = -a%n
  end function neg_g
  integer function twice_i(x)
    integer, intent(in) :: x
    print '(a)', 'twice_i'
    twice_i = 2 * x
  end function twice_i
  real(8) function twice_r(x)
    real(8), intent(in) :: x
    print '(a)', 'twice_r'
    twice_r = 2 * x
  end function twice_r
end module shapes

program p
  use shapes
  implicit none
  type(grid) :: g, h, gs(3)
  type(fine) :: f
  integer :: k
  real(8) :: x
  call g%init(4)
  call f%init(4)
  call gs(2)%init(5)
  k = g%cells()
  call g%kind_name(3)
  call g%scale_by(2)
  call g%add(1)
  call g%add(1.0d0)
  call f%add(2)
  h = g .plus. h
  h = g .plus. 3
  h = .neg. g
  k = twice(k)
  x = twice(x)
end program p
`

// TestTypeBoundAndOperatorsAgainstGfortranE2E: every type-bound call,
// defined operator and generic function reference names the procedure
// gfortran's run calls.
func TestTypeBoundAndOperatorsAgainstGfortranE2E(t *testing.T) {
	want := gfortranRun(t, "bound.f90", boundProgram)
	prog, diags := ParseSource("bound.f90", []byte(boundProgram), Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %v", d)
		}
	}
	var got []string
	apt.Inspect(prog.Routine("p"), func(n apt.Node) bool {
		switch n := n.(type) {
		case *apt.Call:
			got = append(got, n.Callee)
		case *apt.Block:
			for _, s := range n.Stmts {
				apt.InspectExpr(s.Value, func(x apt.Expr) bool {
					if fc, ok := x.(*apt.FuncCall); ok && !fc.Intrinsic {
						got = append(got, fc.Name)
					}
					return true
				})
			}
		}
		return true
	})
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("mkvet calls\n  %s\ngfortran's run calls\n  %s", strings.Join(got, " "), strings.Join(want, " "))
	}
}
