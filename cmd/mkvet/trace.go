package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mkvet/mkvet/instrument"
	"github.com/mkvet/mkvet/instrument/fit"
	"github.com/mkvet/mkvet/instrument/runs"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/trace"
)

func init() {
	register(&command{
		name: "trace",
		usage: "import DIR [-o FILE.mkt] [-runs DB [-run ID]] | show FILE.mkt | replay [-machine NAME|FILE] [-set ...] [-model] FILE.mkt | " +
			"cpg [-json] FILE.mkt... | timeline [-replay] [-o FILE.json] FILE.mkt | predict [-D name=value] -P N [-machine M] -o FILE.mkt FILE...",
		short: "event traces: import a run's events, replay them under LogGPS, MK's phase graph, Perfetto timelines, predicted traces",
		order: 8,
		run:   runTrace,
	})
}

func runTrace(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprintf(stderr, "usage: mkvet trace %s\n", lookup("trace").usage)
		fmt.Fprintln(stderr, "\nsubcommands: import, show, replay, cpg, timeline, predict (mkvet trace SUB -h for flags)")
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "import":
		return traceImport(rest, stdout, stderr)
	case "show":
		return traceShow(rest, stdout, stderr)
	case "replay":
		return traceReplay(rest, stdout, stderr)
	case "cpg":
		return traceCPG(rest, stdout, stderr)
	case "timeline":
		return traceTimeline(rest, stdout, stderr)
	case "predict":
		return tracePredict(rest, stdout, stderr)
	}
	fmt.Fprintf(stderr, "mkvet trace: unknown subcommand %q (import, show, replay, cpg, timeline, predict)\n", sub)
	return 2
}

func subFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	return newFlagSet(&command{name: "trace " + name, usage: usage}, stderr)
}

