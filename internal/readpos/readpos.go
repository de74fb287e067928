// Package readpos says which datum of an input file a READ item reads, so
// that the same datum read twice is known to be one: a program that reads
// its deck on one process to size its process grid (read (3,*) npe_i,
// npe_j) and again, from the start of the same file, with the rest of its
// settings (read (10,*) npe_i, npe_j, mk, ...) reads npe_i once.
//
// The symbolic evaluation (symeval) and the concrete interpreter
// (internal/aptrun) both follow units with it, each keeping the positions
// with its own state, so that they agree on which READ items are the same
// input. The rules:
//
//   - OPEN of a unit with FILE= a constant connects it to that file at
//     record 1; CLOSE disconnects it; REWIND goes back to record 1 and
//     BACKSPACE one record back.
//   - Each READ of a connected unit reads the record it is at and leaves
//     the unit at the next one (list-directed and formatted reads alike,
//     one record per READ).
//   - The items of a READ are numbered from 0 in order while they are
//     scalar variables: an array or implied DO takes a number of values
//     that depends on its size, and the items after it are not numbered.
//   - A datum is a file, a record and an item number.
package readpos

import (
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Unit is where a unit connected to a file is: the file named in its OPEN
// and the record its next READ reads, from 1. Word counts the words of that
// record a stream read (C's scanf, which does not skip to the next record
// when it returns) has taken; a record-oriented READ starts the record.
type Unit struct {
	File   string
	Record int64
	Word   int64
}

// Opened is a unit just connected to file.
func Opened(file string) Unit { return Unit{File: strings.TrimSpace(file), Record: 1} }

// Rewound is u back at its first record.
func (u Unit) Rewound() Unit { return Unit{File: u.File, Record: 1} }

// Backspaced is u one record back (at the first, it stays).
func (u Unit) Backspaced() Unit { return Unit{File: u.File, Record: max(u.Record-1, 1)} }

// Next is u after a READ of its record.
func (u Unit) Next() Unit { return Unit{File: u.File, Record: u.Record + 1} }

// Datum identifies the item-th value (from 0) of the record u is at.
func (u Unit) Datum(item int) string {
	return u.File + "\x00" + strconv.FormatInt(u.Record, 10) + "\x00" + strconv.Itoa(item)
}

// Encode and Decode write a Unit as one string and read it back, for a
// state that holds strings.
func (u Unit) Encode() string {
	return strconv.FormatInt(u.Record, 10) + ":" + strconv.FormatInt(u.Word, 10) + "\x00" + u.File
}

// Decode is the inverse of Encode.
func Decode(s string) (Unit, bool) {
	pos, file, ok := strings.Cut(s, "\x00")
	rec, word, _ := strings.Cut(pos, ":")
	n, err := strconv.ParseInt(rec, 10, 64)
	if !ok || err != nil {
		return Unit{}, false
	}
	w := int64(0)
	if word != "" {
		if w, err = strconv.ParseInt(word, 10, 64); err != nil {
			return Unit{}, false
		}
	}
	return Unit{File: file, Record: n, Word: w}, true
}

// File returns the file an OPEN connects its unit to, when FILE= is a
// character constant.
func File(n *apt.IO) (string, bool) {
	if n.Kind != apt.IOOpen {
		return "", false
	}
	for _, c := range n.Control {
		if kw, ok := c.(*apt.Keyword); ok && kw.Name == "file" {
			if s, ok := kw.Value.(*apt.Const); ok && s.Kind == apt.ConstChar {
				return strings.TrimSpace(s.Text), true
			}
		}
	}
	return "", false
}

// Items returns the leading items of a READ that are scalar variables, in
// order, by their item numbers; isArray tells which names are arrays.
func Items(n *apt.IO, isArray func(name string) bool) []string {
	var out []string
	for _, it := range n.Items {
		nm, ok := it.(*apt.Name)
		if !ok || isArray(nm.Name) {
			break
		}
		out = append(out, nm.Name)
	}
	return out
}
