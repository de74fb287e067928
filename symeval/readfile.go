package symeval

import (
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/openfile"
	"github.com/mkvet/mkvet/internal/readpos"
	"github.com/mkvet/mkvet/internal/runenv"
	"github.com/mkvet/mkvet/symbolic"
)

// Input files read as the run reads them. With Options.Dir, the directory
// the program runs in, a list-directed READ of scalar variables from a unit
// connected to a file there takes its values from the file: the record the
// unit is at (readpos), and the records after it while the items want
// values and no slash ended the input, one value an item, a null value
// leaving its item as it was (Fortran 2008 10.10.3). The unit then stands
// at the record after the last one read. The values are numbers whose
// origin Result.Read keeps. A READ the file cannot satisfy (too few
// records, a value that is not a number of the item's type) and every other
// READ keep the parameters the evaluation names after their variables.

// iostatEnd is the IOSTAT= value of a READ past the end of a file
// (gfortran's LIBERROR_END).
const iostatEnd = -1

// ReadValue is a value the evaluation read from an input file.
type ReadValue struct {
	Pos  apt.Pos // the READ
	Name string  // the variable
	File string  // the file as the program names it
	Line int     // the record, from 1
	Text string  // the value as written in the file
}

// maxInputBytes bounds an input file the evaluation reads: a deck of
// settings, not a data set.
const maxInputBytes = 1 << 20

// fileRecords returns the records of the input file name in the run's
// directory, false when there is none or it is not a deck-sized text.
func (ev *evaluator) fileRecords(name string) ([]string, bool) {
	if strings.HasPrefix(name, textFilePrefix) {
		recs, ok := ev.inputs[name]
		return recs, ok
	}
	if ev.dir == "" || name == "" {
		return nil, false
	}
	if w := ev.written[openfile.Name(name)]; w != nil {
		// A file the program wrote: its text, not the disk's.
		return w.recs, !w.unknown
	}
	if recs, seen := ev.inputs[name]; seen {
		return recs, recs != nil
	}
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(ev.dir, name)
	}
	var recs []string
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() <= maxInputBytes {
		if b, err := os.ReadFile(path); err == nil {
			recs = runenv.Records(string(b))
			if recs == nil {
				recs = []string{} // present, and empty
			}
		}
	}
	if ev.inputs == nil {
		ev.inputs = map[string][]string{}
	}
	ev.inputs[name] = recs
	return recs, recs != nil
}

// textFilePrefix starts the names of the files textFile makes: no file
// of the run's folder has one.
const textFilePrefix = "\x00text#"

// textFile makes a file of the text of the C++ string object e (an
// std::istringstream's), a record per line, and returns its name.
func (ev *evaluator) textFile(e apt.Expr) (string, bool) {
	text, ok := ev.cxxStringText(e)
	if !ok {
		return "", false
	}
	if ev.inputs == nil {
		ev.inputs = map[string][]string{}
	}
	name := textFilePrefix + strconv.Itoa(len(ev.inputs))
	recs := runenv.Records(text)
	if recs == nil {
		recs = []string{}
	}
	ev.inputs[name] = recs
	if k, ok := ev.stringObject(e); ok {
		if o, ok := ev.textOrigins[textKey(k)]; ok {
			ev.textOrigins[name] = o
		}
	}
	return name, true
}

// unitFile returns the unit a READ reads, where it is and the records of
// its file in the run's directory; false when any is not known.
func (ev *evaluator) unitFile(n *apt.IO) (key string, at readpos.Unit, recs []string, ok bool) {
	u, ok := ev.unitOf(ev.readUnit(n))
	if !ok {
		return "", at, nil, false
	}
	key = unitKey(u)
	if at, ok = ev.unitAt(key); !ok {
		return "", at, nil, false
	}
	recs, ok = ev.fileRecords(at.File)
	if !ok {
		ev.requireFile(n, at.File)
	}
	return key, at, recs, ok
}

// requireFile records that the READ n reads the file name, which the run's
// directory does not hold: the run would stop at it, so the user is told
// which file and which OPEN, and the values it reads stay named.
func (ev *evaluator) requireFile(n *apt.IO, name string) {
	if ev.dir == "" || name == "" || strings.HasPrefix(name, textFilePrefix) || ev.written[openfile.Name(name)] != nil {
		return
	}
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(ev.dir, name)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		return
	}
	pos, ok := ev.openedAt[name]
	if !ok {
		pos = n.Span.Start()
	}
	ev.addInput(InputFile{Pos: pos, Name: name, Required: true})
}

