package runenv

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Formatted input (Fortran 2008 10.3-10.8): a format specification read
// into its edit descriptors, and what a READ under it takes from the
// records of a file. The descriptors input uses are interpreted (A, I, F,
// E, EN, ES, D, G, L; nX, Tn, TLn, TRn, /, :, BN, BZ; kP, sign control,
// rounding and decimal modes are accepted and change nothing a deck's
// values need); B, O and Z are refused, and a character string edit
// descriptor fails an input. Output is interpreted for character values
// (FormattedWrite). The file is connected as OPEN leaves it by
// default: blanks in a numeric field are ignored (BLANK='NULL') and a
// record shorter than its fields is padded with blanks (PAD='YES').

// Format is a parsed format specification.
type Format struct {
	items []fmtItem
	// revert is the index in items of the group format reversion goes back
	// to: the last top-level parenthesised group, else the start.
	revert int
}

// fmtItem is an edit descriptor, or a group of them with its repeat.
type fmtItem struct {
	desc  string // "A", "I", "F", "E", "EN", "ES", "D", "G", "L", "X", "T", "TL", "TR", "/", ":", "BN", "BZ"; "" for a group
	rep   int
	w, d  int
	hasW  bool
	group []fmtItem
	lit   string // a character string edit descriptor's text
}

// maxFormatRepeat bounds a repeat count or a width: a deck's format, not a
// way to make the reader loop for ever.
const maxFormatRepeat = 1 << 16

// FormatError is a format that cannot be read, at a byte offset of its text.
type FormatError struct {
	Offset int
	Msg    string
}

func (e *FormatError) Error() string { return fmt.Sprintf("format at %d: %s", e.Offset+1, e.Msg) }

// ParseFormat reads a format specification: "(list)", case and blanks not
// significant outside character strings.
func ParseFormat(spec string) (*Format, error) {
	p := &fmtParser{s: spec}
	p.blanks()
	if !p.eat('(') {
		return nil, p.fail("a format starts with (")
	}
	items, revert, err := p.list(0)
	if err != nil {
		return nil, err
	}
	p.blanks()
	if p.i != len(p.s) {
		return nil, p.fail("text after the format's closing )")
	}
	return &Format{items: items, revert: revert}, nil
}

type fmtParser struct {
	s string
	i int
}

func (p *fmtParser) fail(msg string) error { return &FormatError{Offset: p.i, Msg: msg} }

func (p *fmtParser) blanks() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *fmtParser) peek() byte {
	p.blanks()
	if p.i < len(p.s) {
		c := p.s[p.i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		return c
	}
	return 0
}

func (p *fmtParser) eat(c byte) bool {
	if p.peek() == c {
		p.i++
		return true
	}
	return false
}

// literal reads a character string edit descriptor quoted by q, a doubled
// quote standing for one.
func (p *fmtParser) literal(q byte) (string, error) {
	start := p.i
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		if c != q {
			b.WriteByte(c)
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == q {
			b.WriteByte(q)
			p.i++
			continue
		}
		return b.String(), nil
	}
	return "", &FormatError{Offset: start, Msg: "a character string without its closing quote"}
}

// number reads an unsigned integer, false when there is none.
func (p *fmtParser) number() (int, bool, error) {
	p.blanks()
	start, n := p.i, 0
	for p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == ' ' && p.i > start) {
		if c := p.s[p.i]; c != ' ' {
			n = 10*n + int(c-'0')
			if n > maxFormatRepeat {
				return 0, false, &FormatError{Offset: start, Msg: "a number larger than " + strconv.Itoa(maxFormatRepeat)}
			}
		}
		p.i++
	}
	return n, p.i > start, nil
}

