package llvmir

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Config says how C and C++ sources become IR.
type Config struct {
	// IncludeDirs are passed to clang as -I (the -I flag).
	IncludeDirs []string
	// Defines are passed to clang as -D (the -define flag): name to value,
	// "" meaning defined without a value.
	Defines map[string]string
	// Flags are further clang flags, given before the source file.
	Flags []string
	// Clang, Opt, Link and Dis name the LLVM 14 tools; empty means
	// clang-14, opt-14, llvm-link-14 and llvm-dis-14 (or $MKVET_CLANG,
	// $MKVET_OPT, $MKVET_LINK, $MKVET_DIS).
	Clang, Opt, Link, Dis string
	// MPIInclude are the compile flags of the MPI headers; nil means those
	// `mpicc -showme:compile` prints (Open MPI) or `mpicc -show` implies
	// (MPICH), none when there is no mpicc.
	MPIInclude []string
	// KeepDir, when set, receives the IR of every stage (name.ll as clang
	// wrote it, linked.ll, normalised.ll) for the user to inspect.
	KeepDir string
	// Mirror, when set, holds a copy of the user's directory Root that a
	// configure step wrote into (NPB's npbparams.h): the inputs and the -I
	// directories under Root are compiled from their copies there, and
	// the debug information names the user's files
	// (-fdebug-prefix-map), so positions do too.
	Mirror, Root string
	// NoCache compiles every unit afresh, neither reading nor writing
	// the unit cache (cache.go; also MKVET_CACHE=off).
	NoCache bool
}

