package symeval

import (
	"math/big"
	"strings"
	"unicode"

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
	if keyword(n, apt.KeywordCxxString) != nil {
		return ev.getline(n)
	}
	buf, ok := textBuffer(n.Items[0])
	if !ok {
		return false
	}
	grows := keyword(n, apt.KeywordGetline) != nil
	max := int64(-1)
	if !grows {
		size, ok := ev.closedInt(ev.value(keyword(n, "size")), n.Span.Start()).Single()
		if !ok {
			return false
		}
		if max, ok = size.Int64(); !ok || max < 2 {
			return false
		}
	}
	k, at, line, eof, ok := ev.nextLine(n)
	if eof || !ok {
		return eof // at the end of the file: NULL, the buffer as it was
	}
	if rest := strings.TrimLeftFunc(line, unicode.IsSpace); at.Word > 0 && rest != "" && rest != line {
		// After a word and before another: whether a scanf's white space
		// took the blanks between is not a position the units keep.
		return false
	}
	if !grows && int64(len(line))+1 > max-1 {
		// A line longer than the buffer is read in parts: where the next
		// part starts is not a position the units keep.
		return false
	}
	text := line + "\n"
	ev.storeText(buf, text)
	ev.lineRead(n, k, at) // the buffer, not NULL
	if grows && n.Result != nil {
		ev.assign(n.Result, Known(symbolic.Int(int64(len(text)))))
	}
	return true
}

// storeText makes the buffer name holds the text: a C pointer's buffer is
// a storage with an address (one getline allocated, or the storage the
// pointer holds the address of), so that other pointers set from it
// (char *p = line) and the addresses the string functions return reach
// the same text.
func (ev *evaluator) storeText(name, text string) {
	d := ev.prog.Resolve(ev.frame().routine, name)
	if d == nil || !ev.cPointers() || !d.IsArray() || !unsized(d.Dims) || ev.paramName(name) != "" {
		ev.store(name, Value{str: &text})
		return
	}
	char := apt.Type{Base: apt.TypeInteger, Kind: 1}
	own := ev.key(name)
	if p, ok := ev.pointee(name, char); ok && p.storage != own {
		// Into another storage (a pool's part, a buffer passed down).
		switch {
		case ev.writeText(&apt.Name{Name: name, Type: char, Array: true}, 0, text+"\x00", apt.Pos{}):
		case p.off == 0 && p.view == 1:
			ev.env.set(p.storage, Value{str: &text})
		default:
			ev.clobber(p.storage)
		}
		return
	}
	if _, ok := ev.pointee(name, char); !ok {
		// NULL (getline allocates), or an address the evaluation does
		// not follow: the text's storage is one of its own.
		if slot, ok := ev.addrSlot(&apt.Name{Name: name, Type: char, Array: true}); ok {
			a := ev.newAddress()
			ev.setAddr(slot, a)
			ev.noteStorage(a, own, char)
		}
	}
	ev.store(name, Value{str: &text})
}

// nextLine is the rest of the line the unit a line read reads stands at
// (after the words a scan took), with the unit's key and position. At
// the end of the file eof is set and the read's result is 0 (fgets's
// NULL, a failed getline); ok is false where the unit, its file or the
// line is not known.
func (ev *evaluator) nextLine(n *apt.IO) (k string, at readpos.Unit, line string, eof, ok bool) {
	k, at, recs, ok := ev.unitFile(n)
	if !ok {
		return "", at, "", false, false
	}
	if at.Record > int64(len(recs)) {
		if n.Result != nil {
			end := int64(0) // fgets's NULL, a failed std::getline
			if keyword(n, apt.KeywordGetline) != nil {
				end = -1
			}
			ev.assign(n.Result, Known(symbolic.Int(end)))
		}
		return k, at, "", true, true
	}
	line, ok = afterWords(recs[at.Record-1], int(at.Word))
	return k, at, line, false, ok
}

// lineRead moves the unit at key k past the line at at and sets the
// read's result to 1 (fgets's buffer, a good stream).
func (ev *evaluator) lineRead(n *apt.IO, k string, at readpos.Unit) {
	ev.setUnit(k, readpos.Unit{File: at.File, Record: at.Record + 1})
	if n.Result != nil {
		ev.assign(n.Result, Known(symbolic.Int(1)))
	}
}

