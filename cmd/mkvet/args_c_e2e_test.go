package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
)

// TestCheckCArgumentsE2E is check on a C program that chooses what it
// does by the words of its command line (testdata/programs/pattern.c:
// strcmp on argv[1], atoi of argv[2]), as a user runs it with and without
// -args. Without them the choice is asked for by MK3001 as a value of the
// program's arguments (origin "arguments", -args named as the way to give
// it), the size as a value read at run time, the argument count the
// program is taken to run with is stated, and no message offers a '!mk$'
// directive (a C program has no place for one). With them the choice is
// made: the sends per rank are the program's, 10 steps times P-1 peers
// for "all", none for another word (the counts against real runs are
// instrument/cinst's TestCCountsMatchStaticE2E). Findings exit 1, as vet.
func TestCheckCArgumentsE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	src := filepath.Join(programsDir, "pattern.c")

	out, errs, code := runMkvet(t, "check", "-json", "-D", "P=4", src)
	if code > 1 {
		t.Fatalf("check: exit %d\n%s", code, errs)
	}
	var r checkJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("check -json: %v\n%s", err, out)
	}
	origins := map[string]string{}
	for _, q := range r.Params {
		origins[q.Name] = q.Origin
		if q.Name == "n" && !strings.Contains(q.What, "argv[2]") {
			t.Errorf("n is described as %q: want where it is parsed from, argv[2]", q.What)
		}
	}
	if origins["n"] != "read" || origins["strcmp"] != "arguments" || origins["strcmp_2"] != "arguments" {
		t.Errorf("parameter origins %v: want n read, strcmp and strcmp_2 arguments", origins)
	}
	asked := 0
	for _, d := range r.Diagnostics {
		if strings.Contains(d.Message, "!mk$") {
			t.Errorf("%s: %s: offers a directive a C program cannot hold", d.Pos, d.Message)
		}
		if d.ID == "MK3001" && d.Facts["origin"] == "arguments" {
			asked++
			if !strings.Contains(d.Message, "give the program's arguments with -args") {
				t.Errorf("%s: %s: does not name -args", d.Pos, d.Message)
			}
			// The comparison is quoted as the C source writes it.
			if !strings.Contains(d.Message, `strcmp(argv[1], "all")`) && !strings.Contains(d.Message, `strcmp(argv[1], "ring")`) {
				t.Errorf("%s: %s: does not quote the comparison in C", d.Pos, d.Message)
			}
		}
	}
	if asked != 2 {
		t.Errorf("%d MK3001 findings ask for the program's arguments, want 2 (the two strcmp results)", asked)
	}
	stated := false
	for _, a := range r.Assumed {
		stated = stated || strings.Contains(a.What, "argc = 3")
	}
	if !stated {
		t.Errorf("the assumptions %v do not state the argument count taken (argc = 3)", r.Assumed)
	}
	if _, errs, _ := runMkvet(t, "check", "-D", "P=4", src); !strings.Contains(errs, "argc = 3") {
		t.Errorf("check's notes do not state the argument count taken (argc = 3):\n%s", errs)
	}

	for _, tc := range []struct {
		args  string
		sends float64
	}{{"all 64", 30}, {"none 64", 0}} {
		out, errs, code := runMkvet(t, "check", "-json", "-D", "P=4", "-args", tc.args, src)
		if code > 1 {
			t.Fatalf("-args %q: exit %d\n%s", tc.args, code, errs)
		}
		var r checkJSON
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("-args %q: %v", tc.args, err)
		}
		if len(r.Missing) > 0 || len(r.Params) > 0 {
			t.Errorf("-args %q: parameters %v left, missing %v: the arguments fix them all", tc.args, r.Params, r.Missing)
		}
		found := false
		for _, n := range r.Nodes {
			if !strings.HasPrefix(n.What, "send") {
				continue
			}
			found = true
			if n.At == nil || n.At.Count == nil {
				if tc.sends != 0 {
					t.Errorf("-args %q: %s at %s has no count at P=4", tc.args, n.What, n.Pos)
				}
				continue
			}
			if c := n.At.Count; c.Max != tc.sends || c.Min != tc.sends {
				t.Errorf("-args %q: %s at %s runs %v..%v times per rank, want %v", tc.args, n.What, n.Pos, c.Min, c.Max, tc.sends)
			}
		}
		if !found && tc.sends != 0 {
			t.Errorf("-args %q: no send in the report", tc.args)
		}
	}
}

