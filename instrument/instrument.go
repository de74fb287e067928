package instrument

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Options control Instrument.
type Options struct {
	// Dir is the output directory; it is created if needed. It must not be
	// the directory of an input file, which is never written.
	Dir string
	// Values sets problem sizes (lower-case names) in the copy: a size that
	// is a PARAMETER constant (or a declaration initializer) gets the value
	// at build time; a size the program assigns from a constant gets it as
	// the default of its run-time override MKVET_PARAM_<NAME>.
	Values map[string]int64
	// Record names further integer variables whose values each rank records
	// when it finishes (values the static counts keep as parameters: a
	// variable computed at run time, a value read from input).
	Record []string
	// IncludeDirs are searched for INCLUDE files after the including file's
	// directory, as by the frontend.
	IncludeDirs []string
	// ReadFile, when set, reads the sources and INCLUDE files in place of
	// os.ReadFile, as the frontend's Config.ReadFile does: a configure step
	// may have written them into a private copy of the tree (NPB's
	// npbparams.h), which the copy must be built with.
	ReadFile func(name string) ([]byte, error)
	// Fixed forces fixed (true) or free (false) form for every file when
	// FormSet; otherwise the extension decides.
	Fixed, FormSet bool
	// BodyCounters counts every loop's iterations with a counter in its
	// body, even an innermost loop whose trip count could be added on
	// entry: slower, but a count taken from the execution itself.
	BodyCounters bool
	// NestTimers times every routine's outermost DO loops (every loop
	// nest), also in routines called from loops, so that each nest's
	// exclusive time is measured: the time spent in it less the nests of
	// the routines it calls and its MPI calls, which are timed regions of
	// their own. A jump out of a timed nest (GO TO, RETURN) closes its
	// timer first. A timer pair on every call of a small routine costs
	// more than its body, which the nests' shares then carry.
	NestTimers bool
	// ProgramOnly leaves out every probe but those measuring the program
	// time (from MPI_INIT's return, or the start, to the end): the baseline
	// against which the probes' overhead is measured.
	ProgramOnly bool
	// Events adds the event mode: every timed region's entry and exit and
	// every MPI call with its peer, tag, bytes, communicator group,
	// requests and times, written per rank to mkvet.<rank>.evt for
	// package trace (see events.go).
	Events bool
}

// Probe is one counter slot of the runtime, attached to one APT node.
type Probe struct {
	Slot int    `json:"slot"`
	Node string `json:"node"`
	// Kind is routine, loop, branch or comm.
	Kind string `json:"kind"`
	// Op is the MPI operation of a comm probe.
	Op string `json:"op,omitempty"`
	// Timed is set when the probe also times its node: routines not called
	// from inside a loop, the outermost loops of those routines (of every
	// routine with Options.NestTimers), and every MPI call. Iters is set
	// when a loop's body executions are counted: by a counter in its body,
	// or for an innermost loop that runs to its end by adding its trip
	// count on entry.
	Timed bool    `json:"timed"`
	Iters bool    `json:"iters,omitempty"`
	Pos   apt.Pos `json:"pos"`
}

// ParamMode says how a run sets a problem size.
type ParamMode string

// Ways a problem size reaches the instrumented program.
const (
	// ParamBuild: a PARAMETER constant (or initializer), rewritten in the
	// copy, so each value needs its own build.
	ParamBuild ParamMode = "build"
	// ParamEnv: assigned from a constant; the copy reads MKVET_PARAM_<NAME>
	// at run time and falls back to the constant.
	ParamEnv ParamMode = "env"
	// ParamInput: read at run time (READ, command line): the run's input or
	// command line must carry it.
	ParamInput ParamMode = "input"
)

// Param is a `!mk$ param` size and how the instrumented program takes it.
type Param struct {
	Name string    `json:"name"`
	Mode ParamMode `json:"mode"`
	// Default is the value written in the source, when there is one.
	Default string  `json:"default,omitempty"`
	Pos     apt.Pos `json:"pos"`
}

// Result describes an instrumented copy.
type Result struct {
	Dir string `json:"dir"`
	// Runtime is the runtime module's file name in Dir; Sources are the
	// files to compile, in order (the runtime first); Files are all the
	// files written, include files among them, relative to Dir.
	Runtime string   `json:"runtime"`
	Sources []string `json:"sources"`
	Files   []string `json:"files"`
	// MPI is set when the program calls MPI: the runtime then times with
	// MPI_Wtime and writes one file per rank at MPI_FINALIZE.
	MPI    bool    `json:"mpi"`
	Probes []Probe `json:"probes"`
	Params []Param `json:"params"`
	// Values are the build-time values the copy was made with.
	Values map[string]int64 `json:"values,omitempty"`
	// Notes are places left uninstrumented or instrumented approximately,
	// with the reason.
	Notes []Note `json:"notes,omitempty"`
}

// Note is a remark about the instrumentation of one place.
type Note struct {
	Pos apt.Pos `json:"pos"`
	Msg string  `json:"msg"`
}

// String formats the note as file:line:col: note: message.
func (n Note) String() string { return n.Pos.String() + ": note: " + n.Msg }

// ProbesFile is the name of the probe table Instrument writes into the
// output directory (the Result as JSON).
const ProbesFile = "mkvet-probes.json"

// RuntimeFile is the runtime module's file name.
const RuntimeFile = "mkvet_rt.f90"

