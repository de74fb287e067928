package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/frontend/llvmir"
	"github.com/mkvet/mkvet/instrument"
	"github.com/mkvet/mkvet/instrument/calib"
	"github.com/mkvet/mkvet/instrument/cinst"
	"github.com/mkvet/mkvet/instrument/sweep"
	"github.com/mkvet/mkvet/model/cost"
)

func init() {
	register(&command{
		name:  "instrument",
		usage: "-o DIR [-D name=value,...] [-nest-timers] [-I dir] [-define NAME[=val]] [-cpp] [-form fixed|free|auto] [-entry NAME] FILE...",
		short: "write an instrumented copy of the program and its runtime module, probes keyed by APT node",
		order: 40,
		run:   runInstrument,
	})
}

// progFlags are the flags that read a program: the frontend's and the
// analysis's, shared by every subcommand that reads Fortran.
type progFlags struct {
	defs, assumes, incs, macros multiFlag
	form, entry                 string
	cpp                         bool
	// configure is the -configure command of check, annotate and whatif
	// (registerConfigure), "" for none.
	configure string
	// args are the program's command-line arguments (-args), as given;
	// env its environment variables (-env NAME=VALUE).
	args argsFlag
	env  multiFlag
	// dir is the directory the program runs in, with its input files
	// (-dir; "." the current one, "" none).
	dir string
	// stdin is the file standard input comes from (-stdin).
	stdin string
}

// argsFlag is -args: its text, and whether it was given (-args "" is a run
// with no arguments, not arguments unknown).
type argsFlag struct {
	text string
	set  bool
}

func (a *argsFlag) String() string { return a.text }

func (a *argsFlag) Set(s string) error {
	a.text, a.set = s, true
	return nil
}

// argv splits -args into the program's arguments as a shell would (quotes,
// backslashes); nil when -args was not given, empty when it was given
// empty.
func (pf *progFlags) argv() ([]string, error) {
	if !pf.args.set {
		return nil, nil
	}
	words, err := sweep.Expand(pf.args.text, nil)
	if err != nil {
		return nil, fmt.Errorf("-args: %v", err)
	}
	if words == nil {
		words = []string{}
	}
	return words, nil
}

// environ returns the environment variables -env sets, by name; nil when
// -env was not given (every variable the program reads is then unset).
func (pf *progFlags) environ() (map[string]string, error) {
	if len(pf.env) == 0 {
		return nil, nil
	}
	out := map[string]string{}
	for _, kv := range pf.env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("-env %s: want NAME=VALUE, e.g. -env NPB_TIMER_FLAG=on", kv)
		}
		out[name] = value
	}
	return out, nil
}

// envList is -env as NAME=VALUE strings in the order given, for the
// environment of the program's runs.
func (pf *progFlags) envList() []string { return slices.Clone(pf.env) }

func (pf *progFlags) register(fs *flag.FlagSet, defsUsage string) {
	fs.Var(&pf.defs, "D", defsUsage)
	fs.Var(&pf.assumes, "assume", "assume `relations` between parameters, e.g. 'n >= P' (repeatable)")
	fs.Var(&pf.incs, "I", "add `dir` to the INCLUDE search path (repeatable)")
	fs.Var(&pf.macros, "define", "define preprocessor macro `NAME[=val]` (repeatable)")
	fs.StringVar(&pf.form, "form", "auto", "source form: fixed, free or auto (by file extension)")
	fs.BoolVar(&pf.cpp, "cpp", false, "run the preprocessor on every file, not only .F/.F90")
	fs.StringVar(&pf.entry, "entry", "", "start from routine `name` (default: the main program)")
	fs.Var(&pf.args, "args", "the program's command-line `ARGS`, as a shell splits them (a C program's argv: the strings it compares, "+
		"the sizes it parses with atoi; a Fortran program's COMMAND_ARGUMENT_COUNT and GET_COMMAND_ARGUMENT; -args '' for a run with none)")
	fs.Var(&pf.env, "env", "set the program's environment variable: `NAME=VALUE` (repeatable); a variable the program reads "+
		"(GET_ENVIRONMENT_VARIABLE) that no -env sets is taken as unset, as in a normal run, and the program's own fallback is used")
	fs.StringVar(&pf.dir, "dir", ".", "the `DIR` the program runs in, with its input files: a list-directed READ of a file there takes its values "+
		"from the file, as the run does (-dir '' reads none: every value read is a parameter)")
	fs.StringVar(&pf.stdin, "stdin", "", "the `FILE` (in -dir, or a path) the program's standard input comes from, as in 'mpirun ... < FILE': "+
		"READ(*, ...), READ(5, ...) and scanf take their values from it")
}

