package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// TestArrayJoinOnData: after a test of data, the elements both arms hold
// keep their value; the others are unknown.
func TestArrayJoinOnData(t *testing.T) {
	res := evaluate(t, `program p
  implicit none
  integer :: n, i, fl(4)
  real :: x
  read *, n
  fl = 0
  fl(2) = 1
  call random_number(x)
  if (x > 0.5) then
    fl = 0
    fl(3) = 5
    fl(2) = 1
  end if
  do i = 1, fl(2)*n
  end do
  do i = 1, fl(3)
  end do
end program p
`, symeval.Options{})
	if b := loopBodies(t, res, 14); len(b) != 1 || !strings.Contains(b[0], "n >= i") || strings.Contains(b[0], "fl") {
		t.Errorf("the loop over fl(2)*n: %q, want i <= n", b)
	}
	if b := loopBodies(t, res, 16); len(b) != 1 || !strings.Contains(b[0], "fl") {
		t.Errorf("the loop over fl(3): %q, want a bound on the unknown element", b)
	}
}

// TestArrayKeptByLoop: a loop whose iterations store to an array the
// values it holds (on every trip and under tests of data, with a
// convergence exit at the end of its body) leaves it as it is, inside the
// loop and after it; one whose iterations change an element does not.
func TestArrayKeptByLoop(t *testing.T) {
	res := evaluate(t, `program q
  implicit none
  integer :: n, k, i, fl(4)
  real :: x
  read *, n
  fl = 0
  fl(2) = 1
  do k = 1, n
    call random_number(x)
    if (x > 0.5) then
      fl = 0
      fl(2) = 1
    end if
    do i = 1, fl(2)*n
    end do
    fl(2) = 1
    if (x > 0.9) exit
  end do
  do i = 1, fl(2)*n
  end do
  do k = 1, n
    fl(2) = k
  end do
  do i = 1, fl(2)
  end do
end program q
`, symeval.Options{})
	for _, line := range []int{14, 19} {
		if b := loopBodies(t, res, line); len(b) != 1 || !strings.Contains(b[0], "n >= i") || strings.Contains(b[0], "fl") {
			t.Errorf("the loop over fl(2)*n at line %d: %q, want i <= n", line, b)
		}
	}
	if b := loopBodies(t, res, 24); len(b) != 1 || strings.Contains(b[0], "i <= 1") {
		t.Errorf("the loop over fl(2) after a loop sets it to k: %q, want another bound than 1", b)
	}
}

// TestArrayLeftMidIteration: an iteration that may leave the loop between
// a store and the store that restores the value does not keep the array.
func TestArrayLeftMidIteration(t *testing.T) {
	res := evaluate(t, `program r
  implicit none
  integer :: n, k, i, fl(4)
  real :: x
  read *, n
  fl = 0
  fl(2) = 1
  do k = 1, n
    call random_number(x)
    fl(2) = 5
    if (x > 0.9) exit
    fl(2) = 1
  end do
  do i = 1, fl(2)*n
  end do
end program r
`, symeval.Options{})
	if b := loopBodies(t, res, 14); len(b) != 1 || !strings.Contains(b[0], "fl") {
		t.Errorf("the loop over fl(2)*n: %q, want a bound on the unknown element", b)
	}
}
