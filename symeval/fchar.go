package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Character values the evaluation knows (a constant, a command-line
// argument, a name assigned from them) are computed as the run computes
// them (Fortran 2008 13.7): TRIM, ADJUSTL, ADJUSTR, LEN_TRIM, INDEX, SCAN,
// VERIFY, IACHAR, ICHAR, ACHAR, CHAR, a substring s(i:j) with known bounds
// (read, and assigned: stringstore.go), and concatenation. A value shorter
// than its variable's declared length stands for itself padded with
// blanks, as comparisons already take it (charRelation).

// knownText returns the text of a character value the evaluation knows.
func (ev *evaluator) knownText(e apt.Expr) (string, bool) {
	if apt.TypeOf(e).Base != apt.TypeCharacter {
		return "", false
	}
	v := ev.value(e)
	if v.str == nil {
		return "", false
	}
	return *v.str, true
}

// textIntrinsic evaluates a character intrinsic of known text.
func (ev *evaluator) textIntrinsic(f *apt.FuncCall) (Value, bool) {
	if len(f.Args) == 0 {
		return Value{}, false
	}
	if f.Name == "achar" || f.Name == "char" {
		// The character of a code (ASCII: gfortran's default kind).
		c, ok := ev.value(f.Args[0]).Single()
		if !ok {
			return Value{}, false
		}
		k, ok := c.Int64()
		if !ok || k < 0 || k > 255 {
			return Value{}, false
		}
		t := string([]byte{byte(k)})
		return Value{str: &t}, true
	}
	s, ok := ev.knownText(f.Args[0])
	if !ok {
		return Value{}, false
	}
	text := func(t string) (Value, bool) { return Value{str: &t}, true }
	switch f.Name {
	case "trim":
		return text(strings.TrimRight(s, " "))
	case "adjustl":
		t := strings.TrimLeft(s, " ")
		return text(t + strings.Repeat(" ", len(s)-len(t)))
	case "adjustr":
		t := strings.TrimRight(s, " ")
		return text(strings.Repeat(" ", len(s)-len(t)) + t)
	case "len":
		switch a := f.Args[0].(type) {
		case *apt.Name:
			// A deferred-length variable (CHARACTER(LEN=:),
			// ALLOCATABLE) is as long as the text last assigned to it;
			// any other's length is its declared one (charLen).
			d := ev.prog.Resolve(ev.frame().routine, a.Name)
			if d == nil || !d.Allocatable && !d.Pointer {
				return Value{}, false
			}
			if _, deferred := d.Type.Len.(*apt.Star); !deferred {
				return Value{}, false
			}
		case *apt.Index, *apt.Component:
			return Value{}, false
		}
		return Known(symbolic.Int(int64(len(s)))), true
	case "len_trim":
		return Known(symbolic.Int(int64(len(strings.TrimRight(s, " "))))), true
	case "iachar", "ichar":
		if len(s) == 0 {
			return Value{}, false
		}
		return Known(symbolic.Int(int64(s[0]))), true
	case "scan", "verify":
		// The first (or last, BACK=) character of s in the set (SCAN) or
		// not in it (VERIFY), 0 where there is none.
		set, back, ok := ev.secondText(f)
		if !ok {
			return Value{}, false
		}
		in := func(c byte) bool { return strings.IndexByte(set, c) >= 0 == (f.Name == "scan") }
		k := 0
		for i := range len(s) {
			j := i
			if back {
				j = len(s) - 1 - i
			}
			if in(s[j]) {
				k = j + 1
				break
			}
		}
		return Known(symbolic.Int(int64(k))), true
	case "index":
		sub, back, ok := ev.secondText(f)
		if !ok {
			return Value{}, false
		}
		k := strings.Index(s, sub)
		if back {
			k = strings.LastIndex(s, sub)
		}
		return Known(symbolic.Int(int64(k + 1))), true
	}
	return Value{}, false
}

// secondText returns the known text of the second argument of INDEX, SCAN
// or VERIFY (the substring, the set) and the value of BACK=, false where
// either is not known.
func (ev *evaluator) secondText(f *apt.FuncCall) (text string, back, ok bool) {
	if len(f.Args) < 2 {
		return "", false, false
	}
	if text, ok = ev.knownText(f.Args[1]); !ok {
		return "", false, false
	}
	back, ok = ev.backArg(f.Args[2:])
	return text, back, ok
}

// backArg is the value of the BACK= argument of INDEX, SCAN or VERIFY
// (the arguments after the second), false where it is not known.
func (ev *evaluator) backArg(rest []apt.Expr) (bool, bool) {
	if len(rest) == 0 {
		return false, true
	}
	a := rest[0]
	if kw, ok := a.(*apt.Keyword); ok {
		if kw.Name != "back" {
			return false, false // KIND=
		}
		a = kw.Value
	}
	b, known := ev.value(a).Single()
	if !known {
		return false, false
	}
	return !b.IsZero(), true
}

// substring evaluates s(i:j) of a character variable whose text is known,
// with bounds that are numbers; false otherwise.
func (ev *evaluator) substring(x *apt.Index) (Value, bool) {
	if x.Type.Base != apt.TypeCharacter || len(x.Subs) != 1 || x.Base != nil {
		return Value{}, false
	}
	sec, ok := x.Subs[0].(*apt.Section)
	if !ok || sec.Stride != nil {
		return Value{}, false
	}
	d := ev.prog.Resolve(ev.frame().routine, x.Name)
	if d == nil || d.IsArray() {
		return Value{}, false
	}
	v := ev.load(x.Name)
	if v.str == nil {
		return Value{}, false
	}
	s := *v.str
	if n, ok := ev.charLen(&apt.Name{Name: x.Name, Type: d.Type}); ok && int64(len(s)) < n {
		s += strings.Repeat(" ", int(n)-len(s)) // the variable's blanks
	}
	i, j, ok := ev.sectionBounds(sec, int64(len(s)))
	if !ok {
		return Value{}, false
	}
	if j < i {
		t := ""
		return Value{str: &t}, true
	}
	if i < 1 || j > int64(len(s)) {
		return Value{}, false // out of the string: the program's error
	}
	t := s[i-1 : j]
	return Value{str: &t}, true
}

// sectionBounds returns the bounds i:j of a substring of a text of n
// characters (1 and n where absent), false where one is not a number.
func (ev *evaluator) sectionBounds(sec *apt.Section, n int64) (i, j int64, ok bool) {
	bound := func(e apt.Expr, def int64) (int64, bool) {
		if e == nil {
			return def, true
		}
		b, ok := ev.value(e).Single()
		if !ok {
			return 0, false
		}
		return b.Int64()
	}
	i, ok1 := bound(sec.Lo, 1)
	j, ok2 := bound(sec.Hi, n)
	return i, j, ok1 && ok2
}

// concat evaluates a // b of known texts.
func (ev *evaluator) concat(b *apt.Binary) (Value, bool) {
	if b.Op != apt.OpConcat {
		return Value{}, false
	}
	x, ok1 := ev.knownText(b.X)
	y, ok2 := ev.knownText(b.Y)
	if !ok1 || !ok2 {
		return Value{}, false
	}
	if n, ok := ev.charLen(b.X); ok && int64(len(x)) < n {
		x += strings.Repeat(" ", int(n)-len(x))
	}
	t := x + y
	return Value{str: &t}, true
}