// loaded is a program read and costed.
type loaded struct {
	files  []string
	prog   *apt.Program
	report *cost.Report
	form   fortran.Form
	// sources are the input files as read from the -configure mirror (the
	// configure step may rewrite them), nil without -configure.
	sources map[string][]byte
	// opt are the options report was costed with; points caches the
	// program costed at points (atPoint).
	opt    cost.Options
	points map[string]*cost.Report
}

// pointwise reports whether calibrations and predictions of a program
// evaluate its counts from the program costed at each point (atPoint)
// rather than from its symbolic report: where some count of the symbolic
// report has no closed form within the analysis's limits, rests on an
// approximation, or on a value the symbolic evaluation could not derive. The evaluation at a point derives what the program
// computes from its sizes and P (a process grid found by a search, a
// subdomain's bounds) and gives every count exactly there; a fit to a
// figure the symbolic report leaves missing would fit to nothing.
func pointwise(rep *cost.Report) bool {
	if rep.WorkMissing {
		return true
	}
	for _, q := range rep.Params {
		if q.Origin == cost.FromUnresolved && q.Value == nil {
			// A value the symbolic evaluation could not derive, which the
			// one at a point may (a process grid's dimensions and a
			// process's coordinates from MPI_Dims_create and
			// MPI_Cart_coords).
			return true
		}
	}
	for _, n := range rep.Nodes {
		if n.Missing != 0 || !n.Exact {
			return true
		}
	}
	return false
}

// atPoint returns the program costed at a run's point: its integer values
// (the sizes, the -D values and what the runs recorded) and P. Nil when
// the point has a value that is not an integer, or the analysis fails
// there (err says why).
func (l *loaded) atPoint(pt calib.Point) (*cost.Report, error) {
	key := pt.String()
	if r, ok := l.points[key]; ok {
		return r, nil
	}
	values := map[string]int64{cost.Size: int64(pt.P)}
	for k, v := range pt.Params {
		if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			return nil, fmt.Errorf("%s=%v is not an integer", k, v)
		}
		values[k] = int64(v)
	}
	r, err := cost.AnalyzeAt(l.prog, l.opt, values)
	if err != nil {
		return nil, err
	}
	if l.points == nil {
		l.points = map[string]*cost.Report{}
	}
	l.points[key] = r
	return r, nil
}

// load parses and costs the files. Problems go to stderr; status 2 means
// the command cannot go on.
func (pf *progFlags) load(cmd string, files []string, stderr io.Writer) (*loaded, int) {
	fail := func(format string, args ...any) (*loaded, int) {
		fmt.Fprintf(stderr, "mkvet "+cmd+": "+format+"\n", args...)
		return nil, 2
	}
	if len(files) == 0 {
		return fail("no source files given")
	}
	return pf.parse(cmd, files, stderr, false)
}

