package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
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
	a, err := phase.Analyze(prog, phase.Options{Cost: cost.Options{Entry: wf.entry, Assume: assume, Args: wf.argvs, Env: wf.environ, Dir: wf.progFlags.dir}, Env: sampleEnv})
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

// setProfile applies -set name=value,... to the profile's selected model
// and operation costs.
func setProfile(p *model.Profile, spec string) error {
	col := 1
	for _, item := range strings.Split(spec, ",") {
		name, val, ok := strings.Cut(item, "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		bad := func(format string, args ...any) error {
			return usagef("-set:1:%d: "+format, append([]any{col}, args...)...)
		}
		if !ok || name == "" {
			return bad("want name=value, found %q", item)
		}
		dur := func() (symbolic.Rat, error) {
			d, err := model.ParseDuration(val)
			if err != nil {
				return d, bad("%s: %v", name, err)
			}
			return d, nil
		}
		perByte := func() (symbolic.Rat, error) {
			d, err := model.ParsePerByte(val)
			if err != nil {
				return d, bad("%s: %v", name, err)
			}
			return d, nil
		}
		if name == "model" {
			p.Model = val
			if _, err := p.Network(); err != nil {
				return bad("%v", err)
			}
			col += len(item) + 1
			continue
		}
		ops := map[string]*symbolic.Rat{"flop": &p.Ops.Flop, "add": &p.Ops.Add, "mul": &p.Ops.Mul, "div": &p.Ops.Div,
			"intrinsic": &p.Ops.Intrinsic, "load": &p.Ops.Load, "store": &p.Ops.Store,
			"vector": &p.Ops.Vector, "scalar": &p.Ops.Scalar, "chain": &p.Ops.Chain, "complex": &p.Ops.Complex}
		if f, ok := ops[name]; ok {
			d, err := dur()
			if err != nil {
				return err
			}
			if old := p.Ops.Resolved().Add; (name == "add" || name == "flop" && p.Ops.Add.IsZero()) && old.Sign() > 0 {
				// A faster or slower add is a faster or slower
				// processor: its loops' work units scale with it.
				for _, k := range []*symbolic.Rat{&p.Ops.Vector, &p.Ops.Scalar, &p.Ops.Chain, &p.Ops.Complex} {
					*k = k.Mul(d).Quo(old)
				}
			}
			*f = d
			col += len(item) + 1
			continue
		}
		net, err := p.Network()
		if err != nil {
			return bad("%v", err)
		}
		known := ""
		var set error
		switch n := net.(type) {
		case model.Hockney:
			known = "t_s, t_c"
			switch name {
			case "t_s", "ts":
				n.Ts, set = dur()
			case "t_c", "tc":
				n.Tc, set = perByte()
			default:
				known = "!" + known
			}
			*p.Hockney = n
		case model.LogP:
			known = "L, o, g"
			switch name {
			case "L":
				n.L, set = dur()
			case "o":
				n.O, set = dur()
			case "g":
				n.Gap, set = dur()
			default:
				known = "!" + known
			}
			*p.LogP = n
		case model.LogGP:
			known = "L, o, g, G (o and G for every size regime)"
			switch name {
			case "L":
				n.L, set = dur()
			case "g":
				n.Gap, set = dur()
			case "o", "G":
				n.Regimes = slices.Clone(n.Regimes)
				var v symbolic.Rat
				if name == "o" {
					v, set = dur()
				} else {
					v, set = perByte()
				}
				for i := range n.Regimes {
					if name == "o" {
						n.Regimes[i].O = v
					} else {
						n.Regimes[i].G = v
					}
				}
				if name == "o" {
					n.Rendezvous.OCtrl, n.Rendezvous.OData = v, v
				} else {
					n.Rendezvous.G = v
				}
			default:
				known = "!" + known
			}
			*p.LogGP = n
		case model.LogGPS:
			known = "L, o, g, G, S"
			switch name {
			case "L":
				n.L, set = dur()
			case "o":
				n.O, set = dur()
			case "g":
				n.Gap, set = dur()
			case "G":
				n.G, set = perByte()
			case "S":
				n.S, set = model.ParseBytes(val)
				if set != nil {
					set = bad("S: %v", set)
				}
			default:
				known = "!" + known
			}
			*p.LogGPS = n
		}
		if set != nil {
			return set
		}
		if strings.HasPrefix(known, "!") {
			return bad("%s is not a parameter of the %s model (%s) nor an operation cost (flop, add, mul, div, intrinsic, load, store, vector, scalar, chain, complex)",
				name, modelName(net), known[1:])
		}
		col += len(item) + 1
	}
	return nil
}

func modelName(net model.PointToPoint) string {
	switch net.(type) {
	case model.Hockney:
		return "Hockney"
	case model.LogP:
		return "LogP"
	case model.LogGP:
		return "LogGP"
	case model.LogGPS:
		return "LogGPS"
	}
	return fmt.Sprintf("%T", net)
}

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