// TestCNotationE2E checks that what check says about a C program's values
// is written in C: a field reached through a pointer is p->f (graph.c's
// f->nout), an element a[i], a string "...", and no value is described in
// the APT's Fortran notation (p%f, a(i), 'text').
func TestCNotationE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	seen := false
	for _, prog := range []string{"graph.c", "pattern.c"} {
		out, errs, code := runMkvet(t, "check", "-json", "-D", "P=4", filepath.Join(programsDir, prog))
		if code > 1 {
			t.Fatalf("check %s: exit %d\n%s", prog, code, errs)
		}
		var r checkJSON
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("check -json %s: %v", prog, err)
		}
		var texts []string
		for _, q := range r.Params {
			texts = append(texts, q.What)
		}
		for _, d := range r.Diagnostics {
			texts = append(texts, d.Message)
		}
		for _, s := range texts {
			seen = seen || strings.Contains(s, "f->nout")
			if strings.Contains(s, "%") && !strings.Contains(s, "% of") && !strings.Contains(s, "in percent") ||
				strings.Contains(s, "argv(") || strings.Contains(s, ", '") || strings.Contains(s, "('") {
				t.Errorf("%s: %q: Fortran notation in a message about a C program", prog, s)
			}
		}
	}
	if !seen {
		t.Errorf("graph.c: no message names the field f->nout as C writes it")
	}
	// mkvet apt keeps the tree's statement forms but writes the
	// expressions in C too.
	out, errs, code := runMkvet(t, "apt", filepath.Join(programsDir, "pattern.c"))
	if code != 0 {
		t.Fatalf("apt pattern.c: exit %d\n%s", code, errs)
	}
	if !strings.Contains(out, `strcmp(argv[1], "all")`) || strings.Contains(out, "argv(1)") {
		t.Errorf("apt pattern.c does not write its expressions in C:\n%s", out)
	}
	// Statement arguments too: the allocations' extents (malloc) are
	// subscripts.
	out, errs, code = runMkvet(t, "apt", filepath.Join(programsDir, "graph.c"))
	if code != 0 {
		t.Fatalf("apt graph.c: exit %d\n%s", code, errs)
	}
	if !strings.Contains(out, "allocate(buf[0:") || strings.Contains(out, "allocate(buf(0:") {
		t.Errorf("apt graph.c does not write its allocations' extents in C:\n%s", out)
	}
}

// TestCheckWriteThroughStrchrE2E: programs that cut their settings lines
// by writing into them, through the pointer strchr returned (*eq = '\0')
// or by strtok, change the text their strcmp then reads. mkvet follows
// neither, so the settings they decide (steps and nx: 3 and 40 in the run)
// must not be the defaults printed as exact counts: the loops' counts are
// asked for or marked, never the defaults' 1 and 10 as exact.
func TestCheckWriteThroughStrchrE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kv.txt"), []byte("nx=40\nsteps=3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"strchrwrite.c", "strtokline.c"} {
		src, err := filepath.Abs(filepath.Join(programsDir, file))
		if err != nil {
			t.Fatal(err)
		}
		out, errs, code := runMkvet(t, "check", "-json", "-dir", dir, src)
		if code > 1 {
			t.Fatalf("check %s: exit %d\n%s", file, code, errs)
		}
		var r checkJSON
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("check -json %s: %v\n%s", file, err, out)
		}
		loops := 0
		for _, n := range r.Nodes {
			if n.What != "loop" || !strings.Contains(n.Pos, file+":29:") && !strings.Contains(n.Pos, file+":30:") {
				continue // the loops over t and i
			}
			loops++
			if n.Count != nil && n.Exact && (n.Count.ClosedForm == "1" || n.Count.ClosedForm == "10") {
				t.Errorf("%s: %s at %s: the default's count %s printed as exact; the run's differs", file, n.ID, n.Pos, n.Count.ClosedForm)
			}
		}
		if loops != 2 {
			t.Errorf("%s: %d loops at lines 29 and 30; want the 2 over t and i", file, loops)
		}
	}
}