// list reads items up to the ) that closes the list, and the index of the
// last group at this depth (format reversion's target at the top).
func (p *fmtParser) list(depth int) ([]fmtItem, int, error) {
	if depth > 16 {
		return nil, 0, p.fail("groups nested too deeply")
	}
	var items []fmtItem
	revert := 0
	for {
		if p.eat(')') {
			return items, revert, nil
		}
		if p.i >= len(p.s) {
			return nil, 0, p.fail("the format has no closing )")
		}
		if p.eat(',') {
			continue
		}
		if p.eat('/') {
			items = append(items, fmtItem{desc: "/", rep: 1})
			continue
		}
		if p.eat(':') {
			items = append(items, fmtItem{desc: ":", rep: 1})
			continue
		}
		if c := p.peek(); c == '\'' || c == '"' {
			lit, err := p.literal(c)
			if err != nil {
				return nil, 0, err
			}
			items = append(items, fmtItem{desc: "'", rep: 1, lit: lit})
			continue
		}
		// A sign only before P (-2P).
		neg := p.eat('-')
		if !neg {
			p.eat('+')
		}
		rep, hasRep, err := p.number()
		if err != nil {
			return nil, 0, err
		}
		if p.eat('P') {
			continue // a scale factor: no effect on input with an exponent, rare without
		}
		if neg {
			return nil, 0, p.fail("a sign is only allowed before P")
		}
		if !hasRep {
			rep = 1
		}
		if p.peek() == 'H' && hasRep {
			return nil, 0, p.fail("a Hollerith edit descriptor in an input format")
		}
		if p.eat('(') {
			g, _, err := p.list(depth + 1)
			if err != nil {
				return nil, 0, err
			}
			revert = len(items)
			items = append(items, fmtItem{rep: rep, group: g})
			continue
		}
		it, err := p.descriptor(rep, hasRep)
		if err != nil {
			return nil, 0, err
		}
		if it.desc != "" {
			items = append(items, it)
		}
	}
}

// descriptor reads one edit descriptor after its repeat count; an empty
// desc is one input ignores (sign, rounding and decimal modes).
func (p *fmtParser) descriptor(rep int, hasRep bool) (fmtItem, error) {
	start := p.i
	var name []byte
	for c := p.peek(); 'A' <= c && c <= 'Z'; c = p.peek() {
		name = append(name, c)
		p.i++
		if len(name) == 2 || !twoLetter(string(name)) {
			break
		}
	}
	it := fmtItem{desc: string(name), rep: rep}
	switch it.desc {
	case "S", "SP", "SS", "RU", "RD", "RZ", "RN", "RC", "RP", "DC", "DP":
		it.desc = ""
		return it, nil
	case "BN", "BZ":
		return it, nil
	case "X":
		if !hasRep {
			rep = 1
		}
		it.w, it.hasW, it.rep = rep, true, 1
		return it, nil
	case "T", "TL", "TR":
		n, ok, err := p.number()
		if err != nil {
			return it, err
		}
		if !ok {
			return it, p.fail(it.desc + " needs a position")
		}
		it.w, it.hasW, it.rep = n, true, 1
		return it, nil
	case "A", "I", "F", "E", "EN", "ES", "D", "G", "L":
	case "B", "O", "Z":
		return it, &FormatError{Offset: start, Msg: it.desc + " editing is not interpreted"}
	default:
		return it, &FormatError{Offset: start, Msg: "not an edit descriptor"}
	}
	w, ok, err := p.number()
	if err != nil {
		return it, err
	}
	it.w, it.hasW = w, ok
	if !ok && it.desc != "A" {
		return it, p.fail(it.desc + " needs a width")
	}
	if p.eat('.') {
		if it.d, ok, err = p.number(); err != nil || !ok {
			if err == nil {
				err = p.fail("a digit count after .")
			}
			return it, err
		}
	}
	if p.eat('E') { // an exponent width: no effect on input
		if _, ok, err := p.number(); err != nil || !ok {
			if err == nil {
				err = p.fail("an exponent width after E")
			}
			return it, err
		}
	}
	return it, nil
}

// twoLetter reports whether name is the first letter of a descriptor with
// two (EN, ES, BN, BZ, TL, TR, SP, SS, RU, ..., DC, DP).
func twoLetter(name string) bool { return strings.Contains("EBTSRD", name) }

// Kind is the type of an input item a formatted READ stores into.
type Kind uint8

// The item types.
const (
	KindInteger Kind = iota + 1
	KindReal
	KindLogical
	KindCharacter
)

// Item is an input item: its type and, for a character variable, its
// length.
type Item struct {
	Kind Kind
	Len  int
}

// Field is the value an item took: the field as written in the file, the
// record it is on (from 1), and the value of the item's type.
type Field struct {
	Text   string
	Record int
	Int    int64
	Real   *big.Rat
	Bool   bool
	Str    string
}

