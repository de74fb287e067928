package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/analyzer"
	"github.com/mkvet/mkvet/symbolic"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const programsDir = "../../testdata/programs"

func TestCheckUsage(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.f90")
	if err := os.WriteFile(bad, []byte("program p\n  integer :: n\n  n = (\nend program p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(programsDir, "trap_serial.f")
	notes := filepath.Join(dir, "notes.md")
	decls := filepath.Join(dir, "decls.f")
	for f, text := range map[string]string{notes: "# notes\n\nrun it with 4 ranks\n", decls: "      integer n\n      parameter (n = 10)\n"} {
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args    []string
		want    string
		oneLine bool
	}{
		{[]string{"check"}, "no input files", false},
		{[]string{"check", "-form", "odd", good}, "-form must be fixed, free or auto", false},
		{[]string{"check", "-D", "rank=1", good}, "the rank is not a parameter", false},
		{[]string{"check", "-D", "P=0", good}, "the number of processes must be at least 1", false},
		{[]string{"annotate", "-D", "P=-3", good}, "the number of processes must be at least 1", false},
		{[]string{"check", "-D", "n=1.5", good}, "must be an integer", false},
		{[]string{"check", "-D", "n=", good}, "-D n=", false},
		{[]string{"check", "-assume", "n >=", good}, "assume:1:", false},
		{[]string{"check", "-share", "2", good}, "-share must be in (0, 1]", false},
		{[]string{"check", "-machine", "no-such-machine", good}, "no machine profile", false},
		{[]string{"check", bad}, "bad.f90:3:", false},
		{[]string{"check", filepath.Join(dir, "missing.f")}, "missing.f", false},
		// Not source files: one line each, before any analysis.
		{[]string{"check", notes}, "notes.md:1:1: not a source file mkvet reads (extension \".md\")", true},
		{[]string{"apt", notes}, "notes.md:1:1: not a source file", true},
		{[]string{"check", decls}, "decls.f:1:7: the file ends without END", true},
		{[]string{"whatif", "-plot", filepath.Join(dir, "speedup.jpg"), good}, "unknown format \".jpg\"", true},
		{[]string{"whatif", "-plot", filepath.Join(dir, "no", "speedup.svg"), good}, "no directory", true},
	} {
		out, errs, code := runMkvet(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want exit 2 and %q", tc.args, code, errs, out, tc.want)
		}
		if lines := strings.Count(strings.TrimSpace(errs), "\n") + 1; tc.oneLine && lines > 1 {
			t.Errorf("%q: %d lines on stderr, want one naming the problem:\n%s", tc.args, lines, errs)
		}
	}
}

func TestCheckList(t *testing.T) {
	out, errs, code := runMkvet(t, "check", "-list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, c := range analyzer.Checks {
		if !strings.Contains(out, c.ID+": "+c.Title) {
			t.Errorf("-list lacks %s", c.ID)
		}
	}
}

func TestCheckHelpListsCheckFirst(t *testing.T) {
	out, _, _ := runMkvet(t, "help")
	i, j := strings.Index(out, "\tcheck "), strings.Index(out, "\tannotate ")
	k := strings.Index(out, "\texpr ")
	if i < 0 || j < 0 || k < 0 || !(i < j && j < k) {
		t.Errorf("help order: want check, annotate, then expr:\n%s", out)
	}
}

func TestCheckTrap(t *testing.T) {
	file := filepath.Join(programsDir, "trap_mpi.f")
	out, errs, code := runMkvet(t, "check", "-D", "P=8", file)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (findings); stderr:\n%s", code, errs)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, file+":") || !strings.Contains(line, ": MK") {
			t.Errorf("not a vet-style line: %q", line)
		}
	}
	if !strings.Contains(out, " MK1001 loop runs ") || !strings.Contains(out, "n=1024, P=8: 127 iterations") {
		t.Errorf("hot loop of trap not reported at the point:\n%s", out)
	}

	// Without P the results are symbolic, with one note saying so.
	out, errs, code = runMkvet(t, "check", file)
	if code != 1 || strings.Count(errs, "no value for P") != 1 || !strings.Contains(out, "as n grows") {
		t.Errorf("symbolic run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}

	// An unknown -D name is a note, not an error.
	_, errs, _ = runMkvet(t, "check", "-D", "P=8,zz=3", file)
	if !strings.Contains(errs, "-D zz: not a parameter") {
		t.Errorf("stderr lacks the unknown -D note:\n%s", errs)
	}
}

func TestCheckJSON(t *testing.T) {
	file := filepath.Join(programsDir, "trap_mpi.f")
	out, errs, code := runMkvet(t, "check", "-json", "-D", "p=8", "-machine", "cluster", file)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res checkJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if res.Version != 1 || res.Entry != "trapmp" || !res.Parallel || res.Point["P"] != 8 || res.Point["n"] != 1024 ||
		res.Machine != "cluster" || res.Work.At == nil || res.Work.At.Seconds <= 0 {
		t.Errorf("header: %+v", res)
	}
	if len(res.Diagnostics) == 0 {
		t.Fatal("no diagnostics")
	}
	for _, d := range res.Diagnostics {
		if d.Pos != d.File+":"+itoa(d.Line)+":"+itoa(d.Col) || d.ID == "" || d.Title == "" || d.Facts == nil {
			t.Errorf("diagnostic %+v", d)
		}
	}
	// The generic decoding sees the documented top-level keys.
	var raw map[string]any
	json.Unmarshal([]byte(out), &raw)
	for _, k := range []string{"version", "files", "entry", "parallel", "point", "missing", "params", "work", "diagnostics"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// goldenPoints gives each program of testdata/programs the -D point of its
// golden runs ("" for none: a serial program's defaults).
var goldenPoints = map[string]string{
	"trap_serial.f":   "",
	"hpf_example.f90": "",
	"jacobi1d.f90":    "P=8,nargs=0",
	"trap_reduce.f90": "P=8,nargs=0",
}

func goldenPoint(name string) string {
	if p, ok := goldenPoints[name]; ok {
		return p
	}
	return "P=8"
}

// programNames lists the Fortran programs of testdata/programs.
func programNames(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, pat := range []string{"*.f", "*.F", "*.f90", "*.F90"} {
		m, err := filepath.Glob(filepath.Join(programsDir, pat))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			out = append(out, filepath.Base(p))
		}
	}
	if len(out) == 0 {
		t.Fatal("no programs in " + programsDir)
	}
	return out
}

// needGolden fails the test, before any work, when the golden file does
// not exist and -update is not given: a lost golden file must not turn its
// test into one that cannot fail.
func needGolden(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); os.IsNotExist(err) && !*update {
		t.Fatalf("no golden file %s; create it with go test ./cmd/mkvet -run Golden -update", path)
	}
}

// golden compares got with the golden file, or rewrites it under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs (rerun with -update after checking):\n%s", path, firstDiff(string(want), string(got)))
	}
}

