package analyzer

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

var idPattern = regexp.MustCompile(`^MK[123][0-9]{3}$`)

// TestCatalogue checks the catalogue as data: stable-looking IDs in order,
// and every entry documented with a title, a paragraph, its facts and an
// example program the Fortran frontend reads without error.
func TestCatalogue(t *testing.T) {
	for i, c := range Checks {
		if !idPattern.MatchString(c.ID) {
			t.Errorf("check %q: ID must be MK1xxx, MK2xxx or MK3xxx", c.ID)
		}
		if i > 0 && Checks[i-1].ID >= c.ID {
			t.Errorf("checks not sorted by ID or duplicated: %s after %s", c.ID, Checks[i-1].ID)
		}
		if Lookup(c.ID) != c {
			t.Errorf("Lookup(%s) does not find it", c.ID)
		}
		if c.Title == "" || strings.ToLower(c.Title[:1]) != c.Title[:1] || strings.HasSuffix(c.Title, ".") {
			t.Errorf("%s: title %q must be a lower-case phrase without a period", c.ID, c.Title)
		}
		if len(strings.Fields(c.Doc)) < 30 {
			t.Errorf("%s: documentation paragraph missing or too short", c.ID)
		}
		if c.Severity == 0 || c.run == nil {
			t.Errorf("%s: severity or rule missing", c.ID)
		}
		if len(c.Facts) == 0 {
			t.Errorf("%s: facts undocumented", c.ID)
		}
		if !strings.Contains(strings.ToLower(c.Example), "end program") {
			t.Errorf("%s: example missing or not a complete program", c.ID)
			continue
		}
		_, diags := fortran.ParseSource(strings.ToLower(c.ID)+".f90", []byte(c.Example), fortran.Config{})
		for _, d := range diags {
			if d.Severity == apt.Error {
				t.Errorf("%s: example does not parse: %s", c.ID, d)
			}
		}
		if !strings.Contains(Describe(c), c.ID+": "+c.Title) {
			t.Errorf("%s: Describe lacks the heading", c.ID)
		}
	}
	if Lookup("MK9999") != nil {
		t.Error("Lookup of an unknown ID")
	}
}

// TestExamplesCompile checks that the examples are real Fortran: MPI ones
// through Open MPI's wrapper, which supplies the mpi module.
func TestExamplesCompile(t *testing.T) {
	tools := e2e.Require(t, "gfortran", "mpif90")
	for _, c := range Checks {
		t.Run(c.ID, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, strings.ToLower(c.ID)+".f90")
			if err := os.WriteFile(src, []byte(c.Example), 0o644); err != nil {
				t.Fatal(err)
			}
			compiler := tools[0]
			if strings.Contains(strings.ToLower(c.Example), "use mpi") {
				compiler = tools[1]
			}
			cmd := exec.Command(compiler, "-fsyntax-only", "-J", dir, src)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -fsyntax-only: %v\n%s", filepath.Base(compiler), err, out)
			}
		})
	}
}

// TestExamplesTrigger runs each example through the whole pipeline and
// expects its own check among the diagnostics.
func TestExamplesTrigger(t *testing.T) {
	for _, c := range Checks {
		t.Run(c.ID, func(t *testing.T) {
			prog, diags := fortran.ParseSource(strings.ToLower(c.ID)+".f90", []byte(c.Example), fortran.Config{})
			for _, d := range diags {
				if d.Severity == apt.Error {
					t.Fatalf("parse: %s", d)
				}
			}
			r, err := cost.Analyze(prog, cost.Options{})
			if err != nil {
				t.Fatalf("cost.Analyze: %v", err)
			}
			var pt *cost.Point
			if c.ExampleAt != "" {
				env := map[string]int64{}
				for _, kv := range strings.Split(c.ExampleAt, ",") {
					name, val, _ := strings.Cut(kv, "=")
					v, ok := symbolic.MustParse(val).Int64()
					if !ok {
						t.Fatalf("ExampleAt %q", c.ExampleAt)
					}
					env[name] = v
				}
				if pt, err = r.At(env); err != nil {
					t.Fatalf("At(%s): %v", c.ExampleAt, err)
				}
			} else if len(r.MissingParams(nil)) == 0 {
				if pt, err = r.At(nil); err != nil {
					t.Fatalf("At(defaults): %v", err)
				}
			}
			ds := Run(r, pt, Options{})
			if len(only(ds, c.ID)) == 0 {
				t.Errorf("example does not trigger %s; diagnostics:\n%s", c.ID, lines(ds))
			}
		})
	}
}