// FormattedRead is what one formatted READ of items takes from the records
// of a file starting at record from (1-based), and the record the next READ
// starts at. ok is false where the run fails: the file ends first (its
// end-of-file condition), or a field is not a value of its item's type
// under its edit descriptor (an error the program may handle).
func FormattedRead(recs []string, from int, f *Format, items []Item) (vals []Field, next int, ok bool) {
	r := &reader{recs: recs, rec: from, items: items}
	if !r.startRecord() {
		return nil, r.rec, false
	}
	list := f.items
	for {
		before := len(r.out)
		done, ok := r.run(list, 0)
		if !ok {
			return nil, r.rec, false
		}
		if done || len(r.out) == len(items) {
			return r.out, r.rec + 1, true
		}
		if len(r.out) == before && r.reverted {
			return nil, r.rec, false // no data edit descriptor to revert to
		}
		// Format reversion: the next record, and the last top-level
		// group again (Fortran 2008 10.4 paragraph 8).
		r.reverted = true
		list = f.items[f.revert:]
		r.rec++
		if !r.startRecord() {
			return nil, r.rec, false
		}
	}
}

type reader struct {
	recs     []string
	rec      int    // the current record, from 1
	line     string // its text
	pos      int    // the position in it, from 0
	items    []Item
	out      []Field
	bz       bool // BZ: blanks in numeric fields are zeros
	reverted bool
	steps    int
}

func (r *reader) startRecord() bool {
	if r.rec < 1 || r.rec > len(r.recs) {
		return false
	}
	r.line, r.pos = r.recs[r.rec-1], 0
	return true
}

// maxSteps bounds the descriptors one READ interprets.
const maxSteps = 1 << 20

// run interprets items; done is set when the input list is exhausted at a
// data edit descriptor or a colon, which ends the READ.
func (r *reader) run(items []fmtItem, depth int) (done, ok bool) {
	for _, it := range items {
		for range it.rep {
			r.steps++
			if r.steps > maxSteps {
				return false, false
			}
			if it.group != nil {
				if done, ok := r.run(it.group, depth+1); done || !ok {
					return done, ok
				}
				continue
			}
			switch it.desc {
			case "/":
				// The next record; none is the end of the file, items
				// left to read or not (as gfortran has it).
				r.rec++
				if !r.startRecord() {
					return false, false
				}
			case ":":
				if len(r.out) == len(r.items) {
					return true, true
				}
			case "'":
				return false, false // a string edit descriptor in input: an error
			case "BN", "BZ":
				r.bz = it.desc == "BZ"
			case "X", "TR":
				r.pos += it.w
			case "TL":
				r.pos = max(0, r.pos-it.w)
			case "T":
				r.pos = max(0, it.w-1)
			default:
				if len(r.out) == len(r.items) {
					return true, true
				}
				f, ok := r.field(it, r.items[len(r.out)])
				if !ok {
					return false, false
				}
				r.out = append(r.out, f)
			}
		}
	}
	return false, true
}

// take returns the next w characters of the record, padded with blanks.
func (r *reader) take(w int) string {
	var b strings.Builder
	for i := range w {
		if p := r.pos + i; p < len(r.line) {
			b.WriteByte(r.line[p])
		} else {
			b.WriteByte(' ')
		}
	}
	r.pos += w
	return b.String()
}

// field converts the next field under edit descriptor it for item.
func (r *reader) field(it fmtItem, item Item) (Field, bool) {
	w := it.w
	if it.desc == "A" && !it.hasW {
		w = item.Len
	}
	text := r.take(w)
	f := Field{Text: text, Record: r.rec}
	switch it.desc {
	case "A":
		if item.Kind != KindCharacter {
			return f, false
		}
		// Fortran 2008 10.7.4: the rightmost len characters of a wider
		// field, a narrower one padded with blanks.
		if w >= item.Len {
			f.Str = text[w-item.Len:]
		} else {
			f.Str = text + strings.Repeat(" ", item.Len-w)
		}
		return f, true
	case "L":
		if item.Kind != KindLogical {
			return f, false
		}
		b, ok := Logical(strings.TrimLeft(text, " "))
		f.Bool = b
		return f, ok
	case "I":
		if item.Kind != KindInteger {
			return f, false
		}
		n, ok := Integer(r.numeric(text))
		f.Int = n
		return f, ok
	}
	if item.Kind != KindReal {
		return f, false
	}
	x, ok := fixedReal(r.numeric(text), it.d)
	f.Real = x
	return f, ok
}

// numeric is a numeric field's text as its digits stand: blanks dropped
// (BN) or zeros (BZ, leading ones dropped either way), an empty field 0.
func (r *reader) numeric(text string) string {
	text = strings.TrimLeft(text, " ")
	if r.bz {
		text = strings.ReplaceAll(text, " ", "0")
	} else {
		text = strings.ReplaceAll(text, " ", "")
	}
	if text == "" {
		return "0"
	}
	return text
}

