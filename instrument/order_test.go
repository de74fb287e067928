package instrument

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
)

// TestModuleOrder: files given users first (as NPB 3.4's Makefile lists
// lu.f before lu_data.f) are written to the build's source list modules
// first (each right before the first file needing it), the others in
// their given order.
func TestModuleOrder(t *testing.T) {
	dir := t.TempDir()
	srcs := map[string]string{
		"main.f90":   "program main\n  use grid\n  use solver\n  call solve()\n  print *, n\nend program main\n",
		"helper.f90": "subroutine helper()\nend subroutine helper\n",
		"solver.f90": "module solver\n  use grid\ncontains\n  subroutine solve()\n    n = n + 1\n  end subroutine solve\nend module solver\n",
		"grid.f90":   "module grid\n  integer :: n = 4\nend module grid\n",
	}
	var files []string
	for _, f := range []string{"main.f90", "helper.f90", "solver.f90", "grid.f90"} {
		p := filepath.Join(dir, f)
		if err := os.WriteFile(p, []byte(srcs[f]), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	prog, diags := fortran.ParseFiles(files, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatal(d)
		}
	}
	res, err := Instrument(prog, files, Options{Dir: filepath.Join(dir, "out")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{RuntimeFile, "grid.f90", "solver.f90", "main.f90", "helper.f90"}
	if !slices.Equal(res.Sources, want) {
		t.Errorf("sources %v, want %v", res.Sources, want)
	}
}
