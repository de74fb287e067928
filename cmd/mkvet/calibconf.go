package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/instrument/sweep"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// Calibration and prediction of a program whose sizes are compiled in by a
// configure step (NPB's setparams writes the class's sizes and the process
// count into npbparams.h): each point of a sweep, and each point predicted,
// is configured by the user's own command, read and costed as configured,
// so that the static counts are those of the program that ran. The
// integer constants the step wrote (isiz01, problem_size, niter) become
// the point's parameters: they are what tells class S from class W in the
// runs database, and what a reader of the calibration sees varied.

// configured is the program as the configure step made it for one set of
// values.
type configured struct {
	key     string            // the values, as valuesText prints them
	vals    map[string]string // the values the command ran with, by report symbol
	command string            // the command as run
	prog    *apt.Program
	report  *cost.Report // at the values it was costed at (nil in configurations.cache)
	// consts are the integer named constants declared in the files the
	// command wrote or changed, by lower-case name.
	consts map[string]int64
	// generated names those files for notes.
	generated []string
}

// configurations configures a program at the points of a sweep or a
// prediction, one private mirror for all of them, caching what each set of
// values made.
type configurations struct {
	pf     *progFlags
	files  []string
	conf   *configurer
	cfg    fortran.Config
	form   fortran.Form
	assume []symbolic.Relation
	stderr io.Writer
	cache  map[string]*configured // by keyOf: the program each configuration reads, not costed
	// reports are the configurations costed, by keyOf and the values
	// costed at.
	reports map[string]*configured
	// current is the key of the configuration the mirror holds now: a
	// build must read the mirror of its own configuration.
	current string
}

func newConfigurations(cmd string, pf *progFlags, files []string, stderr io.Writer) (*configurations, error) {
	cfg, form, err := frontendConfig(pf.form, pf.incs, pf.macros, pf.cpp)
	if err != nil {
		return nil, err
	}
	assume, ok := assumeFlags(cmd, pf.assumes, stderr)
	if !ok {
		return nil, errors.New("bad -assume")
	}
	conf, err := newConfigurer(pf.configure, files, pf.incs)
	if err != nil {
		return nil, fmt.Errorf("-configure: %v", err)
	}
	return &configurations{pf: pf, files: files, conf: conf, cfg: cfg, form: form, assume: assume, stderr: stderr,
		cache: map[string]*configured{}, reports: map[string]*configured{}}, nil
}

func (cs *configurations) close() { cs.conf.close() }

// placeholders are the report symbols the command names ({P}, {class}).
func (cs *configurations) placeholders() []string { return cs.conf.placeholders() }

// keyOf names the configuration of vals: the values of the command's
// placeholders, the only ones that can change what it writes.
func (cs *configurations) keyOf(vals map[string]string) string {
	return valuesText(vals, cs.conf.placeholders())
}

// at configures the program for vals (report symbol to value; ints are the
// integer ones, at which the program is costed, P among them) and leaves
// the mirror holding that configuration. A command that fails is a
// *configureError.
func (cs *configurations) at(vals map[string]string, ints map[string]int64) (*configured, error) {
	key := cs.keyOf(vals)
	base, ok := cs.cache[key]
	if ok {
		if cs.current != key {
			// Another configuration is in the mirror; the build of this
			// one reads the mirror, so the command runs again.
			cs.current = ""
			if err := cs.conf.run(vals); err != nil {
				return nil, err
			}
			cs.current = key
		}
	} else {
		var err error
		if base, err = cs.configure(key, vals); err != nil {
			return nil, err
		}
	}
	// The program's text depends only on what the command wrote; its
	// costs also on every value it is costed at, P first of all, which a
	// command without {P} (NPB 3.4's setparams) does not name.
	rkey := key + " at " + valuesOf(ints)
	if c, ok := cs.reports[rkey]; ok {
		return c, nil
	}
	argv, err := cs.pf.argv()
	if err != nil {
		return nil, err
	}
	environ, err := cs.pf.environ()
	if err != nil {
		return nil, err
	}
	rep, err := analyze(base.prog, cost.Options{Entry: cs.pf.entry, Assume: cs.assume, Args: argv, Env: environ, Dir: cs.pf.dir, Stdin: cs.pf.stdin}, ints)
	if err != nil {
		return nil, fmt.Errorf("configured by %q: %w", cs.conf.command, err)
	}
	c := *base
	c.report = rep
	cs.reports[rkey] = &c
	return &c, nil
}

