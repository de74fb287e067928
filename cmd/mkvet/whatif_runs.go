package main

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/instrument/calib"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/model/whatif"
)

// calibrated is mkvet whatif -runs: the sweep over P evaluated with the
// calibration of mkvet calibrate (per-node seconds fitted against the exact
// static counts) instead of a machine profile's operation and message costs.
// With -machine (or -set) the messages of the MPI calls are the profile's
// network's instead of their calibrated times (calib.Network): a
// calibration made on one node measured shared memory, and a sweep to P
// beyond the node needs a network. The output says which parts are
// measured and which modelled, where P leaves the calibrated process
// counts, and the message-size regimes the sweep crosses (issue 14 item
// 4). With -configure each P is configured and costed on its own, as for
// mkvet predict. Speedup and efficiency are against the predicted time on
// one process. The analyses that need T as a closed form (-compare,
// -grain, -constant-time) do not apply and are refused.
func (wf *whatifFlags) calibrated(files []string, ps []int64, kind whatif.PlotKind, stdout, stderr io.Writer) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "mkvet whatif: "+format+"\n", args...)
		return 2
	}
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"unit", wf.unit != ""}, {"leading", wf.leading},
		{"omit", wf.omit != ""}, {"compare", wf.compare != ""}, {"grain", wf.grain != ""},
		{"constant-time", wf.constTime != ""}, {"phases", wf.phases},
	} {
		if f.set {
			return fail("-%s does not apply with -runs: the calibration's seconds are the measured machine's, "+
				"per node, not a closed form of T", f.name)
		}
	}
	var nw *calib.Network
	if wf.machine != "" || wf.set != "" {
		prof, err := model.Load(wf.machine)
		if err != nil {
			return fail("-machine: %v", err)
		}
		if wf.set != "" {
			if err := setProfile(prof, wf.set); err != nil {
				return fail("%v", err)
			}
		}
		if nw, err = calib.NewNetwork(prof); err != nil {
			return fail("-machine %s: %v", prof.Name, err)
		}
	}
	seriesName, seriesTexts, seriesVals, err := wf.seriesOf()
	if err != nil {
		return fail("%v", err)
	}
	if seriesName != "" && wf.configure != "" {
		return fail("-series does not apply with -configure: each P is configured for one set of values")
	}
	cs, vals, labels, err := calibratedDefs("whatif", &wf.progFlags, files, stderr)
	if err != nil {
		return fail("%v", err)
	}
	if cs != nil {
		defer cs.close()
	}
	delete(vals, cost.Size)
	if seriesName != "" {
		// The series gives this size: the calibration's check that every
		// size it varied has a value sees the first.
		vals[symbolName(seriesName)] = int64(seriesVals[0])
	}
	sweep := sweepWithOne(ps)
	ips := make([]int, len(sweep))
	for i, p := range sweep {
		ips[i] = int(p)
	}
	cp, st := calibratedAt("whatif", &wf.progFlags, cs, vals, labels, ips, wf.runs, wf.label, files, stderr)
	if cp == nil {
		return st
	}
	cal, prog := cp.cal, cp.prog
	type series struct {
		label  string
		params map[string]float64 // nil: the points' own
	}
	all := []series{{}}
	if seriesName != "" {
		all = nil
		for i, x := range seriesVals {
			p := maps2(cp.params)
			p[symbolName(seriesName)] = x
			all = append(all, series{label: seriesName + "=" + seriesTexts[i], params: p})
		}
	}
	procs := cal.ProcessCounts()
	out := &whatifOutput{Version: 1, File: strings.Join(files, " "),
		Machine: fmt.Sprintf("calibration %s (program %s, %d runs at %d points, P=%s)", wf.runs, prog.Name(), cal.Runs, cal.Points, intsText(procs)),
		Network: "measured", Params: map[string]string{}, Notes: []string{}}
	netText := ""
	if nw != nil {
		netText = nw.Name + "'s " + modelName(nw.Net)
		out.Network = "messages modelled: " + netText
	}
	for k, v := range labels {
		out.Params[k] = v
	}
	for k, v := range cp.params {
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
	// sizes[node] are a modelled node's message sizes and regimes over
	// the sweep, for the note on the regimes it crosses.
	type sized struct {
		p      int64
		bytes  float64
		regime string
		share  float64
	}
	sizes := map[string][]sized{}
	// The predictions' warnings, one note for each that recurs over P
	// with other figures: its first text and where it holds.
	warnAt, warnText := map[string][]int64{}, map[string]string{}
	var warnOrder []string
	var nodeOrder []string
	modelledAny := false
	for _, sr := range all {
		t1 := 0.0
		tab := &tableJSON{Label: sr.label}
		preds := make([]*calib.Prediction, len(sweep))
		for i := range sweep {
			if cp.stopped[i] != "" {
				continue
			}
			pt, m := cp.points[i], cp.models[i]
			if sr.params != nil {
				pt.Params = sr.params
				var err error
				if m, err = cp.modelAt(i, pt); err != nil {
					return fail("%s: %v", sr.label, err)
				}
			}
			pred, err := calib.PredictWith(cal, m, pt, pt.Params, calib.PredictOptions{Network: nw})
			if err != nil {
				return fail("%v", err)
			}
			preds[i] = pred
			if sweep[i] == 1 {
				t1 = time(pred)
			}
		}
		for i, p := range sweep {
			if !slices.Contains(ps, p) {
				continue
			}
			pred := preds[i]
			if pred == nil {
				why := cp.stopped[i] + " on every process (one of its own checks fails there)"
				tab.Rows = append(tab.Rows, rowJSON{P: p, Time: math.NaN(), Speedup: math.NaN(), Efficiency: math.NaN(),
					CommShare: math.NaN(), Why: why, Terms: map[string]float64{}})
				continue
			}
			for _, w := range pred.Warnings {
				k := digits.ReplaceAllString(w, "#")
				if _, ok := warnAt[k]; !ok {
					warnOrder = append(warnOrder, k)
					warnText[k] = w
				}
				warnAt[k] = append(warnAt[k], p)
			}
			row := whatif.Row{P: p, Time: time(pred)}
			rj := rowJSON{P: p, Terms: map[string]float64{}}
			comm, top := 0.0, 0.0
			for _, np := range pred.Nodes {
				if np.Modelled && sr.label == all[0].label {
					if _, ok := sizes[np.Node]; !ok {
						nodeOrder = append(nodeOrder, np.Node)
					}
					sizes[np.Node] = append(sizes[np.Node], sized{p, np.Bytes, np.Regime, np.OnSlowest / pred.Total})
				}
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
			if nw != nil {
				m := pred.Modelled
				rj.Modelled = &m
				modelledAny = modelledAny || m > 0
			}
			if row.Time > 0 {
				row.Speedup = t1 / row.Time
				row.Efficiency = row.Speedup / float64(p)
				row.CommShare = comm / pred.Total
			}
			if t1 <= 0 {
				row.Speedup, row.Efficiency = math.NaN(), math.NaN()
			}
			rj.Time, rj.Speedup, rj.Efficiency, rj.CommShare, rj.Dominant = row.Time, row.Speedup, row.Efficiency, row.CommShare, row.Dominant
			tab.Rows = append(tab.Rows, rj)
			tab.rows = append(tab.rows, row)
		}
		out.Tables = append(out.Tables, tab)
		if t1 <= 0 && sr.label == all[0].label {
			note("no speedups: the program does not run on one process")
		}
	}
	for _, k := range warnOrder {
		at := warnAt[k]
		if len(at) == 1 {
			note(fmt.Sprintf("at P=%d: %s", at[0], warnText[k]))
			continue
		}
		note(fmt.Sprintf("at P=%s (figures of P=%d): %s", sweepText(at, ps), at[0], warnText[k]))
	}
	// What is measured and what modelled.
	if nw != nil {
		note(fmt.Sprintf("measured: the computation (seconds per unit of the exact counts at each P, calibrated at P=%s) and "+
			"the MPI calls that move no messages of their own (wait, init); modelled: the messages of point-to-point calls "+
			"(sent·s + received·(τ + r) per rank) and collectives (their algorithms at P) by %s; "+
			"waiting in pipelines is not modelled (mkvet whatif without -runs models it)", intsText(procs), netText))
		if !modelledAny {
			note("no MPI call with messages has a calibrated model here (or its counts are unknown at these points): every time is the calibration's")
		}
	} else {
		note(fmt.Sprintf("measured: every node, as calibrated at P=%s (seconds per unit of the exact counts at each P), "+
			"MPI calls included", intsText(procs)))
	}
	if len(procs) > 0 {
		hi := procs[len(procs)-1]
		var beyond []int64
		for _, p := range ps {
			if int(p) > hi {
				beyond = append(beyond, p)
			}
		}
		if len(beyond) > 0 {
			note(fmt.Sprintf("P=%s: beyond the process counts calibrated (%s): the counts are exact there, the seconds per unit "+
				"are those measured at P ≤ %d", sweepText(beyond, ps), intsText(procs), hi))
			cpus := hi
			if cal.Memory != nil && cal.Memory.CPUs > 0 {
				cpus = cal.Memory.CPUs
			}
			if nw == nil && int(beyond[len(beyond)-1]) > cpus {
				note(fmt.Sprintf("P > %d: the MPI times were fitted to runs on one machine (shared memory, at most %d processes); "+
					"-machine models the messages on a network", cpus, hi))
			}
		}
	}
	// The message-size regimes the sweep crosses, for the modelled nodes
	// that hold 1% or more of the time at some P; calls whose messages
	// tell the same story share a note.
	var lines []string
	callsOf := map[string][]string{}
	for _, node := range nodeOrder {
		ss := sizes[node]
		heavy := false
		for _, x := range ss {
			heavy = heavy || x.share >= 0.01
		}
		if !heavy || len(ss) == 0 {
			continue
		}
		var parts []string
		for i := 0; i < len(ss); {
			j := i
			for j+1 < len(ss) && ss[j+1].regime == ss[i].regime {
				j++
			}
			at := fmt.Sprintf("P=%d", ss[i].p)
			if j > i {
				at = fmt.Sprintf("P=%d..%d", ss[i].p, ss[j].p)
			}
			if ss[i].regime != "" {
				parts = append(parts, ss[i].regime+" at "+at)
			}
			i = j + 1
		}
		first, last := ss[0], ss[len(ss)-1]
		line := fmt.Sprintf("messages of %s at P=%d", model.FormatBytes(first.bytes), first.p)
		if last.p != first.p {
			line += fmt.Sprintf(", %s at P=%d", model.FormatBytes(last.bytes), last.p)
		}
		if len(parts) > 1 {
			line += "; crosses regimes: " + strings.Join(parts, ", ")
		} else if len(parts) == 1 {
			line += "; one regime: " + parts[0]
		}
		for _, nm := range cal.Nodes {
			if nm.Node == node && nm.MaxMessage > 0 {
				line += fmt.Sprintf(" (calibrated with messages up to %s)", model.FormatBytes(nm.MaxMessage))
			}
		}
		if callsOf[line] == nil {
			lines = append(lines, line)
		}
		callsOf[line] = append(callsOf[line], node)
	}
	for _, line := range lines {
		nodes := callsOf[line]
		who := nodes[0]
		if len(nodes) > 1 {
			who = fmt.Sprintf("%s and %d more calls", nodes[0], len(nodes)-1)
		}
		note(who + ": " + line)
	}
	if wf.balance {
		note("-balance: each P's time is the mean of the ranks' calibrated times, as if the load were perfectly balanced")
	}
	if slices.ContainsFunc(cal.Nodes, func(n *calib.NodeModel) bool { return n.Basis == calib.PMNF }) {
		note("some nodes are fitted by a PMNF search over the sizes and P, not by their counts (mkvet predict marks them)")
	}
	note("dominant: the node with the most predicted time on the slowest rank; comm: the share of MPI calls in it")
	if err := wf.emit(out, kind, nil, stdout); err != nil {
		return fail("%v", err)
	}
	return 0
}

// digits matches the figures of a warning, which change with P while
// what it warns of does not.
var digits = regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)

// intsText prints process counts as a list: "1,2".
func intsText(ps []int) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, strconv.Itoa(p))
	}
	return strings.Join(parts, ",")
}

// sweepText prints the process counts at of the sweep ps, a run of three
// or more consecutive entries of the sweep as lo..hi: 1..32,128.
func sweepText(at, ps []int64) string {
	var parts []string
	for i := 0; i < len(at); {
		j := i
		for j+1 < len(at) && slices.Index(ps, at[j+1]) == slices.Index(ps, at[j])+1 {
			j++
		}
		if j-i >= 2 {
			parts = append(parts, fmt.Sprintf("%d..%d", at[i], at[j]))
			i = j + 1
			continue
		}
		for ; i <= j; i++ {
			parts = append(parts, strconv.FormatInt(at[i], 10))
		}
	}
	return strings.Join(parts, ",")
}
