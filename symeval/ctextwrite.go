package symeval

import (
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// C text reached through pointers, and written by the string library's
// copies. A settings reader cuts a line where strchr found '=' by writing
// a NUL through the pointer it returned, trims the halves by walking a
// char* and writing NULs backwards, copies a name into a structure with
// strncpy, and converts numbers with strtol, going on from the end
// pointer. The evaluation follows these as the run does: a pointer into
// a buffer holds an address inside the buffer's storage (address.go), and
// reads and writes through it reach the buffer's text (cscan.go textAt).

// endPointer sets the end pointer a conversion of text was given
// (strtol(s, &end, 10)): past the number, where the program goes on
// reading ("8x4x2": *end == 'x', strtol(end + 1, &end, 10)). The pointer
// is given the address inside the buffer where the evaluation follows
// the text's storage, else the rest of the text as its own.
func (ev *evaluator) endPointer(n *apt.IO, text string, real bool) {
	kw := keyword(n, apt.KeywordEndPtr)
	if kw == nil {
		return
	}
	nm, ok := kw.(*apt.Name)
	if !ok {
		return // left unknown (forgetEndPointer)
	}
	used := int64(cNumberLen(text, real))
	if n.From != nil {
		if a, ok := ev.textAddress(n.From, used); ok {
			ev.assignAddr(nm, a)
			ev.clobber(ev.key(nm.Name))
			return
		}
	}
	ev.dropAddr(nm)
	rest := text[used:]
	ev.store(nm.Name, Value{str: &rest})
}

// forgetEndPointer makes the end pointer a conversion was given unknown:
// it points past a number the evaluation did not read.
func (ev *evaluator) forgetEndPointer(n *apt.IO) {
	kw := keyword(n, apt.KeywordEndPtr)
	if kw == nil {
		return
	}
	if nm, ok := kw.(*apt.Name); ok {
		ev.dropAddr(nm)
		ev.store(nm.Name, unknownValue(nm.Name, "where the conversion at "+n.Span.Start().String()+" stopped", false))
		return
	}
	ev.assign(kw, unknownValue("end", "where the conversion at "+n.Span.Start().String()+" stopped", false))
}

// textAddress is the address of the character at offset at of the text
// e points to, where e's address is one inside a storage the evaluation
// follows (a buffer's own, or a pointer's into one).
func (ev *evaluator) textAddress(e apt.Expr, at int64) (Value, bool) {
	if !ev.cPointers() {
		return Value{}, false
	}
	a := ev.addrOf(e)
	if _, ok := ev.pointedAt(a, apt.Type{Base: apt.TypeInteger, Kind: 1}); !ok {
		return Value{}, false
	}
	return lift1(a, func(x symbolic.Expr) (symbolic.Expr, bool) { return x.Add(symbolic.Int(at)), true })
}

// copiesText are the C library's copies of text into a buffer.
var copiesText = map[string]bool{"strcpy": true, "strncpy": true, "strcat": true, "strncat": true}

// copyText evaluates strcpy, strncpy, strcat and strncat (C11 7.24.2.3-4,
// 7.24.3.1-2) into a buffer, where the source's text is known: the
// destination holds the text the run's would, so that a name copied out
// of a settings line is compared and converted later. It reports whether
// it evaluated the call; a destination it cannot place is left to
// externalWrites, which makes its text unknown.
func (ev *evaluator) copyText(name string, args []apt.Expr, pos apt.Pos) bool {
	if !ev.cPointers() || len(args) < 2 {
		return false
	}
	src, ok := ev.cString(args[1])
	if !ok {
		return false
	}
	n := int64(-1)
	if name == "strncpy" || name == "strncat" {
		if len(args) < 3 {
			return false
		}
		e, ok := ev.closedInt(ev.value(args[2]), pos).Single()
		if !ok {
			return false
		}
		if n, ok = e.Int64(); !ok || n < 0 {
			return false
		}
	}
	at := int64(0)
	if name == "strcat" || name == "strncat" {
		cur, ok := ev.cString(args[0])
		if !ok {
			return false
		}
		at = int64(len(cur))
	}
	write := copyWrite(name, src, n)
	return ev.writeText(args[0], at, write, pos)
}

// copyWrite is what the copy name writes from the destination's place
// (its start, or for strcat and strncat its terminating NUL): src and a
// NUL, strncpy's n characters padded with NULs and none past n, strncat's
// at most n characters and a NUL.
func copyWrite(name, src string, n int64) string {
	switch {
	case name == "strncpy" && int64(len(src)) < n:
		return src + strings.Repeat("\x00", int(n)-len(src))
	case name == "strncpy":
		return src[:n]
	case name == "strncat" && int64(len(src)) > n:
		return src[:n] + "\x00"
	}
	return src + "\x00"
}

// writeText writes text at offset at of the buffer dst names (a buffer,
// &buf[k], or a pointer into a buffer whose text is known) and reports
// whether it could. A whole buffer whose text is not known takes the
// text where it is written from its start and ends with a NUL.
func (ev *evaluator) writeText(dst apt.Expr, at int64, text string, pos apt.Pos) bool {
	var ix *apt.Index
	switch x := dst.(type) {
	case *apt.Component:
		// A structure's array of characters (c->name): its text is kept
		// under the component's key, as a variable's is.
		key, ok := ev.refKey(x)
		if !ok || x.Type.Base != apt.TypeInteger || x.Type.Kind != 1 {
			return false
		}
		cur := ""
		if v, has := ev.env.lookup(key); has && v.str != nil {
			cur = *v.str
		} else if at != 0 || !strings.HasSuffix(text, "\x00") {
			return false
		}
		t, ok := spliceText(cur, at, text)
		if ok {
			ev.env.set(key, Value{str: &t})
		}
		return ok
	case *apt.Name:
		if x.Type.Base != apt.TypeInteger || x.Type.Kind != 1 {
			return false
		}
		ix = pointedElement(x)
	case *apt.Index:
		ix = x
	default:
		return false
	}
	key, k, cur, ok := ev.textAt(ix)
	if !ok {
		nm, isName := dst.(*apt.Name)
		if !isName || at != 0 || !strings.HasSuffix(text, "\x00") {
			return false
		}
		if d := ev.prog.Resolve(ev.frame().routine, nm.Name); d == nil || !d.IsArray() || unsized(d.Dims) {
			// A pointer whose storage is not followed.
			return false
		}
		t := strings.TrimRight(text, "\x00")
		ev.store(nm.Name, Value{str: &t})
		return true
	}
	t, ok := spliceText(cur, k+at, text)
	if ok {
		ev.env.set(key, Value{str: &t})
	}
	return ok
}

// spliceText is cur with text written from offset k, false where k is
// past cur's end or the write goes past it without a terminator (where the
// text then ends is not known).
func spliceText(cur string, k int64, text string) (string, bool) {
	if k > int64(len(cur)) {
		return "", false
	}
	end := k + int64(len(text))
	if end > int64(len(cur)) && !strings.HasSuffix(text, "\x00") {
		return "", false
	}
	t := cur[:k] + text
	if end < int64(len(cur)) {
		t += cur[end:]
	}
	return t, true
}