// getline evaluates std::getline(in, line): the rest of the line the
// stream stands at, without its newline, into the string, and the stream
// good (the result 1), or at the end of its file failed (0).
func (ev *evaluator) getline(n *apt.IO) bool {
	obj, ok := ev.stringObject(n.Items[0])
	if !ok {
		return false
	}
	k, at, line, eof, ok := ev.nextLine(n)
	if eof || !ok {
		return eof
	}
	if at.Word > 0 {
		// After a word the line goes on from where the extraction
		// stopped, blanks and all: a position the units do not keep.
		return false
	}
	ev.env.set(textKey(obj), Value{str: &line})
	if ev.textOrigins == nil {
		ev.textOrigins = map[string]ReadValue{}
	}
	ev.textOrigins[textKey(obj)] = ReadValue{File: at.File, Line: int(at.Record)}
	ev.lineRead(n, k, at)
	return true
}

// afterWords is the text of record rec after its first w blank-separated
// words (where a scanf stopped), false when it has fewer.
func afterWords(rec string, w int) (string, bool) {
	i := 0
	for range w {
		for i < len(rec) && runenv.IsSpaceC(rec[i]) {
			i++
		}
		if i == len(rec) {
			return "", false
		}
		for i < len(rec) && !runenv.IsSpaceC(rec[i]) {
			i++
		}
	}
	return rec[i:], true
}

// fieldText is the storage key of a C structure's character array an
// argument starts (c->method, &c->name[0]): the caller's structure's
// field, where the text a scan reads goes, as a buffer's does.
func (ev *evaluator) fieldText(e apt.Expr) (string, bool) {
	ix, ok := e.(*apt.Index)
	if !ok || ix.Base == nil || ix.Type.Base != apt.TypeInteger || ix.Type.Kind != 1 || !ev.cPointers() {
		return "", false
	}
	for _, s := range ix.Subs {
		if c, ok := s.(*apt.Const); !ok || c.Text != "0" {
			return "", false
		}
	}
	return ev.arrayKey(ix)
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
	return ok && ev.assignScanned(n, items, result)
}

// maxScanRecords bounds the records of a file one scanf may go over.
const maxScanRecords = 256

// scanStream evaluates fscanf(f, format, ...) and scanf(format, ...) from
// an input file of the run's directory under their format (literal
// characters, widths, scansets): the text from where the stream stands,
// which it then stands after what the scan consumed. It reports whether
// it did; a scan that ends inside a word (a width), where the units keep
// no position, is left to the reads by words (readfile.go).
func (ev *evaluator) scanStream(n *apt.IO) bool {
	if n.Scan == nil || !n.Stream || len(ev.cur.vars) > 0 {
		return false
	}
	format, ok := ev.cString(n.Scan)
	if !ok {
		return false
	}
	k, at, recs, ok := ev.unitFile(n)
	if !ok {
		return false
	}
	// The text from the stream's position: the rest of its record, then
	// whole records; starts[i] is where record at.Record+i begins in it.
	var text strings.Builder
	var starts []int
	for r := at.Record; r <= int64(len(recs)) && r < at.Record+maxScanRecords; r++ {
		rec := recs[r-1]
		if r == at.Record {
			if rec, ok = afterWords(rec, int(at.Word)); !ok {
				return false
			}
		}
		starts = append(starts, text.Len())
		text.WriteString(rec)
		text.WriteByte('\n')
	}
	t := text.String()
	items, result, used, ok := runenv.ScanC(format, t)
	if !ok || used > 0 && used < len(t) && !runenv.IsSpaceC(t[used-1]) && !runenv.IsSpaceC(t[used]) {
		return false
	}
	// The position after the scan: the record it ends in, after the words
	// of it the scan took (a consumed newline ends the record).
	next := readpos.Unit{File: at.File, Record: at.Record + int64(len(starts))}
	for i, start := range starts {
		end := len(t)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		if used < end {
			next.Record, next.Word = at.Record+int64(i), int64(len(strings.Fields(t[start:used])))
			if i == 0 {
				next.Word += at.Word
			}
			break
		}
	}
	if !ev.assignScanned(n, items, result) {
		return false
	}
	ev.setUnit(k, next)
	for i, it := range items {
		if it.Conv == 'n' || i >= len(n.Items) {
			continue
		}
		r := 0
		for r+1 < len(starts) && starts[r+1] <= it.At {
			r++
		}
		name, _ := itemName(n.Items[i])
		ev.noteRead(ReadValue{Pos: n.Span.Start(), Name: name, File: at.File, Line: int(at.Record) + r, Text: it.Text})
	}
	return true
}

