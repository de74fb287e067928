package fortran

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/e2e"
)

// TestBOZAgainstGfortran: BOZ constants in the forms gfortran takes with
// -fallow-invalid-boz (X'..' for Z'..', the postfix '..'Z, as NPB's
// randi8.f writes them) parse as BOZ constants whose digits and base give
// the values the compiled program prints.
func TestBOZAgainstGfortran(t *testing.T) {
	tools := e2e.Require(t, "gfortran")
	const src = `      program boz
      integer*8 a, b, c, d, e, f, g
      data a/X'00003FFFFFFFFFFF'/
      data b/z'ff'/
      data c/'7F'X/
      data d/'1f'Z/
      data e/B'101'/
      data f/O'17'/
      data g/x'ABC'/
      print *, a, b, c, d, e, f, g
      end
`
	path, out := e2e.CompileRun(t, tools[0], "boz.f", src, "-fallow-invalid-boz", "-w")
	want := strings.Fields(out)
	prog, diags := ParseFiles([]string{path}, Config{})
	for _, d := range diags {
		t.Errorf("%v", d)
	}
	for i, name := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		v := prog.Routines[0].Scope.Lookup(name)
		if v == nil || len(v.Init) != 1 {
			t.Fatalf("%s: no initial value", name)
		}
		c, ok := v.Init[0].(*apt.Const)
		if !ok || c.Kind != apt.ConstBOZ {
			t.Errorf("%s: %s is not a BOZ constant", name, apt.FormatExpr(v.Init[0]))
			continue
		}
		base := map[byte]int{'B': 2, 'O': 8, 'Z': 16}[c.Text[0]]
		got, err := strconv.ParseInt(strings.Trim(c.Text[1:], "'"), base, 64)
		if err != nil || i >= len(want) || strconv.FormatInt(got, 10) != want[i] {
			t.Errorf("%s: %s is %d (%v), gfortran prints %v", name, c.Text, got, err, want)
		}
	}
}
