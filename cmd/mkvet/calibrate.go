package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mkvet/mkvet/instrument"
	"github.com/mkvet/mkvet/instrument/calib"
	"github.com/mkvet/mkvet/instrument/cinst"
	"github.com/mkvet/mkvet/instrument/runs"
	"github.com/mkvet/mkvet/instrument/sweep"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/model/membench"
)

func init() {
	register(&command{
		name: "calibrate",
		usage: "-runs 'N=64,128,256 P=1,2' [-reps 3] [-build TEMPLATE] [-launcher TEMPLATE] [-input TEMPLATE] " +
			"[-file NAME=TEMPLATE] [-configure CMD] [-D name=value,...] [-db FILE] [-label NAME] [-timeout D] [-work DIR] [-json] FILE...",
		short: "instrument, build and run a sweep of small runs, store them and fit per-node costs to the static counts",
		order: 41,
		run:   runCalibrate,
	})
}

type calibrateFlags struct {
	progFlags
	runs, build, launcher, input, db, label, work string
	memory                                        string
	files                                         multiFlag
	reps                                          int
	timeout                                       time.Duration
	threshold                                     float64
	json, refit                                   bool
}

func runCalibrate(args []string, stdout, stderr io.Writer) int {
	c := lookup("calibrate")
	fs := newFlagSet(c, stderr)
	var cf calibrateFlags
	cf.progFlags.register(fs, "fix `name=value` in every run (repeatable, or comma-separated), beside the sizes -runs sweeps")
	cf.progFlags.registerConfigure(fs, "for each configuration of the sweep (its {P} and labels such as {class}), before "+
		"building it,")
	fs.StringVar(&cf.runs, "runs", "", "the sweep: `'N=64,128,256 P=1,2'`, the cartesian product of the lists (P: process counts; "+
		"a list of words, class=S,W, gives labels for the templates)")
	fs.IntVar(&cf.reps, "reps", 3, "repetitions of each point; the fit uses their median")
	fs.StringVar(&cf.build, "build", "", "build command `TEMPLATE` run in the build directory: {srcs} the files to compile, "+
		"{exe} the program (default 'mpif90 -O2 {srcs} -o {exe}', gfortran for a serial program)")
	fs.StringVar(&cf.launcher, "launcher", "", "run command `TEMPLATE`: {P} processes, {exe}, and {name} for each size "+
		"(default 'mpirun -np {P} {exe}', '{exe}' for a serial program)")
	fs.StringVar(&cf.input, "input", "", "standard input `TEMPLATE` of each run, {name} for each size, \\n for newlines")
	fs.Var(&cf.files, "file", "write an input file each run reads, `NAME=TEMPLATE` (repeatable): the file TEMPLATE with {name} "+
		"for each size, {P}, {{ and }} for braces, written as NAME in the run's directory (an input deck such as clover.in)")
	fs.StringVar(&cf.db, "db", runs.DefaultPath, "the runs database `FILE`")
	fs.StringVar(&cf.label, "label", "", "label the program version `NAME` in the database")
	fs.StringVar(&cf.work, "work", ".mkvet/work", "build and run in `DIR`")
	fs.DurationVar(&cf.timeout, "timeout", 10*time.Minute, "give up a run after `D`")
	fs.Float64Var(&cf.threshold, "threshold", 0.1, "cross-validated SMAPE above which a node is deemed not to follow its counts "+
		"and a PMNF search is tried")
	fs.BoolVar(&cf.json, "json", false, "print the calibration as JSON")
	fs.BoolVar(&cf.refit, "refit", false, "build and run nothing: fit the runs stored for the points of -runs again "+
		"(after an mkvet whose counts differ, which predict asks for)")
	fs.StringVar(&cf.memory, "memory", "auto", "the machine's memory hierarchy `HOW`: auto (the cache levels from the kernel, "+
		"streaming times measured by the membench benchmark built with cc), levels (the levels alone: working sets flagged, not estimated), "+
		"off, or a FILE written by membench -json")
	files, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "mkvet calibrate: "+format+"\n", args...)
		return 2
	}
	if cf.runs == "" {
		return fail("-runs is required, e.g. -runs 'N=64,128,256 P=1,2'")
	}
	if cf.reps < 1 {
		return fail("-reps must be at least 1")
	}
	grid, err := sweep.ParseGrid(cf.runs)
	if err != nil {
		return fail("-runs: %v", err)
	}
	var inputFiles []sweep.InputFile
	for _, spec := range cf.files {
		f, err := sweep.ParseInputFile(spec)
		if err != nil {
			return fail("-file %v", err)
		}
		inputFiles = append(inputFiles, f)
	}
	work, err := filepath.Abs(cf.work)
	if err != nil {
		return fail("%v", err)
	}
	var (
		l           *loaded
		cs          *configurations
		fixed       map[string]int64
		fixedLabels map[string]string
	)
	if cf.configure == "" {
		if fixed, _, err = intDefs(cf.defs); err != nil {
			return fail("%v", err)
		}
		var st int
		if l, st = cf.load("calibrate", files, stderr); l == nil {
			return st
		}
	} else {
		if cs, err = newConfigurations("calibrate", &cf.progFlags, files, stderr); err != nil {
			return fail("%v", err)
		}
		defer cs.close()
		if fixed, fixedLabels, err = splitDefs(cf.defs, cs.placeholders()); err != nil {
			return fail("%v", err)
		}
		given := map[string]bool{cost.Size: true}
		for k := range fixed {
			given[k] = true
		}
		for k := range fixedLabels {
			given[k] = true
		}
		for _, g := range grid {
			for k := range g.Params {
				given[symbolName(k)] = true
			}
			for k := range g.Labels {
				given[symbolName(k)] = true
			}
		}
		if err := cs.conf.checkPlaceholders(func(s string) bool { return given[s] }); err != nil {
			return fail("%v", err)
		}
		// The first configuration stands for the program in what does not
		// change between configurations: its sizes, whether it uses MPI,
		// where the probes go.
		first, err := cs.at(configValues(merged(fixedLabels, grid[0].Labels), merged(fixed, grid[0].Params), grid[0].P),
			withP(merged(fixed, grid[0].Params), grid[0].P))
		if err != nil {
			return fail("%v", configureFailure(err, cs))
		}
		l = &loaded{files: files, prog: first.prog, report: first.report, form: cs.form}
	}
	opt := l.instrumentOptions(&cf.progFlags)
	if cs != nil {
		opt.ReadFile = cs.conf.readFile
	}
	// A C or C++ program is instrumented in its IR (instrument/cinst),
	// compiled afresh for every build: from the configured mirror with
	// -configure, which holds the build's configuration when it is made.
	var instrumentC func(dir string, values map[string]int64) (*instrument.Result, error)
	if allC(files) {
		fcfg, _, err := frontendConfig(cf.form, cf.incs, cf.macros, cf.cpp)
		if err != nil {
			return fail("%v", err)
		}
		var conf *configurer
		if cs != nil {
			conf = cs.conf
		}
		instrumentC = func(dir string, values map[string]int64) (*instrument.Result, error) {
			if len(values) > 0 {
				return nil, fmt.Errorf("a C program takes its sizes at run time (its command line or input), not %s", sweep.Key(values))
			}
			// The directory is mkvet's own (-work): an earlier copy there
			// is replaced.
			if err := os.RemoveAll(dir); err != nil {
				return nil, err
			}
			return instrumentCAt(files, fcfg, conf, dir, cinst.Options{})
		}
	}
	probe := opt
	probe.Dir = filepath.Join(work, "probe")
	var res *instrument.Result
	if instrumentC != nil {
		res, err = instrumentC(probe.Dir, nil)
	} else {
		res, err = instrument.Instrument(l.prog, files, probe)
	}
	if err != nil {
		return fail("%v", err)
	}
	for _, n := range res.Notes {
		fmt.Fprintln(stderr, n)
	}
	if cf.build == "" {
		cf.build = "gfortran -O2 {srcs} -o {exe}"
		switch {
		case instrumentC != nil:
			cf.build = cinst.BuildCommand()
		case res.MPI:
			cf.build = "mpif90 -O2 {srcs} -o {exe}"
		}
	}
	if cf.launcher == "" {
		cf.launcher = "{exe}"
		if res.MPI {
			cf.launcher = "mpirun -np {P} {exe}"
		}
	}
	// The points: sizes as report symbols, -D values in every point, and
	// only points the program's assumptions allow.
	known := map[string]bool{}
	for _, p := range l.report.Params {
		known[p.Name] = true
	}
	for _, p := range res.Params {
		known[p.Name] = true
	}
	// A label, or a size of none of the program's, is a value of the
	// templates: one that no template names is a mistake.
	templates := []string{cf.configure, cf.build, cf.launcher, cf.input}
	for _, f := range inputFiles {
		templates = append(templates, f.Template)
	}
	inTemplates := func(name string) bool {
		for _, t := range templates {
			for _, m := range placeholderRE.FindAllStringSubmatch(t, -1) {
				if symbolName(m[1]) == name {
					return true
				}
			}
		}
		return false
	}
	var points []sweep.Point
	configOf := map[string]*configured{} // by point
	for _, g := range grid {
		pt := sweep.Point{Params: map[string]int64{}, Labels: map[string]string{}, P: g.P}
		for k, v := range fixed {
			if k != cost.Size {
				pt.Params[k] = v
			}
		}
		for k, v := range fixedLabels {
			pt.Labels[k] = v
		}
		for k, v := range g.Params {
			pt.Params[symbolName(k)] = v
		}
		for k, v := range g.Labels {
			pt.Labels[symbolName(k)] = v
		}
		if !res.MPI && pt.P != 1 {
			return fail("%s is a serial program: P must be 1", strings.Join(files, " "))
		}
		for _, k := range sortedKeys(pt.Params) {
			if !known[k] && !inTemplates(k) {
				return fail("-runs: %s is neither a size of the program (its sizes: %s) nor a placeholder of a template",
					k, strings.Join(sortedNames(known), ", "))
			}
		}
		for _, k := range sortedKeys(pt.Labels) {
			if !inTemplates(k) {
				return fail("-runs: %s=%s is a label (not a number), and no template has {%s}", k, pt.Labels[k], k)
			}
		}
		rep := l.report
		if cs != nil {
			c, err := cs.at(configValues(pt.Labels, pt.Params, pt.P), withP(pt.Params, pt.P))
			if err != nil {
				var ce *configureError
				if errors.As(err, &ce) {
					fmt.Fprintf(stderr, "mkvet calibrate: skipping %s: %v\n", pt, configureFailure(err, cs))
					continue
				}
				return fail("%s: %v", pt, err)
			}
			configOf[pt.String()] = c
			rep = c.report
		}
		env := map[string]int64{}
		for k, v := range pt.Params {
			env[k] = v
		}
		if rep.Parallel {
			env[cost.Size] = int64(pt.P)
		}
		if _, err := rep.At(env); err != nil && strings.Contains(err.Error(), "violates") {
			fmt.Fprintf(stderr, "mkvet calibrate: skipping %s: %v\n", pt, err)
			continue
		}
		points = append(points, pt)
	}
	if cs != nil {
		printConfigurations(stderr, cs, points, configOf)
	}
	if len(points) == 0 {
		return fail("no point of the sweep satisfies the program's assumptions")
	}
	// A template's mistakes are found before anything is built or run.
	for _, f := range inputFiles {
		for _, pt := range points {
			if _, err := sweep.ExpandTemplate(f.Source, f.Template, sweep.Vars(pt, "", "", nil)); err != nil {
				return fail("-file %s at %s: %v", f.Name, pt, err)
			}
		}
	}
	hash, err := runs.HashFiles(files)
	if err != nil {
		return fail("%v", err)
	}
	db, err := runs.Open(cf.db)
	if err != nil {
		return fail("%v", err)
	}
	defer db.Close()
	prog, err := db.Program(hash, cf.label, files)
	if err != nil {
		return fail("%v", err)
	}
	cfg := &sweep.Config{Prog: l.prog, Files: files, Options: opt, Build: cf.build, Launcher: cf.launcher,
		Input: cf.input, InputFiles: inputFiles, Dir: work, Timeout: cf.timeout, Instrument: instrumentC,
		// The runs see the environment the counts were made for.
		Env: cf.envList()}
	builds := map[string]*sweep.Build{}
	buildErr := map[string]error{}
	// reportOf holds each configured point's report, by the point as the
	// runs database keeps it (sizes, the constants configured, the values
	// the ranks recorded).
	reportOf := map[string]*cost.Report{}
	total := len(points) * cf.reps
	start := time.Now()
	if !cf.refit {
		fmt.Fprintf(stderr, "calibrate: %d points x %d repetitions through %q\n", len(points), cf.reps, cf.launcher)
	}
	if cf.refit {
		total = 0
		if err := storedReports(db, prog, points, configOf, reportOf); err != nil {
			return fail("-refit: %v", err)
		}
		points = nil
	}
	bar := newSweepProgress(stderr, len(points), cf.reps)
	exitNoted := false
	defer bar.finish()
	for _, pt := range points {
		vals := sweep.BuildValues(res.Params, pt.Params)
		key := sweep.Key(vals)
		pc := configOf[pt.String()]
		if pc != nil {
			key = pc.key + ": " + key
		}
		b, seen := builds[key]
		if !seen && buildErr[key] == nil {
			bar.say("calibrate: building %s", key)
			b, err = compileAt(cfg, cs, pc, pt, vals)
			if err != nil {
				buildErr[key] = err
				bar.say("mkvet calibrate: %v", err)
			}
			builds[key] = b
		}
		runParams := floatParams(pt.Params)
		if pc != nil {
			for k, v := range pc.consts {
				if _, ok := runParams[k]; !ok {
					runParams[k] = float64(v)
				}
			}
		}
		for rep := 0; rep < cf.reps; rep++ {
			if b == nil {
				run := &runs.Run{Program: prog.ID, Source: "mkvet", P: pt.P, Rep: rep, Params: runParams,
					Status: runs.StatusFailed, Error: "build failed: " + firstLineOf(buildErr[key].Error()), Command: cf.build}
				if _, err := db.AddRun(run, nil); err != nil {
					return fail("storing a run: %v", err)
				}
				bar.ran(pt, rep, nil)
				continue
			}
			id := fmt.Sprintf("%d.%d", start.Unix(), bar.done+1) // the run about to be recorded
			r := cfg.Run(b, pt, rep, filepath.Join(work, "runs", id), id)
			run := &runs.Run{Program: prog.ID, Source: "mkvet", P: pt.P, Rep: rep, Params: cloned(runParams),
				Status: runs.StatusOK, Wall: r.Wall.Seconds(), Command: cf.launcher, Started: time.Now()}
			if pc != nil {
				run.Command = pc.command + "; " + cf.launcher
			}
			var recs []runs.Record
			if r.Err != nil {
				run.Status = runs.StatusFailed
				run.Error = r.Err.Error()
				if r.Stderr != "" {
					run.Error += "\n" + r.Stderr
				}
			} else {
				recs = storeRecords(run, r.Records)
				if pc != nil {
					reportOf[calib.Point{Params: run.Params, P: run.P}.String()] = pc.report
				}
			}
			if _, err := db.AddRun(run, recs); err != nil {
				return fail("storing a run: %v", err)
			}
			if r.Err == nil {
				// The records are in the database; a failed run's directory
				// stays for inspection.
				os.RemoveAll(r.Dir)
			}
			bar.ran(pt, rep, r)
			if r.Exit != "" && !exitNoted {
				exitNoted = true
				bar.say("mkvet calibrate: note: runs end with %s after every rank wrote its records (the program's own status): kept", r.Exit)
			}
			if r.Err != nil {
				bar.say("mkvet calibrate: run %s rep %d failed: %v", pt, rep+1, r.Err)
				if s := strings.TrimSpace(r.Stderr); s != "" {
					bar.say("%s", indentLines(s, "  | "))
				}
			}
		}
	}
	bar.finish()
	if !cf.refit {
		fmt.Fprintf(stderr, "calibrate: %d runs in %v, %d failed\n", total, time.Since(start).Round(time.Millisecond), bar.failed)
	}
	copt := calib.Options{Threshold: cf.threshold}
	if copt.Memory, err = calibrationMemory(cf.memory, stderr); err != nil {
		return fail("-memory: %v", err)
	}
	switch {
	case cs != nil:
		copt.ReportAt = func(pt calib.Point) *cost.Report { return reportOf[pt.String()] }
		copt.CountsOnly = true
	case pointwise(l.report):
		// Counts the symbolic report cannot give exactly are taken from
		// the program costed at each run's point.
		failed := map[string]bool{}
		copt.ReportAt = func(pt calib.Point) *cost.Report {
			r, err := l.atPoint(pt)
			if err != nil && !failed[pt.String()] {
				failed[pt.String()] = true
				fmt.Fprintf(stderr, "mkvet calibrate: %s: the runs there are left out: the program cannot be costed at their point: %v\n", pt, err)
			}
			return r
		}
	}
	cal, err := fitStored(db, prog, l.report, copt)
	if err != nil {
		return fail("%v", err)
	}
	if err := saveCalibration(db, prog, cal); err != nil {
		return fail("%v", err)
	}
	if cf.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(cal)
		return 0
	}
	overhead := maxOverhead(db, prog)
	printCalibration(stdout, cal, prog, files, overhead)
	return 0
}

