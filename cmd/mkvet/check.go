package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mkvet/mkvet/analyzer"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/frontend/llvmir"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval"
)

func init() {
	register(&command{
		name: "check",
		usage: "[-json] [-D name=value,...] [-assume REL] [-I dir] [-define NAME[=val]] [-cpp] [-form fixed|free|auto] " +
			"[-entry NAME] [-machine NAME|FILE] [-share X] [-imbalance X] [-list] FILE...",
		short: "report hot loops, load imbalance, serial work and communication in loops, vet style",
		order: 5,
		run:   runCheck,
	})
}

// costFlags are the flags of the subcommands that cost a program (check,
// annotate): how to read the source, the assumptions, and the point.
type costFlags struct {
	progFlags
	machine string
}

func (cf *costFlags) register(fs *flag.FlagSet) {
	cf.progFlags.register(fs, "evaluate at `name=value` (repeatable, or comma-separated): P, the problem sizes, values read at run time; "+
		"parameters with a default take it when not given")
	cf.progFlags.registerConfigure(fs, "once, for the -D point,")
	fs.StringVar(&cf.machine, "machine", "", "machine profile `NAME|FILE` turning work into predicted seconds at a point (embedded: "+
		strings.Join(model.Names(), ", ")+")")
}

// costed is a program parsed, costed and, when every symbol has a value,
// evaluated at the point.
type costed struct {
	prog    *apt.Program
	sources map[string][]byte // the inputs as -configure left them, nil without
	report  *cost.Report
	point   *cost.Point // nil when symbolic
	missing []string    // symbols without a value when symbolic
	given   []string    // parameters -D gave, as report symbols
	machine *model.Profile
	// threads is OMP_NUM_THREADS as -env gives it ("" when it does not).
	threads string
}

// symbolName maps a name the user wrote (-D, -assume) to the report's
// symbol: P (or p) is the number of processes, rank the calling rank, and
// every other name is a Fortran variable, case-insensitive and kept in
// lower case.
func symbolName(s string) string {
	switch {
	case s == "P" || s == "p":
		return cost.Size
	case strings.EqualFold(s, cost.Rank):
		return cost.Rank
	}
	return strings.ToLower(s)
}

