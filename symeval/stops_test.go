package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// TestErrorCheckWithTwoFailures: a check whose arm chooses between two
// ways of stopping (C++'s allocation check: one exception for an
// impossible length, another for too much memory) is an error check like
// one that stops directly: on a value the evaluation cannot decide it is
// taken as passing, said so, and the code after it is not conditioned on
// it (before, every later count carried the negated check).
func TestErrorCheckWithTwoFailures(t *testing.T) {
	res := evaluate(t, `program p
  integer :: n, i, m
  read *, n
  if (n > 100) then
    if (n > 1000) then
      stop 'impossible'
    else
      stop 'too big'
    end if
  end if
  m = 0
  do i = 1, n
    m = m + i
  end do
end program p
`, symeval.Options{})
	found := false
	for _, a := range res.Assumed {
		found = found || strings.Contains(a.What, "error check") && strings.Contains(a.What, "n > 100")
	}
	if !found {
		t.Errorf("no assumption that the check n > 100 passes: %v", res.Assumed)
	}
	if b := loopBodies(t, res, 12); len(b) != 1 || strings.Contains(b[0], "101") || strings.Contains(b[0], "not") {
		t.Errorf("the loop after the check: body %q, want no condition from the check", b)
	}
}
