package instrument

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Record is one line of a rank's timing file (JSON Lines). A "node" record
// holds one probe's figures on one rank; the "run" record, first in each
// file, holds the rank's program time (from MPI_INIT's return, or the start,
// to the end) and the probes' own cost.
type Record struct {
	Type string `json:"type"` // "node" or "run"
	Run  string `json:"run,omitempty"`
	Node string `json:"node,omitempty"`
	Rank int    `json:"rank"`
	P    int    `json:"P"`
	// Count is how often the node ran: a routine's calls, a loop's entries,
	// a branch's takings, an MPI call's calls. Iters is a loop's body
	// executions; Timed the number of timed intervals.
	Count int64 `json:"count,omitempty"`
	Iters int64 `json:"iters,omitempty"`
	Timed int64 `json:"timed,omitempty"`
	// Seconds is the node's exclusive time (nested timed nodes taken out),
	// Inclusive its whole time; for a run record Seconds is the program time.
	Seconds   float64 `json:"seconds"`
	Inclusive float64 `json:"inclusive,omitempty"`
	// Messages and bytes sent and received (transfers with MPI_PROC_NULL are
	// not counted; a collective counts one message per call and side).
	Msgs      int64 `json:"msgs,omitempty"`
	Bytes     int64 `json:"bytes,omitempty"`
	RecvMsgs  int64 `json:"recv_msgs,omitempty"`
	RecvBytes int64 `json:"recv_bytes,omitempty"`
	// Params are the run's parameter values as the program saw them.
	Params map[string]int64 `json:"params,omitempty"`

	// Run records only: the clock, the measured cost of a timer probe pair
	// and of a counter increment (in a loop that cannot keep it in a
	// register), how many of each ran, the estimated overhead in seconds
	// (timer pairs times their cost: counters in loops mostly cost nothing,
	// the compiler keeps them in registers), and regions dropped for
	// nesting too deep.
	Clock string `json:"clock,omitempty"`
	// CPUSeconds is the rank's processor time over the program time: well
	// below Seconds, the rank was descheduled (a loaded machine).
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	// ProbeSeconds is the slower of two timings of a fixed sweep over 64 KB,
	// run by all ranks at once before and after the program's time: a run
	// whose probe is well above the fastest probe of its process count met
	// a slow spell of the machine (see calib.Clean).
	ProbeSeconds float64 `json:"probe_seconds,omitempty"`
	PairSeconds  float64 `json:"pair_seconds,omitempty"`
	CountSeconds float64 `json:"count_seconds,omitempty"`
	TimerEvents  int64   `json:"timer_events,omitempty"`
	CountEvents  int64   `json:"count_events,omitempty"`
	Overhead     float64 `json:"overhead,omitempty"`
	Overflow     int64   `json:"overflow,omitempty"`
}

// Record types.
const (
	TypeNode = "node"
	TypeRun  = "run"
)

// ParseError is a malformed line of a timing file.
type ParseError struct {
	File string
	Line int
	Msg  string
}

// Error formats e as file:line: message.
func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// maxLine bounds one line of a timing file.
const maxLine = 1 << 20

// ReadRecords reads a timing file: one JSON object per line, blank lines
// ignored. name is used in errors, which say file:line and what is wrong.
func ReadRecords(r io.Reader, name string) ([]Record, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	var out []Record
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		rec, err := parseRecord(line)
		if err != nil {
			return nil, &ParseError{name, n, err.Error()}
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{name, n + 1, "line longer than 1 MiB"}
		}
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return out, nil
}

