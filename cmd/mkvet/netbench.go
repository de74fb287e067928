package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mkvet/mkvet/internal/tool"
	"github.com/mkvet/mkvet/model"
)

func init() {
	register(&command{
		name:  "netbench",
		usage: "-launcher 'mpirun -np 2' [-compiler mpicc] [-sizes 0..4MiB] [-reps N] [-trials N] [-regimes N] [-name NAME] [-o profile.json]",
		short: "measure the network with an MPI ping-pong and write a machine profile (t_s, t_c, LogGP)",
		order: 60,
		run:   runNetbench,
	})
}

// runNetbench writes the embedded benchmark, builds it with the user's MPI
// compiler wrapper, runs it through the user's launcher (never one of
// mkvet's own: the launcher knows the cluster), fits Hockney and LogGP to
// the times and writes the profile. The report goes to stdout when the
// profile goes to a file (-o), to stderr when the profile goes to stdout.
func runNetbench(args []string, stdout, stderr io.Writer) int {
	c := lookup("netbench")
	fs := newFlagSet(c, stderr)
	launcher := fs.String("launcher", "", "MPI launcher `command` starting 2 processes, split like a shell command; "+
		"the benchmark's path replaces {exe} or is appended (e.g. 'mpirun -np 2', 'srun -n 2 -N 2')")
	compiler := fs.String("compiler", "mpicc", "MPI C compiler wrapper `command` (mpicc, mpiicc, cc on Cray)")
	sizes := fs.String("sizes", "0..4MiB", "message `sizes`: a..b doubles from a (0 adds 0 then starts at 1), or a comma list")
	reps := fs.Int("reps", 100, "repetitions per size and trial")
	trials := fs.Int("trials", 3, "trials per size; the best is kept")
	regimes := fs.Int("regimes", 3, "largest number of LogGP size regimes to fit")
	name := fs.String("name", "netbench", "profile `name`")
	out := fs.String("o", "", "write the profile to `file` (default: stdout)")
	workdir := fs.String("workdir", "", "build the benchmark in a temporary directory under `dir`, which the launcher's nodes must see (default: the system's temporary directory)")
	timeout := fs.Duration("timeout", 10*time.Minute, "give up on the run after `duration`")
	pos, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "mkvet netbench: "+format+"\n", args...)
		return 2
	}
	if len(pos) != 0 {
		return fail("unexpected arguments %q", pos)
	}
	if *launcher == "" {
		fs.Usage()
		return fail("-launcher is required (the command that starts 2 MPI processes, e.g. 'mpirun -np 2')")
	}
	launch, err := splitWords(*launcher)
	if err != nil || len(launch) == 0 {
		return fail("-launcher %q: %v", *launcher, errOr(err, "empty command"))
	}
	cc, err := splitWords(*compiler)
	if err != nil || len(cc) == 0 {
		return fail("-compiler %q: %v", *compiler, errOr(err, "empty command"))
	}
	if base := filepath.Base(cc[0]); strings.Contains(base, "f77") || strings.Contains(base, "f90") || strings.Contains(base, "fort") {
		return fail("-compiler %q looks like a Fortran wrapper; the benchmark is C: give the MPI C wrapper of the same MPI (mpicc)", *compiler)
	}
	sz, err := parseSizes(*sizes)
	if err != nil {
		return fail("-sizes: %v", err)
	}
	if *reps < 1 || *trials < 1 || *regimes < 1 {
		return fail("-reps, -trials and -regimes must be positive")
	}
	report, prof := stdout, stdout
	if *out == "" {
		report = stderr
	}

	dir, err := os.MkdirTemp(*workdir, "mkvet-netbench-")
	if err != nil {
		return fail("%v", err)
	}
	defer os.RemoveAll(dir)
	src, exe := filepath.Join(dir, "netbench.c"), filepath.Join(dir, "netbench")
	if err := os.WriteFile(src, []byte(model.NetbenchC), 0o644); err != nil {
		return fail("%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	build := append(append([]string(nil), cc...), "-O2", "-o", exe, src)
	if _, err := runTool(ctx, dir, build); err != nil {
		return fail("building the benchmark: %v", err)
	}
	argv := substituteExe(launch, exe)
	argv = append(argv, strconv.Itoa(*reps), strconv.Itoa(*trials))
	for _, s := range sz {
		argv = append(argv, strconv.FormatInt(s, 10))
	}
	fmt.Fprintf(report, "netbench: %s, %d sizes %s..%s, %d trials of %d repetitions\n",
		strings.Join(launch, " "), len(sz), fmtBytes(float64(sz[0])), fmtBytes(float64(sz[len(sz)-1])), *trials, *reps)
	output, err := runTool(ctx, dir, argv)
	if err != nil {
		return fail("running the benchmark: %v", err)
	}
	samples, err := model.ParseNetbench("benchmark output", bytes.NewReader(output))
	if err != nil {
		return fail("%v", err)
	}
	p, err := fitProfile(report, samples, *regimes)
	if err != nil {
		return fail("%v", err)
	}
	p.Name = *name
	p.Description = fmt.Sprintf("measured by mkvet netbench through %q on %s", strings.Join(launch, " "), time.Now().UTC().Format("2006-01-02"))

	if *out == "" {
		if err := p.WriteJSON(prof); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	var b bytes.Buffer
	if err := p.WriteJSON(&b); err != nil {
		return fail("%v", err)
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		return fail("%v", err)
	}
	fmt.Fprintf(report, "wrote %s (use it with -machine %s)\n", *out, *out)
	return 0
}

func errOr(err error, msg string) error {
	if err != nil {
		return err
	}
	return errors.New(msg)
}

// fitProfile prints the measurements and the fits and returns the profile:
// Hockney and LogGP measured, operation costs the default profile's
// nominal ones (netbench measures only the network).
func fitProfile(w io.Writer, samples []model.Sample, maxRegimes int) (*model.Profile, error) {
	fmt.Fprintf(w, "\n%12s  %16s  %16s\n", "size", "ping-pong 1-way", "send-only/msg")
	for _, s := range samples {
		fmt.Fprintf(w, "%12s  %16s  %16s\n", fmtBytes(s.Bytes), fmtSeconds(s.PingPong), fmtSeconds(s.Send))
	}
	h, hf, err := model.FitHockney(samples)
	if err != nil {
		return nil, fmt.Errorf("fitting t_s + m*t_c: %w", err)
	}
	fmt.Fprintf(w, "\nHockney t_s + m*t_c (one-way ping-pong, relative least squares, %d sizes):\n", len(samples))
	fmt.Fprintf(w, "  t_s = %s, t_c = %s (%s), R^2 = %.6f\n", model.FormatDuration(h.Ts), model.FormatPerByte(h.Tc), fmtBandwidth(h.Tc.Float64()), hf.R2)
	printResiduals(w, samples, hf)

	g, fits, err := model.FitLogGP(samples, maxRegimes)
	if err != nil {
		return nil, fmt.Errorf("fitting LogGP: %w", err)
	}
	fmt.Fprintf(w, "\nLogGP with size regimes (seed 002): L = %s, g = %s, %d regime(s)\n", model.FormatDuration(g.L), model.FormatDuration(g.Gap), len(g.Regimes))
	for i, r := range g.Regimes {
		f := fits[i]
		fmt.Fprintf(w, "  regime %d: %s..%s  o = %s, G = %s (%s)  R^2 ping-pong %.6f, send-only %.6f, largest residual %.1f%%\n",
			i+1, fmtBytes(f.PingPong.From), fmtBytes(f.PingPong.To), model.FormatDuration(r.O), model.FormatPerByte(r.G),
			fmtBandwidth(r.G.Float64()), f.PingPong.R2, f.Send.R2, 100*maxAbs(f.PingPong.Residuals))
	}
	def := model.Default()
	return &model.Profile{
		Source: "network measured by mkvet netbench; operation costs and memory hierarchy are the nominal ones of the default profile " +
			model.DefaultName + " (mkvet membench -machine FILE -o FILE adds this machine's)",
		Ops:     def.Ops,
		Memory:  def.Memory,
		Model:   model.ModelLogGP,
		Hockney: &h,
		LogGP:   &g,
	}, nil
}

func printResiduals(w io.Writer, samples []model.Sample, f model.LineFit) {
	fmt.Fprint(w, "  residuals (fit - measured)/measured:")
	for i, s := range samples {
		if i%6 == 0 {
			fmt.Fprint(w, "\n   ")
		}
		fmt.Fprintf(w, " %9s %+6.1f%%", fmtBytes(s.Bytes), 100*f.Residuals[i])
	}
	fmt.Fprintln(w)
}

func maxAbs(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

func fmtSeconds(s float64) string {
	switch {
	case s >= 1:
		return fmt.Sprintf("%.3fs", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.3fms", s*1e3)
	case s >= 1e-6:
		return fmt.Sprintf("%.3fus", s*1e6)
	}
	return fmt.Sprintf("%.1fns", s*1e9)
}

func fmtBytes(b float64) string {
	switch {
	case b >= 1<<30 && math.Mod(b, 1<<30) == 0:
		return fmt.Sprintf("%.0fGiB", b/(1<<30))
	case b >= 1<<20 && math.Mod(b, 1<<20) == 0:
		return fmt.Sprintf("%.0fMiB", b/(1<<20))
	case b >= 1<<10 && math.Mod(b, 1<<10) == 0:
		return fmt.Sprintf("%.0fKiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0fB", b)
}

func fmtBandwidth(secPerByte float64) string {
	if secPerByte <= 0 {
		return "unbounded bandwidth"
	}
	bw := 1 / secPerByte
	switch {
	case bw >= 1e9:
		return fmt.Sprintf("%.2f GB/s", bw/1e9)
	case bw >= 1e6:
		return fmt.Sprintf("%.2f MB/s", bw/1e6)
	}
	return fmt.Sprintf("%.0f B/s", bw)
}

// runTool runs argv in dir and returns its standard output (tool.Run).
func runTool(ctx context.Context, dir string, argv []string) ([]byte, error) {
	return tool.Run(ctx, dir, argv)
}

// substituteExe puts exe where the launcher says {exe}, or at its end.
func substituteExe(launch []string, exe string) []string {
	out := make([]string, 0, len(launch)+1)
	found := false
	for _, w := range launch {
		if strings.Contains(w, "{exe}") {
			w, found = strings.ReplaceAll(w, "{exe}", exe), true
		}
		out = append(out, w)
	}
	if !found {
		out = append(out, exe)
	}
	return out
}

// splitWords splits a command line as a POSIX shell splits words: blanks
// separate, single quotes keep everything, double quotes keep all but \" and
// \\, a backslash outside quotes escapes the next character. Expansions
// ($VAR, globs) are not performed.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated double quote")
			}
			inWord = true
		case c == '\\':
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// maxBenchSize bounds one message of the sweep.
const maxBenchSize = 1 << 30

// parseSizes reads -sizes: comma-separated sizes ("4096", "64KiB") and
// ranges a..b, which double from a up to b; a range from 0 gives 0, 1, 2,
// 4, ... The result is sorted without repeats.
func parseSizes(s string) ([]int64, error) {
	set := map[int64]bool{}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		lo, hi, isRange := strings.Cut(item, "..")
		a, err := parseSize(lo)
		if err != nil {
			return nil, err
		}
		if !isRange {
			set[a] = true
			continue
		}
		b, err := parseSize(hi)
		if err != nil {
			return nil, err
		}
		if b < a {
			return nil, fmt.Errorf("range %q ends below its start", item)
		}
		if a == 0 {
			set[0] = true
			a = 1
		}
		for v := a; v <= b; v *= 2 {
			set[v] = true
		}
	}
	out := make([]int64, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	if len(out) < 3 {
		return nil, fmt.Errorf("%q gives %d sizes; fitting needs at least 3", s, len(out))
	}
	slices.Sort(out)
	return out, nil
}

func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 || n > maxBenchSize {
			return 0, fmt.Errorf("size %q out of range 0..1GiB", s)
		}
		return n, nil
	}
	r, err := model.ParseBytes(s)
	if err != nil {
		return 0, err
	}
	n, ok := r.Int64()
	if !ok || n > maxBenchSize {
		return 0, fmt.Errorf("size %q is not a whole number of bytes in 0..1GiB", s)
	}
	return n, nil
}
