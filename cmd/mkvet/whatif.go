package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/model/phase"
	"github.com/mkvet/mkvet/model/whatif"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval"
)

func init() {
	register(&command{
		name: "whatif",
		usage: "[-D name=value,...] [-P 1,2,4..4096] [-machine NAME|FILE] [-set L=5us,o=1us,...] [-unit NODE=TIME] " +
			"[-leading] [-omit TERM,...] [-balance] [-compare OTHER] [-grain K=1..256] [-constant-time T] [-size N] " +
			"[-series N=v1,v2,...] [-format table|csv|json] [-plot FILE.svg|.png] [-plot-kind time|speedup|efficiency] " +
			"[-phases] [-runs DB [-label NAME]] [-configure CMD] [-define MACRO] [-I dir] FILE... | " +
			"-trace FILE.mkt [-zero NODE,...] [-balance [-region NODE]] [-domino] [-bounds] [-machine M] [-format table|json]",
		short: "predict time, speedup and scalability over process counts from the source alone; PerWiz what-ifs on a trace (-trace)",
		order: 9,
		run:   runWhatif,
	})
}

// whatifFlags are the flags of mkvet whatif.
type whatifFlags struct {
	progFlags
	machine string
	argvs   []string          // -args split
	environ map[string]string // -env

	procs, set, unit, omit, compare, grain, constTime, size, series string
	format, plot, plotKind                                          string
	balance, leading, phases                                        bool
	runs, label                                                     string
	// With -trace: PerWiz's what-ifs over an event trace.
	trace, zero, region string
	domino, bounds      bool
}

func (wf *whatifFlags) register(fs *flag.FlagSet) {
	wf.progFlags.register(fs, "set `name=value` (repeatable, or comma-separated): problem sizes and other parameters; "+
		"a value may use P (px=sqrt(P)); parameters with a default take it")
	wf.progFlags.registerConfigure(fs, "before each process count's evaluation")
	fs.StringVar(&wf.machine, "machine", "", "machine profile `NAME|FILE` (default "+model.DefaultName+"; embedded: "+
		strings.Join(model.Names(), ", ")+")")
	fs.StringVar(&wf.procs, "P", "1..1024", "process counts: `sweep` of values, lo..hi (doubling), lo..hi:*k, lo..hi:+d")
	fs.StringVar(&wf.set, "set", "", "change profile parameters: `name=value,...` (L, o, g, G, S, t_s, t_c, flop, add, mul, div, "+
		"intrinsic, load, store; a work unit in loops that are vector, scalar, a chain, complex; model), with units (5us, 0.1ns/B, 10GB/s, 16KiB)")
	fs.StringVar(&wf.unit, "unit", "", "state the work unit: `NODE=TIME`, one iteration of loop NODE (an APT ID such as "+
		"trap_mod/trap/L1) takes TIME; other work scales by its ratio of operations")
	fs.BoolVar(&wf.leading, "leading", false, "keep only the leading-order terms of the work as the sizes grow (Pacheco drops k3)")
	fs.StringVar(&wf.omit, "omit", "", "leave out terms: `names or kinds` (compute, comm, io), comma-separated")
	fs.BoolVar(&wf.balance, "balance", false, "replace each rank's work by the mean over ranks (perfect load balance)")
	fs.StringVar(&wf.compare, "compare", "", "compare with another program `FILE` (same flags): crossing points")
	fs.StringVar(&wf.grain, "grain", "", "optimal grain: `K=lo..hi`, the value of parameter K that minimises T (dT/dK = 0) at each P")
	fs.StringVar(&wf.constTime, "constant-time", "", "constant-time curve: the problem size that takes `TIME` (10ms) at each P")
	fs.StringVar(&wf.size, "size", "", "the problem-size parameter `N` that isospeed and -constant-time scale (default: the first that the time depends on)")
	fs.StringVar(&wf.series, "series", "", "one table and one plot curve per value: `N=v1,v2,...`")
	fs.StringVar(&wf.format, "format", "table", "output `format`: table, csv or json")
	fs.StringVar(&wf.plot, "plot", "", "draw the sweep to `FILE` (.svg or .png)")
	fs.StringVar(&wf.plotKind, "plot-kind", "speedup", "what -plot draws against P: `time`, speedup or efficiency")
	fs.BoolVar(&wf.phases, "phases", false, "also print the communication phases found")
	fs.StringVar(&wf.runs, "runs", "", "predict from the calibration in the runs database `FILE` (mkvet calibrate) "+
		"instead of the machine profile: measured seconds per node, joined to the static counts")
	fs.StringVar(&wf.label, "label", "", "with -runs: the program version labelled `NAME` (default: the version of FILE's contents)")
	fs.StringVar(&wf.trace, "trace", "", "what-ifs over the event trace `FILE.mkt` (measured, mkvet trace import, or predicted, mkvet trace predict) "+
		"by LogGPS replay (PerWiz): -zero, -balance [-region], -domino, -bounds; all of them when none is given")
	fs.StringVar(&wf.zero, "zero", "", "with -trace: zero the waiting time of the MPI calls at APT `NODE,...` (PerWiz F2)")
	fs.StringVar(&wf.region, "region", "", "with -trace -balance: balance each parallel step of region `NODE` (a timed routine or loop nest) instead of the whole run")
	fs.BoolVar(&wf.domino, "domino", false, "with -trace: the domino path that ends the run and the wait whose removal gains most (PerWiz F1)")
	fs.BoolVar(&wf.bounds, "bounds", false, "with -trace: lower bounds on the completion time (PerWiz F3)")
}

