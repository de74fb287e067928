package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/instrument/runs"
)

func init() {
	register(&command{
		name:  "runs",
		usage: "list|programs|traces|show RUN|export|import [-db FILE] [-program REF] [-format F] [-o FILE] [-label NAME] [FILE...]",
		short: "list, show, export (JSON Lines, Extra-P) and import (Extra-P) the runs database; list the traces it refers to",
		order: 43,
		run:   runRuns,
	})
}

func runRuns(args []string, stdout, stderr io.Writer) int {
	c := lookup("runs")
	fs := newFlagSet(c, stderr)
	db := fs.String("db", runs.DefaultPath, "the runs database `FILE`")
	progRef := fs.String("program", "", "the program: its `ID, label or hash prefix` (default: every program; export: the newest)")
	format := fs.String("format", "", "export: `jsonl` (default), extrap-jsonl or extrap-text; import: auto (default), "+
		"extrap-text, extrap-jsonl or jsonl")
	out := fs.String("o", "", "export to `FILE` instead of standard output")
	label := fs.String("label", "", "import: `label` of the program the runs belong to (a new program unless it exists)")
	source := fs.String("source", "", "import: the program's source `files`, comma-separated, so that imported timings "+
		"join its static counts (its version is their content hash)")
	pos, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "mkvet runs: "+format+"\n", args...)
		return 2
	}
	if len(pos) == 0 {
		fs.Usage()
		return 2
	}
	verb, rest := pos[0], pos[1:]
	if verb != "import" {
		if _, err := os.Stat(*db); err != nil {
			return fail("no runs database %s", *db)
		}
	}
	store, err := runs.Open(*db)
	if err != nil {
		return fail("%v", err)
	}
	defer store.Close()
	progs, err := store.Programs()
	if err != nil {
		return fail("%v", err)
	}
	byID := map[int64]*runs.Program{}
	for _, p := range progs {
		byID[p.ID] = p
	}
	var prog *runs.Program
	if *progRef != "" {
		if prog, err = store.FindProgram(*progRef); err != nil {
			return fail("%v", err)
		}
	}
	switch verb {
	case "programs":
		fmt.Fprintf(stdout, "%4s  %-16s  %-12s  %-20s  %s\n", "id", "label", "hash", "created", "files")
		for _, p := range progs {
			fmt.Fprintf(stdout, "%4d  %-16s  %-12s  %-20s  %s\n", p.ID, p.Label, p.Hash[:min(12, len(p.Hash))],
				p.Created.Local().Format("2006-01-02 15:04:05"), strings.Join(p.Files, " "))
		}
		return 0
	case "traces":
		ts, err := store.Traces()
		if err != nil {
			return fail("%v", err)
		}
		fmt.Fprintf(stdout, "%4s  %4s  %-9s  %3s  %9s  %10s  %-8s  %s\n", "id", "run", "source", "P", "events", "seconds", "file", "path")
		for _, tr := range ts {
			// The events stay in the trace file: say whether it is
			// still there as it was recorded.
			state := "ok"
			if b, err := os.ReadFile(tr.Path); err != nil {
				state = "missing"
			} else if h := sha256.Sum256(b); hex.EncodeToString(h[:]) != tr.SHA256 {
				state = "changed"
			}
			run := "-"
			if tr.Run > 0 {
				run = fmt.Sprint(tr.Run)
			}
			fmt.Fprintf(stdout, "%4d  %4s  %-9s  %3d  %9d  %10.6f  %-8s  %s\n", tr.ID, run, tr.Source, tr.P, tr.Events, tr.Seconds, state, tr.Path)
		}
		return 0
	case "list":
		var id int64
		if prog != nil {
			id = prog.ID
		}
		rs, err := store.Runs(id)
		if err != nil {
			return fail("%v", err)
		}
		runs.WriteTable(stdout, rs, byID)
		return 0
	case "show":
		if len(rest) != 1 {
			return fail("show needs one run ID")
		}
		id, err := strconv.ParseInt(rest[0], 10, 64)
		if err != nil {
			return fail("show %s: not a run ID", rest[0])
		}
		r, err := store.GetRun(id)
		if err != nil {
			return fail("%v", err)
		}
		runs.WriteTable(stdout, []*runs.Run{r}, byID)
		if r.Error != "" {
			fmt.Fprintf(stdout, "error:\n%s\n", indentLines(strings.TrimSpace(r.Error), "  "))
		}
		fmt.Fprintf(stdout, "command: %s\nstarted: %s, wall %.3fs\n", r.Command, r.Started.Local().Format("2006-01-02 15:04:05"), r.Wall)
		recs, err := store.Records(id)
		if err != nil {
			return fail("%v", err)
		}
		if len(recs) > 0 {
			fmt.Fprintf(stdout, "%-32s %4s %10s %10s %12s %12s %8s %10s %8s %10s\n", "node", "rank", "count", "iters",
				"seconds", "inclusive", "msgs", "bytes", "recvd", "bytes in")
		}
		for _, x := range recs {
			fmt.Fprintf(stdout, "%-32s %4d %10d %10d %12.6g %12.6g %8d %10d %8d %10d\n", x.Node, x.Rank, x.Count, x.Iters,
				x.Seconds, x.Inclusive, x.Msgs, x.Bytes, x.RecvMsgs, x.RecvBytes)
		}
		return 0
	case "export":
		if prog == nil {
			if len(progs) == 0 {
				return fail("%s holds no programs", *db)
			}
			prog = progs[len(progs)-1]
		}
		ex, err := store.Load(prog)
		if err != nil {
			return fail("%v", err)
		}
		w := stdout
		var f *os.File
		if *out != "" {
			if f, err = os.Create(*out); err != nil {
				return fail("%v", err)
			}
			w = f
		}
		bw := bufio.NewWriter(w)
		switch *format {
		case "", "jsonl":
			err = ex.WriteJSONL(bw)
		case "extrap-jsonl":
			err = ex.WriteExtraPJSONL(bw)
		case "extrap-text":
			err = ex.WriteExtraPText(bw)
		default:
			return fail("-format %q: want jsonl, extrap-jsonl or extrap-text", *format)
		}
		if err == nil {
			err = bw.Flush()
		}
		if f != nil {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return fail("export: %v", err)
		}
		return 0
	case "import":
		if len(rest) == 0 {
			return fail("import needs measurement files")
		}
		if prog == nil {
			hash, files := "", []string(nil)
			if *source != "" {
				files = strings.Split(*source, ",")
				if hash, err = runs.HashFiles(files); err != nil {
					return fail("%v", err)
				}
			} else {
				if *label == "" {
					return fail("import needs -label, -program or -source to say whose runs these are")
				}
				sum := sha256.Sum256([]byte("import:" + *label))
				hash = hex.EncodeToString(sum[:])
			}
			if prog, err = store.Program(hash, *label, files); err != nil {
				return fail("%v", err)
			}
		}
		total := 0
		for _, name := range rest {
			n, err := importFile(store, prog, name, runs.Format(*format))
			if err != nil {
				return fail("%v", err)
			}
			total += n
		}
		fmt.Fprintf(stdout, "imported %d runs into program %s (%s)\n", total, prog.Name(), *db)
		return 0
	}
	return fail("unknown verb %q: want list, programs, show, export or import", verb)
}

func importFile(store *runs.Store, prog *runs.Program, name string, f runs.Format) (int, error) {
	file, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer file.Close()
	br := bufio.NewReader(file)
	if f == "" || f == "auto" {
		head, _ := br.Peek(4096)
		f = runs.DetectFormat(name, head)
	}
	return store.Import(prog, br, name, f)
}
