// Package corpora finds the real applications mkvet is measured on (the NAS
// Parallel Benchmarks 3.3 and CloverLeaf, kept beside the repository in
// ../shared/corpora or where MKVET_CORPORA points) and prepares them for
// tests and benchmarks: a private copy of NPB with its problem class and
// process count configured by its own setparams, and each benchmark's
// source files as its Makefile lists them. The corpora are test data and
// are never copied into the repository; tests that need them skip, naming
// the directory, when they are absent.
package corpora

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// Dir returns the corpora directory: $MKVET_CORPORA, or shared/corpora
// beside the repository. It skips t (with a message naming the directory)
// when the directory is absent.
func Dir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("MKVET_CORPORA")
	if dir == "" {
		dir = filepath.Join(repoRoot(), "..", "shared", "corpora")
	}
	if st, err := os.Stat(filepath.Join(dir, "NPB3.3-MPI")); err != nil || !st.IsDir() {
		t.Skipf("the corpora are not at %s (set MKVET_CORPORA to their directory); skipping", dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// repoRoot returns the repository's root, from this file's place in it.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// NPB is a private copy of NPB3.3-MPI (or NPB3.4-MPI) with
// config/make.def written for gfortran and Open MPI and sys/setparams
// built.
type NPB struct {
	Dir string
	// V34 is set for NPB 3.4, whose setparams takes no process count (its
	// programs take it at run time).
	V34 bool
}

// Benchmarks are the Fortran benchmarks of NPB 3.3 MPI.
var Benchmarks = []string{"BT", "CG", "EP", "FT", "LU", "MG", "SP"}

// NewNPB copies NPB3.3-MPI from the corpora into dir and builds setparams
// with cc (the copy is the program's own build tree: setparams records the
// compiler flags of config/make.def in each npbparams.h).
func NewNPB(corpora, dir string) (*NPB, error) {
	return newNPB(corpora, dir, "NPB3.3-MPI")
}

// NewNPB34 is NewNPB for NPB 3.4 (Fortran 90 modules, process counts taken
// at run time).
func NewNPB34(corpora, dir string) (*NPB, error) {
	return newNPB(corpora, dir, "NPB3.4-MPI")
}

func newNPB(corpora, dir, version string) (*NPB, error) {
	src := filepath.Join(corpora, version)
	dst := filepath.Join(dir, version)
	if err := copyTree(src, dst); err != nil {
		return nil, err
	}
	tmpl, err := os.ReadFile(filepath.Join(dst, "config", "make.def.template"))
	if err != nil {
		return nil, err
	}
	def := string(tmpl)
	for _, r := range []struct{ re, repl string }{
		{`(?m)^MPIF77.*$`, "MPIF77 = mpif77"},
		{`(?m)^MPIFC.*$`, "MPIFC = mpif90"},
		{`(?m)^CFLAGS.*$`, "CFLAGS = -O2"},
		{`(?m)^MPICC.*$`, "MPICC = mpicc"},
		{`(?m)^CC .*$`, "CC = cc"},
		{`(?m)^FFLAGS.*$`, "FFLAGS = -O2 -fallow-argument-mismatch"},
		{`(?m)^FLINKFLAGS.*$`, "FLINKFLAGS = -O2"},
		{`(?m)^FMPI_LIB.*$`, "FMPI_LIB ="},
		{`(?m)^FMPI_INC.*$`, "FMPI_INC ="},
	} {
		def = regexp.MustCompile(r.re).ReplaceAllString(def, r.repl)
	}
	if err := os.WriteFile(filepath.Join(dst, "config", "make.def"), []byte(def), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command("cc", "-o", "setparams", "setparams.c")
	cmd.Dir = filepath.Join(dst, "sys")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building setparams: %v\n%s", err, out)
	}
	return &NPB{Dir: dst, V34: version == "NPB3.4-MPI"}, nil
}

// Configure writes bench's npbparams.h for p processes and class (setparams
// bench p class, run in the benchmark's directory) and returns the
// benchmark's source files in its Makefile's order, and the directory its
// INCLUDE files are in.
func (n *NPB) Configure(bench string, p int, class string) (files []string, incDir string, err error) {
	dir := filepath.Join(n.Dir, bench)
	args := []string{strings.ToLower(bench), fmt.Sprint(p), class}
	if n.V34 {
		args = []string{strings.ToLower(bench), class}
	}
	cmd := exec.Command(filepath.Join(n.Dir, "sys", "setparams"), args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, "", fmt.Errorf("setparams %s %d %s: %v\n%s", bench, p, class, err, out)
	}
	files, err = Sources(dir)
	return files, dir, err
}

// Sources returns the sources of an NPB benchmark directory (Fortran, or
// C for IS and DT): the
// objects of its Makefile's OBJS list (with ${COMMON} the common directory,
// ${RAND} randdp and $(VEC) empty), and BT's default I/O module btio.
func Sources(dir string) ([]string, error) {
	mk, err := os.ReadFile(filepath.Join(dir, "Makefile"))
	if err != nil {
		return nil, err
	}
	var objs []string
	in := false
	for _, line := range strings.Split(string(mk), "\n") {
		if strings.HasPrefix(line, "OBJS") {
			in = true
			line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(line, "OBJS")), "="))
		}
		if !in {
			continue
		}
		cont := strings.HasSuffix(strings.TrimSpace(line), "\\")
		line = strings.TrimSuffix(strings.TrimSpace(line), "\\")
		objs = append(objs, strings.Fields(line)...)
		if !cont {
			break
		}
	}
	if filepath.Base(dir) == "BT" {
		objs = append(objs, "btio.o")
	}
	r := strings.NewReplacer("${COMMON}", "../common", "$(VEC)", "", "${RAND}", "randdp")
	var out []string
	// Objects of the common directory may be built from a source of
	// another name (sys/make.common: ${COMMON}/c_randdp.o: ${COMMON}/randdp.c).
	rules := map[string]string{}
	if mc, err := os.ReadFile(filepath.Join(dir, "..", "sys", "make.common")); err == nil {
		for _, line := range strings.Split(string(mc), "\n") {
			target, prereq, ok := strings.Cut(line, ":")
			fields := strings.Fields(prereq)
			if ok && strings.HasSuffix(strings.TrimSpace(target), ".o") && len(fields) == 1 {
				rules[r.Replace(strings.TrimSpace(target))] = r.Replace(fields[0])
			}
		}
	}
	for _, o := range objs {
		o = r.Replace(o)
		base := filepath.Join(dir, strings.TrimSuffix(o, ".o"))
		f := base + ".f"
		if _, err := os.Stat(f); err != nil {
			// IS and DT are C: their objects are built from .c files.
			switch src, ok := rules[o]; {
			case ok:
				f = filepath.Join(dir, src)
			default:
				f = base + ".c"
			}
			if _, cerr := os.Stat(f); cerr != nil {
				return nil, fmt.Errorf("%s lists %s: %v", filepath.Join(dir, "Makefile"), o, err)
			}
		}
		out = append(out, filepath.Clean(f))
	}
	return out, nil
}

