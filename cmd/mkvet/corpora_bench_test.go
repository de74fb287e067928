package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mkvet/mkvet/internal/corpora"
	"github.com/mkvet/mkvet/internal/e2e"
)

// The acceptance goal of issue 13: each run of mkvet check, annotate and
// whatif on a real application takes at most corporaGoalSeconds and
// corporaGoalMB of peak memory on the project's 2-core machine.
const (
	corporaGoalSeconds = 1.0
	corporaGoalMB      = 1024.0
)

// corporaTimeout bounds one run: a run past it is killed and reported as a
// timeout, so that one slow case cannot hang the others.
const corporaTimeout = 120 * time.Second

// corporaSweep is the process counts of the whatif runs.
const corporaSweep = "1..1024"

// corporaClasses are the problem classes measured of a program configured
// by class (NPB): S and W are the classes the benchmarks run in seconds
// here.
var corporaClasses = []string{"S", "W"}

// corporaCase is one measured run of mkvet on a corpus program.
type corporaCase struct {
	program string // the manifest's name of the program
	class   string // the problem class it is configured for; "-" for a program without classes
	p       string // the value of P given with -D, "sym" when none is, the sweep for whatif
	command string // mkvet subcommand
	dir     string // where it runs: the program's folder in its copy
	args    []string
}

// name is the sub-benchmark name, program/class/P=p/command.
func (c corporaCase) name() string {
	return c.program + "/" + c.class + "/P=" + c.p + "/" + c.command
}

// corporaProgramCases are the runs measured on one program whose input
// (defines, command line, -I flags and source files) is input, run in dir:
// check and annotate with P given and with P symbolic, and whatif over
// the sweep, with -configure when configure is not "" (NPB 3.3: each
// process count of the sweep configured by the benchmark's own setparams,
// not the build for corporaP).
func corporaProgramCases(program, class string, procs int, configure, dir string, input []string) []corporaCase {
	pdef := []string{"-D", "P=" + strconv.Itoa(procs)}
	pval := strconv.Itoa(procs)
	whatif := []string{"whatif", "-P", corporaSweep}
	if configure != "" {
		whatif = append(whatif, "-configure", configure)
	}
	return []corporaCase{
		{program, class, pval, "check", dir, slices.Concat([]string{"check"}, pdef, input)},
		{program, class, "sym", "check", dir, slices.Concat([]string{"check"}, input)},
		{program, class, pval, "annotate", dir, slices.Concat([]string{"annotate"}, pdef, input)},
		{program, class, "sym", "annotate", dir, slices.Concat([]string{"annotate"}, input)},
		{program, class, corporaSweep, "whatif", dir, slices.Concat(whatif, input)},
	}
}

// corporaSuite is the binary measured, the directory its runs work in,
// and the cases.
type corporaSuite struct {
	bin, work string
	// short drops the directories of the corpora and of the private
	// copies from the paths in a run's messages, so that the figures
	// printed do not depend on where the suite ran.
	short *strings.Replacer
	cases []corporaCase
}

// corporaSetup builds the mkvet binary of this package into a temporary
// directory (so that each run is a process of its own, whose peak memory
// is its maximum resident set size) and returns it with the cases: every
// program of the manifest (internal/corpora), from a private copy
// prepared as its entry says, at each class of corporaClasses for a
// program configured by class, configured for the process count of its
// entry's check configuration (4, a square and a power of two as BT, SP
// and the others need; DT 5), the P of the runs with P given. It
// skips tb when the corpora are absent, or when go, cc or cpp (for the
// programs' preparation) is.
func corporaSetup(tb testing.TB) *corporaSuite {
	tb.Helper()
	dir := corpora.Dir(tb)
	e2e.Require(tb, "go", "cc", "cpp")
	work := tb.TempDir()
	bin := filepath.Join(work, "mkvet")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	progs, err := corpora.Manifest()
	if err != nil {
		tb.Fatal(err)
	}
	var cases []corporaCase
	for _, p := range progs {
		classes := []string{"-"}
		if strings.Contains(p.Configure, "{class}") {
			classes = corporaClasses
		}
		for _, class := range classes {
			tree, err := corpora.NewTree(tb, dir, p.Folder, filepath.Join(work, p.Name+"-"+class))
			if err != nil {
				tb.Fatal(err)
			}
			c, err := tree.Program(p)
			if err != nil {
				tb.Fatal(err)
			}
			cl := class
			if cl == "-" {
				cl = ""
			}
			if err := c.Configure(p.P, cl); err != nil {
				tb.Fatal(err)
			}
			input, err := c.Inputs()
			if err != nil {
				tb.Fatal(err)
			}
			configure := ""
			if strings.Contains(p.Configure, "{P}") {
				configure = p.ConfigureCommand("{P}", cl)
			}
			cases = append(cases, corporaProgramCases(p.Name, class, p.P, configure, c.Dir, input)...)
		}
	}
	return &corporaSuite{
		bin: bin, work: work, cases: cases,
		short: strings.NewReplacer(work+string(filepath.Separator), "", dir+string(filepath.Separator), ""),
	}
}

// corporaResult is what one run measured.
type corporaResult struct {
	seconds    float64 // wall time
	cpuSeconds float64 // user and system time of the process
	peakMB     float64 // maximum resident set size in MiB
	peakKnown  bool    // whether the system reports the peak
	exit       int     // exit status; -1 when killed
	timedOut   bool
	stderrTail string // the last lines of the standard error
	// hot and asked count the run's MK1001 and MK3001 findings (check
	// and annotate print one line per finding).
	hot, asked int
}

// ok reports whether the run succeeded: exit status 0, or 1 for check
// (findings were reported); 2 is mkvet's failure.
func (r corporaResult) ok(c corporaCase) bool {
	return !r.timedOut && (r.exit == 0 || r.exit == 1 && c.command == "check")
}

// status describes how the run ended, for the table.
func (r corporaResult) status(c corporaCase) string {
	switch {
	case r.timedOut:
		return fmt.Sprintf("timeout (killed after %v)", corporaTimeout)
	case r.exit == 1 && c.command == "check":
		return "ok (findings)"
	case r.exit == 0:
		return "ok"
	case r.exit < 0:
		return "failed (killed by a signal)"
	}
	return fmt.Sprintf("failed (exit %d)", r.exit)
}

// withinGoal says whether a successful run met issue 13's goal, "-" when
// the run failed and there is nothing to judge.
func (r corporaResult) withinGoal(c corporaCase) string {
	switch {
	case !r.ok(c) || !r.peakKnown:
		return "-"
	case r.seconds <= corporaGoalSeconds && r.peakMB <= corporaGoalMB:
		return "yes"
	}
	return "no"
}

// corporaTailLines is how many lines of a run's standard error are kept to
// explain a failure (mkvet puts its reason last), and corporaTailWidth how
// many characters of each (a message listing the values it lacks can run
// to hundreds of thousands; its start says what it is).
const (
	corporaTailLines = 4
	corporaTailWidth = 400
)

// run runs the binary on c, its output discarded, killed after
// corporaTimeout, and measures it. An error means the run could not be made
// at all (not that mkvet failed).
func (s *corporaSuite) run(c corporaCase) (corporaResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), corporaTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.bin, c.args...)
	cmd.Dir = c.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	var r corporaResult
	r.seconds = time.Since(start).Seconds()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) || cmd.ProcessState == nil {
		return r, fmt.Errorf("%s: %v", c.name(), err)
	}
	ps := cmd.ProcessState
	r.exit = ps.ExitCode()
	r.timedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
	r.cpuSeconds = (ps.UserTime() + ps.SystemTime()).Seconds()
	r.peakMB, r.peakKnown = peakRSSMB(ps)
	for _, l := range strings.Split(stdout.String(), "\n") {
		switch {
		case strings.Contains(l, ": MK1001 "):
			r.hot++
		case strings.Contains(l, ": MK3001 "):
			r.asked++
		}
	}
	lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
	lines = lines[max(0, len(lines)-corporaTailLines):]
	for i, l := range lines {
		l = s.short.Replace(l)
		if len(l) > corporaTailWidth {
			l = fmt.Sprintf("%s… (%d more bytes)", strings.ToValidUTF8(l[:corporaTailWidth], ""), len(l)-corporaTailWidth)
		}
		lines[i] = l
	}
	r.stderrTail = strings.Join(lines, "\n")
	if r.stderrTail == "" {
		r.stderrTail = "(nothing)"
	}
	return r, nil
}