func traceImport(args []string, stdout, stderr io.Writer) int {
	fs := subFlagSet("import", "DIR [-o FILE.mkt] [-runs DB [-run ID]]", stderr)
	out := fs.String("o", "", "write the trace to `FILE` (default DIR/trace.mkt; never overwritten)")
	db := fs.String("runs", "", "also record the trace by reference in the runs database `FILE`")
	runID := fs.Int64("run", 0, "with -runs: the `ID` of the run the trace belongs to")
	pos, st, ok := parseFlags(fs, args)
	if !ok {
		return st
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "mkvet trace import: want one directory (the run's $MKVET_OUT)")
		return 2
	}
	t, err := trace.ReadRawDir(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "mkvet trace import: %v\n", err)
		return 2
	}
	t.Run = filepath.Base(pos[0])
	// The run's records, written beside the events, carry the run's tag
	// and the parameter values the program ran with.
	if recs, err := instrument.ReadRun(pos[0], t.P); err == nil {
		for _, r := range recs {
			if r.Type == instrument.TypeRun && r.Rank == 0 {
				if r.Run != "" {
					t.Run = r.Run
				}
				t.Params = r.Params
			}
		}
	}
	path := *out
	if path == "" {
		path = filepath.Join(pos[0], "trace.mkt")
	}
	var size int64
	h := sha256.New()
	err = createFile(path, false, func(w io.Writer) error {
		cw := &countWriter{w: io.MultiWriter(w, h)}
		err := trace.Write(cw, t)
		size = cw.n
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "mkvet trace import: %v\n", err)
		return 2
	}
	s0, s1 := t.Span()
	fmt.Fprintf(stdout, "wrote %s: %d ranks, %d events, %s, %.6f s\n", path, t.P, t.NumEvents(), humanBytes(size), float64(s1-s0)/1e9)
	for _, n := range t.Notes {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	if *db != "" {
		st, err := runs.Open(*db)
		if err != nil {
			fmt.Fprintf(stderr, "mkvet trace import: %v\n", err)
			return 2
		}
		defer st.Close()
		abs, _ := filepath.Abs(path)
		id, err := st.AddTrace(&runs.TraceRef{Run: *runID, Path: abs, SHA256: hex.EncodeToString(h.Sum(nil)), Source: t.Source,
			P: t.P, Events: int64(t.NumEvents()), Seconds: float64(s1-s0) / 1e9})
		if err != nil {
			fmt.Fprintf(stderr, "mkvet trace import: %s: %v\n", *db, err)
			return 2
		}
		fmt.Fprintf(stdout, "recorded as trace %d in %s\n", id, *db)
	}
	return 0
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func loadTrace(path string) (*trace.Trace, *trace.Graph, error) {
	t, err := trace.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	g, err := trace.Match(t)
	if err != nil {
		return nil, nil, err
	}
	return t, g, nil
}

func traceShow(args []string, stdout, stderr io.Writer) int {
	fs := subFlagSet("show", "FILE.mkt", stderr)
	pos, st, ok := parseFlags(fs, args)
	if !ok {
		return st
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "mkvet trace show: want one trace file")
		return 2
	}
	t, g, err := loadTrace(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "mkvet trace show: %v\n", err)
		return 2
	}
	s0, s1 := t.Span()
	name := t.Program
	if name == "" {
		name = filepath.Base(pos[0])
	}
	fmt.Fprintf(stdout, "%s trace of %s, P = %d: %d events, %d messages, %d collective calls; completion %.6f s\n",
		t.Source, name, t.P, t.NumEvents(), len(g.Msgs), len(g.Colls), float64(s1-s0)/1e9)
	if len(t.Params) > 0 {
		var kv []string
		for k, v := range t.Params {
			kv = append(kv, fmt.Sprintf("%s=%d", k, v))
		}
		sort.Strings(kv)
		fmt.Fprintf(stdout, "parameters: %s\n", strings.Join(kv, ", "))
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rank\tstart s\tfinish s\tcalls\tin MPI s\t")
	for r := range t.Ranks {
		rk := &t.Ranks[r]
		calls, in := 0, int64(0)
		for i := range rk.Events {
			if e := &rk.Events[i]; e.Kind == trace.Comm {
				calls++
				in += e.End - e.Begin
			}
		}
		fmt.Fprintf(tw, "%d\t%.6f\t%.6f\t%d\t%.6f\t\n", r, float64(rk.Start)/1e9, float64(rk.Finish)/1e9, calls, float64(in)/1e9)
	}
	tw.Flush()
	for _, n := range append(t.Notes, g.Notes...) {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	return 0
}

// replayParams reads -machine and -set into LogGPS replay parameters.
func replayParams(machine, set string) (trace.Params, error) {
	prof, err := model.Load(machine)
	if err != nil {
		return trace.Params{}, fmt.Errorf("-machine: %w", err)
	}
	if set != "" {
		if err := setProfile(prof, set); err != nil {
			return trace.Params{}, err
		}
	}
	return trace.ParamsFrom(prof)
}

func traceReplay(args []string, stdout, stderr io.Writer) int {
	fs := subFlagSet("replay", "[-machine NAME|FILE] [-set L=..,o=..] [-model] FILE.mkt", stderr)
	machine := fs.String("machine", "", "LogGPS parameters from machine profile `NAME|FILE` (default "+model.DefaultName+"; netbench writes one)")
	set := fs.String("set", "", "change profile parameters: `name=value,...` (L, o, G, S, ...)")
	modelled := fs.Bool("model", false, "cost every MPI call by LogGPS instead of keeping the measured call times (PerWiz §4)")
	pos, st, ok := parseFlags(fs, args)
	if !ok {
		return st
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "mkvet trace replay: want one trace file")
		return 2
	}
	t, g, err := loadTrace(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "mkvet trace replay: %v\n", err)
		return 2
	}
	p, err := replayParams(*machine, *set)
	if err != nil {
		fmt.Fprintf(stderr, "mkvet trace replay: %v\n", err)
		return 2
	}
	mode := trace.Measured
	if *modelled {
		mode = trace.Modelled
	}
	start := time.Now()
	rp := trace.NewReplayer(g, p, mode)
	res, err := rp.Replay(&trace.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "mkvet trace replay: %v\n", err)
		return 1
	}
	el := time.Since(start)
	s0, s1 := t.Span()
	meas := float64(s1 - s0)
	how := "measured call times less LogGPS waiting"
	if *modelled {
		how = "every call by LogGPS"
	}
	fmt.Fprintf(stdout, "replay of %s under %s (L %s, o %s, G %s/B, S %s; %s)\n", pos[0], p.Name, secs(p.L), secs(p.O), secs(p.G), sizeOrNone(p.S), how)
	fmt.Fprintf(stdout, "completion: measured %.6f s, replayed %.6f s (%+.2f%%)\n", meas/1e9, res.Completion/1e9, 100*(res.Completion-meas)/meas)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rank\tmeasured s\treplayed s\twait: late sender s\tlate receiver s\tcollective s\t")
	for r := range t.Ranks {
		w := res.Waits[r]
		fmt.Fprintf(tw, "%d\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t\n", r, float64(t.Ranks[r].Finish-s0)/1e9, (res.Finish[r]-float64(s0))/1e9,
			w.LateSender/1e9, w.LateReceiver/1e9, w.Collective/1e9)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "prepared and replayed %d events in %v (%.1f M events/s)\n", t.NumEvents(), el.Round(time.Microsecond), float64(t.NumEvents())/el.Seconds()/1e6)
	for _, n := range append(t.Notes, g.Notes...) {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	return 0
}

