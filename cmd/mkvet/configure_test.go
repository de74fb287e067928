package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/e2e"
)

// configureDir is a program built for one process count, as NPB's
// benchmarks are: src/prog.f INCLUDEs src/cfg.h, which sizes each
// process's block by nproc_compiled and is written by ../tools/setp P in
// src (here for 4; setp refuses counts other than 1, 2, 4, ..., 64), and
// the program stops when MPI_COMM_SIZE differs from nproc_compiled
// (src/atleast.f only when it is smaller).
// common/sweep.f is the loop, in a directory of its own, so that the tree
// mirrored holds tools/ beside src/.
var configureDir = filepath.Join("testdata", "configure")

// configureArgs are the inputs of the program in configureDir.
func configureArgs() []string {
	return []string{"-I", filepath.Join(configureDir, "src"),
		filepath.Join(configureDir, "src", "prog.f"), filepath.Join(configureDir, "common", "sweep.f")}
}

// treeState lists the files under dir with their contents, to show that a
// run left them as they were.
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		out[path] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// privateTmp points TMPDIR at an empty directory of the test, so that the
// test can see the mirror removed, and returns it.
func privateTmp(t *testing.T) string {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	return tmp
}

// emptyDir fails t when the -configure mirror was left in dir.
func emptyDir(t *testing.T, dir string) {
	t.Helper()
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Errorf("the mirror was not removed: %s holds %v", dir, left)
	}
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestConfigureMirror checks the mirror: the common ancestor of the
// inputs' and -I directories is mirrored, with those directories (and
// their ancestors) real and holding copies of their files, every other
// entry a link; the command runs in the first input's directory, what it
// writes there is read under the user's names and noted as written, the
// user's tree is untouched, and close removes the mirror.
func TestConfigureMirror(t *testing.T) {
	e2e.Require(t, "sh")
	tmp := privateTmp(t)
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"app/src/main.f":     "main\n",
		"app/src/size.h":     "old\n",
		"app/inc/defs.h":     "defs\n",
		"app/tools/gen":      "tool\n",
		"app/config/make.in": "config\n",
		"app/README":         "readme\n",
	})
	if err := os.Symlink(filepath.Join(root, "app", "src", "size.h"), filepath.Join(root, "app", "src", "alias.h")); err != nil {
		t.Fatal(err)
	}
	before := treeState(t, root)
	src, inc := filepath.Join(root, "app", "src"), filepath.Join(root, "app", "inc")
	c, err := newConfigurer("cat ../tools/gen > gen.h && echo {P} > size.h && echo {n} >> alias.h", []string{filepath.Join(src, "main.f")}, []string{inc})
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	if c.root != filepath.Join(root, "app") {
		t.Errorf("root %s, want %s", c.root, filepath.Join(root, "app"))
	}
	for rel, want := range map[string]string{"src": "dir", "inc": "dir", "src/main.f": "file", "src/alias.h": "file",
		"inc/defs.h": "file", "tools": "link", "config": "link", "README": "link"} {
		st, err := os.Lstat(filepath.Join(c.mirror, rel))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		got := "file"
		switch {
		case st.Mode()&os.ModeSymlink != 0:
			got = "link"
		case st.IsDir():
			got = "dir"
		}
		if got != want {
			t.Errorf("mirror's %s is a %s, want a %s", rel, got, want)
		}
	}
	if !slices.Equal(c.placeholders(), []string{"P", "n"}) {
		t.Errorf("placeholders %v, want [P n]", c.placeholders())
	}
	if err := c.run(map[string]string{"P": "8", "n": "64"}); err != nil {
		t.Fatal(err)
	}
	if c.command != "cat ../tools/gen > gen.h && echo 8 > size.h && echo 64 >> alias.h" {
		t.Errorf("command %q", c.command)
	}
	for name, want := range map[string]string{"gen.h": "tool\n", "size.h": "8\n", "alias.h": "old\n64\n", "main.f": "main\n"} {
		b, err := c.readFile(filepath.Join(src, name))
		if err != nil || string(b) != want {
			t.Errorf("%s reads %q (%v), want %q", name, b, err, want)
		}
	}
	want := []string{filepath.Join(src, "alias.h") + " (the user's differs and is not read)",
		filepath.Join(src, "gen.h") + " (not in the user's tree)", filepath.Join(src, "size.h") + " (the user's differs and is not read)"}
	if got := c.generated(); !slices.Equal(got, want) {
		t.Errorf("generated %q, want %q", got, want)
	}
	if after := treeState(t, root); len(after) != len(before) || after[filepath.Join(src, "size.h")] != "old\n" {
		t.Errorf("the user's tree changed: %v", after)
	}
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
	emptyDir(t, tmp)
}

