package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/instrument/calib"
	"github.com/mkvet/mkvet/instrument/runs"
	"github.com/mkvet/mkvet/model/cost"
)

func init() {
	register(&command{
		name:  "predict",
		usage: "-D name=value,... -P 2,4,8 [-configure CMD] [-runs FILE] [-label NAME] [-top N] [-json] FILE...",
		short: "predict seconds per node and in total at sizes and process counts nobody ran, from calibrated runs",
		order: 42,
		run:   runPredict,
	})
}

// predictJSON is the -json output of mkvet predict.
type predictJSON struct {
	Program string             `json:"program"`
	Hash    string             `json:"hash"`
	Params  map[string]float64 `json:"params"`
	Points  []predictPoint     `json:"points"`
}

type predictPoint struct {
	P int `json:"P"`
	// Configured are the integer constants the -configure command wrote
	// for this P, at which the counts were evaluated.
	Configured map[string]int64   `json:"configured,omitempty"`
	Seconds    float64            `json:"seconds"`
	Lo         float64            `json:"lo"`
	Hi         float64            `json:"hi"`
	Rank       int                `json:"slowest_rank"`
	Nodes      map[string]float64 `json:"nodes"`
	// Warnings say where the calibration is extrapolated past what it saw
	// and which nodes rest on approximate counts.
	Warnings []string `json:"warnings,omitempty"`
	// Approx is the share of the time predicted from approximate counts.
	Approx float64 `json:"approx_share,omitempty"`
	// Memory is the part of the time estimated for loops whose working
	// set leaves the memory levels their calibration ran in.
	Memory float64 `json:"memory_estimate,omitempty"`
}

