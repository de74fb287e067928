package fortran

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/e2e"
)

// macroSrc uses object-like macros defined through others, an empty one,
// function-like macros with nested calls and calls in their arguments, one
// named without a call, __LINE__ and __FILE__, names inside character
// constants (which stay) and a macro named like a kind suffix (which
// gfortran's cpp expands in 1.5_8, as it does e5 in 1e5).
const macroSrc = `#define N 10
#define M N
#define EMPTY
#define SQ(x) ((x)*(x))
#define ADD(a, b) (a + b)
#define G(y) (2*y)
#define F(x) G(x + 1)
#define CHECK(c) if (.not. (c)) call fail(__LINE__)
#define NOARGS() 7
#define _8 _4
#define e5 e4
program p
  implicit none
  integer :: a(SQ(M)), k, line
  real(8) :: r
  k = ADD(SQ(2), M)
  EMPTY k = k + 1
  r = 1.5_8 * N + 1e5
  CHECK(k > 0)
  line = __LINE__
  k = F(k) + NOARGS()
  k = ADD(max(1, SQ(N)), ADD(2, 3))
  print *, 'N stays in a string', "M too", SQ
  call sub(__FILE__, __LINE__)
#undef N
  k = N + M
end program p
`

// TestMacrosAgainstGfortran: the preprocessor's output for macroSrc is
// gfortran's (gfortran -E -cpp), line by line, blanks aside.
func TestMacrosAgainstGfortran(t *testing.T) {
	tools := e2e.Require(t, "gfortran")
	dir := t.TempDir()
	name := "macros.F90"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(macroSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tools[0], "-E", "-cpp", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gfortran -E: %v", err)
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), "") }
	var want []string
	for _, l := range strings.Split(string(out), "\n") {
		if n := norm(l); n != "" && !strings.HasPrefix(n, "#") {
			want = append(want, n)
		}
	}
	fe := newFrontend(Config{})
	var got []string
	for _, l := range fe.preprocess(name, []byte(macroSrc)) {
		if n := norm(l.text); n != "" {
			got = append(got, n)
		}
	}
	for _, d := range fe.diags {
		if d.Severity == apt.Error {
			t.Errorf("diagnostic: %v", d)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("preprocessed:\n%s\ngfortran -E -cpp:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A function-like macro whose parameters cannot be read is defined (its
// #ifdef holds) but leaves the text as written, with a warning.
func TestUnreadableMacroParamsKeepText(t *testing.T) {
	fe := newFrontend(Config{})
	src := "#define F(1) x\n#ifdef F\nk = F + F(2)\n#endif\n"
	var got []string
	for _, l := range fe.preprocess("bad.F90", []byte(src)) {
		if l.text != "" {
			got = append(got, l.text)
		}
	}
	if len(got) != 1 || got[0] != "k = F + F(2)" {
		t.Errorf("preprocessed %q, want the line kept as written", got)
	}
	if len(fe.diags) != 1 || fe.diags[0].Severity != apt.Warning {
		t.Errorf("diagnostics %v, want one warning", fe.diags)
	}
}
