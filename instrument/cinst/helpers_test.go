package cinst_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/instrument"
	"github.com/mkvet/mkvet/instrument/cinst"
	"github.com/mkvet/mkvet/internal/e2e"
)

// build compiles an instrumented copy into exe with the command mkvet
// prints for it (cinst.BuildCommand), in the copy's folder.
func build(t *testing.T, res *instrument.Result, exe string) {
	t.Helper()
	cmd := strings.NewReplacer("{srcs}", strings.Join(res.Sources, " "), "{exe}", exe).Replace(cinst.BuildCommand())
	words := strings.Fields(cmd)
	c := exec.Command(words[0], words[1:]...)
	c.Dir = res.Dir
	if out, err := c.CombinedOutput(); err != nil {
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
	cmd.Env = append(append(append(os.Environ(), e2e.MPIEnv(t)...), "MKVET_OUT="+out, "MKVET_RUN=oracle"), env...)
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