// load parses the files, costs the program and evaluates it at the -D point.
// Problems are printed to stderr; status is 2 when the run cannot go on.
func (cf *costFlags) load(cmd string, files []string, stderr io.Writer) (c *costed, status int) {
	fail := func(format string, args ...any) (*costed, int) {
		fmt.Fprintf(stderr, "mkvet "+cmd+": "+format+"\n", args...)
		return nil, 2
	}
	at, names, err := parseDefs(cf.defs)
	if err != nil {
		return fail("%v", err)
	}
	env := map[string]int64{}
	for _, n := range names {
		v, ok := at[n].Int64()
		if !ok {
			return fail("-D %s=%s: the value must be an integer", n, at[n])
		}
		s := symbolName(n)
		if s == cost.Rank {
			return fail("-D %s: the rank is not a parameter; every rank 0..P-1 is evaluated", n)
		}
		if s == cost.Size && v < 1 {
			return fail("-D %s=%d: the number of processes must be at least 1", n, v)
		}
		env[s] = v
	}
	var machine *model.Profile
	if cf.machine != "" {
		if machine, err = model.Load(cf.machine); err != nil {
			return fail("-machine: %v", err)
		}
	}
	l, status := cf.parse(cmd, files, stderr, true)
	if l == nil {
		return nil, status
	}
	r := l.report
	c = &costed{prog: l.prog, sources: l.sources, report: r, machine: machine}
	if env, err := cf.environ(); err == nil {
		c.threads = env["OMP_NUM_THREADS"]
	}
	if r.Stopped != nil {
		why := "(a build for another number of processes, a problem too small or too large for them)"
		if k := stoppingCheck(compiledChecks(l.prog), r.Stopped.Pos); k != nil {
			why = fmt.Sprintf("(%s: the build is for P=%d", k.describe(), k.value)
			if cf.configure == "" {
				why += "; " + strings.Replace(configureHint, "for each P", "for the -D point", 1)
			}
			why += ")"
		}
		for _, a := range r.Assumed {
			if a.Args {
				// The stop may be the program's answer to a command
				// line it was not given.
				why = strings.TrimSuffix(why, ")") + "; or the arguments the run was taken to have: " + a.What + ")"
				break
			}
		}
		at := ""
		if pt := pointText(env); pt != "" {
			at = "at " + pt + " "
		}
		return fail("%sthe program stops at %s on every process before its end: one of its own checks fails there %s",
			at, r.Stopped.Pos, why)
	}

	known := map[string]bool{}
	if r.Parallel {
		known[cost.Size] = true
	}
	for _, q := range r.Params {
		known[q.Name] = true
	}
	var unknown []string
	for _, n := range names {
		if s := symbolName(n); !known[s] {
			unknown = append(unknown, n)
			delete(env, s)
		}
	}
	if len(unknown) > 0 {
		var params []string
		for _, q := range r.Params {
			params = append(params, q.Name)
		}
		if r.Parallel {
			params = append(params, cost.Size)
		}
		fmt.Fprintf(stderr, "mkvet %s: note: -D %s: not a parameter of the program (its parameters: %s); ignored\n",
			cmd, strings.Join(unknown, ", "), orNone(params))
	}
	if p, ok := env[cost.Size]; ok && cf.configure == "" {
		// The program runs at P, but values compiled for another P
		// (arrays sized for it) would be mixed in silently.
		for _, k := range compiledChecks(l.prog) {
			if k.value != p {
				fmt.Fprintf(stderr, "mkvet %s: note: the build is for P=%d (%s): the values compiled for it are used at P=%d; %s\n",
					cmd, k.value, k.describe(), p, strings.Replace(configureHint, "for each P", "for the -D point", 1))
				break
			}
		}
	}
	for s := range env {
		c.given = append(c.given, s)
	}
	slices.Sort(c.given)
	c.missing = r.MissingParams(env)
	if r.DataOnly(c.missing) {
		// Values that only choose between cases that hardly move the
		// work take a default (marked where counts rest on it).
		if pt, err := r.AtKnown(env); err == nil && len(analyzer.NeutralChoices(r, pt)) > 0 {
			c.missing = r.MissingParams(env)
		}
	}
	if pt, err := r.AtKnown(env); err == nil && r.DataOnly(c.missing) {
		// Only values of the data are missing: everything that rests on
		// none of them is evaluated at the point. (A figure without an
		// exact value there, a square root of P, leaves the results
		// symbolic, below.)
		c.point = pt
		what, them := "1 value", "it are closed forms in it"
		if len(c.missing) > 1 {
			what, them = fmt.Sprintf("%d values", len(c.missing)), "them are closed forms in them"
		}
		others := "the others are evaluated"
		if p := pointText(env); p != "" {
			others += " at " + p
		}
		fmt.Fprintf(stderr, "mkvet %s: note: no value for %s of the program's data (%s): the counts that rest on %s (MK3001 asks for each), %s\n",
			cmd, what, firstOf(c.missing, ", "), them, others)
		return c, 0
	}
	if len(c.missing) > 0 && argvOnly(r, c.missing) {
		fmt.Fprintf(stderr, "mkvet %s: note: no value for %s: the program chooses what it does by its command-line arguments; "+
			"results are symbolic (give the arguments with -args)\n", cmd, firstOf(c.missing, ", "))
		return c, 0
	}
	if len(c.missing) > 0 {
		if len(c.missing) <= noteItems {
			fmt.Fprintf(stderr, "mkvet %s: note: no value for %s; results are symbolic (give %s)\n",
				cmd, strings.Join(c.missing, ", "), defsHint(c.missing))
		} else {
			// Each unknown is asked for once, by its MK3001 finding with
			// its origin; the note only counts them.
			fmt.Fprintf(stderr, "mkvet %s: note: no value for %d parameters (%s); results are symbolic (MK3001 asks for each)\n",
				cmd, len(c.missing), firstOf(c.missing, ", "))
		}
		return c, 0
	}
	if c.point, err = r.At(env); err != nil {
		return fail("%v", err)
	}
	return c, 0
}

// argvOnly reports whether some of the missing values are the text or the
// number of a C program's arguments (FromArguments: -args gives them) and
// the others values of its data.
func argvOnly(r *cost.Report, missing []string) bool {
	byName := map[string]*cost.Param{}
	for _, q := range r.Params {
		byName[q.Name] = q
	}
	argv := false
	for _, m := range missing {
		q := byName[m]
		switch {
		case q == nil:
			return false
		case q.Origin == cost.FromArguments:
			argv = true
		case !q.Origin.Data():
			return false
		}
	}
	return argv
}

// renameSymbols maps the symbols of e as symbolName does.
func renameSymbols(e symbolic.Expr) (symbolic.Expr, error) {
	sub := map[string]symbolic.Expr{}
	for _, s := range e.Symbols() {
		if t := symbolName(s); t != s {
			sub[s] = symbolic.Sym(t)
		}
	}
	if len(sub) == 0 {
		return e, nil
	}
	return e.Subst(sub)
}

