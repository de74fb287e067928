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