// CloverLeaf returns the Fortran sources of CloverLeaf in the order its
// Makefile compiles them into clover_leaf (modules before their users).
func CloverLeaf(corpora string) ([]string, error) {
	dir := filepath.Join(corpora, "CloverLeaf_ref")
	mk, err := os.ReadFile(filepath.Join(dir, "Makefile"))
	if err != nil {
		return nil, err
	}
	rule := string(mk)
	i := strings.Index(rule, "\nclover_leaf:")
	if i < 0 {
		return nil, fmt.Errorf("%s has no clover_leaf rule", filepath.Join(dir, "Makefile"))
	}
	rule = rule[i+1:]
	if j := strings.Index(rule, "\n\n"); j >= 0 {
		rule = rule[:j]
	}
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(rule, "\n")[1:] {
		for _, m := range regexp.MustCompile(`^\s*([A-Za-z0-9_/]+\.f90)\b`).FindAllStringSubmatch(line, -1) {
			f := filepath.Join(dir, m[1])
			if seen[f] {
				continue
			}
			if _, err := os.Stat(f); err != nil {
				return nil, fmt.Errorf("%s lists %s: %v", filepath.Join(dir, "Makefile"), m[1], err)
			}
			seen[f] = true
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s lists no .f90 files for clover_leaf", filepath.Join(dir, "Makefile"))
	}
	return out, nil
}

// copyTree copies the regular files and directories under src to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// Clover is a private copy of CloverLeaf_ref: the program's own build tree,
// where a test writes its input deck.
type Clover struct {
	Dir string
	// Files are the Fortran sources of clover_leaf in the Makefile's order;
	// CFiles the C sources its c_lover rule compiles (timer_c.c and the C
	// kernels), which clover_leaf links whichever kernels the deck chooses.
	Files, CFiles []string
}

// NewCloverLeaf copies CloverLeaf_ref from the corpora into dir. It skips t,
// naming the directory, when the corpora hold no CloverLeaf_ref.
func NewCloverLeaf(t testing.TB, corpora, dir string) (*Clover, error) {
	t.Helper()
	src := filepath.Join(corpora, "CloverLeaf_ref")
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		t.Skipf("CloverLeaf is not at %s (set MKVET_CORPORA to the corpora's directory); skipping", src)
	}
	if err := copyTree(src, filepath.Join(dir, "CloverLeaf_ref")); err != nil {
		return nil, err
	}
	c := &Clover{Dir: filepath.Join(dir, "CloverLeaf_ref")}
	var err error
	if c.Files, err = CloverLeaf(dir); err != nil {
		return nil, err
	}
	mk, err := os.ReadFile(filepath.Join(c.Dir, "Makefile"))
	if err != nil {
		return nil, err
	}
	rule := string(mk)
	i := strings.Index(rule, "\nc_lover:")
	if i < 0 {
		return nil, fmt.Errorf("%s has no c_lover rule", filepath.Join(c.Dir, "Makefile"))
	}
	rule = rule[i+1:]
	if j := strings.Index(rule, "\n\n"); j >= 0 {
		rule = rule[:j]
	}
	for _, m := range regexp.MustCompile(`(?m)^\s*([A-Za-z0-9_/]+\.c)\b`).FindAllStringSubmatch(rule, -1) {
		f := filepath.Join(c.Dir, m[1])
		if _, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("%s lists %s: %v", filepath.Join(c.Dir, "Makefile"), m[1], err)
		}
		c.CFiles = append(c.CFiles, f)
	}
	return c, nil
}

