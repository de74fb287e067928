package runs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Line is one line of mkvet's JSON Lines export: one record of one run,
// with the run's program, point and outcome.
type Line struct {
	Program string             `json:"program"`
	Hash    string             `json:"hash,omitempty"`
	Run     int64              `json:"run"`
	Source  string             `json:"source,omitempty"`
	Rep     int                `json:"rep"`
	P       int                `json:"P"`
	Params  map[string]float64 `json:"params"`
	Node    string             `json:"node"`
	Rank    int                `json:"rank"`
	Count   int64              `json:"count"`
	Iters   int64              `json:"iters,omitempty"`
	Timed   int64              `json:"timed,omitempty"`
	Seconds float64            `json:"seconds"`
	Incl    float64            `json:"inclusive,omitempty"`
	Msgs    int64              `json:"msgs,omitempty"`
	Bytes   int64              `json:"bytes,omitempty"`
	RMsgs   int64              `json:"recv_msgs,omitempty"`
	RBytes  int64              `json:"recv_bytes,omitempty"`
}

// Export is what the writers take: a program and its successful runs with
// their records.
type Export struct {
	Program *Program
	Runs    []*Run
	Records map[int64][]Record // by run ID
}

// Load gathers a program's successful runs and their records.
func (s *Store) Load(p *Program) (*Export, error) {
	rs, err := s.Runs(p.ID)
	if err != nil {
		return nil, err
	}
	ex := &Export{Program: p, Records: map[int64][]Record{}}
	for _, r := range rs {
		if r.Status != StatusOK {
			continue
		}
		recs, err := s.Records(r.ID)
		if err != nil {
			return nil, err
		}
		ex.Runs = append(ex.Runs, r)
		ex.Records[r.ID] = recs
	}
	return ex, nil
}

