package fortran

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
)

// TestFormDetected: every free-form test program, given a fixed-form name
// (.F, .f), reads as the free-form file it is (the same tree as under its
// own name, and a warning that says so); no fixed-form test program or
// corpus file (when ../shared/corpora is there) is taken for free form.
func TestFormDetected(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "programs")
	for _, pat := range []string{"*.f90", "*.F90"} {
		files, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := ParseSource("x"+filepath.Ext(f), src, Config{Form: FormFree, Preprocess: true})
			got, diags := ParseSource("x.F", src, Config{})
			if !hasFormWarning(diags) {
				t.Errorf("%s as x.F: no free form detected", f)
				continue
			}
			if a, b := treeText(want), treeText(got); a != b {
				t.Errorf("%s as x.F: the tree differs from the free-form one", f)
			}
		}
	}
	var fixed []string
	for _, pat := range []string{"*.f", "*.F"} {
		files, _ := filepath.Glob(filepath.Join(dir, pat))
		fixed = append(fixed, files...)
	}
	corpora := filepath.Join("..", "..", "..", "shared", "corpora")
	filepath.WalkDir(corpora, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".f") || strings.HasSuffix(p, ".F")) {
			fixed = append(fixed, p)
		}
		return nil
	})
	for _, f := range fixed {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if looksFree(src) {
			t.Errorf("%s: taken for free form", f)
		}
	}
	t.Logf("%d fixed-form files kept fixed", len(fixed))
}

func hasFormWarning(diags []apt.Diagnostic) bool {
	for _, d := range diags {
		if strings.Contains(d.Msg, "free source form detected") {
			return true
		}
	}
	return false
}

// treeText prints a program's routines without file names.
func treeText(p *apt.Program) string {
	var b strings.Builder
	for _, r := range p.Routines {
		apt.Fprint(&b, r)
	}
	return strings.ReplaceAll(strings.ReplaceAll(b.String(), "x.F90", "x.F"), "x.f90", "x.F")
}
