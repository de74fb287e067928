package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
)

// command is one mkvet subcommand.
type command struct {
	name  string
	usage string // one line: arguments after the name
	short string // one line description for "mkvet help"
	order int    // position in "mkvet help"; pipeline order
	// run executes the subcommand. It returns the process exit status: 0 success,
	// 1 findings (check), 2 usage or input errors.
	run func(args []string, stdout, stderr io.Writer) int
}

var commands []*command

// register adds a subcommand; called from init functions, one per subcommand file.
func register(c *command) {
	for _, o := range commands {
		if o.name == c.name {
			panic("mkvet: subcommand registered twice: " + c.name)
		}
	}
	commands = append(commands, c)
	slices.SortFunc(commands, func(a, b *command) int { return a.order - b.order })
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// gcPercent is the garbage collector's target (GOGC) when the environment
// sets none, and memLimit its soft memory limit (GOMEMLIMIT). An analysis
// allocates fast and keeps little (counting's and the prover's
// intermediate expressions): with Go's default of 100 the collector took a
// third of the CPU time of a whole application's analysis (pprof on NPB
// LU, MG, SP), on a machine with two cores. Fewer collections cost memory,
// which the limit caps well below issue 13's 1 GB.
const (
	gcPercent = 400
	memLimit  = 768 << 20
)

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memLimit)
	}
	guardMemory(heapLimit(), os.Stderr)
	// MKVET_CPUPROFILE and MKVET_MEMPROFILE name files for pprof profiles of
	// one run, for finding what dominates the analysis of a whole program.
	if f := os.Getenv("MKVET_CPUPROFILE"); f != "" {
		stop, err := startCPUProfile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mkvet:", err)
			os.Exit(2)
		}
		status := run(os.Args[1:], os.Stdout, os.Stderr)
		stop()
		os.Exit(status)
	}
	status := run(os.Args[1:], os.Stdout, os.Stderr)
	if f := os.Getenv("MKVET_MEMPROFILE"); f != "" {
		if err := writeHeapProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "mkvet:", err)
		}
	}
	os.Exit(status)
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			c := lookup(args[1])
			if c == nil {
				fmt.Fprintf(stderr, "mkvet: unknown subcommand %q\n", args[1])
				usage(stderr)
				return 2
			}
			// Each subcommand prints its flags on -h.
			return c.run([]string{"-h"}, stdout, stdout)
		}
		usage(stdout)
		return 0
	case "version", "-V", "--version":
		fmt.Fprintln(stdout, "mkvet", version)
		return 0
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(stderr, "mkvet: unknown subcommand %q\n", name)
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

// version is the mkvet release; overridden at link time for releases.
var version = "devel"

func usage(w io.Writer) {
	fmt.Fprintln(w, "mkvet predicts the run time of message-passing programs from their source.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w, "\tmkvet <subcommand> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Subcommands:")
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-*s  %s\n", width, c.name, c.short)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "mkvet help <subcommand>" for its flags.`)
}

// newFlagSet returns a flag set for subcommand c whose -h output names the subcommand.
func newFlagSet(c *command, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("mkvet "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mkvet %s %s\n\n%s\n", c.name, c.usage, c.short)
		var hasFlags bool
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(stderr, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses args with fs, allowing flags after positional arguments
// (mkvet expr 'N*N' -D N=3), and returns the positional arguments. ok is false
// when parsing failed or -h was given; status is then the exit status to return.
func parseFlags(fs *flag.FlagSet, args []string) (pos []string, status int, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, 0, false
			}
			return nil, 2, false
		}
		rest := fs.Args()
		// Take positional arguments one at a time until the next flag.
		i := 0
		for i < len(rest) && (!strings.HasPrefix(rest[i], "-") || rest[i] == "-" || isNegativeNumber(rest[i])) {
			i++
		}
		pos = append(pos, rest[:i]...)
		if i == len(rest) {
			return pos, 0, true
		}
		if rest[i] == "--" {
			return append(pos, rest[i+1:]...), 0, true
		}
		args = rest[i:]
	}
}

func isNegativeNumber(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	c := s[1]
	return (c >= '0' && c <= '9') || c == '.' || c == '('
}

// multiFlag collects repeated flag values (-D N=1 -D P=2).
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }
