package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/model/cost"
)

// A program may have values compiled in for one process count: NPB's
// npbparams.h, written by `../sys/setparams BENCH P CLASS` in the
// benchmark's directory, holds the array sizes of each process's block,
// and the program stops (or computes nonsense) when run on another count.
// -configure runs such a program's own configure step before the program
// is read: for each process count of a whatif sweep, or once for the -D
// point of check and annotate. The step runs in a private mirror of the
// source tree, so that the user's files are never modified and a build
// configured for one P is never mixed with another.

// configureTimeout bounds one run of a -configure command: a configure
// step that hangs (waiting for input, say) must not hang mkvet. A
// variable for the test of the timeout.
var configureTimeout = 60 * time.Second

// registerConfigure adds the -configure flag of check, annotate and whatif.
func (pf *progFlags) registerConfigure(fs *flag.FlagSet, when string) {
	fs.StringVar(&pf.configure, "configure", "", "run the shell command `CMD` "+when+" in a private copy of the source tree "+
		"and read the program from the copy: {P} is the process count, {name} a -D value "+
		"(NPB: -configure '../sys/setparams lu {P} S'); the user's files are never modified")
}

// configurer runs a -configure command in a private mirror of the source
// tree and reads the program from it under the original names.
//
// The mirror is of root, the nearest common ancestor of the inputs'
// directories and the -I directories. Those directories are real
// directories of the mirror holding copies of their regular files (the
// command may write there: setparams writes npbparams.h beside the
// sources), and so are their ancestors up to root; every other entry is a
// symbolic link to the original, so that the command finds what it needs
// around them (../sys/setparams, ../config/make.def). A command that writes
// through those links writes into the user's tree: the mirror guards the
// directories that hold the program, which is where configure steps write.
type configurer struct {
	template string
	root     string // the user's directory mirrored (absolute)
	tmp      string // the temporary directory holding the mirror
	mirror   string // root's mirror
	dir      string // the command's working directory: the mirror of the first input's directory
	cwd      string // the directory relative names are resolved from
	// copied are the user's directories whose files the mirror holds as
	// copies (absolute): what is read there may differ from the user's.
	copied map[string]bool

	// Of the last run: the command as run, the values it was given, and
	// the files read from the copied directories of the mirror compared
	// with the user's, by the names positions show.
	command string
	vals    map[string]string
	read    map[string]fileState
}

// fileState compares a file read from the mirror with the user's.
type fileState int

const (
	fileSame    fileState = iota
	fileChanged           // the command changed it
	fileAbsent            // the command wrote it; the user's tree has none
)

// newConfigurer mirrors the tree of files and incs into a temporary
// directory; close removes it.
func newConfigurer(template string, files, incs []string) (*configurer, error) {
	if strings.TrimSpace(template) == "" {
		return nil, errors.New("the command is empty")
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	c := &configurer{template: template, cwd: cwd, copied: map[string]bool{}}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(cwd, p)
	}
	var dirs []string
	for _, f := range files {
		dirs = append(dirs, filepath.Dir(abs(f)))
	}
	c.root = dirs[0]
	for _, d := range incs {
		// A -I directory that does not exist holds nothing to mirror (the
		// frontend finds nothing there either).
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			dirs = append(dirs, abs(d))
		}
	}
	for _, d := range dirs {
		c.root = commonDir(c.root, d)
	}
	if c.tmp, err = os.MkdirTemp("", "mkvet-configure-"); err != nil {
		return nil, err
	}
	base := filepath.Base(c.root)
	if base == string(filepath.Separator) || base == "." {
		base = "root"
	}
	c.mirror = filepath.Join(c.tmp, base)
	if err := c.build(dirs); err != nil {
		c.close()
		return nil, err
	}
	c.dir = c.mirrorOf(dirs[0])
	return c, nil
}

// commonDir returns the nearest common ancestor of the absolute clean
// directories a and b.
func commonDir(a, b string) string {
	for {
		if rel, err := filepath.Rel(a, b); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return a
		}
		up := filepath.Dir(a)
		if up == a {
			return a
		}
		a = up
	}
}

// mirrorOf returns the mirror's path of an absolute path under root.
func (c *configurer) mirrorOf(p string) string {
	rel, _ := filepath.Rel(c.root, p)
	return filepath.Join(c.mirror, rel)
}

