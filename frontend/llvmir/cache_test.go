package llvmir

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mkvet/mkvet/internal/e2e"
)

func TestParseDepfile(t *testing.T) {
	mk := "/tmp/x/0-main.ll: main.c /usr/include/stdio.h \\\n  my\\ dir/size.h \\\n /usr/include/stdlib.h\n"
	got := parseDepfile([]byte(mk))
	want := []string{"main.c", "/usr/include/stdio.h", "my dir/size.h", "/usr/include/stdlib.h"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestUnitCacheE2E checks the unit cache against clang itself: a unit
// taken from the cache is byte for byte what an uncached compile writes, a
// second compile of unchanged sources runs no compiler, and a change to a
// header the unit includes compiles it again, with the change.
func TestUnitCacheE2E(t *testing.T) {
	tools := e2e.Require(t, "clang-14", "opt-14", "llvm-link-14")
	dir := t.TempDir()
	t.Setenv("MKVET_CACHE", filepath.Join(dir, "cache"))
	clangPath, err := exec.LookPath(tools[0])
	if err != nil {
		t.Fatal(err)
	}
	// A compiler that notes each run: hits run none.
	log := filepath.Join(dir, "runs.log")
	wrap := filepath.Join(dir, "clang-wrap")
	script := "#!/bin/sh\necho run >> " + log + "\nexec " + clangPath + " \"$@\"\n"
	if err := os.WriteFile(wrap, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "main.c")
	hdr := filepath.Join(dir, "size.h")
	write := func(p, text string, at time.Time) {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Now().Add(-time.Hour)
	write(hdr, "#define N 7\n", t0)
	write(src, "#include \"size.h\"\nint a[N];\nint main(void) { for (int i = 0; i < N; i++) a[i] = i; return a[N-1]; }\n", t0)
	runs := func() int {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), "run")
	}
	cfg := Config{Clang: wrap, Opt: tools[1], Link: tools[2], MPIInclude: []string{}}
	compile := func(cfg Config) []byte {
		t.Helper()
		ir, _, diags := Compile([]string{src}, cfg)
		if ir == nil {
			t.Fatalf("compile: %v", diags)
		}
		// The module's name is the run's temporary file: not compared.
		if i := bytes.IndexByte(ir, '\n'); bytes.HasPrefix(ir, []byte("; ModuleID")) && i >= 0 {
			ir = ir[i+1:]
		}
		return ir
	}
	first := compile(cfg)
	if runs() != 1 {
		t.Fatalf("first compile ran clang %d times", runs())
	}
	uncached := cfg
	uncached.NoCache = true
	if fresh := compile(uncached); !bytes.Equal(first, fresh) {
		t.Fatal("the cached compile's IR differs from clang's own")
	}
	n := runs()
	if again := compile(cfg); !bytes.Equal(again, first) || runs() != n {
		t.Fatalf("unchanged sources: equal IR %v, clang runs %d -> %d (want none)", bytes.Equal(again, first), n, runs())
	}
	// The header changes (its size stays, only its time tells).
	write(hdr, "#define N 9\n", t0.Add(time.Minute))
	changed := compile(cfg)
	if runs() != n+1 {
		t.Fatalf("a changed header did not compile the unit again (%d runs)", runs()-n)
	}
	if fresh := compile(uncached); !bytes.Equal(changed, fresh) || bytes.Equal(changed, first) {
		t.Fatal("after the header changed, the unit is not clang's new one")
	}
	// Pruning to nothing leaves no entry, and the next compile runs clang.
	c := openCache()
	c.prune(0)
	if ents, _ := os.ReadDir(c.dir); len(ents) != 0 {
		t.Fatalf("prune(0) left %d files", len(ents))
	}
	n = runs()
	compile(cfg)
	if runs() != n+1 {
		t.Fatal("a pruned unit was not compiled again")
	}
}
