package corpora

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
)

// TestManifestCoversCorpora: every program folder of the corpora has an
// entry in the manifest, and every entry's folder is there.
func TestManifestCoversCorpora(t *testing.T) {
	dir := Dir(t)
	progs, err := Manifest()
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, p := range progs {
		if st, err := os.Stat(filepath.Join(dir, p.Folder)); err != nil || !st.IsDir() {
			t.Errorf("%s: its folder %s is not in the corpora", p.Name, p.Folder)
		}
		covered[strings.Split(p.Folder, "/")[0]] = true
		if len(p.Procs) == 0 {
			t.Errorf("%s: no process counts", p.Name)
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() && !covered[e.Name()] {
			t.Errorf("the corpora's folder %s has no entry in the manifest", e.Name())
		}
	}
}

// TestManifestSources prepares every program of the manifest as its entry
// says and lists its sources: each exists, none is listed twice, and the
// check configuration's command line names them.
func TestManifestSources(t *testing.T) {
	dir := Dir(t)
	e2e.Require(t, "cc", "cpp")
	progs, err := Manifest()
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	trees := map[string]*Tree{}
	for _, p := range progs {
		tr := trees[p.Folder]
		if tr == nil {
			if tr, err = NewTree(t, dir, p.Folder, work); err != nil {
				t.Fatal(err)
			}
			trees[p.Folder] = tr
		}
		c, err := tr.Program(p)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		files, err := c.Sources()
		if err != nil {
			t.Errorf("%s: %v", p.Name, err)
			continue
		}
		seen := map[string]bool{}
		for _, f := range files {
			if _, err := os.Stat(f); err != nil || seen[f] {
				t.Errorf("%s: source %s missing or listed twice", p.Name, f)
			}
			seen[f] = true
		}
		if _, err := c.LinkSources(); err != nil {
			t.Errorf("%s: link sources: %v", p.Name, err)
		}
		args, err := c.CheckArgs()
		if err != nil || len(args) < len(files)+2 {
			t.Errorf("%s: check arguments %v: %v", p.Name, args, err)
		}
		t.Logf("%s: %d sources", p.Name, len(files))
	}
}
