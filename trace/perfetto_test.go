package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
)

// checkTimeline validates a timeline against the trace event format
// (Chrome's "Trace Event Format" document, JSON object form, which
// Perfetto's JSON importer reads): a traceEvents array; every event with a
// known phase, integer pid and tid, numeric non-negative ts; complete
// events ("X") with a name and a non-negative dur, properly nested on each
// thread (Perfetto drops slices that overlap partially); metadata ("M")
// naming processes and threads; flows as one start ("s") and one end ("f",
// binding point "e") per id, the end inside a complete event of its thread
// and not before the start.
func checkTimeline(b []byte) (slices, flows int, err error) {
	var doc struct {
		DisplayTimeUnit string                   `json:"displayTimeUnit"`
		TraceEvents     []map[string]interface{} `json:"traceEvents"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return 0, 0, fmt.Errorf("not JSON: %v", err)
	}
	if doc.DisplayTimeUnit != "" && doc.DisplayTimeUnit != "ms" && doc.DisplayTimeUnit != "ns" {
		return 0, 0, fmt.Errorf("displayTimeUnit %q", doc.DisplayTimeUnit)
	}
	if doc.TraceEvents == nil {
		return 0, 0, fmt.Errorf("no traceEvents array")
	}
	type slice struct{ ts, end float64 }
	threads := map[[2]int64][]slice{}
	type flow struct {
		s, f       int
		sTs, fTs   float64
		fTid, fPid int64
	}
	fl := map[string]*flow{}
	num := func(e map[string]interface{}, k string) (float64, bool) {
		n, ok := e[k].(json.Number)
		if !ok {
			return 0, false
		}
		f, err := n.Float64()
		return f, err == nil
	}
	integer := func(e map[string]interface{}, k string) (int64, bool) {
		n, ok := e[k].(json.Number)
		if !ok {
			return 0, false
		}
		i, err := n.Int64()
		return i, err == nil
	}
	for i, e := range doc.TraceEvents {
		ph, _ := e["ph"].(string)
		pid, ok1 := integer(e, "pid")
		tid, ok2 := integer(e, "tid")
		if !ok1 || !ok2 {
			return 0, 0, fmt.Errorf("event %d: pid/tid not integers: %v", i, e)
		}
		if _, ok := e["name"].(string); !ok {
			return 0, 0, fmt.Errorf("event %d: no name", i)
		}
		switch ph {
		case "M":
			switch e["name"] {
			case "process_name", "thread_name", "thread_sort_index", "process_sort_index":
			default:
				return 0, 0, fmt.Errorf("event %d: metadata %v", i, e["name"])
			}
			if _, ok := e["args"].(map[string]interface{}); !ok {
				return 0, 0, fmt.Errorf("event %d: metadata without args", i)
			}
		case "X":
			ts, ok := num(e, "ts")
			dur, ok2 := num(e, "dur")
			if !ok || !ok2 || ts < 0 || dur < 0 {
				return 0, 0, fmt.Errorf("event %d: ts %v dur %v", i, e["ts"], e["dur"])
			}
			k := [2]int64{pid, tid}
			threads[k] = append(threads[k], slice{ts, ts + dur})
			slices++
		case "s", "f":
			ts, ok := num(e, "ts")
			id, ok2 := e["id"].(json.Number)
			if !ok || !ok2 || ts < 0 {
				return 0, 0, fmt.Errorf("event %d: flow without ts or id", i)
			}
			f := fl[id.String()]
			if f == nil {
				f = &flow{}
				fl[id.String()] = f
			}
			if ph == "s" {
				f.s++
				f.sTs = ts
			} else {
				if e["bp"] != "e" {
					return 0, 0, fmt.Errorf("event %d: flow end without bp e", i)
				}
				f.f++
				f.fTs, f.fTid, f.fPid = ts, tid, pid
			}
		default:
			return 0, 0, fmt.Errorf("event %d: phase %q", i, ph)
		}
	}
	const eps = 1e-3 // the timeline's resolution, 1 ns in microseconds
	for k, ss := range threads {
		sort.Slice(ss, func(a, b int) bool {
			if ss[a].ts != ss[b].ts {
				return ss[a].ts < ss[b].ts
			}
			return ss[a].end > ss[b].end
		})
		var stack []slice
		for _, s := range ss {
			for len(stack) > 0 && stack[len(stack)-1].end <= s.ts+eps/2 {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 && s.end > stack[len(stack)-1].end+eps/2 {
				return 0, 0, fmt.Errorf("thread %v: slice %.3f..%.3f overlaps %.3f..%.3f partially", k, s.ts, s.end, stack[len(stack)-1].ts, stack[len(stack)-1].end)
			}
			stack = append(stack, s)
		}
	}
	for id, f := range fl {
		if f.s != 1 || f.f != 1 {
			return 0, 0, fmt.Errorf("flow %s: %d starts and %d ends", id, f.s, f.f)
		}
		inside := false
		for _, s := range threads[[2]int64{f.fPid, f.fTid}] {
			if s.ts-eps/2 <= f.fTs && f.fTs <= s.end+eps/2 {
				inside = true
				break
			}
		}
		if !inside {
			return 0, 0, fmt.Errorf("flow %s ends at %.3f outside every slice of its thread", id, f.fTs)
		}
		if f.fTs+eps < f.sTs {
			return 0, 0, fmt.Errorf("flow %s ends at %.3f before it starts at %.3f", id, f.fTs, f.sTs)
		}
		flows++
	}
	return slices, flows, nil
}

// TestTimelineFormat writes timelines of random runs, measured-like and
// replayed, and validates them with checkTimeline.
func TestTimelineFormat(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 30; trial++ {
		tr := skeleton(rng, 1+rng.IntN(6), 1+rng.IntN(40))
		g, err := Schedule(tr, testParams())
		if err != nil {
			t.Fatal(err)
		}
		for _, replay := range []bool{false, true} {
			opt := TimelineOptions{Title: "test", Phases: CPG(g)}
			if replay {
				res, err := NewReplayer(g, testParams(), Measured).Replay(&Options{Record: true})
				if err != nil {
					t.Fatal(err)
				}
				opt.Replay = res
			}
			var buf bytes.Buffer
			if err := WriteTimeline(&buf, g, opt); err != nil {
				t.Fatal(err)
			}
			n, f, err := checkTimeline(buf.Bytes())
			if err != nil {
				t.Fatalf("trial %d (replay %v): %v", trial, replay, err)
			}
			msgs := 0
			for _, m := range g.Msgs {
				if m.RecvIdx >= 0 {
					msgs++
				}
			}
			if f != msgs || n < tr.NumEvents()/2 {
				t.Fatalf("trial %d: %d slices and %d flows for %d events and %d messages", trial, n, f, tr.NumEvents(), msgs)
			}
		}
	}
}

// TestTimelineAggregates: beyond the slice limit calls are grouped, never
// dropped: the grouped slices' call counts add up to every call, and the
// file stays valid.
func TestTimelineAggregates(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	tr := skeleton(rng, 4, 300)
	g, err := Schedule(tr, testParams())
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for r := range tr.Ranks {
		for i := range tr.Ranks[r].Events {
			if tr.Ranks[r].Events[i].Kind == Comm {
				calls++
			}
		}
	}
	var buf bytes.Buffer
	if err := WriteTimeline(&buf, g, TimelineOptions{MaxSlices: 50}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := checkTimeline(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []struct {
			Ph   string `json:"ph"`
			Cat  string `json:"cat"`
			Name string `json:"name"`
			Args struct {
				Calls int `json:"calls"`
			} `json:"args"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	slices, covered := 0, 0
	for _, e := range doc.TraceEvents {
		if e.Ph == "X" && e.Cat == "mpi" {
			slices++
			if e.Args.Calls > 0 {
				covered += e.Args.Calls
			} else {
				covered++
			}
		}
	}
	// Groups end at region marks: at most one more slice per mark.
	marks := tr.NumEvents() - calls
	if covered != calls || slices > 50+len(tr.Ranks)+marks || slices >= calls/2 {
		t.Errorf("%d call slices covering %d calls, want at most %d slices covering all %d", slices, covered, 50+len(tr.Ranks)+marks, calls)
	}
}
