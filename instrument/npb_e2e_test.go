package instrument_test

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mkvet/mkvet/analyzer"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/instrument"
	"github.com/mkvet/mkvet/instrument/sweep"
	"github.com/mkvet/mkvet/internal/corpora"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// npbCases are the NAS Parallel Benchmarks of the real-run counts oracle
// (issue 13) with the process counts each runs on: powers of two, and
// squares for BT and SP.
var npbCases = []struct {
	bench string
	ps    []int
}{
	{"LU", []int{1, 2, 4}}, {"CG", []int{1, 2, 4}}, {"MG", []int{1, 2, 4}}, {"FT", []int{1, 2, 4}},
	{"EP", []int{1, 2, 4}}, {"BT", []int{1, 4}}, {"SP", []int{1, 4}},
}

// hotShare is the share of the predicted work from which a loop nest's
// counts must be exact and equal the counters.
const hotShare = 0.01

// TestNPBCountsMatchRunsE2E builds each NPB benchmark at class S with
// mkvet's instrumentation (a counter in every loop body, a timer on every
// loop nest), configured by its own setparams for each process count, runs
// it with Open MPI and checks that every loop nest holding 1% or more of the
// predicted work has an exact per-rank count, entries and iterations, equal
// to the counters on every rank. The static counts are those `mkvet check
// -D P=p` computes, with no other value given: NPB's class is compiled in.
// The same run checks MK1001 against the measured time per loop nest
// (issue 13, item 7: npbHotNests).
func TestNPBCountsMatchRunsE2E(t *testing.T) {
	dir := corpora.Dir(t)
	e2e.Require(t, "mpif77", "mpirun", "cc")
	npb, err := corpora.NewNPB(dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for _, c := range npbCases {
		t.Run(c.bench, func(t *testing.T) {
			for _, p := range c.ps {
				npbOracle(t, npb, c.bench, p)
			}
		})
	}
	t.Logf("NPB counts oracle: %v", time.Since(start).Round(time.Second))
}

func npbOracle(t *testing.T, npb *corpora.NPB, bench string, p int) {
	t.Helper()
	files, inc, err := npb.Configure(bench, p, "S")
	if err != nil {
		t.Fatal(err)
	}
	prog, diags := fortran.ParseFiles(files, fortran.Config{IncludeDirs: []string{inc}})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("%s: parse: %v", bench, d)
		}
	}
	point := map[string]int64{cost.Size: int64(p)}
	rep, err := cost.AnalyzeAt(prog, cost.Options{}, point)
	if err != nil {
		t.Fatalf("%s P=%d: %v", bench, p, err)
	}
	pt, err := rep.At(point)
	if err != nil {
		t.Fatalf("%s P=%d: the analysis needs more than P: %v", bench, p, err)
	}
	cfg := &sweep.Config{
		Prog: prog, Files: files,
		Options: instrument.Options{BodyCounters: true, NestTimers: true, IncludeDirs: []string{inc}},
		Build:   "mpif77 -O1 -fallow-argument-mismatch {srcs} -o {exe}", Launcher: testLauncher,
		Dir: t.TempDir(), Timeout: 5 * time.Minute, Env: mpiEnv(),
	}
	b, err := cfg.Compile(nil)
	if err != nil {
		t.Fatalf("%s P=%d: %v", bench, p, err)
	}
	run := cfg.Run(b, sweep.Point{P: p}, 0, filepath.Join(cfg.Dir, "run"), "npb")
	if run.Err != nil {
		t.Fatalf("%s P=%d: %v\n%s", bench, p, run.Err, run.Stderr)
	}
	byNode := map[string]map[int]instrument.Record{}
	for _, r := range run.Records {
		if r.Type != instrument.TypeNode {
			continue
		}
		if byNode[r.Node] == nil {
			byNode[r.Node] = map[int]instrument.Record{}
		}
		byNode[r.Node][r.Rank] = r
	}
	env := map[string]symbolic.Rat{}
	for k, v := range pt.Env {
		env[k] = symbolic.RatInt(v)
	}
	hot, exact, equal, others, othersEqual := 0, 0, 0, 0, 0
	var bad, data []string
	for _, n := range rep.Nodes {
		if _, ok := n.Node.(*apt.Loop); !ok {
			continue
		}
		id := n.Node.Base().ID
		share := pt.Nodes[n].Work.Total / pt.Work.Total
		isHot := share >= hotShare
		if isHot {
			hot++
		} else {
			others++
		}
		if !n.Exact {
			if isHot {
				if onData(rep, n) {
					data = append(data, fmt.Sprintf("%s (%s, %.1f%%): %s", id, n.Node.Base().Span.Start(), 100*share, n.Note))
				} else {
					bad = append(bad, fmt.Sprintf("%s (%s, %.1f%% of the work): count not exact: %s", id, n.Node.Base().Span.Start(), 100*share, n.Note))
				}
			}
			continue
		}
		if isHot {
			exact++
		}
		ok := true
		for _, q := range []struct {
			name string
			pw   symbolic.Piecewise
			got  func(instrument.Record) int64
		}{
			{"entries", n.Count, func(r instrument.Record) int64 { return r.Count }},
			{"iterations", n.Iterations, func(r instrument.Record) int64 { return r.Iters }},
		} {
			for rank := 0; rank < p; rank++ {
				env[cost.Rank] = symbolic.RatInt(int64(rank))
				v, err := q.pw.Eval(env)
				want, isInt := v.Int64()
				got := q.got(byNode[id][rank])
				if err == nil && isInt && v.IsInt() && want == got {
					continue
				}
				ok = false
				if isHot {
					bad = append(bad, fmt.Sprintf("%s (%s, %.1f%% of the work) rank %d: static %s %s = %s, counter %d",
						id, n.Node.Base().Span.Start(), 100*share, rank, q.name, clipPW(q.pw), v, got))
				}
			}
		}
		switch {
		case ok && isHot:
			equal++
		case ok:
			othersEqual++
		}
	}
	t.Logf("%s P=%d: %d loop nests hold 1%% or more of the work: %d exact, %d equal to the counters, %d depend on data; %d/%d other loops equal",
		bench, p, hot, exact, equal, len(data), othersEqual, others)
	for _, d := range data {
		t.Logf("  depends on data: %s", d)
	}
	if want := dataNests[bench]; len(data) > want {
		t.Errorf("%s P=%d: %d hot loop nests depend on data, %d expected", bench, p, len(data), want)
	}
	if hot == 0 {
		t.Errorf("%s P=%d: no loop nest holds 1%% of the work", bench, p)
	}
	if len(bad) > 0 {
		slices.Sort(bad)
		t.Errorf("%s P=%d: %d disagreements on hot loop nests:\n  %s", bench, p, len(bad), strings.Join(bad, "\n  "))
	}
	npbHotNests(t, bench, p, rep, pt, b.Result, run.Records, func(i int) ([]instrument.Record, error) {
		r := cfg.Run(b, sweep.Point{P: p}, i, filepath.Join(cfg.Dir, fmt.Sprint("run", i)), "npb")
		return r.Records, r.Err
	})
}