// seriesOf reads -series N=v1,v2,...: the report symbol of N, and each
// value as written and as a number. name is "" without -series.
func (wf *whatifFlags) seriesOf() (name string, texts []string, vals []float64, err error) {
	if wf.series == "" {
		return "", nil, nil, nil
	}
	n, list, ok := strings.Cut(wf.series, "=")
	if !ok || strings.TrimSpace(n) == "" {
		return "", nil, nil, usagef("-series %s: want N=v1,v2,...", wf.series)
	}
	for _, v := range strings.Split(list, ",") {
		v = strings.TrimSpace(v)
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return "", nil, nil, usagef("-series %s: %q is not a number", wf.series, v)
		}
		texts, vals = append(texts, v), append(vals, x)
	}
	return symbolName(strings.TrimSpace(n)), texts, vals, nil
}

// seriesParam is how the tables' header shows the -series parameter.
func seriesParam(texts []string) string { return strings.Join(texts, ",") + " (one table each)" }

// evaluate computes the tables and the requested analyses.
func (wf *whatifFlags) evaluate(run, other *whatifRun, prof *model.Profile, ps []int64) (*whatifOutput, error) {
	net, _ := prof.Network()
	out := &whatifOutput{Version: 1, File: run.file, Machine: prof.Name, Network: modelName(net), Unit: run.unitNote,
		Params: map[string]string{}, Notes: []string{}}
	for k, e := range run.exprs {
		out.Params[k] = e.String()
	}
	seriesName, seriesTexts, seriesVals, err := wf.seriesOf()
	if err != nil {
		return nil, err
	}
	if seriesName != "" {
		out.Params[seriesName] = seriesParam(seriesTexts)
	}
	for _, t := range run.terms {
		out.Terms = append(out.Terms, termJSON{Name: t.Name, Kind: t.Kind.String(), ClosedForm: t.T.String(), How: t.How})
		if t.Max != nil && t.Max.Method == phase.Approx {
			out.Notes = append(out.Notes, fmt.Sprintf("%s: the maximum over ranks is %s", t.Name, t.Max.Note))
		}
	}
	for _, g := range run.analysis.Phases {
		if g.FanInNote != "" {
			out.Notes = append(out.Notes, fmt.Sprintf("%s at %s: %s", g.Name, g.Pos(), g.FanInNote))
		}
	}
	out.Notes = append(out.Notes, run.analysis.Notes...)
	for _, s := range run.analysis.Unmatched {
		out.Notes = append(out.Notes, fmt.Sprintf("%s at %s matches no other call; it is not costed", s, s.Pos()))
	}

	// The tables: one, or one per -series value.
	type point struct {
		label string
		env   map[string]float64
	}
	points := []point{{label: "", env: run.env}}
	if seriesName != "" {
		points = nil
		for i, x := range seriesVals {
			env := maps2(run.env)
			env[seriesName] = x
			points = append(points, point{label: seriesName + "=" + seriesTexts[i], env: env})
		}
	}
	size := symbolName(wf.size)
	if wf.size == "" {
		size = defaultSize(run)
	} else if _, ok := run.env[size]; !ok {
		return nil, usagef("-size %s: not a parameter with a value (give -D %s=...)", wf.size, wf.size)
	}
	out.Size = size
	f, err := run.model.Compile()
	if err != nil {
		return nil, err
	}
	for _, pt := range points {
		rows, err := f.Table(pt.env, ps)
		if err != nil {
			return nil, err
		}
		label := pt.label
		if label == "" {
			label = strings.TrimSuffix(baseName(run.file), ".f")
		}
		t := &tableJSON{Label: label, rows: rows}
		work, werr := serialWork(run.model, pt.env, size)
		var reach *isoCheck
		if werr == nil {
			reach, werr = newIsoCheck(f, work, size, pt.env)
		}
		for i, r := range rows {
			rj := rowOf(run.model, r)
			if i > 0 && size != "" && werr == nil && reach.reachable(rows[i-1].P, r.P) {
				psi, n2, err := whatif.Isospeed(work, run.model, size, pt.env, rows[i-1].P, r.P)
				// A size beyond 2^40 times the given one means the speed
				// cannot be kept (from P = 1, which has no overhead).
				if err == nil && n2 < pt.env[size]*0x1p40 {
					rj.Psi, rj.Scaled = &psi, &n2
				}
			}
			t.Rows = append(t.Rows, rj)
		}
		if werr != nil && size != "" {
			out.Notes = append(out.Notes, fmt.Sprintf("no isospeed: %v", werr))
		}
		out.Tables = append(out.Tables, t)
	}

	env := points[0].env
	if other != nil {
		cx, err := whatif.Compare(run.model, other.model, mergeEnv(env, other.env), ps)
		if err != nil {
			return nil, err
		}
		cj := &compareJSON{Other: other.file, Crossings: []crossingJSON{}}
		orows, err := whatif.Table(other.model, mergeEnv(env, other.env), ps)
		if err != nil {
			return nil, fmt.Errorf("-compare: %w", err)
		}
		cj.rows = orows
		for _, r := range orows {
			cj.Rows = append(cj.Rows, rowOf(other.model, r))
		}
		for _, c := range cx {
			cj.Crossings = append(cj.Crossings, crossingJSON{From: c.From, To: c.To, Before: variantName(c.Before, run, other),
				After: variantName(c.After, run, other), At: c.At})
		}
		out.Compare = cj
	}
	if wf.grain != "" {
		name, rng, ok := strings.Cut(wf.grain, "=")
		if !ok {
			return nil, usagef("-grain %q: want K=lo..hi", wf.grain)
		}
		k := symbolName(strings.TrimSpace(name))
		lo, hi, err := whatif.ParseRange(rng)
		if err != nil {
			return nil, usagef("-grain %s: %v", wf.grain, err)
		}
		gm := GrainModel(run.model, k)
		genv := maps2(env)
		delete(genv, k)
		for _, p := range ps {
			genv[cost.Size] = float64(p)
			kb, tb, d, err := whatif.Grain(gm, k, lo, hi, genv)
			if err != nil {
				return nil, fmt.Errorf("-grain: %w", err)
			}
			out.Grain = append(out.Grain, grainJSON{P: p, K: kb, Time: tb})
			out.GrainDer = d.String()
		}
	}
	if wf.constTime != "" {
		d, err := model.ParseDuration(wf.constTime)
		if err != nil {
			return nil, usagef("-constant-time:1:1: %v", err)
		}
		if size == "" {
			return nil, usagef("-constant-time: the time depends on no problem size; name one with -size")
		}
		ns, err := whatif.ConstantTime(run.model, size, d.Float64(), ps, env)
		var none *whatif.NoSolutionError
		if err != nil && !errors.As(err, &none) {
			return nil, err
		}
		for i, p := range ps {
			c := constJSON{P: p}
			if !math.IsNaN(ns[i]) {
				v := ns[i]
				c.Size = &v
			} else if none != nil {
				c.Why = none.Why[slices.Index(none.P, p)]
			}
			out.Constant = append(out.Constant, c)
		}
	}
	return out, nil
}