// firstDiff shows the first differing line of want and got.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\n  want: " + a + "\n  got:  " + b
		}
	}
	return "(same lines, different endings)"
}

// transcript runs mkvet and formats the run as the golden files keep it.
func transcript(t *testing.T, args ...string) (text string, stderr string) {
	t.Helper()
	out, errs, code := runMkvet(t, args...)
	var b strings.Builder
	b.WriteString("$ mkvet " + strings.Join(args, " ") + "\n")
	b.WriteString(out)
	if errs != "" {
		b.WriteString("-- stderr --\n" + errs)
	}
	b.WriteString("-- exit " + itoa(code) + " --\n")
	return b.String(), errs
}

// TestCheckGolden keeps the check output of every test program, without a
// point and at its golden point, in testdata/golden/check.
func TestCheckGolden(t *testing.T) {
	goldenDir, err := filepath.Abs(filepath.Join("testdata", "golden", "check"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range programNames(t) {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(goldenDir, name+".txt")
			needGolden(t, path)
			t.Chdir(programsDir)
			sym, _ := transcript(t, "check", "-I", ".", name)
			text := sym
			if pt := goldenPoint(name); pt != "" {
				at, _ := transcript(t, "check", "-I", ".", "-D", pt, name)
				text += "\n" + at
			}
			golden(t, path, []byte(text))
		})
	}
}