// shortDefsHint is defsHint for at most noteItems names, then how many
// more (check -json lists them).
func shortDefsHint(names []string) string {
	if len(names) <= noteItems {
		return defsHint(names)
	}
	return defsHint(names[:noteItems]) + fmt.Sprintf(",… (%d more; check -json lists them)", len(names)-noteItems)
}

func defsHint(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "=..."
	}
	return "-D " + strings.Join(parts, ",")
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

// runCheck is mkvet's main job: cost the program and print the catalogue's
// diagnostics as file:line:col: ID message. Exit status 0 without findings,
// 1 with findings, 2 on usage or input errors.
func runCheck(args []string, stdout, stderr io.Writer) int {
	c := lookup("check")
	fs := newFlagSet(c, stderr)
	var cf costFlags
	cf.register(fs)
	jsonOut := fs.Bool("json", false, "print a JSON object (schema in README.md); the same as -format json")
	format := fs.String("format", "text", "output format: text (file:line:col: ID message), json (as -json) or sarif (SARIF 2.1.0, for code scanning)")
	root := fs.String("root", ".", "with -format sarif: the directory the file locations are relative to (the repository's root)")
	share := fs.Float64("share", 0.10, "share of the work from which a loop nest is hot (MK1001) and serial work matters (MK1003)")
	imb := fs.Float64("imbalance", 1.05, "max/mean ratio of per-rank work from which MK1002 reports at a point")
	list := fs.Bool("list", false, "describe every check of the catalogue and exit")
	files, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if *list {
		for i, ch := range analyzer.Checks {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprint(stdout, analyzer.Describe(ch))
		}
		return 0
	}
	switch *format {
	case "text":
	case "json":
		*jsonOut = true
	case "sarif":
		if *jsonOut {
			fmt.Fprintln(stderr, "mkvet check: -json and -format sarif: choose one")
			return 2
		}
	default:
		fmt.Fprintf(stderr, "mkvet check: -format %q: want text, json or sarif\n", *format)
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "mkvet check: no input files")
		fs.Usage()
		return 2
	}
	if *share <= 0 || *share > 1 || *imb < 1 {
		fmt.Fprintln(stderr, "mkvet check: -share must be in (0, 1] and -imbalance at least 1")
		return 2
	}
	cd, status := cf.load("check", files, stderr)
	if cd == nil {
		return status
	}
	ds := analyzer.Run(cd.report, cd.point, analyzer.Options{Share: *share, Imbalance: *imb, Machine: cd.machine, Given: cd.given})
	neutral := analyzer.Neutral(cd.report, cd.point, cd.given)
	if !*jsonOut {
		printNotes(stderr, "check", cd, neutral)
	}
	if *format == "sarif" {
		b, err := analyzer.SARIF(ds, version, *root)
		if err != nil {
			fmt.Fprintf(stderr, "mkvet check: %v\n", err)
			return 2
		}
		stdout.Write(append(b, '\n'))
	} else if *jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(checkOutput(cd, ds)); err != nil {
			fmt.Fprintf(stderr, "mkvet check: %v\n", err)
			return 2
		}
	} else {
		for _, d := range ds {
			fmt.Fprintln(stdout, d)
		}
	}
	if len(ds) > 0 {
		return 1
	}
	return 0
}

