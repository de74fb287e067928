package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
)

// sarifCases are testdata programs with findings of every family (hot
// loops, imbalance, messages in loops, unknown values, evaluation problems),
// symbolic and at a point.
var sarifCases = [][]string{
	{filepath.Join(programsDir, "jacobi1d.f90")},
	{"-D", "P=4", filepath.Join(programsDir, "jacobi1d.f90")},
	{filepath.Join(programsDir, "pge1.f")},
	{filepath.Join(programsDir, "neighbours.f")},
	{filepath.Join(programsDir, "sparserows.f")},
	{"-D", "P=4,n=1000", filepath.Join(programsDir, "rankloops.f")},
}

type sarifDoc struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID   string `json:"id"`
					Help struct {
						Text string `json:"text"`
					} `json:"help"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string `json:"level"`
			Message   struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

// TestCheckSARIF: -format sarif reports exactly the findings of the text
// output, each with its rule (whose help is the catalogue's text), its
// level and its file, line and column relative to -root.
func TestCheckSARIF(t *testing.T) {
	root, err := filepath.Abs(filepath.Join(programsDir, "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range sarifCases {
		_, text, _ := mkvet(t, append([]string{"check"}, args...)...)
		code, out, errs := mkvet(t, append([]string{"check", "-format", "sarif", "-root", root}, args...)...)
		if code == 2 {
			t.Fatalf("%v: status 2\n%s", args, errs)
		}
		var doc sarifDoc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		if doc.Version != "2.1.0" || len(doc.Runs) != 1 {
			t.Fatalf("%v: version %q, %d runs", args, doc.Version, len(doc.Runs))
		}
		run := doc.Runs[0]
		var got []string
		for _, r := range run.Results {
			if r.RuleIndex < 0 || r.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
				t.Errorf("%v: result %s has rule index %d", args, r.RuleID, r.RuleIndex)
			}
			if len(r.Locations) != 1 {
				t.Errorf("%v: result %s has %d locations", args, r.RuleID, len(r.Locations))
				continue
			}
			l := r.Locations[0].PhysicalLocation
			if l.ArtifactLocation.URIBaseID != "SRCROOT" || strings.HasPrefix(l.ArtifactLocation.URI, "/") {
				t.Errorf("%v: location %+v is not relative to the root", args, l.ArtifactLocation)
			}
			file := filepath.Join(root, filepath.FromSlash(l.ArtifactLocation.URI))
			rel, err := filepath.Rel(cwd, file)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%s:%d:%d: %s %s", rel, l.Region.StartLine, l.Region.StartColumn, r.RuleID, r.Message.Text))
		}
		want := strings.Split(strings.TrimSpace(text), "\n")
		if strings.TrimSpace(text) == "" {
			want = nil
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%v: SARIF results differ from the text output:\n%s\nwant\n%s", args, strings.Join(got, "\n"), text)
		}
		for _, r := range run.Tool.Driver.Rules {
			if r.Help.Text == "" {
				t.Errorf("rule %s has no help text", r.ID)
			}
		}
	}
}

// TestCheckSARIFSchema validates the SARIF output with a JSON Schema
// validator that is not mkvet's (python3-jsonschema, Draft 7, formats
// checked) against testdata's schema of the SARIF 2.1.0 objects mkvet
// writes (see its description).
func TestCheckSARIFSchema(t *testing.T) {
	python := jsonschemaPython(t)
	schema, err := filepath.Abs(filepath.Join("..", "..", "analyzer", "testdata", "sarif-2.1.0-subset.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i, args := range sarifCases {
		_, out, _ := mkvet(t, append([]string{"check", "-format", "sarif"}, args...)...)
		f := filepath.Join(dir, fmt.Sprintf("%d.sarif", i))
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(python, "-c", validateSARIF, schema, f)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%v: %v\n%s", args, err, b)
		}
	}
	// The validator is not vacuous: a log without runs and with an unknown
	// level fails.
	bad := filepath.Join(dir, "bad.sarif")
	os.WriteFile(bad, []byte(`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"level": "info", "message": {"text": "m"}}]}]}`), 0o644)
	if b, err := exec.Command(python, "-c", validateSARIF, schema, bad).CombinedOutput(); err == nil {
		t.Errorf("an invalid level passed validation:\n%s", b)
	}
}

// validateSARIF validates argv[2] against the schema argv[1], formats
// included.
const validateSARIF = `
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
v = jsonschema.Draft7Validator(schema, format_checker=jsonschema.draft7_format_checker)
errs = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
for e in errs:
    print("/".join(str(p) for p in e.path), e.message)
sys.exit(1 if errs else 0)
`

// jsonschemaPython finds a python3 that imports jsonschema: the one on
// PATH, or Debian's (python3-jsonschema).
func jsonschemaPython(t *testing.T) string {
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if path, err := exec.LookPath(p); err == nil && exec.Command(path, "-c", "import jsonschema").Run() == nil {
			return path
		}
	}
	msg := "the SARIF schema test needs python3 with jsonschema (Debian: apt-get install python3-jsonschema, or run ./test.sh)"
	if e2e.Enabled() {
		t.Fatal(msg + "; MKVET_E2E is set, so a missing tool is a failure")
	}
	t.Skip(msg + "; skipping")
	return ""
}