func secs(s float64) string {
	switch {
	case s == 0:
		return "0"
	case s < 1e-6:
		return fmt.Sprintf("%.3gns", s*1e9)
	case s < 1e-3:
		return fmt.Sprintf("%.3gus", s*1e6)
	}
	return fmt.Sprintf("%.3gs", s)
}

func sizeOrNone(s float64) string {
	if s > 1e18 {
		return "none"
	}
	return model.FormatBytes(s)
}

func traceCPG(args []string, stdout, stderr io.Writer) int {
	fs := subFlagSet("cpg", "[-json] FILE.mkt...", stderr)
	asJSON := fs.Bool("json", false, "print the phases as JSON")
	pos, st, ok := parseFlags(fs, args)
	if !ok {
		return st
	}
	if len(pos) == 0 {
		fmt.Fprintln(stderr, "mkvet trace cpg: want one or more trace files (several: the phases' attributes are fitted over P)")
		return 2
	}
	type runPhases struct {
		File   string        `json:"file"`
		P      int           `json:"P"`
		Phases []trace.Phase `json:"phases"`
	}
	var all []runPhases
	for _, f := range pos {
		t, g, err := loadTrace(f)
		if err != nil {
			fmt.Fprintf(stderr, "mkvet trace cpg: %v\n", err)
			return 2
		}
		all = append(all, runPhases{File: f, P: t.P, Phases: trace.CPG(g)})
	}
	var obs []phaseObs
	for _, rp := range all {
		for _, ph := range rp.Phases {
			obs = append(obs, phaseObs{key: strings.Join(ph.Calls, " "), p: rp.P, ph: ph})
		}
	}
	fits := fitPhases(obs)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Runs []runPhases  `json:"runs"`
			Fits []phaseFitJS `json:"fits,omitempty"`
		}{all, fits}); err != nil {
			fmt.Fprintf(stderr, "mkvet trace cpg: %v\n", err)
			return 2
		}
		return 0
	}
	for _, rp := range all {
		fmt.Fprintf(stdout, "%s (P = %d): %d phases\n", rp.File, rp.P, len(rp.Phases))
		for _, ph := range rp.Phases {
			fmt.Fprintf(stdout, "  %s\n", phaseLine(&ph))
		}
	}
	for _, f := range fits {
		fmt.Fprintf(stdout, "fit over %d runs: %s at %s: %s = %s\n", f.Runs, f.Type, f.Ancestor, f.Attr, f.Form)
	}
	return 0
}