// printNotes tells, one line each, what the evaluation took without being
// told: input files taken as absent and environment variables taken as
// unset (the program's own defaults), choices made where the program
// depends on data (an exit on convergence not taken), and values that take
// neutral defaults because they move the predicted work by less than 1% at
// the point.
func printNotes(w io.Writer, cmd string, cd *costed, neutral []analyzer.NeutralParam) {
	for _, in := range cd.report.Inputs {
		if in.Environment {
			fmt.Fprintf(w, "mkvet %s: note: %s: the environment variable %s is read (%s): taken as unset, so the program's own fallback is used; give a value with -env %s=VALUE\n",
				cmd, in.Pos, in.Name, in.How, in.Name)
			continue
		}
		if in.Required {
			fmt.Fprintf(w, "mkvet %s: note: %s: the program reads %s, which the run's directory does not hold: what it reads stays named values (MK3001); run mkvet where the run starts, or give -dir\n",
				cmd, in.Pos, in.Name)
			continue
		}
		fmt.Fprintf(w, "mkvet %s: note: %s: %s is read only when present (%s): taken as absent, so the program's own defaults are used\n",
			cmd, in.Pos, in.Name, in.How)
	}
	if loops := ompLoops(cd.prog); len(loops) > 0 {
		threads := "OMP_NUM_THREADS is not given (-env)"
		if cd.threads != "" {
			threads = "OMP_NUM_THREADS=" + cd.threads
		}
		what := fmt.Sprintf("%d OpenMP work-sharing loops", len(loops))
		if len(loops) == 1 {
			what = "an OpenMP work-sharing loop"
		}
		// As many of the loops as a line of messageChars holds.
		var line string
		for k := min(len(loops), 4); k >= 1; k-- {
			line = fmt.Sprintf("mkvet %s: note: %s (%s): counts are each MPI process's, all its threads together (%s); time is one thread's",
				cmd, what, ompList(loops, k), threads)
			if utf8.RuneCountInString(line) <= messageChars {
				break
			}
		}
		fmt.Fprintln(w, line)
	}
	if len(cd.report.Read) > 0 {
		var vals []string
		seen := map[string]bool{}
		for _, v := range cd.report.Read {
			// One datum read by two READs (on one rank to size the grid,
			// again with the rest) is one value.
			if s := fmt.Sprintf("%s=%s (%s:%d)", v.Name, shortDatum(v.Text), v.File, v.Line); !seen[s] {
				seen[s] = true
				vals = append(vals, s)
			}
		}
		fmt.Fprintf(w, "mkvet %s: note: values read from the program's input files: %s\n", cmd, firstOf(vals, ", "))
	}
	for _, a := range cd.report.Assumed {
		fmt.Fprintf(w, "mkvet %s: note: %s\n", cmd, a.What)
	}
	var deck []string
	for _, q := range cd.report.Params {
		if q.Defaulted && q.Value != nil {
			deck = append(deck, fmt.Sprintf("%s=%d", q.Name, *q.Value))
		}
	}
	if len(deck) > 0 {
		fmt.Fprintf(w, "mkvet %s: note: the input deck's values are the program's own defaults where -D gives none: %s; give your deck's values with -D\n",
			cmd, firstOf(deck, ", "))
	}
	var freq, other []string
	for _, n := range neutral {
		if n.Param.Origin == cost.FromFrequency {
			freq = append(freq, n.Param.Name)
		} else {
			other = append(other, fmt.Sprintf("%s = %s", n.Param.Name, n.Param.Default))
		}
	}
	// at names the point; a serial program with nothing given has none.
	at := ""
	if pt := analyzer.Point(cd.report, cd.point); pt != "" {
		at = " at " + pt
	}
	if len(freq) > 0 {
		fmt.Fprintf(w, "mkvet %s: note: %d branch frequencies move the predicted work by less than 1%%%s and take the neutral default of %d%%: %s\n",
			cmd, len(freq), at, symeval.NeutralFrequency, firstOf(freq, ", "))
	}
	if len(other) > 0 {
		what := fmt.Sprintf("%d bounded values move the predicted work by less than 1%%%s and take their defaults", len(other), at)
		if len(other) == 1 {
			what = fmt.Sprintf("a bounded value moves the predicted work by less than 1%%%s and takes its default", at)
		}
		fmt.Fprintf(w, "mkvet %s: note: %s (the middle of a range, the least of a trip count, the costliest of a choice between cases): %s\n", cmd, what, firstOf(other, "; "))
	}
}

// noteItems bounds the items a note lists; -json lists every parameter.
const noteItems = 6

// shortDatum is a value read as a note shows it: quoted where it is a
// text with blanks or none (a line read whole), cut to its first 20
// characters.
func shortDatum(s string) string {
	if r := []rune(s); len(r) > 20 {
		s = string(r[:19]) + "…"
	}
	if s == "" || strings.ContainsAny(s, " ,") {
		return strconv.Quote(s)
	}
	return s
}

// noteChars bounds the characters of the items a note lists, so that the
// note fits on a line whatever the names' lengths.
const noteChars = 150

// firstOf joins the first items, at most noteItems of them and noteChars
// characters (one at least), and says how many more there are.
func firstOf(items []string, sep string) string {
	n, width := 0, 0
	for n < len(items) && n < noteItems {
		w := utf8.RuneCountInString(items[n]) + len(sep)
		if n > 0 && width+w > noteChars {
			break
		}
		width += w
		n++
	}
	if n == len(items) {
		return strings.Join(items, sep)
	}
	return strings.Join(items[:n], sep) + fmt.Sprintf("%sand %d more (check -json lists them)", sep, len(items)-n)
}

