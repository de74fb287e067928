package symeval

import (
	"math/big"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/readpos"
	"github.com/mkvet/mkvet/internal/runenv"
	"github.com/mkvet/mkvet/symbolic"
)

// C's line input, as the run does it: fgets takes the rest of the line a
// FILE stands at from the run's input file into a buffer, which then holds
// that text (its characters can be tested, line[0] == '#'); sscanf takes
// values from a text the evaluation knows, under its format
// (runenv.ScanC). A settings file read line by line, `key = value`, is
// then read as the program reads it. Anywhere the text, the format or the
// file is not known, the reads stay the named unknowns they were.

// readLine evaluates fgets(buf, size, f) from an input file of the run's
// directory, and reports whether it did.
func (ev *evaluator) readLine(n *apt.IO) bool {
	if !n.Line || len(n.Items) != 1 || len(ev.cur.vars) > 0 {
		return false
	}
	buf, ok := textBuffer(n.Items[0])
	if !ok {
		return false
	}
	size, ok := ev.closedInt(ev.value(keyword(n, "size")), n.Span.Start()).Single()
	if !ok {
		return false
	}
	max, ok := size.Int64()
	if !ok || max < 2 {
		return false
	}
	k, at, recs, ok := ev.unitFile(n)
	if !ok {
		return false
	}
	if at.Record > int64(len(recs)) {
		// The end of the file: NULL, the buffer as it was.
		if n.Result != nil {
			ev.assign(n.Result, Known(symbolic.Int(0)))
		}
		return true
	}
	line, ok := afterWords(recs[at.Record-1], int(at.Word))
	if !ok || int64(len(line))+1 > max-1 {
		// A line longer than the buffer is read in parts: where the next
		// part starts is not a position the units keep.
		return false
	}
	text := line + "\n"
	ev.store(buf, Value{str: &text})
	ev.setUnit(k, readpos.Unit{File: at.File, Record: at.Record + 1})
	if n.Result != nil {
		ev.assign(n.Result, Known(symbolic.Int(1))) // the buffer, not NULL
	}
	return true
}

// afterWords is the text of record rec after its first w blank-separated
// words (where a scanf stopped), false when it has fewer.
func afterWords(rec string, w int) (string, bool) {
	i := 0
	for range w {
		for i < len(rec) && (rec[i] == ' ' || rec[i] == '\t') {
			i++
		}
		if i == len(rec) {
			return "", false
		}
		for i < len(rec) && rec[i] != ' ' && rec[i] != '\t' {
			i++
		}
	}
	return rec[i:], true
}

// textBuffer is the character array an argument names (buf, or &buf[0]
// as the frontend writes a decayed array).
func textBuffer(e apt.Expr) (string, bool) {
	switch x := e.(type) {
	case *apt.Name:
		return x.Name, x.Type.Base == apt.TypeInteger && x.Type.Kind == 1 || x.Type.Base == apt.TypeCharacter
	case *apt.Index:
		if x.Base != nil || x.Type.Base != apt.TypeInteger || x.Type.Kind != 1 {
			return "", false
		}
		for _, s := range x.Subs {
			if c, ok := s.(*apt.Const); !ok || c.Text != "0" {
				return "", false
			}
		}
		return x.Name, true
	}
	return "", false
}

// scanString evaluates sscanf(text, format, ...) where the text and the
// format are known, and reports whether it did.
func (ev *evaluator) scanString(n *apt.IO) bool {
	if n.Scan == nil || n.From == nil || n.Stream || len(ev.cur.vars) > 0 {
		return false
	}
	format, ok := ev.cString(n.Scan)
	if !ok {
		return false
	}
	text, ok := ev.cString(n.From)
	if !ok {
		return false
	}
	text, _, _ = strings.Cut(text, "\x00")
	items, result, _, ok := runenv.ScanC(format, text)
	if !ok || len(items) > len(n.Items) {
		return false
	}
	vals := make([]Value, len(items))
	targets := make([]string, len(items)) // a text buffer's name, else ""
	for i, it := range items {
		switch it.Conv {
		case 's', 'c', '[':
			buf, ok := textBuffer(n.Items[i])
			if !ok {
				return false
			}
			t := it.Text
			vals[i], targets[i] = Value{str: &t}, buf
		case 'f':
			if apt.TypeOf(n.Items[i]).Base != apt.TypeReal {
				return false
			}
			vals[i] = Known(symbolic.Const(symbolic.RatBig(new(big.Rat).Set(it.Real))))
		default:
			if apt.TypeOf(n.Items[i]).Base != apt.TypeInteger {
				return false
			}
			vals[i] = Known(symbolic.Int(it.Int))
		}
	}
	for i := range items {
		if targets[i] != "" {
			ev.store(targets[i], vals[i])
		} else {
			ev.assign(n.Items[i], vals[i])
		}
	}
	if n.Result != nil {
		ev.assign(n.Result, Known(symbolic.Int(int64(result))))
	}
	return true
}

// textChar is the character code at x of a buffer holding a known text
// (line[0] after fgets filled line): 0 at its end, false past it.
func (ev *evaluator) textChar(x *apt.Index) (Value, bool) {
	if x.Base != nil || len(x.Subs) != 1 || x.Type.Base != apt.TypeInteger || x.Type.Kind != 1 {
		return Value{}, false
	}
	v, ok := ev.env.lookup(ev.key(x.Name))
	if !ok || v.str == nil {
		return Value{}, false
	}
	e, ok := ev.closedInt(ev.value(x.Subs[0]), x.Pos).Single()
	if !ok {
		return Value{}, false
	}
	k, ok := e.Int64()
	text := *v.str
	switch {
	case !ok || k < 0 || k > int64(len(text)):
		return Value{}, false
	case k == int64(len(text)):
		return Known(symbolic.Int(0)), true
	}
	return Known(symbolic.Int(int64(int8(text[k])))), true
}