// GrainModel is m with floor, ceil and trunc of arguments in k relaxed to
// the arguments (MK differentiates the continuous closed form, seed 000
// §5.4): equal to m wherever k divides the sizes.
func GrainModel(m whatif.Model, k string) whatif.Model {
	out := whatif.Model{Size: m.Size}
	for _, t := range m.Terms {
		t.T = phase.Relax(t.T, k)
		out.Terms = append(out.Terms, t)
	}
	return out
}

func variantName(v whatif.Variant, a, b *whatifRun) string {
	if v == whatif.A {
		return a.file
	}
	return b.file
}

func mergeEnv(a, b map[string]float64) map[string]float64 {
	out := maps2(b)
	for k, v := range a {
		out[k] = v
	}
	return out
}

func maps2(m map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// defaultSize picks the problem size isospeed scales: the first parameter
// with a value that the compute term depends on, else any term.
func defaultSize(r *whatifRun) string {
	for _, p := range r.analysis.Report.Params {
		if _, ok := r.env[p.Name]; !ok {
			continue
		}
		for _, t := range r.model.Terms {
			if t.Kind == whatif.Compute && pwMentions(t.T, p.Name) {
				return p.Name
			}
		}
	}
	return ""
}

func pwMentions(pw symbolic.Piecewise, name string) bool {
	for _, p := range pw.Pieces {
		if p.Value.Has(name) {
			return true
		}
	}
	return false
}

// serialWork returns SCALA's work W(N) for isospeed: the model's time at
// P = 1 as a closed form in the size (the sequential time is the work at
// unit speed, and psi = p'W/(pW') needs W only up to a constant factor),
// the pieces that hold at the given point.
func serialWork(m whatif.Model, env map[string]float64, size string) (symbolic.Expr, error) {
	if size == "" {
		return symbolic.Expr{}, errors.New("no problem size")
	}
	var w symbolic.Expr
	at := map[string]float64{}
	for k, v := range env {
		at[k] = v
	}
	at[m.Size] = 1
	for _, t := range m.Terms {
		for _, p := range t.T.Pieces {
			holds := true
			for _, g := range p.Guard {
				v, err := g.E.EvalFloat(at)
				if err != nil {
					return symbolic.Expr{}, err
				}
				switch g.Op {
				case symbolic.GE:
					holds = holds && v >= -1e-9
				case symbolic.GT:
					holds = holds && v > 1e-9
				case symbolic.EQ:
					holds = holds && math.Abs(v) <= 1e-9
				}
			}
			if holds {
				v, err := p.Value.Subst(map[string]symbolic.Expr{m.Size: symbolic.Int(1)})
				if err != nil {
					return symbolic.Expr{}, err
				}
				w = w.Add(v)
			}
		}
	}
	if !w.Has(size) {
		return symbolic.Expr{}, fmt.Errorf("the time at P = 1 does not depend on %s", size)
	}
	return w, nil
}

// isoCheck decides cheaply whether SCALA's isospeed condition can be met
// at all from (N, p) to p2: the average speed W/(p2*T) at a problem size
// 2^40 times N must reach the speed at (N, p). Without this check
// whatif.Isospeed would search up to 2^1000*N before saying no (from P = 1,
// which has no overhead, the speed is never kept).
type isoCheck struct {
	f     *whatif.ModelFunc
	work  *symbolic.Func
	size  string
	env   map[string]float64
	vars  []string
	limit float64
}

func newIsoCheck(f *whatif.ModelFunc, work symbolic.Expr, size string, env map[string]float64) (*isoCheck, error) {
	vars := work.Symbols()
	wf, err := work.Compile(vars)
	if err != nil {
		return nil, err
	}
	return &isoCheck{f: f, work: wf, size: size, env: env, vars: vars, limit: env[size] * 0x1p40}, nil
}

func (c *isoCheck) speed(n float64, p int64) float64 {
	env := maps2(c.env)
	env[c.size] = n
	env[cost.Size] = float64(p)
	t, err := c.f.Time(env)
	if err != nil || t <= 0 {
		return math.NaN()
	}
	vals := make([]float64, len(c.vars))
	for i, v := range c.vars {
		vals[i] = env[v]
	}
	return c.work.EvalFloat(vals) / (float64(p) * t)
}

func (c *isoCheck) reachable(p, p2 int64) bool {
	target := c.speed(c.env[c.size], p)
	far := c.speed(c.limit, p2)
	return !math.IsNaN(target) && !math.IsNaN(far) && far >= target
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

// sourceErrors prints the frontend's errors to stderr, and says so when
// there are some.
func sourceErrors(diags []apt.Diagnostic, files []string, stderr io.Writer) error {
	bad := false
	for _, d := range diags {
		if d.Severity == apt.Error {
			fmt.Fprintln(stderr, d)
			bad = true
		}
	}
	if bad {
		return usagef("%s: errors in the source", strings.Join(files, ", "))
	}
	return nil
}

// sweepWithOne is the process counts buildPerP evaluates: the sweep, with
// P = 1 first when the sweep lacks it (the speedups are relative to it).
func sweepWithOne(ps []int64) []int64 {
	if slices.Contains(ps, 1) {
		return ps
	}
	return append([]int64{1}, ps...)
}

// pointValues returns P and the -D values at process count p.
func pointValues(exprs map[string]symbolic.Expr, p int64) (map[string]int64, error) {
	values := map[string]int64{cost.Size: p}
	at := map[string]symbolic.Rat{cost.Size: symbolic.RatInt(p)}
	for name, e := range exprs {
		v, err := e.Eval(at)
		if err != nil || !v.IsInt() {
			return nil, usagef("-D %s=%s: not an integer at P=%d", name, e, p)
		}
		n, _ := v.Int64()
		values[name] = n
	}
	return values, nil
}

// perPSource gives buildPerP the program to evaluate at process count p
// (values holds P and the -D values there), or why it cannot be
// configured there (unconfigured, prog nil).
type perPSource func(p int64, values map[string]int64) (prog *apt.Program, unconfigured string, err error)

// fixedProgram is the perPSource of a program read once: the same program
// at every P.
func fixedProgram(prog *apt.Program) perPSource {
	return func(int64, map[string]int64) (*apt.Program, string, error) { return prog, "", nil }
}

// perPFlags refuses the flags that need a closed form in P, which an
// evaluation at each P does not give.
func (wf *whatifFlags) perPFlags(files []string, why string) error {
	if wf.grain != "" || wf.constTime != "" || wf.compare != "" || wf.series != "" || wf.unit != "" {
		return usagef("-grain, -constant-time, -compare, -series and -unit need a closed form in P, which %s lacks (%s)",
			strings.Join(files, " "), why)
	}
	return nil
}

// buildConfigured is build with -configure: each process count of the
// sweep is configured by the command in one private mirror of the source
// tree, read from it and evaluated on its own (buildPerP), so that values
// compiled in for one P (NPB's npbparams.h) are those of the P evaluated.
// A P at which the command fails keeps no model, and its row says why.
func (wf *whatifFlags) buildConfigured(files []string, cfg fortran.Config, prof *model.Profile, ps []int64,
	exprs map[string]symbolic.Expr, assume []symbolic.Relation, stderr io.Writer) (*whatifRun, error) {
	why := "-configure configures the program for each process count"
	if err := wf.perPFlags(files, why); err != nil {
		return nil, err
	}
	conf, err := newConfigurer(wf.configure, files, wf.incs)
	if err != nil {
		return nil, usagef("-configure: %v", err)
	}
	defer conf.close()
	if err := conf.checkPlaceholders(func(s string) bool {
		_, ok := exprs[s]
		return ok || s == cost.Size
	}); err != nil {
		return nil, err
	}
	// The next process count is configured and parsed while the one
	// before is evaluated (in buildPerP's order, the largest first): the command and the parse cost the sweep
	// nothing where an evaluation takes longer than they do.
	type configured struct {
		p            int64
		prog         *apt.Program
		diags        []apt.Diagnostic
		unconfigured string
		command      string
		generated    []string
		err          error
	}
	next := make(chan configured, 1)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(next)
		for _, p := range slices.Backward(sweepWithOne(ps)) {
			c := configured{p: p}
			values, err := pointValues(exprs, p)
			if err == nil {
				vals := map[string]string{}
				for k, v := range values {
					vals[k] = strconv.FormatInt(v, 10)
				}
				c.prog, c.diags, err = conf.parse(files, cfg, vals)
				c.command, c.generated = conf.command, conf.generated()
			}
			var ce *configureError
			if errors.As(err, &ce) {
				c.unconfigured = ce.first
			} else {
				c.err = err
			}
			select {
			case next <- c:
			case <-done:
				return
			}
		}
	}()
	// Stop the goroutine before the mirror is removed (defers run last
	// first).
	defer wg.Wait()
	defer close(done)
	generated := map[string]bool{}
	src := func(p int64, values map[string]int64) (*apt.Program, string, error) {
		c, ok := <-next
		if !ok || c.p != p {
			return nil, "", fmt.Errorf("P=%d: -configure: internal error: configured P=%d", p, c.p)
		}
		if c.err != nil || c.unconfigured != "" {
			return nil, c.unconfigured, c.err
		}
		if err := sourceErrors(c.diags, files, stderr); err != nil {
			return nil, "", fmt.Errorf("P=%d: configured by %q: %w", p, c.command, err)
		}
		for _, g := range c.generated {
			generated[g] = true
		}
		return c.prog, "", nil
	}
	run, err := wf.buildPerP(src, files, prof, ps, exprs, assume, why)
	if err != nil {
		if run == nil {
			return nil, err
		}
		// No process count has a model: say where the command ran.
		return nil, fmt.Errorf("%w; -configure ran %q %s", err, conf.template, conf.where())
	}
	note := fmt.Sprintf("-configure ran %q for it %s", conf.template, conf.where())
	var gen []string
	for g := range generated {
		gen = append(gen, g)
	}
	slices.Sort(gen)
	if g := generatedNote(gen, "that process count"); g != "" {
		note += "; " + g
	}
	run.why = note
	return run, nil
}

// buildPerP makes one model per process count of the sweep, each from an
// evaluation at that P (cost.Options.Values) with the sizes -D gives of the
// program src gives there: what the program computes from P is then exact,
// and no closed form in P is needed. A process count at which the program
// stops (one of its own checks fails there) or cannot be configured keeps
// no model and its row says so.
func (wf *whatifFlags) buildPerP(src perPSource, files []string, prof *model.Profile, ps []int64,
	exprs map[string]symbolic.Expr, assume []symbolic.Relation, why string) (*whatifRun, error) {
	if err := wf.perPFlags(files, why); err != nil {
		return nil, err
	}
	r := &whatifRun{file: strings.Join(files, " "), exprs: exprs, env: map[string]float64{}, why: why}
	mopt := phase.ModelOptions{Profile: prof, Balance: wf.balance, Leading: wf.leading}
	// The process counts are evaluated concurrently, one per core: each
	// evaluation is on its own (a program of its own with -configure), and
	// the answers are put together below in the order of the sweep, as if
	// evaluated one after the other. Of the analyses only the earliest
	// modelled one is kept: it is the one whose details are printed.
	points := sweepWithOne(ps)
	results := make([]pointResult, len(points))
	var (
		mu        sync.Mutex
		firstAt   = len(points) // index of the earliest modelled point
		firstAnal *phase.Analysis
	)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(points)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				a := wf.evalPoint(&results[i], assume, mopt)
				if a != nil {
					mu.Lock()
					if i < firstAt {
						firstAt, firstAnal = i, a
					}
					mu.Unlock()
				}
			}
		}()
	}
	var srcErr error
	// The largest process counts first: their evaluations take the
	// longest (rank classes, runs at each rank), and started last they
	// would leave the other core idle at the end of the sweep.
	for i, p := range slices.Backward(points) {
		values, err := pointValues(exprs, p)
		if err != nil {
			srcErr = err
			break
		}
		prog, unconfigured, err := src(p, values)
		if err != nil {
			srcErr = err
			break
		}
		results[i] = pointResult{pm: &pointModel{p: p, unconfigured: unconfigured}, prog: prog, values: values}
		if prog != nil {
			jobs <- i
		}
	}
	close(jobs)
	wg.Wait()
	if srcErr != nil {
		return nil, srcErr
	}
	// The comparisons of P with named constants, found once per program
	// (the same program at every P without -configure).
	var checksOf *apt.Program
	var checks []compiledCheck
	compiled := func(prog *apt.Program) []compiledCheck {
		if prog != checksOf {
			checksOf, checks = prog, compiledChecks(prog)
		}
		return checks
	}
	for i, res := range results {
		pm := res.pm
		evaluated := firstAt < i // an earlier process count has a model
		switch {
		case res.err != nil && res.hint:
			return nil, fmt.Errorf("P=%d: %s%w", pm.p, wf.compiledHint(compiled(res.prog), pm.p, evaluated), res.err)
		case res.err != nil:
			return nil, fmt.Errorf("P=%d: %w", pm.p, res.err)
		case res.missing:
			if h := strings.TrimSuffix(wf.compiledHint(compiled(res.prog), pm.p, evaluated), ": "); h != "" {
				pm.incomplete += " (" + h + ")"
			}
		case pm.stopped != nil:
			pm.stopCheck = stoppingCheck(compiled(res.prog), pm.stopped.Pos)
		}
		r.points = append(r.points, pm)
	}
	r.analysis = firstAnal
	if r.analysis == nil {
		// r goes back with the error: buildConfigured adds where the
		// command ran.
		first := r.points[0]
		for _, pm := range r.points {
			if pm.incomplete != "" {
				first = pm
				break
			}
		}
		if first.incomplete != "" {
			return r, usagef("%s", first.noTime())
		}
		return r, fmt.Errorf("the program cannot be evaluated at any process count of the sweep: %s", first.noTime())
	}
	for name, e := range exprs {
		if c, ok := e.Const(); ok {
			r.env[name] = c.Float64()
		}
	}
	return r, nil
}