// fixedReal reads a real field under Fw.d, Ew.d, Dw.d or Gw.d: a field
// without a decimal point has d digits of fraction (Fortran 2008
// 10.7.2.3.2), and an exponent may be a signed integer without its letter
// (1.5-3 is 1.5E-3).
func fixedReal(text string, d int) (*big.Rat, bool) {
	mant, exp, hasExp := text, "", false
	for i := 1; i < len(text); i++ {
		c := text[i]
		if strings.IndexByte("EeDdQq", c) >= 0 {
			mant, exp, hasExp = text[:i], text[i+1:], true
			break
		}
		if c == '+' || c == '-' {
			mant, exp, hasExp = text[:i], text[i:], true
			break
		}
	}
	if hasExp && strings.Trim(exp, "+-") == "" {
		return nil, false // a letter or sign with no exponent
	}
	if strings.Trim(mant, "+-.") == "" {
		// A sign or a point alone is a zero, as gfortran reads it.
		if len(mant) > 2 || strings.Count(mant, ".") > 1 {
			return nil, false
		}
		mant = "0"
	}
	if !strings.Contains(mant, ".") && d > 0 {
		sign := ""
		if mant[0] == '+' || mant[0] == '-' {
			sign, mant = mant[:1], mant[1:]
		}
		if len(mant) < d {
			mant = strings.Repeat("0", d-len(mant)) + mant
		}
		mant = sign + mant[:len(mant)-d] + "." + mant[len(mant)-d:]
	}
	s := mant
	if hasExp {
		s += "E" + exp
	}
	return Real(s)
}

// FormattedWrite returns the records a formatted WRITE of character values
// makes: each A edit descriptor writes the next value (Aw: right-justified
// in w, or its first w characters), a character string edit descriptor its
// text, X and TR blanks, T and TL move, a slash starts a record, format
// reversion a new one (Fortran 2008 10.4, 10.7.4). false when the format
// edits a value with another descriptor, or a TL goes back past the
// record's start (where gfortran does not do what the standard says).
func FormattedWrite(f *Format, vals []string) ([]string, bool) {
	w := &writer{vals: vals}
	list := f.items
	for {
		before := w.next
		done, ok := w.run(list)
		if !ok {
			return nil, false
		}
		if done || w.next == len(vals) {
			w.endRecord()
			return w.recs, true
		}
		if w.next == before && w.reverted {
			return nil, false
		}
		w.reverted = true
		list = f.items[f.revert:]
		w.endRecord()
	}
}

type writer struct {
	vals     []string
	next     int
	recs     []string
	line     []byte
	pos      int
	reverted bool
	steps    int
}

func (w *writer) endRecord() {
	w.recs = append(w.recs, string(w.line))
	w.line, w.pos = nil, 0
}

// put writes s at the current position, blanks filling any gap.
func (w *writer) put(s string) {
	for len(w.line) < w.pos {
		w.line = append(w.line, ' ')
	}
	for i := range len(s) {
		if p := w.pos + i; p < len(w.line) {
			w.line[p] = s[i]
		} else {
			w.line = append(w.line, s[i])
		}
	}
	w.pos += len(s)
}

func (w *writer) run(items []fmtItem) (done, ok bool) {
	for _, it := range items {
		for range it.rep {
			w.steps++
			if w.steps > maxSteps || len(w.line) > 1<<20 {
				return false, false
			}
			if it.group != nil {
				if done, ok := w.run(it.group); done || !ok {
					return done, ok
				}
				continue
			}
			switch it.desc {
			case "'":
				w.put(it.lit)
			case "/":
				w.endRecord()
			case ":":
				if w.next == len(w.vals) {
					return true, true
				}
			case "BN", "BZ":
			case "X", "TR":
				w.pos += it.w
			case "TL":
				if it.w > w.pos {
					// Before the record's start: the standard stops at it,
					// gfortran does otherwise; no text is safer than one.
					return false, false
				}
				w.pos -= it.w
			case "T":
				w.pos = max(0, it.w-1)
			case "A":
				if w.next == len(w.vals) {
					return true, true
				}
				s := w.vals[w.next]
				w.next++
				if it.hasW {
					if it.w > len(s) {
						s = strings.Repeat(" ", it.w-len(s)) + s
					} else {
						s = s[:it.w]
					}
				}
				w.put(s)
			default:
				if w.next == len(w.vals) {
					return true, true
				}
				return false, false
			}
		}
	}
	return false, true
}