// phaseLine prints a phase for people: its type, where, who, how much.
func phaseLine(ph *trace.Phase) string {
	kind := string(ph.Type)
	if ph.Wavefront {
		kind += " (wavefront)"
	}
	s := fmt.Sprintf("%s at %s: ", kind, ph.Ancestor)
	if ph.Type == trace.Pipeline {
		s += fmt.Sprintf("depth %d, ", ph.Depth)
	}
	s += fmt.Sprintf("%d messages, %s; senders %s, receivers %s; calls %s", ph.Messages, model.FormatBytes(float64(ph.Bytes)),
		rankList(ph.SL), rankList(ph.RL), strings.Join(ph.Calls, " "))
	if len(s) > 240 {
		s = s[:237] + "..."
	}
	return s
}

// rankList prints ranks compactly: 0-3,5.
func rankList(rs []int32) string {
	if len(rs) == 0 {
		return "none"
	}
	var parts []string
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", rs[i], rs[j]))
		} else {
			parts = append(parts, fmt.Sprint(rs[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

type phaseObs struct {
	key string
	p   int
	ph  trace.Phase
}

type phaseFitJS struct {
	Calls    string `json:"calls"`
	Type     string `json:"type"`
	Ancestor string `json:"ancestor"`
	Attr     string `json:"attribute"`
	Form     string `json:"form"`
	Runs     int    `json:"runs"`
}

// fitPhases regresses each phase's attributes (a pipeline's depth, the
// messages) over the process counts of the runs it appears in, with the
// fitting code calibration uses (MK regresses phase attributes over runs,
// seed 000 §3). Three runs with different P at least.
func fitPhases(obs []phaseObs) []phaseFitJS {
	byKey := map[string][]phaseObs{}
	var keys []string
	for _, o := range obs {
		if _, ok := byKey[o.key]; !ok {
			keys = append(keys, o.key)
		}
		byKey[o.key] = append(byKey[o.key], o)
	}
	sort.Strings(keys)
	var out []phaseFitJS
	for _, k := range keys {
		l := byKey[k]
		ps := map[int]bool{}
		for _, o := range l {
			ps[o.p] = true
		}
		if len(ps) < 3 {
			continue
		}
		attrs := []struct {
			name string
			get  func(*trace.Phase) float64
		}{{"messages", func(p *trace.Phase) float64 { return float64(p.Messages) }}}
		typ := l[0].ph.Type
		for _, o := range l {
			if o.ph.Type == trace.Pipeline {
				typ = trace.Pipeline
			}
		}
		if typ == trace.Pipeline {
			attrs = append([]struct {
				name string
				get  func(*trace.Phase) float64
			}{{"depth", func(p *trace.Phase) float64 { return float64(p.Depth) }}}, attrs...)
		}
		for _, a := range attrs {
			var fo []fit.Obs
			zero := false
			for i, o := range l {
				y := a.get(&o.ph)
				if y <= 0 {
					zero = true
				}
				fo = append(fo, fit.Obs{Params: []float64{float64(o.p)}, Y: y, Group: i})
			}
			if zero {
				continue
			}
			sp := fit.DefaultSpace([]string{"P"}, nil, "P")
			sp.MaxTerms = 1
			m, err := fit.Search(fo, sp)
			if err != nil {
				continue
			}
			out = append(out, phaseFitJS{Calls: k, Type: string(typ), Ancestor: l[0].ph.Ancestor, Attr: a.name, Form: m.String(), Runs: len(l)})
		}
	}
	return out
}

func traceTimeline(args []string, stdout, stderr io.Writer) int {
	fs := subFlagSet("timeline", "[-replay] [-machine M] [-o FILE.json] FILE.mkt", stderr)
	out := fs.String("o", "", "write the timeline to `FILE` (default: FILE.mkt with .json; never overwritten)")
	replay := fs.Bool("replay", false, "draw the LogGPS replay's times instead of the trace's")
	machine := fs.String("machine", "", "with -replay: machine profile `NAME|FILE`")
	pos, st, ok := parseFlags(fs, args)
	if !ok {
		return st
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "mkvet trace timeline: want one trace file")
		return 2
	}
	t, g, err := loadTrace(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "mkvet trace timeline: %v\n", err)
		return 2
	}
	opt := trace.TimelineOptions{Title: t.Source + ": " + filepath.Base(pos[0]), Phases: trace.CPG(g)}
	if *replay {
		p, err := replayParams(*machine, "")
		if err != nil {
			fmt.Fprintf(stderr, "mkvet trace timeline: %v\n", err)
			return 2
		}
		res, err := trace.NewReplayer(g, p, trace.Measured).Replay(&trace.Options{Record: true})
		if err != nil {
			fmt.Fprintf(stderr, "mkvet trace timeline: %v\n", err)
			return 1
		}
		opt.Replay = res
		opt.Title = "replayed: " + filepath.Base(pos[0])
	}
	path := *out
	if path == "" {
		path = strings.TrimSuffix(pos[0], filepath.Ext(pos[0])) + ".json"
	}
	var size int64
	err = createFile(path, false, func(w io.Writer) error {
		cw := &countWriter{w: w}
		err := trace.WriteTimeline(cw, g, opt)
		size = cw.n
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "mkvet trace timeline: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "wrote %s (%s): Chrome trace event JSON; open it in https://ui.perfetto.dev or chrome://tracing\n", path, humanBytes(size))
	return 0
}

func tracePredict(args []string, stdout, stderr io.Writer) int {
	fs := subFlagSet("predict", "[-D name=value,...] -P N [-machine NAME|FILE] [-set ...] -o FILE.mkt FILE...", stderr)
	var pf progFlags
	pf.register(fs, "set `name=value` (repeatable, or comma-separated): the problem sizes and values the program reads")
	procs := fs.Int("P", 0, "number of ranks `N` (required)")
	machine := fs.String("machine", "", "machine profile `NAME|FILE` for the computation's and the messages' costs (default "+model.DefaultName+")")
	set := fs.String("set", "", "change profile parameters: `name=value,...`")
	out := fs.String("o", "", "write the predicted trace to `FILE` (required; never overwritten)")
	files, st, ok := parseFlags(fs, args)
	if !ok {
		return st
	}
	if *procs < 1 || *out == "" {
		fmt.Fprintln(stderr, "mkvet trace predict: -P N and -o FILE are required")
		return 2
	}
	vals, _, err := intDefs(pf.defs)
	if err != nil {
		fmt.Fprintf(stderr, "mkvet trace predict: %v\n", err)
		return 2
	}
	l, code := pf.load("trace predict", files, stderr)
	if l == nil {
		return code
	}
	prof, err := model.Load(*machine)
	if err == nil && *set != "" {
		err = setProfile(prof, *set)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mkvet trace predict: %v\n", err)
		return 2
	}
	start := time.Now()
	t, err := trace.Predict(l.prog, trace.PredictOptions{Entry: pf.entry, P: *procs, Values: vals, Profile: prof,
		Env: l.opt.Env, Args: l.opt.Args})
	if err != nil {
		fmt.Fprintf(stderr, "mkvet trace predict: %v\n", err)
		return 1
	}
	t.Program = strings.Join(files, " ")
	var size int64
	err = createFile(*out, false, func(w io.Writer) error {
		cw := &countWriter{w: w}
		err := trace.Write(cw, t)
		size = cw.n
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "mkvet trace predict: %v\n", err)
		return 2
	}
	s0, s1 := t.Span()
	fmt.Fprintf(stdout, "wrote %s: predicted trace, P = %d, %d events, %s; completion %.6f s (took %v)\n", *out, t.P, t.NumEvents(),
		humanBytes(size), float64(s1-s0)/1e9, time.Since(start).Round(time.Millisecond))
	for _, n := range t.Notes {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	return 0
}