// BenchmarkCorpora measures issue 13's acceptance goal: the time and peak
// memory of mkvet check, annotate (each with P=4 and with P symbolic) and
// whatif -P 1..1024 (with -configure, the entry's configure command, for
// a program configured by P: NPB 3.3's setparams) on every program of the
// manifest (the NPB benchmarks at classes S and W), each run a process of
// its own. Besides s/op it reports
// peak-MB (the maximum resident set size), cpu-s/op, and failed and
// timeout (1 when the run ended so); a failed run is logged with its exit
// status and standard error, and the other cases still run. Run it with
//
//	go test -run '^$' -bench BenchmarkCorpora -benchtime 1x -timeout 0 ./cmd/mkvet/
//
// (-timeout 0: the whole suite takes longer than go test's default 10
// minutes; each run is bounded by corporaTimeout).
func BenchmarkCorpora(b *testing.B) {
	s := corporaSetup(b)
	for _, c := range s.cases {
		b.Run(c.name(), func(b *testing.B) {
			var peak, cpu, failed, timedOut float64
			n := 0
			for b.Loop() {
				r, err := s.run(c)
				if err != nil {
					b.Fatal(err)
				}
				n++
				peak = max(peak, r.peakMB)
				cpu += r.cpuSeconds
				if !r.ok(c) && failed == 0 {
					b.Logf("%s: %s after %.2f s; stderr ends:\n%s", c.name(), r.status(c), r.seconds, r.stderrTail)
					failed = 1
				}
				if r.timedOut {
					timedOut = 1
				}
			}
			b.ReportMetric(peak, "peak-MB")
			b.ReportMetric(cpu/float64(n), "cpu-s/op")
			b.ReportMetric(failed, "failed")
			b.ReportMetric(timedOut, "timeout")
		})
	}
}

// TestCorporaTable runs each case of BenchmarkCorpora once and logs a
// markdown table of the figures (program, class, P, command, seconds, CPU
// seconds, peak MB, for check the MK1001 and MK3001 findings, status, whether the run is within issue 13's goal),
// then the standard error of each run that failed, for the README. It runs
// for several minutes, so only when MKVET_CORPORA_TABLE=1.
func TestCorporaTable(t *testing.T) {
	if os.Getenv("MKVET_CORPORA_TABLE") != "1" {
		t.Skip("set MKVET_CORPORA_TABLE=1 to measure mkvet on the corpora and print the table " +
			"(MKVET_CORPORA_TABLE=1 go test -run TestCorporaTable -v -timeout 0 ./cmd/mkvet/); skipping")
	}
	s := corporaSetup(t)
	var tab, fails strings.Builder
	fmt.Fprintf(&tab, "| program | class | P | command | seconds | CPU s | peak MB | MK1001 | MK3001 | status | within %g s, %g GB |\n",
		corporaGoalSeconds, corporaGoalMB/1024)
	tab.WriteString("|---|---|---|---|---:|---:|---:|---:|---:|---|---|\n")
	for _, c := range s.cases {
		r, err := s.run(c)
		if err != nil {
			t.Fatal(err)
		}
		peak := "?"
		if r.peakKnown {
			peak = fmt.Sprintf("%.0f", r.peakMB)
		}
		hot, asked := "-", "-"
		if c.command == "check" {
			hot, asked = strconv.Itoa(r.hot), strconv.Itoa(r.asked)
		}
		fmt.Fprintf(&tab, "| %s | %s | %s | %s | %.2f | %.2f | %s | %s | %s | %s | %s |\n",
			c.program, c.class, c.p, c.command, r.seconds, r.cpuSeconds, peak, hot, asked, r.status(c), r.withinGoal(c))
		if !r.ok(c) {
			fmt.Fprintf(&fails, "\n%s: %s; stderr ends:\n%s\n", c.name(), r.status(c), r.stderrTail)
		}
	}
	t.Log("\n" + tab.String() + fails.String())
}
