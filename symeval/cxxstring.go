package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// std::string. libstdc++ compiles the members of std::string (its
// constructors, compare, c_str, size) into the library, so a C++ program's
// IR calls them without their code, as it calls strcmp: a program that
// picks its options by `std::string arg(argv[i]); if (arg == "-n")` would
// have every test unknown. The text a string object holds is followed as
// the C string library's is (cstring.go): a string made from a known C
// string, or copied from a known string, holds that text, and compare,
// c_str, size and length are evaluated on it. A string the evaluation does
// not know the text of, and any member not listed, leave the results
// unknown, as before.

// The Itanium ABI symbols of std::__cxx11::basic_string<char>'s members,
// as the frontend lowercases them: the class's prefix, for const members
// too, and the suffix of each member modelled.
const (
	cxxStr      = "_znst7__cxx1112basic_stringicst11char_traitsicesaicee"
	cxxStrConst = "_znkst7__cxx1112basic_stringicst11char_traitsicesaicee"
)

// textKey is where the text of the string object at key is kept.
func textKey(key string) string { return key + "%\x00text" }

// cxxStringText is the text the string object e holds, where known.
func (ev *evaluator) cxxStringText(e apt.Expr) (string, bool) {
	k, ok := ev.stringObject(e)
	if !ok {
		return "", false
	}
	v, ok := ev.env.lookup(textKey(k))
	if !ok || v.str == nil {
		return "", false
	}
	return *v.str, true
}

// stringObject is the storage key of the string object e refers to.
func (ev *evaluator) stringObject(e apt.Expr) (string, bool) {
	if k, ok := ev.objectKey(e); ok {
		return k, true
	}
	return ev.refKey(e)
}

// cxxStringCall evaluates a CALL of a modelled member: a constructor or an
// assignment sets the object's text (forgotten where the source's is not
// known), a destructor ends it. It reports whether callee is one.
func (ev *evaluator) cxxStringCall(callee string, args []apt.Expr) bool {
	member, ok := strings.CutPrefix(callee, cxxStr)
	if !ok {
		member, ok = strings.CutPrefix(callee, cxxStrConst)
		ok = ok && member == "6substremm"
	}
	if !ok || len(args) == 0 {
		return false
	}
	k, ok := ev.stringObject(args[0])
	var text string
	known := false
	switch member {
	case "c1epkcrks3_", "c2epkcrks3_", "asepkc": // (const char*[, allocator])
		if len(args) > 1 {
			text, known = ev.cString(args[1])
		}
	case "c1erks4_", "c2erks4_", "aserks4_", "c1eos4_", "c2eos4_", "aseos4_": // copy and move
		if len(args) > 1 {
			text, known = ev.cxxStringText(args[1])
		}
	case "c1ev", "c2ev": // the empty string
		text, known = "", true
	case "6substremm":
		// substr(pos, n) const, its result constructed in args[0]: the
		// characters from pos, at most n (npos: to the end).
		if len(args) > 3 {
			if s, ok := ev.cxxStringText(args[1]); ok {
				pos, ok1 := valueInt(ev.value(args[2]))
				n, ok2 := valueInt(ev.value(args[3]))
				if ok1 && ok2 && pos >= 0 && pos <= int64(len(s)) {
					end := int64(len(s))
					if n >= 0 && pos+n < end {
						end = pos + n
					}
					text, known = s[pos:end], true
				}
			}
		}
	case "d1ev", "d2ev":
		if ok {
			ev.env.del(textKey(k))
		}
		return true
	default:
		return false
	}
	if !ok {
		return true
	}
	delete(ev.textOrigins, textKey(k))
	if known {
		ev.env.set(textKey(k), Value{str: &text})
	} else {
		ev.env.del(textKey(k))
	}
	return true
}

// cxxStringFunc evaluates a function reference to a modelled const member
// on a string whose text is known: compare with a C string or a string,
// c_str and data (the text, as a C string), size, length and empty, and
// the character operator[] and at() refer to.
func (ev *evaluator) cxxStringFunc(f *apt.FuncCall) (Value, bool) {
	member, isConst := strings.CutPrefix(f.Name, cxxStrConst)
	if !isConst {
		// operator[] and at(), which have non-const forms too.
		m, ok := strings.CutPrefix(f.Name, cxxStr)
		if !ok || m != "ixem" && m != "2atem" {
			return Value{}, false
		}
		member = m
	}
	if len(f.Args) == 0 {
		return Value{}, false
	}
	s, ok := ev.cxxStringText(f.Args[0])
	if !ok {
		return Value{}, false
	}
	switch member {
	case "5emptyev":
		return Known(symbolic.Int(b2i(s == ""))), true
	case "ixem", "2atem":
		// A reference to a character: the text from it, which a load
		// of its element 0 reads (line[0] == '#').
		if len(f.Args) > 1 {
			if e, ok := ev.closedInt(ev.value(f.Args[1]), f.Pos).Single(); ok {
				if k, ok := e.Int64(); ok && k >= 0 && k <= int64(len(s)) {
					rest := s[k:]
					return Value{str: &rest}, true
				}
			}
		}
	case "7compareepkc":
		if len(f.Args) > 1 {
			if t, ok := ev.cString(f.Args[1]); ok {
				return Known(symbolic.Int(int64(strings.Compare(s, t)))), true
			}
		}
	case "7compareerks4_":
		if len(f.Args) > 1 {
			if t, ok := ev.cxxStringText(f.Args[1]); ok {
				return Known(symbolic.Int(int64(strings.Compare(s, t)))), true
			}
		}
	case "5c_strev", "4dataev":
		return Value{str: &s}, true
	case "4findepkcm", "5rfindepkcm", "4finderks4_m", "5rfinderks4_m", "4findecm", "5rfindecm":
		// find and rfind of a C string, a string or a character from
		// pos: where it starts, npos (-1 as the program compares it)
		// where it is not there.
		if len(f.Args) < 3 {
			break
		}
		var t string
		var ok bool
		switch {
		case strings.HasSuffix(member, "pkcm"):
			t, ok = ev.cString(f.Args[1])
		case strings.HasSuffix(member, "rks4_m"):
			t, ok = ev.cxxStringText(f.Args[1])
		default:
			var c int64
			if c, ok = valueInt(ev.value(f.Args[1])); ok {
				t = string(rune(byte(c)))
			}
		}
		pos, okPos := valueInt(ev.value(f.Args[2]))
		if !ok || !okPos {
			break
		}
		return Known(symbolic.Int(int64(findFrom(s, t, pos, strings.HasPrefix(member, "5rfind"))))), true
	case "4sizeev", "6lengthev":
		return Known(symbolic.Int(int64(len(s)))), true
	}
	return Value{}, false
}

// findFrom is std::string::find(t, pos) (the first t starting at pos or
// after) or, with rev, rfind(t, pos) (the last starting at pos or
// before); -1 (npos) where there is none.
func findFrom(s, t string, pos int64, rev bool) int {
	if !rev {
		if pos < 0 || pos > int64(len(s)) {
			return -1
		}
		i := strings.Index(s[pos:], t)
		if i < 0 {
			return -1
		}
		return int(pos) + i
	}
	last := int64(len(s) - len(t))
	if last < 0 {
		return -1
	}
	if pos >= 0 && pos < last {
		last = pos
	}
	for i := last; i >= 0; i-- {
		if strings.HasPrefix(s[i:], t) {
			return int(i)
		}
	}
	return -1
}
