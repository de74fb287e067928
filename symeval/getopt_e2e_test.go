package symeval

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/e2e"
)

// getoptDriver prints what glibc's getopt returns on the command line it
// is given under the option string argv[1]: one line per call (the
// character, optarg or "-", optind), then the argv it leaves and optind.
const getoptDriver = `#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
	const char *opts = argv[1];
	int c;
	argv[1] = argv[0];
	argc--; argv++;
	opterr = 0;
	while ((c = getopt(argc, argv, opts)) != -1)
		printf("%d %s %d\n", c, optarg ? optarg : "-", optind);
	printf("end %d", optind);
	for (int i = 1; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	return 0;
}
`

// TestGetoptAgainstGlibcE2E: getoptRun gives, on random command lines and
// option strings (clusters, attached and detached arguments, optional
// arguments, unknown options, operands before and between options, "--",
// the '+', '-' and ':' modes), the results, optind values and reordered
// argv that glibc's getopt gives in a real run.
func TestGetoptAgainstGlibcE2E(t *testing.T) {
	compareGetopt(t, getoptDriver, nil, rand.New(rand.NewPCG(7, 11)),
		[]string{"n:m:i:v", "ab:c::d", "+n:v", "-n:v", ":n:m:v", "x", "+:a:b", "vn:"},
		[]string{"-n", "5", "-m7", "-v", "-vn", "12", "-i", "-ab", "-b", "x", "-c", "-cz", "-d", "--", "-", "file",
			"-z", "-vz", "-a", "3", "-x", "-nv"})
}

// compareGetopt builds a driver that prints each getopt call's results
// (and, with a table, the option's index and the flag), runs it on 400
// random command lines of words under random option strings, and compares
// each with what getoptRun gives.
func compareGetopt(t *testing.T, driver string, table []apt.LongOption, rng *rand.Rand, optstrings, words []string) {
	cc := e2e.Require(t, "clang-14")[0]
	dir := t.TempDir()
	src := filepath.Join(dir, "g.c")
	if err := os.WriteFile(src, []byte(driver), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "g")
	if out, err := exec.Command(cc, "-o", exe, src).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for trial := range 400 {
		opts := optstrings[rng.IntN(len(optstrings))]
		var args []string
		for range rng.IntN(7) {
			args = append(args, words[rng.IntN(len(words))])
		}
		out, err := exec.Command(exe, append([]string{opts}, args...)...).Output()
		if err != nil {
			t.Fatalf("%q %q: %v", opts, args, err)
		}
		steps, permuted, optind := getoptRun(append([]string{"prog"}, args...), opts, table)
		var want strings.Builder
		flag := int64(0)
		for _, s := range steps {
			arg := "-"
			if s.hasArg {
				arg = s.optarg
			}
			fmt.Fprintf(&want, "%d %s %d", s.c, arg, s.optind)
			if table != nil {
				if s.flag != "" {
					flag = s.flagVal
				}
				fmt.Fprintf(&want, " %d %d", s.index, flag)
			}
			want.WriteString("\n")
		}
		fmt.Fprintf(&want, "end %d", optind)
		for _, w := range permuted[1:] {
			fmt.Fprintf(&want, " %s", w)
		}
		want.WriteString("\n")
		if got := string(out); got != want.String() {
			t.Errorf("trial %d: getopt(%q) on %q:\nglibc:\n%s\ngetoptRun:\n%s", trial, opts, args, got, want.String())
		}
	}
}

// getoptLongDriver is getoptDriver for getopt_long with a fixed table,
// printing also the option's index (-1 when none is set) and the flag.
const getoptLongDriver = `#include <stdio.h>
#include <getopt.h>
static int flag;
static struct option table[] = {
	{"size", required_argument, NULL, 'n'},
	{"steps", required_argument, NULL, 's'},
	{"step", required_argument, NULL, 't'},
	{"verbose", no_argument, &flag, 1},
	{"opt", optional_argument, NULL, 'o'},
	{"quiet", no_argument, &flag, 2},
	{"quit", no_argument, &flag, 2},
	{NULL, 0, NULL, 0}};
int main(int argc, char **argv) {
	const char *opts = argv[1];
	int c, idx;
	argv[1] = argv[0];
	argc--; argv++;
	opterr = 0;
	for (idx = -1; (c = getopt_long(argc, argv, opts, table, &idx)) != -1; idx = -1)
		printf("%d %s %d %d %d\n", c, optarg ? optarg : "-", optind, idx, flag);
	printf("end %d", optind);
	for (int i = 1; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	return 0;
}
`

// TestGetoptLongAgainstGlibcE2E: getoptRun with a long-option table gives
// what glibc's getopt_long gives on random command lines mixing short and
// long options: exact names and abbreviations (unique, ambiguous, and
// several that agree), arguments after '=' or in the next word, optional
// arguments, flags set through the table, unknown options.
func TestGetoptLongAgainstGlibcE2E(t *testing.T) {
	opt := func(name string, has int64, flag string, val int64) apt.LongOption {
		return apt.LongOption{Name: name, HasArg: has, Flag: flag, Val: val}
	}
	table := []apt.LongOption{opt("size", 1, "", 'n'), opt("steps", 1, "", 's'), opt("step", 1, "", 't'), opt("verbose", 0, "flag", 1),
		opt("opt", 2, "", 'o'), opt("quiet", 0, "flag", 2), opt("quit", 0, "flag", 2)}
	compareGetopt(t, getoptLongDriver, table, rand.New(rand.NewPCG(3, 5)), []string{"n:s:v", "+n:", ":n:s:", "vo::"},
		[]string{"--size", "--size=9", "--si", "--s", "--ste", "--step", "--steps=4", "--st", "--verbose", "--verbose=1",
			"--opt", "--opt=x", "--qui", "--q", "--nope", "-n", "5", "-v", "--", "file", "-", "--o"})
}