// Deck returns CloverLeaf's InputDecks/clover.in with each key of values
// (x_cells, end_step, ...) set to its value; a key the deck does not set is
// an error.
func (c *Clover) Deck(values map[string]string) (string, error) {
	src, err := os.ReadFile(filepath.Join(c.Dir, "InputDecks", "clover.in"))
	if err != nil {
		return "", err
	}
	deck := string(src)
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		re := regexp.MustCompile(`(?m)^(\s*)` + regexp.QuoteMeta(k) + `\s*=.*$`)
		if !re.MatchString(deck) {
			return "", fmt.Errorf("InputDecks/clover.in sets no %s", k)
		}
		deck = re.ReplaceAllString(deck, "${1}"+k+"="+values[k])
	}
	return deck, nil
}

// Copy copies the program name of the corpora (a directory such as
// "sweep3d") into dir and returns the copy's path.
func Copy(corpora, name, dir string) (string, error) {
	dst := filepath.Join(dir, filepath.Base(name))
	if err := copyTree(filepath.Join(corpora, name), dst); err != nil {
		return "", err
	}
	return dst, nil
}

// TeaLeaf returns the Fortran sources of TeaLeaf in a copy at dir (its
// Makefile's FORTRAN_FILES, then its KERNEL_FILES under kernels/), in the
// Makefile's order.
func TeaLeaf(dir string) ([]string, error) {
	mk, err := os.ReadFile(filepath.Join(dir, "Makefile"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, list := range []struct{ name, sub string }{{"FORTRAN_FILES", ""}, {"KERNEL_FILES", "kernels"}} {
		m := regexp.MustCompile(`(?ms)^` + list.name + `\s*=(.*?)\n\s*\n`).FindSubmatch(mk)
		if m == nil {
			return nil, fmt.Errorf("%s has no %s list", filepath.Join(dir, "Makefile"), list.name)
		}
		for _, o := range regexp.MustCompile(`[\w]+\.o`).FindAll(m[1], -1) {
			f := filepath.Join(dir, list.sub, strings.TrimSuffix(string(o), ".o")+".f90")
			if _, err := os.Stat(f); err != nil {
				return nil, fmt.Errorf("%s lists %s: %v", filepath.Join(dir, "Makefile"), o, err)
			}
			out = append(out, f)
		}
	}
	return out, nil
}
