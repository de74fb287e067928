package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// CompileRun writes src to a file called name in a new temporary directory,
// builds it with the compiler (and flags) into an executable there and runs
// it there: the source's path and what the program printed. A build or run
// that fails fails the test.
func CompileRun(t testing.TB, compiler, name, src string, flags ...string) (path, out string) {
	t.Helper()
	dir := t.TempDir()
	path = filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "prog")
	cmd := exec.Command(compiler, append(append([]string{}, flags...), "-o", exe, path)...)
	cmd.Dir = dir // module files go beside the source
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(compiler), name, err, b)
	}
	run := exec.Command(exe)
	run.Dir = dir
	b, err := run.Output()
	if err != nil {
		t.Fatalf("running %s: %v", name, err)
	}
	return path, string(b)
}