// TestCheckJSONNodes: every node's per-rank count and work in check -json,
// read back from their printed pieces, equal at every rank the per-rank
// values the same output lists, which the cost model evaluates from the
// forms as derived (not the tidied, printed ones); and the runs of equal
// values cover the ranks in order.
func TestCheckJSONNodes(t *testing.T) {
	checked := 0
	for _, name := range programNames(t) {
		args := []string{"check", "-json"}
		if pt := goldenPoint(name); pt != "" {
			args = append(args, "-D", pt)
		}
		out, errs, code := runMkvet(t, append(args, filepath.Join(programsDir, name))...)
		if code == 2 {
			t.Fatalf("%s: exit 2: %s", name, errs)
		}
		var res checkJSON
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: not JSON: %v", name, err)
		}
		if len(res.Nodes) == 0 {
			t.Errorf("%s: no nodes", name)
		}
		for _, n := range res.Nodes {
			if n.ID == "" || n.Pos == "" || n.What == "" || n.Unit == "" {
				t.Errorf("%s: node %+v", name, n)
			}
			if n.Count == nil && !slices.Contains(n.Missing, "count") {
				t.Errorf("%s %s: no count and none missing", name, n.ID)
			}
			if n.At == nil || res.Point == nil {
				continue
			}
			for _, q := range []struct {
				what string
				form *formJSON
				at   *ranksJSON
			}{{"count", n.Count, n.At.Count}, {"work", n.Work, n.At.Work}} {
				if q.form == nil || q.at == nil {
					continue
				}
				pw := piecesBack(t, q.form.Pieces)
				ranks := res.Point["P"]
				if !res.Parallel {
					ranks = 1
				}
				if int64(len(q.at.Values)) != ranks {
					t.Fatalf("%s %s: %d values for %d ranks", name, n.ID, len(q.at.Values), ranks)
				}
				env := map[string]symbolic.Rat{}
				for k, v := range res.Point {
					env[k] = symbolic.RatInt(v)
				}
				for r, want := range q.at.Values {
					env["rank"] = symbolic.RatInt(int64(r))
					got, err := pw.Eval(env)
					if err != nil {
						t.Fatalf("%s %s %s at rank %d: %v", name, n.ID, q.what, r, err)
					}
					if f := got.Float64(); f != want {
						t.Errorf("%s %s %s at rank %d: closed form %s gives %s, values %v", name, n.ID, q.what, r, q.form.ClosedForm, got, want)
					}
					checked++
				}
				next := 0
				for _, run := range q.at.Runs {
					lo, hi, _ := strings.Cut(run.Ranks, "-")
					if hi == "" {
						hi = lo
					}
					if lo != itoa(next) {
						t.Errorf("%s %s %s: run %q does not start at rank %d", name, n.ID, q.what, run.Ranks, next)
					}
					h, _ := strconv.Atoi(hi)
					for r := next; r <= h && r < len(q.at.Values); r++ {
						if q.at.Values[r] != run.Value {
							t.Errorf("%s %s %s: run %q value %v, rank %d has %v", name, n.ID, q.what, run.Ranks, run.Value, r, q.at.Values[r])
						}
					}
					next = h + 1
				}
				if next != len(q.at.Values) {
					t.Errorf("%s %s %s: runs end at rank %d of %d", name, n.ID, q.what, next, len(q.at.Values))
				}
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d per-rank values checked", checked)
	}
	t.Logf("%d per-rank values checked against their closed forms", checked)
}

// piecesBack reads check -json pieces back into a closed form.
func piecesBack(t *testing.T, ps []pieceJSON) symbolic.Piecewise {
	t.Helper()
	var pw symbolic.Piecewise
	for _, p := range ps {
		pc, err := symbolic.ParsePiece(p.Value, p.Guard)
		if err != nil {
			t.Fatalf("%s if %v: %v", p.Value, p.Guard, err)
		}
		pw.Pieces = append(pw.Pieces, pc)
	}
	return pw
}

// TestFormOutputBounds: -json writes at most maxJSONPieces pieces of a
// form and at most about maxJSONText bytes of them (always the first),
// and counts those it leaves off; a small form is written whole.
func TestFormOutputBounds(t *testing.T) {
	n := symbolic.Sym("n")
	// A piece's value is i + a symbol of name bytes.
	form := func(pieces, name int) symbolic.Piecewise {
		var pw symbolic.Piecewise
		long := symbolic.Sym("t" + strings.Repeat("x", name))
		for i := range pieces {
			v := symbolic.Int(int64(i)).Add(long)
			pw.Pieces = append(pw.Pieces, symbolic.Piece{Value: v,
				Guard: []symbolic.Relation{{E: n.Sub(symbolic.Int(int64(i))), Op: symbolic.GE}}})
		}
		return pw
	}
	for _, tc := range []struct {
		pieces, name     int
		written, leftOff int
	}{
		{3, 1, 3, 0},
		{maxJSONPieces, 1, maxJSONPieces, 0},
		{maxJSONPieces + 44, 1, maxJSONPieces, 44},
		{10, maxJSONText, 1, 9}, // each piece alone past maxJSONText
		{10, maxJSONText/4 - 100, 4, 6},
	} {
		f := formOutput(form(tc.pieces, tc.name))
		if len(f.Pieces) != tc.written || f.PiecesLeftOff != tc.leftOff {
			t.Errorf("%d pieces of %d bytes: wrote %d, left off %d; want %d and %d",
				tc.pieces, tc.name, len(f.Pieces), f.PiecesLeftOff, tc.written, tc.leftOff)
		}
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if has := strings.Contains(string(b), `"pieces_left_off"`); has != (tc.leftOff > 0) {
			t.Errorf("%d pieces: pieces_left_off written %v, want %v", tc.pieces, has, tc.leftOff > 0)
		}
	}
}

// TestCheckArgumentSize: a number a Fortran program reads from a
// command-line argument the run is not given (GET_COMMAND_ARGUMENT, then an
// internal READ) is one value of the run, named after the variable and
// asked for once: at P=4 the block sizes it decides stay exact closed
// forms (rank < mod(n, P)), never a branch frequency or an unknown element
// count; with -args they are numbers.
func TestCheckArgumentSize(t *testing.T) {
	file := filepath.Join(programsDir, "argsize.f90")
	out, errs, code := runMkvet(t, "check", "-D", "P=4,nargs=2", file)
	if code == 2 {
		t.Fatalf("exit 2: %s", errs)
	}
	for _, want := range []string{"the value read into n from command-line argument 1", "the value read into steps from command-line argument 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("no MK3001 for %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "MK3003") || strings.Contains(out, "pct_") || strings.Contains(out, "element count") {
		t.Errorf("counts marked approximate where they are closed forms in n:\n%s", out)
	}
	out, errs, code = runMkvet(t, "check", "-D", "P=4", "-args", "4000 7", file)
	if code == 2 || strings.Contains(out, "MK3001") || !strings.Contains(out, "P=4: 7 iterations") {
		t.Errorf("-args '4000 7': exit %d\n%s\n%s", code, out, errs)
	}
}
