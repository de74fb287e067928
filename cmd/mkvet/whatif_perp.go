package main

import (
	"errors"
	"fmt"
	"github.com/mkvet/mkvet/analyzer"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/model/phase"
	"github.com/mkvet/mkvet/model/whatif"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval"
)

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
	a, err := phase.Analyze(prog, phase.Options{Cost: cost.Options{Entry: wf.entry, Assume: assume, Values: values, Args: wf.argvs, Env: wf.environ, Dir: wf.progFlags.dir, Stdin: wf.progFlags.stdin},
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
			if rep, serr = cost.Analyze(prog, cost.Options{Entry: wf.entry, Assume: assume, Values: values, Args: wf.argvs, Env: wf.environ, Dir: wf.progFlags.dir, Stdin: wf.progFlags.stdin}); serr != nil {
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
		pm.decks = deckRecords(rep.Read)
		return nil
	}
	if missing := rep.MissingParams(values); len(missing) > 0 && rep.DataOnly(missing) {
		// As check does: values that only choose between cases that
		// hardly move the work at this P take a default.
		if pt, err := rep.AtKnown(values); err == nil {
			analyzer.NeutralChoices(rep, pt)
		}
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

// deckRecords names the input files values were read from, each with
// the range of its records read (input:1-4).
func deckRecords(read []symeval.ReadValue) []string {
	type span struct{ lo, hi int }
	spans := map[string]*span{}
	var order []string
	for _, v := range read {
		sp := spans[v.File]
		if sp == nil {
			sp = &span{v.Line, v.Line}
			spans[v.File] = sp
			order = append(order, v.File)
		}
		sp.lo, sp.hi = min(sp.lo, v.Line), max(sp.hi, v.Line)
	}
	out := make([]string, 0, len(order))
	for _, f := range order {
		sp := spans[f]
		if sp.lo == sp.hi {
			out = append(out, fmt.Sprintf("%s:%d", f, sp.lo))
			continue
		}
		out = append(out, fmt.Sprintf("%s:%d-%d", f, sp.lo, sp.hi))
	}
	return out
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
		var decks []string
		for _, pm := range r.points {
			if pm.stopped != nil && slices.Contains(ps, pm.p) {
				for _, d := range pm.decks {
					if !slices.Contains(decks, d) {
						decks = append(decks, d)
					}
				}
			}
		}
		if len(decks) > 0 {
			// The values a deck gives are the same at every P: a process
			// grid read there (Sweep3D's npe_i, npe_j) fits one P only.
			return fmt.Sprintf("the program stops through its own checks (at %s) after reading %s, the same at every P: "+
				"if a process grid or a count of processes comes from there (or is compiled in, as NPB's npbparams.h), "+
				"-configure CMD runs CMD in a private copy before each P ({P} the process count) to write it for that P",
				strings.Join(where, ", "), strings.Join(decks, ", "))
		}
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
