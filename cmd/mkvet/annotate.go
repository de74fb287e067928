package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mkvet/mkvet/analyzer"
	"github.com/mkvet/mkvet/frontend/llvmir"
	"github.com/mkvet/mkvet/instrument/calib"
	"github.com/mkvet/mkvet/model/cost"
)

func init() {
	register(&command{
		name: "annotate",
		usage: "[-o OUT [-f]] [-D name=value,...] [-assume REL] [-I dir] [-define NAME[=val]] [-cpp] " +
			"[-form fixed|free|auto] [-entry NAME] [-machine NAME|FILE] [-runs DB [-label NAME]] FILE...",
		short: "print the source with each loop, call and MPI call annotated with its predicted cost",
		order: 8,
		run:   runAnnotate,
	})
}

// annotationTag starts every annotation comment. It is a plain comment to
// Fortran compilers and to mkvet's own frontend (mkvet's annotations are
// !mk$ lines, which these are not).
const annotationTag = "! mkvet: "

// freeLineMax is the longest free-form line the standard allows.
const freeLineMax = 132

// runAnnotate writes the source of each FILE with one comment per loop,
// call and MPI call: its per-rank count as a closed form, the value at the
// -D point and its share of the program's work. The files are analysed as
// one program; the inputs are never modified. One file goes to stdout or
// -o FILE; several go to stdout one after the other, each after a line
// "==> FILE <==" as head(1) prints them, or into the directory -o DIR under
// their own names.
func runAnnotate(args []string, stdout, stderr io.Writer) int {
	c := lookup("annotate")
	fs := newFlagSet(c, stderr)
	var cf costFlags
	cf.register(fs)
	out := fs.String("o", "", "write the annotated source to `path` instead of stdout: a file for one input, a directory for several (never an input itself)")
	force := fs.Bool("f", false, "overwrite the -o file(s) when they exist")
	runsDB := fs.String("runs", "", "also show calibrated seconds per node from the runs database `FILE` (mkvet calibrate); needs every value with -D")
	label := fs.String("label", "", "with -runs: the program version labelled `NAME` (default: the version of FILE's contents)")
	files, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "mkvet annotate: "+format+"\n", args...)
		return 2
	}
	if len(files) == 0 {
		fs.Usage()
		return fail("no source files")
	}
	// Where each file's annotated copy goes, checked before any work.
	dests := make([]string, len(files))
	if *out != "" {
		if len(files) == 1 {
			dests[0] = *out
		} else {
			if st, err := os.Stat(*out); err != nil || !st.IsDir() {
				return fail("-o %s: with %d files -o names an existing directory", *out, len(files))
			}
			seen := map[string]string{}
			for i, f := range files {
				dests[i] = filepath.Join(*out, filepath.Base(f))
				if prev, dup := seen[dests[i]]; dup {
					return fail("%s and %s would both be written to %s", prev, f, dests[i])
				}
				seen[dests[i]] = f
			}
		}
		for i, f := range files {
			if same, err := sameFile(f, dests[i]); err != nil {
				return fail("%v", err)
			} else if same {
				return fail("-o %s is the input file %s; annotate never modifies its input", dests[i], f)
			}
			for _, g := range files {
				if same, _ := sameFile(g, dests[i]); same {
					return fail("-o would overwrite the input %s; annotate never modifies its input", g)
				}
			}
			if _, err := os.Stat(dests[i]); err == nil && !*force {
				return fail("%s exists; use -f to overwrite it", dests[i])
			}
		}
	}
	srcs := make([][]byte, len(files))
	for i, f := range files {
		var err error
		if srcs[i], err = os.ReadFile(f); err != nil {
			return fail("%v", err)
		}
	}
	cd, status := cf.load("annotate", files, stderr)
	if cd == nil {
		return status
	}
	for i, f := range files {
		if b, ok := cd.sources[f]; ok {
			srcs[i] = b // as the -configure step left it: the lines the positions count
		}
	}
	notes := map[string]map[int][]string{}
	for _, f := range files {
		notes[f] = map[int][]string{}
	}
	sums := analyzer.Summaries(cd.report, cd.point, analyzer.Options{Machine: cd.machine, Given: cd.given})
	for _, n := range cd.report.Nodes {
		s, ok := sums[n]
		sp := n.Node.Base().Span
		if !ok || notes[sp.File] == nil || sp.Line <= 0 {
			continue // an INCLUDE'd header is not annotated
		}
		notes[sp.File][sp.Line] = append(notes[sp.File][sp.Line], s)
	}
	header := "counts per rank as closed forms, with their values at " + analyzer.Point(cd.report, cd.point) +
		" (largest and smallest where ranks differ); shares of the predicted work over all ranks"
	if cd.point.Partial() {
		header = "counts per rank as closed forms, with their values at " + analyzer.Point(cd.report, cd.point) +
			" where they rest on no value of the program's data (largest and smallest where ranks differ; the others need " +
			shortDefsHint(cd.point.Unknown) + ")"
		if !cd.point.WorkUnknown {
			header += "; shares of the predicted work over all ranks"
		}
	}
	if *runsDB != "" {
		if cd.point == nil || cd.point.Partial() {
			return fail("-runs needs every value: give %s", defsHint(cd.missing))
		}
		var h string
		for _, f := range files {
			var err error
			if h, err = calibratedNotes(*runsDB, *label, files, cd, f, notes[f]); err != nil {
				return fail("%v", err)
			}
		}
		header += "; " + h
	}
	if cd.point == nil {
		header = "counts per rank as closed forms (no values: give " + defsHint(cd.missing) +
			"); shares of the work in the limit of large sizes"
	}
	for i, f := range files {
		var text []byte
		if llvmir.Handles(f) {
			text = annotateC(srcs[i], header, notes[f])
		} else {
			text = annotateSource(srcs[i], header, notes[f], isFreeForm(f, cf.form))
		}
		var err error
		switch {
		case *out != "":
			err = writeNew(dests[i], text, *force)
		case len(files) > 1:
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "==> %s <==\n", f)
			_, err = stdout.Write(text)
		default:
			_, err = stdout.Write(text)
		}
		if err != nil {
			return fail("%v", err)
		}
	}
	return 0
}