// WriteJSONL writes one line per record.
func (ex *Export) WriteJSONL(w io.Writer) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for _, r := range ex.Runs {
		for _, x := range ex.Records[r.ID] {
			l := Line{Program: ex.Program.Name(), Hash: ex.Program.Hash, Run: r.ID, Source: r.Source, Rep: r.Rep, P: r.P,
				Params: r.Params, Node: x.Node, Rank: x.Rank, Count: x.Count, Iters: x.Iters, Timed: x.Timed,
				Seconds: x.Seconds, Incl: x.Inclusive, Msgs: x.Msgs, Bytes: x.Bytes, RMsgs: x.RecvMsgs, RBytes: x.RecvBytes}
			if err := enc.Encode(l); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// ReadJSONL reads mkvet's JSON Lines export back, grouping lines into runs.
func ReadJSONL(r io.Reader, name string) ([]*Run, map[*Run][]Record, error) {
	byID := map[int64]*Run{}
	var out []*Run
	recs := map[*Run][]Record{}
	err := lines(r, name, func(n int, line string) error {
		t := bytes.TrimSpace([]byte(line))
		if len(t) == 0 {
			return nil
		}
		var l Line
		dec := json.NewDecoder(bytes.NewReader(t))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return fmt.Errorf("not an export line: %s", strings.TrimPrefix(err.Error(), "json: "))
		}
		if dec.More() {
			return errors.New("text after the object")
		}
		switch {
		case l.Node == "":
			return errors.New(`missing "node"`)
		case l.P < 1 || l.Rank < 0 || l.Rank >= l.P:
			return fmt.Errorf("rank %d of P = %d: need 0 <= rank < P", l.Rank, l.P)
		case l.Count < 0 || l.Iters < 0 || l.Timed < 0 || l.Msgs < 0 || l.Bytes < 0 || l.RMsgs < 0 || l.RBytes < 0:
			return errors.New("negative count")
		case bad(l.Seconds) || bad(l.Incl):
			return errors.New("seconds must be finite and >= 0")
		}
		for k, v := range l.Params {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("parameter %s is not finite", k)
			}
		}
		run := byID[l.Run]
		if run == nil {
			run = &Run{Source: "jsonl", Rep: l.Rep, P: l.P, Params: l.Params, Status: StatusOK}
			if run.Params == nil {
				run.Params = map[string]float64{}
			}
			byID[l.Run] = run
			out = append(out, run)
		} else if run.P != l.P {
			return fmt.Errorf("run %d has P = %d here and %d before", l.Run, l.P, run.P)
		}
		recs[run] = append(recs[run], Record{Node: l.Node, Rank: l.Rank, Count: l.Count, Iters: l.Iters, Timed: l.Timed,
			Seconds: l.Seconds, Inclusive: l.Incl, Msgs: l.Msgs, Bytes: l.Bytes, RecvMsgs: l.RMsgs, RecvBytes: l.RBytes})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, recs, nil
}

func bad(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) || x < 0 }

// point is one run's coordinates for Extra-P: the sizes in name order and
// the process count as "p" (unless a size is named so).
type point struct {
	names []string
	key   string
	vals  []float64
}

func (ex *Export) coordinates() (names []string, pts []point, of map[int64]int) {
	// Parameters with one value in every run tell Extra-P nothing.
	set := map[string]bool{}
	for _, r := range ex.Runs {
		for k, v := range r.Params {
			if v != ex.Runs[0].Params[k] {
				set[k] = true
			}
		}
		for k := range ex.Runs[0].Params {
			if _, ok := r.Params[k]; !ok {
				set[k] = true
			}
		}
	}
	names = sortedKeys(set)
	pname := "p"
	for set[pname] {
		pname += "_"
	}
	names = append(names, pname)
	of = map[int64]int{}
	idx := map[string]int{}
	for _, r := range ex.Runs {
		vals := make([]float64, len(names))
		for i, n := range names[:len(names)-1] {
			vals[i] = r.Params[n]
		}
		vals[len(vals)-1] = float64(r.P)
		key := fmt.Sprint(vals)
		i, ok := idx[key]
		if !ok {
			i = len(pts)
			idx[key] = i
			pts = append(pts, point{names: names, key: key, vals: vals})
		}
		of[r.ID] = i
	}
	return names, pts, of
}

// metrics aggregates one run's records per node over ranks: Extra-P keeps
// no ranks, so time is the slowest rank's (the critical path's) and visits
// the busiest rank's.
func metrics(recs []Record) (nodes []string, time, visits map[string]float64) {
	time, visits = map[string]float64{}, map[string]float64{}
	for _, x := range recs {
		if _, ok := time[x.Node]; !ok {
			nodes = append(nodes, x.Node)
		}
		time[x.Node] = math.Max(time[x.Node], x.Seconds)
		visits[x.Node] = math.Max(visits[x.Node], float64(x.Count))
	}
	sort.Strings(nodes)
	return nodes, time, visits
}

// WriteExtraPJSONL writes Extra-P's JSON Lines: per run and node the
// metrics time and visits, the process count as parameter p.
func (ex *Export) WriteExtraPJSONL(w io.Writer) error {
	names, pts, of := ex.coordinates()
	bw := bufio.NewWriter(w)
	for _, r := range ex.Runs {
		params := map[string]float64{}
		for i, n := range names {
			params[n] = pts[of[r.ID]].vals[i]
		}
		nodes, tm, vs := metrics(ex.Records[r.ID])
		for _, n := range nodes {
			for _, m := range []struct {
				name string
				v    float64
			}{{"time", tm[n]}, {"visits", vs[n]}} {
				b, err := json.Marshal(map[string]any{"params": params, "callpath": n, "metric": m.name, "value": m.v})
				if err != nil {
					return err
				}
				bw.Write(b)
				bw.WriteByte('\n')
			}
		}
	}
	return bw.Flush()
}

// WriteExtraPText writes Extra-P's text format: the parameters (sizes and
// p), the points, and per node and metric one DATA line of repetitions per
// point (0 where the node did not run).
func (ex *Export) WriteExtraPText(w io.Writer) error {
	names, pts, of := ex.coordinates()
	if len(pts) == 0 {
		return errors.New("no successful runs to export")
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# mkvet runs of %s (%s)\n", ex.Program.Name(), ex.Program.Hash)
	for _, n := range names {
		fmt.Fprintf(bw, "PARAMETER %s\n", n)
	}
	bw.WriteString("POINTS")
	for _, p := range pts {
		if len(names) == 1 {
			fmt.Fprintf(bw, " %s", fmtNum(p.vals[0]))
			continue
		}
		bw.WriteString(" (")
		for _, v := range p.vals {
			fmt.Fprintf(bw, " %s", fmtNum(v))
		}
		bw.WriteString(" )")
	}
	bw.WriteByte('\n')
	type cell struct{ time, visits []float64 }
	data := map[string][]cell{}
	var nodes []string
	for _, r := range ex.Runs {
		ns, tm, vs := metrics(ex.Records[r.ID])
		for _, n := range ns {
			if data[n] == nil {
				data[n] = make([]cell, len(pts))
				nodes = append(nodes, n)
			}
			c := &data[n][of[r.ID]]
			c.time = append(c.time, tm[n])
			c.visits = append(c.visits, vs[n])
		}
	}
	sort.Strings(nodes)
	for _, n := range nodes {
		fmt.Fprintf(bw, "REGION %s\n", strings.ReplaceAll(n, " ", "_"))
		for _, m := range []string{"time", "visits"} {
			fmt.Fprintf(bw, "METRIC %s\n", m)
			for _, c := range data[n] {
				vs := c.time
				if m == "visits" {
					vs = c.visits
				}
				if len(vs) == 0 {
					vs = []float64{0}
				}
				bw.WriteString("DATA")
				for _, v := range vs {
					fmt.Fprintf(bw, " %s", fmtNum(v))
				}
				bw.WriteByte('\n')
			}
		}
	}
	return bw.Flush()
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Format names an import format.
type Format string

// Import formats.
const (
	FormatExtraPText  Format = "extrap-text"
	FormatExtraPJSONL Format = "extrap-jsonl"
	FormatJSONL       Format = "jsonl" // mkvet's own export
)

// DetectFormat guesses a file's format from its name and first line.
func DetectFormat(name string, head []byte) Format {
	first := ""
	for _, l := range strings.Split(string(head), "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			first = t
			break
		}
	}
	if strings.HasPrefix(first, "{") {
		if strings.Contains(first, `"node"`) {
			return FormatJSONL
		}
		return FormatExtraPJSONL
	}
	if strings.EqualFold(filepath.Ext(name), ".jsonl") {
		return FormatExtraPJSONL
	}
	return FormatExtraPText
}

// Parse reads an import file of the given format into runs and records.
func Parse(r io.Reader, name string, f Format) ([]*Run, map[*Run][]Record, error) {
	switch f {
	case FormatJSONL:
		return ReadJSONL(r, name)
	case FormatExtraPJSONL, FormatExtraPText:
		var ex *Experiment
		var err error
		if f == FormatExtraPText {
			ex, err = ReadExtraPText(r, name)
		} else {
			ex, err = ReadExtraPJSONL(r, name)
		}
		if err != nil {
			return nil, nil, err
		}
		rs, recs, err := ex.Runs()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		return rs, recs, nil
	}
	return nil, nil, fmt.Errorf("unknown format %q (want %s, %s or %s)", f, FormatExtraPText, FormatExtraPJSONL, FormatJSONL)
}

// Import stores the runs of an import file under program p and returns how
// many were added.
func (s *Store) Import(p *Program, r io.Reader, name string, f Format) (int, error) {
	rs, recs, err := Parse(r, name, f)
	if err != nil {
		return 0, err
	}
	for _, run := range rs {
		run.Program = p.ID
		run.Command = "import " + name
		for _, x := range recs[run] {
			if x.Rank == 0 {
				run.Seconds = math.Max(run.Seconds, x.Seconds)
			}
		}
		if _, err := s.AddRun(run, recs[run]); err != nil {
			return 0, err
		}
	}
	return len(rs), nil
}