func sortedNames(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func floatParams(p map[string]int64) map[string]float64 {
	out := make(map[string]float64, len(p))
	for k, v := range p {
		out[k] = float64(v)
	}
	return out
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func indentLines(s, pre string) string {
	return pre + strings.ReplaceAll(s, "\n", "\n"+pre)
}

// storeRecords converts a run's rank records for the store and sets the
// run's program time (the slowest rank's), overhead share and the values the
// ranks recorded (sizes computed at run time) among its parameters.
func storeRecords(run *runs.Run, recs []instrument.Record) []runs.Record {
	var out []runs.Record
	run.Sched = instrument.Scheduled(recs)
	run.Probe = instrument.SpeedProbe(recs)
	for _, r := range recs {
		if r.Type == instrument.TypeRun {
			run.Seconds = math.Max(run.Seconds, r.Seconds)
			if r.Seconds > 0 {
				run.Overhead = math.Max(run.Overhead, r.Overhead/r.Seconds)
			}
			if r.Rank == 0 {
				for k, v := range r.Params {
					if _, ok := run.Params[k]; !ok {
						run.Params[k] = float64(v)
					}
				}
			}
			continue
		}
		out = append(out, runs.Record{Node: r.Node, Rank: r.Rank, Count: r.Count, Iters: r.Iters, Timed: r.Timed,
			Seconds: r.Seconds, Inclusive: r.Inclusive, Msgs: r.Msgs, Bytes: r.Bytes, RecvMsgs: r.RecvMsgs, RecvBytes: r.RecvBytes})
	}
	return out
}

// calibRuns loads a program's successful runs for fitting.
func calibRuns(db *runs.Store, prog *runs.Program) ([]calib.Run, error) {
	ex, err := db.Load(prog)
	if err != nil {
		return nil, err
	}
	var out []calib.Run
	for _, r := range ex.Runs {
		out = append(out, calib.Run{Params: r.Params, P: r.P, Seconds: r.Seconds, Sched: r.Sched, Probe: r.Probe, Records: ex.Records[r.ID]})
	}
	return out, nil
}

// storedReports finds the runs stored for the points of a sweep (-refit)
// and gives each the report of its point's configuration (configOf; none
// for a program configured by no command, whose one report fits every
// run): a stored run is a point's when it has the point's P, sizes and
// configured constants.
func storedReports(db *runs.Store, prog *runs.Program, points []sweep.Point, configOf map[string]*configured, reportOf map[string]*cost.Report) error {
	stored, err := db.Runs(prog.ID)
	if err != nil {
		return err
	}
	found := 0
	for _, r := range stored {
		if r.Status != runs.StatusOK {
			continue
		}
		for _, pt := range points {
			want := floatParams(pt.Params)
			pc := configOf[pt.String()]
			if pc != nil {
				for k, v := range pc.consts {
					if _, ok := want[k]; !ok {
						want[k] = float64(v)
					}
				}
			}
			match := r.P == pt.P
			for k, v := range want {
				match = match && r.Params[k] == v
			}
			if !match {
				continue
			}
			found++
			if pc != nil {
				reportOf[calib.Point{Params: r.Params, P: r.P}.String()] = pc.report
			}
			break
		}
	}
	if found == 0 {
		return fmt.Errorf("no successful run of %s stored in %s at the points of -runs", prog.Name(), db.Path())
	}
	return nil
}

// fitStored fits the program's stored runs: the sizes of the sweep are the
// parameters; values the ranks recorded (not swept) are left to the report.
func fitStored(db *runs.Store, prog *runs.Program, rep *cost.Report, opt calib.Options) (*calib.Calibration, error) {
	rs, err := calibRuns(db, prog)
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("no successful runs of %s in %s", prog.Name(), db.Path())
	}
	cal, _, err := calib.Calibrate(rep, rs, opt)
	return cal, err
}

// calibrationKey is the models-table row holding the calibration's own data.
const calibrationKey = "*"

func saveCalibration(db *runs.Store, prog *runs.Program, cal *calib.Calibration) error {
	models := map[string]json.RawMessage{}
	for _, n := range cal.Nodes {
		b, err := json.Marshal(n)
		if err != nil {
			return err
		}
		models[n.Node] = b
	}
	head := *cal
	head.Nodes = nil
	b, err := json.Marshal(head)
	if err != nil {
		return err
	}
	models[calibrationKey] = b
	return db.SaveModels(prog.ID, models)
}

func loadCalibration(db *runs.Store, prog *runs.Program) (*calib.Calibration, error) {
	ms, err := db.Models(prog.ID)
	if err != nil {
		return nil, err
	}
	head, ok := ms[calibrationKey]
	if !ok {
		return nil, nil
	}
	var cal calib.Calibration
	if err := json.Unmarshal(head, &cal); err != nil {
		return nil, fmt.Errorf("reading the calibration of %s: %w", prog.Name(), err)
	}
	if cal.Features != calib.Features {
		// Its coefficients are per unit of counts this mkvet no longer
		// computes the same way: predicting with them would be wrong.
		return nil, fmt.Errorf("the calibration of %s in %s was fitted by an mkvet whose counts differ (features version %d, this one's %d): "+
			"run the calibrate command again with -refit, which fits the stored runs without running them", prog.Name(), db.Path(), cal.Features, calib.Features)
	}
	for node, m := range ms {
		if node == calibrationKey {
			continue
		}
		var nm calib.NodeModel
		if err := json.Unmarshal(m, &nm); err != nil {
			return nil, fmt.Errorf("reading the model of %s: %w", node, err)
		}
		cal.Nodes = append(cal.Nodes, &nm)
	}
	sort.SliceStable(cal.Nodes, func(i, j int) bool { return cal.Nodes[i].Mean > cal.Nodes[j].Mean })
	return &cal, nil
}

func maxOverhead(db *runs.Store, prog *runs.Program) float64 {
	rs, err := db.Runs(prog.ID)
	if err != nil {
		return 0
	}
	m := 0.0
	for _, r := range rs {
		if r.Status == runs.StatusOK {
			m = math.Max(m, r.Overhead)
		}
	}
	return m
}

// printCalibration writes the fit report: per node the model, its basis,
// R², SMAPE, cross-validated SMAPE and largest residual; then the program
// time measured and fitted at each run point.
func printCalibration(w io.Writer, cal *calib.Calibration, prog *runs.Program, files []string, overhead float64) {
	fmt.Fprintf(w, "calibration of %s (program %s, %s) from %d runs at %d points\n", strings.Join(files, " "),
		prog.Name(), prog.Hash[:12], cal.Runs, cal.Points)
	if len(cal.Sizes) > 0 {
		fmt.Fprintf(w, "sizes varied: %s (PMNF parameters with P)\n", strings.Join(cal.Sizes, ", "))
	}
	fmt.Fprintf(w, "%-28s %-7s %-6s %9s %7s %7s %7s  %s\n", "node", "kind", "basis", "mean", "R2", "SMAPE", "CV", "model (seconds)")
	var notes []string
	// The nodes that hold the time: a poor fit there moves every
	// prediction (a calibration run disturbed by other load, or a time
	// that does not follow the counts).
	sum := 0.0
	for _, n := range cal.Nodes {
		if n.Op != "init" {
			sum += n.Mean
		}
	}
	for _, n := range cal.Nodes {
		kind := n.Kind
		if n.Op != "" {
			kind = n.Op
		}
		cv := "-"
		if n.Model.CV >= 0 {
			cv = fmt.Sprintf("%.1f%%", 100*n.Model.CV)
		}
		name := n.Node
		if n.Approx != "" {
			name += " ~"
			notes = append(notes, n.Node+": its counts are approximate ("+n.Approx+")")
		}
		fmt.Fprintf(w, "%-28s %-7s %-6s %9s %7.4f %6.1f%% %7s  %s\n", name, kind, n.Basis, fmtSeconds(n.Mean),
			n.Model.R2, 100*n.Model.SMAPE, cv, n.Model)
		if n.Op == "init" {
			notes = append(notes, n.Node+": MPI_INIT, left out of the program time")
		} else if n.Mean >= 0.1*sum && n.Model.SMAPE > 0.1 {
			notes = append(notes, fmt.Sprintf("%s: %.0f%% of the time, fits its own runs poorly (SMAPE %.1f%%): a disturbed run "+
				"or a time that does not follow the counts; predictions rest on it: recalibrate with more -reps", n.Node, 100*n.Mean/sum, 100*n.Model.SMAPE))
		}
		if n.Why != "" {
			notes = append(notes, n.Node+": "+n.Why)
		}
	}
	for _, p := range cal.SlowPoints {
		notes = append(notes, "point "+p+": every repetition met a slow spell of the machine (its speed probe ran over "+
			fmt.Sprintf("%.2g", calib.SlowFactor)+" times the fastest); left out of the fit")
	}
	for _, s := range notes {
		fmt.Fprintf(w, "note: %s\n", s)
	}
	fmt.Fprintln(w, "program time on the slowest rank (MPI_INIT to MPI_FINALIZE), median of repetitions:")
	fmt.Fprintf(w, "  %-36s %12s %12s %8s\n", "point", "measured", "fitted", "error")
	for _, c := range cal.Fitted {
		e := 0.0
		if c.Measured > 0 {
			e = 100 * (c.Predicted - c.Measured) / c.Measured
		}
		fmt.Fprintf(w, "  %-36s %12s %12s %+7.1f%%\n", c.Point, fmtSeconds(c.Measured), fmtSeconds(c.Predicted), e)
	}
	fmt.Fprintf(w, "probe overhead: about %.2f%% of a run's program time (each rank's timer probes times the cost of a timer "+
		"pair it measured at its end; counters add little)\n", 100*overhead)
	printReached(w, cal)
}

// printReached says which memory levels the calibrated loops ran from: a
// prediction whose working set leaves them is estimated (or flagged).
func printReached(w io.Writer, cal *calib.Calibration) {
	m := cal.Memory
	if m == nil {
		fmt.Fprintln(w, "memory levels: not recorded (-memory off): working sets are not checked")
		return
	}
	deepest, fp, unknown := 0, 0.0, 0
	for _, n := range cal.Nodes {
		if n.Level > deepest || n.Level == deepest && n.Footprint > fp {
			deepest, fp = n.Level, n.Footprint
		}
		if n.FootprintUnknown != "" {
			unknown++
		}
	}
	var levels []string
	for _, l := range m.Levels {
		if l.Size > 0 {
			levels = append(levels, fmt.Sprintf("%s %s", l.Name, fmtBytes(float64(l.Size))))
		}
	}
	how := "streaming times measured: predictions beyond the levels reached are estimated"
	if !m.Measured() {
		how = "no streaming times: predictions beyond the levels reached are flagged, not estimated"
	}
	if deepest > 0 {
		fmt.Fprintf(w, "memory levels: the loops ran from %s at most (largest working set %s per process); %s; %s\n",
			m.Levels[deepest-1].Name, fmtBytes(fp), strings.Join(levels, ", "), how)
	}
	if unknown > 0 {
		fmt.Fprintf(w, "memory levels: %d nodes have a loop whose working set is unknown (-json: footprint_unknown)\n", unknown)
	}
	if deepest == 0 && unknown == 0 {
		fmt.Fprintln(w, "memory levels: no calibrated node has a loop over arrays")
	}
}

// openProgram opens the database and finds the program version of files
// (its content hash), or the one labelled label.
func openProgram(path, label string, files []string) (*runs.Store, *runs.Program, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nil, fmt.Errorf("no runs database %s (run mkvet calibrate first): %w", path, err)
	}
	db, err := runs.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if label != "" {
		p, err := db.FindProgram(label)
		if err != nil {
			db.Close()
			return nil, nil, err
		}
		return db, p, nil
	}
	hash, err := runs.HashFiles(files)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	ps, err := db.Programs()
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	for _, p := range ps {
		if p.Hash == hash {
			return db, p, nil
		}
	}
	db.Close()
	return nil, nil, fmt.Errorf("%s holds no runs of this version of %s (changed since calibrating? use -label)", path, strings.Join(files, " "))
}

