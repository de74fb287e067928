package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mkvet/mkvet/trace"
)

// traceWhatif is one hypothesis's outcome.
type traceWhatif struct {
	Hypothesis string  `json:"hypothesis"`
	Seconds    float64 `json:"seconds"`
	Gain       float64 `json:"gain_seconds"`
	Detail     string  `json:"detail,omitempty"`
}

type traceWhatifOutput struct {
	Trace    string        `json:"trace"`
	Source   string        `json:"source"`
	P        int           `json:"P"`
	Machine  string        `json:"machine"`
	Measured float64       `json:"measured_seconds"`
	Replayed float64       `json:"replayed_seconds"`
	Whatifs  []traceWhatif `json:"whatifs"`
	Domino   *dominoJSON   `json:"domino,omitempty"`
	Notes    []string      `json:"notes,omitempty"`
}

type dominoJSON struct {
	Links   int      `json:"links"`
	Wait    float64  `json:"wait_seconds"`
	Trigger string   `json:"trigger,omitempty"`
	Path    []string `json:"path"`
}

// fromTrace answers PerWiz's what-ifs (seed 003 §3-4) by replaying an
// event trace under LogGPS.
func (wf *whatifFlags) fromTrace(stdout, stderr io.Writer) int {
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "mkvet whatif: %v\n", err)
		return code
	}
	switch wf.format {
	case "table", "json":
	default:
		return fail(2, usagef("with -trace, -format must be table or json, not %q", wf.format))
	}
	t, g, err := loadTrace(wf.trace)
	if err != nil {
		return fail(2, err)
	}
	p, err := replayParams(wf.machine, wf.set)
	if err != nil {
		return fail(2, err)
	}
	rp := trace.NewReplayer(g, p, trace.Measured)
	base, err := rp.Replay(&trace.Options{Record: true})
	if err != nil {
		return fail(1, err)
	}
	s0, s1 := t.Span()
	out := &traceWhatifOutput{Trace: wf.trace, Source: t.Source, P: t.P, Machine: p.Name,
		Measured: float64(s1-s0) / 1e9, Replayed: base.Completion / 1e9}
	out.Notes = append(append(out.Notes, t.Notes...), g.Notes...)
	all := wf.zero == "" && !wf.balance && !wf.domino && !wf.bounds
	add := func(h string, ns float64, detail string) {
		out.Whatifs = append(out.Whatifs, traceWhatif{Hypothesis: h, Seconds: ns / 1e9, Gain: (base.Completion - ns) / 1e9, Detail: detail})
	}
	if wf.zero != "" {
		nodes := strings.Split(wf.zero, ",")
		res, n, err := rp.ZeroWaitAt(nodes)
		if err != nil {
			return fail(1, err)
		}
		if n == 0 {
			return fail(2, fmt.Errorf("-zero %s: no MPI call of the trace is at these nodes", wf.zero))
		}
		add("zero waits at "+wf.zero, res.Completion, fmt.Sprintf("%d calls", n))
	}
	if wf.balance || all {
		res, steps, err := rp.Balance(wf.region)
		if err != nil {
			return fail(2, err)
		}
		h := "balance the computation of the whole run"
		if wf.region != "" {
			h = "balance each step of " + wf.region
		}
		add(h, res.Completion, fmt.Sprintf("%d steps", steps))
	}
	if wf.domino || all {
		d, err := rp.Domino(base)
		if err != nil {
			return fail(1, err)
		}
		dj := &dominoJSON{Links: len(d.Events) / 2, Wait: d.Wait / 1e9}
		name := func(e [2]int32) string {
			ev := &t.Ranks[e[0]].Events[e[1]]
			return fmt.Sprintf("rank %d %s %s", e[0], ev.Op, t.NodeName(ev))
		}
		for _, e := range d.Events {
			dj.Path = append(dj.Path, name(e))
		}
		if d.Trigger[0] >= 0 {
			dj.Trigger = name(d.Trigger)
			add("zero the wait of the domino trigger", d.TriggerTime, dj.Trigger)
			add("zero every wait on the domino path", d.PathTime, fmt.Sprintf("%d links", dj.Links))
		}
		out.Domino = dj
	}
	if wf.bounds || all {
		b := rp.LowerBounds(base)
		add("lower bound: no waiting (Q1)", b.NoWait, "")
		add("lower bound: no waiting, balanced computation (Q1+Q2)", b.Balanced, "")
		add("lower bound: no waiting, balanced computation and messages (Q1+Q2+Q3)", b.BalancedMessages, "")
	}
	if wf.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return fail(2, err)
		}
		return 0
	}
	fmt.Fprintf(stdout, "what-if on %s (%s, P = %d), LogGPS replay on %s: %.6f s (the trace: %.6f s)\n",
		wf.trace, t.Source, t.P, p.Name, out.Replayed, out.Measured)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "hypothesis\ttime s\tgain s\tgain %\t")
	for _, w := range out.Whatifs {
		h := w.Hypothesis
		if w.Detail != "" {
			h += " (" + w.Detail + ")"
		}
		if len(h) > 110 {
			h = h[:107] + "..."
		}
		fmt.Fprintf(tw, "%s\t%.6f\t%.6f\t%.1f\t\n", h, w.Seconds, w.Gain, 100*w.Gain/out.Replayed)
	}
	tw.Flush()
	if d := out.Domino; d != nil {
		if d.Links == 0 {
			fmt.Fprintln(stdout, "domino path: none (the last rank to finish never waited)")
		} else {
			fmt.Fprintf(stdout, "domino path: %d links, %.6f s of waiting, from the end back:\n", d.Links, d.Wait)
			for i := 0; i < len(d.Path) && i < 12; i += 2 {
				fmt.Fprintf(stdout, "  %s waited for %s\n", d.Path[i], d.Path[i+1])
			}
			if len(d.Path) > 12 {
				fmt.Fprintf(stdout, "  ... %d more links (-format json lists them all)\n", (len(d.Path)-12)/2)
			}
		}
	}
	for _, n := range out.Notes {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	return 0
}
