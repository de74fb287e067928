package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/mkvet/mkvet/model/whatif"
)

// whatifOutput is the result of mkvet whatif, and its -format json form.
type whatifOutput struct {
	Version  int               `json:"version"`
	File     string            `json:"file"`
	Machine  string            `json:"machine"`
	Network  string            `json:"network"`
	Unit     string            `json:"unit,omitempty"`
	Params   map[string]string `json:"params"`
	Terms    []termJSON        `json:"terms"`
	Tables   []*tableJSON      `json:"tables"`
	Compare  *compareJSON      `json:"compare,omitempty"`
	Grain    []grainJSON       `json:"grain,omitempty"`
	GrainDer string            `json:"grain_derivative,omitempty"`
	Constant []constJSON       `json:"constant_time,omitempty"`
	Size     string            `json:"size,omitempty"`
	Notes    []string          `json:"notes"`
	// Defaults are the values no -D gave that took the program's or
	// mkvet's default at some process count (the notes summarise them).
	Defaults map[string]string `json:"defaults,omitempty"`
}

type termJSON struct {
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	ClosedForm string `json:"closed_form"`
	How        string `json:"how"`
}

type tableJSON struct {
	Label string    `json:"label"`
	Rows  []rowJSON `json:"rows"`
	rows  []whatif.Row
}

type rowJSON struct {
	P          int64   `json:"p"`
	Time       float64 `json:"time"`
	Speedup    float64 `json:"speedup"`
	Efficiency float64 `json:"efficiency"`
	CommShare  float64 `json:"comm_share"`
	Dominant   string  `json:"dominant"`
	// Why says why a process count has no time (time, speedup and
	// efficiency null): the program stops there, or -configure cannot
	// configure it there.
	Why   string             `json:"why,omitempty"`
	Terms map[string]float64 `json:"terms"`
	// Psi is SCALA's isospeed scalability from the previous P; Scaled the
	// problem size that keeps the average speed there.
	Psi    *float64 `json:"psi,omitempty"`
	Scaled *float64 `json:"scaled_size,omitempty"`
	Exact  bool     `json:"exact"`
	// Modelled is, in a calibrated sweep with a network (whatif -runs
	// -machine), the seconds of Time the network model gave; the rest is
	// measured.
	Modelled *float64 `json:"modelled,omitempty"`
}

// MarshalJSON writes the values of a row with no time (Why) as null:
// JSON has no NaN.
func (r rowJSON) MarshalJSON() ([]byte, error) {
	type plain rowJSON
	num := func(v float64) *float64 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return &v
	}
	// The fields before plain shadow its own and keep their order.
	return json.Marshal(struct {
		P          int64    `json:"p"`
		Time       *float64 `json:"time"`
		Speedup    *float64 `json:"speedup"`
		Efficiency *float64 `json:"efficiency"`
		plain
	}{r.P, num(r.Time), num(r.Speedup), num(r.Efficiency), plain(r)})
}

type compareJSON struct {
	Other     string         `json:"other"`
	Crossings []crossingJSON `json:"crossings"`
	Rows      []rowJSON      `json:"rows"`
	rows      []whatif.Row
}

type crossingJSON struct {
	From   int64   `json:"from"`
	To     int64   `json:"to"`
	Before string  `json:"before"`
	After  string  `json:"after"`
	At     float64 `json:"at"`
}

type grainJSON struct {
	P    int64   `json:"p"`
	K    int64   `json:"k"`
	Time float64 `json:"time"`
}

type constJSON struct {
	P    int64    `json:"p"`
	Size *float64 `json:"size"`
	Why  string   `json:"why,omitempty"`
}

func rowOf(m whatif.Model, r whatif.Row) rowJSON {
	rj := rowJSON{P: r.P, Time: r.Time, Speedup: r.Speedup, Efficiency: r.Efficiency, CommShare: r.CommShare,
		Dominant: r.Dominant, Terms: map[string]float64{}, Exact: r.Exact}
	for i, t := range m.Terms {
		rj.Terms[t.Name] = r.Terms[i]
	}
	return rj
}

