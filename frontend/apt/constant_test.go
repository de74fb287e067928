package apt_test

import (
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
)

// IntConstant evaluates named constants through chains of them, kind
// suffixes and arithmetic, as gfortran folds them, and refuses what is
// not a constant.
func TestIntConstant(t *testing.T) {
	prog, diags := fortran.ParseSource("c.f90", []byte(`module m
  integer, parameter :: base = 100, len_max = base*5 - 1_8
end module m
program p
  use m
  integer, parameter :: half = len_max/2, neg = -half + 3
  integer :: v
  v = 1
end program p
`), fortran.Config{})
	if len(diags) > 0 {
		t.Fatalf("parse: %v", diags)
	}
	r := prog.Routine("p")
	for name, want := range map[string]int64{"base": 100, "len_max": 499, "half": 249, "neg": -246} {
		got, ok := prog.IntConstant(r, &apt.Name{Name: name})
		if !ok || got != want {
			t.Errorf("%s: got %d, %v; want %d", name, got, ok, want)
		}
	}
	if got, ok := prog.IntConstant(r, &apt.Name{Name: "v"}); ok {
		t.Errorf("v, a variable: got %d as a constant", got)
	}
}
