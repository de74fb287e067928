package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
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

// TestNestedDataTestsBounded: tests on data nested in each other's ELSE
// multiply the path's frequency factor by a binomial each (2^k terms for
// k of them, carried by every count below); past maxFactorTerms the
// frequencies are taken at their defaults, the factor is a number, and
// the counts under it say they are approximate.
func TestNestedDataTestsBounded(t *testing.T) {
	res := evaluate(t, `program p
  double precision :: x(100)
  integer :: i, s
  call random_number(x)
  s = 0
  do i = 1, 100
    if (x(1) > 0.5d0) then
      s = s + 1
    else
      if (x(2) > 0.5d0) then
        s = s + 2
      else
        if (x(3) > 0.5d0) then
          s = s + 3
        else
          if (x(4) > 0.5d0) then
            s = s + 4
          else
            if (x(5) > 0.5d0) then
              s = s + 5
            else
              if (x(6) > 0.5d0) then
                s = s + 6
              else
                if (x(7) > 0.5d0) then
                  s = s + 7
                else
                  if (x(8) > 0.5d0) then
                    s = s + 8
                  else
                    s = s - 1
                  end if
                end if
              end if
            end if
          end if
        end if
      end if
    end if
  end do
  print *, s
end program p
`, symeval.Options{})
	deepest := occsWhere(res, func(n apt.Node) bool {
		b, ok := n.(*apt.Block)
		return ok && b.Span.Start().Line == 31
	})
	if len(deepest) == 0 {
		t.Fatal("no occurrence of the innermost statement")
	}
	for _, o := range deepest {
		if n := o.Dom.Factor.NumTerms(); n > 64 {
			t.Errorf("the innermost arm's factor has %d terms", n)
		}
		if !o.Inexact || !strings.Contains(o.Note, "nested conditions on data") {
			t.Errorf("the innermost arm is not marked approximate: inexact %v, note %q", o.Inexact, o.Note)
		}
	}
	shallow := occsWhere(res, func(n apt.Node) bool {
		b, ok := n.(*apt.Block)
		return ok && b.Span.Start().Line == 8
	})
	for _, o := range shallow {
		if len(o.Dom.Factor.Symbols()) == 0 {
			t.Errorf("the first arm's frequency is not its parameter: %s", o.Dom.Factor)
		}
	}
}
