package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
)

func init() {
	register(&command{
		name:  "apt",
		usage: "[-json] [-I dir] [-D NAME[=val]] [-form fixed|free|auto] [-cpp] FILE...",
		short: "print the augmented parse tree of Fortran source files",
		order: 30,
		run:   runAPT,
	})
}

// runAPT parses the files and prints their APT. Diagnostics go to stderr as
// file:line:col: message. The tree of what did parse is printed even when there
// are errors (statements that failed are Unknown nodes in it), so that one bad
// statement does not hide the rest of the program; the exit status is then 2.
// Warnings and notes alone leave the status 0.
func runAPT(args []string, stdout, stderr io.Writer) int {
	c := lookup("apt")
	fs := newFlagSet(c, stderr)
	jsonOut := fs.Bool("json", false, "print the tree as JSON")
	var incs, defs multiFlag
	fs.Var(&incs, "I", "add `dir` to the INCLUDE search path (repeatable)")
	fs.Var(&defs, "D", "define preprocessor macro `NAME[=val]` (repeatable)")
	form := fs.String("form", "auto", "source form: fixed, free or auto (by file extension)")
	cpp := fs.Bool("cpp", false, "run the preprocessor on every file, not only .F/.F90")
	files, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "mkvet apt: no input files")
		fs.Usage()
		return 2
	}
	f, ok := fortran.ParseForm(*form)
	if !ok {
		fmt.Fprintf(stderr, "mkvet apt: -form must be fixed, free or auto, not %q\n", *form)
		return 2
	}
	cfg := fortran.Config{IncludeDirs: incs, Form: f, Preprocess: *cpp, Defines: map[string]string{}}
	for _, d := range defs {
		name, val, _ := strings.Cut(d, "=")
		if name == "" {
			fmt.Fprintf(stderr, "mkvet apt: -D needs NAME[=val], not %q\n", d)
			return 2
		}
		cfg.Defines[name] = val
	}
	prog, diags := parseProgram(files, cfg)
	status = 0
	for _, d := range diags {
		fmt.Fprintln(stderr, d)
		if d.Severity == apt.Error {
			status = 2
		}
	}
	if prog == nil {
		return 2 // the files were refused, as diags say
	}
	var err error
	if *jsonOut {
		err = apt.WriteJSON(stdout, prog)
	} else {
		err = apt.Fprint(stdout, prog)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mkvet apt: %v\n", err)
		return 2
	}
	return status
}
