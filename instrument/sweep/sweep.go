// Package sweep builds an instrumented program with the user's own build
// command and runs it through the user's own launcher over a grid of problem
// sizes and process counts, collecting each rank's records. Commands are
// templates: {srcs} (the files to compile, runtime module first), {exe},
// {dir} (the build directory), {P} (processes) and {name} for every problem
// size; words are split like a shell does (quotes, backslash), without a
// shell. Input files a run reads from its directory (an input deck) are
// written there from templates with the same placeholders (InputFile).
package sweep

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/instrument"
)

// Config describes how to build and run one program.
type Config struct {
	Prog  *apt.Program
	Files []string
	// Options are passed to instrument.Instrument (Dir and Values are set
	// per build).
	Options instrument.Options
	// Build, Launcher and Input are templates; Input (the run's standard
	// input) may be empty.
	Build, Launcher, Input string
	// InputFiles are written into each run's directory before it starts.
	InputFiles []InputFile
	// Dir is the working directory for builds and runs.
	Dir string
	// BuildVars are further placeholders of the build template: the
	// values a configuration was made for ({class}, {P}). Builds with the
	// same build-time values but other BuildVars are of other sources
	// (NPB's npbparams.h for class S or W) and get directories of their
	// own.
	BuildVars map[string]string
	// Timeout bounds one run (0: 10 minutes).
	Timeout time.Duration
	// Env is added to each run's environment.
	Env []string
	// Instrument, when set, writes the instrumented copy into dir in place
	// of instrument.Instrument with Options (a C program instrumented in
	// its IR by instrument/cinst).
	Instrument func(dir string, values map[string]int64) (*instrument.Result, error)
}

// Point is one run's parameters: problem sizes, the number of processes
// and the values that are not numbers (a problem class, class=S), which
// only templates use: a configure step, the build, the launcher, an input
// file.
type Point struct {
	Params map[string]int64
	Labels map[string]string
	P      int
}

// String formats p as "class=S n=64 P=2", names sorted.
func (p Point) String() string {
	var parts []string
	for _, k := range sortedKeys(p.Labels) {
		parts = append(parts, k+"="+p.Labels[k])
	}
	for _, k := range sortedKeys(p.Params) {
		parts = append(parts, k+"="+strconv.FormatInt(p.Params[k], 10))
	}
	return strings.Join(append(parts, "P="+strconv.Itoa(p.P)), " ")
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// ParseGrid reads a sweep such as "N=64,128,256 P=1,2": space-separated
// name=value lists whose cartesian product is the grid, P the process counts
// (1 when absent). Names are kept in lower case except P. A list with a
// value that is not an integer ("class=S,W") is a list of labels.
func ParseGrid(spec string) ([]Point, error) {
	fields := strings.Fields(spec)
	if len(fields) == 0 {
		return nil, errors.New("empty sweep; write e.g. 'N=64,128,256 P=1,2'")
	}
	type dim struct {
		name   string
		vals   []int64
		labels []string
	}
	var dims []dim
	seen := map[string]bool{}
	for _, f := range fields {
		name, list, ok := strings.Cut(f, "=")
		if !ok || name == "" || list == "" {
			return nil, fmt.Errorf("%q: want name=v1,v2,...", f)
		}
		if name != "P" && name != "p" {
			name = strings.ToLower(name)
		} else {
			name = "P"
		}
		if seen[name] {
			return nil, fmt.Errorf("%s given twice", name)
		}
		seen[name] = true
		d := dim{name: name}
		for _, s := range strings.Split(list, ",") {
			s = strings.TrimSpace(s)
			if s == "" || strings.ContainsAny(s, "{}'\"\\") {
				return nil, fmt.Errorf("%s=%s: %q is not a value", name, list, s)
			}
			d.labels = append(d.labels, s)
		}
		numeric := true
		for _, s := range d.labels {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				numeric = false
				break
			}
			d.vals = append(d.vals, v)
		}
		switch {
		case name == "P" && !numeric:
			return nil, fmt.Errorf("P=%s: the process counts must be integers", list)
		case numeric:
			d.labels = nil
		default:
			d.vals = nil
		}
		for _, v := range d.vals {
			if name == "P" && (v < 1 || v > 1<<20) {
				return nil, fmt.Errorf("P=%d: need 1 <= P", v)
			}
		}
		dims = append(dims, d)
	}
	pts := []Point{{Params: map[string]int64{}, Labels: map[string]string{}, P: 1}}
	for _, d := range dims {
		var next []Point
		for _, p := range pts {
			for i := range max(len(d.vals), len(d.labels)) {
				q := Point{Params: maps.Clone(p.Params), Labels: maps.Clone(p.Labels), P: p.P}
				switch {
				case d.labels != nil:
					q.Labels[d.name] = d.labels[i]
				case d.name == "P":
					q.P = int(d.vals[i])
				default:
					q.Params[d.name] = d.vals[i]
				}
				next = append(next, q)
			}
		}
		pts = next
	}
	return pts, nil
}