// readFile evaluates a list-directed READ from an input file of the run's
// directory, and reports whether it did.
func (ev *evaluator) readFile(n *apt.IO) bool {
	if ev.dir == "" || !listDirected(n.Format) && !n.Stream || len(n.Items) == 0 || len(ev.cur.vars) > 0 {
		return false
	}
	k, at, recs, ok := ev.unitFile(n)
	if !ok {
		return false
	}
	steps, items, ok := ev.listItems(n)
	if !ok {
		return false
	}
	if n.Stream && n.Result != nil && at.Record > int64(len(recs)) {
		// scanf at the end of its input: EOF, the items unchanged.
		ev.assign(n.Result, Known(symbolic.Int(-1)))
		return true
	}
	if at.Record > int64(len(recs)) {
		return ev.readEnd(n)
	}
	var words []runenv.Datum
	next := readpos.Unit{File: at.File}
	if n.Stream {
		var rec, word int
		words, rec, word, ok = runenv.StreamRead(recs, int(at.Record), int(at.Word), len(items))
		next.Record, next.Word = int64(rec), int64(word)
	} else {
		var rec int
		words, rec, ok = runenv.ListRead(recs, int(at.Record), len(items))
		next.Record = int64(rec)
	}
	if !ok && n.Stream && n.Result != nil && len(words) == 0 {
		// scanf finds its input's end before any item: EOF, the items
		// unchanged.
		ev.setUnit(k, next)
		ev.assign(n.Result, Known(symbolic.Int(-1)))
		return true
	}
	if !ok {
		return false // the end of the file: an error the program handles
	}
	vals, given, keep, ok := ev.listItemValues(n, items, words)
	if !ok {
		return false
	}
	ev.storeSteps(steps, vals, keep)
	for i, it := range items {
		if i < len(words) && words[i].Text != "" && !given[i] {
			name, _ := itemName(it)
			ev.noteRead(ReadValue{Pos: n.Span.Start(), Name: name, File: at.File, Line: words[i].Record, Text: words[i].Text})
		}
	}
	ev.setUnit(k, next)
	if st := keyword(n, "iostat"); st != nil {
		ev.assign(st, Known(symbolic.Int(0)))
	}
	if n.Result != nil {
		// scanf's count of the items it assigned.
		ev.assign(n.Result, Known(symbolic.Int(int64(len(items)))))
	}
	return true
}

// readEnd evaluates a READ past the last record of its file: the end of
// file, which the program handles by IOSTAT= (gfortran's -1) or END= (a
// jump to its label), the items keeping their values (a loop reading to the
// end of its deck). It reports false where the program does not handle it.
func (ev *evaluator) readEnd(n *apt.IO) bool {
	st, end := keyword(n, "iostat"), keyword(n, "end")
	if st == nil && end == nil {
		return false
	}
	if st != nil {
		ev.assign(st, Known(symbolic.Int(iostatEnd)))
	}
	if end != nil {
		ev.jumpTo(apt.FormatExpr(end), n)
	}
	return true
}

// listValue is the value a list-directed datum gives an item of type base.
func listValue(text string, base apt.BaseType) (symbolic.Expr, bool) {
	switch base {
	case apt.TypeInteger:
		x, ok := runenv.Integer(text)
		return symbolic.Int(x), ok
	case apt.TypeLogical:
		b, ok := runenv.Logical(text)
		return symbolic.Int(boolInt(b)), ok
	}
	r, ok := runenv.Real(text)
	if !ok {
		return symbolic.Expr{}, false
	}
	return symbolic.Const(symbolic.RatBig(new(big.Rat).Set(r))), true
}

// charDatum is a character datum of list-directed or namelist input as a
// variable of length l holds it: cut to l (a shorter one stands for
// itself padded with blanks).
func charDatum(text string, l int64) Value {
	if int64(len(text)) > l {
		text = text[:l]
	}
	return Value{str: &text}
}

// noteRead records a value read, once per READ and variable.
func (ev *evaluator) noteRead(r ReadValue) {
	if strings.HasPrefix(r.File, textFilePrefix) {
		// Read from a string's text: where that text came from.
		o, ok := ev.textOrigins[r.File]
		if !ok {
			return
		}
		r.File, r.Line = o.File, o.Line+r.Line-1
	}
	for _, x := range ev.res.Read {
		if x.Pos == r.Pos && x.Name == r.Name && x.File == r.File && x.Line == r.Line {
			return // the same datum, read again in another context
		}
	}
	ev.res.Read = append(ev.res.Read, r)
}

// listItemValues converts the data of a list-directed READ to its items'
// values: a datum for each, a null value or one after a slash keeping the
// item's value (keep), a variable -D gives keeping the user's (given). It
// reports false for a datum that is not of its item's type.
func (ev *evaluator) listItemValues(n *apt.IO, items []apt.Expr, words []runenv.Datum) (vals []Value, given, keep []bool, ok bool) {
	vals = make([]Value, len(items))
	given, keep = make([]bool, len(items)), make([]bool, len(items))
	for i, it := range items {
		name, scalar := itemName(it)
		base := apt.TypeOf(it).Base
		if _, ok := ev.values[name]; ok && scalar && base != apt.TypeCharacter {
			// -D gives the variable a value: the user's, not the file's.
			vals[i], given[i] = ev.givenRead(n, name, base != apt.TypeInteger), true
			continue
		}
		if i >= len(words) || words[i].Text == "" {
			keep[i] = true // a null value, or after a slash
			continue
		}
		if base == apt.TypeCharacter {
			l, _ := ev.charLen(it)
			vals[i] = charDatum(words[i].Text, l)
			continue
		}
		v, ok := listValue(words[i].Text, base)
		if !ok {
			return nil, nil, nil, false
		}
		vals[i] = Known(v)
	}
	return vals, given, keep, true
}

// listItems flattens the items of a list-directed READ: scalar variables
// and array elements of a type input sets, whole arrays and sections,
// implied-DO lists over them (inputSteps), none a parameter the user gave
// (which keeps its value), a character item of a known length (its datum
// is padded or cut to it, Fortran 2008 10.10.3).
func (ev *evaluator) listItems(n *apt.IO) ([]inputStep, []apt.Expr, bool) {
	steps, ok := ev.inputSteps(n.Items)
	if !ok {
		return nil, nil, false
	}
	items := targets(steps)
	for _, t := range items {
		if apt.TypeOf(t).Base == apt.TypeCharacter {
			if l, ok := ev.charLen(t); !ok || l < 0 || l > maxInputBytes {
				return nil, nil, false
			}
		}
	}
	return steps, items, true
}
