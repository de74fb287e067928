package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/e2e"
)

func TestAnnotateSource(t *testing.T) {
	for _, tc := range []struct {
		name   string
		free   bool
		src    string
		header string
		notes  map[int][]string
		want   string
	}{
		{
			name: "fixed form: a comment line before the statement's first line",
			src: "      do 10 i = 1, n\n" +
				"         call foo(a,\n" +
				"     +            b)\n" +
				"   10 continue\n",
			notes: map[int][]string{1: {"loop: n iterations"}, 2: {"call foo: n calls"}},
			want: "! mkvet: loop: n iterations\n" +
				"      do 10 i = 1, n\n" +
				"! mkvet: call foo: n calls\n" +
				"         call foo(a,\n" +
				"     +            b)\n" +
				"   10 continue\n",
		},
		{
			name:  "free form: trailing comment when it fits",
			free:  true,
			src:   "  do i = 1, n\n    x = x + 1\n  end do\n",
			notes: map[int][]string{1: {"loop: n iterations"}},
			want:  "  do i = 1, n  ! mkvet: loop: n iterations\n    x = x + 1\n  end do\n",
		},
		{
			name: "free form: continued statement, own comment, '!' in a string",
			free: true,
			src: "    call foo(a, &\n             b)\n" +
				"    call bar(x)  ! mine\n" +
				"    call baz('!')\n",
			notes: map[int][]string{1: {"call foo: 1 call"}, 3: {"call bar: 1 call"}, 4: {"call baz: 1 call"}},
			want: "    ! mkvet: call foo: 1 call\n    call foo(a, &\n             b)\n" +
				"    ! mkvet: call bar: 1 call\n    call bar(x)  ! mine\n" +
				"    call baz('!')  ! mkvet: call baz: 1 call\n",
		},
		{
			name:  "free form: too long for 132 columns",
			free:  true,
			src:   "  call long(" + strings.Repeat("a, ", 35) + "b)\n",
			notes: map[int][]string{1: {"call long: n calls per rank; at n=1024, P=8: 128"}},
			want: "  ! mkvet: call long: n calls per rank; at n=1024, P=8: 128\n" +
				"  call long(" + strings.Repeat("a, ", 35) + "b)\n",
		},
		{
			name:  "two nodes on one line, CRLF and no final newline",
			free:  true,
			src:   "x = 1\r\ndo i = 1, n; call f(i); end do",
			notes: map[int][]string{2: {"loop: n iterations", "call f: n calls"}},
			want:  "x = 1\r\ndo i = 1, n; call f(i); end do  ! mkvet: loop: n iterations; call f: n calls\n",
		},
		{
			name:   "fixed form: tab-formatted line, CRLF, header",
			src:    "\tdo 10 i = 1, n\r\n10\tcontinue\r\n",
			header: "values at n=4",
			notes:  map[int][]string{1: {"loop: n iterations"}},
			want:   "! mkvet: values at n=4\r\n! mkvet: loop: n iterations\r\n\tdo 10 i = 1, n\r\n10\tcontinue\r\n",
		},
		{
			name:   "free form: the header is a line of its own",
			free:   true,
			src:    "program p\nend program p\n",
			header: "values at n=4",
			notes:  map[int][]string{1: {"routine"}},
			want:   "! mkvet: values at n=4\nprogram p  ! mkvet: routine\nend program p\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(annotateSource([]byte(tc.src), tc.header, tc.notes, tc.free))
			if got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			for _, l := range strings.Split(got, "\n") {
				if tc.free && len(strings.TrimRight(l, "\r")) > freeLineMax && !strings.Contains(l, "call long(") {
					t.Errorf("line longer than %d columns: %q", freeLineMax, l)
				}
			}
		})
	}
}

func TestAnnotateOutputFile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "s.f90")
	text := "program s\n  integer :: i\n  real :: x\n  !mk$ param n = 10\n  x = 0\n  do i = 1, n\n    x = x + i\n  end do\n  print *, x\nend program s\n"
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	// The input is never overwritten, even with -f or through another path.
	for _, out := range []string{src, filepath.Join(dir, ".", "s.f90")} {
		if _, errs, code := runMkvet(t, "annotate", "-f", "-o", out, src); code != 2 || !strings.Contains(errs, "is the input file") {
			t.Errorf("-o %s: exit %d, %s", out, code, errs)
		}
	}
	out := filepath.Join(dir, "out.f90")
	os.WriteFile(out, []byte("old"), 0o644)
	if _, errs, code := runMkvet(t, "annotate", "-o", out, src); code != 2 || !strings.Contains(errs, "exists; use -f") {
		t.Errorf("existing -o without -f: exit %d, %s", code, errs)
	}
	_, errs, code := runMkvet(t, "annotate", "-f", "-o", out, src)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got, _ := os.ReadFile(out)
	if !strings.Contains(string(got), "do i = 1, n  ! mkvet: loop: ") {
		t.Errorf("annotated output:\n%s", got)
	}
	if b, _ := os.ReadFile(src); string(b) != text {
		t.Error("the input file changed")
	}
	if _, _, code := runMkvet(t, "annotate", src, src); code != 2 {
		t.Errorf("two files: exit %d", code)
	}
}