func parseRecord(line []byte) (Record, error) {
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return rec, fmt.Errorf("not a record: %s", jsonMsg(err))
	}
	if dec.More() {
		return rec, errors.New("text after the record")
	}
	switch rec.Type {
	case TypeNode:
		if rec.Node == "" {
			return rec, errors.New("node record without a node")
		}
	case TypeRun:
	case "":
		return rec, errors.New(`record without "type"`)
	default:
		return rec, fmt.Errorf("unknown record type %q", rec.Type)
	}
	if rec.Rank < 0 || rec.P < 1 || rec.Rank >= rec.P {
		return rec, fmt.Errorf("rank %d of P = %d: need 0 <= rank < P", rec.Rank, rec.P)
	}
	for _, v := range []struct {
		name string
		x    int64
	}{{"count", rec.Count}, {"iters", rec.Iters}, {"timed", rec.Timed}, {"msgs", rec.Msgs},
		{"bytes", rec.Bytes}, {"recv_msgs", rec.RecvMsgs}, {"recv_bytes", rec.RecvBytes},
		{"timer_events", rec.TimerEvents}, {"count_events", rec.CountEvents}, {"overflow", rec.Overflow}} {
		if v.x < 0 {
			return rec, fmt.Errorf("%s is negative (%d)", v.name, v.x)
		}
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"seconds", rec.Seconds}, {"inclusive", rec.Inclusive}, {"cpu_seconds", rec.CPUSeconds}, {"probe_seconds", rec.ProbeSeconds}, {"pair_seconds", rec.PairSeconds},
		{"count_seconds", rec.CountSeconds}, {"overhead", rec.Overhead}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < -1e-9 {
			return rec, fmt.Errorf("%s is %v: need a finite time >= 0", v.name, v.x)
		}
	}
	return rec, nil
}

// jsonMsg shortens encoding/json's messages.
func jsonMsg(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// RankFile is the name of rank r's timing file.
func RankFile(rank int) string { return "mkvet." + strconv.Itoa(rank) + ".jsonl" }

// ReadRun reads the timing files of one run of p ranks from dir. It fails
// when a rank's file is missing or has no run record, naming the rank.
func ReadRun(dir string, p int) ([]Record, error) {
	var out []Record
	for rank := 0; rank < p; rank++ {
		path := filepath.Join(dir, RankFile(rank))
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("rank %d wrote no records: %w", rank, err)
		}
		recs, err := ReadRecords(f, path)
		f.Close()
		if err != nil {
			return nil, err
		}
		seen := false
		for _, r := range recs {
			if r.Rank != rank || r.P != p {
				return nil, fmt.Errorf("%s: a record of rank %d of %d in rank %d's file of a run of %d", path, r.Rank, r.P, rank, p)
			}
			seen = seen || r.Type == TypeRun
		}
		if !seen {
			return nil, fmt.Errorf("%s: no run record (the rank did not finish)", path)
		}
		out = append(out, recs...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Rank < out[j].Rank })
	return out, nil
}

// ReadProbes reads the probe table Instrument wrote into dir.
func ReadProbes(dir string) (*Result, error) {
	b, err := os.ReadFile(filepath.Join(dir, ProbesFile))
	if err != nil {
		return nil, err
	}
	var r Result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("reading %s: %w", filepath.Join(dir, ProbesFile), err)
	}
	return &r, nil
}

// SpeedProbe returns the slowest rank's speed-probe time of a run's records, 0
// when none recorded one.
func SpeedProbe(recs []Record) float64 {
	p := 0.0
	for _, r := range recs {
		if r.Type == TypeRun {
			p = math.Max(p, r.ProbeSeconds)
		}
	}
	return p
}

// Scheduled returns the smallest share of its program time any rank of a
// run spent on a processor (processor time over wall time, at most 1), or 0
// when the records do not say. Busy-polling MPI ranks stay near 1 unless
// other processes take their processor.
func Scheduled(recs []Record) float64 {
	s, seen := 1.0, false
	for _, r := range recs {
		if r.Type != TypeRun || r.Seconds <= 0 || r.CPUSeconds <= 0 {
			continue
		}
		seen = true
		s = math.Min(s, math.Min(r.CPUSeconds/r.Seconds, 1))
	}
	if !seen {
		return 0
	}
	return s
}
