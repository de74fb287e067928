package concrete

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
)

// TestCCharFuncAgainstGlibc: the class words, the is* tests and the case
// maps equal what a C program compiled with clang-14 and run in the "C"
// locale prints for every character and EOF (the C library is the oracle).
func TestCCharFuncAgainstGlibc(t *testing.T) {
	e2e.Require(t, "clang-14")
	dir := t.TempDir()
	src := filepath.Join(dir, "ct.c")
	prog := `#include <ctype.h>
#include <stdio.h>
int main(void) {
	for (int c = -1; c < 256; c++)
		printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", c,
		       (*__ctype_b_loc())[c] & 0xffff, isupper(c) != 0, islower(c) != 0, isalpha(c) != 0,
		       isdigit(c) != 0, isxdigit(c) != 0, isspace(c) != 0, isprint(c) != 0,
		       isgraph(c) != 0, isblank(c) != 0, iscntrl(c) != 0, ispunct(c) != 0,
		       isalnum(c) != 0, toupper(c), tolower(c));
	return 0;
}
`
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "ct")
	if out, err := exec.Command("clang-14", "-o", exe, src).CombinedOutput(); err != nil {
		t.Fatalf("clang-14: %v\n%s", err, out)
	}
	cmd := exec.Command(exe)
	cmd.Env = []string{"LC_ALL=C"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"isupper", "islower", "isalpha", "isdigit", "isxdigit", "isspace", "isprint",
		"isgraph", "isblank", "iscntrl", "ispunct", "isalnum"}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 257 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, ln := range lines {
		f := strings.Fields(ln)
		v := make([]int64, len(f))
		for i, s := range f {
			v[i], _ = strconv.ParseInt(s, 10, 64)
		}
		c := v[0]
		if got, _ := CCharFunc("__ctype_b", c); got != v[1] {
			t.Errorf("class of %d: %#x, glibc %#x", c, got, v[1])
		}
		for i, n := range names {
			got, _ := CCharFunc(n, c)
			if (got != 0) != (v[2+i] != 0) {
				t.Errorf("%s(%d) = %d, glibc %d", n, c, got, v[2+i])
			}
		}
		if got, _ := CCharFunc("toupper", c); got != v[14] {
			t.Errorf("toupper(%d) = %d, glibc %d", c, got, v[14])
		}
		if got, _ := CCharFunc("tolower", c); got != v[15] {
			t.Errorf("tolower(%d) = %d, glibc %d", c, got, v[15])
		}
	}
}
