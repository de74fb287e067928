package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/membench"
)

func init() {
	register(&command{
		name:  "membench",
		usage: "[-compiler cc] [-trials N] [-json] [-machine NAME|FILE -o profile.json]",
		short: "measure this machine's memory hierarchy: cache levels, streaming, strided and gathered access times",
		order: 61,
		run:   runMembench,
	})
}

// cpuTree is where Linux describes the processors and their caches.
const cpuTree = membench.CPUTree

// runMembench prints the memory hierarchy the memory term of a loop's cost
// and calibrate's memory levels use, or writes it into a machine profile
// (-o): the cache levels and the time to move data from each the ways
// loops walk memory, with one process and with every processor.
func runMembench(args []string, stdout, stderr io.Writer) int {
	c := lookup("membench")
	fs := newFlagSet(c, stderr)
	compiler := fs.String("compiler", "cc", "C compiler `command` to build the benchmark with")
	trials := fs.Int("trials", 3, "trials per working set; the best is kept")
	asJSON := fs.Bool("json", false, "print the hierarchy as JSON (calibrate -memory reads it)")
	machine := fs.String("machine", "", "with -o: the profile `NAME|FILE` whose operation costs and network the written profile keeps (default: the embedded default)")
	out := fs.String("o", "", "write a machine profile to `file`, a new file: -machine's profile with this machine's memory hierarchy and work unit (use it with -machine)")
	pos, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "mkvet membench: "+format+"\n", args...)
		return 2
	}
	if len(pos) != 0 || *trials < 1 {
		fs.Usage()
		return 2
	}
	if *machine != "" && *out == "" {
		return fail("-machine names the profile -o writes: give -o too")
	}
	var base *model.Profile
	if *out != "" {
		if _, err := os.Stat(*out); err == nil {
			return fail("-o %s: the file exists; mkvet writes profiles to new files only", *out)
		}
		var err error
		if base, err = model.Load(*machine); err != nil {
			return fail("-machine: %v", err)
		}
	}
	cc, err := splitWords(*compiler)
	if err != nil || len(cc) == 0 {
		return fail("-compiler %q: %v", *compiler, errOr(err, "empty command"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	node, err := membench.Measure(ctx, membench.Options{Compiler: cc, Trials: *trials})
	if err != nil {
		fmt.Fprintf(stderr, "mkvet membench: %v\n", err)
		return 1
	}
	m := node.Memory
	m.Source += " on " + time.Now().UTC().Format("2006-01-02")
	if base != nil {
		p := node.Profile(base)
		p.Source += "; memory hierarchy and operation costs measured by mkvet membench"
		var b bytes.Buffer
		if err := p.WriteJSON(&b); err != nil {
			return fail("%v", err)
		}
		f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, err = f.Write(b.Bytes())
			err = closeWith(f, err)
		}
		if err != nil {
			return fail("%v", err)
		}
		printNode(stdout, node)
		fmt.Fprintf(stdout, "wrote %s (use it with -machine %s)\n", *out, *out)
		return 0
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(m)
		return 0
	}
	printNode(stdout, node)
	return 0
}

// closeWith closes f and returns the first of err and the close's error.
func closeWith(f *os.File, err error) error {
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// printNode prints the hierarchy and the work unit.
func printNode(w io.Writer, n *membench.Node) {
	printMemory(w, n.Memory)
	fmt.Fprintf(w, "work unit: %.3g ns; in loops that are vectorised %.3g (triad %.3g, stencil %.3g), scalar %.3g (gather), a chain %.3g (dot product), complex %.3g ns (butterfly)\n",
		1e9*n.Unit, 1e9*n.Vector(), 1e9*n.Units[0], 1e9*n.Units[1], 1e9*n.Scalar(), 1e9*n.Chain(), 1e9*n.Complex())
}

func printMemory(w io.Writer, m *model.Memory) {
	fmt.Fprintf(w, "memory hierarchy of this node (%d processors, %d-byte lines; %s)\n", m.CPUs, m.LineBytes(), m.Source)
	fmt.Fprintf(w, "%-7s %8s %6s %21s %21s %19s %19s %19s\n", "level", "size", "shared", "stream (1 / all)", "move (1 / all)", "walk (1 / all)", "stride (1 / all)", "gather (1 / all)")
	for _, l := range m.Levels {
		size, shared := "-", "-"
		if l.Size > 0 {
			size, shared = fmtBytes(float64(l.Size)), strconv.Itoa(l.Shared)
		}
		fmt.Fprintf(w, "%-7s %8s %6s %21s %21s %19s %19s %19s\n", l.Name, size, shared,
			fmtRate(l.One)+" / "+fmtRate(l.All), fmtRate(l.MoveOne)+" / "+fmtRate(l.MoveAll), fmtAccess(l.WalkOne)+" / "+fmtAccess(l.WalkAll),
			fmtAccess(l.StrideOne)+" / "+fmtAccess(l.StrideAll), fmtAccess(l.GatherOne)+" / "+fmtAccess(l.GatherAll))
	}
	for _, l := range m.Levels {
		if l.GatherHeld > 0 {
			fmt.Fprintf(w, "%s holds %s of an array one process gathers in a random order (of %s; the streams beside it and other processes take the rest)\n",
				l.Name, model.FormatBytes(float64(l.GatherHeld)), model.FormatBytes(float64(l.Size)))
		}
	}
	if m.TouchOne > 0 || m.TouchAll > 0 {
		fmt.Fprintf(w, "first touch (the first write of fresh memory, beyond the write): %s / %s a KiB\n",
			fmtKiB(m.TouchOne), fmtKiB(m.TouchAll))
	}
}

// fmtKiB formats a time per byte as the time per KiB, in microseconds.
func fmtKiB(secPerByte float64) string {
	if secPerByte <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f us", secPerByte*1024*1e6)
}

func fmtRate(secPerByte float64) string {
	if secPerByte <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f GB/s", 1e-9/secPerByte)
}

// fmtAccess formats a time per access in nanoseconds.
func fmtAccess(sec float64) string {
	if sec <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f ns", sec*1e9)
}
