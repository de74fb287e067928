package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/mkvet/mkvet/model"
)

func init() {
	register(&command{
		name:  "membench",
		usage: "[-compiler cc] [-trials N] [-json]",
		short: "read this machine's cache levels and measure the streaming time of each, and of main memory",
		order: 61,
		run:   runMembench,
	})
}

// cpuTree is where Linux describes the processors and their caches.
const cpuTree = "/sys/devices/system/cpu"

// runMembench prints the memory hierarchy calibrate records beside the runs
// (calibrate -memory): the cache levels the kernel reports and the time to
// stream a byte from each, with one process and with every processor.
func runMembench(args []string, stdout, stderr io.Writer) int {
	c := lookup("membench")
	fs := newFlagSet(c, stderr)
	compiler := fs.String("compiler", "cc", "C compiler `command` to build the benchmark with")
	trials := fs.Int("trials", 3, "trials per working set; the best is kept")
	asJSON := fs.Bool("json", false, "print the hierarchy as JSON (calibrate -memory reads it)")
	pos, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(pos) != 0 || *trials < 1 {
		fs.Usage()
		return 2
	}
	m, err := measureMemory(*compiler, *trials)
	if err != nil {
		fmt.Fprintf(stderr, "mkvet membench: %v\n", err)
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(m)
		return 0
	}
	printMemory(stdout, m)
	return 0
}

func printMemory(w io.Writer, m *model.Memory) {
	fmt.Fprintf(w, "memory hierarchy of this node (%d processors; %s)\n", m.CPUs, m.Source)
	fmt.Fprintf(w, "%-7s %10s %7s %14s %14s\n", "level", "size", "shared", "1 streaming", "all streaming")
	for _, l := range m.Levels {
		size, shared := "-", "-"
		if l.Size > 0 {
			size, shared = fmtBytes(float64(l.Size)), strconv.Itoa(l.Shared)
		}
		fmt.Fprintf(w, "%-7s %10s %7s %14s %14s\n", l.Name, size, shared, fmtRate(l.One), fmtRate(l.All))
	}
}

func fmtRate(secPerByte float64) string {
	if secPerByte <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f GB/s", 1e-9/secPerByte)
}

// measureMemory reads the cache levels from the kernel and times the
// embedded triad at a working set inside each and beyond the last, first
// in one process, then in one per processor at once.
func measureMemory(compiler string, trials int) (*model.Memory, error) {
	m, err := model.ReadCaches(os.DirFS(cpuTree))
	if err != nil {
		return nil, fmt.Errorf("reading the cache levels from %s: %v", cpuTree, err)
	}
	if m.CPUs == 0 {
		m.CPUs = 1
	}
	cc, err := splitWords(compiler)
	if err != nil || len(cc) == 0 {
		return m, fmt.Errorf("-compiler %q: %v", compiler, errOr(err, "empty command"))
	}
	dir, err := os.MkdirTemp("", "mkvet-membench-")
	if err != nil {
		return m, err
	}
	defer os.RemoveAll(dir)
	src, exe := filepath.Join(dir, "membench.c"), filepath.Join(dir, "membench")
	if err := os.WriteFile(src, []byte(model.MembenchC), 0o644); err != nil {
		return m, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := runTool(ctx, dir, append(append([]string(nil), cc...), "-O2", "-o", exe, src)); err != nil {
		return m, fmt.Errorf("building the memory benchmark: %v", err)
	}
	sizes := m.MembenchSizes()
	argv := []string{exe, strconv.Itoa(trials)}
	for _, s := range sizes {
		argv = append(argv, strconv.FormatInt(s, 10))
	}
	run := func(procs int) ([]map[int64]float64, error) {
		outs := make([]map[int64]float64, procs)
		errs := make([]error, procs)
		var wg sync.WaitGroup
		for i := range procs {
			wg.Go(func() {
				var b []byte
				if b, errs[i] = runTool(ctx, dir, argv); errs[i] == nil {
					outs[i], errs[i] = model.ParseMembench("membench output", bytes.NewReader(b))
				}
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return nil, fmt.Errorf("running the memory benchmark: %v", err)
			}
		}
		return outs, nil
	}
	one, err := run(1)
	if err != nil {
		return m, err
	}
	all, err := run(m.CPUs)
	if err != nil {
		return m, err
	}
	for i, s := range sizes {
		m.Levels[i].One = one[0][s]
		// The slowest process: the bandwidth each gets when all stream.
		for _, o := range all {
			m.Levels[i].All = max(m.Levels[i].All, o[s])
		}
	}
	m.Source = fmt.Sprintf("sizes from %s, times by mkvet membench (%s -O2) on %s", cpuTree, compiler, time.Now().UTC().Format("2006-01-02"))
	return m, nil
}
