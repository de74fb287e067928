package corpora

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
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

// Tree is a private copy of one folder of the corpora, prepared for the
// programs of the manifest that live in it.
type Tree struct {
	Root     string // the copy's top folder
	prepared map[string]bool
}

// NewTree copies folder of the corpora into dir. It skips tb, naming the
// folder, when the corpora hold no such folder.
func NewTree(tb testing.TB, corpora, folder, dir string) (*Tree, error) {
	tb.Helper()
	src := filepath.Join(corpora, folder)
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		tb.Skipf("%s is not in the corpora at %s (set MKVET_CORPORA to their directory); skipping", folder, corpora)
	}
	root := filepath.Join(dir, strings.ReplaceAll(folder, "/", "_"))
	if err := copyTree(src, root); err != nil {
		return nil, err
	}
	return &Tree{Root: root, prepared: map[string]bool{}}, nil
}

// Open copies p's folder of the corpora into dir and prepares it for p
// (Tree.Program).
func Open(tb testing.TB, p Program, dir string) (*Copy, error) {
	tb.Helper()
	t, err := NewTree(tb, Dir(tb), p.Folder, dir)
	if err != nil {
		return nil, err
	}
	return t.Program(p)
}

// OpenNamed is Open for the manifest's program name.
func OpenNamed(tb testing.TB, name, dir string) (*Copy, error) {
	tb.Helper()
	p, err := Find(name)
	if err != nil {
		return nil, err
	}
	return Open(tb, p, dir)
}

// Copy is a program of the manifest in a prepared tree.
type Copy struct {
	Program
	Tree *Tree
	Dir  string // the program's Cwd in the copy
}

// Program prepares the tree for p (its Prepare commands, once for every
// program that shares them) and returns p's copy, not yet configured
// (Configure).
func (t *Tree) Program(p Program) (*Copy, error) {
	key := strings.Join(p.Prepare, "\n")
	if !t.prepared[key] {
		for _, cmd := range p.Prepare {
			if err := shell(cmd, t.Root); err != nil {
				return nil, fmt.Errorf("%s: preparing: %v", p.Name, err)
			}
		}
		t.prepared[key] = true
	}
	return &Copy{Program: p, Tree: t, Dir: filepath.Join(t.Root, p.Cwd)}, nil
}

// shell runs cmd with sh -c in dir.
func shell(cmd, dir string) error {
	c := exec.Command("sh", "-c", cmd)
	c.Dir = dir
	if out, err := c.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v\n%s", cmd, err, out)
	}
	return nil
}

// ConfigureCommand is the program's configure command for p processes
// and class ("" for the program's own), "" when it has none.
func (p Program) ConfigureCommand(procs, class string) string {
	if p.Configure == "" {
		return ""
	}
	if class == "" {
		class = p.Class
	}
	return strings.NewReplacer("{P}", procs, "{class}", class).Replace(p.Configure)
}

// Configure runs the program's configure command (NPB's setparams) for p
// processes and class ("" for the program's own) in its folder.
func (c *Copy) Configure(p int, class string) error {
	cmd := c.ConfigureCommand(strconv.Itoa(p), class)
	if cmd == "" {
		return nil
	}
	if err := shell(cmd, c.Dir); err != nil {
		return fmt.Errorf("%s: configuring: %v", c.Name, err)
	}
	return nil
}

// Sources returns the program's source files in the order its entry
// lists them (absolute paths).
func (c *Copy) Sources() ([]string, error) {
	files, err := c.Files.list(c.Dir)
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("%s: the manifest lists no source files", c.Name)
	}
	return files, err
}

// LinkSources returns the sources compiled apart and linked with the
// program (CloverLeaf's C kernels), absolute paths.
func (c *Copy) LinkSources() ([]string, error) {
	return c.Link.list(c.Dir)
}

// Includes are the INCLUDE folders of the program's sources.
func (c *Copy) Includes() []string { return []string{c.Dir} }

// CheckArgs returns the flags and files of mkvet check at the program's
// configuration: -D P=... and its Inputs.
func (c *Copy) CheckArgs() ([]string, error) {
	in, err := c.Inputs()
	return append([]string{"-D", "P=" + strconv.Itoa(c.P)}, in...), err
}

// Inputs returns what mkvet is given of the program besides P: its
// defines, its command line, -I and its sources.
func (c *Copy) Inputs() ([]string, error) {
	files, err := c.Sources()
	if err != nil {
		return nil, err
	}
	var args []string
	for _, d := range c.Defines {
		args = append(args, "-define", d)
	}
	if c.Args != "" {
		args = append(args, "-args", c.Args)
	}
	if c.Language == "fortran" {
		args = append(args, "-I", c.Dir)
	}
	return append(args, files...), nil
}

// DefineMap returns the program's defines as the frontends take them:
// name to value, "" for one defined without a value.
func (c *Copy) DefineMap() map[string]string {
	out := map[string]string{}
	for _, d := range c.Defines {
		name, val, _ := strings.Cut(d, "=")
		out[name] = val
	}
	return out
}

// CountersBuild runs the Counters.Prepare commands in the program's folder
// and returns the -build template of a build with counters ({srcs} and
// {exe} left for the sweep).
func (c *Copy) CountersBuild() (string, error) {
	if c.Counters.Build == "" {
		return "", fmt.Errorf("%s: the manifest says no build with counters", c.Name)
	}
	link, err := c.LinkSources()
	if err != nil {
		return "", err
	}
	objs := make([]string, len(link))
	for i, f := range link {
		objs[i] = strings.TrimSuffix(f, filepath.Ext(f)) + ".o"
	}
	r := strings.NewReplacer("{dir}", c.Dir, "{link}", strings.Join(link, " "), "{linkobjs}", strings.Join(objs, " "))
	for _, cmd := range c.Counters.Prepare {
		if err := shell(r.Replace(cmd), c.Dir); err != nil {
			return "", fmt.Errorf("%s: preparing the build with counters: %v", c.Name, err)
		}
	}
	return r.Replace(c.Counters.Build), nil
}

// Deck returns the program's deck template (or its deck) with each key of
// values set: a line "key=value" (spaces around = allowed) takes the new
// value; a key the deck does not set is an error.
func (c *Copy) Deck(values map[string]string) (string, error) {
	name := c.DeckTemplate
	if name == "" {
		name = c.Program.Deck
	}
	if name == "" {
		return "", fmt.Errorf("%s: the manifest names no input deck", c.Name)
	}
	src, err := os.ReadFile(filepath.Join(c.Dir, name))
	if err != nil {
		return "", err
	}
	deck := string(src)
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		re := regexp.MustCompile(`(?m)^(\s*)` + regexp.QuoteMeta(k) + `\s*=.*$`)
		if !re.MatchString(deck) {
			return "", fmt.Errorf("%s sets no %s", name, k)
		}
		deck = re.ReplaceAllString(deck, "${1}"+k+"="+values[k])
	}
	return deck, nil
}

// Named returns the copy of the manifest's program name, which must live
// in the tree's folder.
func (t *Tree) Named(name string) (*Copy, error) {
	p, err := Find(name)
	if err != nil {
		return nil, err
	}
	return t.Program(p)
}

// Configured configures the copy for p processes and class ("" for the
// program's own) and returns its sources and the folder of its INCLUDE
// files.
func (c *Copy) Configured(p int, class string) (files []string, incDir string, err error) {
	if err := c.Configure(p, class); err != nil {
		return nil, "", err
	}
	files, err = c.Sources()
	return files, c.Dir, err
}