// valuesOf prints integer values in the order of their names.
func valuesOf(ints map[string]int64) string {
	var parts []string
	for _, k := range sortedKeys(ints) {
		parts = append(parts, k+"="+strconv.FormatInt(ints[k], 10))
	}
	return strings.Join(parts, " ")
}

// configure runs the command for vals and reads the program it leaves
// in the mirror (the configuration named key), without costing it.
func (cs *configurations) configure(key string, vals map[string]string) (*configured, error) {
	// Until the command succeeds the mirror holds no known configuration
	// (a failing command may have written part of one).
	cs.current = ""
	prog, diags, err := cs.conf.parse(cs.files, cs.cfg, vals)
	if err != nil {
		return nil, err
	}
	cs.current = key
	for _, d := range diags {
		if d.Severity == apt.Error {
			return nil, fmt.Errorf("%s (configured by %q)", d, cs.conf.command)
		}
	}
	written := map[string]bool{}
	for name, st := range cs.conf.read {
		if st != fileSame {
			written[name] = true
		}
	}
	consts := writtenConstants(prog, written)
	if allC(cs.files) {
		consts = cs.conf.definedConstants()
	}
	c := &configured{key: key, vals: cloned(vals), command: cs.conf.command, prog: prog,
		consts: consts, generated: cs.conf.generated()}
	cs.cache[key] = c
	return c, nil
}

// writtenConstants returns the integer named constants (PARAMETERs)
// declared in the files written, with their values; a name declared with
// different values in different scopes is left out.
func writtenConstants(prog *apt.Program, written map[string]bool) map[string]int64 {
	out := map[string]int64{}
	clash := map[string]bool{}
	var visit func(r *apt.Routine)
	visit = func(r *apt.Routine) {
		if r.Scope != nil {
			for _, v := range r.Scope.Vars {
				if v.Param == nil || !written[v.Pos.File] {
					continue
				}
				x, ok := prog.IntConstant(r, v.Param)
				if !ok {
					continue
				}
				if y, seen := out[v.Name]; seen && y != x {
					clash[v.Name] = true
				}
				out[v.Name] = x
			}
		}
		for _, c := range r.Contains {
			visit(c)
		}
	}
	for _, r := range prog.Routines {
		visit(r)
	}
	for n := range clash {
		delete(out, n)
	}
	return out
}

// splitDefs reads -D values where some may be labels for the configure
// command's placeholders (-D class=A): integers by report symbol, and the
// words that are not numbers by report symbol. A label must be a
// placeholder of the command.
func splitDefs(defs []string, placeholders []string) (map[string]int64, map[string]string, error) {
	var numeric []string
	labels := map[string]string{}
	for _, d := range defs {
		for _, item := range splitTopLevel(d) {
			name, val, ok := strings.Cut(item, "=")
			name, val = strings.TrimSpace(name), strings.TrimSpace(val)
			if ok && isName(name) && val != "" && isLabel(val) {
				if _, err := strconv.ParseInt(val, 10, 64); err != nil {
					s := symbolName(name)
					if !slices.Contains(placeholders, s) {
						return nil, nil, fmt.Errorf("-D %s=%s: the value must be an integer (a word is only a value of the "+
							"-configure command's placeholders, and it has no {%s})", name, val, name)
					}
					labels[s] = val
					continue
				}
			}
			numeric = append(numeric, item)
		}
	}
	ints, _, err := intDefs(numeric)
	return ints, labels, err
}