// parse reads and costs the files, printing the frontend's diagnostics to
// stderr: all of them with warnings, else the errors only.
func (pf *progFlags) parse(cmd string, files []string, stderr io.Writer, warnings bool) (*loaded, int) {
	fail := func(format string, args ...any) (*loaded, int) {
		fmt.Fprintf(stderr, "mkvet "+cmd+": "+format+"\n", args...)
		return nil, 2
	}
	cfg, form, err := frontendConfig(pf.form, pf.incs, pf.macros, pf.cpp)
	if err != nil {
		return fail("%v", err)
	}
	assume, ok := assumeFlags(cmd, pf.assumes, stderr)
	if !ok {
		return nil, 2
	}
	values, _, err := intDefs(pf.defs)
	if err != nil {
		return fail("%v", err)
	}
	var prog *apt.Program
	var diags []apt.Diagnostic
	var sources map[string][]byte
	if pf.configure != "" {
		var conf *configurer
		if prog, diags, sources, conf, err = pf.configured(files, cfg, values); err != nil {
			return fail("%v", err)
		}
		fmt.Fprintf(stderr, "mkvet %s: note: -configure ran %q %s", cmd, conf.command, conf.where())
		if g := generatedNote(conf.generated(), valuesText(conf.vals, conf.placeholders())); g != "" {
			fmt.Fprintf(stderr, "; %s", g)
		}
		fmt.Fprintln(stderr)
	} else {
		prog, diags = parseProgram(files, cfg)
	}
	bad := false
	for _, d := range diags {
		if warnings || d.Severity == apt.Error {
			fmt.Fprintln(stderr, d)
		}
		bad = bad || d.Severity == apt.Error
	}
	if bad {
		return nil, 2
	}
	if prog == nil || len(prog.Routines) == 0 {
		return fail("%s: no main program, subroutine or function to analyse (a file of declarations is read through the INCLUDE or #include of the file that uses it)",
			strings.Join(files, ", "))
	}
	argv, err := pf.argv()
	if err != nil {
		return fail("%v", err)
	}
	environ, err := pf.environ()
	if err != nil {
		return fail("%v", err)
	}
	opt := cost.Options{Entry: pf.entry, Assume: assume, Args: argv, Env: environ, Dir: pf.dir, Stdin: pf.stdin}
	rep, err := analyze(prog, opt, values)
	if err != nil {
		return fail("%v", err)
	}
	return &loaded{files: files, prog: prog, report: rep, form: form, sources: sources, opt: opt}, 0
}

// configured runs the -configure command once for the -D point in a
// private mirror of the source tree and reads the program from it, with
// the input files as the mirror holds them; the mirror is removed before
// it returns (conf still describes the run).
func (pf *progFlags) configured(files []string, cfg fortran.Config, values map[string]int64) (
	prog *apt.Program, diags []apt.Diagnostic, sources map[string][]byte, conf *configurer, err error) {
	if conf, err = newConfigurer(pf.configure, files, pf.incs); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("-configure: %v", err)
	}
	defer conf.close()
	if err := conf.checkPlaceholders(func(s string) bool { _, ok := values[s]; return ok }); err != nil {
		return nil, nil, nil, nil, err
	}
	vals := map[string]string{}
	for k, v := range values {
		vals[k] = strconv.FormatInt(v, 10)
	}
	prog, diags, err = conf.parse(files, cfg, vals)
	var ce *configureError
	if errors.As(err, &ce) {
		return nil, nil, nil, nil, fmt.Errorf("-configure: the program cannot be configured for %s: %q failed: %s",
			valuesText(vals, conf.placeholders()), ce.command, ce.first)
	}
	if err != nil {
		return nil, nil, nil, nil, err
	}
	sources = map[string][]byte{}
	for _, f := range files {
		if b, err := conf.readFile(f); err == nil {
			sources[f] = b
		}
	}
	return prog, diags, sources, conf, nil
}

// analyze costs prog, at the -D values when there are some
// (cost.AnalyzeAt), else symbolically (cost.AnalyzeSymbolic: a whole
// application within a budget).
func analyze(prog *apt.Program, opt cost.Options, values map[string]int64) (*cost.Report, error) {
	if len(values) == 0 {
		return cost.AnalyzeSymbolic(prog, opt)
	}
	return cost.AnalyzeAt(prog, opt, values)
}

// intDefs reads -D values that must be integers, keyed by report symbol
// (P for the process count, sizes in lower case).
func intDefs(defs []string) (map[string]int64, []string, error) {
	at, names, err := parseDefs(defs)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]int64{}
	var keys []string
	for _, n := range names {
		v, ok := at[n].Int64()
		if !ok {
			return nil, nil, fmt.Errorf("-D %s=%s: the value must be an integer", n, at[n])
		}
		s := symbolName(n)
		out[s] = v
		keys = append(keys, s)
	}
	return out, keys, nil
}

// instrumentOptions derives the instrumentation options from a loaded
// program: the values the runs should record are the report's parameters.
func (l *loaded) instrumentOptions(pf *progFlags) instrument.Options {
	opt := instrument.Options{IncludeDirs: pf.incs}
	switch l.form {
	case fortran.FormFixed:
		opt.Fixed, opt.FormSet = true, true
	case fortran.FormFree:
		opt.FormSet = true
	}
	for _, p := range l.report.Params {
		opt.Record = append(opt.Record, p.Name)
	}
	return opt
}

