package counting

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// pinConstants may only call a set empty when it is, and only fix a
// variable that has one value: random formulas over two variables
// (relations on one variable or both, conjunctions, disjunctions and
// negations nested), inside a box so that enumeration is the oracle.
// Where it says empty, no point of the box satisfies the condition; where
// it fixes a variable, every point has that value and Sum counts the
// points exactly.
func TestPinConstantsAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	vars := []string{"x", "y"}
	relText := func() string {
		c := rng.IntN(15) - 7
		ops := []string{">=", "<=", "=", ">", "<", "!="}
		op := ops[rng.IntN(len(ops))]
		switch rng.IntN(3) {
		case 0:
			return fmt.Sprintf("x %s %d", op, c)
		case 1:
			return fmt.Sprintf("y %s %d", op, c)
		}
		return fmt.Sprintf("%d*x + %d*y %s %d", rng.IntN(5)-2, rng.IntN(5)-2, op, c)
	}
	var formula func(depth int) string
	formula = func(depth int) string {
		if depth == 0 || rng.IntN(3) == 0 {
			return relText()
		}
		n := 2 + rng.IntN(3)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = formula(depth - 1)
		}
		switch rng.IntN(3) {
		case 0:
			return "(" + strings.Join(parts, " and ") + ")"
		case 1:
			return "(" + strings.Join(parts, " or ") + ")"
		}
		if strings.HasPrefix(parts[0], "(") {
			return "not " + parts[0]
		}
		return "not (" + parts[0] + ")"
	}
	empties, pinned := 0, 0
	for trial := range 3000 {
		text := fmt.Sprintf("{ [x, y] : -6 <= x <= 6 and -6 <= y <= 6 and %s and %s }", formula(3), formula(2))
		s, err := ParseSet(text)
		if err != nil {
			t.Fatalf("trial %d: %s: %v", trial, text, err)
		}
		c, err := CompileFormula(s.Cond, vars)
		if err != nil {
			t.Fatal(err)
		}
		points := 0
		for x := int64(-6); x <= 6; x++ {
			for y := int64(-6); y <= 6; y++ {
				if in, err := c.Holds([]int64{x, y}); err != nil {
					t.Fatal(err)
				} else if in {
					points++
				}
			}
		}
		ps, _, empty, err := pinConstants(s, symbolic.Int(1))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case empty:
			empties++
			if points != 0 {
				t.Fatalf("trial %d: pinConstants says %s is empty; it has %d points", trial, text, points)
			}
		case len(ps.Vars) < 2:
			pinned++
		default:
			continue
		}
		pw, err := Sum(s, symbolic.Int(1), nil, Options{})
		if err != nil {
			continue // beyond the engine in closed form; not what is tested
		}
		got, err := pw.Eval(nil)
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := got.Int64(); !ok || n != int64(points) {
			t.Fatalf("trial %d: Sum of %s = %v; enumeration finds %d points", trial, text, got, points)
		}
	}
	if empties < 100 || pinned < 50 {
		t.Errorf("%d empty and %d pinned sets of the random ones: the test no longer exercises pinConstants", empties, pinned)
	}
}

// levelCases is a set over k and i: bounds of k given by first, and three
// conditions that test k against twelve levels each (the cases of an IF
// chain), more disjoint cases together than the engine expands. It fails
// the test when they no longer are.
func levelCases(t *testing.T, first string) *Set {
	t.Helper()
	var cases []string
	for range 3 {
		var alts []string
		for c := 1; c <= 12; c++ {
			alts = append(alts, fmt.Sprintf("(k = %d and i <= %d)", c, c+2))
		}
		cases = append(cases, "("+strings.Join(alts, " or ")+")")
	}
	s, err := ParseSet("{ [k, i] : " + first + " and i >= 1 and " + strings.Join(cases, " and ") + " }")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := disjoint(s.Cond); !errors.Is(err, ErrTooComplex) {
		t.Fatalf("the condition no longer exceeds the case limit (%v): the test shows nothing", err)
	}
	return s
}

// A loop that does not run on this path (k >= 2 and 0 >= k) under a
// condition of hundreds of disjoint cases counts nothing: the cases are
// not expanded first (they exceed the engine's limit and the count
// failed as too complex).
func TestEmptyLoopUnderManyCases(t *testing.T) {
	s := levelCases(t, "k >= 2 and 6 >= k and 0 >= k")
	pw, err := Sum(s, symbolic.Int(1), nil, Options{})
	if err != nil || len(pw.Pieces) != 0 {
		t.Fatalf("Sum = %v, %v; want an empty count", pw, err)
	}
}

// A variable the condition fixes (k == 5 beside tests of k against every
// level) is counted at that value: the tests become constants before the
// cases are expanded.
func TestFixedVariableUnderManyCases(t *testing.T) {
	s := levelCases(t, "k >= 2 and 6 >= k and k = 5")
	pw, err := Sum(s, symbolic.Sym("i"), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := pw.Eval(nil)
	if err != nil {
		t.Fatal(err)
	}
	// k = 5: i runs from 1 to 7; the weight i sums to 28.
	if n, ok := got.Int64(); !ok || n != 28 {
		t.Fatalf("Sum = %v; want 28", got)
	}
}