// checkJSON is the -json output of mkvet check; README.md documents it.
// Fields are only ever added, never renamed; Version counts incompatible
// changes.
type checkJSON struct {
	Version  int              `json:"version"`
	Files    []string         `json:"files"`
	Entry    string           `json:"entry"`
	Parallel bool             `json:"parallel"`
	Point    map[string]int64 `json:"point"`
	Missing  []string         `json:"missing"`
	Machine  string           `json:"machine,omitempty"`
	Params   []paramJSON      `json:"params"`
	// Assumed and AbsentInputs are what the text output's notes say the
	// evaluation took without being told.
	Assumed      []assumedJSON `json:"assumed,omitempty"`
	AbsentInputs []inputJSON   `json:"absent_inputs,omitempty"`
	// Read are the values the program's READ statements took from its
	// input files (-dir).
	Read        []readJSON `json:"read,omitempty"`
	Work        workJSON   `json:"work"`
	Nodes       []nodeJSON `json:"nodes"`
	Diagnostics []diagJSON `json:"diagnostics"`
}

// nodeJSON is one loop, call or MPI call: its per-rank count and work as
// closed forms and, at the point, per rank (annotate's figures, whole).
type nodeJSON struct {
	ID      string `json:"id"`
	Pos     string `json:"pos"`
	Routine string `json:"routine"`
	What    string `json:"what"`
	Unit    string `json:"unit"`
	// Count and Work are null where they have no closed form within the
	// limits (Missing names them): unknown, never 0.
	Count        *formJSON   `json:"count"`
	Work         *formJSON   `json:"work,omitempty"`
	Share        *float64    `json:"share,omitempty"`
	ShareLimit   bool        `json:"share_is_limit,omitempty"`
	RoutineShare *float64    `json:"routine_share,omitempty"`
	Exact        bool        `json:"exact"`
	Note         string      `json:"note,omitempty"`
	Missing      []string    `json:"missing,omitempty"`
	At           *nodeAtJSON `json:"at,omitempty"`
	// Memory is an innermost loop's memory term at the point.
	Memory *memoryJSON `json:"memory,omitempty"`
}

// memoryJSON is an innermost loop's memory term (analyzer.MemoryFigure).
type memoryJSON struct {
	Bound      bool    `json:"memory_bound"`
	Level      string  `json:"level"`
	WorkingSet float64 `json:"working_set"`
	DataS      float64 `json:"data_seconds"`
	CoreS      float64 `json:"core_seconds"`
}

type formJSON struct {
	ClosedForm string      `json:"closed_form"`
	Pieces     []pieceJSON `json:"pieces"`
	// PiecesLeftOff counts the pieces past the bounds below, not written.
	PiecesLeftOff int `json:"pieces_left_off,omitempty"`
}

// maxJSONPieces and maxJSONText bound the pieces -json writes of one form
// (the first piece is always written). A form whose counts rest on many
// unknowns has a piece per combination of their cases, each a sum over
// them (miniAMR at P = 4: 3,747 pieces in the program's work, some of 77
// KB, 169 MB of JSON over its nodes, most of check's time spent writing
// it); the values of the unknowns (-D) collapse it, and the count of the
// pieces not written says that some were not.
const (
	maxJSONPieces = 256
	maxJSONText   = 256 << 10
)

type nodeAtJSON struct {
	Count *ranksJSON `json:"count,omitempty"`
	Work  *ranksJSON `json:"work,omitempty"`
}

// ranksJSON is a per-rank quantity at the point: every rank's value when P
// is at most perRankLimit, and always the runs of consecutive ranks with
// equal values.
type ranksJSON struct {
	Max      float64   `json:"max"`
	Min      float64   `json:"min"`
	Total    float64   `json:"total"`
	MaxRanks string    `json:"max_ranks"`
	Runs     []runJSON `json:"runs"`
	Values   []float64 `json:"values,omitempty"`
}

type runJSON struct {
	Ranks string  `json:"ranks"`
	Value float64 `json:"value"`
}

// perRankLimit is the largest P for which check -json lists every rank's
// value; beyond it the runs (ranges of equal values) say the same in less.
const perRankLimit = 64

type paramJSON struct {
	Name    string `json:"name"`
	Origin  string `json:"origin"`
	Pos     string `json:"pos"`
	What    string `json:"what"`
	Default string `json:"default,omitempty"`
	Value   *int64 `json:"value,omitempty"`
}

// assumedJSON is a choice the counts rest on, where the program depends
// on what the analysis cannot see.
type assumedJSON struct {
	Pos  string `json:"pos"`
	What string `json:"what"`
}

// inputJSON is a file the program reads only when present, taken as
// absent: how it reads it (IOSTAT=, ERR=, INQUIRE EXIST=).
type inputJSON struct {
	Pos  string `json:"pos"`
	Name string `json:"name"`
	How  string `json:"how"`
	// Environment marks an environment variable taken as unset.
	Environment bool `json:"environment,omitempty"`
	// Required marks a file read with no fallback that the run's
	// directory does not hold.
	Required bool `json:"required,omitempty"`
}

