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
	var text string
	switch f := n.Format.(type) {
	case nil, *apt.Star:
		return nil, false
	case *apt.Const:
		switch f.Kind {
		case apt.ConstChar:
			text = f.Text
		case apt.ConstInt:
			s, ok := ev.frame().routine.Formats[strings.TrimLeft(f.Text, "0")]
			if !ok {
				return nil, false
			}
			text = s
		default:
			return nil, false
		}
	default:
		s, ok := ev.knownText(f)
		if !ok {
			return nil, false
		}
		text = s
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
	fm, items, names, ok := ev.formattedItems(n)
	if !ok {
		return false
	}
	k, at, recs, ok := ev.unitFile(n)
	if !ok {
		return false
	}
	if st := keyword(n, "iostat"); st != nil && at.Record > int64(len(recs)) {
		// Past the last record: gfortran's end of file, the items keep
		// their values (a loop reading to the end of its file).
		ev.assign(st, Known(symbolic.Int(iostatEnd)))
		return true
	}
	fields, next, ok := runenv.FormattedRead(recs, int(at.Record), fm, items)
	if !ok {
		return false // an error or the end of the file: the program's to handle
	}
	ev.assignFields(n, items, names, fields, at.File)
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
	fm, items, names, ok := ev.formattedItems(n)
	if !ok {
		return false
	}
	fields, _, ok := runenv.FormattedRead([]string{text}, 1, fm, items)
	if !ok {
		return false
	}
	ev.assignFields(n, items, names, fields, "")
	return true
}

// formattedItems returns a formatted READ's format and its items, false
// unless every item is a scalar variable of a type formatted input sets
// (and a character one of known length) that is not a parameter.
func (ev *evaluator) formattedItems(n *apt.IO) (*runenv.Format, []runenv.Item, []string, bool) {
	if len(n.Items) != len(n.Reads) {
		return nil, nil, nil, false
	}
	fm, ok := ev.formatOf(n)
	if !ok {
		return nil, nil, nil, false
	}
	items := make([]runenv.Item, len(n.Items))
	names := make([]string, len(n.Items))
	for i, it := range n.Items {
		nm, ok := it.(*apt.Name)
		if !ok || nm.Array || ev.paramName(nm.Name) != "" {
			return nil, nil, nil, false
		}
		base := nm.Type.Base
		if decl := ev.prog.Resolve(ev.frame().routine, nm.Name); decl != nil {
			if decl.IsArray() {
				return nil, nil, nil, false
			}
			base = decl.Type.Base
		}
		switch base {
		case apt.TypeInteger:
			items[i].Kind = runenv.KindInteger
		case apt.TypeReal:
			items[i].Kind = runenv.KindReal
		case apt.TypeLogical:
			items[i].Kind = runenv.KindLogical
		case apt.TypeCharacter:
			l, ok := ev.charLen(nm)
			if !ok || l < 0 || l > maxInputBytes {
				return nil, nil, nil, false
			}
			items[i] = runenv.Item{Kind: runenv.KindCharacter, Len: int(l)}
		default:
			return nil, nil, nil, false
		}
		names[i] = nm.Name
	}
	return fm, items, names, true
}

// assignFields stores the values a formatted READ read into its items and
// sets its IOSTAT= to 0; file names the input file for Result.Read ("" for
// an internal file, whose values are the program's own).
func (ev *evaluator) assignFields(n *apt.IO, items []runenv.Item, names []string, fields []runenv.Field, file string) {
	for i, f := range fields {
		var v Value
		given := false
		if _, ok := ev.values[names[i]]; ok && items[i].Kind != runenv.KindCharacter {
			// -D gives the variable a value: the user's, not the file's.
			v, given = ev.givenRead(n, names[i], items[i].Kind != runenv.KindInteger), true
		} else {
			switch items[i].Kind {
			case runenv.KindInteger:
				v = Known(symbolic.Int(f.Int))
			case runenv.KindReal:
				v = Known(symbolic.Const(symbolic.RatBig(f.Real)))
			case runenv.KindLogical:
				v = Known(symbolic.Int(boolInt(f.Bool)))
			default:
				s := f.Str
				v = Value{str: &s}
			}
		}
		ev.assign(n.Items[i], v)
		if !given && file != "" {
			ev.noteRead(ReadValue{Pos: n.Span.Start(), Name: names[i], File: file, Line: f.Record, Text: strings.TrimSpace(f.Text)})
		}
	}
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
