package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mkvet/mkvet/internal/corpora"
	"github.com/mkvet/mkvet/internal/e2e"
)

// messageLimit is the longest line check may print (issue 15): a finding
// states the fact, its size and a leading term; the whole closed forms are
// in -json.
const messageLimit = 300

// longLines returns the lines of out longer than messageLimit.
func longLines(out string) []string {
	var long []string
	for _, l := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(l) > messageLimit {
			long = append(long, l)
		}
	}
	return long
}

// danglingAt returns the lines of out that say "at" with no point after
// it (a point with no values given prints as nothing).
func danglingAt(out string) []string {
	var bad []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, " at ,") || strings.Contains(l, " at )") || strings.HasSuffix(strings.TrimSpace(l), " at") {
			bad = append(bad, l)
		}
	}
	return bad
}

// TestNoDanglingAtE2E: a C program analysed with its command line and no
// -D, whose hot loops' share is of the work counted at a point lacking
// values of its data, names no empty point ("counted at , where").
func TestNoDanglingAtE2E(t *testing.T) {
	e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	_, out, errs := mkvet(t, "check", "-args", "100", filepath.Join(programsDir, "datanest.c"))
	if !strings.Contains(out, "of the loop work counted") {
		t.Fatalf("no share of the counted work in:\n%s%s", out, errs)
	}
	for _, l := range danglingAt(out + errs) {
		t.Errorf("\"at\" with no point after it:\n%s", l)
	}
}

// TestMessagesFitOnALine: check on every testdata program, with P symbolic
// and at P = 4, prints no line longer than messageLimit, run from the
// programs' directory as a user would.
func TestMessagesFitOnALine(t *testing.T) {
	dir, err := filepath.Abs(programsDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	files, _ := filepath.Glob("*.[fF]*")
	if len(files) < 20 {
		t.Fatalf("only %d programs in %s", len(files), dir)
	}
	for _, f := range files {
		for _, at := range [][]string{nil, {"-D", "P=4"}} {
			_, out, errs := mkvet(t, append(append([]string{"check"}, at...), f)...)
			for _, l := range longLines(out + errs) {
				t.Errorf("check %v %s: a line of %d characters:\n%s", at, f, utf8.RuneCountInString(l), l)
			}
			for _, l := range danglingAt(out + errs) {
				t.Errorf("check %v %s: \"at\" with no point after it:\n%s", at, f, l)
			}
		}
	}
}

// TestCorporaMessagesFitOnALine is TestMessagesFitOnALine on the programs
// of the manifest mkvet was developed on (NPB 3.3's Fortran benchmarks and
// CloverLeaf), each configured for its check's P and run from its own
// directory.
func TestCorporaMessagesFitOnALine(t *testing.T) {
	dir := corpora.Dir(t)
	e2e.Require(t, "cc")
	given, err := corpora.Select(func(p corpora.Program) bool { return p.Set == "given" && p.Language == "fortran" })
	if err != nil {
		t.Fatal(err)
	}
	type program struct {
		name, dir string
		args      []string
	}
	var programs []program
	work := t.TempDir()
	trees := map[string]*corpora.Tree{}
	for _, p := range given {
		tree := trees[p.Folder]
		if tree == nil {
			if tree, err = corpora.NewTree(t, dir, p.Folder, work); err != nil {
				t.Fatal(err)
			}
			trees[p.Folder] = tree
		}
		c, err := tree.Program(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Configure(p.P, ""); err != nil {
			t.Fatal(err)
		}
		files, err := c.Sources()
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"-I", "."}
		for _, f := range files {
			rel, _ := filepath.Rel(c.Dir, f)
			args = append(args, rel)
		}
		programs = append(programs, program{p.Name, c.Dir, args})
	}
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	for _, p := range programs {
		if err := os.Chdir(p.dir); err != nil {
			t.Fatal(err)
		}
		for _, at := range [][]string{nil, {"-D", "P=4"}} {
			code, out, errs := mkvet(t, append(append([]string{"check"}, at...), p.args...)...)
			if code == 2 {
				t.Errorf("%s %v: status 2\n%s", p.name, at, errs)
			}
			for _, l := range longLines(out + errs) {
				t.Errorf("%s %v: a line of %d characters:\n%s", p.name, at, utf8.RuneCountInString(l), l)
			}
		}
	}
}
