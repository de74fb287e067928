package llvmir

import (
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/e2e"
)

// TestShadowedNamesE2E reads a C function with an int loop counter r and,
// after the loop, a double *r (testdata/programs/shadowed.c): each is a
// variable of its own type, the counter an integer scalar that the DO
// loop steps, the vector a real array. Before, both were one variable of
// the type declared first, and a run of the loop stopped on "the whole
// array r is used as a value".
func TestShadowedNamesE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	prog, diags := ParseFiles([]string{"../../testdata/programs/shadowed.c"}, Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("%v", d)
		}
	}
	r := prog.Routine("main")
	if r == nil {
		t.Fatal("no main")
	}
	var loopVar string
	apt.Inspect(r, func(n apt.Node) bool {
		if l, ok := n.(*apt.Loop); ok && loopVar == "" && l.Span.Start().Line == 20 {
			loopVar = l.Var
		}
		return true
	})
	if loopVar == "" {
		t.Fatal("no counted loop at line 20")
	}
	v := r.Scope.Lookup(loopVar)
	if v == nil || v.Type.Base != apt.TypeInteger || len(v.Dims) != 0 {
		t.Errorf("the counter of line 20 is %s declared %+v: want an integer scalar", loopVar, v)
	}
	reals := 0
	for _, name := range []string{"r", "r_2"} {
		if v := r.Scope.Lookup(name); v != nil && v.Type.Base == apt.TypeReal && len(v.Dims) == 1 {
			reals++
		}
	}
	if reals != 1 {
		t.Errorf("no real array among r, r_2: the vector r has no variable of its own")
	}
}