func runPredict(args []string, stdout, stderr io.Writer) int {
	c := lookup("predict")
	fs := newFlagSet(c, stderr)
	var pf progFlags
	pf.register(fs, "predict at `name=value` (repeatable, or comma-separated): the sizes, and values the static counts "+
		"keep as parameters (px=2)")
	pf.registerConfigure(fs, "for each process count (with {P}, and {name} for a -D value such as class=A)")
	db := fs.String("runs", runs.DefaultPath, "the runs database `FILE` written by mkvet calibrate")
	label := fs.String("label", "", "use the program version labelled `NAME` (default: the version of FILE's contents)")
	procs := fs.String("P", "", "process counts `list`, comma-separated (default: -D P, or 1)")
	top := fs.Int("top", 8, "list the `N` most expensive nodes")
	asJSON := fs.Bool("json", false, "print JSON")
	files, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "mkvet predict: "+format+"\n", args...)
		return 2
	}
	cs, vals, labels, err := calibratedDefs("predict", &pf, files, stderr)
	if err != nil {
		return fail("%v", err)
	}
	if cs != nil {
		defer cs.close()
	}
	ps := []int{1}
	if v, ok := vals[cost.Size]; ok {
		ps = []int{int(v)}
		delete(vals, cost.Size)
	}
	if *procs != "" {
		ps = nil
		for _, s := range strings.Split(*procs, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 1 {
				return fail("-P %s: %q is not a process count", *procs, s)
			}
			ps = append(ps, n)
		}
	}
	cp, st := calibratedAt("predict", &pf, cs, vals, labels, ps, *db, *label, files, stderr)
	if cp == nil {
		return st
	}
	cal, prog, params, confs := cp.cal, cp.prog, cp.params, cp.confs
	out := predictJSON{Program: prog.Name(), Hash: prog.Hash, Params: params}
	var preds []*calib.Prediction
	for i, p := range ps {
		if cp.stopped[i] != "" {
			return fail("P=%d: the program %s on every process (one of its own checks fails there): no time to predict", p, cp.stopped[i])
		}
		pred, err := calib.Predict(cal, cp.models[i], cp.points[i], cp.points[i].Params)
		if err != nil {
			return fail("%v", err)
		}
		preds = append(preds, pred)
		pp := predictPoint{P: p, Seconds: pred.Total, Lo: pred.Lo, Hi: pred.Hi, Rank: pred.Rank, Nodes: map[string]float64{}}
		if cs != nil {
			pp.Configured = confs[i].consts
		}
		for _, n := range pred.Nodes {
			pp.Nodes[n.Node] = n.OnSlowest
		}
		pp.Warnings = pred.Warnings
		pp.Approx = pred.Approx
		pp.Memory = pred.Memory
		out.Points = append(out.Points, pp)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
		return 0
	}
	var at []string
	for _, k := range sortedKeys(labels) {
		at = append(at, k+"="+labels[k])
	}
	for _, k := range sortedNames(boolKeys(params)) {
		at = append(at, k+"="+strconv.FormatFloat(params[k], 'f', -1, 64))
	}
	if len(at) == 0 {
		at = append(at, "the values configured")
	}
	fmt.Fprintf(stdout, "predicted program time of %s (program %s, calibrated on %d runs at %d points) at %s\n",
		strings.Join(files, " "), prog.Name(), cal.Runs, cal.Points, strings.Join(at, " "))
	fmt.Fprintf(stdout, "%-28s", "node (on the slowest rank)")
	for _, p := range ps {
		fmt.Fprintf(stdout, " %12s", "P="+strconv.Itoa(p))
	}
	fmt.Fprintln(stdout)
	shown := 0
	for i, n := range cal.Nodes {
		if shown >= *top {
			break
		}
		any := false
		for _, pr := range preds {
			any = any || pr.Nodes[i].OnSlowest > 0
		}
		if !any {
			continue
		}
		shown++
		name := n.Node
		if n.Basis == calib.PMNF {
			name += " *"
		}
		if n.Approx != "" {
			name += " ~"
		}
		fmt.Fprintf(stdout, "%-28s", name)
		for _, pr := range preds {
			fmt.Fprintf(stdout, " %12s", fmtSeconds(pr.Nodes[i].OnSlowest))
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintf(stdout, "%-28s", "total")
	approx := false
	for _, pr := range preds {
		t := fmtSeconds(pr.Total)
		if pr.Approx >= 0.01 {
			t, approx = "~"+t, true
		}
		fmt.Fprintf(stdout, " %12s", t)
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "%-28s", "95% interval")
	for _, pr := range preds {
		fmt.Fprintf(stdout, " %12s", "±"+fmtSeconds((pr.Hi-pr.Lo)/2))
	}
	fmt.Fprintln(stdout)
	for _, n := range cal.Nodes {
		if n.Basis == calib.PMNF {
			fmt.Fprintln(stdout, "* fitted by a PMNF search: its time does not follow its counts")
			break
		}
	}
	if approx {
		fmt.Fprintln(stdout, "~ rests in part on approximate counts (trip counts or branches that depend on the data): "+
			"the share and the nodes are in the warnings and in -json")
	}
	for _, pr := range preds {
		if pr.Memory > 0 {
			fmt.Fprintf(stdout, "P=%d: %s of the total estimated for loops whose working set leaves the memory levels calibrated (the warnings say which)\n",
				pr.Point.P, fmtSeconds(pr.Memory))
		}
	}
	if cs != nil {
		for i, c := range confs {
			var kv []string
			for _, k := range sortedKeys(c.consts) {
				kv = append(kv, k+"="+strconv.FormatInt(c.consts[k], 10))
			}
			fmt.Fprintf(stdout, "P=%d: configured by %q (%s)\n", ps[i], c.command, strings.Join(kv, " "))
		}
	}
	for _, pr := range preds {
		for _, w := range pr.Warnings {
			fmt.Fprintf(stderr, "mkvet predict: warning at P=%d: %s\n", pr.Point.P, w)
		}
	}
	return 0
}

func boolKeys(m map[string]float64) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// calibratedDefs reads the -D values of predict and whatif -runs: with
// -configure (cs not nil; the caller closes it) a word is a value of the
// command's placeholders (class=A), returned in labels.
func calibratedDefs(cmd string, pf *progFlags, files []string, stderr io.Writer) (cs *configurations, vals map[string]int64, labels map[string]string, err error) {
	if pf.configure == "" {
		vals, _, err = intDefs(pf.defs)
		return nil, vals, nil, err
	}
	if cs, err = newConfigurations(cmd, pf, files, stderr); err != nil {
		return nil, nil, nil, err
	}
	if vals, labels, err = splitDefs(pf.defs, cs.placeholders()); err != nil {
		cs.close()
		return nil, nil, nil, err
	}
	return cs, vals, labels, nil
}

// calibratedPoints is a calibration with, per process count, the point to
// evaluate it at and the model that evaluates it over the program's
// static counts there.
type calibratedPoints struct {
	cal    *calib.Calibration
	prog   *runs.Program
	params map[string]float64 // the -D values
	points []calib.Point
	models []*calib.Model
	// confs are, with -configure, the program configured at each P.
	confs []*configured
	// stopped, per P, says where the program stops on every process (one
	// of its own checks fails there): no time is predicted there.
	stopped []string
	// perPoint is set when the models come from the program costed at
	// each point (pointwise): another point needs its own (modelAt).
	perPoint *loaded
}

// modelAt returns the model of point i evaluated at pt instead (other
// sizes at the same P): the same model, or the program costed at pt where
// the models are per point.
func (cp *calibratedPoints) modelAt(i int, pt calib.Point) (*calib.Model, error) {
	if cp.perPoint == nil {
		return cp.models[i], nil
	}
	r, err := cp.perPoint.atPoint(pt)
	if err != nil {
		return nil, fmt.Errorf("the program cannot be costed at %s: %v", pt, err)
	}
	return calib.NewModel(r, cp.cal.Timed()), nil
}

// calibratedAt loads the calibration of files from db and prepares its
// evaluation at each process count of ps with the values vals (and
// labels, for -configure's placeholders). With -configure each P is a
// program of its own: configured, read and costed there, and the integer
// constants the command wrote are the point's sizes, as they were for
// the runs calibrated. On failure it prints the message and returns the
// exit status.
func calibratedAt(cmd string, pf *progFlags, cs *configurations, vals map[string]int64, labels map[string]string,
	ps []int, db, label string, files []string, stderr io.Writer) (*calibratedPoints, int) {
	fail := func(format string, args ...any) (*calibratedPoints, int) {
		fmt.Fprintf(stderr, "mkvet %s: "+format+"\n", append([]any{cmd}, args...)...)
		return nil, 2
	}
	var confs []*configured
	var rep *cost.Report
	var l *loaded
	if cs != nil {
		if len(files) == 0 {
			return fail("no Fortran files given")
		}
		if err := cs.conf.checkPlaceholders(func(s string) bool {
			_, isInt := vals[s]
			_, isLabel := labels[s]
			return s == cost.Size || isInt || isLabel
		}); err != nil {
			return fail("%v", err)
		}
		for _, p := range ps {
			c, err := cs.at(configValues(labels, vals, p), withP(vals, p))
			if err != nil {
				return fail("P=%d: %v", p, configureFailure(err, cs))
			}
			confs = append(confs, c)
		}
		rep = confs[0].report
	} else {
		var st int
		if l, st = pf.load(cmd, files, stderr); l == nil {
			return nil, st
		}
		rep = l.report
	}
	cal, model, prog, err := calibrationFor(db, label, files, rep)
	if err != nil {
		return fail("%v", err)
	}
	params := map[string]float64{}
	for k, v := range vals {
		params[k] = float64(v)
	}
	for _, s := range cal.Sizes {
		if _, ok := params[s]; !ok {
			return fail("give the size %s with -D %s=... (the calibration varied it)", s, s)
		}
	}
	cp := &calibratedPoints{cal: cal, prog: prog, params: params, confs: confs}
	if cs == nil && pointwise(rep) {
		// As the calibration did (calibrate.go): the counts the symbolic
		// report cannot give exactly come from the program costed at the
		// point.
		cp.perPoint = l
	}
	for i, p := range ps {
		pt := calib.Point{Params: params, P: p}
		m := model
		if cs != nil {
			pt.Params = cloned(params)
			for k, v := range confs[i].consts {
				if _, ok := pt.Params[k]; !ok {
					pt.Params[k] = float64(v)
				}
			}
			m = calib.NewModel(confs[i].report, cal.Timed())
		} else if cp.perPoint != nil {
			var err error
			if m, err = cp.modelAt(i, pt); err != nil {
				return fail("P=%d: %v", p, err)
			}
		}
		stop := ""
		if cs != nil && confs[i].report.Stopped != nil {
			stop = "stops at " + confs[i].report.Stopped.Pos.String()
		}
		cp.points = append(cp.points, pt)
		cp.models = append(cp.models, m)
		cp.stopped = append(cp.stopped, stop)
	}
	return cp, 0
}

// calibrationFor returns the calibration of the program version of files
// (or the one labelled label) from the runs store at db, fitting the stored
// runs when no fit was stored (runs imported from Extra-P files), and the
// model that evaluates it over rep's static counts.
func calibrationFor(db, label string, files []string, rep *cost.Report) (*calib.Calibration, *calib.Model, *runs.Program, error) {
	store, prog, err := openProgram(db, label, files)
	if err != nil {
		return nil, nil, nil, err
	}
	defer store.Close()
	cal, err := loadCalibration(store, prog)
	if err != nil {
		return nil, nil, nil, err
	}
	if cal == nil {
		if cal, err = fitStored(store, prog, rep, calib.Options{Threshold: 0.1}); err != nil {
			return nil, nil, nil, err
		}
	}
	return cal, calib.NewModel(rep, cal.Timed()), prog, nil
}