// Instrument writes an instrumented copy of the program's files into
// opt.Dir: every routine counts its calls, every loop its entries and body
// executions, every IF branch how often it is taken, every MPI call its
// calls, messages and bytes; routines outside loops, their outermost loops
// and all MPI calls are timed. Probes are keyed by APT node ID (MK's
// instrumented APT constructs, seed 000 §3). files are the paths given to
// the frontend; prog must come from them.
func Instrument(prog *apt.Program, files []string, opt Options) (*Result, error) {
	if opt.Dir == "" {
		return nil, errors.New("instrument: no output directory")
	}
	outAbs, err := filepath.Abs(opt.Dir)
	if err != nil {
		return nil, err
	}
	in := &instr{prog: prog, opt: opt, files: map[string]*sourceFile{}, edits: map[*stmt]*edits{},
		afterLine: map[*sourceFile]map[int][]string{}, res: &Result{Dir: opt.Dir, Runtime: RuntimeFile, Values: opt.Values}}
	var order []*sourceFile
	for _, path := range files {
		abs, _ := filepath.Abs(filepath.Dir(path))
		if abs == outAbs {
			return nil, fmt.Errorf("instrument: the output directory %s holds the input %s; choose another", opt.Dir, path)
		}
		sf, err := in.read(path, path)
		if err != nil {
			return nil, err
		}
		order = append(order, sf)
	}
	// INCLUDE files (Fortran and preprocessor) are copied, edited when a
	// parameter lives in one, so the copy builds on its own.
	var incs []*sourceFile
	queue := slices.Clone(order)
	for len(queue) > 0 {
		sf := queue[0]
		queue = queue[1:]
		for _, name := range includesOf(sf) {
			if _, ok := in.files[name]; ok {
				continue
			}
			p := in.findInclude(name, filepath.Dir(sf.path))
			if p == "" {
				continue // a system header such as mpif.h
			}
			if abs, _ := filepath.Abs(filepath.Dir(p)); abs == outAbs {
				return nil, fmt.Errorf("instrument: the output directory %s holds the include file %s; choose another", opt.Dir, p)
			}
			inc, err := in.read(name, p)
			if err != nil {
				return nil, err
			}
			if _, known := formOf(p); !known && !in.opt.FormSet && inc.fixed != sf.fixed {
				// An include file is in the form of the file including it.
				inc = scan(name, p, []byte(strings.Join(inc.lines, "\n")), sf.fixed)
				in.files[name], in.files[filepath.Clean(name)] = inc, inc
			}
			// The frontend names an included file by the path it found.
			in.files[filepath.Clean(p)] = inc
			incs = append(incs, inc)
			queue = append(queue, inc)
		}
	}
	in.plan()
	if !in.opt.ProgramOnly {
		for _, sf := range append(slices.Clone(order), incs...) {
			in.impureInterfaces(sf)
		}
	}
	order = moduleOrder(prog, order)
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, err
	}
	in.res.Sources = append(in.res.Sources, RuntimeFile)
	in.res.Files = append(in.res.Files, RuntimeFile)
	seen := map[string]string{}
	write := func(sf *sourceFile, rel string, unit bool) error {
		if prev, ok := seen[rel]; ok {
			return fmt.Errorf("instrument: %s and %s would both be written as %s", prev, sf.path, rel)
		}
		seen[rel] = sf.path
		lines := sf.render(in.edits, func(s *stmt) bool { d, _ := in.labelInfo(s); return d }, in.afterLine[sf])
		dst := filepath.Join(opt.Dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			return err
		}
		in.res.Files = append(in.res.Files, rel)
		if unit {
			in.res.Sources = append(in.res.Sources, rel)
		}
		return nil
	}
	for _, sf := range order {
		if err := write(sf, filepath.Base(sf.path), true); err != nil {
			return nil, err
		}
	}
	for _, sf := range incs {
		rel := filepath.Clean(sf.name)
		if filepath.IsAbs(rel) || strings.HasPrefix(rel, "..") {
			rel = filepath.Base(rel)
		}
		if err := write(sf, rel, false); err != nil {
			return nil, err
		}
	}
	rt := runtimeSource(in.res.MPI, in.opt.Events, in.res.Probes)
	if err := os.WriteFile(filepath.Join(opt.Dir, RuntimeFile), []byte(rt), 0o644); err != nil {
		return nil, err
	}
	if err := writeJSON(filepath.Join(opt.Dir, ProbesFile), in.res); err != nil {
		return nil, err
	}
	return in.res, nil
}

type instr struct {
	prog      *apt.Program
	opt       Options
	files     map[string]*sourceFile // by APT file name
	edits     map[*stmt]*edits
	afterLine map[*sourceFile]map[int][]string
	res       *Result

	hot      map[*apt.Routine]bool
	routines []*apt.Routine // with source, in order
	// labels per routine: DO terminals and jump targets.
	doTerm, target map[*apt.Routine]map[string]bool
	stmtRoutine    map[*stmt]*apt.Routine
	header         map[*stmt]bool // DO statements already given a loop's probes
	// nest is the timed loop nest being planned (Options.NestTimers),
	// whose timer a jump out of it closes; nil outside one.
	nest *timedNest
	// labelLine gives, per routine, the line of each labelled statement.
	labelLine map[*apt.Routine]map[string]int
	// madeImpure holds the headers impure has edited (once each).
	madeImpure map[*stmt]bool
}

// timedNest is a routine's outermost loop timed under Options.NestTimers.
type timedNest struct {
	slot int
	loop *apt.Loop
}

func (in *instr) readFile(path string) ([]byte, error) {
	if in.opt.ReadFile != nil {
		return in.opt.ReadFile(path)
	}
	return os.ReadFile(path)
}

func (in *instr) read(name, path string) (*sourceFile, error) {
	src, err := in.readFile(path)
	if err != nil {
		return nil, err
	}
	fixed, known := formOf(path)
	if in.opt.FormSet {
		fixed = in.opt.Fixed
	} else if !known {
		fixed = true
	}
	sf := scan(name, path, src, fixed)
	in.files[name] = sf
	in.files[filepath.Clean(name)] = sf
	return sf, nil
}

var includeRE = regexp.MustCompile(`(?i)^\s*(?:#\s*include\s*["<]([^">]+)[">]|include\s*['"]([^'"]+)['"])`)

