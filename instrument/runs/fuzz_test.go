package runs

import (
	"strings"
	"testing"
)

// The import readers must never panic on arbitrary input, and every error
// must name the file (and the line, for a malformed line).
func checkErr(t *testing.T, err error, name string) {
	if err != nil && !strings.HasPrefix(err.Error(), name+":") {
		t.Fatalf("error %q does not start with %s:", err, name)
	}
}

func FuzzReadExtraPText(f *testing.F) {
	for _, s := range []string{
		"PARAMETER p\nPARAMETER n\nPOINTS ( 2 64 ) ( 4 64 )\nREGION main\nMETRIC time\nDATA 1.0 1.1\nDATA 0.6\n",
		"PARAMETER n\nPOINTS 1 2 4\nREGION r\nMETRIC visits\nDATA 1\nDATA 2\nDATA 4\n",
		"# comment\n\nPARAMETER a b c\nPOINTS (1 2 3)\nDATA 1e300 -0\n",
		"PARAMETER p\nPOINTS 0.5\nDATA 1\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ex, err := ReadExtraPText(strings.NewReader(s), "fuzz.txt")
		checkErr(t, err, "fuzz.txt")
		if err == nil {
			ex.Runs()
		}
	})
}

func FuzzReadExtraPJSONL(f *testing.F) {
	for _, s := range []string{
		`{"params":{"p":2,"n":64},"callpath":"main","metric":"time","value":1.5}` + "\n" + `{"params":{"n":64,"p":2},"value":2}`,
		`{"params":{"x":1e308},"callpath":"a->b","metric":"visits","value":-1}`,
		`{"params":{},"value":1}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ex, err := ReadExtraPJSONL(strings.NewReader(s), "fuzz.jsonl")
		checkErr(t, err, "fuzz.jsonl")
		if err == nil {
			ex.Runs()
		}
	})
}

func FuzzReadJSONL(f *testing.F) {
	for _, s := range []string{
		`{"program":"trap","hash":"ab","run":3,"source":"mkvet","rep":1,"P":2,"params":{"n":64},"node":"trap/L1","rank":1,"count":1,"iters":63,"timed":1,"seconds":0.001,"inclusive":0.002,"msgs":1,"bytes":8}`,
		`{"run":1,"P":1,"node":"a","rank":0}` + "\n" + `{"run":1,"P":2,"node":"a","rank":0}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rs, recs, err := ReadJSONL(strings.NewReader(s), "fuzz.jsonl")
		checkErr(t, err, "fuzz.jsonl")
		for _, r := range rs {
			for _, x := range recs[r] {
				if x.Rank < 0 || x.Rank >= r.P || x.Seconds < 0 {
					t.Fatalf("accepted %+v in run %+v", x, r)
				}
			}
		}
	})
}