// pointResult is the evaluation of a sweep at one process count: the row's
// model (or why it has none) and an error, with what its message needs.
type pointResult struct {
	pm     *pointModel
	prog   *apt.Program // nil where -configure failed (pm.unconfigured)
	values map[string]int64
	err    error
	// hint says that err (or pm.incomplete when missing) may be explained
	// by the comparisons of P with named constants (compiledHint).
	hint, missing bool
}

// evalPoint evaluates res.prog at res.pm.p and fills res in; it returns the
// analysis when the point has a model. Evaluations at several points run
// concurrently: the analyses share only memos that lock.
func (wf *whatifFlags) evalPoint(res *pointResult, assume []symbolic.Relation, mopt phase.ModelOptions) *phase.Analysis {
	pm, prog, values, p := res.pm, res.prog, res.values, res.pm.p
	a, err := phase.Analyze(prog, phase.Options{Cost: cost.Options{Entry: wf.entry, Assume: assume, Values: values, Args: wf.argvs, Env: wf.environ, Dir: wf.progFlags.dir},
		SampleP: []int64{p}})
	var rep *cost.Report
	if a != nil {
		rep = a.Report
	}
	if err != nil {
		// Only a program that stops at this P, or lacks values there,
		// has no sample to give.
		if rep == nil {
			var serr error
			if rep, serr = cost.Analyze(prog, cost.Options{Entry: wf.entry, Assume: assume, Values: values, Args: wf.argvs, Env: wf.environ, Dir: wf.progFlags.dir}); serr != nil {
				res.err, res.hint = err, true
				return nil
			}
		}
		if rep.Stopped == nil && len(rep.MissingParams(values)) == 0 {
			res.err, res.hint = err, true
			return nil
		}
	}
	if rep.Stopped != nil {
		pm.stopped = rep.Stopped
		return nil
	}
	if missing := rep.MissingParams(values); len(missing) > 0 {
		// Values the evaluation could not derive at this P: the row
		// says which, and the other process counts still get theirs;
		// a sweep none of whose process counts has them fails.
		pm.incomplete = fmt.Sprintf("no value for %s; give %s", clipList(missing, 6), defsHint(missing[:min(len(missing), 6)]))
		if rep.DataOnly(missing) {
			pm.incomplete = fmt.Sprintf("no value for %s, values of the program's data: calibrate it on a few small runs "+
				"(mkvet calibrate) and predict with -runs, which measures them, or give %s", clipList(missing, 6),
				defsHint(missing[:min(len(missing), 6)]))
		}
		res.missing = true
		return nil
	}
	pm.env, pm.defaulted = pointEnv(rep, values)
	m, terms, err := a.Model(mopt)
	var inc *phase.IncompleteError
	if errors.As(err, &inc) {
		pm.incomplete = inc.Error()
		return nil
	}
	if err != nil {
		res.err = err
		return nil
	}
	pm.modelled, pm.model, pm.terms = true, m, terms
	return a
}