// Build is an instrumented copy built for one set of build-time values.
type Build struct {
	Dir    string
	Exe    string
	Values map[string]int64
	Result *instrument.Result
}

// BuildValues returns the part of p's sizes that must be set at build time
// (PARAMETER constants), given an instrumentation of the program.
func BuildValues(params []instrument.Param, p map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for _, q := range params {
		if v, ok := p[q.Name]; ok && q.Mode == instrument.ParamBuild {
			out[q.Name] = v
		}
	}
	return out
}

// Key names a set of build-time values.
func Key(values map[string]int64) string {
	if len(values) == 0 {
		return "default"
	}
	var parts []string
	for _, k := range sortedKeys(values) {
		parts = append(parts, k+"="+strconv.FormatInt(values[k], 10))
	}
	return strings.Join(parts, ",")
}

// Compile instruments the program with the given build-time values into a
// directory of its own and compiles it with the build template. A failing
// build returns an error with the compiler's output.
func (c *Config) Compile(values map[string]int64) (*Build, error) {
	key := Key(values)
	for _, k := range sortedKeys(c.BuildVars) {
		key += " " + k + "=" + c.BuildVars[k]
	}
	sum := sha256.Sum256([]byte(key))
	dir := filepath.Join(c.Dir, "build-"+hex.EncodeToString(sum[:4]))
	opt := c.Options
	opt.Dir = dir
	opt.Values = values
	var res *instrument.Result
	var err error
	if c.Instrument != nil {
		res, err = c.Instrument(dir, values)
	} else {
		res, err = instrument.Instrument(c.Prog, c.Files, opt)
	}
	if err != nil {
		return nil, err
	}
	exe, err := filepath.Abs(filepath.Join(dir, "prog"))
	if err != nil {
		return nil, err
	}
	absDir, _ := filepath.Abs(dir)
	vars := map[string][]string{"srcs": res.Sources, "exe": {exe}, "dir": {absDir}}
	for k, v := range c.BuildVars {
		vars[k] = []string{v}
	}
	for k, v := range values {
		vars[k] = []string{strconv.FormatInt(v, 10)}
	}
	argv, err := Expand(c.Build, vars)
	if err != nil {
		return nil, fmt.Errorf("-build: %w", err)
	}
	if len(argv) == 0 {
		return nil, errors.New("-build: empty command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("build (%s) in %s failed: %v\n%s", strings.Join(argv, " "), dir, err, tail(out.String(), 4000))
	}
	if _, err := os.Stat(exe); err != nil {
		return nil, fmt.Errorf("build (%s) made no %s", strings.Join(argv, " "), exe)
	}
	return &Build{Dir: dir, Exe: exe, Values: values, Result: res}, nil
}

// Run is one execution of a build.
type Run struct {
	Point   Point
	Rep     int
	Dir     string
	Records []instrument.Record
	// Wall is the launcher's elapsed time; Stderr its error output (tail).
	Wall   time.Duration
	Stdout string
	Stderr string
	// Err is set when the run failed: non-zero exit, timeout, missing or
	// malformed rank files.
	Err error
	// Exit is the launcher's failure when every rank still wrote its
	// records at MPI_Finalize: the program's own exit status (NPB DT's
	// main returns 1), not a failed run.
	Exit string
}

// Vars are the values of a run's templates at point p: {P}, {exe}, {dir},
// {srcs} and {name} for each size and label.
func Vars(p Point, exe, dir string, srcs []string) map[string][]string {
	vars := map[string][]string{"exe": {exe}, "P": {strconv.Itoa(p.P)}, "dir": {dir}, "srcs": srcs}
	for k, v := range p.Params {
		vars[k] = []string{strconv.FormatInt(v, 10)}
	}
	for k, v := range p.Labels {
		vars[k] = []string{v}
	}
	return vars
}

// Run executes b at point p (repetition rep) in runDir through the launcher,
// with its input files written there first (InputFiles), with MKVET_OUT, MKVET_RUN and MKVET_PARAM_<NAME> for the sizes the program
// takes from the environment, and reads every rank's records.
func (c *Config) Run(b *Build, p Point, rep int, runDir, runID string) *Run {
	r := &Run{Point: p, Rep: rep, Dir: runDir}
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		r.Err = err
		return r
	}
	vars := Vars(p, b.Exe, b.Dir, b.Result.Sources)
	argv, err := Expand(c.Launcher, vars)
	if err == nil && len(argv) == 0 {
		err = errors.New("empty command")
	}
	if err != nil {
		r.Err = fmt.Errorf("-launcher: %w", err)
		return r
	}
	for _, f := range c.InputFiles {
		if err := f.write(runDir, vars); err != nil {
			r.Err = fmt.Errorf("-file %s: %w", f.Name, err)
			return r
		}
	}
	var stdin []byte
	if c.Input != "" {
		words, err := expandText(c.Input, vars)
		if err != nil {
			r.Err = fmt.Errorf("-input: %w", err)
			return r
		}
		stdin = []byte(strings.ReplaceAll(words, `\n`, "\n") + "\n")
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = runDir
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Env = append(cmd.Env, "MKVET_OUT="+runDir, "MKVET_RUN="+runID)
	for _, q := range b.Result.Params {
		if v, ok := p.Params[q.Name]; ok && q.Mode == instrument.ParamEnv {
			cmd.Env = append(cmd.Env, "MKVET_PARAM_"+strings.ToUpper(q.Name)+"="+strconv.FormatInt(v, 10))
		}
	}
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// The launcher's children (the ranks) go in its process group, which a
	// timeout kills as a whole.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err = cmd.Run()
	r.Wall = time.Since(start)
	r.Stdout, r.Stderr = tail(stdout.String(), 2000), tail(stderr.String(), 4000)
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		r.Err = fmt.Errorf("timed out after %v", timeout)
		return r
	case err != nil:
		if recs, rerr := instrument.ReadRun(runDir, p.P); rerr == nil {
			// Every rank finished and wrote its records: the status is
			// the program's own.
			r.Records, r.Exit = recs, err.Error()
			return r
		}
		r.Err = fmt.Errorf("%s: %v", strings.Join(argv, " "), err)
		return r
	}
	r.Records, r.Err = instrument.ReadRun(runDir, p.P)
	return r
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// Expand substitutes the template's {name} placeholders and splits it into
// words. A placeholder standing alone as a word may expand to several words
// ({srcs}); inside a word it must have one value. Names match
// case-insensitively except P; an unknown placeholder is an error.
func Expand(tmpl string, vars map[string][]string) ([]string, error) {
	words, err := splitWords(tmpl)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, w := range words {
		if w.literal {
			out = append(out, w.text)
			continue
		}
		if strings.HasPrefix(w.text, "{") && strings.HasSuffix(w.text, "}") && strings.Count(w.text, "{") == 1 {
			vs, err := lookup(vars, w.text[1:len(w.text)-1])
			if err != nil {
				return nil, err
			}
			out = append(out, vs...)
			continue
		}
		s, err := expandText(w.text, vars)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func lookup(vars map[string][]string, name string) ([]string, error) {
	if vs, ok := vars[name]; ok {
		return vs, nil
	}
	if name != "P" && name != "p" {
		for k, vs := range vars {
			if strings.EqualFold(k, name) && k != "P" {
				return vs, nil
			}
		}
	}
	known := make([]string, 0, len(vars))
	for k := range vars {
		known = append(known, "{"+k+"}")
	}
	slices.Sort(known)
	return nil, fmt.Errorf("unknown placeholder {%s} (known: %s)", name, strings.Join(known, " "))
}

// expandText substitutes placeholders inside one string.
func expandText(s string, vars map[string][]string) (string, error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("unclosed { in %q", s)
		}
		b.WriteString(s[:i])
		vs, err := lookup(vars, s[i+1:i+j])
		if err != nil {
			return "", err
		}
		b.WriteString(strings.Join(vs, " "))
		s = s[i+j+1:]
	}
}

type word struct {
	text    string
	literal bool // entirely single-quoted: no placeholders
}

// splitWords splits a command line as a POSIX shell would without
// expansions: blanks separate words, '...' quotes literally, "..." and \
// quote with placeholders still active.
func splitWords(s string) ([]word, error) {
	var out []word
	var cur strings.Builder
	in, lit, allLit := false, false, true
	flush := func() {
		if in {
			out = append(out, word{cur.String(), lit && allLit})
		}
		cur.Reset()
		in, lit, allLit = false, false, true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			flush()
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unclosed ' quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			in, lit = true, true
			i += j + 1
		case c == '"':
			in = true
			allLit = false
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New(`unclosed " quote`)
			}
		case c == '\\':
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
			in = true
			allLit = false
		default:
			cur.WriteByte(c)
			in = true
			allLit = false
		}
	}
	flush()
	return out, nil
}