// redirect returns the path to compile for the user's path p: its copy
// in cfg.Mirror when p is under cfg.Root, else p.
func (cfg Config) redirect(p string) string {
	if cfg.Mirror == "" {
		return p
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	rel, err := filepath.Rel(cfg.Root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return filepath.Join(cfg.Mirror, rel)
}

// Passes are the opt-14 passes that normalise the IR before it is read:
// loop-simplify gives every loop a preheader, one latch and dedicated exits,
// the shape the loop analysis expects, and mem2reg turns the locals clang
// -O0 keeps in memory into SSA values (loop variables become phis whose
// increments and exit tests are visible). In that order: run on SSA,
// loop-simplify splits a loop with a `continue` into two nested loops
// where a phi passes a value through unchanged on the continue's edge (a
// setting assigned in some iterations of a `while (fgets(...))`), and the
// loop's end then jumps out of both. Nothing else runs: the loops stay as
// the source wrote them, so their trip counts are the source's, and
// instruction counts are those of unoptimised code (what a -O0 build does;
// the calibration's constants absorb what the real compiler saves).
const Passes = "loop-simplify,mem2reg"

// clangFlags are the flags every translation unit is compiled with: debug
// locations and value names for positions and variable names, -O0 without
// optnone so that opt may still run mem2reg, and no inlining.
var clangFlags = []string{"-S", "-emit-llvm", "-O0", "-Xclang", "-disable-O0-optnone", "-g",
	"-fno-discard-value-names", "-fno-inline"}

// IsSource reports whether path names a C or C++ source file.
func IsSource(path string) bool {
	switch filepath.Ext(path) {
	case ".c", ".cc", ".cpp", ".cxx", ".C", ".c++", ".i", ".ii":
		return true
	}
	return false
}

// IsIR reports whether path names an LLVM IR file (text or bitcode).
func IsIR(path string) bool {
	switch filepath.Ext(path) {
	case ".ll", ".bc":
		return true
	}
	return false
}

// Handles reports whether this frontend reads path (a C/C++ source or IR).
func Handles(path string) bool { return IsSource(path) || IsIR(path) }

func tool(set, env, def string) string {
	if set != "" {
		return set
	}
	if v := os.Getenv(env); v != "" {
		return v
	}
	return def
}

// ParseFiles compiles C and C++ sources with clang-14, links them with the
// IR files among paths (llvm-link-14), normalises the module with opt-14
// (Passes) and builds the APT. Problems are diagnostics with positions in
// the user's files; a missing tool is one diagnostic that says what to
// install.
func ParseFiles(paths []string, cfg Config) (*apt.Program, []apt.Diagnostic) {
	ir, name, diags := Compile(paths, cfg)
	if ir == nil {
		return &apt.Program{Files: paths, FromIR: true}, diags
	}
	prog, more := ParseIR(name, ir, paths)
	return prog, append(diags, more...)
}

// Compile runs the pipeline of ParseFiles up to the normalised IR text,
// which it returns with the name positions in it should be reported as.
func Compile(paths []string, cfg Config) (ir []byte, name string, diags []apt.Diagnostic) {
	fail := func(p apt.Pos, msg string) ([]byte, string, []apt.Diagnostic) {
		return nil, "", append(diags, apt.Diagnostic{Pos: p, Severity: apt.Error, Msg: msg})
	}
	if len(paths) == 0 {
		return fail(apt.Pos{}, "no C, C++ or LLVM IR files given")
	}
	clang := tool(cfg.Clang, "MKVET_CLANG", "clang-14")
	opt := tool(cfg.Opt, "MKVET_OPT", "opt-14")
	link := tool(cfg.Link, "MKVET_LINK", "llvm-link-14")
	dir, err := os.MkdirTemp("", "mkvet-ir-")
	if err != nil {
		return fail(apt.Pos{}, err.Error())
	}
	defer os.RemoveAll(dir)
	mpiFlags := cfg.MPIInclude
	if mpiFlags == nil {
		mpiFlags = mpiCompileFlags()
	}
	// An OpenMP header where the system has none for clang (a hybrid
	// MPI+OpenMP program built with gcc, whose omp.h clang rejects).
	if inc, err := writeOMPHeader(dir); err == nil {
		mpiFlags = append(slices.Clip(mpiFlags), "-idirafter", inc)
	}
	// Each file's unit and diagnostics, in the order of paths; the
	// compilations run side by side (a C++ program's fifteen files took
	// seconds one after another).
	units := make([]string, len(paths))
	perFile := make([][]apt.Diagnostic, len(paths))
	type job struct {
		i    int
		p    string
		args []string
		lean []string // args without MPI's C++ bindings, tried first
		out  string
	}
	var jobs []job
	for i, p := range paths {
		fd := &perFile[i] // this file's diagnostics
		src := cfg.redirect(p)
		if _, err := os.Stat(src); err != nil {
			*fd = append(*fd, apt.Diagnostic{Pos: apt.Pos{File: p}, Severity: apt.Error, Msg: "reading " + p + ": " + errText(err)})
			continue
		}
		if IsIR(p) {
			src, err := os.ReadFile(src)
			if err != nil {
				*fd = append(*fd, apt.Diagnostic{Pos: apt.Pos{File: p}, Severity: apt.Error, Msg: err.Error()})
				continue
			}
			if filepath.Ext(p) == ".bc" {
				// Bitcode: its text, to take optnone out.
				text := filepath.Join(dir, fmt.Sprintf("%d-dis.ll", i))
				if d, ok := run(tool(cfg.Dis, "MKVET_DIS", "llvm-dis-14"), []string{cfg.redirect(p), "-o", text}, p, true); !ok {
					*fd = append(*fd, d...)
					continue
				}
				if src, err = os.ReadFile(text); err != nil {
					*fd = append(*fd, apt.Diagnostic{Pos: apt.Pos{File: p}, Severity: apt.Error, Msg: err.Error()})
					continue
				}
			}
			if d, bad := unreadable(p, src); bad {
				*fd = append(*fd, d)
				continue
			}
			// IR written at -O0 marks every function optnone, which opt
			// leaves alone: mem2reg would not run.
			out := filepath.Join(dir, fmt.Sprintf("%d-input.ll", i))
			if err := os.WriteFile(out, optnone.ReplaceAll(src, nil), 0o644); err != nil {
				*fd = append(*fd, apt.Diagnostic{Pos: apt.Pos{File: p}, Severity: apt.Error, Msg: err.Error()})
				continue
			}
			units[i] = out
			continue
		}
		out := filepath.Join(dir, fmt.Sprintf("%d-%s.ll", i, strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))))
		args := slices.Clone(clangFlags)
		cxx := filepath.Ext(p) != ".c" && filepath.Ext(p) != ".i"
		if cxx {
			args = append(args, "-x", "c++")
		}
		args = append(args, mpiFlags...)
		for _, inc := range cfg.IncludeDirs {
			args = append(args, "-I"+cfg.redirect(inc))
		}
		if cfg.Mirror != "" {
			args = append(args, "-fdebug-prefix-map="+cfg.Mirror+"="+cfg.Root)
		}
		for _, k := range sortedKeys(cfg.Defines) {
			if v := cfg.Defines[k]; v != "" {
				args = append(args, "-D"+k+"="+v)
			} else {
				args = append(args, "-D"+k)
			}
		}
		args = append(args, cfg.Flags...)
		io := []string{src, "-o", out}
		j := job{i: i, p: p, args: append(slices.Clone(args), io...), out: out}
		if cxx {
			// MPI's C++ bindings (deprecated since MPI 2.2, gone in 3.0)
			// are a header of classes every C++ unit that includes mpi.h
			// parses and emits: two thirds of a small unit's compile. Left
			// out unless the unit uses them (it then fails without them
			// and is compiled again with them).
			j.lean = append(append(args, skipMPICXX...), io...)
		}
		jobs = append(jobs, j)
	}
	cache := openCache()
	if cfg.NoCache {
		cache = nil
	}
	work := make(chan job)
	var wg sync.WaitGroup
	for range min(len(jobs), runtime.NumCPU()) {
		wg.Go(func() {
			for j := range work {
				// The cache's key: the arguments with this run's
				// temporary directory (the OpenMP header's, the output)
				// taken out, and that header's text in its place.
				key, cached := "", false
				if cache != nil {
					norm := make([]string, len(j.args))
					for k, a := range j.args {
						norm[k] = strings.ReplaceAll(a, dir, "<tmp>")
					}
					key, cached = cache.key(clang, append(norm, ompHeader), j.out, cfg.redirect(j.p))
					if cached && cache.get(key, j.out) {
						keep(cfg.KeepDir, j.out, filepath.Base(j.out))
						units[j.i] = j.out
						continue
					}
				}
				deps := j.out + ".d"
				withDeps := func(args []string) []string {
					if !cached {
						return args
					}
					return append(slices.Clip(args), "-MD", "-MF", deps)
				}
				ok := false
				if j.lean != nil {
					_, ok = run(clang, withDeps(j.lean), j.p, false)
				}
				if !ok {
					d, full := run(clang, withDeps(j.args), j.p, false)
					if !full {
						perFile[j.i] = append(perFile[j.i], d...)
						continue
					}
				}
				if cached {
					cache.put(key, j.out, deps, dir)
				}
				keep(cfg.KeepDir, j.out, filepath.Base(j.out))
				units[j.i] = j.out
			}
		})
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
	for _, d := range perFile {
		diags = append(diags, d...)
	}
	units = slices.DeleteFunc(units, func(u string) bool { return u == "" })
	if hasErrors(diags) || len(units) == 0 {
		return nil, "", diags
	}
	linked := filepath.Join(dir, "linked.ll")
	if d, ok := run(link, append([]string{"-S", "-o", linked}, units...), paths[0], true); !ok {
		return nil, "", append(diags, d...)
	}
	keep(cfg.KeepDir, linked, "linked.ll")
	norm := filepath.Join(dir, "normalised.ll")
	if d, ok := run(opt, []string{"-S", "-passes=" + Passes, linked, "-o", norm}, paths[0], true); !ok {
		return nil, "", append(diags, d...)
	}
	keep(cfg.KeepDir, norm, "normalised.ll")
	ir, err = os.ReadFile(norm)
	if err != nil {
		return fail(apt.Pos{}, err.Error())
	}
	return ir, norm, diags
}

func keep(dir, from, name string) {
	if dir == "" {
		return
	}
	if b, err := os.ReadFile(from); err == nil {
		_ = os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
}

func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func hasErrors(ds []apt.Diagnostic) bool {
	return slices.ContainsFunc(ds, func(d apt.Diagnostic) bool { return d.Severity == apt.Error })
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// skipMPICXX are the macros Open MPI's and MPICH's mpi.h test to leave
// their C++ bindings out.
var skipMPICXX = []string{"-DOMPI_SKIP_MPICXX", "-DMPICH_SKIP_MPICXX"}

// optnone is the attribute clang -O0 gives every function.
var optnone = regexp.MustCompile(`\boptnone\b`)

// toolMessage is the compiler's own file:line:col: error: text.
var toolMessage = regexp.MustCompile(`^(.+?):(\d+):(\d+): (error|fatal error): (.*)$`)

// run runs an LLVM tool; on failure its error lines become diagnostics (at
// their own positions when the tool gives them, else at file).
// A tool that reads IR (onIR) adds how to write readable IR to errors that
// look like a newer LLVM's; a C compile error is no IR matter.
func run(name string, args []string, file string, onIR bool) ([]apt.Diagnostic, bool) {
	if _, err := exec.LookPath(name); err != nil {
		return []apt.Diagnostic{{Pos: apt.Pos{File: file}, Severity: apt.Error, Msg: fmt.Sprintf(
			"%s is not installed: C and C++ go through LLVM 14 (Debian: apt-get install clang-14 llvm-14), "+
				"or give IR that clang-14 -S -emit-llvm -g wrote", name)}}, false
	}
	var stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		return nil, true
	}
	var out []apt.Diagnostic
	for _, line := range strings.Split(stderr.String(), "\n") {
		m := toolMessage.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		l, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		msg := m[5]
		if hint := newerIRHint(msg); onIR && hint != "" {
			msg += "; " + hint
		}
		out = append(out, apt.Diagnostic{Pos: apt.Pos{File: m[1], Line: l, Col: c}, Severity: apt.Error, Msg: msg})
	}
	if len(out) == 0 {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		out = append(out, apt.Diagnostic{Pos: apt.Pos{File: file}, Severity: apt.Error,
			Msg: fmt.Sprintf("%s failed: %s", filepath.Base(name), msg)})
	}
	return out, false
}

// howToIR says how to produce IR this frontend reads.
const howToIR = "mkvet reads LLVM 14 IR with typed pointers: give the C/C++ source, or write the IR with " +
	"clang-14 -S -emit-llvm -g (clang 15 and 16: add -Xclang -no-opaque-pointers; clang 17 and later cannot write it)"

// newerIRHint recognises LLVM 14 tools failing on IR of a newer LLVM.
func newerIRHint(msg string) string {
	for _, s := range []string{"ptr", "memory(", "opaque", "attribute", "expected type"} {
		if strings.Contains(msg, s) {
			return howToIR
		}
	}
	return ""
}

// newerAttrs are attributes LLVM 15 and later write that LLVM 14's
// grammar does not have.
var newerAttrs = []string{"memory(", "nocallback", "allockind("}

// unreadable reports IR text that the reader cannot take, at the first
// line that shows it: the opaque pointer type `ptr` (a word of its own, not
// part of getelementptr or inttoptr) or a newer attribute. It runs before
// every parse, so it scans bytes rather than matching expressions.
func unreadable(name string, src []byte) (apt.Diagnostic, bool) {
	line := 1
	for len(src) > 0 {
		end := bytes.IndexByte(src, '\n')
		if end < 0 {
			end = len(src)
		}
		text := src[:end]
		if i := bytes.IndexByte(text, ';'); i >= 0 && !bytes.Contains(text[:i], []byte{'"'}) {
			text = text[:i]
		}
		col, what := -1, ""
		if c := ptrWord(text); c >= 0 {
			col, what = c, "the opaque pointer type ptr"
		}
		for _, a := range newerAttrs {
			if c := bytes.Index(text, []byte(a)); c >= 0 && (col < 0 || c < col) {
				col, what = c, "attribute "+strings.TrimSuffix(a, "(")
			}
		}
		if col >= 0 {
			return apt.Diagnostic{Pos: apt.Pos{File: name, Line: line, Col: col + 1}, Severity: apt.Error,
				Msg: "IR of a newer LLVM (" + what + "); " + howToIR}, true
		}
		if end == len(src) {
			break
		}
		src = src[end+1:]
		line++
	}
	return apt.Diagnostic{}, false
}

// ptrWord is the offset of the first "ptr" in text that stands alone as a
// type, -1 if none.
func ptrWord(text []byte) int {
	before := func(c byte) bool {
		return c == ' ' || c == '\t' || c == '(' || c == ',' || c == '[' || c == '{' || c == '<'
	}
	after := func(c byte) bool { return before(c) || c == ')' || c == '*' || c == ']' || c == '}' || c == '>' }
	for off := 0; ; {
		i := bytes.Index(text[off:], []byte("ptr"))
		if i < 0 {
			return -1
		}
		i += off
		if (i == 0 || before(text[i-1])) && (i+3 == len(text) || after(text[i+3])) {
			return i
		}
		off = i + 3
	}
}

// mpiCompileFlags asks the MPI compiler wrapper for the include flags of
// the MPI headers: Open MPI's mpicc -showme:compile, else MPICH's
// mpicc -show (its -I words). None when there is no mpicc: a program that
// includes mpi.h then fails to compile with clang's own message.
func mpiCompileFlags() []string {
	if out, err := exec.Command("mpicc", "-showme:compile").Output(); err == nil {
		return strings.Fields(string(out))
	}
	if out, err := exec.Command("mpicc", "-show").Output(); err == nil {
		var flags []string
		for _, w := range strings.Fields(string(out)) {
			if strings.HasPrefix(w, "-I") || strings.HasPrefix(w, "-D") {
				flags = append(flags, w)
			}
		}
		return flags
	}
	return []string{}
}