// compiledHint explains, after an evaluation at P failed, that the build
// has values compiled for another process count, when a comparison of P
// with a named constant says so (the arrays sized for it no longer hold
// what the program computes at P); without such a comparison, when
// another P was evaluated, that it may have.
func (wf *whatifFlags) compiledHint(checks []compiledCheck, p int64, evaluated bool) string {
	if wf.configure != "" {
		return ""
	}
	for _, k := range checks {
		if k.value != p {
			return fmt.Sprintf("the build is for P=%d (%s), and its values compiled for that P may not hold at P=%d (%s): ",
				k.value, k.describe(), p, configureHint)
		}
	}
	if evaluated {
		return fmt.Sprintf("values the program needs are not known at P=%d though they were at other process counts "+
			"(if the build has values compiled in for one process count, as NPB's npbparams.h, %s): ", p, configureHint)
	}
	return ""
}

// pointEnv returns the values of rep's parameters at an evaluation with
// values: those given, the ones the report has built in, and the defaults
// of the others (a default may use other parameters, so they are taken
// until no more can be), with the defaulted ones as name=value.
func pointEnv(rep *cost.Report, values map[string]int64) (map[string]float64, []defaultedValue) {
	env := map[string]float64{}
	at := map[string]symbolic.Rat{}
	for k, v := range values {
		env[k], at[k] = float64(v), symbolic.RatInt(v)
	}
	var defaulted []defaultedValue
	for progress := true; progress; {
		progress = false
		for _, p := range rep.Params {
			if _, ok := env[p.Name]; ok {
				continue
			}
			switch {
			case p.Value != nil:
				env[p.Name], at[p.Name] = float64(*p.Value), symbolic.RatInt(*p.Value)
			case p.Default != nil:
				v, err := p.Default.Eval(at)
				if err != nil {
					continue
				}
				env[p.Name], at[p.Name] = v.Float64(), v
				defaulted = append(defaulted, defaultedValue{name: p.Name, value: v.String(), origin: p.Origin})
			default:
				continue
			}
			progress = true
		}
	}
	return env, defaulted
}