// isFreeForm reports whether file is free-form source: -form when given,
// else by extension as gfortran and the frontend decide (.f90 and later
// free, everything else fixed).
func isFreeForm(file, form string) bool {
	switch strings.ToLower(form) {
	case "free":
		return true
	case "fixed":
		return false
	}
	switch strings.ToLower(filepath.Ext(file)) {
	case ".f90", ".f95", ".f03", ".f08":
		return true
	}
	return false
}

// annotateSource inserts a header comment line (when not empty) and the
// notes of each line (1-based) into src. Fixed
// form gets a full-line "!" comment before the statement's first line (a
// "!" in column 1 is a comment in every fixed-form compiler of note, and a
// comment line may sit anywhere, even between continuation lines). Free
// form gets a trailing comment when the statement fits on its line with it
// within 132 columns and the line has no comment or continuation of its own,
// else a comment line before it with the statement's indentation.
func annotateSource(src []byte, header string, notes map[int][]string, free bool) []byte {
	lines := strings.SplitAfter(string(src), "\n")
	var b strings.Builder
	b.Grow(len(src) + 80*len(notes))
	if header != "" {
		eol := "\n"
		if strings.HasSuffix(lines[0], "\r\n") {
			eol = "\r\n"
		}
		b.WriteString(annotationTag + header + eol)
	}
	for i, line := range lines {
		ns := notes[i+1]
		if len(ns) == 0 {
			b.WriteString(line)
			continue
		}
		body := strings.TrimRight(line, "\r\n")
		eol := line[len(body):]
		if eol == "" {
			eol = "\n"
		}
		if free {
			code, comment := splitFreeComment(body)
			trailing := "  " + annotationTag + strings.Join(ns, "; ")
			if !comment && !strings.HasSuffix(strings.TrimSpace(code), "&") && len(body)+len(trailing) <= freeLineMax {
				b.WriteString(body + trailing + eol)
				continue
			}
		}
		indent := ""
		if free {
			indent = body[:len(body)-len(strings.TrimLeft(body, " \t"))]
		}
		for _, n := range ns {
			b.WriteString(indent + annotationTag + n + eol)
		}
		b.WriteString(line)
	}
	return []byte(b.String())
}

