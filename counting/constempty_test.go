package counting

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

// constEmpty may only call a set empty when it is: random formulas over
// two variables (relations on one variable or both, conjunctions,
// disjunctions and negations nested), inside a box so that enumeration
// is the oracle. Where it says empty, no point of the box satisfies the
// condition; where the box has no point, Sum agrees.
func TestConstEmptyAgainstEnumeration(t *testing.T) {
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
	empties := 0
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
		if !constEmpty(s) {
			continue
		}
		empties++
		if points != 0 {
			t.Fatalf("trial %d: constEmpty says %s is empty; it has %d points", trial, text, points)
		}
		pw, err := Sum(s, symbolic.Int(1), nil, Options{})
		if err != nil || len(pw.Pieces) != 0 {
			t.Fatalf("trial %d: Sum of the empty %s = %v, %v", trial, text, pw, err)
		}
	}
	if empties < 100 {
		t.Errorf("only %d of the random sets were found empty: the test no longer exercises constEmpty", empties)
	}
}

// A loop that does not run on this path (k >= 2 and 0 >= k) under a
// condition of hundreds of disjoint cases counts nothing: the cases are
// not expanded first (they exceed the engine's limit and the count
// failed as too complex).
func TestEmptyLoopUnderManyCases(t *testing.T) {
	var cases []string
	for range 3 {
		var alts []string
		for c := 1; c <= 12; c++ {
			alts = append(alts, fmt.Sprintf("(k = %d and i <= %d)", c, c+2))
		}
		cases = append(cases, "("+strings.Join(alts, " or ")+")")
	}
	text := "{ [k, i] : k >= 2 and 6 >= k and 0 >= k and i >= 1 and " + strings.Join(cases, " and ") + " }"
	s, err := ParseSet(text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := disjoint(s.Cond); !errors.Is(err, ErrTooComplex) {
		t.Fatalf("the condition no longer exceeds the case limit (%v): the test shows nothing", err)
	}
	pw, err := Sum(s, symbolic.Int(1), nil, Options{})
	if err != nil || len(pw.Pieces) != 0 {
		t.Fatalf("Sum = %v, %v; want an empty count", pw, err)
	}
}