// clipList joins names, the first max of them and how many more.
func clipList(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:max], ", "), len(names)-max)
}

// configureHint suggests -configure.
const configureHint = "-configure CMD configures the program for each P, NPB: -configure '../sys/setparams BENCH {P} CLASS'"

// noTime says why a process count has no model.
func (pm *pointModel) noTime() string {
	if pm.incomplete != "" {
		return fmt.Sprintf("P=%d: %s", pm.p, pm.incomplete)
	}
	if pm.unconfigured != "" {
		return fmt.Sprintf("P=%d: the build cannot be configured: %s", pm.p, pm.unconfigured)
	}
	return fmt.Sprintf("P=%d: the program stops at %s on every process (one of its own checks fails there)", pm.p, pm.stopped.Pos)
}

// stopGroup is the process counts of a sweep at which the program stops
// at one place.
type stopGroup struct {
	pos   apt.Pos
	ps    []string
	check *compiledCheck
}

// stopGroups groups the process counts of the sweep ps at which the
// program stops by where it stops, in the order of the sweep.
func (r *whatifRun) stopGroups(ps []int64) []*stopGroup {
	var out []*stopGroup
	for _, pm := range r.points {
		if pm.stopped == nil || !slices.Contains(ps, pm.p) {
			continue
		}
		i := slices.IndexFunc(out, func(g *stopGroup) bool { return g.pos == pm.stopped.Pos })
		if i < 0 {
			out = append(out, &stopGroup{pos: pm.stopped.Pos, check: pm.stopCheck})
			i = len(out) - 1
		}
		out[i].ps = append(out[i].ps, strconv.FormatInt(pm.p, 10))
	}
	return out
}

