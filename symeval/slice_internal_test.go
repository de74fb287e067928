package symeval

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
)

// The slice of probeslice.f's GO TO loop leaves out the two calls of the
// floating-point generator (a function that changes only its arguments
// and result, neither read by the loop's exit) and keeps the call that
// halves the loop's counter (passed to it) and the call that counts in
// COMMON (a routine with effects beyond its arguments). The trip counts a
// probe finds with that slice are checked against executions in
// model/cost (TestProbeSliceAgainstExecution).
func TestProbeSliceOfSeedLoop(t *testing.T) {
	prog, diags := fortran.ParseFiles([]string{filepath.Join("..", "testdata", "programs", "probeslice.f")}, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatal(d)
		}
	}
	main := prog.Routine("probeslice")
	if main == nil {
		t.Fatal("probeslice.f: no main program")
	}
	start := slices.IndexFunc(main.Body, func(n apt.Node) bool {
		c, ok := n.(*apt.Continue)
		return ok && c.Label == "10"
	})
	if start < 0 || start+1 >= len(main.Body) {
		t.Fatal("probeslice.f: the GO TO loop not found")
	}
	seg := main.Body[start : start+2] // the labelled CONTINUE and the IF
	ev := &evaluator{prog: prog, frames: []*frame{{routine: main, id: "f0"}}}
	sl := ev.probeSliceOf(nil, seg)
	if sl == nil {
		t.Fatal("no slice: every statement would run")
	}
	var skipped, kept []string
	apt.Inspect(seg[1], func(n apt.Node) bool {
		switch x := n.(type) {
		case *apt.Block:
			for _, s := range x.Stmts {
				if sl.skip[s] {
					skipped = append(skipped, apt.FormatExpr(s.Value))
				} else {
					kept = append(kept, apt.FormatExpr(s.Value))
				}
			}
		case *apt.Call:
			if sl.skip[x] {
				skipped = append(skipped, "call "+x.Callee)
			} else {
				kept = append(kept, "call "+x.Callee)
			}
		}
		return true
	})
	if want := []string{"gen(r, a)", "gen(a, a)"}; !slices.Equal(skipped, want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
	if want := []string{"call halve", "call tally1"}; !slices.Equal(kept, want) {
		t.Errorf("kept %q, want %q", kept, want)
	}
	if !sl.keys[ev.key("n")] || sl.keys[ev.key("dummy")] || sl.keys[ev.key("a")] {
		t.Errorf("slice keys %v: want n, and neither dummy nor a", sl.keys)
	}
}