// TestCheckPointerDistanceE2E: a loop runs to the distance between a
// pointer the evaluation follows (r = s.p + 3, through a structure) and
// an array whose address it does not take (filled by its initialiser):
// the distance is asked, never the pointer's address less the array's
// first element (the old code printed 7.2e16 iterations as exact).
func TestCheckPointerDistanceE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	dir := t.TempDir()
	src := filepath.Join(dir, "dist.c")
	prog := `#include <mpi.h>
struct s { int n; int *p; };
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int arr[8] = {0};
  struct s s = {10, arr};
  struct s *ps = &s;
  int *r = ps->p + 3;
  long t = 0;
  for (int i = 0; i < (int)(r - arr); i++) t += i;
  MPI_Finalize();
  return (int)t;
}
`
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runMkvet(t, "check", "-json", "-D", "P=2", src)
	if code > 1 {
		t.Fatalf("check: exit %d\n%s", code, errs)
	}
	var r checkJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("check -json: %v\n%s", err, out)
	}
	loops := 0
	for _, n := range r.Nodes {
		if n.What != "loop" || !strings.Contains(n.Pos, "dist.c:10:") {
			continue
		}
		loops++
		if n.Count == nil || !n.Exact {
			continue
		}
		if v, err := strconv.ParseInt(n.Count.ClosedForm, 10, 64); err == nil && v != 3 {
			// A number printed as exact must be the run's; a closed
			// form in the asked distance is not a number.
			t.Errorf("the loop to r - arr counts %d, exact; the run's count is 3", v)
		}
	}
	if loops != 1 {
		t.Errorf("%d loops at line 10; want 1", loops)
	}
}

// TestCheckCXXNamesE2E: C++ routines are named in findings as C++ spells
// them (std::ostream::operator<<), never by their mangled symbols, and a
// parameter for a C++ function's result is named after the function.
func TestCheckCXXNamesE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc", "llvm-cxxfilt-14")
	dir := t.TempDir()
	src := filepath.Join(dir, "streams.cpp")
	prog := `#include <mpi.h>
#include <fstream>
#include <iostream>
#include <vector>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int n = 100, steps = 3;
  std::ifstream in("streams.in");
  in >> n >> steps;
  std::vector<double> u(n, 0.0);
  for (int s = 0; s < steps; s++)
    for (size_t i = 0; i < u.size(); i++) u[i] += 1.0;
  std::cout << u[0] << std::endl;
  MPI_Finalize();
}
`
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runMkvet(t, "check", "-D", "P=2", src)
	if code == 2 {
		t.Fatalf("exit 2: %s", errs)
	}
	if !strings.Contains(out, "std::ostream::operator<< is not part of the program") {
		t.Errorf("the stream write is not named as C++ names it:\n%s", out)
	}
	if strings.Contains(strings.ToLower(out+errs), "_zn") {
		t.Errorf("a mangled symbol in the findings:\n%s\n%s", out, errs)
	}
}

// TestCheckStopUnderAssumedArgumentsE2E: a program that requires an
// option, run without -args, stops where its own check fails; the message
// names the command line the run was taken to have.
func TestCheckStopUnderAssumedArgumentsE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14", "mpicc")
	src := filepath.Join(t.TempDir(), "needn.c")
	prog := `#include <mpi.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  int n = 0;
  MPI_Init(&argc, &argv);
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-n") && i + 1 < argc) n = atoi(argv[++i]);
  if (n <= 0) MPI_Abort(MPI_COMM_WORLD, 1);
  double s = 0;
  for (int i = 0; i < n; i++) s += i;
  MPI_Finalize();
  return s < 0;
}
`
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runMkvet(t, "check", "-D", "P=2", src)
	if code != 2 || !strings.Contains(errs, "stops at") || !strings.Contains(errs, "the arguments the run was taken to have: the program reads its arguments in a loop") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if out, errs, code := runMkvet(t, "check", "-D", "P=2", "-args", "-n 50", src); code == 2 || strings.Contains(errs, "stops at") {
		t.Errorf("-args '-n 50': exit %d\n%s\n%s", code, out, errs)
	}
}
