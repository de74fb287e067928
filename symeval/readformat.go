package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/readpos"
	"github.com/mkvet/mkvet/internal/runenv"
	"github.com/mkvet/mkvet/symbolic"
)

// Formatted input from the run's files: a READ whose format the evaluation
// knows (a character constant, the label of a FORMAT statement of its
// routine, a character variable of known text) into scalar variables
// takes its values from the records of the file its unit is connected to,
// as the run's READ does (runenv.FormattedRead, checked against gfortran):
// a line read with '(A)' is the line, a number read with I or F is the
// number the field holds. The unit then stands at the record after the
// last one the READ read.

// formatOf returns the format of a formatted READ, false when it is
// list-directed, absent or not known.
func (ev *evaluator) formatOf(n *apt.IO) (*runenv.Format, bool) {
	text, ok := ev.frame().routine.FormatText(n.Format)
	if !ok {
		if _, list := n.Format.(*apt.Star); list || n.Format == nil {
			return nil, false
		}
		if text, ok = ev.knownText(n.Format); !ok {
			return nil, false
		}
	}
	fm, err := runenv.ParseFormat(text)
	return fm, err == nil
}

// readFormatted evaluates a formatted READ from an input file of the
// run's directory, and reports whether it did.
func (ev *evaluator) readFormatted(n *apt.IO) bool {
	if ev.dir == "" || internalUnit(n.Unit) || len(ev.cur.vars) > 0 {
		return false
	}
	fm, steps, items, ok := ev.formattedItems(n)
	if !ok {
		return false
	}
	k, at, recs, ok := ev.unitFile(n)
	if !ok {
		return false
	}
	if at.Record > int64(len(recs)) {
		return ev.readEnd(n)
	}
	fields, next, ok := runenv.FormattedRead(recs, int(at.Record), fm, items)
	if !ok {
		return false // an error or the end of the file: the program's to handle
	}
	ev.assignFields(n, steps, items, fields, at.File)
	ev.setUnit(k, readpos.Unit{File: at.File, Record: int64(next)})
	return true
}

// readTextFormatted evaluates a formatted READ from a character variable
// of known text (an internal file of one record: a word of a deck line
// converted under (I7)), and reports whether it did.
func (ev *evaluator) readTextFormatted(n *apt.IO) bool {
	if nm, ok := n.Unit.(*apt.Name); !internalUnit(n.Unit) || ok && nm.Array {
		return false // an array is a file of its elements' records
	}
	text, ok := ev.knownText(n.Unit)
	if !ok {
		return false
	}
	fm, steps, items, ok := ev.formattedItems(n)
	if !ok {
		return false
	}
	fields, _, ok := runenv.FormattedRead([]string{text}, 1, fm, items)
	if !ok {
		return false
	}
	ev.assignFields(n, steps, items, fields, "")
	return true
}

// formattedItems returns a formatted READ's format, its input list
// (inputSteps) and the items' types, false when the format is not known or
// an item is not one input sets.
func (ev *evaluator) formattedItems(n *apt.IO) (*runenv.Format, []inputStep, []runenv.Item, bool) {
	fm, ok := ev.formatOf(n)
	if !ok {
		return nil, nil, nil, false
	}
	steps, ok := ev.inputSteps(n.Items)
	if !ok {
		return nil, nil, nil, false
	}
	var items []runenv.Item
	for _, t := range targets(steps) {
		switch apt.TypeOf(t).Base {
		case apt.TypeInteger:
			items = append(items, runenv.Item{Kind: runenv.KindInteger})
		case apt.TypeReal:
			items = append(items, runenv.Item{Kind: runenv.KindReal})
		case apt.TypeLogical:
			items = append(items, runenv.Item{Kind: runenv.KindLogical})
		default:
			l, ok := ev.charLen(t)
			if !ok || l < 0 || l > maxInputBytes {
				return nil, nil, nil, false
			}
			items = append(items, runenv.Item{Kind: runenv.KindCharacter, Len: int(l)})
		}
	}
	return fm, steps, items, true
}

// assignFields stores the values a formatted READ read into its items
// and sets its IOSTAT= to 0; file names the input file for Result.Read
// ("" for an internal file, whose values are the program's own).
func (ev *evaluator) assignFields(n *apt.IO, steps []inputStep, items []runenv.Item, fields []runenv.Field, file string) {
	ts := targets(steps)
	vals := make([]Value, len(fields))
	for i, f := range fields {
		name, scalar := itemName(ts[i])
		if _, given := ev.values[name]; given && scalar && items[i].Kind != runenv.KindCharacter {
			// -D gives the variable a value: the user's, not the file's.
			vals[i] = ev.givenRead(n, name, items[i].Kind != runenv.KindInteger)
			continue
		}
		switch items[i].Kind {
		case runenv.KindInteger:
			vals[i] = Known(symbolic.Int(f.Int))
		case runenv.KindReal:
			vals[i] = Known(symbolic.Const(symbolic.RatBig(f.Real)))
		case runenv.KindLogical:
			vals[i] = Known(symbolic.Int(boolInt(f.Bool)))
		default:
			s := f.Str
			vals[i] = Value{str: &s}
		}
		if file != "" {
			ev.noteRead(ReadValue{Pos: n.Span.Start(), Name: name, File: file, Line: f.Record, Text: strings.TrimSpace(f.Text)})
		}
	}
	ev.storeSteps(steps, vals, nil)
	if st := keyword(n, "iostat"); st != nil {
		ev.assign(st, Known(symbolic.Int(0)))
	}
}

// givenRead is the value of a variable a READ reads that -D gives: the
// user's parameter, not the file's datum.
func (ev *evaluator) givenRead(n *apt.IO, name string, real bool) Value {
	p := ev.params[name]
	if p == nil || p.Value == nil {
		p = ev.newParam(name, FromRead, n.Span.Start(), "the value read into "+name, real)
	}
	return Known(p.expr())
}