// isLabel reports whether s is a word a configure command can be given: letters,
// digits, '.', '-', '_'.
func isLabel(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-", r)) {
			return false
		}
	}
	return s != ""
}

// configValues are the values a configure command is given at a point: the
// labels, the integers and P, by report symbol.
func configValues(labels map[string]string, ints map[string]int64, p int) map[string]string {
	vals := cloned(labels)
	for k, v := range ints {
		vals[k] = strconv.FormatInt(v, 10)
	}
	vals[cost.Size] = strconv.Itoa(p)
	return vals
}

// cloned copies a map (the package's own maps() stands in the way of the
// standard library's maps.Clone).
func cloned[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// merged returns a's entries and b's, b's winning, keyed by report symbol.
func merged[V any](a, b map[string]V) map[string]V {
	out := make(map[string]V, len(a)+len(b))
	for _, m := range []map[string]V{a, b} {
		for k, v := range m {
			out[symbolName(k)] = v
		}
	}
	return out
}

// withP returns the integer values at which a configured program is
// costed: the sizes and the process count.
func withP(ints map[string]int64, p int) map[string]int64 {
	out := merged(ints, nil)
	out[cost.Size] = int64(p)
	return out
}

// configureFailure words a failed configure command for the user.
func configureFailure(err error, cs *configurations) error {
	var ce *configureError
	if errors.As(err, &ce) {
		return fmt.Errorf("-configure: %q failed %s: %s", ce.command, cs.conf.where(), ce.first)
	}
	return err
}

// printConfigurations says, once per configuration, what the command
// wrote: the files and the integer constants in them that differ between
// the configurations (what the runs database tells the points apart by).
func printConfigurations(w io.Writer, cs *configurations, points []sweep.Point, configOf map[string]*configured) {
	var order []*configured
	for _, pt := range points {
		if c := configOf[pt.String()]; c != nil && !slices.ContainsFunc(order, func(o *configured) bool { return o.key == c.key }) {
			order = append(order, c)
		}
	}
	varies := map[string]bool{}
	for _, c := range order {
		for k, v := range c.consts {
			if order[0].consts[k] != v {
				varies[k] = true
			}
		}
		for k := range order[0].consts {
			if _, ok := c.consts[k]; !ok {
				varies[k] = true
			}
		}
	}
	for _, c := range order {
		var parts []string
		for _, k := range sortedKeys(c.consts) {
			if varies[k] {
				parts = append(parts, k+"="+strconv.FormatInt(c.consts[k], 10))
			}
		}
		what := "no integer constant"
		if len(c.consts) > 0 {
			what = fmt.Sprintf("%d integer constants", len(c.consts))
			if len(parts) > 0 {
				what += ", these differing between the configurations: " + strings.Join(parts, " ")
			}
		}
		gen := strings.Join(c.generated, ", ")
		if gen == "" {
			gen = "no file the program reads"
		}
		fmt.Fprintf(w, "calibrate: %s: %q wrote %s; %s\n", c.key, c.command, gen, what)
	}
	fmt.Fprintf(w, "calibrate: configured %s\n", cs.conf.where())
}

// compileAt builds the instrumented program of a point: with a configure
// step, the configuration's program as read from the mirror (which must
// hold that configuration while it is copied), the build template given
// the configuration's values.
func compileAt(cfg *sweep.Config, cs *configurations, c *configured, pt sweep.Point, vals map[string]int64) (*sweep.Build, error) {
	if c == nil {
		return cfg.Compile(vals)
	}
	if _, err := cs.at(c.vals, withP(pt.Params, pt.P)); err != nil {
		return nil, configureFailure(err, cs)
	}
	cc := *cfg
	cc.Prog = c.prog
	cc.BuildVars = c.vals
	cc.Options.ReadFile = cs.conf.readFile
	cc.Options.Record = nil
	for _, p := range c.report.Params {
		cc.Options.Record = append(cc.Options.Record, p.Name)
	}
	return cc.Compile(vals)
}
