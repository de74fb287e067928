package llvmir

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The unit cache. A C++ translation unit that includes the standard
// library takes clang half a second or more at -O0, and a user runs mkvet
// on the same sources many times (check, then annotate, whatif, a second
// point): clang's output for a unit is kept, keyed by everything that
// decides it (the compiler, the directory, the flags, the source's bytes),
// together with the files the unit included as clang listed them (-MD),
// each with its size and modification time. An entry is used only while
// every one of those files is as it was; otherwise the unit is compiled
// again and the entry replaced. This is how ccache's direct mode and
// make decide, without rehashing every system header on each run.

// unitCache is a directory of compiled units; nil caches nothing.
type unitCache struct{ dir string }

// openCache returns the cache $MKVET_CACHE names ("off": none), else the
// one under the user's cache directory; nil where none can be made.
func openCache() *unitCache {
	dir := os.Getenv("MKVET_CACHE")
	switch dir {
	case "off":
		return nil
	case "":
		base, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(base, "mkvet", "units")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil
	}
	return &unitCache{dir: dir}
}

// key identifies a compilation: the compiler binary (path, size, time),
// the working directory, the arguments but the output file, and the
// source's bytes. False where the compiler or the source cannot be read.
func (c *unitCache) key(clang string, args []string, out, src string) (string, bool) {
	h := sha256.New()
	path, err := exec.LookPath(clang)
	if err != nil {
		return "", false
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", false
	}
	wd, _ := os.Getwd()
	fmt.Fprintf(h, "mkvet unit 1\x00%s\x00%d\x00%d\x00%s\x00", path, fi.Size(), fi.ModTime().UnixNano(), wd)
	for _, a := range args {
		if a == out {
			a = "<out>"
		}
		fmt.Fprintf(h, "%s\x00", a)
	}
	f, err := os.Open(src)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if _, err := io.Copy(h, f); err != nil {
		return "", false
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// get copies the unit stored under key to out where every file it
// included is unchanged.
func (c *unitCache) get(key, out string) bool {
	deps, err := os.ReadFile(filepath.Join(c.dir, key+".deps"))
	if err != nil || !depsHold(deps) {
		return false
	}
	unit := filepath.Join(c.dir, key+".ll")
	ir, err := os.ReadFile(unit)
	if err != nil {
		return false
	}
	now := time.Now()
	_ = os.Chtimes(unit, now, now) // used: the last to go (prune)
	return os.WriteFile(out, ir, 0o644) == nil
}

// put stores the unit clang wrote to out under key, with the files the
// dependency file depfile lists but those in the run's own directory tmp
// (the key holds their text); nothing where one cannot be read.
func (c *unitCache) put(key, out, depfile, tmp string) {
	mk, err := os.ReadFile(depfile)
	if err != nil {
		return
	}
	var b bytes.Buffer
	for _, p := range parseDepfile(mk) {
		if strings.HasPrefix(p, tmp+string(filepath.Separator)) {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			return
		}
		fmt.Fprintf(&b, "%d %d %s\n", fi.Size(), fi.ModTime().UnixNano(), p)
	}
	ir, err := os.ReadFile(out)
	if err != nil {
		return
	}
	// The unit first, its list last: an entry is whole once its list is
	// there, and each file appears whole by its rename.
	if writeAtomic(filepath.Join(c.dir, key+".ll"), ir) != nil {
		return
	}
	if writeAtomic(filepath.Join(c.dir, key+".deps"), b.Bytes()) == nil {
		c.prune(maxCacheBytes)
	}
}

// maxCacheBytes bounds the cache: past it, the units least recently used
// go.
const maxCacheBytes = 512 << 20

// prune removes the least recently used units until the cache holds at
// most limit bytes.
func (c *unitCache) prune(limit int64) {
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	type unit struct {
		key  string
		size int64
		used time.Time
	}
	var units []unit
	total := int64(0)
	for _, e := range ents {
		name := e.Name()
		fi, err := e.Info()
		if err != nil {
			continue
		}
		total += fi.Size()
		if key, ok := strings.CutSuffix(name, ".ll"); ok {
			units = append(units, unit{key, fi.Size(), fi.ModTime()})
		}
	}
	if total <= limit {
		return
	}
	slices.SortFunc(units, func(a, b unit) int { return a.used.Compare(b.used) })
	for _, u := range units {
		if total <= limit {
			break
		}
		// The list first: an entry without it is never used.
		os.Remove(filepath.Join(c.dir, u.key+".deps"))
		if os.Remove(filepath.Join(c.dir, u.key+".ll")) == nil {
			total -= u.size
		}
	}
}

// depsHold reports whether every file a list written by put names still
// has its size and modification time.
func depsHold(list []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(list))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), " ", 3)
		if len(f) != 3 {
			return false
		}
		size, err1 := strconv.ParseInt(f[0], 10, 64)
		mt, err2 := strconv.ParseInt(f[1], 10, 64)
		fi, err := os.Stat(f[2])
		if err1 != nil || err2 != nil || err != nil || fi.Size() != size || fi.ModTime().UnixNano() != mt {
			return false
		}
		n++
	}
	return sc.Err() == nil && n > 0
}

// parseDepfile returns the prerequisites of the make rule clang -MD
// writes (target: a.c b.h \ newline c.h), with backslash-escaped spaces.
func parseDepfile(mk []byte) []string {
	s := strings.ReplaceAll(string(mk), "\\\n", " ")
	if i := strings.Index(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '\\' && i+1 < len(s) && s[i+1] == ' ':
			cur.WriteByte(' ')
			i++
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			flush()
		default:
			cur.WriteByte(ch)
		}
	}
	flush()
	return out
}

// writeAtomic writes b to a file beside path and renames it there, so
// that a concurrent reader sees the old file or the new one.
func writeAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