// readJSON is a value read from an input file: the READ, the variable,
// and the file, record and text it came from.
type readJSON struct {
	Pos  string `json:"pos"`
	Name string `json:"name"`
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// workJSON is the program's work: its closed form and its values at the
// point.
type workJSON struct {
	formJSON
	At *valueJSON `json:"at,omitempty"`
}

type pieceJSON struct {
	Value string   `json:"value"`
	Guard []string `json:"guard"`
}

// size is about the bytes of p's JSON.
func (p pieceJSON) size() int {
	n := len(p.Value)
	for _, g := range p.Guard {
		n += len(g)
	}
	return n
}

type valueJSON struct {
	Max       float64 `json:"max"`
	Min       float64 `json:"min"`
	Total     float64 `json:"total"`
	Imbalance float64 `json:"imbalance"`
	MaxRanks  string  `json:"max_ranks"`
	Seconds   float64 `json:"seconds,omitempty"`
}

type diagJSON struct {
	Pos      string         `json:"pos"`
	File     string         `json:"file"`
	Line     int            `json:"line"`
	Col      int            `json:"col"`
	ID       string         `json:"id"`
	Title    string         `json:"title"`
	Severity string         `json:"severity"`
	Node     string         `json:"node,omitempty"`
	Message  string         `json:"message"`
	Facts    map[string]any `json:"facts"`
}

var originNames = map[cost.ParamOrigin]string{
	cost.FromAnnotation: "annotation", cost.FromRead: "read",
	cost.FromCommandLine: "command-line", cost.FromUnresolved: "unresolved",
	cost.FromFrequency: "frequency", cost.FromTripCount: "trip-count", cost.FromArguments: "arguments",
}

func checkOutput(cd *costed, ds []analyzer.Diagnostic) checkJSON {
	r := cd.report
	out := checkJSON{
		Version: 1, Files: r.Program.Files, Parallel: r.Parallel, Missing: cd.missing,
		Params: []paramJSON{}, Nodes: []nodeJSON{}, Diagnostics: []diagJSON{},
		Work: workJSON{formJSON: formOutput(analyzer.Tidy(r, r.Work))},
	}
	if out.Missing == nil {
		out.Missing = []string{}
	}
	if r.Entry != nil {
		out.Entry = r.Entry.Name
	}
	if cd.machine != nil {
		out.Machine = cd.machine.Name
	}
	if pt := cd.point; pt != nil {
		out.Point = map[string]int64{}
		for k, v := range pt.Env {
			out.Point[k] = v
		}
		w := pt.Work
		v := &valueJSON{Max: w.Max, Min: w.Min, Total: w.Total, Imbalance: analyzer.Round(w.Imbalance), MaxRanks: cost.Ranks(w.MaxRanks)}
		if cd.machine != nil {
			v.Seconds = analyzer.Round(w.Max * cd.machine.Ops.Resolved().Add.Float64())
		}
		out.Work.At = v
	}
	for _, a := range r.Assumed {
		out.Assumed = append(out.Assumed, assumedJSON{Pos: a.Pos.String(), What: a.What})
	}
	for _, in := range r.Inputs {
		out.AbsentInputs = append(out.AbsentInputs, inputJSON{Pos: in.Pos.String(), Name: in.Name, How: in.How, Environment: in.Environment, Required: in.Required})
	}
	for _, v := range r.Read {
		out.Read = append(out.Read, readJSON{Pos: v.Pos.String(), Name: v.Name, File: v.File, Line: v.Line, Text: v.Text})
	}
	for _, q := range r.Params {
		p := paramJSON{Name: q.Name, Origin: originNames[q.Origin], Pos: q.Pos.String(), What: q.What}
		if q.Default != nil {
			p.Default = q.Default.String()
		}
		if cd.point != nil {
			if v, ok := cd.point.Env[q.Name]; ok {
				p.Value = &v
			}
		}
		out.Params = append(out.Params, p)
	}
	for _, f := range analyzer.Figures(r, cd.point, analyzer.Options{Machine: cd.machine, Given: cd.given}) {
		out.Nodes = append(out.Nodes, nodeOutput(f))
	}
	for _, d := range ds {
		title := ""
		if ch := analyzer.Lookup(d.ID); ch != nil {
			title = ch.Title
		}
		facts := d.Facts
		if facts == nil {
			facts = map[string]any{}
		}
		out.Diagnostics = append(out.Diagnostics, diagJSON{
			Pos: d.Pos.String(), File: d.Pos.File, Line: d.Pos.Line, Col: d.Pos.Col,
			ID: d.ID, Title: title, Severity: d.Severity.String(), Node: d.Node, Message: d.Message, Facts: facts,
		})
	}
	slices.Sort(out.Missing)
	return out
}

// formOutput is a tidied closed form for -json: on one line as the messages
// print it, and as its pieces.
func formOutput(pw symbolic.Piecewise) formJSON {
	f := formJSON{ClosedForm: analyzer.OneLine(pw), Pieces: []pieceJSON{}}
	text := 0
	for i, pc := range pw.Pieces {
		p := pieceJSON{Value: pc.Value.String(), Guard: []string{}}
		for _, g := range pc.Guard {
			p.Guard = append(p.Guard, g.String())
		}
		if i == maxJSONPieces || i > 0 && text+p.size() > maxJSONText {
			f.PiecesLeftOff = len(pw.Pieces) - i
			break
		}
		text += p.size()
		f.Pieces = append(f.Pieces, p)
	}
	return f
}

func nodeOutput(f analyzer.Figure) nodeJSON {
	b := f.Node.Node.Base()
	n := nodeJSON{ID: b.ID, Pos: b.Span.Start().String(), Routine: f.Node.Routine.Name,
		What: f.Head, Unit: f.Unit, Exact: f.Exact, Note: f.Note}
	form := func(pw symbolic.Piecewise) *formJSON {
		fo := formOutput(pw)
		return &fo
	}
	at := &nodeAtJSON{}
	if f.CountMissing {
		n.Missing = append(n.Missing, "count")
	} else {
		n.Count = form(f.Count)
		at.Count = ranksOutput(f.CountAt)
	}
	if f.HasWork {
		if f.WorkMissing {
			n.Missing = append(n.Missing, "work")
		} else {
			n.Work = form(f.Work)
			at.Work = ranksOutput(f.WorkAt)
		}
	}
	if f.Share.Known {
		v := analyzer.Round(f.Share.Value)
		n.Share, n.ShareLimit = &v, f.Share.Limit
	}
	if f.RoutineShare.Known {
		v := analyzer.Round(f.RoutineShare.Value)
		n.RoutineShare = &v
	}
	if at.Count != nil || at.Work != nil {
		n.At = at
	}
	if m := f.Memory; m != nil {
		n.Memory = &memoryJSON{Bound: m.Bound, Level: m.Level, WorkingSet: m.WorkingSet,
			DataS: analyzer.Round(m.Data), CoreS: analyzer.Round(m.Core)}
	}
	return n
}

func ranksOutput(v *cost.Values) *ranksJSON {
	if v == nil {
		return nil
	}
	out := &ranksJSON{Max: v.Max, Min: v.Min, Total: v.Total, MaxRanks: cost.Ranks(v.MaxRanks), Runs: []runJSON{}}
	for i := 0; i < len(v.PerRank); {
		j := i
		for j+1 < len(v.PerRank) && v.PerRank[j+1] == v.PerRank[i] {
			j++
		}
		ranks := fmt.Sprint(i)
		if j > i {
			ranks = fmt.Sprintf("%d-%d", i, j)
		}
		out.Runs = append(out.Runs, runJSON{Ranks: ranks, Value: v.PerRank[i]})
		i = j + 1
	}
	if len(v.PerRank) <= perRankLimit {
		out.Values = v.PerRank
	}
	return out
}

// frontendConfig builds the frontend's configuration from the flags that
// check, annotate, whatif and instrument share.
func frontendConfig(formName string, incs, macros []string, cpp bool) (fortran.Config, fortran.Form, error) {
	form, ok := fortran.ParseForm(formName)
	if !ok {
		return fortran.Config{}, form, fmt.Errorf("-form must be fixed, free or auto, not %q", formName)
	}
	cfg := fortran.Config{IncludeDirs: incs, Form: form, Preprocess: cpp, Defines: map[string]string{}}
	for _, d := range macros {
		name, val, _ := strings.Cut(d, "=")
		if name == "" {
			return cfg, form, fmt.Errorf("-define needs NAME[=val], not %q", d)
		}
		cfg.Defines[name] = val
	}
	return cfg, form, nil
}

// assumeFlags reads -assume relations with the report's symbol names; ok is
// false after a problem was reported on stderr.
func assumeFlags(cmd string, assumes []string, stderr io.Writer) ([]symbolic.Relation, bool) {
	out, src, err := readAssumes(assumes)
	var pe *symbolic.ParseError
	switch {
	case errors.As(err, &pe):
		reportParseError(stderr, "assume", src, err)
		return nil, false
	case err != nil:
		fmt.Fprintf(stderr, "mkvet %s: -assume %s: %v\n", cmd, src, err)
		return nil, false
	}
	return out, true
}

// readAssumes parses -assume relations into the report's symbol names; on
// an error, src is the -assume value at fault.
func readAssumes(assumes []string) (out []symbolic.Relation, src string, err error) {
	for _, a := range assumes {
		rels, err := symbolic.ParseRelations(a)
		if err != nil {
			return nil, a, err
		}
		for _, r := range rels {
			e, err := renameSymbols(r.E)
			if err != nil {
				return nil, a, err
			}
			out = append(out, symbolic.Relation{E: e, Op: r.Op})
		}
	}
	return out, "", nil
}

// pointText formats -D values as "n=1024, P=8", P last.
func pointText(env map[string]int64) string {
	var keys []string
	for k := range env {
		if k != cost.Size {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if _, ok := env[cost.Size]; ok {
		keys = append(keys, cost.Size)
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, env[k])
	}
	return strings.Join(parts, ", ")
}

// parseProgram reads the program with the frontend its files call for:
// C, C++ and LLVM IR through frontend/llvmir (clang-14, opt-14, llir),
// everything else as Fortran. The Fortran configuration's include path
// and macros are clang's -I and -D.
func parseProgram(files []string, cfg fortran.Config) (*apt.Program, []apt.Diagnostic) {
	return parseProgramIn(files, cfg, nil)
}

// parseProgramIn is parseProgram after a configure step: the Fortran
// frontend reads through cfg.ReadFile, clang compiles the copies in the
// configurer's mirror (conf nil: the user's files).
func parseProgramIn(files []string, cfg fortran.Config, conf *configurer) (*apt.Program, []apt.Diagnostic) {
	var c, f []string
	for _, name := range files {
		if !llvmir.Handles(name) && !fortran.Handles(name) && cfg.Form == fortran.FormAuto {
			// Read as Fortran, a README or a data file would give a
			// page of syntax errors instead of one line.
			return nil, []apt.Diagnostic{{Pos: apt.Pos{File: name, Line: 1, Col: 1}, Severity: apt.Error,
				Msg: fmt.Sprintf("not a source file mkvet reads (extension %q): Fortran %s; C and C++ .c .cc .cpp .cxx .C .c++ .i .ii; LLVM IR .ll .bc (-form fixed or -form free reads any file as Fortran)",
					filepath.Ext(name), fortran.Extensions)}}
		}
		if llvmir.Handles(name) {
			c = append(c, name)
		} else {
			f = append(f, name)
		}
	}
	switch {
	case len(c) == 0:
		return fortran.ParseFiles(files, cfg) // Fortran
	case len(f) > 0:
		return nil, []apt.Diagnostic{{Pos: apt.Pos{File: f[0]}, Severity: apt.Error,
			Msg: fmt.Sprintf("%s is Fortran and %s is C/C++/IR: a program is read by one frontend; give the files of one language", f[0], c[0])}}
	}
	prog, diags := llvmir.ParseFiles(files, cConfig(cfg, conf))
	if conf != nil {
		conf.noteWritten()
	}
	return prog, diags
}

// cConfig is the C frontend's configuration for the Fortran one's include
// path and macros, compiling from conf's mirror when there is one.
func cConfig(cfg fortran.Config, conf *configurer) llvmir.Config {
	c := llvmir.Config{IncludeDirs: cfg.IncludeDirs, Defines: cfg.Defines}
	if conf != nil {
		c.Mirror, c.Root = conf.mirror, conf.root
	}
	return c
}

// ompList is the first k of the OpenMP loops.
func ompList(loops []string, k int) string {
	if len(loops) <= k {
		return strings.Join(loops, ", ")
	}
	return fmt.Sprintf("%s and %d more, marked omp= by mkvet apt", strings.Join(loops[:k], ", "), len(loops)-k)
}

// messageChars bounds a line of check's output (the catalogue's one-line
// messages).
const messageChars = 300

// ompLoops lists where the program's OpenMP work-sharing loops are, with
// their directives (!$omp parallel do at file:line).
func ompLoops(prog *apt.Program) []string {
	var out []string
	for _, r := range prog.Routines {
		apt.Inspect(r, func(n apt.Node) bool {
			if l, ok := n.(*apt.Loop); ok && l.OMP != "" {
				out = append(out, fmt.Sprintf("%s %s", l.OMP, l.Span.Start()))
			}
			return true
		})
	}
	return out
}
