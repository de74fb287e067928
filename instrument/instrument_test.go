package instrument

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func texts(f *sourceFile) []string {
	var out []string
	for _, s := range f.stmts {
		l := string(s.text)
		if s.label != "" {
			l = s.label + ": " + l
		}
		out = append(out, l)
	}
	return out
}

func TestScanFixed(t *testing.T) {
	seq := "     &       B)"
	seq += strings.Repeat(" ", 72-len(seq)) + "SEQ00010"
	src := "" +
		"c     a comment\n" +
		"      PROGRAM P\n" +
		"   10 X = 1 ! trailing\n" +
		"      CALL F(A,\n" +
		"*     in between\n" +
		seq + "\n" +
		"\tY = 'a!b'\n" +
		"\t1+ 2\n" +
		"      A = 1; B = 2\n" +
		"!     bang\n" +
		"      END\n"
	f := scan("p.f", "p.f", []byte(src), true)
	want := []string{"PROGRAM P", "10: X = 1", "CALL F(A,       B)", "Y = 'a!b'+ 2", "A = 1", "B = 2", "END"}
	if got := texts(f); !slices.Equal(got, want) {
		t.Errorf("statements\n got %q\nwant %q", got, want)
	}
	// The continued call spans lines 4-6; its B is at line 6, column 14.
	s := f.stmtAt(6, 14)
	if s == nil || !strings.HasPrefix(string(s.text), "CALL") || s.first != 4 || s.last != 6 {
		t.Errorf("stmtAt(6, 14) = %+v", s)
	}
	if a, b := f.stmtAt(9, 7), f.stmtAt(9, 14); a == b || a.group != b.group {
		t.Errorf("; statements: %p %p, groups %d %d", a, b, a.group, b.group)
	}
}

func TestScanFree(t *testing.T) {
	src := "" +
		"program p ! c\n" +
		"  x = 'a & b' // &\n" +
		"      ! comment inside\n" +
		"    & 'c'\n" +
		"10 continue\n" +
		"  a = 1; if (b) &\n" +
		"     call f()\n" +
		"  s = 'it''s!'\n" +
		"end program p\n"
	f := scan("p.f90", "p.f90", []byte(src), false)
	want := []string{"program p", "x = 'a & b' //  'c'", "10: continue", "a = 1", "if (b) call f()", "s = 'it''s!'", "end program p"}
	if got := texts(f); !slices.Equal(got, want) {
		t.Errorf("statements\n got %q\nwant %q", got, want)
	}
	if s := f.stmtAt(7, 6); s == nil || !strings.HasPrefix(string(s.text), "if") {
		t.Errorf("stmtAt(7, 6) = %v", s)
	}
}

func TestLayout(t *testing.T) {
	fixed := &sourceFile{fixed: true}
	long := "call mkvet_msg(12, 2, int(some_long_count_expression + other, 8), mpi_double_precision, peer)"
	lines := fixed.layout(line{label: "20", text: long}, "   ")
	for i, l := range lines {
		if len(l) > 72 {
			t.Errorf("line %d has %d columns: %q", i, len(l), l)
		}
		if i > 0 && l[5] != '&' {
			t.Errorf("continuation line %d: %q", i, l)
		}
	}
	if !strings.HasPrefix(lines[0], "20       call") {
		t.Errorf("first line %q", lines[0])
	}
	var joined strings.Builder
	for i, l := range lines {
		if i == 0 {
			joined.WriteString(l[9:])
		} else {
			joined.WriteString(l[6:])
		}
	}
	if joined.String() != long {
		t.Errorf("rejoined %q", joined.String())
	}
	free := &sourceFile{}
	lines = free.layout(line{text: strings.Repeat("x + ", 40) + "y"}, "  ")
	if len(lines) < 2 || !strings.HasSuffix(lines[0], "&") || !strings.HasPrefix(lines[1], "  &") {
		t.Errorf("free layout %q", lines)
	}
}

func parse(t *testing.T, path string) *apt.Program {
	t.Helper()
	prog, diags := fortran.ParseFiles([]string{path}, fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("%v", d)
		}
	}
	return prog
}

