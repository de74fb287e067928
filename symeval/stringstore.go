package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Assignments to a substring of a character variable, s(i:j) = x (Fortran
// 2008 6.4.1, 7.2.1.3): the characters i..j of s take x's, cut or padded
// with blanks to j-i+1, the others keep theirs. A line of an input deck is
// cleaned so, one character at a time (CloverLeaf's parse_getline blanks
// control characters and lowers capitals). Where s, the bounds or x are
// not known, s is no longer known.

// substringTarget reports whether x is a substring of a scalar character
// variable, the target of such an assignment.
func (ev *evaluator) substringTarget(x *apt.Index) bool {
	if x.Type.Base != apt.TypeCharacter || len(x.Subs) != 1 || x.Base != nil {
		return false
	}
	if sec, ok := x.Subs[0].(*apt.Section); !ok || sec.Stride != nil {
		return false
	}
	d := ev.prog.Resolve(ev.frame().routine, x.Name)
	return d != nil && !d.IsArray() && ev.paramName(x.Name) == ""
}

// storeSubstring evaluates s(i:j) = v and reports whether x was a
// substring target.
func (ev *evaluator) storeSubstring(x *apt.Index, v Value) bool {
	if !ev.substringTarget(x) {
		return false
	}
	lost := func() bool {
		u := unknownValue(x.Name, "the text of "+x.Name, false)
		u.unk.varying = true
		ev.store(x.Name, u)
		return true
	}
	d := ev.prog.Resolve(ev.frame().routine, x.Name)
	n, ok := ev.charLen(&apt.Name{Name: x.Name, Type: d.Type})
	cur := ev.load(x.Name)
	if !ok || cur.str == nil || v.str == nil {
		return lost()
	}
	s := *cur.str
	if int64(len(s)) < n {
		s += strings.Repeat(" ", int(n)-len(s))
	}
	sec := x.Subs[0].(*apt.Section)
	i, j, ok := ev.sectionBounds(sec, n)
	if !ok || i < 1 || j > n {
		return lost()
	}
	if j < i {
		return true // a zero-length substring: nothing changes
	}
	w := int(j - i + 1)
	part := *v.str
	if len(part) < w {
		part += strings.Repeat(" ", w-len(part))
	}
	t := s[:i-1] + part[:w] + s[j:]
	ev.store(x.Name, Value{str: &t})
	return true
}
