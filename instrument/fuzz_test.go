package instrument

import (
	"errors"
	"strings"
	"testing"
)

// FuzzReadRecords feeds arbitrary text to the timing-file reader: it must
// never panic, and a malformed line must be reported as file:line.
func FuzzReadRecords(f *testing.F) {
	for _, s := range []string{
		`{"type":"run","run":"1.2","rank":0,"P":2,"clock":"MPI_Wtime","seconds":1.3142019997758325E-003,"cpu_seconds":1.2E-003,"pair_seconds":6.4456000473001043E-008,"count_seconds":5.4170001021702773E-010,"timer_events":9,"count_events":2746,"overhead":2.0676122323129675E-006,"overflow":0,"params":{"n":4096,"nargs":0}}`,
		`{"type":"node","run":"","rank":1,"P":3,"node":"trapmp/I1/b1/L1/M1","count":2,"iters":0,"timed":2,"seconds":1.2578190016938606E-003,"inclusive":1.2578190016938606E-003,"msgs":0,"bytes":0,"recv_msgs":2,"recv_bytes":16,"params":{"n":4096}}`,
		"\n\n{}\n",
		`{"type":"node","node":"x","rank":0,"P":1,"seconds":1e400}`,
		`{"type":"run","rank":0,"P":1,"params":{"n":1e30}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		recs, err := ReadRecords(strings.NewReader(s), "fuzz.jsonl")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			if pe.Line < 1 || !strings.HasPrefix(err.Error(), "fuzz.jsonl:") {
				t.Fatalf("error %q does not name file:line", err)
			}
			return
		}
		for _, r := range recs {
			if r.Rank < 0 || r.Rank >= r.P || (r.Type != TypeRun && r.Type != TypeNode) || r.Seconds < -1e-9 {
				t.Fatalf("accepted an invalid record %+v", r)
			}
		}
		Scheduled(recs)
	})
}