// TestConfigureStaleClock: a file the command rewrites is compared with the
// user's whatever time it carries. The kernel stamps files with a clock that
// can lag the one Go reads, so a file written just after the mirror was made
// may look older than the mirror; the command here stamps its output with a
// time long past to make that case certain (CI once read a configuration's
// constants as the user's when the step ran within a clock tick).
func TestConfigureStaleClock(t *testing.T) {
	e2e.Require(t, "sh", "touch")
	privateTmp(t)
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"src/main.f": "main\n", "src/size.h": "4\n", "src/same.h": "same\n"})
	src := filepath.Join(root, "src")
	c, err := newConfigurer("echo {P} > size.h && echo same > same.h && touch -d 2001-01-01 size.h same.h", []string{filepath.Join(src, "main.f")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	if err := c.run(map[string]string{"P": "1"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"main.f", "size.h", "same.h"} {
		if _, err := c.readFile(filepath.Join(src, name)); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{filepath.Join(src, "size.h") + " (the user's differs and is not read)"}
	if got := c.generated(); !slices.Equal(got, want) {
		t.Errorf("generated %q, want %q", got, want)
	}
}

// TestConfigureFailure: a failed command is a configureError with the first
// line of its error output and the indented lines continuing it (standard
// error first, else standard output, else how it ended); a command that
// hangs is stopped at the timeout.
func TestConfigureFailure(t *testing.T) {
	e2e.Require(t, "sh", "sleep")
	privateTmp(t)
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"p.f": "x\n"})
	for _, c := range []struct{ cmd, want string }{
		{"echo ok; echo 'gen: P={P} is odd' >&2; echo '     (give an even count)' >&2; echo more >&2; exit 3",
			"gen: P=3 is odd (give an even count)"},
		{"echo; echo 'setparams: Number of processors {P} must be a square'; exit 1", "setparams: Number of processors 3 must be a square"},
		{"exit 7", "exit status 7"},
	} {
		conf, err := newConfigurer(c.cmd, []string{filepath.Join(root, "p.f")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = conf.run(map[string]string{"P": "3"})
		conf.close()
		var ce *configureError
		if !errors.As(err, &ce) || ce.first != c.want {
			t.Errorf("%s: %v, want a configure error %q", c.cmd, err, c.want)
		}
	}
	defer func(d time.Duration) { configureTimeout = d }(configureTimeout)
	configureTimeout = 200 * time.Millisecond
	conf, err := newConfigurer("sleep 30", []string{filepath.Join(root, "p.f")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conf.close()
	start := time.Now()
	err = conf.run(nil)
	var ce *configureError
	if !errors.As(err, &ce) || ce.first != "timed out after 200ms" || time.Since(start) > 10*time.Second {
		t.Errorf("sleep 30: %v after %v, want a timeout after 200ms", err, time.Since(start))
	}
}

// TestWhatifConfigure is issue 13 item 5 on configureDir: with
// -configure each process count is configured by ../tools/setp and
// evaluated with its own block size, so the compute term falls with P; a
// count setp refuses gets a row with setp's first line; positions and
// notes name the user's files, which stay as they were, and the mirror
// is removed.
func TestWhatifConfigure(t *testing.T) {
	e2e.Require(t, "sh")
	tmp := privateTmp(t)
	before := treeState(t, configureDir)
	out, errs, code := runMkvet(t, append([]string{"whatif", "-P", "1..128", "-format", "json",
		"-configure", "../tools/setp {P}"}, configureArgs()...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res whatifOutput
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	rows := res.Tables[0].Rows
	if len(rows) != 8 {
		t.Fatalf("%d rows, want 8 (P=1..128): %s", len(rows), out)
	}
	prev := 0.0
	for _, r := range rows[:7] {
		c := r.Terms["compute"]
		if r.Why != "" || r.Time <= 0 || c <= 0 || prev > 0 && c >= prev {
			t.Errorf("P=%d: time %g, compute %g after %g (%s): want a time and the compute falling with P", r.P, r.Time, c, prev, r.Why)
		}
		prev = c
	}
	// Block of 4096/P elements, 10 sweeps of 2 stores, 1 load and 2 adds each.
	if c1, c64 := rows[0].Terms["compute"], rows[6].Terms["compute"]; c1/c64 < 50 {
		t.Errorf("compute at P=1 %g, at P=64 %g: the block does not shrink with P", c1, c64)
	}
	want := "cannot be configured: setp: 128 processes: the block would not be a power of two (give 1, 2, 4, ..., 64)"
	if r := rows[7]; r.P != 128 || r.Why != want {
		t.Errorf("P=%d: why %q, want %q", r.P, r.Why, want)
	}
	notes := strings.Join(res.Notes, "\n")
	for _, w := range []string{`-configure ran "../tools/setp {P}"`, filepath.Join(configureDir, "src", "cfg.h") + " (the user's differs"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
	if strings.Contains(out+errs, tmp) {
		t.Errorf("the output names the mirror in %s:\n%s%s", tmp, out, errs)
	}
	if after := treeState(t, configureDir); len(after) != len(before) || after[filepath.Join(configureDir, "src", "cfg.h")] != before[filepath.Join(configureDir, "src", "cfg.h")] {
		t.Errorf("the run changed %s", configureDir)
	}
	emptyDir(t, tmp)

	// The table: the refused count's row ends in the reason.
	out, errs, code = runMkvet(t, append([]string{"whatif", "-P", "4,128", "-configure", "../tools/setp {P}"}, configureArgs()...)...)
	if code != 0 || !strings.Contains(squeeze(out), squeeze("128 - - - - "+want+"\n")) {
		t.Errorf("exit %d: table row of P=128:\n%s%s", code, out, errs)
	}
}

// TestWhatifCompiledFor: without -configure the program built for P=4
// runs only at P=4, each P is evaluated on its own (not a closed form
// mixing the compiled block with every P), and a note says which P the
// build is for, from the named constant its own check compares P with,
// and suggests -configure.
func TestWhatifCompiledFor(t *testing.T) {
	out, errs, code := runMkvet(t, append([]string{"whatif", "-P", "1..16"}, configureArgs()...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	prog := filepath.Join(configureDir, "src", "prog.f")
	for _, want := range []string{
		"    8  -  -  -  -  stops at " + prog + ":16:10",
		"note: the build is for P=4: at P=1, 2, 8, 16 the program stops at " + prog + ":16:10, where " + prog +
			":14:7 compares the process count (nprocs) with nproc_compiled = 4, a named constant (" +
			filepath.Join(configureDir, "src", "cfg.h") + ":2:15); -configure CMD configures the program for each P",
	} {
		if !strings.Contains(squeeze(out), squeeze(want)) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestCompiledForMixed: a program that stops only below the count it is
// built for (src/atleast.f, as NPB's LU) runs above it with the values
// compiled for it; whatif's notes and check's say so, naming the rows.
func TestCompiledForMixed(t *testing.T) {
	args := []string{"-I", filepath.Join(configureDir, "src"), filepath.Join(configureDir, "src", "atleast.f"),
		filepath.Join(configureDir, "common", "sweep.f")}
	out, errs, code := runMkvet(t, append([]string{"whatif", "-P", "1..16"}, args...)...)
	if want := "; the rows at P=8, 16 use the values compiled for P=4; -configure CMD configures the program for each P"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d, output lacks %q:\n%s%s", code, want, out, errs)
	}
	_, errs, code = runMkvet(t, append([]string{"check", "-D", "P=8"}, args...)...)
	if want := "the build is for P=4 (" + filepath.Join(configureDir, "src", "atleast.f") + ":13:7 compares the process count (nprocs) with " +
		"nproc_compiled = 4, a named constant (" + filepath.Join(configureDir, "src", "cfg.h") + ":2:15)): the values compiled for it are used at P=8"; code != 1 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr lacks %q:\n%s", code, want, errs)
	}
}

// squeeze collapses runs of spaces, so that a table row is compared
// without its padding.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestCheckConfigure: check and annotate run the command once for the -D
// point; diagnostics name the user's files; a point the command refuses
// and a template naming a value not given are errors that say so; without
// -configure a point the build is not for stops with the P it is for.
func TestCheckConfigure(t *testing.T) {
	e2e.Require(t, "sh")
	tmp := privateTmp(t)
	sweep := filepath.Join(configureDir, "common", "sweep.f")
	out, errs, code := runMkvet(t, append([]string{"check", "-D", "P=8", "-configure", "../tools/setp {P}"}, configureArgs()...)...)
	if code != 1 || !strings.Contains(out, sweep+":4:7: MK1001 loop runs") || !strings.Contains(out, "(P=8: 5120 iterations)") {
		t.Errorf("exit %d, want the loop of 4096/8 elements 10 times at %s:4:7:\n%s%s", code, sweep, out, errs)
	}
	if want := "positions in " + filepath.Join(configureDir, "src", "cfg.h") + " (the user's differs and is not read) name what it wrote for P=8"; !strings.Contains(errs, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errs)
	}
	_, errs, code = runMkvet(t, append([]string{"check", "-D", "P=3", "-configure", "../tools/setp {P}"}, configureArgs()...)...)
	if want := `-configure: the program cannot be configured for P=3: "../tools/setp 3" failed: setp: 3 processes`; code != 2 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr lacks %q:\n%s", code, want, errs)
	}
	_, errs, code = runMkvet(t, append([]string{"check", "-configure", "../tools/setp {P} {class}", "-D", "P=2"}, configureArgs()...)...)
	if want := "{class} is neither P nor a name given with -D"; code != 2 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr lacks %q:\n%s", code, want, errs)
	}
	_, errs, code = runMkvet(t, append([]string{"check", "-D", "P=8"}, configureArgs()...)...)
	if want := "the build is for P=4; -configure CMD configures the program for the -D point"; code != 2 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr lacks %q:\n%s", code, want, errs)
	}
	out, errs, code = runMkvet(t, append([]string{"annotate", "-D", "P=16", "-configure", "../tools/setp {P}"}, configureArgs()...)...)
	if code != 0 || !strings.Contains(out, "==> "+sweep+" <==") || !strings.Contains(out, "iterations per rank = 2560;") {
		t.Errorf("exit %d, want %s annotated with 4096/16 elements 10 times:\n%s%s", code, sweep, out, errs)
	}
	emptyDir(t, tmp)
}

// TestCompiledChecksNeedAStopOrAnEquation checks which comparisons of the
// process count with a named constant say what P a build is for: an
// equation (MG's `nprocs .ne. nprocs_compiled`, which only warns), or an
// ordering whose branch stops the program (LU's `num .lt. nnodes_compiled`
// before MPI_ABORT); not an ordering that chooses a layout (FT's
// `np .le. nz`).
func TestCompiledChecksNeedAStopOrAnEquation(t *testing.T) {
	src := `      program layout
      include 'mpif.h'
      integer nz, nmin, nbuilt
      parameter (nz = 64, nmin = 2, nbuilt = 8)
      integer np, ierr, l
      call MPI_INIT(ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      if (np .le. nz) then
         l = 1
      else
         l = 2
      endif
      if (np .lt. nmin) then
         call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
      endif
      if (np .ne. nbuilt) then
         write (*,*) 'warning: compiled for', nbuilt
      endif
      call MPI_FINALIZE(ierr)
      end
`
	file := filepath.Join(t.TempDir(), "layout.f")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, diags := fortran.ParseFiles([]string{file}, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatal(d)
		}
	}
	var got []string
	for _, c := range compiledChecks(prog) {
		got = append(got, fmt.Sprintf("%s=%d", c.param, c.value))
	}
	if want := []string{"nmin=2", "nbuilt=8"}; !slices.Equal(got, want) {
		t.Errorf("compiledChecks = %v, want %v", got, want)
	}
}

// TestCConstant reads the constants a C configure step #defines.
func TestCConstant(t *testing.T) {
	for in, want := range map[string]int64{"42": 42, "'S'": 83, "0x10": 16, "(4)": 4, "42L": 42, "7u": 7} {
		if got, ok := cConstant(in); !ok || got != want {
			t.Errorf("cConstant(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, bad := range []string{"\"3.3.1\"", "1.5", "NUM_PROCS", "'ab'", ""} {
		if got, ok := cConstant(bad); ok {
			t.Errorf("cConstant(%q) = %d: want no constant", bad, got)
		}
	}
	m := defineRE.FindStringSubmatch("#define NUM_PROCS 4 /* processes */")
	if m == nil || m[1] != "NUM_PROCS" || m[2] != "4" {
		t.Errorf("the #define line reads as %q", m)
	}
}

// FuzzCConstant: any line of a header a configure step writes is read or
// skipped, never a panic.
func FuzzCConstant(f *testing.F) {
	for _, s := range []string{"#define CLASS 'S'", "#define NUM_PROCS 4", "#  define X (0x1fUL) // c", "#define Y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if m := defineRE.FindStringSubmatch(line); m != nil {
			cConstant(m[2])
		}
	})
}