func writeWhatifTable(dst io.Writer, out *whatifOutput) {
	// Written to a buffer first: tabwriter pads empty trailing cells.
	var buf strings.Builder
	defer func() {
		for _, l := range strings.SplitAfter(buf.String(), "\n") {
			io.WriteString(dst, strings.TrimRight(l, " \n"))
			if strings.HasSuffix(l, "\n") {
				io.WriteString(dst, "\n")
			}
		}
	}()
	w := &buf
	fmt.Fprintf(w, "%s on %s (%s)", out.File, out.Machine, out.Network)
	var keys []string
	for k := range out.Params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(w, "%s%s=%s", sep, k, out.Params[k])
	}
	fmt.Fprintln(w)
	if out.Unit != "" {
		fmt.Fprintf(w, "unit: %s\n", out.Unit)
	}
	var names []string
	for _, t := range out.Terms {
		names = append(names, t.Name)
	}
	if len(names) > 0 {
		fmt.Fprintf(w, "T = %s\n", strings.Join(names, " + "))
	}
	for _, t := range out.Terms {
		fmt.Fprintf(w, "  %s [%s] = %s\n      %s\n", t.Name, t.Kind, oneLine(t.ClosedForm), t.How)
	}
	for _, t := range out.Tables {
		fmt.Fprintln(w)
		if len(out.Tables) > 1 {
			fmt.Fprintf(w, "%s:\n", t.Label)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		psi := "ψ(prev P)"
		if out.Size != "" {
			psi += "\t" + out.Size + " at iso-speed"
		}
		if !slices.ContainsFunc(t.Rows, func(r rowJSON) bool { return r.Psi != nil }) && out.Size == "" {
			psi = "" // no isospeed (a calibrated sweep)
		}
		fmt.Fprintf(tw, "P\ttime\tspeedup\tefficiency\tcomm\tdominant\t%s\t\n", psi)
		// The dominant cells are padded to one width: a row with no time
		// ends in its reason, which is not a cell (it would widen the
		// column), and the rows on either side of it align as blocks of
		// their own.
		domWidth := len("dominant")
		for _, r := range t.Rows {
			domWidth = max(domWidth, len(r.Dominant))
		}
		for _, r := range t.Rows {
			if r.Why != "" {
				fmt.Fprintf(tw, "%d\t-\t-\t-\t-\t  %s\n", r.P, r.Why)
				continue
			}
			ps, ns := "", ""
			if r.Psi != nil {
				ps = fmt.Sprintf("%.3f", *r.Psi)
				ns = fmt.Sprintf("%.4g", *r.Scaled)
			}
			extra := ps
			if out.Size != "" {
				extra += "\t" + ns
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%.3f\t%*s\t%s\t\n", r.P, fmtSeconds(r.Time), ratioCell(r.Speedup), ratioCell(r.Efficiency),
				r.CommShare, domWidth, r.Dominant, extra)
		}
		tw.Flush()
	}
	if c := out.Compare; c != nil {
		fmt.Fprintf(w, "\ncompared with %s:\n", c.Other)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "P\t%s\t%s\tfaster\t\n", baseName(out.File), baseName(c.Other))
		for i, r := range c.Rows {
			a := out.Tables[0].Rows[i].Time
			faster := baseName(out.File)
			if r.Time < a {
				faster = baseName(c.Other)
			} else if r.Time == a {
				faster = "equal"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t\n", r.P, fmtSeconds(a), fmtSeconds(r.Time), faster)
		}
		tw.Flush()
		if len(c.Crossings) == 0 {
			fmt.Fprintln(w, "no crossing point in the sweep")
		}
		for _, x := range c.Crossings {
			fmt.Fprintf(w, "crossing: %s is faster up to P = %d, %s from P = %d (times equal at P ≈ %.4g)\n",
				baseName(x.Before), x.From, baseName(x.After), x.To, x.At)
		}
	}
	if len(out.Grain) > 0 {
		fmt.Fprintf(w, "\noptimal grain (dT/dK = 0, MK §5.4); dT/dK = %s\n", out.GrainDer)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "P\tK\ttime\t\n")
		for _, g := range out.Grain {
			fmt.Fprintf(tw, "%d\t%d\t%s\t\n", g.P, g.K, fmtSeconds(g.Time))
		}
		tw.Flush()
	}
	if len(out.Constant) > 0 {
		fmt.Fprintf(w, "\nconstant-time curve (MK §5.5): %s per P\n", out.Size)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "P\t%s\t\n", out.Size)
		for _, c := range out.Constant {
			v := "none: " + c.Why
			if c.Size != nil {
				v = fmt.Sprintf("%.6g", *c.Size)
			}
			fmt.Fprintf(tw, "%d\t%s\t\n", c.P, v)
		}
		tw.Flush()
	}
	for _, n := range out.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

// ratioCell prints a speedup or efficiency, "-" where there is none (the
// program does not run on one process).
func ratioCell(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.3f", x)
}

// oneLine shortens a long multi-line closed form for the table header.
func oneLine(s string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	t := strings.Join(lines, "; ")
	if len(t) > 300 {
		return t[:300] + fmt.Sprintf("... (%d cases; -format json prints all)", len(lines))
	}
	return t
}

func writeWhatifCSV(w io.Writer, out *whatifOutput) {
	var names []string
	for _, t := range out.Terms {
		names = append(names, csvQuote(t.Name))
	}
	fmt.Fprintf(w, "series,P,time,speedup,efficiency,comm_share,dominant,psi,%s\n", strings.Join(names, ","))
	for _, t := range out.Tables {
		for _, r := range t.Rows {
			psi := ""
			if r.Psi != nil {
				psi = strconv.FormatFloat(*r.Psi, 'g', 6, 64)
			}
			var ts []string
			for _, term := range out.Terms {
				ts = append(ts, strconv.FormatFloat(r.Terms[term.Name], 'g', 9, 64))
			}
			dominant := r.Dominant
			if r.Why != "" {
				dominant = r.Why // no time: why
			}
			fmt.Fprintf(w, "%s,%d,%s,%s,%s,%s,%s,%s,%s\n", csvQuote(t.Label), r.P, strconv.FormatFloat(r.Time, 'g', 9, 64),
				strconv.FormatFloat(r.Speedup, 'g', 9, 64), strconv.FormatFloat(r.Efficiency, 'g', 9, 64),
				strconv.FormatFloat(r.CommShare, 'g', 6, 64), csvQuote(dominant), psi, strings.Join(ts, ","))
		}
	}
}

func csvQuote(s string) string {
	if strings.ContainsAny(s, ",\"\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
