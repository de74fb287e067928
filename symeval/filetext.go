package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/openfile"
	"github.com/mkvet/mkvet/internal/runenv"
)

// The text of files the program writes. A program may write a file and
// read it back: a cleaned copy of its input deck that every process then
// reads, defaults it writes where the user gave none. An OPEN that
// creates or replaces a file starts its text; each WRITE to its unit of
// character values under a format of A edit descriptors (or list-directed,
// where gfortran puts a blank first) adds the record it makes; a READ of
// the file then reads those records (fileRecords), not the disk. A file is
// shared by the processes, so a write that only one rank makes (the root
// writing for all) is the file's for every rank; a write under any other
// condition the evaluation cannot decide, or of a value it does not know,
// leaves the file's text unknown, and its READs keep their parameters.

// writtenFile is the text of a file the program writes: its records, or
// unknown.
type writtenFile struct {
	recs    []string
	unknown bool
}

// writtenState is a copy of the files' texts, for a run's snapshot.
func (ev *evaluator) writtenState() map[string]writtenFile {
	if len(ev.written) == 0 {
		return nil
	}
	out := make(map[string]writtenFile, len(ev.written))
	for k, w := range ev.written {
		out[k] = writtenFile{recs: w.recs[:len(w.recs):len(w.recs)], unknown: w.unknown}
	}
	return out
}

// restoreWritten puts back the texts a snapshot kept: a run given up
// leaves no records behind.
func (ev *evaluator) restoreWritten(st map[string]writtenFile) {
	for k := range ev.written {
		w, ok := st[k]
		if !ok {
			delete(ev.written, k)
			continue
		}
		ev.written[k] = &writtenFile{recs: w.recs, unknown: w.unknown}
	}
}

// startWrite records that an OPEN creates or replaces the file name.
func (ev *evaluator) startWrite(name string) {
	if ev.probing > 0 {
		return // a probe's effects are not the run's
	}
	if ev.written == nil {
		ev.written = map[string]*writtenFile{}
	}
	ev.written[openfile.Name(name)] = &writtenFile{unknown: !ev.rankOnlyPath()}
}

// rankOnlyPath reports whether the current path is taken on every run of
// the program, on some ranks at most: its conditions mention no symbol but
// the rank and the number of processes.
func (ev *evaluator) rankOnlyPath() bool {
	var only func(f counting.Formula) bool
	only = func(f counting.Formula) bool {
		switch x := f.(type) {
		case counting.Rel:
			for _, s := range x.R.E.Symbols() {
				if s != Rank && s != Size {
					return false
				}
			}
			return true
		case counting.And:
			for _, g := range x {
				if !only(g) {
					return false
				}
			}
			return true
		case counting.Or:
			for _, g := range x {
				if !only(g) {
					return false
				}
			}
			return true
		case counting.Not:
			return only(x.F)
		}
		return false
	}
	for _, c := range ev.cur.conds {
		if !only(c) {
			return false
		}
	}
	return len(ev.cur.vars) == 0
}

// writeFile evaluates a WRITE to a unit connected to a file the program
// writes, its items' values vals: the records it adds, or the file's text
// lost.
func (ev *evaluator) writeFile(n *apt.IO, vals []Value) {
	if n.Kind != apt.IOWrite || len(ev.written) == 0 || internalUnit(n.Unit) || ev.probing > 0 {
		return
	}
	u, ok := ev.unitOf(n.Unit)
	if !ok {
		for _, w := range ev.written {
			w.unknown = true // which file, the evaluation does not know
		}
		return
	}
	at, ok := ev.unitAt(unitKey(u))
	if !ok {
		return
	}
	w := ev.written[openfile.Name(at.File)]
	if w == nil || w.unknown {
		return
	}
	recs, ok := ev.writtenRecords(n, vals)
	if !ok || !ev.rankOnlyPath() {
		w.unknown = true
		return
	}
	w.recs = append(w.recs, recs...)
}

// writtenRecords returns the records a WRITE of values vals makes when
// every item is a character value the evaluation knows and the format is list-directed or
// made of A edit descriptors, slashes and X only.
func (ev *evaluator) writtenRecords(n *apt.IO, vals []Value) ([]string, bool) {
	texts := make([]string, len(vals))
	for i, v := range vals {
		if v.str == nil || apt.TypeOf(n.Items[i]).Base != apt.TypeCharacter {
			return nil, false
		}
		texts[i] = *v.str
	}
	if listDirected(n.Format) {
		// gfortran's list-directed output: a blank, then the values.
		return []string{" " + strings.Join(texts, "")}, true
	}
	fm, ok := ev.formatOf(n)
	if !ok {
		return nil, false
	}
	return runenv.FormattedWrite(fm, texts)
}