// TestGolden compares the instrumented copies of the rewriter's test
// programs with golden files (go test -update rewrites them). The e2e test
// compiles and runs them and checks their counters.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  Options
	}{{"labels.f", Options{}}, {"forms.f90", Options{}}, {"nests.f", Options{NestTimers: true}}} {
		name := tc.name
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name)
			dir := t.TempDir()
			opt := tc.opt
			opt.Dir, opt.Values = dir, map[string]int64{"n": 12}
			res, err := Instrument(parse(t, path), []string{path}, opt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", name+".golden")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s (go test -update rewrites it)", name, golden)
			}
			if !slices.Equal(res.Sources, []string{RuntimeFile, name}) {
				t.Errorf("sources %v", res.Sources)
			}
			if _, err := ReadProbes(dir); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestNestTimers checks which loops Options.NestTimers times: every
// routine's outermost loops, those of the routines called from loops too,
// and no inner loop; without the option only the outermost loops of the
// routines not called from loops. A jump that may leave a nest or stay is
// noted.
func TestNestTimers(t *testing.T) {
	path := filepath.Join("testdata", "nests.f")
	timed := func(opt Options) []string {
		opt.Dir = t.TempDir()
		res, err := Instrument(parse(t, path), []string{path}, opt)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range res.Probes {
			if p.Kind == "loop" && p.Timed {
				out = append(out, p.Node)
			}
		}
		if opt.NestTimers {
			want := "a jump that may leave loop nest nests/L4: its timer stays open"
			if !slices.ContainsFunc(res.Notes, func(n Note) bool { return strings.Contains(n.Msg, want) }) {
				t.Errorf("notes %v, want one saying %q", res.Notes, want)
			}
		}
		return out
	}
	main := []string{"nests/L1", "nests/L2", "nests/L3", "nests/L4"}
	if got := timed(Options{}); !slices.Equal(got, main) {
		t.Errorf("timed loops by default %v, want %v", got, main)
	}
	if got, want := timed(Options{NestTimers: true}), append(main, "scale/L1", "upto/L1", "find/L1"); !slices.Equal(got, want) {
		t.Errorf("timed loops with NestTimers %v, want %v", got, want)
	}
}

// TestParams checks how each size reaches the copy.
func TestParams(t *testing.T) {
	for _, tc := range []struct {
		path string
		want map[string]ParamMode
	}{
		{filepath.Join("testdata", "forms.f90"), map[string]ParamMode{"nn": ParamBuild, "n": ParamEnv}},
		{filepath.Join("..", "testdata", "programs", "trap_mpi.f"), map[string]ParamMode{"n": ParamBuild}},
		{filepath.Join("..", "testdata", "programs", "jacobi1d.f90"), map[string]ParamMode{"n": ParamEnv, "iters": ParamEnv}},
		{filepath.Join("..", "testdata", "programs", "lu_wavefront.f"), map[string]ParamMode{"nx": ParamBuild, "ny": ParamBuild, "nz": ParamBuild}},
	} {
		res, err := Instrument(parse(t, tc.path), []string{tc.path}, Options{Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]ParamMode{}
		for _, p := range res.Params {
			got[p.Name] = p.Mode
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: size %s is %q, want %q", tc.path, k, got[k], v)
			}
		}
	}
}

// TestBuildValue checks that a size in an INCLUDE file is set in the copy
// of the include, and the original is untouched.
func TestBuildValue(t *testing.T) {
	path := filepath.Join("..", "testdata", "programs", "lu_wavefront.f")
	orig, _ := os.ReadFile(filepath.Join("..", "testdata", "programs", "lu_params.h"))
	dir := t.TempDir()
	res, err := Instrument(parse(t, path), []string{path}, Options{Dir: dir, Values: map[string]int64{"nx": 33, "nz": 5}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.Files, "lu_params.h") {
		t.Fatalf("files %v", res.Files)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "lu_params.h"))
	if !strings.Contains(string(b), "parameter (nx = 33, ny = 16, nz = 5, itmax = 4)") {
		t.Errorf("lu_params.h copy:\n%s", b)
	}
	now, _ := os.ReadFile(filepath.Join("..", "testdata", "programs", "lu_params.h"))
	if !bytes.Equal(orig, now) {
		t.Error("the input include file changed")
	}
}

