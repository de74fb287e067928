package fortran

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Config controls how source files are read.
type Config struct {
	// IncludeDirs are searched, after the including file's directory, for INCLUDE
	// and #include files (the -I flag).
	IncludeDirs []string
	// Defines are preprocessor macros (the -D flag): name to value, "" meaning
	// defined without a value (cpp's -DNAME defines it as 1).
	Defines map[string]string
	// Form overrides the source form chosen by file extension.
	Form Form
	// Preprocess runs the built-in preprocessor on every file, not only on .F and
	// .F90 (and other upper-case extension) files.
	Preprocess bool
	// Files are in-memory include files by name, consulted after the search path
	// (tests and fuzzing use them instead of the file system).
	Files map[string][]byte
	// ReadFile, when set, reads every source and INCLUDE file in place of
	// os.ReadFile. It is given the name positions will show, so a caller can
	// read another copy of the tree under the original names: mkvet's
	// -configure reads a configured mirror of the source tree while every
	// position names the user's files.
	ReadFile func(name string) ([]byte, error)
}

// maxIncludeDepth bounds INCLUDE and #include nesting, which catches include cycles.
const maxIncludeDepth = 32

// frontend is the state of one ParseFiles call.
type frontend struct {
	cfg    Config
	diags  []apt.Diagnostic
	macros map[string]string
	// fnMacros are the function-like macros (#define F(a, b) ...).
	fnMacros map[string]fnMacro
	depth    int
	prog     *apt.Program
	// pendingAnnots are !mk$ param/assume lines seen outside any program unit;
	// they attach to the next unit.
	// needMPI is set when a scope includes mpif.h or uses mpi: the synthetic
	// module mpi is then added to the program.
	needMPI        bool
	pendingParams  []*apt.Param
	pendingAssumes []*apt.Assume
	// separate holds the interface bodies of separate module procedures
	// (MODULE SUBROUTINE s(...) in an INTERFACE block), by lower-case
	// name, header to END: a submodule's MODULE PROCEDURE s takes its
	// arguments and their declarations from there (submodule.go).
	separate map[string][]*stmt
	// capturing is the interface body being recorded, nil when none.
	capturing *[]*stmt
}

// readFile reads a source or INCLUDE file through Config.ReadFile when set.
func (fe *frontend) readFile(name string) ([]byte, error) {
	if fe.cfg.ReadFile != nil {
		return fe.cfg.ReadFile(name)
	}
	return os.ReadFile(name)
}

func (fe *frontend) diag(pos apt.Pos, sev apt.Severity, msg string) {
	fe.diags = append(fe.diags, apt.Diagnostic{Pos: pos, Severity: sev, Msg: msg})
}

// ParseFiles reads Fortran source files and returns their augmented parse tree
// and the diagnostics found, sorted by position. It never fails as a whole: a
// file that cannot be read and every statement that cannot be parsed become
// diagnostics, the latter also Unknown nodes in the tree.
func ParseFiles(paths []string, cfg Config) (*apt.Program, []apt.Diagnostic) {
	fe := newFrontend(cfg)
	for _, path := range paths {
		src, err := fe.readFile(path)
		if err != nil {
			fe.diag(apt.Pos{File: path}, apt.Error, fmt.Sprintf("reading %s: %v", path, err))
			continue
		}
		fe.file(path, src)
	}
	return fe.finish()
}

// ParseSource parses one in-memory source file named name (the name chooses the
// source form and appears in positions).
func ParseSource(name string, src []byte, cfg Config) (*apt.Program, []apt.Diagnostic) {
	fe := newFrontend(cfg)
	fe.file(name, src)
	return fe.finish()
}

func newFrontend(cfg Config) *frontend {
	fe := &frontend{cfg: cfg, prog: &apt.Program{}}
	for _, k := range slices.Sorted(maps.Keys(cfg.Defines)) {
		v := cfg.Defines[k]
		if v == "" {
			v = "1"
		}
		fe.defineMacro(k, v)
	}
	return fe
}

