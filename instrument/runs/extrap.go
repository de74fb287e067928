package runs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Experiment is a set of measurements in Extra-P's terms: parameters, the
// points (coordinates) measured, and per region (call path) and metric the
// values of every repetition at each point.
type Experiment struct {
	Params       []string
	Measurements []Measurement
}

// Measurement is the repetitions of one metric of one region at one point.
type Measurement struct {
	Region, Metric string
	Point          []float64 // in the order of Experiment.Params
	Values         []float64
}

// ParseError is a malformed line of an input file.
type ParseError struct {
	File string
	Line int
	Msg  string
}

// Error formats e as file:line: message.
func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

const maxLine = 1 << 20

func lines(r io.Reader, name string, f func(n int, line string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	n := 0
	for sc.Scan() {
		n++
		if err := f(n, sc.Text()); err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				return err
			}
			return &ParseError{name, n, err.Error()}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return &ParseError{name, n + 1, "line longer than 1 MiB"}
		}
		return fmt.Errorf("reading %s: %w", name, err)
	}
	return nil
}

func parseValue(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return v, nil
}

// ReadExtraPText reads Extra-P's text input format: PARAMETER lines naming
// the parameters, POINTS lines listing coordinates ("1 2 3" for one
// parameter, "( 1 64 ) ( 2 64 )" for several), then REGION and METRIC lines
// each followed by one DATA line of repetitions per point, in the order of
// the points. Lines starting with # are comments.
func ReadExtraPText(r io.Reader, name string) (*Experiment, error) {
	ex := &Experiment{}
	var points [][]float64
	region, metric := "", ""
	idx := 0
	pointsSeen := false
	err := lines(r, name, func(n int, line string) error {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			return nil
		}
		field, rest, _ := strings.Cut(strings.Join(strings.Fields(t), " "), " ")
		switch field {
		case "PARAMETER":
			if pointsSeen {
				return errors.New("PARAMETER after POINTS")
			}
			if rest == "" {
				return errors.New("PARAMETER without a name")
			}
			for _, p := range strings.Fields(rest) {
				for _, q := range ex.Params {
					if q == p {
						return fmt.Errorf("parameter %s declared twice", p)
					}
				}
				ex.Params = append(ex.Params, p)
			}
		case "POINTS":
			if len(ex.Params) == 0 {
				return errors.New("POINTS before any PARAMETER")
			}
			pointsSeen = true
			ps, err := parsePoints(rest, len(ex.Params))
			if err != nil {
				return err
			}
			points = append(points, ps...)
		case "REGION":
			if rest == "" {
				return errors.New("REGION without a name")
			}
			region, idx = rest, 0
		case "METRIC":
			if rest == "" {
				return errors.New("METRIC without a name")
			}
			metric, idx = rest, 0
		case "DATA":
			if len(ex.Params) == 0 {
				return errors.New("DATA before any PARAMETER")
			}
			if idx >= len(points) {
				return fmt.Errorf("more DATA lines (%d) than POINTS (%d) for region %q", idx+1, len(points), region)
			}
			var vals []float64
			for _, s := range strings.Fields(rest) {
				v, err := parseValue(s)
				if err != nil {
					return err
				}
				vals = append(vals, v)
			}
			if len(vals) == 0 {
				return errors.New("DATA without values")
			}
			ex.Measurements = append(ex.Measurements, Measurement{Region: region, Metric: metric, Point: points[idx], Values: vals})
			idx++
		default:
			return fmt.Errorf("unknown field %q (want PARAMETER, POINTS, REGION, METRIC or DATA)", field)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(ex.Measurements) == 0 {
		return nil, fmt.Errorf("%s: no DATA", name)
	}
	return ex, nil
}

func parsePoints(s string, nparams int) ([][]float64, error) {
	s = strings.TrimSpace(s)
	var groups []string
	if strings.Contains(s, "(") {
		for s != "" {
			if s[0] != '(' {
				return nil, fmt.Errorf("expected ( in POINTS at %q", s)
			}
			j := strings.IndexByte(s, ')')
			if j < 0 {
				return nil, errors.New("unclosed ( in POINTS")
			}
			groups = append(groups, s[1:j])
			s = strings.TrimSpace(s[j+1:])
		}
	} else {
		if nparams != 1 {
			return nil, fmt.Errorf("POINTS of %d parameters need parentheses: ( 1 2 ) ( 3 4 )", nparams)
		}
		groups = strings.Fields(s)
	}
	if len(groups) == 0 {
		return nil, errors.New("POINTS without points")
	}
	var out [][]float64
	for _, g := range groups {
		fs := strings.Fields(g)
		if len(fs) != nparams {
			return nil, fmt.Errorf("point (%s) has %d coordinates for %d parameters", g, len(fs), nparams)
		}
		pt := make([]float64, len(fs))
		for i, f := range fs {
			v, err := parseValue(f)
			if err != nil {
				return nil, err
			}
			pt[i] = v
		}
		out = append(out, pt)
	}
	return out, nil
}

// extrapLine is one line of Extra-P's JSON Lines format.
type extrapLine struct {
	Params   map[string]json.RawMessage `json:"params"`
	Callpath *string                    `json:"callpath"`
	Metric   *string                    `json:"metric"`
	Value    *json.RawMessage           `json:"value"`
}

// ReadExtraPJSONL reads Extra-P's JSON Lines format: one object per line,
// {"params": {"p": 4, "n": 64}, "callpath": "main", "metric": "time",
// "value": 1.5}, one line per repetition. callpath and metric are optional
// ("<root>" and "<default>", as in Extra-P); every line must name the
// parameters of the first.
func ReadExtraPJSONL(r io.Reader, name string) (*Experiment, error) {
	ex := &Experiment{}
	type key struct{ region, metric, point string }
	at := map[key]int{}
	err := lines(r, name, func(n int, line string) error {
		t := bytes.TrimSpace([]byte(line))
		if len(t) == 0 {
			return nil
		}
		var l extrapLine
		dec := json.NewDecoder(bytes.NewReader(t))
		if err := dec.Decode(&l); err != nil {
			return fmt.Errorf("not a JSON object: %s", strings.TrimPrefix(err.Error(), "json: "))
		}
		if dec.More() {
			return errors.New("text after the object")
		}
		if l.Params == nil {
			return errors.New(`missing "params"`)
		}
		if l.Value == nil {
			return errors.New(`missing "value"`)
		}
		v, err := jsonNumber(*l.Value)
		if err != nil {
			return fmt.Errorf("value: %v", err)
		}
		if ex.Params == nil {
			if len(l.Params) == 0 {
				return errors.New(`"params" is empty`)
			}
			ex.Params = sortedKeys(l.Params)
		}
		if len(l.Params) != len(ex.Params) {
			return fmt.Errorf("%d parameters, the first line had %d (%s)", len(l.Params), len(ex.Params), strings.Join(ex.Params, ", "))
		}
		pt := make([]float64, len(ex.Params))
		for i, p := range ex.Params {
			raw, ok := l.Params[p]
			if !ok {
				return fmt.Errorf("parameter %s missing", p)
			}
			if pt[i], err = jsonNumber(raw); err != nil {
				return fmt.Errorf("parameter %s: %v", p, err)
			}
		}
		region, metric := "<root>", "<default>"
		if l.Callpath != nil {
			region = *l.Callpath
		}
		if l.Metric != nil {
			metric = *l.Metric
		}
		k := key{region, metric, fmt.Sprint(pt)}
		if i, ok := at[k]; ok {
			ex.Measurements[i].Values = append(ex.Measurements[i].Values, v)
			return nil
		}
		at[k] = len(ex.Measurements)
		ex.Measurements = append(ex.Measurements, Measurement{Region: region, Metric: metric, Point: pt, Values: []float64{v}})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(ex.Measurements) == 0 {
		return nil, fmt.Errorf("%s: no measurements", name)
	}
	return ex, nil
}

func jsonNumber(raw json.RawMessage) (float64, error) {
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, fmt.Errorf("%s is not a number", strings.TrimSpace(string(raw)))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%v is not finite", v)
	}
	return v, nil
}

// procsParam is the name Extra-P experiments usually give the number of
// processes; an import maps it to the run's P.
func procsParam(name string) bool {
	switch strings.ToLower(name) {
	case "p", "procs", "np", "ranks", "processes":
		return true
	}
	return false
}

// Runs turns an experiment into runs: one per point and repetition, each
// region a node of rank 0 (Extra-P keeps no ranks). The metric "time" (or
// "runtime", "seconds", or the only metric) gives seconds, "visits" or
// "count" the count, "bytes" and "messages" the data sent. A parameter named
// p (procs, np, ranks) is the process count.
func (ex *Experiment) Runs() ([]*Run, map[*Run][]Record, error) {
	metrics := map[string]bool{}
	for _, m := range ex.Measurements {
		metrics[m.Metric] = true
	}
	timeMetric := func(m string) bool {
		switch strings.ToLower(m) {
		case "time", "runtime", "seconds", "wall", "<default>", "":
			return true
		}
		return len(metrics) == 1
	}
	pidx := -1
	for i, p := range ex.Params {
		if procsParam(p) {
			pidx = i
			break
		}
	}
	type key struct {
		point string
		rep   int
	}
	byKey := map[key]*Run{}
	var out []*Run
	recs := map[*Run][]Record{}
	for _, m := range ex.Measurements {
		for rep, v := range m.Values {
			k := key{fmt.Sprint(m.Point), rep}
			r := byKey[k]
			if r == nil {
				r = &Run{Source: "extrap", Rep: rep, P: 1, Params: map[string]float64{}, Status: StatusOK}
				for i, p := range ex.Params {
					if i == pidx {
						x := m.Point[i]
						if x < 1 || x != math.Trunc(x) || x > 1<<30 {
							return nil, nil, fmt.Errorf("%s = %v is not a process count", p, x)
						}
						r.P = int(x)
						continue
					}
					r.Params[p] = m.Point[i]
				}
				byKey[k] = r
				out = append(out, r)
			}
			rec := Record{Node: m.Region}
			switch low := strings.ToLower(m.Metric); {
			case timeMetric(m.Metric):
				rec.Seconds = v
				rec.Timed = 1
			case low == "visits" || low == "count" || low == "calls":
				rec.Count = int64(math.Round(v))
			case low == "bytes" || low == "bytes_sent":
				rec.Bytes = int64(math.Round(v))
			case low == "messages" || low == "msgs":
				rec.Msgs = int64(math.Round(v))
			default:
				continue
			}
			recs[r] = append(recs[r], rec)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Rep < out[j].Rep })
	return out, recs, nil
}