// build makes the mirror: the directories that hold the program (dirs)
// with copies of their regular files, their ancestors up to root, and a
// link to the original for every other entry of those.
func (c *configurer) build(dirs []string) error {
	real := map[string]bool{}
	for _, d := range dirs {
		c.copied[d] = true
		for x := d; ; x = filepath.Dir(x) {
			real[x] = true
			if x == c.root || x == filepath.Dir(x) {
				break
			}
		}
	}
	order := make([]string, 0, len(real))
	for d := range real {
		order = append(order, d)
	}
	slices.Sort(order) // parents before children
	for _, d := range order {
		target := c.mirrorOf(d)
		if err := os.MkdirAll(target, 0o755); err != nil {
			return err
		}
		entries, err := os.ReadDir(d)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := filepath.Join(d, e.Name())
			if real[p] {
				continue
			}
			t := filepath.Join(target, e.Name())
			if c.copied[d] {
				// A link to a file is copied too: the command writing
				// through it would write the user's file.
				if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
					if err := copyFile(p, t, st); err != nil {
						return err
					}
					continue
				}
			}
			if err := os.Symlink(p, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// copyFile copies src (whose status is st) to dst with src's modification
// time, as cp -p does: a build in the mirror sees what is out of date as it
// would in the user's tree, and a copy the command rewrites has a time of
// its own (readFile compares only those). A time taken when the mirror
// is made would not do: the kernel stamps files with a clock that may lag
// the one Go reads, so a file written just after could seem older.
func copyFile(src, dst string, st fs.FileInfo) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(dst, b, st.Mode().Perm()|0o200); err != nil {
		return err
	}
	return os.Chtimes(dst, time.Time{}, st.ModTime())
}

// close removes the mirror.
func (c *configurer) close() error {
	if c == nil || c.tmp == "" {
		return nil
	}
	err := os.RemoveAll(c.tmp)
	c.tmp = ""
	return err
}

// placeholderRE matches {name} in a -configure template.
var placeholderRE = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// placeholders returns the report symbols the template names ({P} is the
// process count, {n} the -D value of n), each once.
func (c *configurer) placeholders() []string {
	var out []string
	for _, m := range placeholderRE.FindAllStringSubmatch(c.template, -1) {
		if s := symbolName(m[1]); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// checkPlaceholders refuses a template naming a value that will not be
// given: known are the symbols that will have one (P and the -D names).
func (c *configurer) checkPlaceholders(known func(string) bool) error {
	for _, s := range c.placeholders() {
		if !known(s) {
			if s == cost.Size {
				return usagef("-configure %q: {P} needs the process count (give -D P=...)", c.template)
			}
			return usagef("-configure %q: {%s} is neither P nor a name given with -D", c.template, s)
		}
	}
	return nil
}

// expand fills the template's placeholders from vals, keyed by report
// symbol.
func (c *configurer) expand(vals map[string]string) string {
	return placeholderRE.ReplaceAllStringFunc(c.template, func(m string) string {
		if v, ok := vals[symbolName(m[1:len(m)-1])]; ok {
			return v
		}
		return m
	})
}

// configureError is a -configure command that failed: the program cannot
// be configured for these values.
type configureError struct {
	command string
	first   string // the first line of its error output (or how it failed)
}

func (e *configureError) Error() string {
	return fmt.Sprintf("-configure: %s: %s", e.command, e.first)
}

// run runs the command for vals (report symbol to value) with sh -c in the
// mirror, its output captured; a failure is a *configureError.
func (c *configurer) run(vals map[string]string) error {
	c.command, c.vals, c.read = c.expand(vals), vals, map[string]fileState{}
	ctx, cancel := context.WithTimeout(context.Background(), configureTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", c.command)
	cmd.Dir = c.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	killGroup(cmd)
	err := cmd.Run()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &configureError{command: c.command, first: fmt.Sprintf("timed out after %v", configureTimeout)}
	case err != nil:
		first := firstLine(stderr.String())
		if first == "" {
			first = firstLine(stdout.String())
		}
		if first == "" {
			first = err.Error()
		}
		return &configureError{command: c.command, first: first}
	}
	return nil
}

// firstLine returns the first non-blank line of out with the indented
// lines that continue it ("setparams: BT and SP sample sizes cannot be run
// on more\n           than 16 processors ..."), joined by spaces.
func firstLine(out string) string {
	var parts []string
	for _, l := range strings.Split(out, "\n") {
		t := strings.TrimSpace(l)
		if len(parts) == 0 {
			if t != "" {
				parts = append(parts, t)
			}
			continue
		}
		if t == "" || l[0] != ' ' && l[0] != '\t' {
			break
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, " ")
}

// readFile reads a source or INCLUDE file the frontend names from the
// mirror when it is under root, noting whether the command wrote or changed
// it; other files are read where they are. Only a file whose time or size
// differs from the user's is compared with it: the others cost no more
// than a plain read and a stat.
func (c *configurer) readFile(name string) ([]byte, error) {
	abs := name
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(c.cwd, name)
	}
	rel, err := filepath.Rel(c.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return os.ReadFile(name)
	}
	f, err := os.Open(filepath.Join(c.mirror, rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(int(st.Size()) + 1)
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if _, seen := c.read[name]; !seen && c.copied[filepath.Dir(abs)] {
		state := fileSame
		if ost, err := os.Stat(abs); err != nil || !ost.ModTime().Equal(st.ModTime()) || ost.Size() != st.Size() {
			switch orig, err := os.ReadFile(abs); {
			case err != nil:
				state = fileAbsent
			case !bytes.Equal(orig, b):
				state = fileChanged
			}
		}
		c.read[name] = state
	}
	return b, nil
}

// noteWritten records, as readFile does for the files the Fortran
// frontend reads, the files of the copied directories that the command
// wrote or changed: clang reads the mirror itself, so what it read is not
// known file by file. Names are as the user would write them from the
// working directory.
func (c *configurer) noteWritten() {
	for d := range c.copied {
		entries, err := os.ReadDir(c.mirrorOf(d))
		if err != nil {
			continue
		}
		for _, e := range entries {
			m := filepath.Join(c.mirrorOf(d), e.Name())
			st, err := os.Lstat(m)
			if err != nil || !st.Mode().IsRegular() {
				continue
			}
			user := filepath.Join(d, e.Name())
			state := fileSame
			switch ost, err := os.Stat(user); {
			case err != nil:
				state = fileAbsent
			case ost.ModTime().Equal(st.ModTime()) && ost.Size() == st.Size():
				continue
			default:
				a, err1 := os.ReadFile(user)
				b, err2 := os.ReadFile(m)
				if err1 == nil && err2 == nil && bytes.Equal(a, b) {
					continue
				}
				state = fileChanged
			}
			name := user
			if rel, err := filepath.Rel(c.cwd, user); err == nil {
				name = rel
			}
			c.read[name] = state
		}
	}
}

// definedConstants returns the integer constants the files written by the
// command define for the C preprocessor (#define NAME 42, a character
// constant as its code: NPB's CLASS 'S'), by lower-case name, read from
// the mirror: what tells the configurations of a C program apart, as the
// PARAMETERs of a Fortran include file do (writtenConstants).
func (c *configurer) definedConstants() map[string]int64 {
	out := map[string]int64{}
	for name, st := range c.read {
		if st == fileSame {
			continue
		}
		abs := name
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(c.cwd, name)
		}
		b, err := os.ReadFile(c.mirrorOf(abs))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			m := defineRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			v, ok := cConstant(m[2])
			if !ok {
				continue
			}
			out[strings.ToLower(m[1])] = v
		}
	}
	return out
}

var defineRE = regexp.MustCompile(`^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)\s+(\S+)\s*(?:/[*/].*)?$`)

// cConstant reads a C integer or character constant: 42, 0x2a, 42L, 'S'.
func cConstant(t string) (int64, bool) {
	t = strings.TrimSuffix(strings.TrimPrefix(t, "("), ")")
	if len(t) == 3 && t[0] == '\'' && t[2] == '\'' {
		return int64(t[1]), true
	}
	t = strings.TrimRight(t, "uUlL")
	v, err := strconv.ParseInt(t, 0, 64)
	return v, err == nil
}

// generated returns the files the last parse read that the command wrote
// or changed, by the names positions show, each with how it compares with
// the user's.
func (c *configurer) generated() []string {
	var out []string
	for name, st := range c.read {
		switch st {
		case fileAbsent:
			out = append(out, name+" (not in the user's tree)")
		case fileChanged:
			out = append(out, name+" (the user's differs and is not read)")
		}
	}
	slices.Sort(out)
	return out
}

// parse runs the command for vals and reads the program from the mirror
// with cfg: a failed command is a *configureError.
func (c *configurer) parse(files []string, cfg fortran.Config, vals map[string]string) (*apt.Program, []apt.Diagnostic, error) {
	if err := c.run(vals); err != nil {
		return nil, nil, err
	}
	cfg.ReadFile = c.readFile
	prog, diags := parseProgramIn(files, cfg, c)
	return prog, diags, nil
}

// where describes the mirror for notes and errors: the command, the
// directory mirrored and the one it runs in.
func (c *configurer) where() string {
	rel, _ := filepath.Rel(c.mirror, c.dir)
	in := ""
	if rel != "." {
		in = " (in its copy of " + rel + ")"
	}
	return fmt.Sprintf("in a private copy of %s%s", c.root, in)
}

// generatedNote says which files the positions name that the command
// wrote, for the values it ran with (for: "P=4").
func generatedNote(files []string, for_ string) string {
	if len(files) == 0 {
		return ""
	}
	return fmt.Sprintf("positions in %s name what it wrote for %s", strings.Join(files, ", "), for_)
}

// valuesText formats the values the command ran with, P last ("P=4").
func valuesText(vals map[string]string, names []string) string {
	var parts []string
	for _, n := range names {
		if n != cost.Size {
			parts = append(parts, n+"="+vals[n])
		}
	}
	slices.Sort(parts)
	if slices.Contains(names, cost.Size) {
		parts = append(parts, "P="+vals[cost.Size])
	}
	if len(parts) == 0 {
		return "this build"
	}
	return strings.Join(parts, ", ")
}

// compiledCheck is a comparison in an IF of the process count (a variable
// MPI_COMM_SIZE sets) with a named integer constant: the build is for the
// constant's value (NPB's `if (num .lt. nnodes_compiled)`).
type compiledCheck struct {
	ifNode *apt.If
	size   string  // the variable holding the process count
	param  string  // the named constant
	value  int64   // its value
	decl   apt.Pos // where the constant is declared
	// via, when the constant reaches the check as a dummy argument, is
	// the call that passes it.
	via *apt.Call
}

// compiledChecks finds the comparisons of the process count with named
// integer constants in prog, in source order, also a constant every call
// passes as the argument compared (CG's setup_proc_info(num_procs, ...)).
// It reads the source only: a variable is the process count when some
// MPI_COMM_SIZE call sets a variable of its name.
func compiledChecks(prog *apt.Program) []compiledCheck {
	sizes := map[string]bool{}
	apt.Inspect(prog, func(n apt.Node) bool {
		if c, ok := n.(*apt.Comm); ok && c.Op == apt.MPICommSize {
			if nm, ok := c.Result.(*apt.Name); ok {
				sizes[nm.Name] = true
			}
		}
		return true
	})
	if len(sizes) == 0 {
		return nil
	}
	type site struct {
		caller *apt.Routine
		call   *apt.Call
	}
	calls := map[string][]site{}
	var collect func(r *apt.Routine)
	collect = func(r *apt.Routine) {
		apt.Inspect(r, func(n apt.Node) bool {
			switch n := n.(type) {
			case *apt.Routine:
				if n != r {
					collect(n)
					return false
				}
			case *apt.Call:
				calls[n.Callee] = append(calls[n.Callee], site{r, n})
			}
			return true
		})
	}
	for _, r := range prog.Routines {
		collect(r)
	}
	// named returns the value of the named constant name is in r, where
	// it is declared, and the call passing it when it is a dummy argument
	// every call gives the same constant.
	named := func(r *apt.Routine, name string) (int64, apt.Pos, *apt.Call, bool) {
		v := prog.Resolve(r, name)
		switch {
		case v == nil:
		case v.Param != nil:
			val, ok := prog.IntConstant(r, v.Param)
			return val, v.Pos, nil, ok
		case v.Dummy:
			i := slices.Index(r.Formals, name)
			sites := calls[r.Name]
			if i < 0 || len(sites) == 0 {
				break
			}
			var val int64
			var decl apt.Pos
			for j, s := range sites {
				if i >= len(s.call.Args) {
					return 0, decl, nil, false
				}
				a, ok := s.call.Args[i].(*apt.Name)
				if !ok {
					return 0, decl, nil, false
				}
				av := prog.Resolve(s.caller, a.Name)
				if av == nil || av.Param == nil {
					return 0, decl, nil, false
				}
				x, ok := prog.IntConstant(s.caller, av.Param)
				if !ok || j > 0 && x != val {
					return 0, decl, nil, false
				}
				val, decl = x, av.Pos
			}
			return val, decl, sites[0].call, true
		}
		return 0, apt.Pos{}, nil, false
	}
	var out []compiledCheck
	var routine func(r *apt.Routine)
	routine = func(r *apt.Routine) {
		apt.Inspect(r, func(n apt.Node) bool {
			switch n := n.(type) {
			case *apt.Routine:
				if n != r {
					routine(n)
					return false
				}
			case *apt.If:
				for _, b := range n.Branches {
					stops := stopsIn(b.Body)
					apt.InspectExpr(b.Cond, func(e apt.Expr) bool {
						bin, ok := e.(*apt.Binary)
						if !ok || !bin.Op.IsRelational() {
							return true
						}
						if bin.Op != apt.OpEq && bin.Op != apt.OpNe && !stops {
							// An ordering that chooses a layout (np <= nz)
							// says nothing of the build; one whose branch
							// stops the program (num < nnodes_compiled),
							// or an equation, does.
							return false
						}
						for _, sides := range [][2]apt.Expr{{bin.X, bin.Y}, {bin.Y, bin.X}} {
							s, ok1 := sides[0].(*apt.Name)
							k, ok2 := sides[1].(*apt.Name)
							if !ok1 || !ok2 || !sizes[s.Name] {
								continue
							}
							if val, decl, via, ok := named(r, k.Name); ok {
								out = append(out, compiledCheck{ifNode: n, size: s.Name, param: k.Name, value: val, decl: decl, via: via})
							}
						}
						return false
					})
				}
			}
			return true
		})
	}
	for _, r := range prog.Routines {
		routine(r)
	}
	return out
}

// stopsIn reports whether a statement list holds a STOP or an MPI_ABORT
// (in its own statements and their branches, not in routines it calls).
func stopsIn(body []apt.Node) bool {
	found := false
	for _, n := range body {
		apt.Inspect(n, func(x apt.Node) bool {
			switch x := x.(type) {
			case *apt.Stop:
				found = true
			case *apt.Comm:
				found = found || x.Op == apt.MPIAbort
			}
			return !found
		})
	}
	return found
}

// stoppingCheck returns the comparison of the process count with a named
// constant whose IF holds the statement at pos (where the program stops),
// the innermost such IF.
func stoppingCheck(checks []compiledCheck, pos apt.Pos) *compiledCheck {
	var best *compiledCheck
	for i := range checks {
		found := false
		for _, b := range checks[i].ifNode.Branches {
			for _, n := range b.Body {
				apt.Inspect(n, func(n apt.Node) bool {
					if n != nil && n.Base().Span.Start() == pos {
						found = true
					}
					return !found
				})
			}
		}
		if found && (best == nil || spanWithin(checks[i].ifNode.Span, best.ifNode.Span)) {
			best = &checks[i]
		}
	}
	return best
}

// spanWithin reports whether a lies within b.
func spanWithin(a, b apt.Span) bool {
	if a.File != b.File {
		return false
	}
	startOK := a.Line > b.Line || a.Line == b.Line && a.Col >= b.Col
	endOK := a.EndLine < b.EndLine || a.EndLine == b.EndLine && a.EndCol <= b.EndCol
	return startOK && endOK
}

// describe says what the check compares, for a note.
func (k *compiledCheck) describe() string {
	via := ""
	if k.via != nil {
		via = fmt.Sprintf(" passed to %s at %s", k.via.Callee, k.via.Span.Start())
	}
	return fmt.Sprintf("%s compares the process count (%s) with %s = %d, a named constant (%s)%s",
		k.ifNode.Span.Start(), k.size, k.param, k.value, k.decl, via)
}
