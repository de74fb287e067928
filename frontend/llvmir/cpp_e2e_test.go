package llvmir

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/e2e"
)

// TestCPlusPlusE2E reads a C++ program whose calls into the standard
// library are invokes (they may throw): each is a call that goes on, the
// template's loop a counted DO, and nothing is left Unknown.
func TestCPlusPlusE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	prog, diags := ParseFiles([]string{"testdata/vec.cpp"}, Config{})
	for _, d := range diags {
		t.Errorf("%v", d)
	}
	var loops, comms int
	apt.Inspect(prog, func(n apt.Node) bool {
		switch x := n.(type) {
		case *apt.Unknown:
			t.Errorf("%s: unknown node %q: %s", x.Span.Start(), x.Text, x.Diag.Msg)
		case *apt.Loop:
			if x.Var != "" && x.Span.File == "testdata/vec.cpp" {
				loops++
			}
		case *apt.Comm:
			comms++
		}
		return true
	})
	if loops != 1 || comms != 5 {
		t.Errorf("got %d counted loops in vec.cpp and %d MPI calls, want 1 and 5", loops, comms)
	}
}

// TestParameterPackE2E reads a C++ program whose template instances take
// parameter packs, whose elements clang names alike (__args): each is a
// formal of its own, and reading it is no internal error (HPCCG's std::map
// was one).
func TestParameterPackE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	prog, diags := ParseFiles([]string{"testdata/pack.cpp"}, Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Errorf("%v", d)
		}
	}
	packs := 0
	for _, r := range prog.Routines {
		seen := map[string]bool{}
		for _, f := range r.Formals {
			if seen[f] {
				t.Errorf("%s: two formals named %s", r.Name, f)
			}
			seen[f] = true
			if v := r.Scope.Lookup(f); v == nil {
				t.Errorf("%s: formal %s is not declared", r.Name, f)
			}
			if strings.HasPrefix(f, "__args") || strings.HasPrefix(f, "args") {
				packs++
			}
		}
	}
	if packs < 2 {
		t.Errorf("%d formals of parameter packs; the test wants instances that take packs", packs)
	}
}

// TestNewArrayE2E: C++'s new[] allocates as malloc does (an ALLOCATE of
// the array with the elements the bytes hold) and delete[] frees; neither
// is a call of a routine outside the program.
func TestNewArrayE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	prog, diags := ParseFiles([]string{"testdata/newarr.cpp"}, Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Errorf("%v", d)
		}
	}
	allocated := map[string]bool{}
	apt.Inspect(prog, func(n apt.Node) bool {
		switch x := n.(type) {
		case *apt.Block:
			for _, s := range x.Stmts {
				if s.Kind == apt.StmtAllocate {
					for _, a := range s.Args {
						if ix, ok := a.(*apt.Index); ok {
							allocated[ix.Name] = true
						}
					}
				}
			}
		case *apt.Call:
			if strings.HasPrefix(x.Callee, "_zn") || strings.HasPrefix(x.Callee, "_zd") {
				t.Errorf("%s: a call of %s", x.Span.Start(), x.Callee)
			}
		}
		return true
	})
	if !allocated["a"] || !allocated["b"] {
		t.Errorf("allocated %v, want a and b", allocated)
	}
}

// TestElseIfE2E: C's else-if ladder is one IF with an arm per test and
// the final else, as Fortran's ELSE IF writes it (an IF nested in each
// ELSE would multiply the frequencies of tests on data: 2^k terms for k
// tests); an ELSE that does more than test keeps its IF inside it.
func TestElseIfE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	prog, diags := ParseFiles([]string{"testdata/elseif.c"}, Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Errorf("%v", d)
		}
	}
	arms := map[string][]int{}
	for _, r := range prog.Routines {
		apt.Inspect(r, func(n apt.Node) bool {
			if f, ok := n.(*apt.If); ok {
				arms[r.Name] = append(arms[r.Name], len(f.Branches))
			}
			return true
		})
	}
	if got := arms["ladder"]; len(got) != 1 || got[0] != 5 {
		t.Errorf("ladder: IFs with %v arms, want one IF with 5", got)
	}
	if got := arms["nested"]; len(got) != 2 || got[0] != 2 {
		t.Errorf("nested: IFs with %v arms, want an IF of 2 arms with one inside its else", got)
	}
}