func runInstrument(args []string, stdout, stderr io.Writer) int {
	c := lookup("instrument")
	fs := newFlagSet(c, stderr)
	var pf progFlags
	pf.register(fs, "set problem size `name=value` in the copy (repeatable, or comma-separated): a PARAMETER constant is "+
		"rewritten; a size assigned from a constant becomes the default of its MKVET_PARAM_<NAME> override")
	out := fs.String("o", "", "write the instrumented copy into `DIR` (required; never an input's directory)")
	probes := fs.String("probes", "all", "`all` probes, or time: only the program time (the baseline for measuring the probes' overhead)")
	nests := fs.Bool("nest-timers", false, "time every routine's outermost loops (every loop nest), also in routines called from loops: "+
		"each nest's exclusive time, to set beside MK1001's shares")
	events := fs.Bool("events", false, "also record an event trace: every MPI call (peer, tag, bytes, requests, times) and timed region, "+
		"per rank into $MKVET_OUT/mkvet.<rank>.evt, for `mkvet trace import`")
	force := fs.Bool("f", false, "write into -o DIR when it already holds files (files of the same names are replaced)")
	files, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if *out == "" {
		fmt.Fprintln(stderr, "mkvet instrument: -o DIR is required")
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "mkvet instrument: no source files given")
		return 2
	}
	vals, _, err := intDefs(pf.defs)
	if err != nil {
		fmt.Fprintf(stderr, "mkvet instrument: %v\n", err)
		return 2
	}
	if held, _ := os.ReadDir(*out); len(held) > 0 && !*force && !holdsInput(*out, files) {
		// As annotate -o: what a user has is never replaced unasked.
		names := make([]string, 0, 3)
		for _, e := range held[:min(len(held), 3)] {
			names = append(names, e.Name())
		}
		if len(held) > 3 {
			names = append(names, "...")
		}
		fmt.Fprintf(stderr, "mkvet instrument: -o %s already holds files (%s): give -f to write into it, or name a new directory\n",
			*out, strings.Join(names, ", "))
		return 2
	}
	delete(vals, cost.Size)
	if allC(files) {
		return instrumentC(&pf, files, *out, *nests, len(vals) > 0 || *probes != "all" || *events, stdout, stderr)
	}
	l, st := pf.load("instrument", files, stderr)
	if l == nil {
		return st
	}
	opt := l.instrumentOptions(&pf)
	opt.Dir = *out
	opt.Values = vals
	opt.NestTimers = *nests
	opt.Events = *events
	switch *probes {
	case "all":
	case "time":
		opt.ProgramOnly = true
	default:
		fmt.Fprintf(stderr, "mkvet instrument: -probes must be all or time, not %q\n", *probes)
		return 2
	}
	res, err := instrument.Instrument(l.prog, files, opt)
	if err != nil {
		fmt.Fprintf(stderr, "mkvet instrument: %v\n", err)
		return 2
	}
	for _, n := range res.Notes {
		fmt.Fprintln(stderr, n)
	}
	timed, iters := 0, 0
	kinds := map[string]int{}
	for _, p := range res.Probes {
		kinds[p.Kind]++
		if p.Timed {
			timed++
		}
		if p.Iters {
			iters++
		}
	}
	fmt.Fprintf(stdout, "wrote %s: %s\n", *out, strings.Join(res.Files, " "))
	fmt.Fprintf(stdout, "%d probes: %d routines, %d loops (%d with iteration counts), %d branches, %d MPI calls; %d timed\n",
		len(res.Probes), kinds["routine"], kinds["loop"], iters, kinds["branch"], kinds["comm"], timed)
	clock := "system_clock; records written at the end of the program"
	if res.MPI {
		clock = "MPI_Wtime; each rank writes its records at MPI_FINALIZE"
	}
	fmt.Fprintf(stdout, "timing: %s, into $MKVET_OUT/mkvet.<rank>.jsonl (default: the working directory)\n", clock)
	if *events {
		fmt.Fprintln(stdout, "events: each rank writes $MKVET_OUT/mkvet.<rank>.evt; read them with `mkvet trace import DIR`")
	}
	for _, p := range res.Params {
		how := ""
		switch p.Mode {
		case instrument.ParamBuild:
			how = "a PARAMETER: set at build time (mkvet instrument -D " + p.Name + "=...)"
			if v, ok := vals[p.Name]; ok {
				how = fmt.Sprintf("a PARAMETER: built in as %d", v)
			}
		case instrument.ParamEnv:
			how = "assigned from a constant: read from $MKVET_PARAM_" + strings.ToUpper(p.Name) + " at run time (default " + p.Default + ")"
			if v, ok := vals[p.Name]; ok {
				how = fmt.Sprintf("assigned from a constant: $MKVET_PARAM_%s at run time, default now %d", strings.ToUpper(p.Name), v)
			}
		case instrument.ParamInput:
			how = "read at run time: give it in the run's input or command line"
		}
		fmt.Fprintf(stdout, "size %s: %s\n", p.Name, how)
	}
	srcs := slices.Clone(res.Sources)
	compiler := "gfortran"
	if res.MPI {
		compiler = "mpif90"
	}
	fmt.Fprintf(stdout, "build: cd %s && %s -O2 %s -o prog\n", *out, compiler, strings.Join(srcs, " "))
	return 0
}