// calibrationMemory is the memory hierarchy of calibrate -memory HOW:
// measured after the runs (the machine as they had it), read from a
// membench -json file, the levels alone, or none. A benchmark that cannot
// be built or run leaves the levels alone, said on stderr: working sets
// are then flagged, not estimated.
func calibrationMemory(how string, stderr io.Writer) (*model.Memory, error) {
	switch how {
	case "off":
		return nil, nil
	case "levels":
		m, err := model.ReadCaches(os.DirFS(cpuTree))
		if err != nil {
			fmt.Fprintf(stderr, "calibrate: no memory hierarchy (%v): working sets are not checked\n", err)
			return nil, nil
		}
		return m, nil
	case "auto":
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		node, err := membench.Measure(ctx, membench.Options{Compiler: []string{"cc"}})
		if err == nil {
			return node.Memory, nil
		}
		levels, lerr := model.ReadCaches(os.DirFS(cpuTree))
		if lerr != nil {
			fmt.Fprintf(stderr, "calibrate: no memory hierarchy (%v): working sets are not checked\n", err)
			return nil, nil
		}
		fmt.Fprintf(stderr, "calibrate: memory levels without streaming times (%v): working sets beyond the levels calibrated are flagged, not estimated\n", err)
		return levels, nil
	}
	b, err := os.ReadFile(how)
	if err != nil {
		return nil, err
	}
	return model.ReadMemoryJSON(how, b)
}