// npbHotNests checks MK1001 against the run's measured time per loop nest
// (issue 13, item 7): the nests that together hold half of the measured
// loop time, largest first, must all be among the nests MK1001 reports at
// -D P=p. A nest's time is its exclusive time (the nests of the routines it
// calls and its MPI calls are timed regions of their own) summed over the
// ranks, as MK1001's share is of the work summed over the ranks: a rank's
// waiting is in its MPI calls, not in its nests, so the sum is the work
// done, where the slowest rank's time would weigh one rank's share of an
// unevenly split nest. A class S run lasts milliseconds, so one spell off
// the processor (another process, or another rank of an oversubscribed
// run) can make any nest look hot: when the check fails, the build is run
// again, up to twice, and each nest keeps its least time over the runs,
// which such spells only lengthen. It logs the nests holding 1% or more of
// the measured time or reported, with both shares.
func npbHotNests(t *testing.T, bench string, p int, rep *cost.Report, pt *cost.Point, res *instrument.Result,
	recs []instrument.Record, rerun func(i int) ([]instrument.Record, error)) {
	t.Helper()
	reported := map[string]bool{}
	for _, d := range analyzer.Run(rep, pt, analyzer.Options{}) {
		if d.ID == "MK1001" {
			reported[d.Node] = true
		}
	}
	type nest struct {
		id, at              string
		measured, predicted float64
	}
	var nests []nest
	for _, pr := range res.Probes {
		if pr.Kind != "loop" || !pr.Timed {
			continue
		}
		x := nest{id: pr.Node, at: fmt.Sprintf("%s:%d", filepath.Base(pr.Pos.File), pr.Pos.Line), measured: math.Inf(1)}
		if n := rep.ByID[pr.Node]; n != nil && pt.Work.Total > 0 {
			x.predicted = pt.Nodes[n].NestWork.Total / pt.Work.Total
		}
		nests = append(nests, x)
	}
	// measure lowers each nest's time to this run's, if less.
	measure := func(recs []instrument.Record) {
		sum := map[string]float64{}
		for _, r := range recs {
			if r.Type == instrument.TypeNode {
				sum[r.Node] += r.Seconds
			}
		}
		for i := range nests {
			nests[i].measured = math.Min(nests[i].measured, sum[nests[i].id])
		}
	}
	// check returns the total time in nests and the nests holding half
	// of it that MK1001 does not report, with nests sorted by time.
	check := func() (float64, []string) {
		total := 0.0
		for _, x := range nests {
			total += x.measured
		}
		slices.SortStableFunc(nests, func(a, b nest) int { return cmp.Compare(b.measured, a.measured) })
		var missed []string
		held := 0.0
		for _, x := range nests {
			if held < total/2 && !reported[x.id] {
				missed = append(missed, fmt.Sprintf("%s (%s): %.1f%% of the measured loop time, %.1f%% of the predicted work",
					x.id, x.at, 100*x.measured/total, 100*x.predicted))
			}
			held += x.measured
		}
		return total, missed
	}
	measure(recs)
	total, missed := check()
	runs := 1
	for ; len(missed) > 0 && runs < 3; runs++ {
		more, err := rerun(runs)
		if err != nil {
			t.Errorf("%s P=%d: running again: %v", bench, p, err)
			break
		}
		measure(more)
		total, missed = check()
	}
	if total <= 0 {
		t.Errorf("%s P=%d: no time measured in loop nests", bench, p)
		return
	}
	of := "one run"
	if runs > 1 {
		of = fmt.Sprintf("the least of %d runs", runs)
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%s P=%d: loop nests by measured exclusive time (%.3gs in nests over %d ranks, %s), MK1001 at -D P=%d:\n",
		bench, p, total, p, of, p)
	fmt.Fprintf(&table, "    %-26s %-18s %9s %10s  %s\n", "nest", "at", "measured", "predicted", "reported")
	held := 0.0
	for _, x := range nests {
		inHalf := held < total/2
		held += x.measured
		if x.measured < 0.01*total && !reported[x.id] {
			continue
		}
		mark := "no"
		if reported[x.id] {
			mark = "yes"
		}
		if inHalf {
			mark += " (half of the time)"
		}
		fmt.Fprintf(&table, "    %-26s %-18s %8.1f%% %9.1f%%  %s\n", x.id, x.at, 100*x.measured/total, 100*x.predicted, mark)
	}
	t.Log(strings.TrimSuffix(table.String(), "\n"))
	if len(reported) == 0 {
		t.Errorf("%s P=%d: MK1001 reports no loop nest", bench, p)
	}
	if len(missed) > 0 {
		t.Errorf("%s P=%d: loop nests holding half of the measured loop time that MK1001 does not report (%s):\n  %s",
			bench, p, of, strings.Join(missed, "\n  "))
	}
}

// dataNests are the hot loop nests of each benchmark whose counts depend on
// the program's data, which no static analysis derives: MG's search for
// the extreme values of its random initial grid calls bubble under a
// comparison of random numbers.
var dataNests = map[string]int{"MG": 2}

// onData reports whether a node's count is approximate because of a branch
// on data the analysis cannot see (its count carries a frequency
// parameter, which MK3001 asks for where it matters).
func onData(rep *cost.Report, n *cost.Node) bool {
	freq := map[string]bool{}
	for _, q := range rep.Params {
		if q.Origin == cost.FromFrequency {
			freq[q.Name] = true
		}
	}
	for _, pc := range n.Count.Pieces {
		for _, s := range pc.Value.Symbols() {
			if freq[s] {
				return true
			}
		}
	}
	return false
}

func clipPW(pw symbolic.Piecewise) string {
	s := strings.ReplaceAll(pw.String(), "\n", "; ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