// compiledNote says, for a sweep without -configure, that the program
// stops at some process counts of the sweep through its own checks: with
// the process count the build is for when such a check compares P with a
// named constant, and which rows then use values compiled for another P,
// else where the checks are; and suggests -configure.
func (r *whatifRun) compiledNote(ps []int64) string {
	groups := r.stopGroups(ps)
	if len(groups) == 0 {
		return ""
	}
	var check *compiledCheck
	var parts, where []string
	for _, g := range groups {
		where = append(where, g.pos.String())
		if g.check != nil {
			if check == nil {
				check = g.check
			}
			parts = append(parts, fmt.Sprintf("at P=%s the program stops at %s, where %s", strings.Join(g.ps, ", "), g.pos, g.check.describe()))
		}
	}
	if check == nil {
		return fmt.Sprintf("the program stops through its own checks (at %s); if it has values compiled in for one process count "+
			"(as NPB's npbparams.h), %s", strings.Join(where, ", "), configureHint)
	}
	note := fmt.Sprintf("the build is for P=%d: %s", check.value, strings.Join(parts, "; "))
	var others []string
	for _, pm := range r.points {
		if pm.modelled && pm.p != check.value && slices.Contains(ps, pm.p) {
			others = append(others, strconv.FormatInt(pm.p, 10))
		}
	}
	if len(others) > 0 {
		note += fmt.Sprintf("; the rows at P=%s use the values compiled for P=%d", strings.Join(others, ", "), check.value)
	}
	return note + "; " + configureHint
}