// assignScanned assigns a scan's items to the read's items and its value
// to the read's result, and reports whether it did (an item of a type the
// conversion does not write leaves all unassigned).
func (ev *evaluator) assignScanned(n *apt.IO, items []runenv.Scanned, result int) bool {
	if len(items) > len(n.Items) {
		return false
	}
	vals := make([]Value, len(items))
	targets := make([]string, len(items)) // a text buffer's name, else ""
	keys := make([]string, len(items))    // or the storage key text goes to
	for i, it := range items {
		switch it.Conv {
		case 's', 'c', '[':
			t := it.Text
			if keyword(n, apt.KeywordCxxString) != nil {
				// A word into a std::string (in >> word).
				k, ok := ev.stringObject(n.Items[i])
				if !ok {
					return false
				}
				vals[i], keys[i] = Value{str: &t}, textKey(k)
				continue
			}
			if k, ok := ev.fieldText(n.Items[i]); ok {
				// A structure's character array (c->method).
				vals[i], keys[i] = Value{str: &t}, k
				continue
			}
			buf, ok := textBuffer(n.Items[i])
			if !ok {
				return false
			}
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
		if keys[i] != "" {
			ev.env.set(keys[i], vals[i])
		} else if targets[i] != "" {
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

// textAt is where the character x selects lies in a buffer holding a
// known text: the buffer's key and the character's offset, with the text.
// x is the buffer's own element (line[k]) or one reached through a C
// pointer holding an address inside the buffer (*eq after eq =
// strchr(line, '='); s[0] in a routine given line + 3), as the run
// reaches it. False where the buffer's text or the offset is not known.
func (ev *evaluator) textAt(x *apt.Index) (key string, k int64, text string, ok bool) {
	if x.Base != nil || len(x.Subs) != 1 || x.Type.Base != apt.TypeInteger || x.Type.Kind != 1 {
		return "", 0, "", false
	}
	key = ev.key(x.Name)
	v, has := ev.env.lookup(key)
	var off Value
	if has && v.str != nil {
		off = ev.value(x.Subs[0])
	} else {
		dk, doff, dok := ev.derefArray(x)
		if !dok {
			return "", 0, "", false
		}
		key, off = dk, doff
		if v, has = ev.env.lookup(key); !has || v.str == nil {
			return "", 0, "", false
		}
	}
	e, single := ev.closedInt(off, x.Pos).Single()
	if !single {
		return "", 0, "", false
	}
	k, isInt := e.Int64()
	if !isInt || k < 0 || k > int64(len(*v.str)) {
		return "", 0, "", false
	}
	return key, k, *v.str, true
}

// textFrom is the text of a buffer holding a known text from the
// character x selects (&line[3] as a char*: line + 3), false where the
// buffer's text or the offset is not known or the offset is past its end.
func (ev *evaluator) textFrom(x *apt.Index) (string, bool) {
	_, k, text, ok := ev.textAt(x)
	if !ok {
		return "", false
	}
	return text[k:], true
}

// storeChar stores a character into a buffer holding a known text
// (line[strlen(line) - 1] = '\0' cutting the newline fgets kept; *eq = 0
// through a pointer into it), and reports whether it did; a store it
// cannot place leaves the buffer to the array stores, which drop the text.
func (ev *evaluator) storeChar(ix *apt.Index, v Value) bool {
	key, k, t, ok := ev.textAt(ix)
	if !ok {
		return false
	}
	ce, okc := ev.closedInt(v, ix.Pos).Single()
	if !okc {
		return false
	}
	c, okc := ce.Int64()
	if !okc || c < -128 || c > 255 {
		return false
	}
	if k == int64(len(t)) {
		t += string(byte(c))
	} else {
		t = t[:k] + string(byte(c)) + t[k+1:]
	}
	ev.env.set(key, Value{str: &t})
	return true
}

// textChar is the character code at x of a buffer holding a known text
// (line[0] after fgets filled line): 0 at its end, false past it.
func (ev *evaluator) textChar(x *apt.Index) (Value, bool) {
	_, k, text, ok := ev.textAt(x)
	switch {
	case !ok:
		return Value{}, false
	case k == int64(len(text)):
		return Known(symbolic.Int(0)), true
	}

	return Known(symbolic.Int(int64(int8(text[k])))), true
}
