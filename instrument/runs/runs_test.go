package runs

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

func testStore(t *testing.T) (*Store, *Program) {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "sub", "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	p, err := s.Program("abcdef0123456789", "trap", []string{"trap_mpi.f"})
	if err != nil {
		t.Fatal(err)
	}
	return s, p
}

// addSample stores two points of two repetitions of a two-rank program.
func addSample(t *testing.T, s *Store, p *Program) {
	t.Helper()
	for _, n := range []float64{64, 128} {
		for rep := range 2 {
			r := &Run{Program: p.ID, Source: "mkvet", P: 2, Rep: rep, Params: map[string]float64{"n": n},
				Seconds: n * 1e-6, Sched: 0.99, Probe: 3e-4}
			recs := []Record{
				{Node: "main/L1", Rank: 0, Count: 1, Iters: int64(n / 2), Timed: 1, Seconds: n * 1e-6, Inclusive: n * 1e-6},
				{Node: "main/L1", Rank: 1, Count: 1, Iters: int64(n / 2), Timed: 1, Seconds: n * 2e-6},
				{Node: "main/M1", Rank: 1, Count: 1, Msgs: 1, Bytes: 8, Timed: 1, Seconds: 1e-6},
			}
			if _, err := s.AddRun(r, recs); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.AddRun(&Run{Program: p.ID, Source: "mkvet", P: 4, Status: StatusFailed, Error: "timed out\nstderr"}, nil); err != nil {
		t.Fatal(err)
	}
}

func TestStore(t *testing.T) {
	s, p := testStore(t)
	if q, err := s.Program(p.Hash, "", nil); err != nil || q.ID != p.ID || q.Label != "trap" {
		t.Fatalf("Program again = %+v, %v", q, err)
	}
	addSample(t, s, p)
	rs, err := s.Runs(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 5 || rs[0].Params["n"] != 64 || rs[4].Status != StatusFailed || rs[0].Sched != 0.99 || rs[0].Probe != 3e-4 {
		t.Fatalf("runs %+v", rs)
	}
	recs, err := s.Records(rs[0].ID)
	if err != nil || len(recs) != 3 || recs[0].Node != "main/L1" || recs[1].Seconds != 128e-6 {
		t.Fatalf("records %+v, %v", recs, err)
	}
	if found, err := s.FindProgram("trap"); err != nil || found.ID != p.ID {
		t.Errorf("FindProgram(trap) = %v, %v", found, err)
	}
	if _, err := s.FindProgram("nope"); err == nil {
		t.Error("FindProgram(nope) should fail")
	}
	models := map[string]json.RawMessage{"main/L1": json.RawMessage(`{"a":1}`), "*": json.RawMessage(`{}`)}
	if err := s.SaveModels(p.ID, models); err != nil {
		t.Fatal(err)
	}
	got, err := s.Models(p.ID)
	if err != nil || len(got) != 2 || string(got["main/L1"]) != `{"a":1}` {
		t.Errorf("Models = %v, %v", got, err)
	}
	var b bytes.Buffer
	WriteTable(&b, rs, map[int64]*Program{p.ID: p})
	if !strings.Contains(b.String(), "failed: timed out") || !strings.Contains(b.String(), "n=128") {
		t.Errorf("table:\n%s", b.String())
	}
}

func TestExportRoundTrip(t *testing.T) {
	s, p := testStore(t)
	addSample(t, s, p)
	ex, err := s.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Runs) != 4 {
		t.Fatalf("%d successful runs, want 4", len(ex.Runs))
	}
	// mkvet's JSON Lines come back record for record.
	var b bytes.Buffer
	if err := ex.WriteJSONL(&b); err != nil {
		t.Fatal(err)
	}
	rs, recs, err := ReadJSONL(bytes.NewReader(b.Bytes()), "export.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 4 || len(recs[rs[3]]) != 3 || recs[rs[3]][1].Seconds != 256e-6 || rs[3].Params["n"] != 128 {
		t.Fatalf("round trip: %+v %+v", rs, recs)
	}
	// Extra-P keeps the slowest rank's time per node and repetition.
	for _, f := range []Format{FormatExtraPText, FormatExtraPJSONL} {
		b.Reset()
		if f == FormatExtraPText {
			err = ex.WriteExtraPText(&b)
		} else {
			err = ex.WriteExtraPJSONL(&b)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := DetectFormat("x", b.Bytes()); got != f {
			t.Errorf("DetectFormat of %s output = %s", f, got)
		}
		rs, recs, err := Parse(bytes.NewReader(b.Bytes()), "x", f)
		if err != nil {
			t.Fatalf("%s: %v\n%s", f, err, b.String())
		}
		if len(rs) != 4 {
			t.Fatalf("%s: %d runs, want 4", f, len(rs))
		}
		for _, r := range rs {
			if r.P != 2 {
				t.Errorf("%s: P = %d, want 2 (from p)", f, r.P)
			}
			for _, x := range recs[r] {
				if x.Node == "main/L1" && x.Seconds > 0 && math.Abs(x.Seconds-r.Params["n"]*2e-6) > 1e-15 {
					t.Errorf("%s: n=%g time %g, want the slowest rank's %g", f, r.Params["n"], x.Seconds, r.Params["n"]*2e-6)
				}
			}
		}
	}
	// Imports land in the store.
	q, _ := s.Program("imported", "imp", nil)
	n, err := s.Import(q, bytes.NewReader(b.Bytes()), "x.jsonl", FormatExtraPJSONL)
	if err != nil || n != 4 {
		t.Fatalf("Import = %d, %v", n, err)
	}
}

func TestReadExtraPText(t *testing.T) {
	in := `# Extra-P text input
PARAMETER p
PARAMETER n
POINTS ( 2 64 ) ( 4 64 ) ( 2 128 )
REGION main
METRIC time
DATA 1.0 1.1 0.9
DATA 0.6 0.5
DATA 2.0
METRIC visits
DATA 3
DATA 3
DATA 3
REGION solve
METRIC time
DATA 0.5
DATA 0.25
DATA 1e0
`
	ex, err := ReadExtraPText(strings.NewReader(in), "in.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Params) != 2 || len(ex.Measurements) != 9 || ex.Measurements[0].Values[2] != 0.9 {
		t.Fatalf("%+v", ex)
	}
	rs, recs, err := ex.Runs()
	if err != nil {
		t.Fatal(err)
	}
	// Three points, repetitions 0..2 at the first: 3 + 2 + 1 runs.
	if len(rs) != 6 || rs[0].P != 2 || rs[0].Params["n"] != 64 {
		t.Fatalf("runs %+v", rs)
	}
	one := ReadExtraPPoints(t, "PARAMETER n\nPOINTS 1 2 4\nREGION r\nMETRIC time\nDATA 1\nDATA 2\nDATA 4\n")
	if len(one) != 3 {
		t.Errorf("one-parameter points: %d measurements", len(one))
	}
	_ = recs
	for _, tc := range []struct{ in, want string }{
		{"PARAMETER n\nPOINTS 1\nDATA x", `in.txt:3: "x" is not a number`},
		{"DATA 1", "in.txt:1: DATA before any PARAMETER"},
		{"PARAMETER n\nPOINTS 1\nDATA 1\nDATA 2", "in.txt:4: more DATA lines (2) than POINTS (1)"},
		{"PARAMETER a b\nPOINTS 1 2", "in.txt:2: POINTS of 2 parameters need parentheses"},
		{"PARAMETER a b\nPOINTS ( 1 2 ) ( 3 )", "in.txt:2: point ( 3 ) has 1 coordinates"},
		{"FOO bar", `in.txt:1: unknown field "FOO"`},
		{"PARAMETER n\nPOINTS 1\nPARAMETER m", "in.txt:3: PARAMETER after POINTS"},
		{"PARAMETER n\nPOINTS 1\nDATA NaN", `in.txt:3: "NaN" is not a finite number`},
	} {
		_, err := ReadExtraPText(strings.NewReader(tc.in), "in.txt")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ReadExtraPText(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// ReadExtraPPoints reads a text file and returns its measurements.
func ReadExtraPPoints(t *testing.T, in string) []Measurement {
	t.Helper()
	ex, err := ReadExtraPText(strings.NewReader(in), "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	return ex.Measurements
}

func TestReadExtraPJSONL(t *testing.T) {
	in := `{"params":{"p":2,"n":64},"callpath":"main","metric":"time","value":1.5}
{"params":{"p":2,"n":64},"callpath":"main","metric":"time","value":1.7}
{"params":{"n":128,"p":2},"value":3}
`
	ex, err := ReadExtraPJSONL(strings.NewReader(in), "in.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Measurements) != 2 || len(ex.Measurements[0].Values) != 2 || ex.Measurements[1].Region != "<root>" {
		t.Fatalf("%+v", ex.Measurements)
	}
	for _, tc := range []struct{ in, want string }{
		{`{"params":{"p":1},"value":"x"}`, "in.jsonl:1: value: \"x\" is not a number"},
		{`{"params":{"p":1}}`, `in.jsonl:1: missing "value"`},
		{`{"value":1}`, `in.jsonl:1: missing "params"`},
		{`{"params":{"p":1},"value":1}` + "\n" + `{"params":{"q":1},"value":1}`, "in.jsonl:2: parameter p missing"},
		{`[1]`, "in.jsonl:1: not a JSON object"},
		{`{"params":{"p":0.5},"value":1}`, "in.jsonl: p = 0.5 is not a process count"},
	} {
		_, _, err := Parse(strings.NewReader(tc.in), "in.jsonl", FormatExtraPJSONL)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
	var pe *ParseError
	_, err = ReadExtraPJSONL(strings.NewReader("{\n"), "e.jsonl")
	if !errors.As(err, &pe) || pe.Line != 1 {
		t.Errorf("error %v is not a ParseError at line 1", err)
	}
}

func TestReadJSONLErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"program":"x","run":1,"rep":0,"P":1,"params":{},"node":"","rank":0,"count":1,"seconds":1}`, `e.jsonl:1: missing "node"`},
		{`{"program":"x","run":1,"rep":0,"P":1,"params":{},"node":"a","rank":3,"count":1,"seconds":1}`, "e.jsonl:1: rank 3 of P = 1"},
		{`{"program":"x","run":1,"P":1,"node":"a","rank":0,"count":1,"seconds":-1}`, "e.jsonl:1: seconds must be finite"},
		{`{"program":"x","run":1,"P":1,"node":"a","rank":0,"bogus":1}`, `e.jsonl:1: not an export line: unknown field "bogus"`},
		{`{"run":1,"P":1,"node":"a","rank":0}` + "\n" + `{"run":1,"P":2,"node":"a","rank":0}`, "e.jsonl:2: run 1 has P = 2 here and 1 before"},
	} {
		_, _, err := ReadJSONL(strings.NewReader(tc.in), "e.jsonl")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ReadJSONL(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestOpenUpgradesSchema1: a database written before runs had a speed probe
// opens with the column added (0, unknown, for its runs) and its runs kept.
func TestOpenUpgradesSchema1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	v1 := strings.NewReplacer("\tprobe REAL NOT NULL DEFAULT 0,\n", "", "('schema', '2')", "('schema', '1')").Replace(schema)
	if v1 == schema {
		t.Fatal("the schema-1 text was not derived")
	}
	if _, err := db.Exec(v1); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO programs (hash, created) VALUES ('h', 'now');
		INSERT INTO runs (program, source, procs, status, seconds, started) VALUES (1, 'mkvet', 2, 'ok', 0.5, 'now')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rs, err := s.Runs(0)
	if err != nil || len(rs) != 1 || rs[0].Seconds != 0.5 || rs[0].Probe != 0 {
		t.Fatalf("runs after the upgrade: %+v, %v", rs, err)
	}
	s.Close()
	s2, err := Open(path) // and again, now schema 2
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
}
