package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symeval"
)

// A scalar component of every element of an array of structures, or of a
// section of one, has as many elements as the array or the section
// (states(:)%energy = 0.0 after ALLOCATE(states(n))): counted, not once.
func TestComponentOfElementsCount(t *testing.T) {
	res := evaluate(t, `program p
  type :: state_t
    logical :: defined
    double precision :: energy, density
  end type state_t
  type(state_t), allocatable :: states(:)
  type(state_t) :: fixed(7)
  integer :: n
  read (*, *) n
  allocate(states(n))
  states(:)%defined = .false.
  states%energy = 0.0d0
  states(2:n:3)%density = 1.0d0
  fixed%energy = 2.0d0
  print *, states(1)%energy, fixed(1)%energy
end program p
`, symeval.Options{})
	var got []string
	for _, o := range occsWhere(res, func(n apt.Node) bool { _, ok := n.(*apt.Block); return ok }) {
		for _, sz := range o.Sizes {
			if sz == nil {
				continue
			}
			e, ok := sz.Single()
			if !ok {
				t.Fatalf("an element count with several values: %v", sz)
			}
			got = append(got, e.String())
		}
	}
	want := "max(n, 0) max(n, 0) max(floor((n + 1)/3), 0) 7"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("element counts %q, want %q", s, want)
	}
}