// allC reports whether every file is C, C++ or LLVM IR.
func allC(files []string) bool {
	for _, f := range files {
		if !llvmir.Handles(f) {
			return false
		}
	}
	return len(files) > 0
}

// instrumentC instruments a C or C++ program in its LLVM IR (instrument/
// cinst): counters for routines, loops and MPI calls; routines outside
// loops, their outermost loops (every routine's with nests) and MPI calls
// timed.
func instrumentC(pf *progFlags, files []string, out string, nests, fortranOnly bool, stdout, stderr io.Writer) int {
	if fortranOnly {
		fmt.Fprintln(stderr, "mkvet instrument: -D, -probes time and -events are not supported for C and C++ yet: "+
			"sizes come from the program's command line")
		return 2
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		if entries, _ := os.ReadDir(out); len(entries) > 0 {
			fmt.Fprintf(stderr, "mkvet instrument: %s is not empty: the copy goes into a new directory\n", out)
			return 2
		}
	}
	cfg, _, err := frontendConfig(pf.form, pf.incs, pf.macros, pf.cpp)
	if err != nil {
		fmt.Fprintf(stderr, "mkvet instrument: %v\n", err)
		return 2
	}
	res, err := instrumentCAt(files, cfg, nil, out, cinst.Options{NestTimers: nests})
	if err != nil {
		fmt.Fprintf(stderr, "mkvet instrument: %v\n", err)
		return 2
	}
	for _, n := range res.Notes {
		fmt.Fprintln(stderr, n)
	}
	kinds := map[string]int{}
	timed := 0
	for _, p := range res.Probes {
		kinds[p.Kind]++
		if p.Timed {
			timed++
		}
	}
	fmt.Fprintf(stdout, "wrote %s: %s\n", out, strings.Join(res.Files, " "))
	fmt.Fprintf(stdout, "%d probes: %d routines, %d loops (with iteration counts), %d MPI calls; %d timed\n",
		len(res.Probes), kinds["routine"], kinds["loop"], kinds["comm"], timed)
	fmt.Fprintf(stdout, "build: %s\n", strings.NewReplacer("{srcs}", strings.Join(res.Sources, " "), "{exe}", "prog").Replace(cinst.BuildCommand()))
	fmt.Fprintln(stdout, "timing: clock_gettime; each rank writes its records at MPI_Finalize into $MKVET_OUT/mkvet.<rank>.jsonl (default: the working directory)")
	return 0
}

// instrumentCAt compiles and lifts a C or C++ program (from conf's mirror
// when there is one: a configured build) and writes its instrumented copy
// into dir. Each call compiles afresh: the instrumentation changes the
// module it is given.
func instrumentCAt(files []string, cfg fortran.Config, conf *configurer, dir string, opt cinst.Options) (*instrument.Result, error) {
	lf, diags := llvmir.Load(files, cConfig(cfg, conf))
	for _, d := range diags {
		if d.Severity == apt.Error {
			return nil, errors.New(d.String())
		}
	}
	if lf == nil {
		return nil, fmt.Errorf("%s: no program", strings.Join(files, " "))
	}
	return cinst.Instrument(lf, dir, opt)
}

// holdsInput reports whether dir is the directory of one of files (the
// instrumenter refuses it, with or without -f).
func holdsInput(dir string, files []string) bool {
	d, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for _, f := range files {
		if a, err := filepath.Abs(filepath.Dir(f)); err == nil && a == d {
			return true
		}
	}
	return false
}
