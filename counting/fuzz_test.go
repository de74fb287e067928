package counting

import (
	"errors"
	"testing"
)

// FuzzParseSet: the set parser never panics, errors carry a column inside the
// input, and an accepted set prints to text that parses to the same set.
func FuzzParseSet(f *testing.F) {
	for _, s := range []string{
		fahringerSet,
		"{ [i] : 0 <= i < 10 }",
		"[n] -> { [i, j] : 1 <= i <= n and i <= j <= n and (i = 1 or j != n) }",
		"[n, p, k] -> { [i] : 1 <= i <= n and mod(i - 1, p) = k - 1 }",
		"[n, b, p, k] -> { [i] : 1 <= i <= n and modulo(floor((i-1)/b), p) = k - 1 }",
		"[n, s] -> { [i] : 0 <= i <= n and not (mod(i, s) != 0) }",
		"[n] -> { [i] : min(n, 5) >= i >= max(1, n - 3) }",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		set, err := ParseSet(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseSet(%q): %v is not a *ParseError", s, err)
			}
			if pe.Col < 1 || pe.Col > len(s)+1 || pe.Msg == "" {
				t.Fatalf("ParseSet(%q): bad error position or message: %v", s, err)
			}
			return
		}
		text := set.String()
		back, err := ParseSet(text)
		if err != nil {
			t.Fatalf("ParseSet(%q) prints as %q, which does not parse: %v", s, text, err)
		}
		if back.String() != text {
			t.Fatalf("ParseSet(%q): printed %q, reparsed prints %q", s, text, back.String())
		}
	})
}