// usageError is a problem with the command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// whatifRun holds one program's analysis and model.
type whatifRun struct {
	file     string
	analysis *phase.Analysis
	model    whatif.Model
	terms    []phase.Term
	env      map[string]float64 // constant parameter values
	exprs    map[string]symbolic.Expr
	unitNote string
	// points, when set, holds one model per process count of the sweep,
	// each from an evaluation at that P (perP).
	points []*pointModel
	why    string // why the models are per P
}

// pointModel is the model of one process count from an evaluation at it.
type pointModel struct {
	p int64
	// modelled says the evaluation at this P gave a model. The analysis
	// itself is not kept: a sweep's evaluations at large P are hundreds
	// of megabytes each, and only the first one's details are printed
	// (whatifRun.analysis).
	modelled bool
	model    whatif.Model
	terms    []phase.Term
	stopped  *symeval.Stopped
	// stopCheck, when the program stops at this P, is the comparison of the
	// process count with a named constant that stops it (nil when the
	// check compares something else).
	stopCheck *compiledCheck
	// decks, when the program stops at this P, are the input files the
	// evaluation read values from before it stopped, with the records
	// read (input:1-4): where a process grid comes from a deck rather
	// than from the build.
	decks []string
	// unconfigured is why -configure could not configure the program at
	// this P: the first line of the command's error output.
	unconfigured string
	// incomplete is why the evaluation at this P gives no time: counts
	// without a value within the analysis's limits (phase.IncompleteError).
	incomplete string
	// env holds the values of the parameters at this P: those given, and
	// the defaults of the others (a branch frequency's neutral 50%).
	env map[string]float64
	// defaulted are the parameters that took their default.
	defaulted []defaultedValue
}

func runWhatif(args []string, stdout, stderr io.Writer) int {
	c := lookup("whatif")
	fs := newFlagSet(c, stderr)
	var wf whatifFlags
	wf.register(fs)
	files, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "mkvet whatif: %v\n", err)
		return 2
	}
	if wf.trace != "" {
		if len(files) > 0 {
			return fail(usagef("-trace takes the trace alone, not %s", strings.Join(files, " ")))
		}
		return wf.fromTrace(stdout, stderr)
	}
	if len(files) == 0 {
		fs.Usage()
		return fail(errors.New("no input files"))
	}
	switch wf.format {
	case "table", "csv", "json":
	default:
		return fail(usagef("-format must be table, csv or json, not %q", wf.format))
	}
	argvs, aerr := wf.argv()
	if aerr != nil {
		return fail(usagef("%v", aerr))
	}
	wf.argvs = argvs
	if wf.environ, aerr = wf.progFlags.environ(); aerr != nil {
		return fail(usagef("%v", aerr))
	}
	ps, err := whatif.ParseSweep(wf.procs)
	if err != nil {
		return fail(usagef("-P %s: %v", wf.procs, err))
	}
	if len(ps) == 0 || ps[0] < 1 {
		return fail(usagef("-P %s: process counts start at 1", wf.procs))
	}
	kind := whatif.Speedup
	switch wf.plotKind {
	case "time":
		kind = whatif.Time
	case "speedup":
	case "efficiency":
		kind = whatif.Efficiency
	default:
		return fail(usagef("-plot-kind must be time, speedup or efficiency, not %q", wf.plotKind))
	}
	if wf.plot != "" {
		// Checked before the sweep, which may take minutes.
		if _, err := whatif.PlotFormat(wf.plot); err != nil {
			return fail(usagef("-plot: %v", strings.TrimPrefix(err.Error(), "whatif: ")))
		}
	}

	if wf.runs != "" {
		return wf.calibrated(files, ps, kind, stdout, stderr)
	}
	prof, err := model.Load(wf.machine)
	if err != nil {
		return fail(fmt.Errorf("-machine: %w", err))
	}
	if wf.set != "" {
		if err := setProfile(prof, wf.set); err != nil {
			return fail(err)
		}
	}
	run, err := wf.build(files, prof, ps, stderr)
	if err != nil {
		return fail(err)
	}
	var other *whatifRun
	if wf.compare != "" {
		if other, err = wf.build([]string{wf.compare}, prof, ps, stderr); err != nil {
			return fail(fmt.Errorf("-compare %s: %w", wf.compare, err))
		}
	}
	var out *whatifOutput
	if run.points != nil {
		out, err = wf.evaluatePerP(run, prof, ps)
	} else {
		out, err = wf.evaluate(run, other, prof, ps)
	}
	if err != nil {
		return fail(err)
	}
	if err := wf.emit(out, kind, run.analysis, stdout); err != nil {
		return fail(err)
	}
	return 0
}

