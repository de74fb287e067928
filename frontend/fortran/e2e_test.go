package fortran

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
)

// TestCompilersAccept checks that every testdata program is valid Fortran:
// serial programs with gfortran -fsyntax-only, MPI programs with Open MPI's
// mpif90 wrapper (which supplies mpif.h and the mpi module). The frontend's
// golden trees are only worth something if the programs are real code.
func TestCompilersAccept(t *testing.T) {
	tools := e2e.Require(t, "gfortran", "mpif90")
	abs, err := filepath.Abs(programsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range programFiles(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			compiler := tools[0]
			if usesMPI(t, path) {
				compiler = tools[1]
			}
			dir := t.TempDir()
			// -J keeps .mod files out of the source tree; -std=legacy accepts
			// the deleted features (ASSIGN, shared DO termination) that the
			// NPB-style programs exercise on purpose, as real builds do.
			cmd := exec.Command(compiler, "-fsyntax-only", "-std=legacy", "-I", abs, "-J", dir, filepath.Join(abs, name))
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -fsyntax-only %s: %v\n%s", filepath.Base(compiler), name, err, out)
			}
		})
	}
}

func usesMPI(t *testing.T, path string) bool {
	prog, _ := ParseFiles([]string{path}, Config{})
	for _, r := range prog.Routines {
		if r.Name == "mpi" && r.Span.Line == 0 {
			return true
		}
	}
	return strings.Contains(filepath.Base(path), "mpi")
}
