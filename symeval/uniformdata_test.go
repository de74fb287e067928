package symeval_test

import (
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// A REAL array filled whole with a number holds it in every element until
// something else stores to it: a test of an element after the fill is
// decided (no branch frequency), and after any other store, whichever way
// it comes (an element, a WHERE construct, a loop, a routine given the
// array, one arm of a branch on data, an array EQUIVALENCEd to it), it is
// a test of data again.
func TestUniformRealArray(t *testing.T) {
	const src = `
module coefs
  implicit none
  double precision, allocatable :: c(:)
end module coefs

program p
  use coefs
  implicit none
  integer :: n, i, k
  double precision :: w(50), d(50), u(50), v(50), z(50), x, e1(50), e2(50)
  equivalence (e1, e2)
  read (*, *) n, x
  allocate (c(n))
  c = 0.0d0
  k = 0
  if (c(2) /= 0.0d0) k = k + 1
  call use_it(c(n), k)
  w = 1.0d0
  w(3) = x
  if (w(3) > 0.5d0) k = k + 1
  v = 0.0d0
  d = x
  where (d > 0.0d0)
     v = 1.0d0
  end where
  if (v(1) /= 0.0d0) k = k + 1
  if (x > 2.0d0) u = 0.0d0
  if (u(4) == 0.0d0) k = k + 1
  z = 0.0d0
  do i = 1, n
     z(i) = x * i
  end do
  if (z(2) > 1.0d0) k = k + 1
  w = 2.0d0
  call setit(w)
  if (w(1) > 1.0d0) k = k + 1
  e1 = 0.0d0
  e2(1) = x
  if (e1(1) > 0.5d0) k = k + 1
  print *, k
end program p

subroutine use_it(cg, k)
  implicit none
  double precision, intent(in) :: cg
  integer :: k
  if (cg /= 0.0d0) k = k + 1
end subroutine use_it

subroutine setit(a)
  implicit none
  double precision :: a(*)
  a(1) = 0.5d0
end subroutine setit
`
	// Lines: 17 and 48 test elements of c (filled with 0), 21 one stored
	// to, 27 one a WHERE construct may have set, 29 one only an arm on
	// data filled, 34 one a loop stored, 37 one a routine stored, 40 one
	// stored through an EQUIVALENCE.
	res := evaluate(t, src, symeval.Options{})
	freq := map[int]bool{}
	for _, p := range res.Params {
		if p.Origin == symeval.FromFrequency {
			freq[p.Pos.Line] = true
		}
	}
	for _, line := range []int{17, 48} {
		if freq[line] {
			t.Errorf("line %d: a test of an element of an array filled with 0 is taken with a frequency", line)
		}
	}
	for _, line := range []int{21, 27, 29, 34, 37, 40} {
		if !freq[line] {
			t.Errorf("line %d: a test of an element stored to since its fill is decided (frequencies at %v)", line, freq)
		}
	}
}