// emit writes out in the chosen format, and the plot when asked.
func (wf *whatifFlags) emit(out *whatifOutput, kind whatif.PlotKind, analysis *phase.Analysis, stdout io.Writer) error {
	switch wf.format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			return err
		}
	case "csv":
		writeWhatifCSV(stdout, out)
	default:
		writeWhatifTable(stdout, out)
		if wf.phases && analysis != nil {
			fmt.Fprintln(stdout)
			fmt.Fprintln(stdout, "phases:")
			var b strings.Builder
			analysis.Print(&b)
			fmt.Fprint(stdout, indentText(b.String(), "  "))
		}
	}
	if wf.plot != "" {
		var series []whatif.Series
		for _, t := range out.Tables {
			series = append(series, whatif.Series{Label: t.Label, Rows: t.rows})
		}
		if err := whatif.Plot(kind, series, wf.plot); err != nil {
			return err
		}
		if wf.format == "table" {
			fmt.Fprintf(stdout, "\nwrote %s (%s against P)\n", wf.plot, kind)
		}
	}
	return nil
}

func indentText(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pre + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// build parses, analyses and models one program.
func (wf *whatifFlags) build(files []string, prof *model.Profile, ps []int64, stderr io.Writer) (*whatifRun, error) {
	cfg, _, err := frontendConfig(wf.form, wf.incs, wf.macros, wf.cpp)
	if err != nil {
		return nil, usagef("%v", err)
	}
	assume, src, err := readAssumes(wf.assumes)
	if err != nil {
		var pe *symbolic.ParseError
		if errors.As(err, &pe) {
			return nil, usagef("-assume:1:%d: %s", pe.Col, pe.Msg)
		}
		return nil, usagef("-assume %s: %v", src, err)
	}
	at, names, err := parseDefs(wf.defs)
	if err != nil {
		return nil, usagef("%v", err)
	}
	exprs := map[string]symbolic.Expr{}
	for _, n := range names {
		s := symbolName(n)
		if s == cost.Size {
			fmt.Fprintf(stderr, "mkvet whatif: note: -D %s ignored: the process count is swept by -P\n", n)
			continue
		}
		if s == cost.Rank {
			return nil, usagef("-D %s: the rank is not a parameter; the model takes the maximum over ranks", n)
		}
		e, err := renameSymbols(at[n])
		if err != nil {
			return nil, usagef("-D %s: %v", n, err)
		}
		for _, sym := range e.Symbols() {
			if sym != cost.Size {
				return nil, usagef("-D %s=%s: a value may use P but not %s", n, at[n], sym)
			}
		}
		exprs[s] = e
	}
	seriesName, seriesTexts, _, err := wf.seriesOf()
	if err != nil {
		return nil, err
	}
	if seriesName != "" {
		exprs[seriesName] = symbolic.Int(0) // set per table
	}

	if wf.configure != "" {
		return wf.buildConfigured(files, cfg, prof, ps, exprs, assume, stderr)
	}
	prog, diags := parseProgram(files, cfg)
	if err := sourceErrors(diags, files, stderr); err != nil {
		return nil, err
	}
	sampleEnv := maps(exprs)
	if seriesName != "" {
		v, err := symbolic.Parse(seriesTexts[0])
		if err != nil {
			return nil, usagef("-series %s: %v", wf.series, err)
		}
		sampleEnv[seriesName] = v
	}
	if cost.LargeProgram(prog) {
		// A whole application: its values come from P through the
		// program's own computations, evaluated at each P.
		return wf.buildPerP(fixedProgram(prog), files, prof, ps, exprs, assume,
			"a whole application is evaluated at each process count: what it computes from P (process grids, block sizes) is then exact")
	}
	if checks := compiledChecks(prog); len(checks) > 0 && seriesName == "" && wf.perPFlags(files, "") == nil {
		// A build for one process count: a closed form in P would mix
		// its compiled values with every P (and be zero where the
		// program stops); at each P the program's own checks decide.
		return wf.buildPerP(fixedProgram(prog), files, prof, ps, exprs, assume,
			fmt.Sprintf("%s, so the build may be for one process count, and its own checks decide where it runs", checks[0].describe()))
	}
	a, err := phase.Analyze(prog, phase.Options{Cost: cost.Options{Entry: wf.entry, Assume: assume, Args: wf.argvs, Env: wf.environ, Dir: wf.progFlags.dir, Stdin: wf.progFlags.stdin}, Env: sampleEnv})
	var nse *phase.NoSampleError
	if errors.As(err, &nse) && nse.Parallel && seriesName == "" && wf.perPFlags(files, "") == nil {
		// The closed forms lack values at every sampled P: the
		// program derives them from P, which each process count gives.
		return wf.buildPerP(fixedProgram(prog), files, prof, ps, exprs, assume,
			"values the closed forms need are derived at each process count: "+err.Error())
	}
	var mve *phase.MissingValuesError
	if errors.As(err, &mve) && mve.Parallel && seriesName == "" && wf.perPFlags(files, "") == nil {
		// Values without a closed form may be ones the program derives
		// from P (a process grid): at each process count they are known.
		if run, perr := wf.buildPerP(fixedProgram(prog), files, prof, ps, exprs, assume,
			"values without a closed form in P (a process grid) are derived at each process count"); perr == nil {
			return run, nil
		}
	}
	if err == nil && a.Report.Eval != nil && a.Report.Eval.StopsOnP && seriesName == "" && wf.perPFlags(files, "") == nil {
		// The closed forms hold only where the program's checks on P
		// pass (zero elsewhere): at each P the checks decide.
		return wf.buildPerP(fixedProgram(prog), files, prof, ps, exprs, assume,
			"the program stops through its own checks at some process counts, so at each P they decide where it runs")
	}
	if err != nil {
		return nil, err
	}
	r := &whatifRun{file: strings.Join(files, " "), analysis: a, exprs: exprs, env: map[string]float64{}}
	if err := r.checkParams(wf); err != nil && a.Report.Parallel && seriesName == "" {
		// Values the symbolic evaluation cannot derive may come from P
		// at each process count.
		run, perr := wf.buildPerP(fixedProgram(prog), files, prof, ps, exprs, assume,
			"values the closed forms need are derived at each process count: "+err.Error())
		if perr == nil {
			return run, nil
		}
		return nil, err
	}
	known := map[string]bool{}
	for _, p := range a.Report.Params {
		known[p.Name] = true
	}
	var unknown []string
	for name := range exprs {
		if !known[name] {
			unknown = append(unknown, name)
			delete(exprs, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		fmt.Fprintf(stderr, "mkvet whatif: note: -D %s: not a parameter of %s; ignored\n", strings.Join(unknown, ", "), strings.Join(files, " "))
	}
	mopt := phase.ModelOptions{Profile: prof, Balance: wf.balance, Leading: wf.leading}
	if wf.unit != "" {
		node, t, ok := strings.Cut(wf.unit, "=")
		if !ok {
			return nil, usagef("-unit %q: want NODE=TIME, e.g. trap_mod/trap/L1=22.3us", wf.unit)
		}
		d, err := model.ParseDuration(strings.TrimSpace(t))
		if err != nil {
			return nil, usagef("-unit:1:%d: %v", len(node)+2, err)
		}
		u, err := a.UnitTime(strings.TrimSpace(node), d)
		if err != nil {
			return nil, usagef("-unit %s: %v", wf.unit, err)
		}
		mopt.UnitTime = u
		r.unitNote = fmt.Sprintf("one iteration of %s takes %s: %s per operation unit", strings.TrimSpace(node), model.FormatDuration(d), model.FormatDuration(u))
	}
	m, terms, err := a.Model(mopt)
	var inc *phase.IncompleteError
	if errors.As(err, &inc) && a.Report.Parallel && seriesName == "" && wf.perPFlags(files, "") == nil {
		// Counts without a closed form in P have one at each process
		// count.
		return wf.buildPerP(fixedProgram(prog), files, prof, ps, exprs, assume,
			"counts without a closed form in P are evaluated at each process count: "+err.Error())
	}
	if err != nil {
		return nil, err
	}
	// Omitted terms.
	if wf.omit != "" {
		drop := map[string]bool{}
		for _, o := range strings.Split(wf.omit, ",") {
			drop[strings.TrimSpace(o)] = true
		}
		var keepT []phase.Term
		var keepM []whatif.Term
		for i, t := range terms {
			if drop[t.Name] || drop[t.Kind.String()] {
				delete(drop, t.Name)
				continue
			}
			keepT, keepM = append(keepT, t), append(keepM, m.Terms[i])
		}
		for _, t := range terms {
			delete(drop, t.Kind.String())
		}
		for k := range drop {
			if k != "compute" && k != "comm" && k != "io" {
				return nil, usagef("-omit %s: no such term (the terms: %s)", k, termNames(terms))
			}
		}
		terms, m.Terms = keepT, keepM
	}
	if len(m.Terms) == 0 {
		return nil, usagef("-omit leaves no term")
	}
	// Values that depend on P enter the closed forms; the others are numbers.
	sub := map[string]symbolic.Expr{}
	for name, e := range exprs {
		if e.Has(cost.Size) {
			sub[name] = e
			continue
		}
		if c, ok := e.Const(); ok {
			r.env[name] = c.Float64()
			continue
		}
		f, err := e.EvalFloat(nil)
		if err != nil {
			return nil, usagef("-D %s: %v", name, err)
		}
		r.env[name] = f
	}
	for i := range terms {
		if len(sub) > 0 {
			t, err := substPW(terms[i].T, sub)
			if err != nil {
				return nil, fmt.Errorf("term %s: %w", terms[i].Name, err)
			}
			terms[i].T, m.Terms[i].T = t, t
		}
	}
	r.model, r.terms = m, terms
	return r, nil
}

func termNames(ts []phase.Term) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return strings.Join(out, ", ")
}

func maps(m map[string]symbolic.Expr) map[string]symbolic.Expr {
	out := make(map[string]symbolic.Expr, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// checkParams fills parameter defaults and refuses a program with a
// parameter that has neither a value nor a default.
func (r *whatifRun) checkParams(wf *whatifFlags) error {
	rep := r.analysis.Report
	var missing []string
	for _, p := range rep.Params {
		if _, ok := r.exprs[p.Name]; ok {
			continue
		}
		if p.Default == nil {
			missing = append(missing, fmt.Sprintf("%s (%s, %s)", p.Name, p.What, p.Pos))
			continue
		}
		r.exprs[p.Name] = *p.Default
	}
	if len(missing) > 0 {
		names := make([]string, len(missing))
		for i, m := range missing {
			names[i], _, _ = strings.Cut(m, " ")
		}
		return usagef("no value for %s; give %s", strings.Join(missing, "; "), defsHint(names))
	}
	// Defaults may refer to other parameters.
	for name, e := range r.exprs {
		if len(e.Symbols()) > 0 && !(len(e.Symbols()) == 1 && e.Has(cost.Size)) {
			v, err := e.Subst(r.exprs)
			if err == nil {
				r.exprs[name] = v
			}
		}
	}
	return nil
}

func substPW(pw symbolic.Piecewise, sub map[string]symbolic.Expr) (symbolic.Piecewise, error) {
	var out symbolic.Piecewise
	for _, p := range pw.Pieces {
		v, err := p.Value.Subst(sub)
		if err != nil {
			return out, err
		}
		q := symbolic.Piece{Value: v}
		for _, g := range p.Guard {
			e, err := g.E.Subst(sub)
			if err != nil {
				return out, err
			}
			q.Guard = append(q.Guard, symbolic.Relation{E: e, Op: g.Op})
		}
		out.Pieces = append(out.Pieces, q)
	}
	return out, nil
}