func TestInstrumentRefusesInputDir(t *testing.T) {
	path := filepath.Join("testdata", "labels.f")
	if _, err := Instrument(parse(t, path), []string{path}, Options{Dir: "testdata"}); err == nil {
		t.Error("instrumenting into the input's directory should fail")
	}
}

// TestLabelRules checks the label placements around probes.
func TestLabelRules(t *testing.T) {
	f := &sourceFile{fixed: true}
	s := &stmt{file: f, label: "20", text: []byte("call x")}
	e := &edits{pre: []string{"P"}, post: []string{"Q"}, postOuter: []string{"O"}}
	render := func(doTerm bool) []string {
		var out []string
		for _, l := range f.statement(s, e, doTerm) {
			out = append(out, l.label+"|"+l.text)
		}
		return out
	}
	if got, want := render(false), []string{"20|continue", "|P", "|call x", "|Q", "|O"}; !slices.Equal(got, want) {
		t.Errorf("jump target: %q, want %q", got, want)
	}
	if got, want := render(true), []string{"|P", "|call x", "|Q", "20|continue", "|O"}; !slices.Equal(got, want) {
		t.Errorf("DO terminal: %q, want %q", got, want)
	}
}

func TestReadRecords(t *testing.T) {
	good := `{"type":"run","run":"r1","rank":0,"P":2,"clock":"MPI_Wtime","seconds":1.5E-003,"cpu_seconds":1.4E-003,"params":{"n":64}}

{"type":"node","run":"r1","rank":0,"P":2,"node":"main/L1","count":1,"iters":64,"timed":1,"seconds":1.0E-003,"inclusive":1.2E-003,"msgs":0,"bytes":0,"recv_msgs":0,"recv_bytes":0,"params":{"n":64}}
`
	recs, err := ReadRecords(strings.NewReader(good), "r.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1].Iters != 64 || recs[0].Params["n"] != 64 {
		t.Errorf("records %+v", recs)
	}
	if s := Scheduled(recs); s < 0.93 || s > 0.94 {
		t.Errorf("Scheduled = %g", s)
	}
	for _, tc := range []struct{ in, want string }{
		{"{", "f.jsonl:1: not a record"},
		{`{"type":"node","rank":0,"P":1}`, "f.jsonl:1: node record without a node"},
		{"\n\n" + `{"type":"run","rank":2,"P":2}`, "f.jsonl:3: rank 2 of P = 2"},
		{`{"type":"run","rank":0,"P":1,"seconds":-1}`, "f.jsonl:1: seconds is -1"},
		{`{"type":"node","node":"a","rank":0,"P":1,"count":-3}`, "f.jsonl:1: count is negative"},
		{`{"type":"node","node":"a","rank":0,"P":1,"extra":1}`, `f.jsonl:1: not a record: unknown field "extra"`},
		{`{"rank":0,"P":1}`, `f.jsonl:1: record without "type"`},
		{`{"type":"x","rank":0,"P":1}`, `f.jsonl:1: unknown record type "x"`},
		{`{"type":"run","rank":0,"P":1} {}`, "f.jsonl:1: text after the record"},
	} {
		_, err := ReadRecords(strings.NewReader(tc.in), "f.jsonl")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ReadRecords(%q) = %v, want %q...", tc.in, err, tc.want)
		}
	}
}

func TestReadRunMissingRank(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, RankFile(0)), []byte(`{"type":"run","rank":0,"P":2}`+"\n"), 0o644)
	if _, err := ReadRun(dir, 2); err == nil || !strings.Contains(err.Error(), "rank 1 wrote no records") {
		t.Errorf("ReadRun = %v", err)
	}
	os.WriteFile(filepath.Join(dir, RankFile(1)), []byte(`{"type":"node","node":"x","rank":1,"P":2}`+"\n"), 0o644)
	if _, err := ReadRun(dir, 2); err == nil || !strings.Contains(err.Error(), "no run record") {
		t.Errorf("ReadRun = %v", err)
	}
}