// annotateProgram annotates one program of testdata/programs at its golden
// point into dir, under the same base name (so the source form is kept), and
// returns the path.
func annotateProgram(t *testing.T, name, dir string) (string, bool) {
	t.Helper()
	abs, err := filepath.Abs(programsDir)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"annotate", "-I", abs, "-o", filepath.Join(dir, name)}
	if pt := goldenPoint(name); pt != "" {
		args = append(args, "-D", pt)
	}
	_, errs, code := runMkvet(t, append(args, filepath.Join(abs, name))...)
	if code != 0 {
		t.Errorf("mkvet %s: exit %d\n%s", strings.Join(args, " "), code, errs)
		return "", false
	}
	return filepath.Join(dir, name), true
}

// TestAnnotatedCompiles checks that the annotated source of every test
// program is still valid Fortran: serial programs with gfortran, MPI
// programs with Open MPI's mpif90 (which supplies mpif.h and the mpi
// module), as the frontend's own end-to-end test does.
func TestAnnotatedCompiles(t *testing.T) {
	tools := e2e.Require(t, "gfortran", "mpif90")
	abs, err := filepath.Abs(programsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range programNames(t) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path, ok := annotateProgram(t, name, dir)
			if !ok {
				return
			}
			src, _ := os.ReadFile(path)
			if !strings.Contains(string(src), "mkvet: ") {
				t.Errorf("no annotation in %s", name)
			}
			compiler := tools[0]
			low := strings.ToLower(string(src))
			if strings.Contains(low, "mpif.h") || strings.Contains(low, "use mpi") {
				compiler = tools[1]
			}
			// -std=legacy as in the frontend's test: the NPB-style programs
			// use deleted features on purpose.
			cmd := exec.Command(compiler, "-fsyntax-only", "-std=legacy", "-I", abs, "-J", dir, path)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -fsyntax-only on the annotated %s: %v\n%s", filepath.Base(compiler), name, err, out)
			}
		})
	}
}

// TestAnnotatedParsesAlike checks that mkvet's own frontend reads the
// annotations as plain comments: the annotated program has the same nodes.
func TestAnnotatedParsesAlike(t *testing.T) {
	abs, err := filepath.Abs(programsDir)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(path string) []string {
		prog, diags := fortran.ParseFiles([]string{path}, fortran.Config{IncludeDirs: []string{abs}})
		for _, d := range diags {
			if d.Severity == apt.Error {
				t.Errorf("%s", d)
			}
		}
		var out []string
		apt.Inspect(prog, func(n apt.Node) bool {
			if _, ok := n.(*apt.Program); n != nil && !ok {
				out = append(out, n.Base().ID)
			}
			return true
		})
		return out
	}
	for _, name := range []string{"trap_mpi.f", "jacobi1d.f90", "constructs_fixed.F"} {
		t.Run(name, func(t *testing.T) {
			path, ok := annotateProgram(t, name, t.TempDir())
			if !ok {
				return
			}
			if a, b := ids(filepath.Join(abs, name)), ids(path); !slices.Equal(a, b) {
				t.Errorf("annotated program parses to other nodes:\n%v\n%v", a, b)
			}
		})
	}
}

// TestAnnotateGolden keeps the annotated source of every test program at its
// golden point in testdata/golden/annotate.
func TestAnnotateGolden(t *testing.T) {
	goldenDir, err := filepath.Abs(filepath.Join("testdata", "golden", "annotate"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range programNames(t) {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(goldenDir, name+".golden")
			needGolden(t, path)
			t.Chdir(programsDir)
			args := []string{"annotate", "-I", "."}
			if pt := goldenPoint(name); pt != "" {
				args = append(args, "-D", pt)
			}
			out, errs, code := runMkvet(t, append(args, name)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden(t, path, []byte(out))
		})
	}
}