// file parses one source file into program units appended to fe.prog.
func (fe *frontend) file(name string, src []byte) {
	defer func() {
		// Last resort: a bug in the frontend becomes a diagnostic, not a crash.
		if r := recover(); r != nil {
			fe.diag(apt.Pos{File: name, Line: 1, Col: 1}, apt.Error, fmt.Sprintf("internal error in the Fortran frontend: %v", r))
		}
	}()
	fe.prog.Files = append(fe.prog.Files, name)
	form, cpp, _ := formOf(name)
	if fe.cfg.Form != FormAuto {
		form = fe.cfg.Form
	} else if form == FormFixed && looksFree(src) {
		// A fixed-form extension on free-form text (a .F file built with
		// -ffree-form): read as written, and said.
		form = FormFree
		fe.diag(apt.Pos{File: name, Line: 1, Col: 1}, apt.Warning,
			"free source form detected in a file whose extension means fixed form; give -form fixed to read it as fixed")
	}
	cpp = cpp || fe.cfg.Preprocess
	stmts := fe.statements(name, src, form, cpp, 0)
	b := &builder{fe: fe}
	for _, s := range stmts {
		b.statement(s)
	}
	b.finishFile(name)
}

// statements reads a file's lines and returns its statements with INCLUDE lines
// expanded in place. The INCLUDE statement itself stays in the stream, marking
// the inclusion for the enclosing scope.
func (fe *frontend) statements(name string, src []byte, form Form, cpp bool, depth int) []*stmt {
	lines := fe.readLines(name, src, cpp)
	r := &reader{fe: fe, form: form}
	if form == FormFree {
		r.readFree(lines)
	} else {
		r.readFixed(lines)
	}
	out := r.out[:0:0]
	for _, s := range r.out {
		out = append(out, s)
		inc, ok := includeName(s)
		if !ok || isMPIHeader(inc) {
			continue
		}
		pos := s.posAt(0)
		if depth >= maxIncludeDepth {
			fe.diag(pos, apt.Error, "INCLUDE nested too deeply (include cycle?)")
			continue
		}
		path, isrc, found := fe.findInclude(inc, name)
		if !found {
			fe.diag(pos, apt.Error, "cannot find INCLUDE file "+strconv.Quote(inc))
			continue
		}
		iform, _, known := formOf(path)
		if !known || fe.cfg.Form != FormAuto {
			iform = form
		}
		out = append(out, fe.statements(path, isrc, iform, false, depth+1)...)
	}
	return out
}

// includeName recognises INCLUDE 'file'.
func includeName(s *stmt) (string, bool) {
	t := s.text
	if s.dir != dirNone || len(t) < 9 || string(t[:7]) != "INCLUDE" || (t[7] != '\'' && t[7] != '"') {
		return "", false
	}
	q := t[7]
	end := -1
	for k := 8; k < len(t); k++ {
		if t[k] == q {
			end = k
			break
		}
	}
	if end < 0 || end != len(t)-1 {
		return "", false
	}
	return strings.TrimSpace(string(t[8:end])), true
}

// isMPIHeader reports whether an include names MPI's Fortran header, which the
// frontend knows without reading it.
func isMPIHeader(name string) bool {
	return strings.EqualFold(filepath.Base(name), "mpif.h")
}

// finish resolves modules, types every expression, counts operations and assigns
// IDs.
func (fe *frontend) finish() (*apt.Program, []apt.Diagnostic) {
	p := fe.prog
	if fe.needMPI && !slices.ContainsFunc(p.Routines, func(r *apt.Routine) bool { return r.Name == "mpi" }) {
		p.Routines = append(p.Routines, apt.MPIModule())
	}
	// The intrinsic modules the program uses and does not define.
	for _, r := range slices.Clone(p.Routines) {
		if r.Scope == nil {
			continue
		}
		for _, u := range r.Scope.Uses {
			if apt.IsIntrinsicModule(u.Module) && !slices.ContainsFunc(p.Routines, func(m *apt.Routine) bool { return m.Name == u.Module }) {
				p.Routines = append(p.Routines, apt.IntrinsicModule(u.Module))
			}
		}
	}
	for _, a := range fe.pendingParams {
		fe.diag(a.Pos, apt.Warning, "!mk$ param outside any program unit is ignored")
	}
	for _, a := range fe.pendingAssumes {
		fe.diag(a.Pos, apt.Warning, "!mk$ assume outside any program unit is ignored")
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				fe.diag(apt.Pos{Line: 1, Col: 1}, apt.Error, fmt.Sprintf("internal error while typing the program: %v", r))
			}
		}()
		newTyper(fe).program(p)
	}()
	apt.AssignIDs(p)
	sort.SliceStable(fe.diags, func(i, j int) bool {
		a, b := fe.diags[i].Pos, fe.diags[j].Pos
		if a.File != b.File {
			return fileOrder(p.Files, a.File) < fileOrder(p.Files, b.File)
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return p, fe.diags
}

func fileOrder(files []string, f string) int {
	if i := slices.Index(files, f); i >= 0 {
		return i
	}
	return len(files)
}
