package symeval

import "testing"

func TestCWords(t *testing.T) {
	for in, want := range map[string]string{
		"the DO loop without control has no IF (...) EXIT at its top level":                         "the loop without control has no if (...) break at its top level",
		"the loop holds a jump (EXIT, CYCLE of an outer loop, GO TO) the evaluation does not model": "the loop holds a jump (break, continue of an outer loop, goto) the evaluation does not model",
		"follows an exit (RETURN, GO TO, STOP) under a condition":                                   "follows an exit (return, goto, exit()) under a condition",
		"the DO step s is neither a constant":                                                       "the step s is neither a constant",
		// Identifiers that contain a keyword are not words of it.
		"the value of EXIT_CODE and STOPPED": "the value of EXIT_CODE and STOPPED",
		"":                                   "",
	} {
		if got := cWords(in); got != want {
			t.Errorf("cWords(%q) = %q, want %q", in, got, want)
		}
	}
}
