package symeval

import (
	"strconv"
	"testing"
)

// TestLoopVarNameSkipsParameters checks the names loops take beside the
// parameters' names: a loop named after a base that thousands of
// parameters were named after takes the first free suffix, one a
// discarded parameter frees is taken again, and the names of the loops
// being walked are never reused.
func TestLoopVarNameSkipsParameters(t *testing.T) {
	ev := &evaluator{used: map[string]bool{}, suffix: map[string]int{}, usedThrough: map[string]int{}, cur: &domainState{}}
	if got := ev.loopVarName("i"); got != "i" {
		t.Fatalf("no parameter named i: loop named %s, want i", got)
	}
	const n = 5000
	for range n {
		ev.freshName("i")
	}
	want := "i_" + strconv.Itoa(n+1) // i, i_2 .. i_5000 are taken
	for range 3 {
		if got := ev.loopVarName("i"); got != want {
			t.Fatalf("after %d parameters: loop named %s, want %s", n, got, want)
		}
	}
	ev.cur.vars = []string{want, "i_" + strconv.Itoa(n+2)}
	if got, w := ev.loopVarName("i"), "i_"+strconv.Itoa(n+3); got != w {
		t.Fatalf("inside loops named %v: loop named %s, want %s", ev.cur.vars, got, w)
	}
	ev.cur.vars = nil
	ev.releaseName("i_7")
	if got := ev.loopVarName("i"); got != "i_7" {
		t.Fatalf("i_7 released: loop named %s, want i_7", got)
	}
	ev.freshName("i") // takes i_7 again
	if got := ev.loopVarName("i"); got != want {
		t.Fatalf("i_7 taken again: loop named %s, want %s", got, want)
	}
}