// TestCompileManyFilesE2E: the files of a program compile side by side;
// their errors come back in the order the files were given, each at its
// file:line:col, and a file that compiles is linked with the others.
func TestCompileManyFilesE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	dir := t.TempDir()
	files := map[string]string{
		"a.c": "int a(void) { return 1; }\n",
		"b.c": "int b(void) { return undeclared_b; }\n",
		"c.c": "int c(void) { return 2; }\n",
		"d.c": "int d(void) {\n  return undeclared_d;\n}\n",
	}
	var paths []string
	for _, n := range []string{"a.c", "b.c", "c.c", "d.c"} {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte(files[n]), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	_, _, diags := Compile(paths, Config{})
	var at []string
	for _, d := range diags {
		if d.Severity == apt.Error {
			at = append(at, fmt.Sprintf("%s:%d", filepath.Base(d.Pos.File), d.Pos.Line))
		}
	}
	if want := []string{"b.c:1", "d.c:2"}; !slices.Equal(at, want) {
		t.Errorf("errors at %v, want %v (%v)", at, want, diags)
	}
	ir, _, diags := Compile([]string{paths[0], paths[2]}, Config{})
	if hasErrors(diags) || !strings.Contains(string(ir), "@a(") || !strings.Contains(string(ir), "@c(") {
		t.Errorf("a.c and c.c: diagnostics %v, functions in the linked IR: a %v, c %v", diags,
			strings.Contains(string(ir), "@a("), strings.Contains(string(ir), "@c("))
	}
}

// TestOverflowIntrinsicsE2E: the size new T[n] asks for is n*sizeof(T)
// from llvm.umul.with.overflow, and the test of its overflow an
// expression of n, not an unknown value (HPCCG asked for 23 such).
func TestOverflowIntrinsicsE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	prog, _ := ParseFiles([]string{"testdata/newarr.cpp"}, Config{})
	ir, _, _ := Compile([]string{"testdata/newarr.cpp"}, Config{})
	if !strings.Contains(string(ir), "with.overflow") {
		t.Fatal("clang-14 wrote no overflow intrinsic for new[]: the test program no longer exercises the lifting")
	}
	apt.Inspect(prog, func(n apt.Node) bool {
		var es []apt.Expr
		switch x := n.(type) {
		case *apt.Block:
			for _, s := range x.Stmts {
				es = append(append(es, s.Target, s.Value), s.Args...)
			}
		case *apt.Branch:
			es = append(es, x.Cond)
		}
		for _, e := range es {
			if e == nil {
				continue
			}
			apt.InspectExpr(e, func(y apt.Expr) bool {
				if f, ok := y.(*apt.FuncCall); ok && f.Name == "extractvalue" {
					t.Errorf("%s: an unknown extractvalue in %s", n.Base().Span.Start(), apt.FormatExpr(e))
				}
				return true
			})
		}
		return true
	})
}

// TestStaticConstructorsE2E: the functions C++ runs before main (static
// objects' constructors, llvm.global_ctors) are called at the start of
// main, once per process as the run calls them; the MPI calls that are
// invokes keep the invoke as their site, where instrumentation counts them.
func TestStaticConstructorsE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	lf, diags := Load([]string{"testdata/ctors.cpp"}, Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatal(d)
		}
	}
	main := lf.Prog.Routine("main")
	if main == nil || len(main.Body) == 0 {
		t.Fatal("no main program")
	}
	// Before MPI_Init, after the static data's initial values: the
	// constructors' calls.
	var ctors []string
	for _, n := range main.Body {
		if _, isComm := n.(*apt.Comm); isComm {
			break
		}
		if c, ok := n.(*apt.Call); ok {
			ctors = append(ctors, c.Callee)
			if lf.Prog.Routine(c.Callee) == nil {
				t.Errorf("main's call of %s before MPI_Init is not a call of a routine of the program", c.Callee)
			}
		}
	}
	if len(ctors) == 0 {
		t.Fatal("main calls no static constructor before MPI_Init")
	}
	invokes := 0
	for _, s := range lf.Sites {
		if _, isComm := s.Node.(*apt.Comm); isComm && s.Invoke != nil {
			invokes++
			if s.Call == nil || s.Invoke.Invokee != s.Call.Callee {
				t.Errorf("%v: the invoke's site has no call standing for it", s.Node.Base().Span)
			}
		}
	}
	if invokes < 2 {
		t.Errorf("%d MPI calls made by invokes, want MPI_Barrier and MPI_Finalize", invokes)
	}
}

// TestMPICXXBindingsE2E: a C++ unit is compiled without MPI's C++ bindings
// (their classes are most of a small unit's compile), and one that uses
// them is compiled again with them rather than refused.
func TestMPICXXBindingsE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	binding := func(prog *apt.Program) int {
		n := 0
		for _, r := range prog.Routines {
			// MPI::Comm::Get_rank, an inline member of the bindings.
			if r.Name == "get_rank" {
				n++
			}
		}
		return n
	}
	prog, diags := ParseFiles([]string{"testdata/cxxbind.cpp"}, Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Errorf("%v", d)
		}
	}
	if binding(prog) == 0 {
		t.Errorf("cxxbind.cpp: no routine of the C++ bindings read; it calls MPI::COMM_WORLD.Get_rank")
	}
	// vec.cpp includes mpi.h and calls the C interface: the IR's debug
	// information names no namespace MPI (the bindings' classes are in it).
	ir, _, diags := Compile([]string{"testdata/vec.cpp"}, Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Errorf("%v", d)
		}
	}
	if bytes.Contains(ir, []byte(`DINamespace(name: "MPI"`)) {
		t.Errorf("vec.cpp: MPI's C++ bindings were compiled; the unit does not use them")
	}
}