// annotateC inserts the header and the notes into C or C++ source as
// block comments, each on a line of its own before the statement's first
// line with the statement's indentation: a comment line is valid anywhere
// a statement may start, in every C and C++ standard.
func annotateC(src []byte, header string, notes map[int][]string) []byte {
	comment := func(s string) string {
		return "/* " + strings.TrimSpace(annotationTag[1:]) + " " + strings.ReplaceAll(s, "*/", "* /") + " */"
	}
	lines := strings.SplitAfter(string(src), "\n")
	var b strings.Builder
	b.Grow(len(src) + 80*len(notes))
	eol := "\n"
	if strings.HasSuffix(lines[0], "\r\n") {
		eol = "\r\n"
	}
	if header != "" {
		b.WriteString(comment(header) + eol)
	}
	for i, line := range lines {
		body := strings.TrimRight(line, "\r\n")
		indent := body[:len(body)-len(strings.TrimLeft(body, " \t"))]
		for _, n := range notes[i+1] {
			b.WriteString(indent + comment(n) + eol)
		}
		b.WriteString(line)
	}
	return []byte(b.String())
}

// splitFreeComment returns the code of a free-form line and whether a "!"
// comment follows it (outside character constants).
func splitFreeComment(line string) (code string, comment bool) {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '!':
			return line[:i], true
		}
	}
	return line, false
}

// sameFile reports whether paths a and b name the same file (b need not
// exist).
func sameFile(a, b string) (bool, error) {
	aa, err := filepath.Abs(a)
	if err != nil {
		return false, err
	}
	bb, err := filepath.Abs(b)
	if err != nil {
		return false, err
	}
	if aa == bb {
		return true, nil
	}
	ai, err1 := os.Stat(a)
	bi, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ai, bi), nil
}

// writeNew writes data to path, creating it; an existing file is replaced
// only when force is set.
func writeNew(path string, data []byte, force bool) error {
	return createFile(path, force, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// createFile creates path and fills it with write: an existing file is
// replaced only when force is set (mkvet never loses what a user has), and
// a file whose writing failed is removed.
func createFile(path string, force bool, write func(io.Writer) error) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s exists; choose another name or remove it", path)
		}
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// calibratedNotes adds to notes, per source line, the calibrated seconds of
// each node timed in the calibration at cd's point, and returns the header's
// account of them.
func calibratedNotes(db, label string, files []string, cd *costed, file string, notes map[int][]string) (string, error) {
	cal, model, prog, err := calibrationFor(db, label, files, cd.report)
	if err != nil {
		return "", err
	}
	params := map[string]float64{}
	for k, v := range cd.point.Env {
		if k != cost.Size {
			params[k] = float64(v)
		}
	}
	pred, err := calib.Predict(cal, model, calib.Point{Params: params, P: int(cd.point.P)}, params)
	if err != nil {
		return "", err
	}
	secs := map[string]float64{}
	for _, np := range pred.Nodes {
		secs[np.Node] = np.OnSlowest
	}
	for _, n := range cd.report.Nodes {
		b := n.Node.Base()
		s := secs[b.ID]
		if s <= 0 || b.Span.File != file || b.Span.Line <= 0 {
			continue
		}
		notes[b.Span.Line] = append(notes[b.Span.Line], fmt.Sprintf("calibrated %s on rank %d (%.1f%% of its %s)",
			fmtSeconds(s), pred.Rank, 100*s/pred.Total, fmtSeconds(pred.Total)))
	}
	h := fmt.Sprintf("calibrated seconds from %s (program %s, %d runs) on the slowest rank, %d, which takes %s",
		db, prog.Name(), cal.Runs, pred.Rank, fmtSeconds(pred.Total))
	for _, w := range pred.Warnings {
		h += "; warning: " + w
	}
	return h, nil
}