// includesOf lists the files a source includes, Fortran INCLUDE lines and
// preprocessor #include lines alike.
func includesOf(sf *sourceFile) []string {
	var out []string
	for _, l := range sf.lines {
		if sf.fixed && len(l) > 0 && strings.ContainsRune("cC*", rune(l[0])) {
			continue
		}
		if m := includeRE.FindStringSubmatch(l); m != nil {
			name := m[1] + m[2]
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

func (in *instr) findInclude(name, dir string) string {
	if filepath.IsAbs(name) {
		if _, err := os.Stat(name); err == nil {
			return name
		}
		return ""
	}
	for _, d := range append([]string{dir}, in.opt.IncludeDirs...) {
		p := filepath.Join(d, name)
		if in.opt.ReadFile != nil {
			if _, err := in.opt.ReadFile(p); err == nil {
				return p
			}
			continue
		}
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

func (in *instr) note(pos apt.Pos, format string, args ...any) {
	in.res.Notes = append(in.res.Notes, Note{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (in *instr) ed(s *stmt) *edits {
	e := in.edits[s]
	if e == nil {
		e = &edits{}
		in.edits[s] = e
	}
	return e
}

func (in *instr) file(name string) *sourceFile {
	if sf := in.files[name]; sf != nil {
		return sf
	}
	return in.files[filepath.Clean(name)]
}

// stmtOf returns the statement holding position p and the offset of p in it.
func (in *instr) stmtOf(p apt.Pos) (*stmt, int) {
	sf := in.file(p.File)
	if sf == nil || !p.IsValid() {
		return nil, -1
	}
	s := sf.stmtAt(p.Line, p.Col)
	if s == nil {
		return nil, -1
	}
	return s, s.index(p.Line, p.Col)
}

// around returns the lists a node's probes go to: the statement's own, or,
// for the action of a logical IF, the action's inside the block IF the
// statement becomes.
func (in *instr) around(n apt.Node) (pre, post *[]string, ok bool) {
	s, i := in.stmtOf(n.Base().Span.Start())
	if s == nil {
		return nil, nil, false
	}
	e := in.ed(s)
	if i <= 0 {
		return &e.pre, &e.post, true
	}
	if e.action == nil {
		e.action = &actionEdits{at: i}
	}
	if e.action.at != i {
		return nil, nil, false
	}
	return &e.action.pre, &e.action.post, true
}

func (in *instr) slot(n apt.Node, kind string) *Probe {
	p := Probe{Slot: len(in.res.Probes) + 1, Node: n.Base().ID, Kind: kind, Pos: n.Base().Span.Start()}
	in.res.Probes = append(in.res.Probes, p)
	return &in.res.Probes[len(in.res.Probes)-1]
}

func count(k int) string { return fmt.Sprintf("mkvet_c(%d) = mkvet_c(%d) + 1", k, k) }
func iters(k int) string { return fmt.Sprintf("mkvet_i(%d) = mkvet_i(%d) + 1", k, k) }
func enter(k int) string { return fmt.Sprintf("call mkvet_enter(%d)", k) }
func exit(k int) string  { return fmt.Sprintf("call mkvet_exit(%d)", k) }

// plan decides every edit.
func (in *instr) plan() {
	in.hot = HotRoutines(in.prog)
	in.doTerm = map[*apt.Routine]map[string]bool{}
	in.target = map[*apt.Routine]map[string]bool{}
	in.stmtRoutine = map[*stmt]*apt.Routine{}
	in.header = map[*stmt]bool{}
	var all []*apt.Routine
	var collect func(r *apt.Routine)
	collect = func(r *apt.Routine) {
		all = append(all, r)
		for _, c := range r.Contains {
			collect(c)
		}
	}
	for _, r := range in.prog.Routines {
		collect(r)
	}
	for _, r := range all {
		if !r.Span.Start().IsValid() || in.file(r.Span.File) == nil {
			continue
		}
		// An elemental procedure runs once per element of its arguments:
		// count it, do not time it.
		if head, _ := in.stmtOf(r.Span.Start()); head != nil && r.Kind != apt.KindProgram && isElemental(head) {
			in.hot[r] = true
		}
		in.routines = append(in.routines, r)
		in.labels(r)
		in.ownStatements(r)
		apt.Inspect(r, func(n apt.Node) bool {
			if c, ok := n.(*apt.Comm); ok && c.Op == apt.MPIInit {
				in.res.MPI = true
			}
			_, isR := n.(*apt.Routine)
			return n == apt.Node(r) || !isR
		})
	}
	in.params()
	for _, r := range in.routines {
		if r.Kind == apt.KindModule || r.Kind == apt.KindBlockData {
			continue
		}
		in.routine(r)
	}
	in.guardLabels()
	slices.SortStableFunc(in.res.Notes, func(a, b Note) int {
		if c := strings.Compare(a.Pos.File, b.Pos.File); c != 0 {
			return c
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Col - b.Pos.Col
	})
}

// ownStatements maps each statement to the innermost routine whose span
// holds it, for the label rules.
func (in *instr) ownStatements(r *apt.Routine) {
	sf := in.file(r.Span.File)
	for _, s := range sf.stmts {
		if s.first < r.Span.Line || s.first > r.Span.EndLine {
			continue
		}
		if prev := in.stmtRoutine[s]; prev != nil && prev.Span.Line > r.Span.Line {
			continue
		}
		in.stmtRoutine[s] = r
	}
}

func (in *instr) labelInfo(s *stmt) (bool, bool) {
	if s.label == "" {
		return false, false
	}
	r := in.stmtRoutine[s]
	return in.doTerm[r][s.label], in.target[r][s.label]
}

// labels records the labels of r that end DO loops and those jumped to.
func (in *instr) labels(r *apt.Routine) {
	dt, tg := map[string]bool{}, map[string]bool{}
	apt.Inspect(r, func(n apt.Node) bool {
		switch n := n.(type) {
		case *apt.Routine:
			return n == r
		case *apt.Loop:
			if n.EndLabel != "" {
				dt[strings.TrimLeft(n.EndLabel, "0")] = true
			}
		case *apt.Goto:
			for _, t := range n.Targets {
				tg[strings.TrimLeft(t, "0")] = true
			}
		case *apt.IO:
			for _, c := range n.Control {
				if k, ok := c.(*apt.Keyword); ok && (k.Name == "err" || k.Name == "end" || k.Name == "eor") {
					if c, ok := k.Value.(*apt.Const); ok {
						tg[strings.TrimLeft(c.Text, "0")] = true
					}
				}
			}
		case *apt.Block:
			for _, s := range n.Stmts {
				if s.Kind == apt.StmtLabelAssign {
					if c, ok := s.Value.(*apt.Const); ok {
						tg[strings.TrimLeft(c.Text, "0")] = true
					}
				}
			}
		case *apt.Call:
			for _, a := range n.Args {
				if c, ok := a.(*apt.Const); ok && strings.HasPrefix(c.Text, "*") {
					tg[strings.TrimLeft(strings.TrimPrefix(c.Text, "*"), "0")] = true
				}
			}
		}
		return true
	})
	in.doTerm[r], in.target[r] = dt, tg
}

// guardLabels removes probes from statements that end a DO loop and are
// also jumped to: no placement keeps both meanings.
func (in *instr) guardLabels() {
	for s, e := range in.edits {
		if s.label == "" {
			continue
		}
		doTerm, target := in.labelInfo(s)
		if !doTerm || !target {
			continue
		}
		if len(e.pre) > 0 || len(e.post) > 0 || e.action != nil {
			e.pre, e.post, e.action = nil, nil, nil
			in.note(apt.Pos{File: s.file.name, Line: s.first, Col: 1},
				"statement %s ends a DO loop and is jumped to: its probes are left out, so its node's counts are missing", s.label)
		}
	}
}

// HotRoutines returns the routines called, directly or through other calls,
// from inside a loop: timing every call of those would cost more than it
// tells, so they get counters only.
func HotRoutines(prog *apt.Program) map[*apt.Routine]bool {
	type site struct {
		caller *apt.Routine
		inLoop bool
	}
	calls := map[*apt.Routine][]site{}
	var walk func(r *apt.Routine, n apt.Node, depth int)
	addCallee := func(r *apt.Routine, name string, depth int) {
		if c := prog.Routine(name); c != nil && c != r && c.Kind != apt.KindModule {
			calls[c] = append(calls[c], site{r, depth > 0})
		}
	}
	exprs := func(r *apt.Routine, depth int, es ...apt.Expr) {
		for _, e := range es {
			apt.InspectExpr(e, func(x apt.Expr) bool {
				if f, ok := x.(*apt.FuncCall); ok && !f.Intrinsic {
					addCallee(r, f.Name, depth)
				}
				return true
			})
		}
	}
	walk = func(r *apt.Routine, n apt.Node, depth int) {
		switch n := n.(type) {
		case *apt.Routine:
			if n != r {
				return
			}
		case *apt.Loop:
			exprs(r, depth, n.Lower, n.Upper, n.Step, n.While)
			depth++
		case *apt.Branch:
			exprs(r, depth, n.Cond)
		case *apt.Call:
			addCallee(r, n.Callee, depth)
			exprs(r, depth, n.Args...)
		case *apt.Block:
			for _, s := range n.Stmts {
				exprs(r, depth, s.Target, s.Value, s.Mask)
				exprs(r, depth, s.Args...)
			}
		case *apt.IO:
			exprs(r, depth, n.Items...)
		}
		for _, c := range apt.Children(n) {
			walk(r, c, depth)
		}
	}
	var all func(r *apt.Routine)
	all = func(r *apt.Routine) {
		walk(r, r, 0)
		for _, c := range r.Contains {
			all(c)
		}
	}
	for _, r := range prog.Routines {
		all(r)
	}
	hot := map[*apt.Routine]bool{}
	for changed := true; changed; {
		changed = false
		for c, sites := range calls {
			if hot[c] {
				continue
			}
			for _, s := range sites {
				if s.inLoop || hot[s.caller] {
					hot[c] = true
					changed = true
					break
				}
			}
		}
	}
	return hot
}

// routine plans the probes of one routine.
func (in *instr) routine(r *apt.Routine) {
	if r.Statement {
		// A statement function is one expression among its host's
		// declarations: nothing can be inserted around it.
		return
	}
	head, _ := in.stmtOf(r.Span.Start())
	if head == nil {
		in.note(r.Span.Start(), "routine %s: its first statement was not found in the source; not instrumented", r.Name)
		return
	}
	isHeader := r.Kind != apt.KindProgram || strings.HasPrefix(head.canon(0), "program")
	if isHeader {
		he := in.ed(head)
		he.post = append(he.post, "use mkvet_rt")
		if !in.opt.ProgramOnly {
			in.impure(head)
		}
	} else {
		he := in.ed(head)
		he.routinePre = append([]string{"use mkvet_rt"}, he.routinePre...)
	}
	if in.opt.ProgramOnly {
		in.programOnly(r)
		return
	}
	timed := !in.hot[r]
	p := in.slot(r, "routine")
	p.Timed = timed
	k := p.Slot
	if len(r.Body) > 0 {
		s, _ := in.stmtOf(r.Body[0].Base().Span.Start())
		if s != nil {
			e := in.ed(s)
			e.routinePre = append(e.routinePre, count(k))
			if timed {
				e.routinePre = append(e.routinePre, enter(k))
			}
		}
	}
	serial := !in.res.MPI
	for _, n := range r.Body {
		in.node(r, n, 0, timed, k)
	}
	// The end of the executable part: CONTAINS, or the END statement.
	var end *stmt
	sf := in.file(r.Span.File)
	if len(r.Contains) > 0 {
		first := r.Contains[0].Span.Line
		for _, s := range sf.stmts {
			if s.first >= r.Span.Line && s.first < first && s.canon(0) == "contains" {
				end = s
			}
		}
	} else {
		for _, s := range sf.stmts {
			if s.last == r.Span.EndLine && s.first >= r.Span.Line {
				end = s
			}
		}
	}
	if end == nil || end == head {
		in.note(r.Span.End(), "routine %s: its END statement was not found; its exit is not timed", r.Name)
		return
	}
	e := in.ed(end)
	if timed {
		e.pre = append(e.pre, exit(k))
	}
	if serial && r.Kind == apt.KindProgram {
		e.pre = append(e.pre, in.finishProbes(r)...)
	}
}

// programOnly plans the probes of the program time alone.
func (in *instr) programOnly(r *apt.Routine) {
	serial := !in.res.MPI
	if serial && r.Kind == apt.KindProgram && len(r.Body) > 0 {
		if s, _ := in.stmtOf(r.Body[0].Base().Span.Start()); s != nil {
			e := in.ed(s)
			e.routinePre = append(e.routinePre, "call mkvet_started()")
		}
	}
	for _, n := range r.Body {
		in.node(r, n, 0, false, 0)
	}
	if serial && r.Kind == apt.KindProgram && len(r.Contains) == 0 {
		sf := in.file(r.Span.File)
		for _, s := range sf.stmts {
			if s.last == r.Span.EndLine && s.first >= r.Span.Line {
				e := in.ed(s)
				e.pre = append(e.pre, in.finishProbes(r)...)
				return
			}
		}
	}
}

// impure removes PURE from a procedure header and makes ELEMENTAL
// procedures IMPURE ELEMENTAL: a probe changes the runtime's state, which a
// pure procedure may not do.
func (in *instr) impure(head *stmt) {
	if in.madeImpure[head] {
		return
	}
	if in.madeImpure == nil {
		in.madeImpure = map[*stmt]bool{}
	}
	in.madeImpure[head] = true
	low := strings.ToLower(string(head.text))
	kw := -1
	for _, w := range []string{"function", "subroutine"} {
		if i := wordIndex(low, w); i >= 0 && (kw < 0 || i < kw) {
			kw = i
		}
	}
	if kw < 0 || wordIndex(low[:kw], "impure") >= 0 {
		return
	}
	e := in.ed(head)
	changed := false
	if i := wordIndex(low[:kw], "pure"); i >= 0 {
		e.repl = append(e.repl, textEdit{i, i + len("pure"), ""})
		changed = true
	}
	if i := wordIndex(low[:kw], "elemental"); i >= 0 {
		e.repl = append(e.repl, textEdit{i, i, "impure "})
		changed = true
	}
	if changed {
		in.note(apt.Pos{File: head.file.name, Line: head.first, Col: 1},
			"PURE or ELEMENTAL procedure made impure so that its probes may count")
	}
}

// impureInterfaces makes the procedure headers of sf's interface blocks
// impure as the procedures themselves are (impure): a pure procedure with
// probes handed to a dummy whose interface says PURE would no longer
// match it ("Mismatch in PURE attribute").
func (in *instr) impureInterfaces(sf *sourceFile) {
	depth := 0
	for _, st := range sf.stmts {
		c := st.canon(0)
		switch {
		case strings.HasPrefix(c, "endinterface"):
			depth = max(depth-1, 0)
		case c == "interface" || strings.HasPrefix(c, "interface") && !strings.HasPrefix(c, "interface=") ||
			strings.HasPrefix(c, "abstractinterface"):
			depth++
		case depth > 0:
			in.impure(st)
		}
	}
}

// isElemental reports whether a procedure header declares it ELEMENTAL.
func isElemental(head *stmt) bool {
	c := head.canon(0)
	kw := strings.Index(c, "function")
	if k := strings.Index(c, "subroutine"); k >= 0 && (kw < 0 || k < kw) {
		kw = k
	}
	return kw > 0 && strings.Contains(c[:kw], "elemental")
}

// wordIndex returns the offset of w in s as a whole word, or -1.
func wordIndex(s, w string) int {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return -1
		}
		j += i
		if (j == 0 || !isIdent(s[j-1])) && (j+len(w) >= len(s) || !isIdent(s[j+len(w)])) {
			return j
		}
		i = j + 1
	}
}

func isIdent(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// node plans the probes of n and its children. depth counts enclosing loops
// in the routine; timed says whether the routine is timed.
func (in *instr) node(r *apt.Routine, n apt.Node, depth int, timed bool, rslot int) {
	switch n := n.(type) {
	case *apt.Loop:
		in.loop(r, n, depth, timed, rslot)
		return
	case *apt.If:
		in.branches(r, n, depth, timed, rslot)
		return
	case *apt.Comm:
		in.comm(r, n)
	case *apt.Return:
		switch {
		case timed:
			// The routine's exit closes the regions opened in it.
			if pre, _, ok := in.around(n); ok {
				*pre = append(*pre, exit(rslot))
			}
		case in.nest != nil:
			if pre, _, ok := in.around(n); ok {
				*pre = append(*pre, exit(in.nest.slot))
			}
		}
	case *apt.Goto:
		// An assigned GO TO without its list jumps anywhere; a computed
		// one falls through when its index is out of range.
		in.jump(r, n, n.Targets, n.Kind == apt.GotoComputed || n.Kind == apt.GotoAssigned && len(n.Targets) == 0)
	case *apt.Stop:
		if !in.res.MPI {
			if pre, _, ok := in.around(n); ok {
				*pre = append(*pre, in.finishProbes(r)...)
			}
		}
	}
	for _, c := range apt.Children(n) {
		in.node(r, c, depth, timed, rslot)
	}
}

func (in *instr) loop(r *apt.Routine, l *apt.Loop, depth int, timed bool, rslot int) {
	s, i := in.stmtOf(l.Span.Start())
	if s == nil || i > 0 || in.opt.ProgramOnly {
		if !in.opt.ProgramOnly {
			in.note(l.Span.Start(), "loop %s: its DO statement was not found; not instrumented", l.ID)
		}
		for _, c := range l.Body {
			in.node(r, c, depth+1, timed, rslot)
		}
		return
	}
	if in.header[s] {
		// An inner index of a multi-index FORALL or DO CONCURRENT header:
		// one statement, no place of its own for probes.
		in.note(l.Span.Start(), "loop %s shares its header with the enclosing loop; not counted", l.ID)
		for _, c := range l.Body {
			in.node(r, c, depth+1, timed, rslot)
		}
		return
	}
	in.header[s] = true
	multi := false
	if len(l.Body) > 0 {
		if inner, ok := l.Body[0].(*apt.Loop); ok {
			if t, _ := in.stmtOf(inner.Span.Start()); t == s {
				multi = true
			}
		}
	}
	p := in.slot(l, "loop")
	k := p.Slot
	e := in.ed(s)
	e.pre = append(e.pre, count(k))
	switch {
	case strings.HasPrefix(s.canon(0), "forall"):
		in.note(l.Span.Start(), "FORALL %s: only its entries are counted (a FORALL body holds assignments only)", l.ID)
	case multi:
		in.note(l.Span.Start(), "loop %s has several indices in one header: only its entries are counted", l.ID)
	case !in.opt.BodyCounters && tripCountable(l) && !in.mentionsTemp(r, l.Lower, l.Upper, l.Step):
		// An innermost counted loop that runs to its end: add its trip
		// count, from the bounds as the program evaluates them, on entry.
		// A counter in the body would stop the compiler vectorising it.
		st := "1"
		if l.Step != nil {
			st = apt.FormatExpr(l.Step)
		}
		e.pre = append(e.pre, fmt.Sprintf("mkvet_i(%d) = mkvet_i(%d) + max(0_8, (int(%s, 8) - int(%s, 8) + int(%s, 8))/int(%s, 8))",
			k, k, apt.FormatExpr(l.Upper), apt.FormatExpr(l.Lower), st, st))
		p.Iters = true
	default:
		e.post = append(e.post, iters(k))
		p.Iters = true
	}
	if depth == 0 && (timed || in.opt.NestTimers) {
		t, _ := in.stmtOf(l.Span.End())
		if t == nil {
			in.note(l.Span.End(), "loop %s: its last statement was not found; not timed", l.ID)
		} else {
			p.Timed = true
			e.pre = append(e.pre, enter(k))
			in.afterLoop(t, l, exit(k))
			if in.opt.NestTimers {
				in.nest = &timedNest{slot: k, loop: l}
				defer func() { in.nest = nil }()
			}
		}
	}
	for _, c := range l.Body {
		in.node(r, c, depth+1, timed, rslot)
	}
}

// jump closes the timer of the nest being planned before a jump (at node
// n, to targets) that leaves it: the loop's own exit probe after its last
// statement would not run, and its region would stay open, taking the time
// of what follows, until an enclosing region closed. A jump that may stay
// in the nest or leave it (maybe: a jump that may also go on in place),
// or whose targets are not known, keeps the timer open, with a note.
func (in *instr) jump(r *apt.Routine, n apt.Node, targets []string, maybe bool) {
	if in.nest == nil {
		return
	}
	l := in.nest.loop
	out := 0
	for _, t := range targets {
		line, ok := in.labelLines(r)[strings.TrimLeft(t, "0")]
		if !ok || line < l.Span.Line || line > l.Span.EndLine {
			out++
		}
	}
	switch {
	case out > 0 && (maybe || out < len(targets)), maybe && len(targets) == 0:
		in.note(n.Base().Span.Start(), "a jump that may leave loop nest %s: its timer stays open until an enclosing timed region closes", l.ID)
	case out > 0:
		if pre, _, ok := in.around(n); ok {
			*pre = append(*pre, exit(in.nest.slot))
		} else {
			in.note(n.Base().Span.Start(), "a jump out of loop nest %s was not found in the source; its timer stays open", l.ID)
		}
	}
}

// labelLines returns the line of each labelled statement of r (labels
// without leading zeros).
func (in *instr) labelLines(r *apt.Routine) map[string]int {
	if m, ok := in.labelLine[r]; ok {
		return m
	}
	m := map[string]int{}
	if sf := in.file(r.Span.File); sf != nil {
		for _, s := range sf.stmts {
			if s.label != "" && in.stmtRoutine[s] == r {
				m[strings.TrimLeft(s.label, "0")] = s.first
			}
		}
	}
	if in.labelLine == nil {
		in.labelLine = map[*apt.Routine]map[string]int{}
	}
	in.labelLine[r] = m
	return m
}

// tripCountable reports whether a loop's body executions are its Fortran
// trip count, max(0, (hi - lo + step)/step), computable on entry: a counted
// DO with integer bounds that call no user function (evaluating them twice
// must change nothing), no loop inside, and nothing in the body that leaves
// it early (EXIT, GO TO, RETURN, STOP, a CYCLE of an outer loop).
// mentionsTemp reports whether one of es reads a variable the frontend
// made (apt.Var.Temp), which the instrumented source does not declare.
func (in *instr) mentionsTemp(r *apt.Routine, es ...apt.Expr) bool {
	found := false
	for _, e := range es {
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if nm, ok := x.(*apt.Name); ok {
				if v := in.prog.Resolve(r, nm.Name); v != nil && v.Temp {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

func tripCountable(l *apt.Loop) bool {
	if l.Var == "" || l.While != nil || l.Forever || l.Upper == nil || l.Lower == nil || l.Iterations != nil {
		return false
	}
	for _, e := range []apt.Expr{l.Lower, l.Upper, l.Step} {
		if e == nil {
			continue
		}
		if !apt.IsInteger(e) {
			return false
		}
		ok := true
		apt.InspectExpr(e, func(x apt.Expr) bool {
			if f, isCall := x.(*apt.FuncCall); isCall && !f.Intrinsic {
				ok = false
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	ok := true
	for _, n := range l.Body {
		apt.Inspect(n, func(n apt.Node) bool {
			switch n := n.(type) {
			case *apt.Loop, *apt.Exit, *apt.Goto, *apt.Return, *apt.Stop, *apt.Unknown:
				if g, isGoto := n.(*apt.Goto); isGoto && g.Kind == apt.GotoPlain && len(g.Targets) == 1 &&
					strings.TrimLeft(g.Targets[0], "0") == strings.TrimLeft(l.EndLabel, "0") && l.EndLabel != "" {
					return true // GO TO the terminal statement: the next iteration
				}
				ok = false
			case *apt.Cycle:
				if n.Construct != "" && n.Construct != l.Construct {
					ok = false
				}
			}
			return ok
		})
	}
	return ok
}

// afterLoop places a probe after a loop's last statement, and after the
// OpenMP end directive that may follow it.
func (in *instr) afterLoop(t *stmt, l *apt.Loop, probe string) {
	sf := t.file
	if l.OMP != "" {
		for n := t.last + 1; n <= len(sf.lines); n++ {
			c := strings.ToLower(strings.TrimSpace(sf.lines[n-1]))
			if c == "" {
				continue
			}
			if (strings.HasPrefix(c, "!$omp") || strings.HasPrefix(c, "c$omp") || strings.HasPrefix(c, "*$omp")) &&
				strings.Contains(strings.ReplaceAll(c, " ", ""), "$ompend") {
				m := in.afterLine[sf]
				if m == nil {
					m = map[int][]string{}
					in.afterLine[sf] = m
				}
				m[n] = append(m[n], probe)
				return
			}
			break
		}
	}
	e := in.ed(t)
	e.postOuter = append(e.postOuter, probe)
}

func (in *instr) branches(r *apt.Routine, f *apt.If, depth int, timed bool, rslot int) {
	for _, b := range f.Branches {
		switch {
		case in.opt.ProgramOnly:
		case f.Dispatch:
			// A call's dispatch on a dynamic type: no statement of the
			// source is a branch (the procedures' own counts tell which
			// ran).
			in.note(b.Span.Start(), "branch %s: a dispatch on a dynamic type, not a statement of the source; not counted", b.ID)
		case f.Kind == apt.IfWhere:
			// A WHERE construct holds array assignments only: its
			// masks select elements, no statement can go between them,
			// and there is no branch taken to count.
			return
		case f.Kind == apt.IfArithmetic || f.Kind == apt.IfGoto:
			// GO TOs only: nothing to count in between. A jump out of
			// a timed nest closes its timer before the IF, when every
			// label leaves it.
			var targets []string
			for _, ab := range f.Branches {
				for _, c := range ab.Body {
					if g, ok := c.(*apt.Goto); ok {
						targets = append(targets, g.Targets...)
					}
				}
			}
			in.jump(r, f, targets, false)
			return
		case f.Kind == apt.IfLogical:
			if len(b.Body) == 0 {
				break
			}
			s, i := in.stmtOf(b.Body[0].Base().Span.Start())
			if s == nil || i <= 0 {
				in.note(b.Span.Start(), "branch %s: the action of the logical IF was not found; not counted", b.ID)
				break
			}
			e := in.ed(s)
			if e.action == nil {
				e.action = &actionEdits{at: i}
			}
			p := in.slot(b, "branch")
			e.action.branch = append(e.action.branch, count(p.Slot))
		default:
			s, i := in.stmtOf(b.Span.Start())
			if s == nil || i > 0 {
				in.note(b.Span.Start(), "branch %s: its header was not found; not counted", b.ID)
				break
			}
			p := in.slot(b, "branch")
			e := in.ed(s)
			e.post = append(e.post, count(p.Slot))
		}
		for _, c := range b.Body {
			in.node(r, c, depth, timed, rslot)
		}
	}
}

// Sides of a message probe, as the runtime's mkvet_msg takes them.
const (
	sideSend     = 1 // point-to-point send: not counted to MPI_PROC_NULL
	sideRecv     = 2
	sideCollSend = 3 // collective: every call counts
	sideCollRecv = 4
)

// usesF08 reports whether routine r sees MPI through the mpi_f08 module
// (its own USE or a host's).
func (in *instr) usesF08(r *apt.Routine) bool {
	for ; r != nil; r = in.prog.Host(r) {
		for _, u := range r.Scope.Uses {
			if u.Module == "mpi" && u.Via == "mpi_f08" {
				return true
			}
		}
	}
	return false
}

func (in *instr) comm(r *apt.Routine, c *apt.Comm) {
	switch c.Op {
	case apt.MPIAbort:
		return
	}
	pre, post, ok := in.around(c)
	if !ok {
		in.note(c.Span.Start(), "MPI call %s was not found in the source; not instrumented", c.ID)
		return
	}
	if in.opt.ProgramOnly {
		switch c.Op {
		case apt.MPIFinalize:
			*pre = append(*pre, in.finishProbes(r)...)
		case apt.MPIInit:
			*post = append(*post, "call mkvet_started()")
		}
		return
	}
	p := in.slot(c, "comm")
	p.Op = c.Op.String()
	k := p.Slot
	*pre = append(*pre, count(k))
	switch c.Op {
	case apt.MPIFinalize:
		*pre = append(*pre, in.finishProbes(r)...)
		return
	case apt.MPIInit:
		p.Timed = true
		*pre = append(*pre, enter(k))
		*post = append(*post, "call mkvet_started()", exit(k))
		return
	}
	coll := c.Op.IsCollective()
	// mpi_f08's handles are derived types: the runtime takes the
	// integer they wrap (MPI 3.1 §17.2.2, MPI_VAL).
	handle := func(e apt.Expr) string {
		if in.usesF08(r) {
			return apt.FormatExpr(e) + "%MPI_VAL"
		}
		return apt.FormatExpr(e)
	}
	msg := func(m *apt.Msg, side int) {
		if m == nil || m.Count == nil || m.Datatype == nil {
			return
		}
		if in.mentionsTemp(r, m.Count, m.Peer) {
			// A value the frontend holds in a variable of its own (a
			// dispatched function's result): the source has no name
			// for it here.
			in.note(c.Span.Start(), "%s %s: its message is sized by a value the source computes in the call; not counted", c.Op, c.ID)
			return
		}
		if m.Displs != nil {
			if vSide, other := c.RootedBlock(); vSide == m {
				// gatherv's and scatterv's counts are the root's alone:
				// the caller's block there is its other side's.
				*pre = append(*pre, fmt.Sprintf("call mkvet_msg(%d, %d, int(%s, 8), %s, 0)", k, side+2,
					apt.FormatExpr(other.Count), handle(other.Datatype)))
				return
			}
			if c.Op != apt.MPIAllgatherv {
				return
			}
			// A count per process: the caller's own block.
			var comm apt.Expr = &apt.Name{Name: "MPI_COMM_WORLD"}
			if c.Comm != nil {
				comm = c.Comm
			}
			*pre = append(*pre, fmt.Sprintf("call mkvet_msgv(%d, %d, %s, %s, %s)", k, side+2,
				apt.FormatExpr(m.Count), handle(m.Datatype), handle(comm)))
			return
		}
		peer := "0"
		if !coll {
			if m.Peer == nil {
				return
			}
			peer = apt.FormatExpr(m.Peer)
		} else {
			side += 2
		}
		*pre = append(*pre, fmt.Sprintf("call mkvet_msg(%d, %d, int(%s, 8), %s, %s)", k, side,
			apt.FormatExpr(m.Count), handle(m.Datatype), peer))
	}
	if c.Send != nil && c.Op != apt.MPIRecv && c.Op != apt.MPIIrecv {
		msg(c.Send, sideSend)
	}
	if c.Recv != nil {
		msg(c.Recv, sideRecv)
	}
	p.Timed = true
	if in.opt.Events {
		evPre, evPost := commEvents(c, k, in.usesF08(r))
		*pre = append(*pre, evPre...)
		*post = append(*post, evPost...)
	}
	*pre = append(*pre, enter(k))
	*post = append(*post, exit(k))
}

// finishProbes records the parameter values visible in r and writes the
// records.
func (in *instr) finishProbes(r *apt.Routine) []string {
	var out []string
	names := map[string]bool{}
	var list []string
	for _, q := range in.res.Params {
		list = append(list, q.Name)
	}
	list = append(list, in.opt.Record...)
	for _, name := range list {
		name = strings.ToLower(name)
		if names[name] || name == "nargs" {
			continue
		}
		names[name] = true
		v := in.prog.Resolve(r, name)
		if v == nil || v.IsArray() || v.Type.Base != apt.TypeInteger || v.Predefined != "" || v.Temp {
			continue
		}
		out = append(out, fmt.Sprintf("call mkvet_param('%s', int(%s, 8))", name, name))
	}
	out = append(out, "call mkvet_param('nargs', int(command_argument_count(), 8))", "call mkvet_finish()")
	return out
}

// params finds how each `!mk$ param` reaches the program and plans the
// edits that set it.
func (in *instr) params() {
	done := map[string]bool{}
	for _, r := range in.routines {
		for _, q := range r.Params {
			name := strings.ToLower(q.Name)
			if done[name] {
				continue
			}
			done[name] = true
			in.param(r, name, q.Pos)
		}
	}
	for name := range in.opt.Values {
		if !done[strings.ToLower(name)] {
			in.note(apt.Pos{}, "-D %s: not a `!mk$ param` of the program; ignored by the instrumentation", name)
		}
	}
}

func (in *instr) param(r *apt.Routine, name string, at apt.Pos) {
	v := in.prog.Resolve(r, name)
	val, has := in.opt.Values[name]
	if v != nil {
		var e apt.Expr
		if v.Param != nil {
			e = v.Param
		} else if len(v.Init) == 1 && !v.IsArray() {
			e = v.Init[0]
		}
		if e != nil {
			pos := exprPos(e)
			q := Param{Name: name, Mode: ParamBuild, Default: apt.FormatExpr(e), Pos: pos}
			in.res.Params = append(in.res.Params, q)
			if has {
				if !in.replaceExpr(pos, strconv.FormatInt(val, 10)) {
					in.note(pos, "parameter %s: its value was not found in the source; -D %s=%d not applied", name, name, val)
				}
			}
			return
		}
	}
	// Constant assignments to the variable become run-time overrides.
	found := false
	for _, rr := range in.routines {
		apt.Inspect(rr, func(n apt.Node) bool {
			switch n := n.(type) {
			case *apt.Routine:
				return n == rr
			case *apt.Block:
				for _, s := range n.Stmts {
					t, ok := s.Target.(*apt.Name)
					if s.Kind != apt.StmtAssign || !ok || t.Name != name || !isIntConst(s.Value) {
						continue
					}
					if v != nil && in.prog.Resolve(rr, name) != v {
						continue
					}
					def := apt.FormatExpr(s.Value)
					if has {
						def = strconv.FormatInt(val, 10)
					}
					pos := exprPos(s.Value)
					if in.replaceExpr(pos, fmt.Sprintf("mkvet_ival('%s', int(%s))", name, def)) {
						if !found {
							in.res.Params = append(in.res.Params, Param{Name: name, Mode: ParamEnv, Default: apt.FormatExpr(s.Value), Pos: pos})
						}
						found = true
					}
				}
			}
			return true
		})
	}
	if !found {
		in.res.Params = append(in.res.Params, Param{Name: name, Mode: ParamInput, Pos: at})
		if has {
			in.note(at, "parameter %s is read at run time: -D %s=%d cannot be built in; give it in the run's input or command line", name, name, val)
		}
	}
}

func isIntConst(e apt.Expr) bool {
	switch e := e.(type) {
	case *apt.Const:
		return e.Kind == apt.ConstInt
	case *apt.Unary:
		return e.Op == apt.OpNeg && isIntConst(e.X)
	}
	return false
}

// exprPos returns the position of an expression's first character.
func exprPos(e apt.Expr) apt.Pos {
	type at interface{ At() apt.Pos }
	p := e.(at).At()
	if u, ok := e.(*apt.Unary); ok && !p.IsValid() {
		return exprPos(u.X)
	}
	return p
}

// replaceExpr replaces the expression starting at pos (up to the next , or
// unmatched ) at its level) with text.
func (in *instr) replaceExpr(pos apt.Pos, text string) bool {
	s, i := in.stmtOf(pos)
	if s == nil || i < 0 {
		return false
	}
	// A unary minus before the position belongs to the value.
	j := i
	for j > 0 && (s.text[j-1] == ' ' || s.text[j-1] == '\t') {
		j--
	}
	if j > 0 && s.text[j-1] == '-' {
		i = j - 1
	}
	end := s.exprEnd(i)
	for end > i && (s.text[end-1] == ' ' || s.text[end-1] == '\t') {
		end--
	}
	e := in.ed(s)
	e.repl = append(e.repl, textEdit{i, end, text})
	return true
}