// evaluatePerP is evaluate for a run with one model per process count.
func (wf *whatifFlags) evaluatePerP(run *whatifRun, prof *model.Profile, ps []int64) (*whatifOutput, error) {
	net, _ := prof.Network()
	out := &whatifOutput{Version: 1, File: run.file, Machine: prof.Name, Network: modelName(net),
		Params: map[string]string{}, Notes: []string{"each process count is evaluated on its own: " + run.why}}
	for k, e := range run.exprs {
		out.Params[k] = e.String()
	}
	var t1 float64
	var defaulted []defaultedValue
	rows := map[int64]rowJSON{}
	for _, pm := range run.points {
		if pm.unconfigured != "" {
			rows[pm.p] = rowJSON{P: pm.p, Time: math.NaN(), Why: "cannot be configured: " + pm.unconfigured, Terms: map[string]float64{}}
			continue
		}
		if pm.stopped != nil {
			rows[pm.p] = rowJSON{P: pm.p, Time: math.NaN(), Why: "stops at " + pm.stopped.Pos.String(), Terms: map[string]float64{}}
			continue
		}
		if pm.incomplete != "" {
			rows[pm.p] = rowJSON{P: pm.p, Time: math.NaN(), Why: "no time: " + pm.incomplete, Terms: map[string]float64{}}
			continue
		}
		env := maps2(run.env)
		for k, v := range pm.env {
			env[k] = v
		}
		for _, d := range pm.defaulted {
			if !slices.Contains(defaulted, d) {
				defaulted = append(defaulted, d)
			}
		}
		row, err := whatif.RowAt(pm.model, env, pm.p)
		if err != nil {
			return nil, fmt.Errorf("P=%d: %w", pm.p, err)
		}
		rows[pm.p] = rowOf(pm.model, row)
		if pm.p == 1 {
			t1 = row.Time
		}
		for _, t := range pm.terms {
			if t.Max != nil && t.Max.Method == phase.Approx {
				out.Notes = append(out.Notes, fmt.Sprintf("P=%d: %s: the maximum over ranks is %s", pm.p, t.Name, t.Max.Note))
			}
		}
		if len(out.Terms) == 0 || pm.p == ps[len(ps)-1] {
			out.Terms = out.Terms[:0]
			for _, t := range pm.terms {
				out.Terms = append(out.Terms, termJSON{Name: t.Name, Kind: t.Kind.String(), ClosedForm: fmt.Sprintf("%s (at P=%d)", t.T, pm.p), How: t.How})
			}
		}
	}
	t := &tableJSON{Label: strings.TrimSuffix(baseName(run.file), ".f")}
	for _, p := range ps {
		rj := rows[p]
		if t1 > 0 && !math.IsNaN(rj.Time) && rj.Time > 0 {
			rj.Speedup = t1 / rj.Time
			rj.Efficiency = rj.Speedup / float64(p)
		} else {
			rj.Speedup, rj.Efficiency = math.NaN(), math.NaN()
		}
		t.Rows = append(t.Rows, rj)
		t.rows = append(t.rows, whatif.Row{P: rj.P, Time: rj.Time, Speedup: rj.Speedup, Efficiency: rj.Efficiency,
			CommShare: rj.CommShare, Dominant: rj.Dominant, Exact: rj.Exact})
	}
	if t1 == 0 {
		out.Notes = append(out.Notes, "no speedups: the program does not run on one process")
	}
	if len(defaulted) > 0 {
		out.Notes = append(out.Notes, "values no -D gave take their defaults: "+summarizeDefaults(defaulted, noteItems))
		out.Defaults = map[string]string{}
		for _, d := range defaulted {
			if v, ok := out.Defaults[d.name]; ok && v != d.value {
				out.Defaults[d.name] = v + " or " + d.value // differs with P
			} else if !ok {
				out.Defaults[d.name] = d.value
			}
		}
	}
	for _, g := range run.stopGroups(ps) {
		out.Notes = append(out.Notes, fmt.Sprintf("P=%s: the program stops at %s on every process (one of its own checks fails there)",
			strings.Join(g.ps, ", "), g.pos))
	}
	if wf.configure == "" {
		if n := run.compiledNote(ps); n != "" {
			out.Notes = append(out.Notes, n)
		}
	}
	out.Tables = append(out.Tables, t)
	return out, nil
}

// defaultedValue is a parameter that took its default at a process count.
type defaultedValue struct {
	name, value string
	origin      cost.ParamOrigin
}

// summarizeDefaults says which values took their defaults in a line a
// person reads: a whole application leaves hundreds of them (an intrinsic
// of a string read from a deck at every call site, a branch frequency at
// every unanalysable IF), so branch frequencies and trip counts are
// counted by value, other names that differ only in the suffix that
// numbers their call sites are grouped, and past max groups the rest is
// counted (the JSON output's "defaults" lists every one).
func summarizeDefaults(ds []defaultedValue, max int) string {
	type group struct {
		label, value string
		n            int
	}
	var groups []*group
	index := map[[2]string]*group{}
	for _, d := range ds {
		label := strings.TrimRightFunc(d.name, func(r rune) bool { return r >= '0' && r <= '9' })
		if label != d.name && strings.HasSuffix(label, "_") {
			label = strings.TrimSuffix(label, "_")
		} else {
			label = d.name
		}
		switch d.origin {
		case cost.FromFrequency:
			label = "branch frequencies"
		case cost.FromTripCount:
			label = "trip counts"
		}
		k := [2]string{label, d.value}
		g := index[k]
		if g == nil {
			g = &group{label: label, value: d.value}
			index[k] = g
			groups = append(groups, g)
		}
		g.n++
	}
	var items []string
	for _, g := range groups {
		switch {
		case g.label == "branch frequencies":
			items = append(items, fmt.Sprintf("%d branch frequencies %s%%", g.n, g.value))
		case g.label == "trip counts":
			items = append(items, fmt.Sprintf("%d trip counts %s", g.n, g.value))
		case g.n > 1:
			items = append(items, fmt.Sprintf("%s=%s (%d places)", g.label, g.value, g.n))
		default:
			items = append(items, g.label+"="+g.value)
		}
	}
	if len(items) <= max {
		return strings.Join(items, ", ")
	}
	rest := 0
	for _, g := range groups[max:] {
		rest += g.n
	}
	return strings.Join(items[:max], ", ") + fmt.Sprintf(" and %d more (-format json lists them)", rest)
}
