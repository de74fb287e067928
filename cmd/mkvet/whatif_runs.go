package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/instrument/calib"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/model/whatif"
)

// calibrated is mkvet whatif -runs: the sweep over P evaluated with the
// calibration of mkvet calibrate (per-node seconds fitted against the exact
// static counts) instead of a machine profile's operation and message costs.
// Speedup and efficiency are against the calibrated time on one process.
// The analyses that need T as a closed form (-compare, -grain,
// -constant-time) and the profile's knobs do not apply and are refused.
func (wf *whatifFlags) calibrated(files []string, ps []int64, kind whatif.PlotKind, stdout, stderr io.Writer) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "mkvet whatif: "+format+"\n", args...)
		return 2
	}
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"machine", wf.machine != ""}, {"set", wf.set != ""}, {"unit", wf.unit != ""}, {"leading", wf.leading},
		{"omit", wf.omit != ""}, {"compare", wf.compare != ""}, {"grain", wf.grain != ""},
		{"constant-time", wf.constTime != ""}, {"phases", wf.phases},
	} {
		if f.set {
			return fail("-%s does not apply with -runs: the calibration's seconds are the measured machine's, "+
				"per node, not a closed form of T", f.name)
		}
	}
	l, st := wf.load("whatif", files, stderr)
	if l == nil {
		return st
	}
	vals, _, err := intDefs(wf.defs)
	if err != nil {
		return fail("%v", err)
	}
	delete(vals, cost.Size)
	cal, model, prog, err := calibrationFor(wf.runs, wf.label, files, l.report)
	if err != nil {
		return fail("%v", err)
	}
	params := map[string]float64{}
	for k, v := range vals {
		params[k] = float64(v)
	}
	type series struct {
		label  string
		params map[string]float64
	}
	all := []series{{params: params}}
	seriesName, seriesTexts, seriesVals, err := wf.seriesOf()
	if err != nil {
		return fail("%v", err)
	}
	if seriesName != "" {
		all = nil
		for i, x := range seriesVals {
			p := maps2(params)
			p[seriesName] = x
			all = append(all, series{label: seriesName + "=" + seriesTexts[i], params: p})
		}
	}
	for _, s := range cal.Sizes {
		for _, sr := range all {
			if _, ok := sr.params[s]; !ok {
				return fail("give the size %s with -D %s=... (the calibration varied it)", s, s)
			}
		}
	}
	out := &whatifOutput{Version: 1, File: strings.Join(files, " "),
		Machine: fmt.Sprintf("calibration %s (program %s, %d runs at %d points)", wf.runs, prog.Name(), cal.Runs, cal.Points),
		Network: "measured", Params: map[string]string{}, Notes: []string{}}
	for k, v := range params {
		out.Params[k] = strconv.FormatFloat(v, 'f', -1, 64)
	}
	if seriesName != "" {
		out.Params[seriesName] = seriesParam(seriesTexts)
	}
	kinds := map[string]string{}
	for _, n := range cal.Nodes {
		kinds[n.Node] = n.Kind
	}
	seen := map[string]bool{}
	note := func(s string) {
		if !seen[s] {
			seen[s] = true
			out.Notes = append(out.Notes, s)
		}
	}
	// time is the program time at P: the slowest rank's, or with -balance
	// the mean over ranks (each rank's predicted time, perfectly balanced).
	time := func(pred *calib.Prediction) float64 {
		if !wf.balance {
			return pred.Total
		}
		s := 0.0
		for _, t := range pred.PerRank {
			s += t
		}
		return s / float64(len(pred.PerRank))
	}
	for _, sr := range all {
		t1 := 0.0
		tab := &tableJSON{Label: sr.label}
		for _, p := range ps {
			pred, err := calib.Predict(cal, model, calib.Point{Params: sr.params, P: int(p)}, sr.params)
			if err != nil {
				return fail("%v", err)
			}
			for _, w := range pred.Warnings {
				note(fmt.Sprintf("at P=%d: %s", p, w))
			}
			if t1 == 0 {
				one := pred
				if p != 1 {
					if one, err = calib.Predict(cal, model, calib.Point{Params: sr.params, P: 1}, sr.params); err != nil {
						return fail("%v", err)
					}
				}
				t1 = time(one)
			}
			row := whatif.Row{P: p, Time: time(pred)}
			rj := rowJSON{P: p, Terms: map[string]float64{}}
			comm, top := 0.0, 0.0
			for _, np := range pred.Nodes {
				if np.OnSlowest <= 0 {
					continue
				}
				rj.Terms[np.Node] = np.OnSlowest
				if kinds[np.Node] == "comm" {
					comm += np.OnSlowest
				}
				if np.OnSlowest > top {
					top, row.Dominant = np.OnSlowest, np.Node
				}
			}
			if row.Time > 0 {
				row.Speedup = t1 / row.Time
				row.Efficiency = row.Speedup / float64(p)
				row.CommShare = comm / pred.Total
			}
			rj.Time, rj.Speedup, rj.Efficiency, rj.CommShare, rj.Dominant = row.Time, row.Speedup, row.Efficiency, row.CommShare, row.Dominant
			tab.Rows = append(tab.Rows, rj)
			tab.rows = append(tab.rows, row)
		}
		out.Tables = append(out.Tables, tab)
	}
	if wf.balance {
		note("-balance: each P's time is the mean of the ranks' calibrated times, as if the load were perfectly balanced")
	}
	if slices.ContainsFunc(cal.Nodes, func(n *calib.NodeModel) bool { return n.Basis == calib.PMNF }) {
		note("some nodes are fitted by a PMNF search over the sizes and P, not by their counts (mkvet predict marks them)")
	}
	note("dominant: the node with the most calibrated time on the slowest rank; comm: the share of MPI calls in it")
	if err := wf.emit(out, kind, nil, stdout); err != nil {
		return fail("%v", err)
	}
	return 0
}
