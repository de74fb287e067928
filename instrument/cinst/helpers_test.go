package cinst_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/instrument"
	"github.com/mkvet/mkvet/internal/e2e"
)

// mpiFlags are the MPI wrapper's compile and link flags.
func mpiFlags(t *testing.T) (compile, link []string) {
	t.Helper()
	c, err := exec.Command("mpicc", "-showme:compile").Output()
	if err != nil {
		t.Fatal(err)
	}
	l, err := exec.Command("mpicc", "-showme:link").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(c)), strings.Fields(string(l))
}

// build compiles an instrumented copy with clang into exe.
func build(t *testing.T, clang string, res *instrument.Result, exe string) {
	t.Helper()
	compile, link := mpiFlags(t)
	args := append([]string{"-O1", "-Wno-override-module"}, compile...)
	for _, s := range res.Sources {
		args = append(args, filepath.Join(res.Dir, s))
	}
	args = append(append(args, link...), "-lstdc++", "-lm", "-o", exe) // as BuildCommand
	if out, err := exec.Command(clang, args...).CombinedOutput(); err != nil {
		t.Fatalf("building the instrumented copy: %v\n%s", err, out)
	}
}

// run runs exe on p ranks with args, its records going to out, and returns
// the records and the program's output.
func run(t *testing.T, exe string, p int, args []string, out string) ([]instrument.Record, string) {
	t.Helper()
	return runIn(t, exe, p, args, out, "", nil)
}

// runIn is run with stdin as the program's standard input and env
// (NAME=VALUE) added to its environment.
func runIn(t *testing.T, exe string, p int, args []string, out, stdin string, env []string) ([]instrument.Record, string) {
	t.Helper()
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	launch := strings.Fields(strings.NewReplacer("{P}", strconv.Itoa(p), "{exe}", exe).Replace(e2e.MPILauncher))
	cmd := exec.Command(launch[0], append(launch[1:], args...)...)
	cmd.Dir = filepath.Dir(exe)
	cmd.Env = append(append(append(os.Environ(), e2e.MPIEnv()...), "MKVET_OUT="+out, "MKVET_RUN=oracle"), env...)
	cmd.Stdin = strings.NewReader(stdin)
	b, runErr := cmd.CombinedOutput()
	recs, err := instrument.ReadRun(out, p)
	if err != nil {
		t.Fatalf("P=%d %v: %v (the run: %v)\n%s", p, args, err, runErr, b)
	}
	if runErr != nil {
		// A program may end with a status of its own (NPB DT returns 1
		// after MPI_Finalize); every rank finished and wrote its records.
		t.Logf("P=%d %v: %v after every rank wrote its records", p, args, runErr)
	}
	return recs, string(b)
}
